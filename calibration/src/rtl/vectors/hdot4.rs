//! Reference model and vectors of `hdot4_f32acc`, one tensor-core dot-product slice:
//! `y = c + Σᵢ aᵢ·bᵢ` over four binary16 products and a binary32 accumulator.
//!
//! The stated rounding (see `rtl/hdot4_f32acc.v`): products exact; every term aligned into a
//! [`WINDOW_BITS`]-bit window below the largest term anchor, the bits shifted out discarded
//! (each term truncated toward zero); the exact sum of the aligned terms rounded once to
//! binary32, nearest even, with gradual underflow. The model below computes that in integers
//! and lets the host's `f64 → f32` conversion (IEEE round to nearest even, gradual underflow,
//! overflow to infinity) do the single rounding: the aligned sum has at most 30 significant
//! bits, so it and its power-of-two scale are exact in `f64`.
//!
//! Independently of the alignment scheme, the unit tests check that the model is the correctly
//! rounded sum (computed in plain `f64`, exact for those operands) whenever no term loses bits
//! in the alignment.

use super::{SplitMix64, CANONICAL_NAN};

/// Bits of the alignment window below the largest anchor (24 significand bits and 3 guard bits
/// of a binary32 result); the RTL's `F`.
pub const WINDOW_BITS: u32 = 27;

/// Binary16 bit patterns every test includes: signed zeros, the smallest and largest
/// subnormals, the smallest normal, one and its neighbours, the largest finite, infinities and
/// NaNs.
pub const F16_SPECIALS: &[u16] = &[
    0x0000, 0x8000, // ±0
    0x0001, 0x8001, // ±min subnormal
    0x03ff, 0x83ff, // ±max subnormal
    0x0400, 0x8400, // ±min normal
    0x3c00, 0xbc00, // ±1
    0x3bff, 0x3c01, // 1 ∓ ulp
    0x7bff, 0xfbff, // ±65504
    0x7c00, 0xfc00, // ±inf
    0x7e00, 0x7c01, // quiet / signalling NaN
];

/// One operand of the sum: significand (integer), anchor (biased so that a product's is
/// `ea + eb + 98` and the accumulator's its effective exponent field; 0 for a zero term), sign.
#[derive(Debug, Clone, Copy)]
struct Term {
    sig: u64,
    bits: u32,
    anchor: u32,
    neg: bool,
}

/// Special classes of one binary16 operand: (NaN, infinite, zero).
fn f16_class(h: u16) -> (bool, bool, bool) {
    let e = (h >> 10) & 0x1f;
    let m = h & 0x3ff;
    (e == 0x1f && m != 0, e == 0x1f && m == 0, h & 0x7fff == 0)
}

/// Exact product term of two binary16 operands (finite ones).
fn product(a: u16, b: u16) -> Term {
    let parts = |h: u16| {
        let e = u32::from((h >> 10) & 0x1f);
        let m = u64::from(h & 0x3ff) | if e != 0 { 0x400 } else { 0 };
        (m, e.max(1))
    };
    let (ma, ea) = parts(a);
    let (mb, eb) = parts(b);
    let sig = ma * mb;
    Term {
        sig,
        bits: 22,
        anchor: if sig == 0 { 0 } else { ea + eb + 98 },
        neg: (a ^ b) & 0x8000 != 0,
    }
}

/// The accumulator as a term (finite).
fn accumulator(c: u32) -> Term {
    let e = (c >> 23) & 0xff;
    let sig = u64::from(c & 0x7f_ffff) | if e != 0 { 0x80_0000 } else { 0 };
    Term {
        sig,
        bits: 24,
        anchor: if sig == 0 { 0 } else { e.max(1) },
        neg: c & 0x8000_0000 != 0,
    }
}

/// `hdot4_f32acc`'s result for `a`, `b` (binary16 bit patterns, element `i` is `a[i]`) and `c`
/// (binary32 bit pattern), as the RTL states it.
pub fn hdot4_reference(a: [u16; 4], b: [u16; 4], c: u32) -> u32 {
    let mut nan = false;
    let (mut pos_inf, mut neg_inf) = (false, false);
    for i in 0..4 {
        let (na, ia, za) = f16_class(a[i]);
        let (nb, ib, zb) = f16_class(b[i]);
        let n = na || nb || (ia && zb) || (ib && za);
        nan |= n;
        if (ia || ib) && !n {
            if (a[i] ^ b[i]) & 0x8000 != 0 {
                neg_inf = true;
            } else {
                pos_inf = true;
            }
        }
    }
    let ec = (c >> 23) & 0xff;
    if ec == 0xff {
        if c & 0x7f_ffff != 0 {
            nan = true;
        } else if c & 0x8000_0000 != 0 {
            neg_inf = true;
        } else {
            pos_inf = true;
        }
    }
    if nan || (pos_inf && neg_inf) {
        return CANONICAL_NAN;
    }
    if pos_inf {
        return 0x7f80_0000;
    }
    if neg_inf {
        return 0xff80_0000;
    }
    let mut terms: Vec<Term> = (0..4).map(|i| product(a[i], b[i])).collect();
    terms.push(accumulator(c));
    let top = terms.iter().map(|t| t.anchor).max().unwrap_or(0);
    let mut sum: i64 = 0;
    for t in &terms {
        let field = t.sig << (WINDOW_BITS - t.bits);
        let shift = (top - t.anchor).min(WINDOW_BITS);
        let v = (field >> shift) as i64;
        sum += if t.neg { -v } else { v };
    }
    if sum == 0 {
        let all_neg_zero = terms.iter().all(|t| t.anchor == 0 && t.neg);
        return if all_neg_zero { 0x8000_0000 } else { 0 };
    }
    // bit 0 of the window has weight 2^(top - 126 - WINDOW_BITS)
    let lsb_exp = top as i32 - 126 - WINDOW_BITS as i32;
    let v = (sum as f64) * 2f64.powi(lsb_exp);
    (v as f32).to_bits()
}

/// A random binary16 with a uniform sign, exponent field in `emin..=emax` and uniform mantissa.
pub fn rand_f16(rng: &mut SplitMix64, emin: u32, emax: u32) -> u16 {
    let s = (rng.next_u32() & 0x8000) as u16;
    let e = rng.range(emin, emax) as u16;
    s | (e << 10) | (rng.next_u32() & 0x3ff) as u16
}

/// One vector: `(a, b, c, expected)`.
pub type Hdot4Vector = ([u16; 4], [u16; 4], u32, u32);

/// Operands and expected results for `hdot4_f32acc`: special values in every position, random
/// bit patterns, products and accumulator of comparable size, cancellation between products
/// and the accumulator, widely separated terms (alignment truncation), subnormal operands, and
/// sums near the binary32 overflow and underflow thresholds.
pub fn hdot4_vectors(seed: u64) -> Vec<Hdot4Vector> {
    let mut rng = SplitMix64::new(seed);
    let mut v: Vec<([u16; 4], [u16; 4], u32)> = Vec::new();
    let c_specials: Vec<u32> = super::FP_SPECIALS.iter().copied().step_by(2).collect();
    // specials: each pair of binary16 specials in slot k, random finite elsewhere
    for (k, &x) in F16_SPECIALS.iter().enumerate() {
        for &y in F16_SPECIALS {
            let mut a = [0u16; 4];
            let mut b = [0u16; 4];
            for i in 0..4 {
                a[i] = rand_f16(&mut rng, 10, 20);
                b[i] = rand_f16(&mut rng, 10, 20);
            }
            a[k % 4] = x;
            b[k % 4] = y;
            let c = c_specials[rng.below(c_specials.len() as u32) as usize];
            v.push((a, b, c));
        }
    }
    // every accumulator special with all-zero and all-one products
    for &c in super::FP_SPECIALS {
        for (x, y) in [(0x0000u16, 0x0000u16), (0x8000, 0x0000), (0x3c00, 0x3c00)] {
            v.push(([x; 4], [y; 4], c));
        }
    }
    let rand4 = |rng: &mut SplitMix64, lo: u32, hi: u32| {
        let mut r = [0u16; 4];
        for x in &mut r {
            *x = rand_f16(rng, lo, hi);
        }
        r
    };
    for _ in 0..1500 {
        let mut a = [0u16; 4];
        let mut b = [0u16; 4];
        for i in 0..4 {
            a[i] = rng.next_u32() as u16;
            b[i] = rng.next_u32() as u16;
        }
        v.push((a, b, rng.next_u32()));
    }
    for _ in 0..2500 {
        // products and accumulator of comparable size: the common case
        let (a, b) = (rand4(&mut rng, 10, 20), rand4(&mut rng, 10, 20));
        v.push((a, b, super::rand_float(&mut rng, 117, 137)));
    }
    for _ in 0..2000 {
        // cancellation: c close to minus the exactly rounded dot product
        let (a, b) = (rand4(&mut rng, 8, 22), rand4(&mut rng, 8, 22));
        let s = hdot4_reference(a, b, 0);
        let c = if rng.below(4) == 0 {
            s ^ 0x8000_0000
        } else {
            super::nudge(&mut rng, s ^ 0x8000_0000)
        };
        v.push((a, b, c));
    }
    for _ in 0..1500 {
        // pairwise cancelling products (a1·b1 ≈ −a0·b0), small accumulator
        let (mut a, mut b) = (rand4(&mut rng, 12, 18), rand4(&mut rng, 12, 18));
        a[1] = a[0] ^ 0x8000;
        b[1] = b[0] ^ (rng.below(3) as u16);
        a[3] = a[2];
        b[3] = b[2] ^ 0x8000;
        v.push((a, b, super::rand_float(&mut rng, 90, 120)));
    }
    for _ in 0..1500 {
        // widely separated terms: one dominant term, the others truncated or shifted out
        let (a, b) = (rand4(&mut rng, 1, 30), rand4(&mut rng, 1, 30));
        v.push((a, b, super::rand_float(&mut rng, 60, 200)));
    }
    for _ in 0..1000 {
        // subnormal binary16 operands, tiny accumulators (binary32 subnormal results)
        let (a, b) = (rand4(&mut rng, 0, 2), rand4(&mut rng, 0, 12));
        v.push((a, b, super::rand_float(&mut rng, 0, 3)));
    }
    for _ in 0..500 {
        // accumulator near the binary32 maximum: overflow to infinity or not
        let (a, b) = (rand4(&mut rng, 25, 30), rand4(&mut rng, 25, 30));
        v.push((a, b, super::rand_float(&mut rng, 252, 254)));
    }
    v.into_iter()
        .map(|(a, b, c)| (a, b, c, hdot4_reference(a, b, c)))
        .collect()
}

/// The vector line for `$readmemh`: `{a3..a0, b3..b0, c, y}`, 48 hex digits.
pub fn line(out: &mut String, v: &Hdot4Vector) {
    use std::fmt::Write as _;
    let (a, b, c, y) = v;
    for h in a.iter().rev().chain(b.iter().rev()) {
        let _ = write!(out, "{h:04x}");
    }
    let _ = writeln!(out, "{c:08x}{y:08x}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Value of a finite binary16 pattern.
    fn f16_value(h: u16) -> f64 {
        let e = i32::from((h >> 10) & 0x1f);
        let m = f64::from(h & 0x3ff);
        let mag = if e == 0 {
            m * 2f64.powi(-24)
        } else {
            (1024.0 + m) * 2f64.powi(e - 25)
        };
        if h & 0x8000 != 0 {
            -mag
        } else {
            mag
        }
    }

    /// Whether no term loses a bit in the alignment (every aligned field keeps its
    /// significand's lowest set bit).
    fn exact(a: [u16; 4], b: [u16; 4], c: u32) -> bool {
        let mut t: Vec<Term> = (0..4).map(|i| product(a[i], b[i])).collect();
        t.push(accumulator(c));
        let top = t.iter().map(|x| x.anchor).max().unwrap();
        t.iter().all(|x| {
            let field = x.sig << (WINDOW_BITS - x.bits);
            let s = top - x.anchor;
            x.sig == 0 || (s < WINDOW_BITS && (field >> s) << s == field)
        })
    }

    #[test]
    fn exact_alignment_gives_the_correctly_rounded_sum() {
        let mut rng = SplitMix64::new(11);
        let mut checked = 0;
        for _ in 0..200_000 {
            let mut a = [0u16; 4];
            let mut b = [0u16; 4];
            for i in 0..4 {
                // short mantissas so that alignment often keeps every bit
                a[i] = rand_f16(&mut rng, 12, 18) & 0xffc0;
                b[i] = rand_f16(&mut rng, 12, 18) & 0xffc0;
            }
            let c = super::super::rand_float(&mut rng, 118, 136) & 0xffff_0000;
            if !exact(a, b, c) {
                continue;
            }
            // the five exact terms span < 53 bits here, so the f64 sum is exact
            let s: f64 = (0..4)
                .map(|i| f16_value(a[i]) * f16_value(b[i]))
                .sum::<f64>()
                + f64::from(f32::from_bits(c));
            let want = (s as f32).to_bits();
            let want = if s == 0.0 { 0 } else { want };
            assert_eq!(
                hdot4_reference(a, b, c),
                want,
                "a={a:04x?} b={b:04x?} c={c:08x}"
            );
            checked += 1;
        }
        assert!(checked > 10_000, "only {checked} exact cases");
    }

    #[test]
    fn specials_and_spot_values() {
        let one = 0x3c00u16;
        let z = 0u16;
        // 1·1 + 1·1 + 0 + 0 + 0.5 = 2.5
        assert_eq!(
            hdot4_reference([one, one, z, z], [one, one, z, z], 0x3f00_0000),
            2.5f32.to_bits()
        );
        // inf·0 is NaN; inf − inf is NaN; inf + finite is inf
        assert_eq!(hdot4_reference([0x7c00, z, z, z], [z; 4], 0), CANONICAL_NAN);
        assert_eq!(
            hdot4_reference([0x7c00, z, z, z], [one, z, z, z], 0xff80_0000),
            CANONICAL_NAN
        );
        assert_eq!(
            hdot4_reference([0x7c00, z, z, z], [0xbc00, z, z, z], 0x3f80_0000),
            0xff80_0000
        );
        // all negative zeros give −0, a cancellation +0
        assert_eq!(
            hdot4_reference([0x8000; 4], [z; 4], 0x8000_0000),
            0x8000_0000
        );
        assert_eq!(
            hdot4_reference([one, z, z, z], [one, z, z, z], 0xbf80_0000),
            0
        );
        // a term far below the largest is truncated away: 2^24 + 2^-28 → 2^24
        let big = 0x4b80_0000; // 2^24 as binary32
        let tiny = 0x0400u16; // 2^-14
        assert_eq!(hdot4_reference([tiny, z, z, z], [tiny, z, z, z], big), big);
    }

    #[test]
    fn vectors_are_deterministic() {
        let v = hdot4_vectors(3);
        assert_eq!(v, hdot4_vectors(3));
        assert!((10_000..=65_536).contains(&v.len()), "{}", v.len());
        let mut s = String::new();
        line(&mut s, &v[0]);
        assert_eq!(s.trim_end().len(), 48);
    }
}
