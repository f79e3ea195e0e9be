//! The flow's view of the calibration components, built on the RTL registry
//! ([`crate::rtl::components`]): files, top module, size parameters and sweep grids, operations
//! per cycle and the stimulus testbench.
//!
//! `--sweep` uses the registry's one-at-a-time grid (the default point, then each parameter
//! over its ≥ 5-point grid with the others at their defaults). For the committed goldens the
//! grid of `sfu_lane` is narrowed ([`golden_sweep`]) because its seed table is synthesised as
//! logic and one TBITS = 10 run takes many minutes; the bound keeps every run near 30 s.

use super::{FlowSpec, Testbench};
use crate::error::CalError;
use crate::rtl::{self, ComponentSpec, Params};

fn entry(name: &str) -> Result<&'static ComponentSpec, CalError> {
    rtl::component(name).ok_or_else(|| {
        CalError::Invalid(format!(
            "unknown component '{name}'; known: {}",
            names().join(", ")
        ))
    })
}

/// Names of the registered logic-kind components, in registry order (the calibration anchors
/// of [`rtl::ANCHORS`] are synthesised by name only).
pub fn names() -> Vec<String> {
    rtl::components()
        .iter()
        .filter(|c| !rtl::ANCHORS.contains(&c.name))
        .map(|c| c.name.to_string())
        .collect()
}

/// The registry's default sweep of `name` (one parameter at a time through the default point).
pub fn sweep(name: &str) -> Result<Vec<Params>, CalError> {
    Ok(entry(name)?.sweep_one_at_a_time())
}

/// Narrowed grids used for the committed goldens: (component, parameter, values).
pub const GOLDEN_GRID_OVERRIDES: &[(&str, &str, &[u32])] =
    &[("sfu_lane", "TBITS", &[3, 4, 5, 6, 7])];

/// The sweep used for the goldens: the default sweep with [`GOLDEN_GRID_OVERRIDES`] applied
/// (the overridden parameter's default moves to the middle of its narrowed grid).
pub fn golden_sweep(name: &str) -> Result<Vec<Params>, CalError> {
    let e = entry(name)?;
    let ov: Vec<&(&str, &str, &[u32])> = GOLDEN_GRID_OVERRIDES
        .iter()
        .filter(|o| o.0 == name)
        .collect();
    if ov.is_empty() {
        return sweep(name);
    }
    let mut base = e.default_params();
    for (_, p, g) in &ov {
        base.insert(p.to_string(), g[g.len() / 2]);
    }
    let mut out = vec![base.clone()];
    for p in e.params {
        let grid: &[u32] = ov
            .iter()
            .find(|o| o.1 == p.name)
            .map(|o| o.2)
            .unwrap_or(p.sweep);
        for &v in grid {
            let mut q = base.clone();
            q.insert(p.name.to_string(), v);
            if !out.contains(&q) && e.resolve(&q).is_ok() {
                out.push(q);
            }
        }
    }
    Ok(out)
}

/// The flow specification of `name` at `params` (missing parameters take defaults).
pub fn spec(name: &str, params: &Params) -> Result<FlowSpec, CalError> {
    let e = entry(name)?;
    let p = e
        .resolve(params)
        .map_err(|err| CalError::Invalid(err.to_string()))?;
    let ops = e
        .ops_per_cycle(&p)
        .map_err(|err| CalError::Invalid(err.to_string()))?;
    let files = e.file_paths();
    for f in &files {
        if !f.exists() {
            return Err(CalError::Invalid(format!(
                "RTL file {} is missing",
                f.display()
            )));
        }
    }
    let timescale = rtl::rtl_dir().join("tb").join("timescale.v");
    let tb = e.testbench_path();
    let testbench = tb.exists().then(|| Testbench {
        top: e.tb_top.to_string(),
        files: [timescale, tb].into_iter().filter(|f| f.exists()).collect(),
        plusargs: vec!["+stim".into()],
        dut_scope: vec![e.tb_top.to_string(), "dut".into()],
        takes_params: !e.params.is_empty(),
    });
    Ok(FlowSpec {
        kind: name.to_string(),
        top: e.top.to_string(),
        files,
        params: p.clone(),
        chparams: p,
        ops_per_cycle: ops,
        clock_port: e.sequential.then(|| "clk".to_string()),
        testbench,
        yosys_extra: vec![],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_component_has_a_spec_and_sweep() {
        for n in names() {
            let s = spec(&n, &Params::new()).unwrap();
            assert!(s.ops_per_cycle > 0.0, "{n}");
            let sw = golden_sweep(&n).unwrap();
            assert!(!sw.is_empty());
            for p in &sw {
                spec(&n, p).unwrap();
            }
        }
        assert!(golden_sweep("sfu_lane")
            .unwrap()
            .iter()
            .all(|p| p["TBITS"] <= 7));
        assert!(spec("crossbar", &[("X".to_string(), 1)].into()).is_err());
    }
}
