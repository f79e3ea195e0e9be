//! Named policies: the built-in ones and those a library registers. A new scheduler, issue
//! stage, register-file organisation or gating policy is added by implementing its trait
//! ([`WarpScheduler`], [`IssueStage`], [`RegisterFileOrg`], [`GatingPolicy`]) and registering a
//! factory under a name; a configuration then selects it (`sched.policy = "plugin:NAME"`) or a
//! [`super::Simulation`] builder does (`.issue_stage("NAME")`, …). Built-in policies are not
//! built through factories: they stay in the slot enums' direct variants, so that their calls
//! inline; only registered policies go through trait objects.

use super::policy::{
    GatingPolicy, IssueStage, MonolithicRf, NoGating, RegisterFileOrg, WarpScheduler,
};
use super::slots::{make_scheduler, GatingSlot, IssueStageSlot, RegisterFileSlot};
use super::sm::SmPolicies;
use crate::config::{GpuConfig, OooMode, SchedPolicy};
use crate::emu::{Reconvergence, ReconvergenceFactory};
use crate::SimError;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Builds one warp scheduler (the SM calls it once per scheduler).
pub type SchedulerFactory = Arc<dyn Fn(&GpuConfig) -> Box<dyn WarpScheduler> + Send + Sync>;
/// Builds one SM's issue stage.
pub type IssueStageFactory = Arc<dyn Fn(&GpuConfig) -> Box<dyn IssueStage> + Send + Sync>;
/// Builds one SM's register-file organisation.
pub type RegisterFileFactory = Arc<dyn Fn(&GpuConfig) -> Box<dyn RegisterFileOrg> + Send + Sync>;
/// Builds one SM's gating policy.
pub type GatingFactory = Arc<dyn Fn(&GpuConfig) -> Box<dyn GatingPolicy> + Send + Sync>;

/// Built-in scheduler names (the `sched.policy` values).
pub const BUILTIN_SCHEDULERS: [&str; 8] = [
    "lrr",
    "gto",
    "oldest",
    "youngest",
    "fetch_group",
    "two_level",
    "gates",
    "origami",
];
/// Built-in issue stage: the in-order scoreboard.
pub const BUILTIN_ISSUE_STAGE: &str = "in_order";
/// Built-in register-file organisation: the monolithic banked file.
pub const BUILTIN_REGISTER_FILE: &str = "monolithic";
/// Built-in gating policy: none.
pub const BUILTIN_GATING: &str = "none";
/// Built-in reconvergence: the immediate-post-dominator stack.
pub const BUILTIN_RECONVERGENCE: &str = "pdom";

/// Policies by name. [`PolicyRegistry::new`] knows only the built-in names; `register_*` adds
/// library policies. Cloning is cheap (the factories are shared).
#[derive(Clone, Default)]
pub struct PolicyRegistry {
    schedulers: BTreeMap<String, SchedulerFactory>,
    issue_stages: BTreeMap<String, IssueStageFactory>,
    register_files: BTreeMap<String, RegisterFileFactory>,
    gatings: BTreeMap<String, GatingFactory>,
    reconvergences: BTreeMap<String, ReconvergenceFactory>,
}

/// Checks a name for registration: non-empty, no whitespace or `:`, not a built-in name.
fn check_name(kind: &str, name: &str, builtin: &[&str]) -> Result<(), SimError> {
    if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ':') {
        return Err(SimError::Other(format!(
            "cannot register {kind} '{name}': a name is non-empty, without spaces or ':'"
        )));
    }
    if builtin.contains(&name) {
        return Err(SimError::Other(format!(
            "cannot register {kind} '{name}': that is a built-in name"
        )));
    }
    Ok(())
}

/// The error for an unknown policy name, listing the names that would be accepted.
fn unknown(kind: &str, what: &str, builtin: &[&str], registered: Vec<String>) -> SimError {
    let reg = if registered.is_empty() {
        "none".to_string()
    } else {
        registered.join(", ")
    };
    SimError::Other(format!(
        "{what}: no {kind} of that name is registered (built-in: {}; registered: {reg})",
        builtin.join(", ")
    ))
}

impl PolicyRegistry {
    /// A registry with the built-in policies only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a warp scheduler; configurations select it as `sched.policy = "plugin:NAME"`.
    pub fn register_scheduler<F>(&mut self, name: &str, factory: F) -> Result<&mut Self, SimError>
    where
        F: Fn(&GpuConfig) -> Box<dyn WarpScheduler> + Send + Sync + 'static,
    {
        check_name("scheduler", name, &[])?;
        self.schedulers.insert(name.to_string(), Arc::new(factory));
        Ok(self)
    }

    /// Registers an issue stage (hazard check), selected by name with
    /// [`super::Simulation::issue_stage`].
    pub fn register_issue_stage<F>(&mut self, name: &str, factory: F) -> Result<&mut Self, SimError>
    where
        F: Fn(&GpuConfig) -> Box<dyn IssueStage> + Send + Sync + 'static,
    {
        check_name("issue stage", name, &[BUILTIN_ISSUE_STAGE])?;
        self.issue_stages
            .insert(name.to_string(), Arc::new(factory));
        Ok(self)
    }

    /// Registers a register-file organisation, selected with
    /// [`super::Simulation::register_file`].
    pub fn register_register_file<F>(
        &mut self,
        name: &str,
        factory: F,
    ) -> Result<&mut Self, SimError>
    where
        F: Fn(&GpuConfig) -> Box<dyn RegisterFileOrg> + Send + Sync + 'static,
    {
        check_name("register file", name, &[BUILTIN_REGISTER_FILE])?;
        self.register_files
            .insert(name.to_string(), Arc::new(factory));
        Ok(self)
    }

    /// Registers a gating policy, selected with [`super::Simulation::gating`].
    pub fn register_gating<F>(&mut self, name: &str, factory: F) -> Result<&mut Self, SimError>
    where
        F: Fn(&GpuConfig) -> Box<dyn GatingPolicy> + Send + Sync + 'static,
    {
        check_name("gating policy", name, &[BUILTIN_GATING])?;
        self.gatings.insert(name.to_string(), Arc::new(factory));
        Ok(self)
    }

    /// Registers a reconvergence mechanism (one instance per warp, built from the warp's
    /// launch PC and lane mask), selected with [`super::Simulation::reconvergence`].
    pub fn register_reconvergence<F>(
        &mut self,
        name: &str,
        factory: F,
    ) -> Result<&mut Self, SimError>
    where
        F: Fn(u32, u32) -> Box<dyn Reconvergence> + Send + Sync + 'static,
    {
        check_name("reconvergence", name, &[BUILTIN_RECONVERGENCE])?;
        self.reconvergences
            .insert(name.to_string(), Arc::new(factory));
        Ok(self)
    }

    /// Every scheduler name a configuration may give: the built-in ones, then
    /// `plugin:NAME` for each registered one.
    pub fn scheduler_names(&self) -> Vec<String> {
        BUILTIN_SCHEDULERS
            .iter()
            .map(|s| s.to_string())
            .chain(self.schedulers.keys().map(|k| format!("plugin:{k}")))
            .collect()
    }

    /// Registered issue-stage names (besides the built-in [`BUILTIN_ISSUE_STAGE`]).
    pub fn issue_stage_names(&self) -> Vec<String> {
        self.issue_stages.keys().cloned().collect()
    }

    /// Registered register-file names (besides [`BUILTIN_REGISTER_FILE`]).
    pub fn register_file_names(&self) -> Vec<String> {
        self.register_files.keys().cloned().collect()
    }

    /// Registered gating names (besides [`BUILTIN_GATING`]).
    pub fn gating_names(&self) -> Vec<String> {
        self.gatings.keys().cloned().collect()
    }

    /// Registered reconvergence names (besides [`BUILTIN_RECONVERGENCE`]).
    pub fn reconvergence_names(&self) -> Vec<String> {
        self.reconvergences.keys().cloned().collect()
    }

    /// The scheduler policy a name selects: a built-in name, `plugin:NAME`, or the bare name
    /// of a registered scheduler.
    pub fn scheduler_policy(&self, name: &str) -> Result<SchedPolicy, SimError> {
        match SchedPolicy::parse(name) {
            Some(p) => Ok(p),
            None if self.schedulers.contains_key(name) => Ok(SchedPolicy::Plugin(name.into())),
            None => Err(unknown(
                "scheduler",
                &format!("scheduler '{name}'"),
                &BUILTIN_SCHEDULERS,
                self.scheduler_names()[BUILTIN_SCHEDULERS.len()..].to_vec(),
            )),
        }
    }

    /// Resolves the selection for configuration `cfg` (its `sched.policy` names the
    /// scheduler).
    pub(crate) fn resolve(
        &self,
        cfg: &GpuConfig,
        sel: &Selection,
    ) -> Result<ResolvedPolicies, SimError> {
        let sched = match &cfg.sched.policy {
            SchedPolicy::Plugin(n) => Some(self.schedulers.get(n).cloned().ok_or_else(|| {
                unknown(
                    "scheduler plugin",
                    &format!("'sched.policy' = plugin:{n}"),
                    &BUILTIN_SCHEDULERS,
                    self.scheduler_names()[BUILTIN_SCHEDULERS.len()..].to_vec(),
                )
            })?),
            _ => None,
        };
        fn pick<T: Clone>(
            map: &BTreeMap<String, T>,
            name: &Option<String>,
            builtin: &str,
            kind: &str,
        ) -> Result<Option<T>, SimError> {
            match name.as_deref() {
                None => Ok(None),
                Some(n) if n == builtin => Ok(None),
                Some(n) => map.get(n).cloned().map(Some).ok_or_else(|| {
                    unknown(
                        kind,
                        &format!("{kind} '{n}'"),
                        &[builtin],
                        map.keys().cloned().collect(),
                    )
                }),
            }
        }
        let issue_stage = pick(
            &self.issue_stages,
            &sel.issue_stage,
            BUILTIN_ISSUE_STAGE,
            "issue stage",
        )?;
        if let (Some(_), Some(n)) = (&issue_stage, &sel.issue_stage) {
            // a registered issue stage takes the slot the out-of-order stages would take
            if cfg.sched.ooo.mode != OooMode::None {
                return Err(SimError::Other(format!(
                    "issue stage '{n}' with 'sched.ooo.mode' = {:?}: a registered issue stage \
                     replaces the built-in one; allowed 'sched.ooo.mode' with it: \"none\"",
                    format!("{:?}", cfg.sched.ooo.mode).to_lowercase()
                )));
            }
        }
        Ok(ResolvedPolicies {
            sched,
            issue_stage,
            register_file: pick(
                &self.register_files,
                &sel.register_file,
                BUILTIN_REGISTER_FILE,
                "register file",
            )?,
            gating: pick(&self.gatings, &sel.gating, BUILTIN_GATING, "gating policy")?,
            reconvergence: pick(
                &self.reconvergences,
                &sel.reconvergence,
                BUILTIN_RECONVERGENCE,
                "reconvergence",
            )?,
        })
    }
}

/// Policy names chosen for a simulation (`None`: the built-in one).
#[derive(Clone, Debug, Default)]
pub(crate) struct Selection {
    pub issue_stage: Option<String>,
    pub register_file: Option<String>,
    pub gating: Option<String>,
    pub reconvergence: Option<String>,
}

/// Resolved policies: `None` is the built-in one, `Some` a registered factory.
#[derive(Clone, Default)]
pub(crate) struct ResolvedPolicies {
    pub sched: Option<SchedulerFactory>,
    pub issue_stage: Option<IssueStageFactory>,
    pub register_file: Option<RegisterFileFactory>,
    pub gating: Option<GatingFactory>,
    pub reconvergence: Option<ReconvergenceFactory>,
}

impl ResolvedPolicies {
    /// Fresh policy instances for SM `sm` of `cfg`: a registered policy where one was named,
    /// else the built-in one the configuration selects (the issue stage by `sched.ooo.mode`).
    pub fn sm_policies(&self, cfg: &GpuConfig, sm: u32) -> SmPolicies {
        let ns = cfg.sched.n_per_sm as usize;
        SmPolicies {
            scheds: match &self.sched {
                Some(f) => (0..ns).map(|_| f(cfg)).collect(),
                None => (0..ns).map(|_| make_scheduler(cfg)).collect(),
            },
            issue_stage: match &self.issue_stage {
                Some(f) => IssueStageSlot::Other(f(cfg)),
                None => IssueStageSlot::builtin(cfg, sm),
            },
            rf: match &self.register_file {
                Some(f) => RegisterFileSlot::Other(f(cfg)),
                None if crate::timing::rf::PrfOrg::wanted(cfg) => {
                    RegisterFileSlot::Partitioned(Box::new(crate::timing::rf::PrfOrg::new(cfg)))
                }
                None => RegisterFileSlot::Monolithic(MonolithicRf::new(cfg)),
            }
            .layered(cfg),
            gating: match &self.gating {
                Some(f) => GatingSlot::Other(f(cfg)),
                None => GatingSlot::None(NoGating),
            },
        }
    }
}
