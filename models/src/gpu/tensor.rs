//! The tensor cores' leaf of an estimate: area, leakage and the dynamic energy of a run's
//! binary16 multiply-accumulates, from the tensor-core model of [`crate::logic::tensor_core`]
//! at a [`TechCostSource`]'s point.
//!
//! Dynamic energy is the run's multiply-accumulates × the energy of one
//! ([`TensorCoreCost::energy_per_mac_j`]); leakage is every core's leakage power over the run
//! time, as the other logic leaves of the SMs; area is every core's. A chip without tensor cores
//! has no leaf ([`TensorCores::per_sm`] = 0 gives `None`), so its estimate is unchanged.

use super::estimate::{Node, Part};
use super::source::TechCostSource;
use crate::logic::tensor_core::{tensor_core, TensorCoreCost};
use crate::logic::{LogicKind, ModelError};

/// Name of the leaf.
pub const LEAF_NAME: &str = "tensor cores";

/// The tensor cores of a chip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TensorCores {
    /// Tensor cores per SM (0: none, no leaf).
    pub per_sm: u32,
    /// Dot-product slices per tensor core ([`crate::logic::tensor_core`]).
    pub slices_per_core: u32,
}

impl TensorCores {
    /// Slices of a Volta tensor core: 64 binary16 multiply-accumulates per clock (NVIDIA Tesla
    /// V100 architecture whitepaper, 2017) in slices of four.
    pub const VOLTA_SLICES_PER_CORE: u32 = 16;
}

/// Errors of the tensor-core leaf.
#[derive(Debug, thiserror::Error)]
pub enum TensorLeafError {
    /// The slice's logic model failed.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// A clock that is not a positive finite frequency.
    #[error("tensor cores: core clock must be a positive frequency in Hz, got {0}")]
    Clock(f64),
    /// More multiply-accumulates than the cores can perform in the run's cycles.
    #[error(
        "tensor cores: {macs} multiply-accumulates in {cycles} cycles exceed the peak of \
         {sms} SMs x {per_sm} cores x {macs_per_cycle} per core and cycle ({peak})"
    )]
    AbovePeak {
        /// The run's multiply-accumulates.
        macs: u64,
        /// The run's cycles.
        cycles: u64,
        /// SMs.
        sms: u32,
        /// Cores per SM.
        per_sm: u32,
        /// Multiply-accumulates per core and cycle.
        macs_per_cycle: u32,
        /// Their product with the cycles.
        peak: u128,
    },
}

impl TechCostSource {
    /// One tensor core at this point ([`tensor_core`], calibrated by the overlay where it fits
    /// the slice).
    pub fn tensor_core_cost(&self, slices: u32) -> Result<TensorCoreCost, ModelError> {
        tensor_core(slices, &self.point, self.overlay.as_ref())
    }

    /// The `"tensor cores"` leaf of a run of `cycles` cycles at `core_clock_hz` on `n_sm` SMs
    /// that executed `macs` binary16 multiply-accumulates on them, with its [`Source`]
    /// (analytical, or the overlay's fit with its cross-validated error). `None` when the chip
    /// has no tensor cores. A MAC count above the cores' peak over the run is an error, not a
    /// number.
    ///
    /// [`Source`]: super::estimate::Source
    pub fn tensor_core_leaf(
        &self,
        tc: &TensorCores,
        n_sm: u32,
        cycles: u64,
        core_clock_hz: f64,
        macs: u64,
    ) -> Result<Option<Node>, TensorLeafError> {
        if tc.per_sm == 0 || n_sm == 0 {
            return Ok(None);
        }
        if !(core_clock_hz.is_finite() && core_clock_hz > 0.0) {
            return Err(TensorLeafError::Clock(core_clock_hz));
        }
        let core = self.tensor_core_cost(tc.slices_per_core)?;
        let peak = u128::from(n_sm)
            * u128::from(tc.per_sm)
            * u128::from(core.macs_per_cycle)
            * u128::from(cycles);
        if u128::from(macs) > peak {
            return Err(TensorLeafError::AbovePeak {
                macs,
                cycles,
                sms: n_sm,
                per_sm: tc.per_sm,
                macs_per_cycle: core.macs_per_cycle,
                peak,
            });
        }
        let instances = n_sm * tc.per_sm;
        let runtime_s = cycles as f64 / core_clock_hz;
        let leakage_w = core.leakage_w * instances as f64;
        Ok(Some(Node {
            name: LEAF_NAME.to_string(),
            part: Part::TensorCores,
            source: self.logic_source(LogicKind::Hdot4F32Acc, core.slice.calibrated),
            instances,
            area_m2: core.area_m2 * instances as f64,
            dynamic_j: macs as f64 * core.energy_per_mac_j,
            leakage_j: leakage_w * runtime_s,
            gating_overhead_j: 0.0,
            leakage_w,
            children: Vec::new(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Source;

    fn src(node: &str) -> TechCostSource {
        let choice = techlib::ResolvedPoint::resolve(node, None, None, None, None).unwrap();
        TechCostSource::new(&choice, None).unwrap()
    }

    const VOLTA: TensorCores = TensorCores {
        per_sm: 8,
        slices_per_core: TensorCores::VOLTA_SLICES_PER_CORE,
    };

    #[test]
    fn leaf_sums_cores_macs_and_runtime() {
        let s = src("finfet7");
        let cycles = 1_000_000u64;
        let macs = 80 * 8 * 64 * cycles / 2; // half the peak
        let n = s
            .tensor_core_leaf(&VOLTA, 80, cycles, 1.5e9, macs)
            .unwrap()
            .unwrap();
        let core = s.tensor_core_cost(16).unwrap();
        assert_eq!(n.name, LEAF_NAME);
        assert_eq!(n.part, Part::TensorCores);
        assert_eq!(n.source, Source::Analytical);
        assert_eq!(n.instances, 640);
        assert!((n.area_m2 - 640.0 * core.area_m2).abs() <= 1e-12 * n.area_m2);
        assert!((n.dynamic_j - macs as f64 * core.energy_per_mac_j).abs() <= 1e-12 * n.dynamic_j);
        let runtime_s = cycles as f64 / 1.5e9;
        assert!((n.leakage_j - n.leakage_w * runtime_s).abs() <= 1e-12 * n.leakage_j);
        assert!((n.leakage_w - 640.0 * core.leakage_w).abs() <= 1e-12 * n.leakage_w);
        n.validate().unwrap();
        // no MACs: area and leakage only
        let idle = s
            .tensor_core_leaf(&VOLTA, 80, cycles, 1.5e9, 0)
            .unwrap()
            .unwrap();
        assert_eq!(idle.dynamic_j, 0.0);
        assert_eq!(idle.area_m2, n.area_m2);
    }

    #[test]
    fn no_tensor_cores_no_leaf() {
        let s = src("asap7");
        let none = TensorCores {
            per_sm: 0,
            slices_per_core: 16,
        };
        assert!(s
            .tensor_core_leaf(&none, 80, 1000, 1e9, 0)
            .unwrap()
            .is_none());
    }

    #[test]
    fn bad_inputs_are_errors_naming_the_quantity() {
        let s = src("asap7");
        let e = s
            .tensor_core_leaf(&VOLTA, 2, 10, 1e9, 2 * 8 * 64 * 10 + 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("exceed the peak") && e.contains("10240"), "{e}");
        let e = s
            .tensor_core_leaf(&VOLTA, 2, 10, 0.0, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("core clock"), "{e}");
        let zero = TensorCores {
            per_sm: 4,
            slices_per_core: 0,
        };
        let e = s
            .tensor_core_leaf(&zero, 2, 10, 1e9, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("slices"), "{e}");
    }
}
