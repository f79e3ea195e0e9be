//! Arrays indexed by a class enum instead of by a number a comment explains: per collector
//! class ([`PerCuClass`], indexed by [`CuClass`]), per pipe class ([`PerPipe`], indexed by
//! [`PipeClass`]) and per operation class ([`PerOp`], indexed by [`OpClass`]). Each is a plain
//! array underneath (same layout and cost); `.0` gives it where a loop over all entries wants it.

use super::exec::{PipeClass, N_OPS};
use crate::inst::OpClass;
use std::ops::{Index, IndexMut};

/// Operand-collector class. The order is the configuration's and the Activity record's
/// (`opcoll` lists the classes present in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CuClass {
    Sp,
    Sfu,
    Mem,
    Dp,
    Int,
    /// Generic collectors, taken by any instruction whose class has none of its own.
    Gen,
}

impl CuClass {
    /// Every class, in order.
    pub const ALL: [CuClass; 6] = [
        CuClass::Sp,
        CuClass::Sfu,
        CuClass::Mem,
        CuClass::Dp,
        CuClass::Int,
        CuClass::Gen,
    ];

    /// The class's name in the configuration and the Activity record.
    pub fn name(self) -> &'static str {
        ["sp", "sfu", "mem", "dp", "int", "gen"][self as usize]
    }

    /// The collector class of a pipe class (the generic class for instructions without one).
    #[inline]
    pub fn of(p: PipeClass) -> CuClass {
        match p {
            PipeClass::Sp => CuClass::Sp,
            PipeClass::Sfu => CuClass::Sfu,
            PipeClass::Mem => CuClass::Mem,
            PipeClass::Dp => CuClass::Dp,
            PipeClass::Int => CuClass::Int,
            // tensor cores take their operands through the SP collectors (they sit beside the
            // FP32 lanes of a sub-core and share its math dispatch)
            PipeClass::Tensor => CuClass::Sp,
            PipeClass::None => CuClass::Gen,
        }
    }
}

/// Defines an array type indexed by a class enum.
macro_rules! per_class {
    ($(#[$m:meta])* $name:ident, $key:ty, $n:expr, $idx:expr) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) struct $name<T>(pub [T; $n]);

        impl<T: Copy> $name<T> {
            /// Every entry `v`.
            pub const fn splat(v: T) -> Self {
                $name([v; $n])
            }
        }

        impl<T: Copy + Default> Default for $name<T> {
            fn default() -> Self {
                Self::splat(T::default())
            }
        }

        impl<T> Index<$key> for $name<T> {
            type Output = T;
            #[inline]
            fn index(&self, k: $key) -> &T {
                &self.0[$idx(k)]
            }
        }

        impl<T> IndexMut<$key> for $name<T> {
            #[inline]
            fn index_mut(&mut self, k: $key) -> &mut T {
                &mut self.0[$idx(k)]
            }
        }
    };
}

per_class!(
    /// One entry per operand-collector class.
    PerCuClass,
    CuClass,
    6,
    |k: CuClass| k as usize
);
per_class!(
    /// One entry per pipe class (in [`PipeClass::index`] order).
    PerPipe,
    PipeClass,
    7,
    |k: PipeClass| k.index()
);
per_class!(
    /// One entry per operation class.
    PerOp,
    OpClass,
    N_OPS,
    |k: OpClass| k as usize
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_documented_orders() {
        let mut c = PerCuClass::splat(0u32);
        for (i, k) in CuClass::ALL.iter().enumerate() {
            c[*k] = i as u32;
        }
        assert_eq!(c.0, [0, 1, 2, 3, 4, 5]);
        assert_eq!(CuClass::of(PipeClass::None), CuClass::Gen);
        assert_eq!(CuClass::Dp.name(), "dp");
        let mut p = PerPipe::splat(0u32);
        p[PipeClass::Mem] = 7;
        assert_eq!(p.0[PipeClass::Mem.index()], 7);
        let mut o = PerOp::<u64>::default();
        for op in super::super::exec::ALL_OPS {
            o[op] += 1;
        }
        assert!(o.0.iter().all(|&n| n == 1));
    }
}
