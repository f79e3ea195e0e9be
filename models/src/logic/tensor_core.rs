//! A tensor core as a number of dot-product slices ([`LogicKind::Hdot4F32Acc`]): area, leakage
//! and energy per multiply-accumulate at any technology point.
//!
//! One slice (`calibration/rtl/hdot4_f32acc.v`) computes `y = c + Σᵢ aᵢ·bᵢ` over
//! [`DotSlice::products`] binary16 products and a binary32 accumulator every cycle: the products
//! exact, every term aligned to the largest in a [`DotSlice::window_bits`]-bit window with the
//! shifted-out bits truncated, the sum rounded once. A tensor core of `N` slices performs
//! `N · products` multiply-accumulates per cycle (a Volta tensor core's 64 FMA per clock — the
//! Volta architecture whitepaper, NVIDIA 2017 — is 16 slices of four products).
//!
//! The slice's cost is the analytical model's ([`super::analytical`]): gate equivalents counted
//! from the datapath's structure by [`slice_counts`] (below), times the node's device numbers,
//! so it scales with the node as every other kind does; with a calibration overlay that fits
//! `hdot4_f32acc`, the overlay's fit carried to the point by [`super::NodeScaling`]. The
//! structural count is checked against the ASAP7 synthesis of the slice
//! (`calibration/goldens/asap7-rvt-tt/hdot4_f32acc`) by `calibration/tests/tensor_core.rs`,
//! which prints the error of each quantity and fails outside the tolerances it states.
//!
//! Nothing here covers the operand staging or the register-file reads that feed the slices;
//! those are the register file's and operand collectors' costs.

use super::analytical::GateCounts;
use super::{model, params, LogicCost, LogicKind, ModelError};
use crate::overlay::Overlay;
use techlib::TechPoint;

/// Shape of one dot-product slice: what [`slice_counts`] counts hardware for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DotSlice {
    /// Products summed per cycle (multiply-accumulates per cycle).
    pub products: u32,
    /// Significand bits of a multiplicand, hidden bit included (binary16: 11).
    pub sig_bits: u32,
    /// Exponent bits of a multiplicand (binary16: 5).
    pub exp_bits: u32,
    /// Significand bits of the accumulator and result, hidden bit included (binary32: 24).
    pub acc_sig_bits: u32,
    /// Exponent bits of the accumulator and result (binary32: 8).
    pub acc_exp_bits: u32,
    /// Alignment window below the largest term, bits.
    pub window_bits: u32,
}

impl DotSlice {
    /// `hdot4_f32acc`: four binary16 products, binary32 accumulator, a 27-bit window.
    pub const HDOT4_F32ACC: DotSlice = DotSlice {
        products: 4,
        sig_bits: 11,
        exp_bits: 5,
        acc_sig_bits: 24,
        acc_exp_bits: 8,
        window_bits: 27,
    };
}

fn clog2(x: f64) -> f64 {
    x.max(2.0).log2().ceil()
}

/// Gate equivalents of a `w`-bit prefix adder (as [`LogicKind::Adder`]).
fn adder_ge(w: f64) -> f64 {
    1.5 * w * clog2(w) + 2.0 * w
}

/// Gate equivalents of a `w`-bit barrel shifter with `levels` mux2 levels (2.5 GE per mux2).
fn shifter_ge(w: f64, levels: f64) -> f64 {
    2.5 * w * levels
}

/// Structural gate counts of one slice (Weste & Harris constants, as [`super::analytical`]:
/// full adder 7 GE, mux2 and XOR 2.5 GE, prefix adder `1.5·w·⌈log₂w⌉ + 2w`):
/// - `products` significand multipliers `m × m` (`m` = `sig_bits`), each `8·m² + 3·m·⌈log₂2m⌉`
///   (partial products, carry-save array and final adder, as [`LogicKind::Imul32`]);
/// - operand classification (zero, infinity, NaN): 2 GE per exponent and mantissa bit of every
///   operand;
/// - per product an anchor adder, a compare-and-select per term into the largest anchor, per
///   term a distance subtractor and its clamp select, all `e = acc_exp_bits + 1` bits wide;
/// - per term an alignment shifter of the window (`F` bits, `⌈log₂F⌉` levels) and a conditional
///   negation (XOR per bit of the `F + 4`-bit signed field, the +1 a carry-in);
/// - the sum: `terms − 2` carry-save rows of full adders and a carry-propagate adder, `F + 4`
///   bits;
/// - the magnitude (XOR and incrementer, `F + 3` bits) and the round-and-pack stage at `S = F + 3`
///   bits: leading-zero count (3 GE per bit), the left normalising shifter, four 12-bit exponent
///   adders, the rounding incrementer (`acc_sig_bits + 1` bits) and a three-way result select
///   per output bit. No right shifter: the largest anchor is at least the accumulator's
///   effective exponent field (≥ 1) or a product's (≥ 100), so the sum's exponent never lies
///   below the binary32 normal range and normalisation only shifts left (stopping at field 1
///   for gradual underflow);
/// - the registered result: `1 + acc_exp_bits + acc_sig_bits − 1` flip-flops.
///
/// Activity 0.5 (arithmetic with glitching), depth: the multiplier, the alignment, the sum and
/// the normalisation in series.
pub fn slice_counts(s: &DotSlice) -> GateCounts {
    let k = s.products as f64;
    let terms = k + 1.0;
    let m = s.sig_bits as f64;
    let e = s.acc_exp_bits as f64 + 1.0;
    let f = s.window_bits as f64;
    let signed = f + 4.0;
    let mag = f + 3.0;
    let out_bits = 1.0 + s.acc_exp_bits as f64 + s.acc_sig_bits as f64 - 1.0;
    let multipliers = k * (8.0 * m * m + 3.0 * m * clog2(2.0 * m));
    let classify = 2.0
        * (2.0 * k * (s.exp_bits as f64 + m - 1.0) + s.acc_exp_bits as f64 + s.acc_sig_bits as f64
            - 1.0);
    let exponents =
        k * adder_ge(e) + k * (adder_ge(e) + 2.5 * e) + terms * (adder_ge(e) + 2.5 * clog2(f));
    let align = terms * (shifter_ge(f, clog2(f)) + 2.5 * signed);
    let sum = (terms - 2.0).max(0.0) * 7.0 * signed + adder_ge(signed);
    let magnitude = 2.5 * mag + adder_ge(mag);
    let round_pack = 3.0 * mag
        + shifter_ge(mag, clog2(mag))
        + 4.0 * adder_ge(12.0)
        + adder_ge(s.acc_sig_bits as f64 + 1.0)
        + 3.0 * 2.5 * out_bits;
    GateCounts {
        ge: multipliers + classify + exponents + align + sum + magnitude + round_pack,
        ff: out_bits,
        activity: 0.5,
        // multiplier, largest-anchor tree, alignment, sum, magnitude, normalisation, rounding
        depth_fo4: 4.0 * clog2(m)
            + 2.0 * clog2(2.0 * m)
            + 4.0
            + clog2(terms) * (2.0 * clog2(e) + 2.0)
            + 2.0 * clog2(f)
            + 2.0 * clog2(terms)
            + 2.0 * clog2(signed)
            + 2.0 * clog2(mag)
            + 4.0 * clog2(mag)
            + 2.0 * clog2(s.acc_sig_bits as f64 + 1.0),
    }
}

/// Cost of a tensor core of `slices` dot-product slices at one technology point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TensorCoreCost {
    /// Slices of the core.
    pub slices: u32,
    /// Multiply-accumulates the core completes per cycle.
    pub macs_per_cycle: u32,
    /// Cell area of the core, m².
    pub area_m2: f64,
    /// Leakage power of the core, W.
    pub leakage_w: f64,
    /// Dynamic energy of one binary16 multiply-accumulate (a quarter of a slice's cycle), J.
    pub energy_per_mac_j: f64,
    /// The slice's cost it is built from.
    pub slice: LogicCost,
}

/// A tensor core of `slices` [`LogicKind::Hdot4F32Acc`] slices at `tech`, calibrated by
/// `overlay` where it fits the slice (see [`model`]).
pub fn tensor_core(
    slices: u32,
    tech: &TechPoint,
    overlay: Option<&Overlay>,
) -> Result<TensorCoreCost, ModelError> {
    let kind = LogicKind::Hdot4F32Acc;
    if slices == 0 {
        return Err(ModelError::ZeroParam {
            kind,
            param: "slices".into(),
        });
    }
    let slice = model(kind, &params(&[]), tech, overlay)?;
    let n = slices as f64;
    Ok(TensorCoreCost {
        slices,
        macs_per_cycle: slices * DotSlice::HDOT4_F32ACC.products,
        area_m2: n * slice.area_m2,
        leakage_w: n * slice.leakage_w,
        energy_per_mac_j: slice.energy_per_op_j,
        slice,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use techlib::{Conditions, Flavour};

    fn point(node: &str, fl: Flavour) -> TechPoint {
        techlib::node(node)
            .unwrap()
            .at(&Conditions::new(fl))
            .unwrap()
    }

    #[test]
    fn core_is_slices_times_slice_and_scales_with_the_node() {
        let t = point("asap7", Flavour::Rvt);
        let one = tensor_core(1, &t, None).unwrap();
        let sixteen = tensor_core(16, &t, None).unwrap();
        assert_eq!(sixteen.macs_per_cycle, 64);
        assert!((sixteen.area_m2 - 16.0 * one.area_m2).abs() <= 1e-9 * sixteen.area_m2);
        assert!((sixteen.leakage_w - 16.0 * one.leakage_w).abs() <= 1e-9 * sixteen.leakage_w);
        assert_eq!(sixteen.energy_per_mac_j, one.energy_per_mac_j);
        // a quarter of the slice's energy per cycle
        let c = super::super::analytical_cost(LogicKind::Hdot4F32Acc, &params(&[]), &t);
        assert_eq!(one.energy_per_mac_j, c.energy_per_op_j);
        let planar = tensor_core(1, &point("planar45", Flavour::Hp), None).unwrap();
        // 400 F² per GE at 45 nm against 1800 F² at 7 nm: 9.2×
        assert!(planar.area_m2 > 9.0 * one.area_m2, "{planar:?} {one:?}");
        assert!(planar.energy_per_mac_j > one.energy_per_mac_j);
        assert!(tensor_core(0, &t, None).is_err());
    }

    #[test]
    fn wider_slices_count_more_hardware() {
        let base = slice_counts(&DotSlice::HDOT4_F32ACC);
        for wider in [
            DotSlice {
                products: 8,
                ..DotSlice::HDOT4_F32ACC
            },
            DotSlice {
                sig_bits: 24,
                ..DotSlice::HDOT4_F32ACC
            },
            DotSlice {
                window_bits: 48,
                ..DotSlice::HDOT4_F32ACC
            },
        ] {
            let c = slice_counts(&wider);
            assert!(c.ge > base.ge && c.depth_fo4 >= base.depth_fo4, "{wider:?}");
        }
    }
}
