//! The lane-parallel evaluation of the PTX operations compilers emit beyond the original
//! subset: bit-field and byte operations (`bfe`, `bfi`, `bfind`, `prmt`, `shf`, `lop3`), `mov`
//! packing, `testp`, and float `add`/`sub`/`mul`/`fma` with directed rounding (PTX ISA 9.x,
//! "Integer Arithmetic", "Logic and Shift", "Floating-Point" instructions).

#![allow(clippy::needless_range_loop)]

use super::alu::{b32, b64, f32v, f64v, ftz32, sat01, trunc, Lanes};
use crate::ptx::isa::{flags, Inst, Op, PrmtMode, TestpOp, Ty};

/// `bfe`: `len` bits of `x` from bit `pos` (both taken mod 256, PTX semantics), sign-extended
/// from the field's top bit for signed types (from bit `bits − 1` when the field runs past it).
pub(super) fn bfe(x: u64, pos: u64, len: u64, t: Ty) -> u64 {
    let bits = t.bits() as u64;
    let (pos, len) = (pos & 0xff, len & 0xff);
    let x = trunc(x, t.bits());
    let sbit = if t.is_signed() {
        if len == 0 {
            0
        } else {
            (x >> (pos + len - 1).min(bits - 1)) & 1
        }
    } else {
        0
    };
    let mut d = 0u64;
    for i in 0..bits {
        let v = if i < len && pos + i < bits {
            (x >> (pos + i)) & 1
        } else {
            sbit
        };
        d |= v << i;
    }
    d
}

/// `bfi`: `len` low bits of `a` inserted into `b` at bit `pos` (both mod 256).
fn bfi(a: u64, b: u64, pos: u64, len: u64, bits: u32) -> u64 {
    let bits = bits as u64;
    let (pos, len) = (pos & 0xff, len & 0xff);
    let mut f = trunc(b, bits as u32);
    let mut i = 0;
    while i < len && pos + i < bits {
        let v = (a >> i) & 1;
        f = (f & !(1 << (pos + i))) | (v << (pos + i));
        i += 1;
    }
    f
}

/// `bfind`: bit position of the most significant 1 (unsigned) or non-sign bit (signed);
/// 0xffffffff when there is none; with `.shiftamt` the left shift that brings it to the top.
pub(super) fn bfind(x: u64, t: Ty, shiftamt: bool) -> u64 {
    let bits = t.bits();
    let mut v = trunc(x, bits);
    if t.is_signed() && (v >> (bits - 1)) & 1 != 0 {
        v = trunc(!v, bits);
    }
    if v == 0 {
        return 0xFFFF_FFFF;
    }
    let msb = 63 - v.leading_zeros() as u64;
    if shiftamt {
        bits as u64 - 1 - msb
    } else {
        msb
    }
}

/// `prmt`: bytes of {b, a} (a is bytes 0-3) picked by the selector `c` (PTX ISA, "prmt").
pub(super) fn prmt(a: u64, b: u64, c: u64, mode: PrmtMode) -> u64 {
    let bytes = (a & 0xFFFF_FFFF) | ((b & 0xFFFF_FFFF) << 32);
    let byte = |i: u64| (bytes >> (8 * (i & 7))) & 0xff;
    let sel: [u64; 4] = match mode {
        PrmtMode::Generic => {
            let mut r = 0u64;
            for k in 0..4 {
                let s = (c >> (4 * k)) & 0xf;
                let v = byte(s & 7);
                let v = if s & 8 != 0 {
                    if v & 0x80 != 0 {
                        0xff
                    } else {
                        0
                    }
                } else {
                    v
                };
                r |= v << (8 * k);
            }
            return r;
        }
        PrmtMode::F4e => {
            let s = c & 3;
            [s, s + 1, s + 2, s + 3]
        }
        PrmtMode::B4e => {
            let s = c & 3;
            [(8 - s) % 8, (7 - s) % 8, (6 - s) % 8, (5 - s) % 8].map(|x| x & 7)
        }
        PrmtMode::Rc8 => {
            let s = c & 3;
            [s; 4]
        }
        PrmtMode::Ecl => {
            let s = c & 3;
            [s, s.max(1), s.max(2), 3]
        }
        PrmtMode::Ecr => {
            let s = c & 3;
            [0, s.min(1), s.min(2), s]
        }
        PrmtMode::Rc16 => {
            let s = c & 1;
            [2 * s, 2 * s + 1, 2 * s, 2 * s + 1]
        }
    };
    sel.iter()
        .enumerate()
        .fold(0, |r, (k, &s)| r | (byte(s) << (8 * k)))
}

/// `shf`: funnel shift of the 64-bit {hi:lo} left or right by `n` (mod 32 with `.wrap`, at most
/// 32 with `.clamp`), keeping the high (left) or low (right) 32 bits.
pub(super) fn shf(lo: u64, hi: u64, n: u64, left: bool, wrap: bool) -> u64 {
    let n = n & 0xFFFF_FFFF;
    let n = if wrap { n & 31 } else { n.min(32) };
    let v = (lo & 0xFFFF_FFFF) | ((hi & 0xFFFF_FFFF) << 32);
    if left {
        ((v << n) >> 32) & 0xFFFF_FFFF
    } else {
        (v >> n) & 0xFFFF_FFFF
    }
}

/// `testp`: the float property `k` of `x`.
pub(super) fn testp(x: u64, k: TestpOp, t: Ty) -> bool {
    let v = if t == Ty::F32 {
        f32v(x) as f64
    } else {
        f64v(x)
    };
    let sub = if t == Ty::F32 {
        f32v(x).is_subnormal()
    } else {
        v.is_subnormal()
    };
    match k {
        TestpOp::Finite => v.is_finite(),
        TestpOp::Infinite => v.is_infinite(),
        TestpOp::Number => !v.is_nan(),
        TestpOp::NotANumber => v.is_nan(),
        TestpOp::Normal => v.is_finite() && v != 0.0 && !sub,
        TestpOp::Subnormal => sub,
    }
}

/// `s` and its exact rounding error: `a + b = s + err` exactly (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// A float `add`/`sub`/`mul`/`fma` or f64 `div` with directed rounding (`.rz`, `.rm`, `.rp`):
/// the exact result as an unevaluated sum hi + lo (f32 operands: products are exact in f64 and
/// sums exact by TwoSum; f64: TwoSum, and the product's error by an FMA; a quotient's error
/// has the sign of the remainder a − q·b, exact by an FMA, times b's sign — exact unless the
/// quotient is subnormal), rounded to nearest, then moved one step in the mode's direction
/// when the exact value lies on the other side. `.ftz` flushes
/// f32 inputs and results; `.sat` clamps f32 results to [0, 1].
pub(super) fn directed_lanes(inst: &Inst, t: Ty, a: &Lanes, b: &Lanes, c: &Lanes, o: &mut Lanes) {
    use std::cmp::Ordering;
    let fl = inst.flags;
    let rnd = match (fl & flags::RND_MASK) >> flags::RND_SHIFT {
        1 => crate::ptx::isa::Rnd::Rz,
        2 => crate::ptx::isa::Rnd::Rm,
        _ => crate::ptx::isa::Rnd::Rp,
    };
    let ftz = fl & flags::FTZ != 0;
    for l in 0..32 {
        let (hi, lo) = if t == Ty::F32 {
            let x = |v: u64| ftz32(f32v(v), ftz) as f64;
            let (p, q, r) = (x(a[l]), x(b[l]), x(c[l]));
            match inst.op {
                Op::Add(_) => two_sum(p, q),
                Op::Sub(_) => two_sum(p, -q),
                Op::FMul(_) => (p * q, 0.0),
                _ => two_sum(p * q, r),
            }
        } else {
            let (p, q, r) = (f64v(a[l]), f64v(b[l]), f64v(c[l]));
            match inst.op {
                Op::Add(_) => two_sum(p, q),
                Op::Sub(_) => two_sum(p, -q),
                Op::FMul(_) => {
                    let m = p * q;
                    (m, p.mul_add(q, -m))
                }
                Op::Div(_) => {
                    let m = p / q;
                    let e = (-m).mul_add(q, p);
                    let err = if e == 0.0 || e.is_nan() {
                        0.0
                    } else {
                        e.signum() * q.signum()
                    };
                    (m, err)
                }
                _ => (p.mul_add(q, r), 0.0),
            }
        };
        let ord = |diff: f64| diff.partial_cmp(&0.0).unwrap_or(Ordering::Equal);
        o[l] = if t == Ty::F32 {
            let r = hi as f32;
            let v = if !hi.is_finite() || r.is_nan() {
                r
            } else if r.is_infinite() {
                // overflow: directed modes stop at the largest finite value on their side
                let toward_max = matches!(rnd, crate::ptx::isa::Rnd::Rz)
                    || (rnd == crate::ptx::isa::Rnd::Rm && r > 0.0)
                    || (rnd == crate::ptx::isa::Rnd::Rp && r < 0.0);
                if toward_max {
                    f32::MAX.copysign(r)
                } else {
                    r
                }
            } else {
                super::cvt::directed_f32(r, ord((hi - r as f64) + lo), rnd)
            };
            let v = ftz32(v, ftz);
            b32(if fl & flags::SAT != 0 { sat01(v) } else { v })
        } else if hi.is_nan()
            || (hi.is_infinite() && !lo.is_nan() && inputs_infinite(a[l], b[l], c[l], inst))
        {
            b64(hi)
        } else if hi.is_infinite() {
            let toward_max = matches!(rnd, crate::ptx::isa::Rnd::Rz)
                || (rnd == crate::ptx::isa::Rnd::Rm && hi > 0.0)
                || (rnd == crate::ptx::isa::Rnd::Rp && hi < 0.0);
            b64(if toward_max {
                f64::MAX.copysign(hi)
            } else {
                hi
            })
        } else {
            b64(super::cvt::directed_f64(hi, ord(lo), rnd))
        };
    }
}

/// Is an operand of this f64 operation infinite, or the divisor of a division zero (an
/// infinite result is then exact)?
fn inputs_infinite(a: u64, b: u64, c: u64, inst: &Inst) -> bool {
    if matches!(inst.op, Op::Div(_)) && f64v(b) == 0.0 {
        return true;
    }
    let n = if matches!(inst.op, Op::Fma(_)) { 3 } else { 2 };
    [a, b, c][..n].iter().any(|&x| f64v(x).is_infinite())
}

/// Evaluates the four-source operations `bfi`, `lop3` and `mov` packing.
pub fn eval4(inst: &Inst, s: &[Lanes; 4], o: &mut Lanes) {
    for l in 0..32 {
        o[l] = match inst.op {
            Op::Bfi(t) => bfi(s[0][l], s[1][l], s[2][l], s[3][l], t.bits()),
            Op::Pack { ty, n } => {
                let w = ty.bits() / n as u32;
                (0..n as usize).fold(0u64, |r, k| r | (trunc(s[k][l], w) << (w as usize * k)))
            }
            _ => {
                // lop3: bit i of the truth table is f(a, b, c) for (a, b, c) = bits of i
                // weighted 0xF0, 0xCC, 0xAA
                let (a, b, c, lut) = (s[0][l], s[1][l], s[2][l], s[3][l] & 0xff);
                let mut r = 0u64;
                for k in 0..8 {
                    if lut >> k & 1 == 0 {
                        continue;
                    }
                    let ma = if k & 4 != 0 { a } else { !a };
                    let mb = if k & 2 != 0 { b } else { !b };
                    let mc = if k & 1 != 0 { c } else { !c };
                    r |= ma & mb & mc;
                }
                r & 0xFFFF_FFFF
            }
        };
    }
}
