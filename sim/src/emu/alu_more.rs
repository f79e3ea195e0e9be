//! Lane semantics of extended-precision integer arithmetic through the carry flag
//! ([`Op::Carry`](crate::ptx::isa::Op::Carry)) and of half-precision arithmetic
//! ([`Op::Half`](crate::ptx::isa::Op::Half)), as the PTX ISA defines them.
//!
//! Carry: each thread has one carry flag `CC.CF` (a lane mask in the warp state). `add.cc` and
//! `addc.cc` write the carry out of the unsigned n-bit sum, `sub.cc` and `subc.cc` the borrow
//! out of the difference; `addc`/`subc`/`madc` add (subtract) the flag. `mad.lo.cc` adds c to
//! the low n bits of a·b, `mad.hi.cc` to the high n bits (a signed product for `.s32`/`.s64`),
//! and the flag is the carry out of that n-bit addition. Every result is exact: sums are formed
//! in 128 bits and 64×64-bit products in `i128`/`u128`.
//!
//! Half precision: each `.f16` value is widened to f64 exactly; `add`, `sub` and `mul` of two
//! halves are exact in f64 (a sum of two halves spans at most 40 significant bits, a product 22),
//! so rounding the f64 result once to f16 (nearest even) is the correctly rounded result. `fma`
//! uses `f64::mul_add` (a·b exact, one rounding to f64) then rounds to f16; the intermediate
//! rounding cannot change the f16 result: all operands are multiples of 2⁻²⁴, so an exact
//! result that is not an f16 rounding midpoint is at least 2⁻⁴⁸ away from one, while the f64
//! rounding error is at most 2⁻⁵³·|r|, which exceeds 2⁻⁴⁸ only for |r| ≥ 32, where the f64 sum
//! is exact unless a·b < 2⁻¹⁵ is far below the f16 spacing of c (≥ 2⁻⁵). NaN results are the
//! canonical NaN `0x7fff`, as the hardware gives. `.ftz` flushes subnormal inputs and results to
//! signed zero; `.sat` clamps results to [0, 1] (NaN to 0). `.f16x2` applies the operation to
//! the low and high halves of a 32-bit register independently.

use super::alu::Lanes;
use super::cvt::{f16_to_f64, f64_to_f16};
use crate::inst::WARP_SIZE;
use crate::ptx::isa::{CarryKind, HalfOp, Rnd, Ty};

/// Value of `v` as an n-bit integer, sign-extended for signed types.
#[inline]
fn wide(v: u64, ty: Ty) -> i128 {
    match ty {
        Ty::S32 => v as u32 as i32 as i128,
        Ty::S64 => v as i64 as i128,
        Ty::U32 => v as u32 as i128,
        _ => v as i128,
    }
}

/// One lane of an extended-precision instruction: returns (result, carry out).
pub fn carry_lane(kind: CarryKind, ty: Ty, a: u64, b: u64, c: u64, cf: bool) -> (u64, bool) {
    let bits = ty.bits();
    let m: u128 = if bits == 64 {
        u64::MAX as u128
    } else {
        (1u128 << bits) - 1
    };
    let cf = cf as u128;
    let (ua, ub, uc) = (a as u128 & m, b as u128 & m, c as u128 & m);
    let addc = |x: u128, y: u128| {
        let s = x + y + cf;
        ((s & m) as u64, s > m)
    };
    match kind {
        CarryKind::Add => addc(ua, ub),
        CarryKind::Sub => {
            let s = ua as i128 - ub as i128 - cf as i128;
            ((s as u128 & m) as u64, s < 0)
        }
        CarryKind::MadLo | CarryKind::MadHi => {
            // the full 2n-bit product (signed for signed types); 64x64 bits fit in 128
            let p: u128 = if ty.is_signed() {
                (wide(a, ty) * wide(b, ty)) as u128
            } else {
                ua * ub
            };
            let part = if kind == CarryKind::MadLo {
                p & m
            } else {
                (p >> bits) & m
            };
            addc(part, uc)
        }
    }
}

/// Runs an extended-precision instruction over the lanes of `mask`; `cf` is the warp's carry
/// mask, updated for those lanes when `cout`.
#[allow(clippy::too_many_arguments)]
pub fn carry_lanes(
    kind: CarryKind,
    ty: Ty,
    cin: bool,
    cout: bool,
    s: &[Lanes; 3],
    mask: u32,
    cf: &mut u32,
    out: &mut Lanes,
) {
    let mut new_cf = 0u32;
    for l in 0..WARP_SIZE {
        if mask >> l & 1 == 0 {
            continue;
        }
        let carry_in = cin && (*cf >> l & 1 != 0);
        let (d, co) = carry_lane(kind, ty, s[0][l], s[1][l], s[2][l], carry_in);
        out[l] = d;
        new_cf |= (co as u32) << l;
    }
    if cout {
        *cf = (*cf & !mask) | new_cf;
    }
}

/// f16 bits with a subnormal flushed to signed zero when `ftz`.
#[inline]
fn flush(h: u16, ftz: bool) -> u16 {
    if ftz && h & 0x7c00 == 0 {
        h & 0x8000
    } else {
        h
    }
}

/// One half-precision result from f64 `x`: rounded once to nearest even, canonical NaN,
/// `.sat` clamping and `.ftz` flushing of a subnormal result.
#[inline]
fn round_half(x: f64, ftz: bool, sat: bool) -> u16 {
    let x = if sat {
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, 1.0)
        }
    } else {
        x
    };
    flush(f64_to_f16(x, Rnd::Rn), ftz)
}

/// The minimum or maximum of two halves (a NaN operand gives the other, two NaNs the canonical
/// NaN; −0 is smaller than +0).
fn min_max(a: u16, b: u16, max: bool) -> u16 {
    let (x, y) = (f16_to_f64(a), f16_to_f64(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => 0x7fff,
        (true, false) => b,
        (false, true) => a,
        _ => {
            let a_below = if x == y {
                a & 0x8000 != 0 && b & 0x8000 == 0
            } else {
                x < y
            };
            if a_below != max {
                a
            } else {
                b
            }
        }
    }
}

/// One half-precision operation on f16 bits (not `Setp`).
pub fn half_op(op: HalfOp, a: u16, b: u16, c: u16, ftz: bool, sat: bool) -> u16 {
    let (a, b, c) = (flush(a, ftz), flush(b, ftz), flush(c, ftz));
    let v = f16_to_f64;
    match op {
        HalfOp::Add => round_half(v(a) + v(b), ftz, sat),
        HalfOp::Sub => round_half(v(a) - v(b), ftz, sat),
        HalfOp::Mul => round_half(v(a) * v(b), ftz, sat),
        HalfOp::Fma => round_half(v(a).mul_add(v(b), v(c)), ftz, sat),
        HalfOp::Neg => a ^ 0x8000,
        HalfOp::Abs => a & 0x7fff,
        HalfOp::Min => min_max(a, b, false),
        HalfOp::Max => min_max(a, b, true),
        HalfOp::Setp(_) => 0,
    }
}

/// Runs a half-precision operation (not `Setp`) on every lane: one half, or both halves of a
/// 32-bit register when `x2`.
pub fn half_lanes(op: HalfOp, x2: bool, ftz: bool, sat: bool, s: &[Lanes; 3], out: &mut Lanes) {
    let parts = if x2 { 2 } else { 1 };
    for l in 0..WARP_SIZE {
        let mut r = 0u64;
        for h in 0..parts {
            let sh = 16 * h;
            let x = |v: u64| (v >> sh) as u16;
            let d = half_op(op, x(s[0][l]), x(s[1][l]), x(s[2][l]), ftz, sat);
            r |= (d as u64) << sh;
        }
        out[l] = r;
    }
}

/// The f32 bits of half `h` of each lane (f16 → f32 is exact), with `.ftz` flushing.
pub fn half_as_f32(v: &Lanes, h: u32, ftz: bool) -> Lanes {
    let mut o = [0u64; WARP_SIZE];
    for l in 0..WARP_SIZE {
        let x = flush((v[l] >> (16 * h)) as u16, ftz);
        o[l] = (f16_to_f64(x) as f32).to_bits() as u64;
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carry_chains_are_exact() {
        // 64-bit add through two 32-bit halves
        let (lo, c) = carry_lane(CarryKind::Add, Ty::U32, 0xffff_ffff, 1, 0, false);
        assert_eq!((lo, c), (0, true));
        let (hi, c2) = carry_lane(CarryKind::Add, Ty::U32, 5, 6, 0, c);
        assert_eq!((hi, c2), (12, false));
        // borrow
        assert_eq!(
            carry_lane(CarryKind::Sub, Ty::U32, 0, 1, 0, false),
            (0xffff_ffff, true)
        );
        assert_eq!(
            carry_lane(CarryKind::Sub, Ty::U32, 5, 1, 0, true),
            (3, false)
        );
        // mad.hi of signed 64-bit
        let (d, c) = carry_lane(CarryKind::MadHi, Ty::S64, -1i64 as u64, 3, 0, false);
        assert_eq!((d, c), (u64::MAX, false));
        let (d, c) = carry_lane(CarryKind::MadLo, Ty::U64, u64::MAX, u64::MAX, 5, true);
        assert_eq!((d, c), (7, false));
    }

    #[test]
    fn half_rounding_and_special_values() {
        // 1 + 2^-11 (half an ulp) rounds to even (1.0); 1 + 3*2^-12 (3/4 ulp) rounds up
        let one = 0x3c00;
        assert_eq!(half_op(HalfOp::Add, one, 0x1000, 0, false, false), one);
        assert_eq!(half_op(HalfOp::Add, one, 0x1200, 0, false, false), 0x3c01);
        assert_eq!(
            half_op(HalfOp::Mul, 0x7bff, 0x4000, 0, false, false),
            0x7c00
        );
        assert_eq!(half_op(HalfOp::Min, 0x7e00, one, 0, false, false), one);
        assert_eq!(
            half_op(HalfOp::Max, 0x8000, 0x0000, 0, false, false),
            0x0000
        );
        assert_eq!(
            half_op(HalfOp::Min, 0x8000, 0x0000, 0, false, false),
            0x8000
        );
        assert_eq!(half_op(HalfOp::Add, 0x0001, 0, 0, true, false), 0);
        assert_eq!(half_op(HalfOp::Add, 0x4200, 0, 0, false, true), one);
    }
}
