//! Division and remainder by a divisor fixed at configuration time. Hardware sizes (banks,
//! sets, segment and line bytes) are nearly always powers of two; for those the quotient and
//! remainder are a shift and a mask instead of a 64-bit integer division, which matters in
//! per-lane loops. Any other divisor falls back to `/` and `%`, so results never differ.

/// A divisor `d ≥ 1` with its power-of-two shortcut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divisor {
    d: u64,
    /// log2(d) when `d` is a power of two, else `u32::MAX`.
    shift: u32,
}

impl Divisor {
    /// `d` = 0 is treated as 1 (callers clamp sizes to at least one).
    pub fn new(d: u64) -> Self {
        let d = d.max(1);
        let shift = if d.is_power_of_two() {
            d.trailing_zeros()
        } else {
            u32::MAX
        };
        Divisor { d, shift }
    }

    /// The divisor.
    #[inline(always)]
    pub fn get(self) -> u64 {
        self.d
    }

    /// `x / d`.
    #[inline(always)]
    pub fn div(self, x: u64) -> u64 {
        if self.shift != u32::MAX {
            x >> self.shift
        } else {
            x / self.d
        }
    }

    /// `x % d`.
    #[inline(always)]
    pub fn rem(self, x: u64) -> u64 {
        if self.shift != u32::MAX {
            x & (self.d - 1)
        } else {
            x % self.d
        }
    }
}

/// `(i + k) mod n` for `i < n` and `k <= n`: a ring index moved on by at most one turn, without
/// a division.
#[inline(always)]
pub fn ring_add(i: usize, k: usize, n: usize) -> usize {
    let j = i + k;
    if j >= n {
        j - n
    } else {
        j
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn ring_add_is_the_remainder(n in 1usize..300, i in 0usize..300, k in 0usize..300) {
            let (i, k) = (i % n, k % (n + 1));
            proptest::prop_assert_eq!(ring_add(i, k, n), (i + k) % n);
        }
    }

    proptest::proptest! {
        #[test]
        fn matches_integer_division(x: u64, d in 0u64..5000, p in 0u32..64) {
            for d in [d, 1u64 << p] {
                let v = Divisor::new(d);
                let dd = d.max(1);
                proptest::prop_assert_eq!(v.get(), dd);
                proptest::prop_assert_eq!(v.div(x), x / dd);
                proptest::prop_assert_eq!(v.rem(x), x % dd);
            }
        }
    }
}
