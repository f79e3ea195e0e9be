//! The study's side of kernel sampling (`crate::sample`): which paths sample, `--sample auto`'s
//! choice between a sampled and a full run, and the energy estimate of a sampled run.

use super::{ActivitySource, Study, StudyError};
use crate::sample::{SampleMode, SampleReport, Sampling};
use models::gpu::ChipModel;
use sim::activity::{Activity, KernelActivity};
use sim::workloads::Workload;

impl Study {
    /// Samples the launches of every simulated workload as `sampling` says (off by default).
    pub fn sampling(mut self, sampling: Sampling) -> Study {
        self.sampling = sampling;
        self
    }

    /// The sampling settings.
    pub fn sampling_settings(&self) -> &Sampling {
        &self.sampling
    }

    /// Refuses sampling on a path that cannot honour it: the analytical and reference-mode
    /// activity sources (and `reconv.mode` other than pdom, which runs on the latter) do not
    /// run the cycle-level model that sampling times.
    pub fn check_sampling(&self) -> Result<(), StudyError> {
        if !self.sampling.is_on() {
            return Ok(());
        }
        let refused = match self.source {
            ActivitySource::Model => Some("--activity-source model".to_string()),
            ActivitySource::Reference => Some("--activity-source reference".to_string()),
            ActivitySource::Sim
                if self.cfg.reconv.mode != sim::config::reconv::ReconvMode::Pdom =>
            {
                Some(format!(
                    "'reconv.mode' = \"{}\" (the reference-mode model)",
                    self.cfg.reconv.mode.as_str()
                ))
            }
            ActivitySource::Sim => None,
        };
        match refused {
            Some(what) => Err(StudyError::ActivitySource(format!(
                "--sample {}: {what} does not run the cycle-level model that kernel sampling \
                 times; allowed with it: --sample off",
                self.sampling.mode.as_str()
            ))),
            None => Ok(()),
        }
    }

    /// Simulates `w` as the sampling mode says: in full, sampled, or (auto) sampled and kept
    /// when its estimated errors of cycles and energy are within the target, else in full.
    pub(super) fn simulate_sampled(&self, w: &dyn Workload) -> Result<Activity, StudyError> {
        self.check_sampling()?;
        if !self.sampling.is_on() {
            return self.simulate_machine(w, false);
        }
        let act = self.simulate_machine(w, true)?;
        if self.sampling.mode != SampleMode::Auto {
            return Ok(act);
        }
        let cycles = act
            .sample
            .as_ref()
            .map_or(0.0, |s| s.estimated_error_cycles);
        let src = self.cost_source()?;
        let chip = self.chip(&src)?;
        let energy = self.sample_energy_error(&chip, &src.label, &act, None)?;
        let worst = cycles.max(energy.unwrap_or(0.0));
        if worst <= self.sampling.target_error {
            return Ok(act);
        }
        let mut full = self.simulate_machine(w, false)?;
        full.sample = Some(crate::sample::fallback_summary(&full, worst));
        Ok(full)
    }

    /// The `sample` report of a costed run, with its energy estimate (`None` for a run that
    /// was not sampled). `energy_j` is the run's total energy.
    pub(super) fn sample_report(
        &self,
        chip: &ChipModel,
        tech: &str,
        act: &Activity,
        energy_j: f64,
    ) -> Result<Option<SampleReport>, StudyError> {
        if act.sample.is_none() {
            return Ok(None);
        }
        let energy = self.sample_energy_error(chip, tech, act, Some(energy_j))?;
        Ok(SampleReport::of(act, energy))
    }

    /// The estimated error of a sampled run's total energy, as a fraction of it (module
    /// `crate::sample`): each cluster's extrapolated record and its alternative costed at the
    /// study's point, the differences summed. `energy_j` is the run's total energy when known
    /// (else the record is costed for it). `None` for a record without sampling summary.
    pub fn sample_energy_error(
        &self,
        chip: &ChipModel,
        tech: &str,
        act: &Activity,
        energy_j: Option<f64>,
    ) -> Result<Option<f64>, StudyError> {
        let Some(s) = act.sample.as_ref() else {
            return Ok(None);
        };
        let mut diff_j = 0.0;
        for c in &s.clusters {
            if let (Some(a), Some(b)) = (&c.extrapolated, &c.alternative) {
                let ea = self.energy_of(chip, tech, act, a)?;
                let eb = self.energy_of(chip, tech, act, b)?;
                diff_j += (ea - eb).abs();
            }
        }
        if diff_j == 0.0 {
            return Ok(Some(0.0));
        }
        let total_j = match energy_j {
            Some(e) => e,
            None => {
                let mut plain = act.clone();
                plain.sample = None;
                self.cost(chip, tech, "sampled run", &plain)?.energy_j
            }
        };
        Ok(Some(if total_j > 0.0 { diff_j / total_j } else { 0.0 }))
    }

    /// The total energy of `k` alone (a record of `act`'s configuration) at the study's point.
    fn energy_of(
        &self,
        chip: &ChipModel,
        tech: &str,
        act: &Activity,
        k: &KernelActivity,
    ) -> Result<f64, StudyError> {
        let mut one = Activity::new(&act.config_name, &act.config_hash);
        one.add_launch(k.clone());
        Ok(self.cost(chip, tech, "sampled cluster", &one)?.energy_j)
    }
}
