//! Issue-stage variants (analytical-model §5.5): the same microbenchmarks on the in-order
//! baseline and on a variant configuration (an out-of-order issue stage or a reconvergence
//! variant), compared where the model says they must agree and
//! reported where it is silent.
//!
//! - **Dependent bodies** (the §4.2 chains of int add, fp32 add, SFU sine and fp64 add): out-of-
//!   order issue cannot shorten a true dependence chain, so the variant's P1 and fu(c) must
//!   stay within `issue_stage.tol_dependent` of the baseline's (PASS/FAIL).
//! - **k independent chains** (k = 1, 2, 4 fp32 add chains interleaved in program order):
//!   `P1_eff(k)`, the cycles per instruction of one warp, on both. An out-of-order stage may
//!   issue past a stalled chain and lower it; that is outside the model (reported, no verdict).
//! - **A divergent body**: one warp, a branch on the lane id sends half the lanes to path A and
//!   half to path B (one dependent chain through both paths), the paths join, repeated. Under PDOM
//!   reconvergence the two halves run one after the other, so the divergent time is the sum of
//!   the times with every lane on A and every lane on B; PASS when the two agree within
//!   `issue_stage.tol_pdom_sum` of the sum.
//!
//! Every time is the difference method of [`super::functional_units::period`] over two trip
//! counts.

use super::functional_units;
use super::harness;
use super::kernel_limits::Found as Limits;
use super::kernels::{fu_kernel, fu_kernel_with, Class};
use super::{Kind, Param, Suite, Thresholds};
use rayon::prelude::*;
use sim::config::GpuConfig;

/// The dependent classes compared.
const DEPENDENT: [Class; 4] = [Class::IntAdd, Class::FpAdd, Class::SfuSin, Class::DpAdd];

/// Chain counts of the independent-chain bodies.
const CHAINS: [usize; 3] = [1, 2, 4];

/// Instructions per path of the divergent body.
const PATH_LEN: usize = 8;

/// One dependent class on both configurations.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DependentRow {
    /// Class name.
    pub class: &'static str,
    /// P1 on the baseline and on the variant, cycles.
    pub p1_base_cycles: f64,
    /// P1 on the variant, cycles.
    pub p1_variant_cycles: f64,
    /// (c, fu on the baseline, fu on the variant).
    pub fu: Vec<(u32, f64, f64)>,
}

/// The §5.5 section of a report.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct IssueStage {
    /// The variant (technique name and `--set` pairs).
    pub variant: String,
    /// Dependent bodies.
    pub dependent: Vec<DependentRow>,
    /// (k, P1_eff on the baseline, P1_eff on the variant), cycles per instruction of one warp;
    /// outside the model.
    pub p1_eff: Vec<(usize, f64, f64)>,
    /// Divergent body on the variant: (all lanes on A, all lanes on B, half each) cycles per
    /// repetition.
    pub divergent_cycles: (f64, f64, f64),
}

/// Instance `i` of a body of `k` independent fp32 add chains: chain `i mod k` (registers
/// `%f1`, `%f3`, `%f4`, `%f5`), each depending on its own previous instance.
fn chains_body(k: usize, i: usize) -> String {
    const REGS: [&str; 4] = ["%f1", "%f3", "%f4", "%f5"];
    let r = REGS[i % k];
    format!("    add.f32 {r}, {r}, %f2;\n")
}

/// Instance `i` of the divergent body: lanes below `split` take path A, the others path B;
/// each path is a chain of [`PATH_LEN`] dependent integer adds on the same register, so the
/// paths are one dependence chain and an out-of-order stage cannot overlap them: only the
/// reconvergence mechanism decides whether their times add up; the paths join.
fn divergent_body(i: usize) -> String {
    let mut s = format!("    @%p7 bra DA{i};\n");
    for _ in 0..PATH_LEN {
        s.push_str("    add.u32 %r23, %r23, %r21;\n");
    }
    s.push_str(&format!("    bra.uni DJ{i};\nDA{i}:\n"));
    for _ in 0..PATH_LEN {
        s.push_str("    add.u32 %r23, %r23, %r21;\n");
    }
    s.push_str(&format!("DJ{i}:\n"));
    s
}

/// Setup of the divergent body: `%p7` = lane < `split`, path registers zeroed.
fn divergent_setup(split: u32) -> String {
    format!(
        "    and.b32 %r22, %r1, 31;\n    setp.lt.u32 %p7, %r22, {split};\n    \
         mov.u32 %r23, 0;\n"
    )
}

/// Runs the comparison of `base` and `variant` (named `label`).
pub fn run(
    base: &GpuConfig,
    variant: &GpuConfig,
    label: &str,
    suite: Suite,
    th: &Thresholds,
    lim: &Limits,
    out: &mut Vec<Param>,
) -> Result<IssueStage, String> {
    let unroll = 32usize;
    let trips = match suite {
        Suite::Quick => (2, 6),
        Suite::Full => (2, 18),
    };
    let cs: Vec<u32> = [1u32, 2, 4, 8, 16]
        .into_iter()
        .filter(|&c| c <= lim.max_warps())
        .collect();
    let tol = th.issue_stage.tol_dependent;
    let period = |cfg: &GpuConfig, k: &std::sync::Arc<sim::ptx::Kernel>, c: u32, u: usize| {
        functional_units::period(cfg, Class::FpAdd, u, trips, c, lim.w, k)
    };
    // dependent bodies: P1 and fu(c) on both
    let dependent: Vec<DependentRow> = DEPENDENT
        .par_iter()
        .map(|&class| -> Result<DependentRow, String> {
            let k = harness::kernel(&fu_kernel(class, unroll, false), "measure_fu")
                .map_err(|e| e.to_string())?;
            let cmax = harness::max_fitting_warps(base, &k, lim.w, lim.max_warps()).min(
                harness::max_fitting_warps(variant, &k, lim.w, lim.max_warps()),
            );
            let mut fu = Vec::new();
            let (mut p1b, mut p1v) = (f64::NAN, f64::NAN);
            for &c in cs.iter().filter(|&&c| c <= cmax) {
                let (pb, pv) = (
                    period(base, &k, c, unroll)?,
                    period(variant, &k, c, unroll)?,
                );
                if c == 1 {
                    (p1b, p1v) = (pb, pv);
                }
                fu.push((c, pb / p1b, pv / p1v));
            }
            Ok(DependentRow {
                class: class.name(),
                p1_base_cycles: p1b,
                p1_variant_cycles: p1v,
                fu,
            })
        })
        .collect::<Result<_, _>>()?;
    for r in &dependent {
        out.push(
            Param::continuous(
                &format!("issue_stage.{}.p1", r.class),
                None,
                r.p1_variant_cycles,
                r.p1_base_cycles,
                tol,
            )
            .with_note(format!(
                "dependent chain: {label} P1 against the in-order baseline's"
            )),
        );
        let (worst_c, worst) =
            r.fu.iter()
                .map(|&(c, b, v)| (c, (v - b) / b))
                .fold(
                    (0, 0.0f64),
                    |a, x| if x.1.abs() > a.1.abs() { x } else { a },
                );
        out.push(Param {
            name: format!("issue_stage.{}.fu_max_rel_diff", r.class),
            configured: None,
            recovered: Some(worst),
            predicted: Some(0.0),
            kind: Kind::Continuous,
            pass: Some(worst.abs() <= tol),
            note: format!("worst (variant − baseline)/baseline fu(c), at c = {worst_c}"),
        });
    }
    // k independent chains: P1_eff(k), outside the model
    let p1_eff: Vec<(usize, f64, f64)> = CHAINS
        .par_iter()
        .map(|&kc| -> Result<(usize, f64, f64), String> {
            let text = fu_kernel_with(&|i| chains_body(kc, i), unroll, false, "");
            let k = harness::kernel(&text, "measure_fu").map_err(|e| e.to_string())?;
            Ok((
                kc,
                period(base, &k, 1, unroll)?,
                period(variant, &k, 1, unroll)?,
            ))
        })
        .collect::<Result<_, _>>()?;
    for &(kc, b, v) in &p1_eff {
        out.push(Param::info(
            &format!("issue_stage.p1_eff_k{kc}"),
            v,
            &format!(
                "cycles per instruction of one warp over {kc} independent fp32 add chains \
                 ({label}; baseline {b:.2}); outside the model"
            ),
        ));
    }
    // divergent body under the variant's reconvergence: A only, B only, half each
    let div_unroll = 4usize;
    let times: Vec<f64> = [32u32, 0, 16]
        .par_iter()
        .map(|&split| -> Result<f64, String> {
            let text = fu_kernel_with(&divergent_body, div_unroll, false, &divergent_setup(split));
            let k = harness::kernel(&text, "measure_fu").map_err(|e| e.to_string())?;
            period(variant, &k, 1, div_unroll)
        })
        .collect::<Result<_, _>>()?;
    let (ta, tb, tdiv) = (times[0], times[1], times[2]);
    let sum = ta + tb;
    out.push(Param {
        name: "issue_stage.divergent_paths_add_up".into(),
        configured: None,
        recovered: Some(tdiv),
        predicted: Some(sum),
        kind: Kind::Continuous,
        pass: Some((tdiv - sum).abs() <= th.issue_stage.tol_pdom_sum * sum),
        note: format!(
            "half the lanes on each path: {tdiv:.1} cycles per repetition against A alone \
             {ta:.1} + B alone {tb:.1} (PDOM runs the paths one after the other)"
        ),
    });
    Ok(IssueStage {
        variant: label.to_string(),
        dependent,
        p1_eff,
        divergent_cycles: (ta, tb, tdiv),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_bodies_parse() {
        for kc in CHAINS {
            let t = fu_kernel_with(&|i| chains_body(kc, i), 8, false, "");
            sim::ptx::Module::parse(&t, "chains.ptx").unwrap_or_else(|e| panic!("{e}\n{t}"));
        }
        for split in [0, 16, 32] {
            let t = fu_kernel_with(&divergent_body, 4, false, &divergent_setup(split));
            sim::ptx::Module::parse(&t, "div.ptx").unwrap_or_else(|e| panic!("{e}\n{t}"));
        }
    }
}
