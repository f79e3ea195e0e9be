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
pub(super) fn directed_f32(r: f32, exact_vs_r: std::cmp::Ordering, rnd: Rnd) -> f32 {
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
pub(super) fn directed_f64(r: f64, exact_vs_r: std::cmp::Ordering, rnd: Rnd) -> f64 {
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
    if src == Ty::F16 {
        // every half is exactly a double: convert from there
        let mut w = [0u64; 32];
        map1(&mut w, a, |x| b64(f16_to_f64(x as u16)));
        return cvt_lanes(o, &w, dst, Ty::F64, rnd, fl & !flags::FTZ);
    }
    if dst == Ty::F16 {
        let sat = fl & flags::SAT != 0;
        let ftz = fl & flags::FTZ != 0;
        map1(o, a, |x| {
            let v = match src {
                Ty::F32 => ftz32(f32v(x), ftz) as f64,
                Ty::F64 => f64v(x),
                t => ival(x, t) as f64,
            };
            let v = if sat { v.clamp(0.0, 1.0) } else { v };
            let v = if sat && v.is_nan() { 0.0 } else { v };
            f64_to_f16(v, rnd) as u64
        });
        return;
    }
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

/// The value of IEEE-754 binary16 bits `h`.
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

/// `x` rounded to binary16 with mode `rnd` (nearest even by default); overflow gives infinity
/// (or the largest finite half where the mode rounds towards zero), NaN the canonical NaN.
pub fn f64_to_f16(x: f64, rnd: Rnd) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let ax = x.abs();
    if ax.is_infinite() {
        return sign | 0x7c00;
    }
    // scale to units of the half's least significant bit at this magnitude
    let e = if ax == 0.0 {
        -24
    } else {
        (ax.log2().floor() as i32).clamp(-14, 15) - 10
    };
    let q = ax / 2f64.powi(e); // exact: a power-of-two scaling
    let up = match rnd {
        Rnd::Rz => false,
        Rnd::Rm => sign != 0 && q.fract() != 0.0,
        Rnd::Rp => sign == 0 && q.fract() != 0.0,
        _ => {
            let f = q.fract();
            f > 0.5 || (f == 0.5 && (q.trunc() as u64) % 2 == 1)
        }
    };
    let mut n = q.trunc() as u64 + up as u64; // significand in units of 2^e
    let mut e = e;
    if n >= 2048 {
        n /= 2;
        e += 1;
    }
    if e + 10 > 15 {
        // overflow
        let to_max = matches!(rnd, Rnd::Rz)
            || (rnd == Rnd::Rm && sign == 0)
            || (rnd == Rnd::Rp && sign != 0);
        return sign | if to_max { 0x7bff } else { 0x7c00 };
    }
    if n < 1024 {
        // subnormal (e = -24) or zero
        return sign | n as u16;
    }
    let exp = (e + 10 + 15) as u16;
    sign | (exp << 10) | (n as u16 & 0x3ff)
}

#[cfg(test)]
mod f16_tests {
    use super::*;

    #[test]
    fn half_conversions() {
        for (x, h) in [
            (1.0, 0x3c00u16),
            (-2.0, 0xc000),
            (65504.0, 0x7bff),
            (65520.0, 0x7c00),
            (6.103515625e-5, 0x0400),
            (5.960464477539063e-8, 0x0001),
            (0.1, 0x2e66),
            (0.0, 0),
        ] {
            assert_eq!(f64_to_f16(x, Rnd::Rn), h, "{x}");
            if h != 0x7c00 {
                assert_eq!(f16_to_f64(h), if x == 0.1 { f16_to_f64(0x2e66) } else { x });
            }
        }
        // ties to even, directed modes
        assert_eq!(f64_to_f16(1.0 + 1.0 / 2048.0, Rnd::Rn), 0x3c00);
        assert_eq!(f64_to_f16(1.0 + 3.0 / 2048.0, Rnd::Rn), 0x3c02);
        assert_eq!(f64_to_f16(1.0 + 1.0 / 4096.0, Rnd::Rp), 0x3c01);
        assert_eq!(f64_to_f16(-1.0 - 1.0 / 4096.0, Rnd::Rm), 0xbc01);
        assert_eq!(f64_to_f16(1e6, Rnd::Rz), 0x7bff);
        // every half round-trips
        for h in 0..0x7c00u16 {
            assert_eq!(f64_to_f16(f16_to_f64(h), Rnd::Rn), h);
        }
    }
}
