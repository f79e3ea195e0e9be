//! `cvt` (simulator §3.1.3): integer↔integer with sign/zero extension and `.sat`;
//! integer→float with `.rn .rz .rm .rp`; float→integer with `.rni .rzi .rmi .rpi`, saturating to
//! the destination range (NaN → 0); f32↔f64; float→float rounding to an integral value.
//!
//! Directed rounding of a conversion is derived from the round-to-nearest result r: if the exact
//! value lies below r and the mode rounds down (or towards zero from above), the result is the
//! next representable value below r, and symmetrically above.

use super::alu::{b32, b64, f32v, f64v, ftz32, ival, map1, sat01, sext, trunc, Lanes};
use crate::ptx::isa::{flags, Rnd, Ty};

/// Rounds a float to an integral value with the given mode.
#[inline(always)]
fn round_int(x: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rz => x.trunc(),
        Rnd::Rm => x.floor(),
        Rnd::Rp => x.ceil(),
        _ => x.round_ties_even(),
    }
}

/// Converts exactly-known value `x` (given as the nearest f64 `r` with the sign of the error
/// `err_sign` = sign(x − r)) to f32 with directed rounding.
#[inline(always)]
fn directed_f32(r: f32, exact_vs_r: std::cmp::Ordering, rnd: Rnd) -> f32 {
    use std::cmp::Ordering::*;
    match (rnd, exact_vs_r) {
        (Rnd::Rz, Less) if r > 0.0 => r.next_down(),
        (Rnd::Rz, Greater) if r < 0.0 => r.next_up(),
        (Rnd::Rm, Less) => r.next_down(),
        (Rnd::Rp, Greater) => r.next_up(),
        _ => r,
    }
}
#[inline(always)]
fn directed_f64(r: f64, exact_vs_r: std::cmp::Ordering, rnd: Rnd) -> f64 {
    use std::cmp::Ordering::*;
    match (rnd, exact_vs_r) {
        (Rnd::Rz, Less) if r > 0.0 => r.next_down(),
        (Rnd::Rz, Greater) if r < 0.0 => r.next_up(),
        (Rnd::Rm, Less) => r.next_down(),
        (Rnd::Rp, Greater) => r.next_up(),
        _ => r,
    }
}

/// Integer (as i128) to float bits with rounding `rnd`.
#[inline(always)]
fn int_to_float(v: i128, dst: Ty, rnd: Rnd) -> u64 {
    if dst == Ty::F32 {
        let r = v as f32; // nearest even
        let ord = v.cmp(&(r as i128));
        // `r as i128` saturates only beyond i128 range, impossible for 64-bit inputs.
        b32(directed_f32(r, ord, rnd))
    } else {
        let r = v as f64;
        let ord = v.cmp(&(r as i128));
        b64(directed_f64(r, ord, rnd))
    }
}

/// Float (as f64, exact) to an integer type with saturation; NaN → 0.
#[inline(always)]
fn float_to_int(x: f64, dst: Ty, rnd: Rnd) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let r = round_int(x, rnd);
    let bits = dst.bits();
    let (lo, hi) = if dst.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0i128, (1i128 << bits) - 1)
    };
    let v = if r <= lo as f64 {
        lo
    } else if r >= hi as f64 {
        hi
    } else {
        r as i128
    };
    trunc(v as u64, bits)
}

/// `cvt.dst.src` on 32 lanes.
pub fn cvt_lanes(o: &mut Lanes, a: &Lanes, dst: Ty, src: Ty, rnd: Rnd, fl: u8) {
    let ftz = fl & flags::FTZ != 0;
    let sat = fl & flags::SAT != 0;
    let fin32 = |x: u64| ftz32(f32v(x), ftz) as f64;
    match (src.is_float(), dst.is_float()) {
        (false, false) => {
            let db = dst.bits();
            map1(o, a, |x| {
                let v = ival(x, src);
                let v = if sat {
                    let (lo, hi) = if dst.is_signed() {
                        (-(1i128 << (db - 1)), (1i128 << (db - 1)) - 1)
                    } else {
                        (0, (1i128 << db) - 1)
                    };
                    v.clamp(lo, hi)
                } else {
                    v
                };
                // Narrow results are kept sign-/zero-extended to 32 bits in their register.
                if db < 32 && dst.is_signed() {
                    trunc(sext(v as u64, db) as u64, 32)
                } else {
                    trunc(v as u64, db)
                }
            })
        }
        (false, true) => map1(o, a, |x| {
            let r = int_to_float(ival(x, src), dst, rnd);
            if sat && dst == Ty::F32 {
                b32(sat01(f32v(r)))
            } else {
                r
            }
        }),
        (true, false) => map1(o, a, |x| {
            let f = if src == Ty::F32 { fin32(x) } else { f64v(x) };
            let v = float_to_int(f, dst, rnd);
            if dst.bits() < 32 && dst.is_signed() {
                trunc(sext(v, dst.bits()) as u64, 32)
            } else {
                v
            }
        }),
        (true, true) => {
            let rint = fl & flags::RINT != 0;
            map1(o, a, |x| match (src, dst) {
                (Ty::F32, Ty::F32) => {
                    let f = fin32(x);
                    let r = if rint {
                        round_int(f, rnd) as f32
                    } else {
                        f as f32
                    };
                    b32(ftz32(if sat { sat01(r) } else { r }, ftz))
                }
                (Ty::F32, _) => {
                    let f = fin32(x);
                    b64(if rint { round_int(f, rnd) } else { f })
                }
                (_, Ty::F32) => {
                    let f = f64v(x);
                    let r = f as f32;
                    let r = if rint {
                        round_int(f, rnd) as f32
                    } else if r.is_finite() && !f.is_nan() {
                        directed_f32(
                            r,
                            f.partial_cmp(&(r as f64))
                                .unwrap_or(std::cmp::Ordering::Equal),
                            rnd,
                        )
                    } else {
                        r
                    };
                    b32(ftz32(if sat { sat01(r) } else { r }, ftz))
                }
                _ => {
                    let f = f64v(x);
                    b64(if rint { round_int(f, rnd) } else { f })
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cvt1(a: &Lanes, dst: Ty, src: Ty, rnd: Rnd, fl: u8) -> u64 {
        let mut o = [0u64; 32];
        cvt_lanes(&mut o, a, dst, src, rnd, fl);
        o[0]
    }

    #[test]
    fn conversions() {
        let l = |v: u64| [v; 32];
        // f32 → s32 rounding modes and saturation.
        let x = b32(-2.5);
        assert_eq!(
            cvt1(&l(x), Ty::S32, Ty::F32, Rnd::Rn, 0),
            trunc(-2i64 as u64, 32)
        );
        assert_eq!(
            cvt1(&l(x), Ty::S32, Ty::F32, Rnd::Rm, 0),
            trunc(-3i64 as u64, 32)
        );
        assert_eq!(
            cvt1(&l(x), Ty::S32, Ty::F32, Rnd::Rz, 0),
            trunc(-2i64 as u64, 32)
        );
        assert_eq!(cvt1(&l(x), Ty::U32, Ty::F32, Rnd::Rz, 0), 0);
        assert_eq!(
            cvt1(&l(b32(1e20)), Ty::S32, Ty::F32, Rnd::Rz, 0),
            0x7FFF_FFFF
        );
        assert_eq!(cvt1(&l(b32(f32::NAN)), Ty::S32, Ty::F32, Rnd::Rz, 0), 0);
        // u32 → f32 with directed rounding: 2^24 + 1 is not representable.
        let v = (1u64 << 24) + 1;
        assert_eq!(f32v(cvt1(&l(v), Ty::F32, Ty::U32, Rnd::Rz, 0)), 16777216.0);
        assert_eq!(f32v(cvt1(&l(v), Ty::F32, Ty::U32, Rnd::Rp, 0)), 16777218.0);
        // int → int sign extension and saturation.
        assert_eq!(
            cvt1(&l(0xFFFF_FFFF), Ty::S64, Ty::S32, Rnd::None, 0),
            u64::MAX
        );
        assert_eq!(
            cvt1(&l(0xFFFF_FFFF), Ty::U64, Ty::U32, Rnd::None, 0),
            0xFFFF_FFFF
        );
        assert_eq!(cvt1(&l(300), Ty::U8, Ty::U32, Rnd::None, flags::SAT), 255);
    }
}
