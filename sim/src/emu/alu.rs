//! Lane-parallel arithmetic (simulator §3.1.3). Every function maps 32 lanes of raw
//! register bits (`u64`, low `bits` significant) to 32 results; inactive lanes are computed too
//! (no operation can panic or trap) and discarded by the masked write-back, which keeps the loops
//! branch-free.
//!
//! Semantics: IEEE-754 binary32/binary64 with round-to-nearest-even; FMA via `mul_add`
//! (single rounding); transcendentals via the `libm` crate (bit-identical across hosts);
//! `.ftz` flushes subnormal f32 inputs and results to signed zero; `.sat` clamps f32 results to
//! [0, 1] (NaN → 0); `rcp.approx` and `div.approx`/`div.full` compute a·(1/b); `rsqrt.approx` is
//! 1/sqrt rounded twice; integer division or remainder by zero returns all ones.
//!
//! Longer than 600 lines on purpose: the lane-wise evaluation of every PTX arithmetic, logic and
//! comparison opcode ([`eval`], [`setp`]) with the float helpers whose rounding they share.

#![allow(clippy::needless_range_loop)]

pub use super::alu_ext::eval4;
use super::alu_ext::{bfe, bfind, directed_lanes, prmt, shf, testp};
use crate::ptx::isa::{flags, BoolOp, Cmp, Inst, Op, Ty};

/// 32 lanes of raw values.
pub type Lanes = [u64; 32];

/// Applies `f` to each lane of `a`.
#[inline(always)]
pub fn map1(r: &mut Lanes, a: &Lanes, f: impl Fn(u64) -> u64) {
    for l in 0..32 {
        r[l] = f(a[l]);
    }
}
/// Applies `f` lane by lane to `a` and `b`.
#[inline(always)]
pub fn map2(r: &mut Lanes, a: &Lanes, b: &Lanes, f: impl Fn(u64, u64) -> u64) {
    for l in 0..32 {
        r[l] = f(a[l], b[l]);
    }
}
/// Applies `f` lane by lane to `a`, `b` and `c`.
#[inline(always)]
pub fn map3(r: &mut Lanes, a: &Lanes, b: &Lanes, c: &Lanes, f: impl Fn(u64, u64, u64) -> u64) {
    for l in 0..32 {
        r[l] = f(a[l], b[l], c[l]);
    }
}

/// Keeps the low `bits` bits.
#[inline(always)]
pub fn trunc(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// Sign-extends the low `bits` bits.
#[inline(always)]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// Value of an integer operand of type `t` as i128 (sign- or zero-extended).
#[inline(always)]
pub(super) fn ival(v: u64, t: Ty) -> i128 {
    if t.is_signed() {
        sext(v, t.bits()) as i128
    } else {
        trunc(v, t.bits()) as i128
    }
}

#[inline(always)]
pub(super) fn ftz32(x: f32, on: bool) -> f32 {
    if on && x.is_subnormal() {
        if x.is_sign_negative() {
            -0.0
        } else {
            0.0
        }
    } else {
        x
    }
}

#[inline(always)]
pub(super) fn f32v(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
#[inline(always)]
pub(super) fn f64v(v: u64) -> f64 {
    f64::from_bits(v)
}
#[inline(always)]
pub(super) fn b32(x: f32) -> u64 {
    x.to_bits() as u64
}
#[inline(always)]
pub(super) fn b64(x: f64) -> u64 {
    x.to_bits()
}

#[inline(always)]
pub(super) fn sat01(x: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// f32 unary/binary/ternary op with `.ftz`/`.sat` applied.
#[inline(always)]
fn f32_1(o: &mut Lanes, a: &Lanes, fl: u8, f: impl Fn(f32) -> f32) {
    if fl & (flags::FTZ | flags::SAT) == 0 {
        return map1(o, a, |x| b32(f(f32v(x))));
    }
    let ftz = fl & flags::FTZ != 0;
    let sat = fl & flags::SAT != 0;
    map1(o, a, |x| {
        let r = ftz32(f(ftz32(f32v(x), ftz)), ftz);
        b32(if sat { sat01(r) } else { r })
    })
}
#[inline(always)]
fn f32_2(o: &mut Lanes, a: &Lanes, b: &Lanes, fl: u8, f: impl Fn(f32, f32) -> f32) {
    if fl & (flags::FTZ | flags::SAT) == 0 {
        return map2(o, a, b, |x, y| b32(f(f32v(x), f32v(y))));
    }
    let ftz = fl & flags::FTZ != 0;
    let sat = fl & flags::SAT != 0;
    map2(o, a, b, |x, y| {
        let r = ftz32(f(ftz32(f32v(x), ftz), ftz32(f32v(y), ftz)), ftz);
        b32(if sat { sat01(r) } else { r })
    })
}
#[inline(always)]
fn f32_3(o: &mut Lanes, a: &Lanes, b: &Lanes, c: &Lanes, fl: u8, f: impl Fn(f32, f32, f32) -> f32) {
    if fl & (flags::FTZ | flags::SAT) == 0 {
        return map3(o, a, b, c, |x, y, z| b32(f(f32v(x), f32v(y), f32v(z))));
    }
    let ftz = fl & flags::FTZ != 0;
    let sat = fl & flags::SAT != 0;
    map3(o, a, b, c, |x, y, z| {
        let r = ftz32(
            f(
                ftz32(f32v(x), ftz),
                ftz32(f32v(y), ftz),
                ftz32(f32v(z), ftz),
            ),
            ftz,
        );
        b32(if sat { sat01(r) } else { r })
    })
}

/// Single-rounding f32 fused multiply-add, bit-identical to `f32::mul_add` but without a
/// software `fmaf` call on hosts without FMA instructions. The product of two f32 values is exact
/// in f64; the f64 sum is made *round-to-odd* (Boldo and Melquiond, "Emulation of FMA and
/// correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 2008) using the
/// exact TwoSum error term, after which one rounding to f32 is correct because 53 ≥ 24 + 2.
#[inline(always)]
pub fn fma32(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64;
    let cd = c as f64;
    let s = p + cd;
    if !s.is_finite() {
        return a.mul_add(b, c);
    }
    let bb = s - p;
    let e = (p - (s - bb)) + (cd - bb);
    let s = if e != 0.0 && s.to_bits() & 1 == 0 {
        f64::from_bits(if (e > 0.0) == (s > 0.0) {
            s.to_bits() + 1
        } else {
            s.to_bits() - 1
        })
    } else {
        s
    };
    s as f32
}

/// [`fma32`] on 32 lanes, written without branches so the loop vectorises; lanes whose f64 sum
/// is not finite (infinite or NaN operands) are recomputed with `mul_add`.
#[inline(always)]
fn fma32_lanes(o: &mut Lanes, a: &Lanes, b: &Lanes, c: &Lanes) {
    let mut special = false;
    for l in 0..32 {
        let p = f32v(a[l]) as f64 * f32v(b[l]) as f64;
        let z = f32v(c[l]) as f64;
        let s = p + z;
        let bb = s - p;
        let e = (p - (s - bb)) + (z - bb);
        let sb = s.to_bits();
        let adjust = ((e != 0.0) as u64) & (!sb & 1);
        let up = ((e > 0.0) == (s > 0.0)) as u64;
        let sb = sb.wrapping_add(adjust & up).wrapping_sub(adjust & (1 - up));
        special |= !s.is_finite();
        o[l] = b32(f64::from_bits(sb) as f32);
    }
    if special {
        for l in 0..32 {
            o[l] = b32(f32v(a[l]).mul_add(f32v(b[l]), f32v(c[l])));
        }
    }
}

/// PTX min/max: a NaN operand yields the other operand.
#[inline(always)]
fn fmin32(x: f32, y: f32) -> f32 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}
#[inline(always)]
fn fmax32(x: f32, y: f32) -> f32 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x > y || (x == y && y.is_sign_negative()) {
        x
    } else {
        y
    }
}
#[inline(always)]
fn fmin64(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}
#[inline(always)]
fn fmax64(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x > y || (x == y && y.is_sign_negative()) {
        x
    } else {
        y
    }
}

/// Integer binary op on type `t`, result truncated to the type width.
#[inline(always)]
fn int2(o: &mut Lanes, a: &Lanes, b: &Lanes, t: Ty, f: impl Fn(i128, i128) -> i128) {
    let bits = t.bits();
    map2(o, a, b, |x, y| {
        trunc(f(ival(x, t), ival(y, t)) as u64, bits)
    })
}

/// Evaluates a single-result ALU operation. `s` holds the fetched sources in PTX order.
/// Returns `None` for operations that are not single-result ALU ops.
#[inline(always)]
pub fn eval(inst: &Inst, s: &[Lanes; 3], o: &mut Lanes) -> bool {
    let fl = inst.flags;
    let (a, b, c) = (&s[0], &s[1], &s[2]);
    match inst.op {
        Op::Mov(_) => *o = *a,
        Op::Add(t) | Op::Sub(t) | Op::FMul(t) | Op::Fma(t) | Op::Div(t)
            if fl & flags::RND_MASK != 0 && t.is_float() =>
        {
            directed_lanes(inst, t, a, b, c, o)
        }
        Op::Add(Ty::F32) => f32_2(o, a, b, fl, |x, y| x + y),
        Op::Add(Ty::F64) => map2(o, a, b, |x, y| b64(f64v(x) + f64v(y))),
        Op::Add(t) if fl & flags::SAT != 0 && t == Ty::S32 => int2(o, a, b, t, |x, y| {
            (x + y).clamp(i32::MIN as i128, i32::MAX as i128)
        }),
        Op::Add(t) => {
            let bits = t.bits();
            map2(o, a, b, |x, y| trunc(x.wrapping_add(y), bits))
        }
        Op::Sub(Ty::F32) => f32_2(o, a, b, fl, |x, y| x - y),
        Op::Sub(Ty::F64) => map2(o, a, b, |x, y| b64(f64v(x) - f64v(y))),
        Op::Sub(t) if fl & flags::SAT != 0 && t == Ty::S32 => int2(o, a, b, t, |x, y| {
            (x - y).clamp(i32::MIN as i128, i32::MAX as i128)
        }),
        Op::Sub(t) => {
            let bits = t.bits();
            map2(o, a, b, |x, y| trunc(x.wrapping_sub(y), bits))
        }
        Op::FMul(Ty::F32) => f32_2(o, a, b, fl, |x, y| x * y),
        Op::FMul(_) => map2(o, a, b, |x, y| b64(f64v(x) * f64v(y))),
        Op::Fma(Ty::F32) if fl & (flags::FTZ | flags::SAT) == 0 => fma32_lanes(o, a, b, c),
        Op::Fma(Ty::F32) => f32_3(o, a, b, c, fl, fma32),
        Op::Fma(_) => map3(o, a, b, c, |x, y, z| b64(f64v(x).mul_add(f64v(y), f64v(z)))),
        Op::MulLo(t) => {
            let bits = t.bits();
            map2(o, a, b, |x, y| trunc(x.wrapping_mul(y), bits))
        }
        Op::MulHi(t) if t.bits() == 64 && !t.is_signed() => {
            map2(o, a, b, |x, y| ((x as u128 * y as u128) >> 64) as u64)
        }
        Op::MulHi(t) => int2(o, a, b, t, |x, y| (x * y) >> t.bits()),
        Op::MulWide(t) => {
            let bits = 2 * t.bits();
            map2(o, a, b, |x, y| {
                trunc((ival(x, t) * ival(y, t)) as u64, bits)
            })
        }
        Op::MadLo(t) => {
            let bits = t.bits();
            map3(o, a, b, c, |x, y, z| {
                trunc(x.wrapping_mul(y).wrapping_add(z), bits)
            })
        }
        Op::MadHi(t) if t.bits() == 64 && !t.is_signed() => map3(o, a, b, c, |x, y, z| {
            (((x as u128 * y as u128) >> 64) as u64).wrapping_add(z)
        }),
        Op::MadHi(t) => {
            let bits = t.bits();
            map3(o, a, b, c, |x, y, z| {
                trunc(
                    (((ival(x, t) * ival(y, t)) >> bits) + ival(z, t)) as u64,
                    bits,
                )
            })
        }
        Op::MadWide(t) => {
            let bits = 2 * t.bits();
            map3(o, a, b, c, |x, y, z| {
                trunc(((ival(x, t) * ival(y, t)) as u64).wrapping_add(z), bits)
            })
        }
        Op::Div(Ty::F32) => {
            if fl & flags::APPROX != 0 {
                f32_2(o, a, b, fl, |x, y| x * (1.0 / y))
            } else {
                f32_2(o, a, b, fl, |x, y| x / y)
            }
        }
        Op::Div(Ty::F64) => map2(o, a, b, |x, y| b64(f64v(x) / f64v(y))),
        Op::Div(t) => int2(o, a, b, t, |x, y| if y == 0 { -1 } else { x / y }),
        Op::Rem(t) => int2(o, a, b, t, |x, y| if y == 0 { -1 } else { x % y }),
        Op::Min(Ty::F32) => f32_2(o, a, b, fl, fmin32),
        Op::Min(Ty::F64) => map2(o, a, b, |x, y| b64(fmin64(f64v(x), f64v(y)))),
        Op::Min(t) => int2(o, a, b, t, |x, y| x.min(y)),
        Op::Max(Ty::F32) => f32_2(o, a, b, fl, fmax32),
        Op::Max(Ty::F64) => map2(o, a, b, |x, y| b64(fmax64(f64v(x), f64v(y)))),
        Op::Max(t) => int2(o, a, b, t, |x, y| x.max(y)),
        Op::Abs(Ty::F32) => f32_1(o, a, fl, f32::abs),
        Op::Abs(Ty::F64) => map1(o, a, |x| x & !(1u64 << 63)),
        Op::Abs(t) => map1(o, a, |x| trunc(ival(x, t).unsigned_abs() as u64, t.bits())),
        Op::Neg(Ty::F32) => f32_1(o, a, fl, |x| -x),
        Op::Neg(Ty::F64) => map1(o, a, |x| x ^ (1u64 << 63)),
        Op::Neg(t) => map1(o, a, |x| trunc((-ival(x, t)) as u64, t.bits())),
        Op::Popc(t) => map1(o, a, |x| trunc(x, t.bits()).count_ones() as u64),
        Op::Clz(t) => map1(o, a, |x| {
            (trunc(x, t.bits()).leading_zeros() - (64 - t.bits())) as u64
        }),
        Op::Brev(t) => map1(o, a, |x| {
            trunc(x, t.bits()).reverse_bits() >> (64 - t.bits())
        }),
        Op::And(t) => map2(o, a, b, |x, y| trunc(x & y, t.bits())),
        Op::Or(t) => map2(o, a, b, |x, y| trunc(x | y, t.bits())),
        Op::Xor(t) => map2(o, a, b, |x, y| trunc(x ^ y, t.bits())),
        Op::Not(t) => map1(o, a, |x| trunc(!x, t.bits())),
        Op::Shl(t) => {
            let bits = t.bits();
            map2(o, a, b, |x, y| {
                let n = y as u32;
                if n >= bits {
                    0
                } else {
                    trunc(x << n, bits)
                }
            })
        }
        Op::Shr(t) => {
            let bits = t.bits();
            if t.is_signed() {
                map2(o, a, b, |x, y| {
                    let n = (y as u32).min(bits - 1);
                    trunc((sext(x, bits) >> n) as u64, bits)
                })
            } else {
                map2(o, a, b, |x, y| {
                    let n = y as u32;
                    if n >= bits {
                        0
                    } else {
                        trunc(x, bits) >> n
                    }
                })
            }
        }
        Op::Sqrt(Ty::F64) => map1(o, a, |x| b64(f64v(x).sqrt())),
        Op::Rsqrt(Ty::F64) => map1(o, a, |x| b64(1.0 / f64v(x).sqrt())),
        Op::Rcp(Ty::F64) => map1(o, a, |x| b64(1.0 / f64v(x))),
        Op::Sqrt(_) => f32_1(o, a, fl, libm::sqrtf),
        Op::Rsqrt(_) => f32_1(o, a, fl, |x| 1.0 / libm::sqrtf(x)),
        Op::Rcp(_) => f32_1(o, a, fl, |x| 1.0 / x),
        Op::Bfe(t) => map3(o, a, b, c, |x, p, l| bfe(x, p, l, t)),
        Op::Bfind { ty, shiftamt } => map1(o, a, |x| bfind(x, ty, shiftamt)),
        Op::Prmt(mode) => map3(o, a, b, c, |x, y, sel| prmt(x, y, sel, mode)),
        Op::Bmsk { wrap } => map2(o, a, b, |x, y| {
            // PTX ISA "bmsk": the mask of bits [a, a + b) within 32 bits
            let (a1, b1) = if wrap {
                (x & 31, y & 31)
            } else {
                ((x & 0xFFFF_FFFF).min(32), (y & 0xFFFF_FFFF).min(32))
            };
            let m0 = if a1 < 32 { (u32::MAX as u64) << a1 } else { 0 };
            let sum = a1 + b1;
            let m1 = if sum < 32 {
                (u32::MAX as u64) << sum
            } else {
                0
            };
            m0 & !m1 & 0xFFFF_FFFF
        }),
        Op::Shf { left, wrap } => map3(o, a, b, c, |lo, hi, n| shf(lo, hi, n, left, wrap)),
        Op::Copysign(Ty::F32) => map2(o, a, b, |x, y| (y & 0x7FFF_FFFF) | (x & 0x8000_0000)),
        Op::Copysign(_) => map2(o, a, b, |x, y| (y & !(1 << 63)) | (x & (1 << 63))),
        Op::Testp(k, t) => map1(o, a, |x| testp(x, k, t) as u64),
        Op::Mul24 { signed, hi, mad } => map3(o, a, b, c, |x, y, z| {
            let (x, y) = if signed {
                (sext(x, 24), sext(y, 24))
            } else {
                ((x & 0xFF_FFFF) as i64, (y & 0xFF_FFFF) as i64)
            };
            let p = (x * y) as u64;
            let r = if hi { p >> 16 } else { p };
            trunc(if mad { r.wrapping_add(z) } else { r }, 32)
        }),
        Op::Sin(_) => f32_1(o, a, fl, libm::sinf),
        Op::Cos(_) => f32_1(o, a, fl, libm::cosf),
        Op::Ex2(_) => f32_1(o, a, fl, libm::exp2f),
        Op::Lg2(_) => f32_1(o, a, fl, libm::log2f),
        Op::Selp(_) => map3(o, a, b, c, |x, y, p| if p & 1 != 0 { x } else { y }),
        Op::Cvt { dst, src, rnd } => super::cvt::cvt_lanes(o, a, dst, src, rnd, fl),
        _ => return false,
    }
    true
}

/// Comparison of one lane.
#[inline(always)]
fn compare(cmp: Cmp, t: Ty, x: u64, y: u64) -> bool {
    match t {
        Ty::F32 | Ty::F64 => {
            let (x, y) = if t == Ty::F32 {
                (f32v(x) as f64, f32v(y) as f64)
            } else {
                (f64v(x), f64v(y))
            };
            let unord = x.is_nan() || y.is_nan();
            match cmp {
                Cmp::Eq => !unord && x == y,
                Cmp::Ne => !unord && x != y,
                Cmp::Lt | Cmp::Lo => !unord && x < y,
                Cmp::Le | Cmp::Ls => !unord && x <= y,
                Cmp::Gt | Cmp::Hi => !unord && x > y,
                Cmp::Ge | Cmp::Hs => !unord && x >= y,
                Cmp::Equ => unord || x == y,
                Cmp::Neu => unord || x != y,
                Cmp::Ltu => unord || x < y,
                Cmp::Leu => unord || x <= y,
                Cmp::Gtu => unord || x > y,
                Cmp::Geu => unord || x >= y,
                Cmp::Num => !unord,
                Cmp::Nan => unord,
            }
        }
        _ => {
            let bits = t.bits();
            let (ux, uy) = (trunc(x, bits), trunc(y, bits));
            let (sx, sy) = if t.is_signed() {
                (sext(x, bits), sext(y, bits))
            } else {
                (ux as i64, uy as i64)
            };
            let signed = t.is_signed();
            match cmp {
                Cmp::Eq | Cmp::Equ => ux == uy,
                Cmp::Ne | Cmp::Neu => ux != uy,
                Cmp::Lt | Cmp::Ltu => {
                    if signed {
                        sx < sy
                    } else {
                        ux < uy
                    }
                }
                Cmp::Le | Cmp::Leu => {
                    if signed {
                        sx <= sy
                    } else {
                        ux <= uy
                    }
                }
                Cmp::Gt | Cmp::Gtu => {
                    if signed {
                        sx > sy
                    } else {
                        ux > uy
                    }
                }
                Cmp::Ge | Cmp::Geu => {
                    if signed {
                        sx >= sy
                    } else {
                        ux >= uy
                    }
                }
                Cmp::Lo => ux < uy,
                Cmp::Ls => ux <= uy,
                Cmp::Hi => ux > uy,
                Cmp::Hs => ux >= uy,
                Cmp::Num => true,
                Cmp::Nan => false,
            }
        }
    }
}

/// `setp`: returns the lane masks of p and q (`q` is the complement of the comparison, combined
/// with `c` the same way). `.ftz` flushes subnormal f32 inputs to zero first.
#[inline(always)]
pub fn setp(
    cmp: Cmp,
    bop: Option<BoolOp>,
    t: Ty,
    ftz: bool,
    a: &Lanes,
    b: &Lanes,
    c: &Lanes,
) -> (u32, u32) {
    let mut p = 0u32;
    let mut q = 0u32;
    let flush = |v: u64| {
        if ftz && t == Ty::F32 {
            b32(ftz32(f32v(v), true))
        } else {
            v
        }
    };
    for l in 0..32 {
        let r = compare(cmp, t, flush(a[l]), flush(b[l]));
        let cv = c[l] & 1 != 0;
        let (rp, rq) = match bop {
            None => (r, !r),
            Some(BoolOp::And) => (r && cv, !r && cv),
            Some(BoolOp::Or) => (r || cv, !r || cv),
            Some(BoolOp::Xor) => (r ^ cv, !r ^ cv),
        };
        p |= (rp as u32) << l;
        q |= (rq as u32) << l;
    }
    (p, q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fma32_matches_mul_add() {
        // Deterministic pseudo-random operands over many exponents, plus hard cases.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            f32::from_bits((x >> 16) as u32)
        };
        for _ in 0..200_000 {
            let (a, b, c) = (next(), next(), next());
            let want = a.mul_add(b, c);
            let got = fma32(a, b, c);
            assert!(
                want.to_bits() == got.to_bits() || (want.is_nan() && got.is_nan()),
                "{a:e} {b:e} {c:e}"
            );
        }
        let hard = [
            (1.0 + f32::EPSILON, 1.0 - f32::EPSILON, -1.0),
            (f32::MAX, 2.0, -f32::MAX),
            (1e-30, 1e-30, 1e-45),
            (3.0, 1.0 / 3.0, -1.0),
            (0.1, 10.0, -1.0),
            (f32::MIN_POSITIVE, 0.5, 0.0),
        ];
        for (a, b, c) in hard {
            assert_eq!(
                fma32(a, b, c).to_bits(),
                a.mul_add(b, c).to_bits(),
                "{a:e} {b:e} {c:e}"
            );
        }
    }

    #[test]
    fn fma32_lanes_matches_scalar() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 16) as u32 as u64
        };
        for _ in 0..5000 {
            let a: Lanes = std::array::from_fn(|_| next());
            let b: Lanes = std::array::from_fn(|_| next());
            let c: Lanes = std::array::from_fn(|_| next());
            let mut o = [0u64; 32];
            fma32_lanes(&mut o, &a, &b, &c);
            for l in 0..32 {
                let want = f32v(a[l]).mul_add(f32v(b[l]), f32v(c[l]));
                let got = f32v(o[l]);
                assert!(want.to_bits() == got.to_bits() || (want.is_nan() && got.is_nan()));
            }
        }
    }

    #[test]
    fn int_helpers() {
        assert_eq!(sext(0xFFFF_FFFF, 32), -1);
        assert_eq!(sext(0x7FFF_FFFF, 32), 0x7FFF_FFFF);
        assert_eq!(trunc(u64::MAX, 32), 0xFFFF_FFFF);
    }

    fn ev(i: &Inst, s: &[Lanes; 3]) -> u64 {
        let mut o = [0u64; 32];
        assert!(eval(i, s, &mut o));
        o[0]
    }

    #[test]
    fn division_by_zero_is_all_ones() {
        let mut i = Inst::new(Op::Div(Ty::U32), 1);
        let s = [[7u64; 32], [0u64; 32], [0u64; 32]];
        assert_eq!(ev(&i, &s), 0xFFFF_FFFF);
        i.op = Op::Div(Ty::S32);
        assert_eq!(ev(&i, &s), 0xFFFF_FFFF);
        i.op = Op::Div(Ty::S32);
        let s = [[trunc(i32::MIN as u64, 32); 32], [0xFFFF_FFFF; 32], [0; 32]];
        assert_eq!(ev(&i, &s), 0x8000_0000);
    }

    #[test]
    fn setp_unordered_and_bool() {
        let a = [b32(f32::NAN); 32];
        let b = [b32(1.0); 32];
        let c = [1u64; 32];
        assert_eq!(
            setp(Cmp::Lt, None, Ty::F32, false, &a, &b, &c),
            (0, u32::MAX)
        );
        assert_eq!(setp(Cmp::Ltu, None, Ty::F32, false, &a, &b, &c).0, u32::MAX);
        let a = [trunc(-1i64 as u64, 32); 32];
        let b = [1u64; 32];
        assert_eq!(setp(Cmp::Lt, None, Ty::S32, false, &a, &b, &c).0, u32::MAX);
        assert_eq!(setp(Cmp::Lt, None, Ty::U32, false, &a, &b, &c).0, 0);
        assert_eq!(
            setp(Cmp::Lo, Some(BoolOp::And), Ty::S32, false, &b, &a, &c).0,
            u32::MAX
        );
    }

    fn run(op: Op, fl: u8, a: u64, b: u64, c: u64) -> u64 {
        let mut i = Inst::new(op, 1);
        i.flags = fl;
        let mut o = [0u64; 32];
        assert!(eval(&i, &[[a; 32], [b; 32], [c; 32]], &mut o));
        o[0]
    }

    proptest::proptest! {
        #[test]
        fn integer_ops_match_reference(a in proptest::num::u64::ANY, b in proptest::num::u64::ANY, c in proptest::num::u64::ANY) {
            let (a32, b32_, c32) = (a as u32, b as u32, c as u32);
            let (sa, sb) = (a32 as i32, b32_ as i32);
            let r32 = |op| run(op, 0, a32 as u64, b32_ as u64, c32 as u64);
            proptest::prop_assert_eq!(r32(Op::Add(Ty::S32)), a32.wrapping_add(b32_) as u64);
            proptest::prop_assert_eq!(r32(Op::Sub(Ty::U32)), a32.wrapping_sub(b32_) as u64);
            proptest::prop_assert_eq!(r32(Op::MulLo(Ty::S32)), a32.wrapping_mul(b32_) as u64);
            proptest::prop_assert_eq!(r32(Op::MulHi(Ty::U32)), ((a32 as u64 * b32_ as u64) >> 32) as u32 as u64);
            proptest::prop_assert_eq!(r32(Op::MulHi(Ty::S32)), (((sa as i64 * sb as i64) >> 32) as u32) as u64);
            proptest::prop_assert_eq!(r32(Op::MulWide(Ty::S32)), (sa as i64 * sb as i64) as u64);
            proptest::prop_assert_eq!(r32(Op::MulWide(Ty::U32)), a32 as u64 * b32_ as u64);
            proptest::prop_assert_eq!(run(Op::MadWide(Ty::U32), 0, a32 as u64, b32_ as u64, c), (a32 as u64 * b32_ as u64).wrapping_add(c));
            proptest::prop_assert_eq!(r32(Op::MadLo(Ty::U32)), a32.wrapping_mul(b32_).wrapping_add(c32) as u64);
            proptest::prop_assert_eq!(r32(Op::Min(Ty::S32)), sa.min(sb) as u32 as u64);
            proptest::prop_assert_eq!(r32(Op::Max(Ty::U32)), a32.max(b32_) as u64);
            proptest::prop_assert_eq!(r32(Op::Div(Ty::U32)), a32.checked_div(b32_).unwrap_or(u32::MAX) as u64);
            proptest::prop_assert_eq!(r32(Op::Div(Ty::S32)), if sb == 0 { u32::MAX } else { sa.wrapping_div(sb) as u32 } as u64);
            proptest::prop_assert_eq!(r32(Op::Rem(Ty::S32)), if sb == 0 { u32::MAX } else { sa.wrapping_rem(sb) as u32 } as u64);
            proptest::prop_assert_eq!(r32(Op::Abs(Ty::S32)), sa.wrapping_abs() as u32 as u64);
            proptest::prop_assert_eq!(r32(Op::Neg(Ty::S32)), sa.wrapping_neg() as u32 as u64);
            proptest::prop_assert_eq!(r32(Op::Popc(Ty::B32)), a32.count_ones() as u64);
            proptest::prop_assert_eq!(r32(Op::Clz(Ty::B32)), a32.leading_zeros() as u64);
            proptest::prop_assert_eq!(r32(Op::Brev(Ty::B32)), a32.reverse_bits() as u64);
            proptest::prop_assert_eq!(r32(Op::Not(Ty::B32)), (!a32) as u64);
            let sh = b32_ % 40;
            proptest::prop_assert_eq!(run(Op::Shl(Ty::B32), 0, a32 as u64, sh as u64, 0), a32.checked_shl(sh).unwrap_or(0) as u64);
            proptest::prop_assert_eq!(run(Op::Shr(Ty::U32), 0, a32 as u64, sh as u64, 0), a32.checked_shr(sh).unwrap_or(0) as u64);
            proptest::prop_assert_eq!(run(Op::Shr(Ty::S32), 0, a32 as u64, sh as u64, 0), (sa >> sh.min(31)) as u32 as u64);
            // 64-bit
            let (sa64, sb64) = (a as i64, b as i64);
            proptest::prop_assert_eq!(run(Op::Add(Ty::S64), 0, a, b, 0), a.wrapping_add(b));
            proptest::prop_assert_eq!(run(Op::MulHi(Ty::U64), 0, a, b, 0), ((a as u128 * b as u128) >> 64) as u64);
            proptest::prop_assert_eq!(run(Op::MulHi(Ty::S64), 0, a, b, 0), ((sa64 as i128 * sb64 as i128) >> 64) as u64);
            proptest::prop_assert_eq!(run(Op::Div(Ty::S64), 0, a, b, 0), if b == 0 { u64::MAX } else { sa64.wrapping_div(sb64) as u64 });
            proptest::prop_assert_eq!(run(Op::Min(Ty::S64), 0, a, b, 0), sa64.min(sb64) as u64);
            proptest::prop_assert_eq!(run(Op::Shr(Ty::S64), 0, a, b % 70, 0), (sa64 >> (b % 70).min(63)) as u64);
            // 16-bit
            let (a16, b16) = (a as u16, b as u16);
            proptest::prop_assert_eq!(run(Op::Add(Ty::U16), 0, a16 as u64, b16 as u64, 0), a16.wrapping_add(b16) as u64);
            proptest::prop_assert_eq!(run(Op::MulWide(Ty::S16), 0, a16 as u64, b16 as u64, 0), (a16 as i16 as i32 * b16 as i16 as i32) as u32 as u64);
            proptest::prop_assert_eq!(run(Op::Max(Ty::S16), 0, a16 as u64, b16 as u64, 0), (a16 as i16).max(b16 as i16) as u16 as u64);
            // selp and predicate logic
            proptest::prop_assert_eq!(run(Op::Selp(Ty::B32), 0, a32 as u64, b32_ as u64, c & 1), if c & 1 == 1 { a32 } else { b32_ } as u64);
            proptest::prop_assert_eq!(run(Op::Not(Ty::Pred), 0, c & 1, 0, 0) & 1, (c & 1) ^ 1);
        }

        #[test]
        fn float_ops_match_reference(a in proptest::num::u32::ANY, b in proptest::num::u32::ANY, c in proptest::num::u32::ANY) {
            let (x, y, z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
            let same = |got: u64, want: f32| f32v(got).to_bits() == want.to_bits() || (f32v(got).is_nan() && want.is_nan());
            let r = |op, fl| run(op, fl, a as u64, b as u64, c as u64);
            proptest::prop_assert!(same(r(Op::Add(Ty::F32), 0), x + y));
            proptest::prop_assert!(same(r(Op::Sub(Ty::F32), 0), x - y));
            proptest::prop_assert!(same(r(Op::FMul(Ty::F32), 0), x * y));
            proptest::prop_assert!(same(r(Op::Fma(Ty::F32), 0), x.mul_add(y, z)));
            proptest::prop_assert!(same(r(Op::Div(Ty::F32), 0), x / y));
            proptest::prop_assert!(same(r(Op::Div(Ty::F32), flags::APPROX), x * (1.0 / y)));
            proptest::prop_assert!(same(r(Op::Sqrt(Ty::F32), 0), libm::sqrtf(x)));
            proptest::prop_assert!(same(r(Op::Rsqrt(Ty::F32), 0), 1.0 / libm::sqrtf(x)));
            proptest::prop_assert!(same(r(Op::Ex2(Ty::F32), 0), libm::exp2f(x)));
            let ftz = |v: f32| if v.is_subnormal() { 0.0f32.copysign(v) } else { v };
            proptest::prop_assert!(same(r(Op::Add(Ty::F32), flags::FTZ), ftz(ftz(x) + ftz(y))));
            let sat = |v: f32| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
            proptest::prop_assert!(same(r(Op::FMul(Ty::F32), flags::SAT), sat(x * y)));
            let m = r(Op::Min(Ty::F32), 0);
            if x.is_nan() { proptest::prop_assert!(same(m, y)); }
            else if y.is_nan() { proptest::prop_assert!(same(m, x)); }
            else { proptest::prop_assert_eq!(f32v(m), x.min(y)); }
            proptest::prop_assert_eq!(r(Op::Abs(Ty::F32), 0) as u32, a & 0x7FFF_FFFF);
            proptest::prop_assert_eq!(r(Op::Neg(Ty::F32), 0) as u32, a ^ 0x8000_0000);
        }
    }
}
