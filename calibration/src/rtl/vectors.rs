//! Test-vector generators for the datapath testbenches.
//!
//! Expected values are computed here in Rust, independently of the Verilog:
//! the floating-point units are checked against the host's IEEE-754 binary32
//! arithmetic (`a + b`, `a * b`, `f32::mul_add`, all round-to-nearest-even
//! with gradual underflow, matching the RTL's full subnormal support); the
//! integer units against wrapping/widening integer arithmetic; the
//! special-function lane against `1/x` and `1/sqrt(x)` evaluated in `f64`,
//! turned into an allowed interval by the lane's stated relative error bound
//! ([`sfu_rel_error_bound`]) under the lane's flush-to-zero convention.
//!
//! Vector files are plain text for `$readmemh`: one vector per line, fields
//! concatenated as fixed-width lower-case hex with no separators.
//!
//! Just over 600 lines: one generator per component kind, each with the golden model its vectors
//! are checked against.

use std::fmt::Write as _;

pub mod hdot4;

/// SplitMix64 pseudo-random generator (Steele, Lea, Flood 2014): a 64-bit
/// Weyl sequence passed through a bijective mixer. Deterministic per seed.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// Generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    /// Uniform integer in `0..n` (`n > 0`; multiply-shift, negligible bias).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u32() as u64 * n as u64) >> 32) as u32
    }
    /// Uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi - lo + 1)
    }
}

/// Which datapath testbench a vector file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VectorKind {
    /// `alu32` at WIDTH=32: lines `{op:8, a:32, b:32, y:32}`.
    Alu32,
    /// `imul32` at WIDTH=32: lines `{mode:8, a:32, b:32, lo:32, hi:32}`.
    Imul32,
    /// `fadd32`: lines `{a, b, a+b}`.
    Fadd32,
    /// `fmul32`: lines `{a, b, a*b}`.
    Fmul32,
    /// `ffma32`: lines `{a, b, c, fma(a,b,c)}`.
    Ffma32,
    /// `sfu_lane`: lines `{op:8, x, lo, hi, ref}` (see [`sfu_expect`]).
    SfuLane,
    /// `hdot4_f32acc`: lines `{a3..a0, b3..b0, c, y}` (binary16 `a`, `b`; see [`hdot4`]).
    Hdot4F32Acc,
}

/// Binary32 bit patterns that every floating-point test includes: signed
/// zeros, the smallest/largest subnormals, the smallest normal, one and its
/// neighbours, the largest finite, infinities and quiet/signalling NaNs.
pub const FP_SPECIALS: &[u32] = &[
    0x0000_0000,
    0x8000_0000, // +-0
    0x0000_0001,
    0x8000_0001, // +-min subnormal
    0x0000_0002,
    0x0040_0000, // subnormals
    0x007f_ffff,
    0x807f_ffff, // +-max subnormal
    0x0080_0000,
    0x8080_0000, // +-min normal
    0x0080_0001,
    0x0100_0000, // near min normal
    0x3f80_0000,
    0xbf80_0000, // +-1
    0x3f7f_ffff,
    0x3f80_0001, // 1 -+ ulp
    0x3fc0_0000,
    0x4000_0000, // 1.5, 2
    0x3400_0000,
    0x3300_0000, // 2^-23, 2^-25
    0x4b00_0000,
    0x4b80_0000, // 2^23, 2^24
    0x7f7f_ffff,
    0xff7f_ffff, // +-max finite
    0x7f00_0000,
    0x1f80_0000, // 2^127, 2^-64
    0x7f80_0000,
    0xff80_0000, // +-inf
    0x7fc0_0000,
    0xffc0_0000, // quiet NaN
    0x7f80_0001, // signalling NaN
];

fn hex(out: &mut String, words: &[u32]) {
    for w in words {
        let _ = write!(out, "{w:08x}");
    }
    out.push('\n');
}

/// Random binary32 with a uniform sign, exponent field in `emin..=emax` and
/// uniform mantissa.
pub fn rand_float(rng: &mut SplitMix64, emin: u32, emax: u32) -> u32 {
    let s = rng.next_u32() & 0x8000_0000;
    let e = rng.range(emin, emax);
    s | (e << 23) | (rng.next_u32() & 0x007f_ffff)
}

/// A bit pattern close to `x`: `x` plus a small signed offset (stays within
/// the same sign; may cross exponent boundaries).
fn nudge(rng: &mut SplitMix64, x: u32) -> u32 {
    let d = rng.below(9) as i64 - 4;
    let mag = ((x & 0x7fff_ffff) as i64 + d).clamp(0, 0x7f7f_ffff) as u32;
    (x & 0x8000_0000) | mag
}

/// Operand pairs and expected sums for `fadd32`.
pub fn fadd_vectors(seed: u64) -> Vec<[u32; 3]> {
    let mut rng = SplitMix64::new(seed);
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for &a in FP_SPECIALS {
        for &b in FP_SPECIALS {
            pairs.push((a, b));
        }
    }
    for _ in 0..2000 {
        pairs.push((rng.next_u32(), rng.next_u32()));
    }
    for _ in 0..2000 {
        pairs.push((
            rand_float(&mut rng, 100, 154),
            rand_float(&mut rng, 100, 154),
        ));
    }
    for _ in 0..2000 {
        // close exponents: alignment by 0..3 bits, cancellation when signs differ
        let a = rand_float(&mut rng, 1, 254);
        let ea = (a >> 23) & 0xff;
        let eb = (ea + rng.below(7)).saturating_sub(3).clamp(1, 254);
        let b = rand_float(&mut rng, eb, eb);
        pairs.push((a, b));
    }
    for _ in 0..1000 {
        // near-negation: massive cancellation
        let a = rand_float(&mut rng, 1, 254);
        pairs.push((a, nudge(&mut rng, a ^ 0x8000_0000)));
    }
    for _ in 0..1000 {
        pairs.push((rand_float(&mut rng, 0, 3), rand_float(&mut rng, 0, 3)));
    }
    for _ in 0..500 {
        let a = rand_float(&mut rng, 250, 254) & 0x7fff_ffff;
        pairs.push((a, rand_float(&mut rng, 250, 254) & 0x7fff_ffff));
    }
    for _ in 0..500 {
        // very different exponents: sticky-only contributions
        pairs.push((rand_float(&mut rng, 60, 200), rand_float(&mut rng, 0, 120)));
    }
    pairs
        .into_iter()
        .map(|(a, b)| [a, b, (f32::from_bits(a) + f32::from_bits(b)).to_bits()])
        .collect()
}

/// Operand pairs and expected products for `fmul32`.
pub fn fmul_vectors(seed: u64) -> Vec<[u32; 3]> {
    let mut rng = SplitMix64::new(seed);
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for &a in FP_SPECIALS {
        for &b in FP_SPECIALS {
            pairs.push((a, b));
        }
    }
    for _ in 0..2000 {
        pairs.push((rng.next_u32(), rng.next_u32()));
    }
    for _ in 0..2000 {
        pairs.push((
            rand_float(&mut rng, 100, 154),
            rand_float(&mut rng, 100, 154),
        ));
    }
    for _ in 0..2000 {
        // products around the underflow threshold (ea + eb - 127 in -25..=3)
        let t = rng.range(102, 130);
        let ea = rng.range(t.saturating_sub(126).max(1), t.min(200) - 1);
        let eb = (t - ea).max(1);
        pairs.push((rand_float(&mut rng, ea, ea), rand_float(&mut rng, eb, eb)));
    }
    for _ in 0..1000 {
        pairs.push((rand_float(&mut rng, 0, 0), rand_float(&mut rng, 100, 254)));
    }
    for _ in 0..500 {
        pairs.push((
            rand_float(&mut rng, 180, 254),
            rand_float(&mut rng, 180, 254),
        ));
    }
    for _ in 0..500 {
        // short mantissas: exact products and exact ties
        let a = rand_float(&mut rng, 110, 140) & 0xfff8_0000;
        let b = rand_float(&mut rng, 110, 140) & 0xffff_f000;
        pairs.push((a, b));
    }
    pairs
        .into_iter()
        .map(|(a, b)| [a, b, (f32::from_bits(a) * f32::from_bits(b)).to_bits()])
        .collect()
}

/// Operand triples and expected fused results for `ffma32`.
pub fn ffma_vectors(seed: u64) -> Vec<[u32; 4]> {
    let mut rng = SplitMix64::new(seed);
    let mut tr: Vec<(u32, u32, u32)> = Vec::new();
    let sub: Vec<u32> = FP_SPECIALS.iter().copied().step_by(2).collect();
    for &a in &sub {
        for &b in &sub {
            for &c in &sub {
                tr.push((a, b, c));
            }
        }
    }
    for _ in 0..1500 {
        tr.push((rng.next_u32(), rng.next_u32(), rng.next_u32()));
    }
    for _ in 0..2000 {
        tr.push((
            rand_float(&mut rng, 100, 154),
            rand_float(&mut rng, 100, 154),
            rand_float(&mut rng, 90, 164),
        ));
    }
    for _ in 0..2500 {
        // c close to -(a*b): cancellation where the exact product matters
        let a = rand_float(&mut rng, 90, 164);
        let b = rand_float(&mut rng, 90, 164);
        let p = (f32::from_bits(a) * f32::from_bits(b)).to_bits();
        let c = if rng.below(4) == 0 {
            p ^ 0x8000_0000
        } else {
            nudge(&mut rng, p ^ 0x8000_0000)
        };
        tr.push((a, b, c));
    }
    for _ in 0..1500 {
        // products near/below the underflow threshold with small addends
        let t = rng.range(90, 135);
        let ea = rng.range(t.saturating_sub(126).max(1), t.min(200) - 1);
        let eb = (t - ea).max(1);
        tr.push((
            rand_float(&mut rng, ea, ea),
            rand_float(&mut rng, eb, eb),
            rand_float(&mut rng, 0, 8),
        ));
    }
    for _ in 0..1000 {
        // subnormal operands anywhere
        tr.push((
            rand_float(&mut rng, 0, 2),
            rand_float(&mut rng, 100, 254),
            rand_float(&mut rng, 0, 254),
        ));
    }
    for _ in 0..700 {
        // widely separated product and addend exponents
        tr.push((
            rand_float(&mut rng, 100, 154),
            rand_float(&mut rng, 100, 154),
            if rng.below(2) == 0 {
                rand_float(&mut rng, 1, 60)
            } else {
                rand_float(&mut rng, 190, 254)
            },
        ));
    }
    for _ in 0..400 {
        tr.push((
            rand_float(&mut rng, 190, 254),
            rand_float(&mut rng, 190, 254),
            rand_float(&mut rng, 200, 254),
        ));
    }
    tr.into_iter()
        .map(|(a, b, c)| {
            let r = f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c));
            [a, b, c, r.to_bits()]
        })
        .collect()
}

/// ALU operation codes of `alu32` (the `op` input).
pub const ALU_OPS: &[(&str, u8)] = &[
    ("add", 0),
    ("sub", 1),
    ("and", 2),
    ("or", 3),
    ("xor", 4),
    ("sll", 5),
    ("srl", 6),
    ("sra", 7),
    ("slt", 8),
    ("sltu", 9),
    ("min", 10),
    ("max", 11),
    ("minu", 12),
    ("maxu", 13),
];

/// Reference result of `alu32` (WIDTH = 32) for operation code `op`.
pub fn alu_reference(op: u8, a: u32, b: u32) -> u32 {
    let (sa, sb) = (a as i32, b as i32);
    let sh = b & 31;
    match op {
        0 => a.wrapping_add(b),
        1 => a.wrapping_sub(b),
        2 => a & b,
        3 => a | b,
        4 => a ^ b,
        5 => a << sh,
        6 => a >> sh,
        7 => (sa >> sh) as u32,
        8 => (sa < sb) as u32,
        9 => (a < b) as u32,
        10 => sa.min(sb) as u32,
        11 => sa.max(sb) as u32,
        12 => a.min(b),
        13 => a.max(b),
        _ => 0,
    }
}

fn rand_int(rng: &mut SplitMix64) -> u32 {
    match rng.below(8) {
        0 => rng.below(64),
        1 => u32::MAX - rng.below(64),
        2 => 0x8000_0000u32.wrapping_add(rng.below(64)).wrapping_sub(32),
        _ => rng.next_u32(),
    }
}

/// `{op, a, b, expected}` vectors for `alu32` at WIDTH = 32.
pub fn alu_vectors(seed: u64) -> Vec<(u8, u32, u32, u32)> {
    let mut rng = SplitMix64::new(seed);
    let edge = [0u32, 1, 31, 32, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];
    let mut v = Vec::new();
    for &(_, op) in ALU_OPS {
        for &a in &edge {
            for &b in &edge {
                v.push((op, a, b, alu_reference(op, a, b)));
            }
        }
        for _ in 0..300 {
            let a = rand_int(&mut rng);
            let b = if rng.below(8) == 0 {
                a
            } else {
                rand_int(&mut rng)
            };
            v.push((op, a, b, alu_reference(op, a, b)));
        }
    }
    v
}

/// Reference `(lo, hi)` of `imul32` (WIDTH = 32); `mode` bit 0: a signed,
/// bit 1: b signed.
pub fn imul_reference(mode: u8, a: u32, b: u32) -> (u32, u32) {
    let ax: i128 = if mode & 1 != 0 {
        a as i32 as i128
    } else {
        a as i128
    };
    let bx: i128 = if mode & 2 != 0 {
        b as i32 as i128
    } else {
        b as i128
    };
    let p = (ax * bx) as u64;
    (p as u32, (p >> 32) as u32)
}

/// `{mode, a, b, lo, hi}` vectors for `imul32` at WIDTH = 32.
pub fn imul_vectors(seed: u64) -> Vec<(u8, u32, u32, u32, u32)> {
    let mut rng = SplitMix64::new(seed);
    let edge = [
        0u32,
        1,
        2,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_ffff,
    ];
    let mut v = Vec::new();
    for mode in 0..4u8 {
        for &a in &edge {
            for &b in &edge {
                let (lo, hi) = imul_reference(mode, a, b);
                v.push((mode, a, b, lo, hi));
            }
        }
        for _ in 0..1000 {
            let (a, b) = (rand_int(&mut rng), rand_int(&mut rng));
            let (lo, hi) = imul_reference(mode, a, b);
            v.push((mode, a, b, lo, hi));
        }
    }
    v
}

/// Stated relative error bound of `sfu_lane` for normal results, as a
/// function of its TBITS parameter (see the derivation in sfu_lane.v):
/// Newton-Raphson squares the table error (|e0| <= 1.125 * 2^-(TBITS+1) for
/// the reciprocal, giving 1.27 * 2^-(2 TBITS + 2); the reciprocal square root
/// gives 0.59 * 2^-(2 TBITS + 2)), plus 2^-24 for rounding to 24 bits and
/// 2^-28 for the truncated 30-fraction-bit intermediates.
pub fn sfu_rel_error_bound(tbits: u32) -> f64 {
    1.3 * 2f64.powi(-(2 * tbits as i32 + 2)) + 2f64.powi(-24) + 2f64.powi(-28)
}

/// The binary32 canonical quiet NaN produced by every unit.
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// Expected `sfu_lane` output for `op` (0 = reciprocal, 1 = reciprocal
/// square root) of input bits `x`, under the lane's flush-to-zero
/// convention (subnormal inputs are zeros; results below 2^-126 may be
/// flushed to zero) and relative bound `rel`. Returns `(lo, hi, reference)`:
/// NaN expected when `lo` is NaN; otherwise the output's sign must equal
/// `lo`'s and its magnitude bits must lie in `lo..=hi` (magnitudes);
/// `reference` is the correctly rounded result (for error statistics).
pub fn sfu_expect(op: u8, x: u32, rel: f64) -> (u32, u32, u32) {
    let sign = x & 0x8000_0000;
    let e = (x >> 23) & 0xff;
    let f = x & 0x007f_ffff;
    let exact = |v: u32| (v, v, v);
    if e == 0xff && f != 0 {
        return exact(CANONICAL_NAN);
    }
    if e == 0 {
        return exact(sign | 0x7f80_0000);
    }
    if op == 1 && sign != 0 {
        return exact(CANONICAL_NAN);
    }
    if e == 0xff {
        return exact(sign);
    }
    let xv = f32::from_bits(x & 0x7fff_ffff) as f64;
    let mag = if op == 0 { 1.0 / xv } else { 1.0 / xv.sqrt() };
    let rsign = if op == 0 { sign } else { 0 };
    let lo_v = mag * (1.0 - rel);
    let mut lo = lo_v as f32;
    if (lo as f64) < lo_v {
        lo = f32::from_bits(lo.to_bits() + 1);
    }
    let hi_v = mag * (1.0 + rel);
    let mut hi = hi_v as f32;
    if (hi as f64) > hi_v {
        hi = f32::from_bits(hi.to_bits() - 1);
    }
    let mut lo_bits = lo.to_bits();
    if lo_v < f32::MIN_POSITIVE as f64 {
        lo_bits = 0;
    }
    let mut r = (mag as f32).to_bits();
    if r < 0x0080_0000 {
        r = 0;
    }
    (rsign | lo_bits, rsign | hi.to_bits(), rsign | r)
}

/// `{op, x, lo, hi, reference}` vectors for `sfu_lane` with table index
/// width `tbits`: specials, both ends of every table interval for both
/// exponent parities, and random normal inputs over the whole range.
pub fn sfu_vectors(seed: u64, tbits: u32) -> Vec<(u8, u32, u32, u32, u32)> {
    let mut rng = SplitMix64::new(seed);
    let rel = sfu_rel_error_bound(tbits);
    let mut xs: Vec<(u8, u32)> = Vec::new();
    for op in 0..2u8 {
        for &x in FP_SPECIALS {
            xs.push((op, x));
        }
        for i in 0..(1u32 << tbits) {
            for exp in [126u32, 127] {
                let lo = i << (23 - tbits);
                let hi = ((i + 1) << (23 - tbits)) - 1;
                xs.push((op, (exp << 23) | lo));
                xs.push((op, (exp << 23) | hi));
            }
        }
        for _ in 0..2500 {
            xs.push((op, rand_float(&mut rng, 1, 254) & 0x7fff_ffff));
        }
        for _ in 0..500 {
            xs.push((op, rand_float(&mut rng, 1, 254)));
        }
    }
    xs.into_iter()
        .map(|(op, x)| {
            let (lo, hi, r) = sfu_expect(op, x, rel);
            (op, x, lo, hi, r)
        })
        .collect()
}

/// Render the vectors of `kind` as `$readmemh` text; returns the text and
/// the number of vectors. `tbits` is only used by [`VectorKind::SfuLane`].
pub fn render(kind: VectorKind, seed: u64, tbits: u32) -> (String, usize) {
    let mut s = String::new();
    let n = match kind {
        VectorKind::Alu32 => {
            let v = alu_vectors(seed);
            for &(op, a, b, y) in &v {
                let _ = write!(s, "{op:02x}");
                hex(&mut s, &[a, b, y]);
            }
            v.len()
        }
        VectorKind::Imul32 => {
            let v = imul_vectors(seed);
            for &(m, a, b, lo, hi) in &v {
                let _ = write!(s, "{m:02x}");
                hex(&mut s, &[a, b, lo, hi]);
            }
            v.len()
        }
        VectorKind::Fadd32 => {
            let v = fadd_vectors(seed);
            v.iter().for_each(|w| hex(&mut s, w));
            v.len()
        }
        VectorKind::Fmul32 => {
            let v = fmul_vectors(seed);
            v.iter().for_each(|w| hex(&mut s, w));
            v.len()
        }
        VectorKind::Ffma32 => {
            let v = ffma_vectors(seed);
            v.iter().for_each(|w| hex(&mut s, w));
            v.len()
        }
        VectorKind::SfuLane => {
            let v = sfu_vectors(seed, tbits);
            for &(op, x, lo, hi, r) in &v {
                let _ = write!(s, "{op:02x}");
                hex(&mut s, &[x, lo, hi, r]);
            }
            v.len()
        }
        VectorKind::Hdot4F32Acc => {
            let v = hdot4::hdot4_vectors(seed);
            v.iter().for_each(|x| hdot4::line(&mut s, x));
            v.len()
        }
    };
    (s, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_deterministic_and_sized() {
        for kind in [
            VectorKind::Alu32,
            VectorKind::Imul32,
            VectorKind::Fadd32,
            VectorKind::Fmul32,
            VectorKind::Ffma32,
            VectorKind::SfuLane,
            VectorKind::Hdot4F32Acc,
        ] {
            let (a, n) = render(kind, 7, 8);
            let (b, _) = render(kind, 7, 8);
            assert_eq!(a, b);
            assert!((1000..=65536).contains(&n), "{kind:?}: {n}");
            assert_eq!(a.lines().count(), n);
        }
    }

    #[test]
    fn references_spot_checks() {
        assert_eq!(alu_reference(7, 0x8000_0000, 31), 0xffff_ffff);
        assert_eq!(alu_reference(10, 0xffff_ffff, 1), 0xffff_ffff);
        assert_eq!(imul_reference(3, 0xffff_ffff, 0xffff_ffff), (1, 0));
        assert_eq!(
            imul_reference(0, 0xffff_ffff, 0xffff_ffff),
            (1, 0xffff_fffe)
        );
        assert_eq!(
            imul_reference(1, 0xffff_ffff, 2),
            (0xffff_fffe, 0xffff_ffff)
        );
        // rcp(2) = 0.5 within bounds; rsqrt(-1) is NaN; rcp(subnormal) is inf
        let (lo, hi, r) = sfu_expect(0, 0x4000_0000, sfu_rel_error_bound(10));
        assert!(lo <= 0x3f00_0000 && 0x3f00_0000 <= hi && r == 0x3f00_0000);
        assert_eq!(sfu_expect(1, 0xbf80_0000, 1e-6).0, CANONICAL_NAN);
        assert_eq!(sfu_expect(0, 0x8000_0001, 1e-6).0, 0xff80_0000);
        // rcp(2^127) = 2^-127 is subnormal: zero allowed
        assert_eq!(sfu_expect(0, 0x7f00_0000, 1e-6).0, 0);
    }
}
