//! Warp-level operations (PTX ISA 9.x, "Parallel Synchronization and Communication
//! Instructions": `shfl.sync`, `vote.sync`, `activemask`, `match.sync`, `redux.sync`) and the
//! `%lanemask_*` special registers. Each reads the values of the other lanes of the warp, so it
//! is evaluated over the whole warp at once with the mask of participating lanes (active lanes
//! whose guard is true). A participating lane outside the instruction's `membermask` is a
//! runtime error (the PTX ISA leaves the result undefined; the model never guesses). A
//! non-participating source lane of `shfl` gives its register's current value (the ISA says
//! "unpredictable"; this keeps runs deterministic).

#![allow(clippy::needless_range_loop)]

use super::alu::{ival, trunc, Lanes};
use crate::ptx::isa::{LaneMaskKind, ReduxOp, ShflMode, Ty, VoteMode, WarpOp};

/// Values of `%lanemask_*` for the 32 lanes.
pub fn lanemask(k: LaneMaskKind) -> Lanes {
    let mut v = [0u64; 32];
    for (l, x) in v.iter_mut().enumerate() {
        let eq = 1u64 << l;
        let lt = eq - 1;
        *x = match k {
            LaneMaskKind::Eq => eq,
            LaneMaskKind::Lt => lt,
            LaneMaskKind::Le => lt | eq,
            LaneMaskKind::Gt => !(lt | eq) & 0xFFFF_FFFF,
            LaneMaskKind::Ge => !lt & 0xFFFF_FFFF,
        };
    }
    v
}

/// Shuffle of lane values by the PTX rule: with `c`'s clamp (bits 0-4) and segment mask (bits
/// 8-12), lane `l` reads lane j = l − b (`up`), l + b (`down`), l ⊕ b (`bfly`) or the segment's
/// lane b (`idx`), and keeps its own value when j falls outside its segment; the predicate says
/// whether j was inside.
fn shfl(mode: ShflMode, a: &Lanes, b: &Lanes, c: &Lanes) -> (Lanes, Lanes) {
    let mut d = [0u64; 32];
    let mut p = [0u64; 32];
    for l in 0..32usize {
        let lane = l as i64;
        let bval = (b[l] & 0x1f) as i64;
        let cval = (c[l] & 0x1f) as i64;
        let seg = ((c[l] >> 8) & 0x1f) as i64;
        let max_lane = (lane & seg) | (cval & !seg);
        let min_lane = lane & seg;
        let (j, ok) = match mode {
            ShflMode::Up => (lane - bval, lane - bval >= max_lane),
            ShflMode::Down => (lane + bval, lane + bval <= max_lane),
            ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
            ShflMode::Idx => {
                let j = min_lane | (bval & !seg);
                (j, j <= max_lane)
            }
        };
        let j = if ok { j } else { lane };
        d[l] = a[j as usize] & 0xFFFF_FFFF;
        p[l] = ok as u64;
    }
    (d, p)
}

/// Evaluates a warp-level operation for the participating lanes `mask`, from its sources in
/// PTX order (the member mask last): the destination values and, for the `d|p` forms, the
/// predicate values. An error when a participating lane is not in the member mask.
pub fn eval(op: WarpOp, mask: u32, s: &[Lanes; 4]) -> Result<(Lanes, Lanes), String> {
    let member_src = match op {
        WarpOp::Shfl(_) => 3,
        WarpOp::ActiveMask => usize::MAX,
        _ => 1,
    };
    if member_src != usize::MAX {
        let mut mm = mask;
        while mm != 0 {
            let l = mm.trailing_zeros() as usize;
            mm &= mm - 1;
            let members = s[member_src][l] as u32;
            if members & mask != mask {
                return Err(format!(
                    "lanes {mask:#010x} execute a warp-level instruction whose member mask \
                     {members:#010x} (lane {l}) does not include them all"
                ));
            }
        }
    }
    let none = [0u64; 32];
    let bit = |l: usize| (mask >> l) & 1 != 0;
    Ok(match op {
        WarpOp::Shfl(mode) => shfl(mode, &s[0], &s[1], &s[2]),
        WarpOp::Vote(v) => {
            let mut yes = 0u32;
            for l in 0..32 {
                if bit(l) && s[0][l] & 1 != 0 {
                    yes |= 1 << l;
                }
            }
            let r = match v {
                VoteMode::All => (yes == mask) as u64,
                VoteMode::Any => (yes != 0) as u64,
                VoteMode::Uni => (yes == mask || yes == 0) as u64,
                VoteMode::Ballot => yes as u64,
            };
            ([r; 32], none)
        }
        WarpOp::ActiveMask => ([mask as u64; 32], none),
        WarpOp::Match { all, ty } => {
            let w = ty.bits();
            let mut d = [0u64; 32];
            let mut p = [0u64; 32];
            let first = mask.trailing_zeros() as usize;
            let same_all = (0..32).all(|l| !bit(l) || trunc(s[0][l], w) == trunc(s[0][first], w));
            for l in 0..32 {
                if !bit(l) {
                    continue;
                }
                if all {
                    d[l] = if same_all { mask as u64 } else { 0 };
                    p[l] = same_all as u64;
                } else {
                    let mut m = 0u32;
                    for k in 0..32 {
                        if bit(k) && trunc(s[0][k], w) == trunc(s[0][l], w) {
                            m |= 1 << k;
                        }
                    }
                    d[l] = m as u64;
                }
            }
            (d, p)
        }
        WarpOp::Redux(rop, ty) => {
            let vals = (0..32).filter(|&l| bit(l)).map(|l| s[0][l] & 0xFFFF_FFFF);
            let r = match rop {
                ReduxOp::Add => vals.fold(0u64, |a, x| (a + x) & 0xFFFF_FFFF),
                ReduxOp::And => vals.fold(0xFFFF_FFFF, |a, x| a & x),
                ReduxOp::Or => vals.fold(0, |a, x| a | x),
                ReduxOp::Xor => vals.fold(0, |a, x| a ^ x),
                ReduxOp::Min | ReduxOp::Max => {
                    let key = |x: u64| ival(x, ty);
                    let it = vals.map(|x| (key(x), x));
                    let best = if rop == ReduxOp::Min {
                        it.min_by_key(|&(k, _)| k)
                    } else {
                        it.max_by_key(|&(k, _)| k)
                    };
                    best.map_or(0, |(_, x)| x)
                }
            };
            let _ = Ty::B32;
            ([r; 32], none)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(usize) -> u64) -> Lanes {
        let mut v = [0u64; 32];
        for (l, x) in v.iter_mut().enumerate() {
            *x = f(l);
        }
        v
    }

    #[test]
    fn shfl_down_reduction_pattern() {
        // __shfl_down_sync(0xffffffff, v, 4): c = 0x1f (clamp 31, no segments)
        let a = lanes(|l| 100 + l as u64);
        let s = [a, [4; 32], [0x1f; 32], [0xFFFF_FFFF; 32]];
        let (d, p) = eval(WarpOp::Shfl(ShflMode::Down), u32::MAX, &s).unwrap();
        assert_eq!(d[0], 104);
        assert_eq!(d[27], 131);
        assert_eq!(d[28], 128, "out of range keeps its own value");
        assert_eq!((p[27], p[28]), (1, 0));
    }

    #[test]
    fn shfl_up_and_width_segments() {
        // __shfl_up_sync(.., v, 1, 8): c = (32-8)<<8 = 0x1800, clamp 0
        let a = lanes(|l| l as u64);
        let s = [a, [1; 32], [0x1800; 32], [0xFFFF_FFFF; 32]];
        let (d, p) = eval(WarpOp::Shfl(ShflMode::Up), u32::MAX, &s).unwrap();
        assert_eq!((d[0], p[0]), (0, 0));
        assert_eq!(
            (d[8], p[8]),
            (8, 0),
            "first lane of a segment keeps its value"
        );
        assert_eq!((d[9], p[9]), (8, 1));
        // __shfl_sync(.., v, 3, 16): idx within 16-lane segments: c = (16<<8)|0x1f... nvcc
        // emits c = ((32-16)<<8) | 31
        let s = [a, [3; 32], [(16 << 8) | 31; 32], [0xFFFF_FFFF; 32]];
        let (d, _) = eval(WarpOp::Shfl(ShflMode::Idx), u32::MAX, &s).unwrap();
        assert_eq!((d[0], d[15], d[16], d[31]), (3, 3, 19, 19));
        // xor butterfly
        let s = [a, [16; 32], [0x1f; 32], [0xFFFF_FFFF; 32]];
        let (d, _) = eval(WarpOp::Shfl(ShflMode::Bfly), u32::MAX, &s).unwrap();
        assert_eq!((d[0], d[17]), (16, 1));
    }

    #[test]
    fn votes_match_redux() {
        let pred = lanes(|l| (l % 2) as u64);
        let m = [0xFFFF_FFFFu64; 32];
        let s = [pred, m, [0; 32], [0; 32]];
        assert_eq!(
            eval(WarpOp::Vote(VoteMode::Ballot), u32::MAX, &s)
                .unwrap()
                .0[0],
            0xAAAA_AAAA
        );
        assert_eq!(
            eval(WarpOp::Vote(VoteMode::Any), u32::MAX, &s).unwrap().0[5],
            1
        );
        assert_eq!(
            eval(WarpOp::Vote(VoteMode::All), u32::MAX, &s).unwrap().0[5],
            0
        );
        assert_eq!(
            eval(WarpOp::Vote(VoteMode::All), 0xAAAA_AAAA, &s)
                .unwrap()
                .0[5],
            1
        );
        assert_eq!(
            eval(WarpOp::Vote(VoteMode::Uni), 0x5555_5555, &s)
                .unwrap()
                .0[0],
            1
        );
        let key = lanes(|l| (l / 8) as u64);
        let s = [key, m, [0; 32], [0; 32]];
        let (d, _) = eval(
            WarpOp::Match {
                all: false,
                ty: Ty::B32,
            },
            u32::MAX,
            &s,
        )
        .unwrap();
        assert_eq!(d[9], 0x0000_FF00);
        let (d, p) = eval(
            WarpOp::Match {
                all: true,
                ty: Ty::B32,
            },
            0xFF,
            &s,
        )
        .unwrap();
        assert_eq!((d[3], p[3]), (0xFF, 1));
        let (d, p) = eval(
            WarpOp::Match {
                all: true,
                ty: Ty::B32,
            },
            0x1FF,
            &s,
        )
        .unwrap();
        assert_eq!((d[3], p[3]), (0, 0));
        let v = lanes(|l| (l as i64 - 10) as u64 & 0xFFFF_FFFF);
        let s = [v, m, [0; 32], [0; 32]];
        let r = |op| eval(WarpOp::Redux(op, Ty::S32), u32::MAX, &s).unwrap().0[0];
        assert_eq!(r(ReduxOp::Min), (-10i64) as u64 & 0xFFFF_FFFF);
        assert_eq!(r(ReduxOp::Max), 21);
        assert_eq!(
            r(ReduxOp::Add),
            ((0..32).map(|l| l - 10).sum::<i64>()) as u64
        );
        assert_eq!(eval(WarpOp::ActiveMask, 0x0F0F, &s).unwrap().0[1], 0x0F0F);
    }

    #[test]
    fn member_mask_must_cover_participants() {
        let s = [[0; 32], [0x0000_FFFF; 32], [0; 32], [0; 32]];
        let e = eval(WarpOp::Vote(VoteMode::Any), u32::MAX, &s).unwrap_err();
        assert!(e.contains("member mask"), "{e}");
        assert!(eval(WarpOp::Vote(VoteMode::Any), 0xFF, &s).is_ok());
    }

    #[test]
    fn lanemasks() {
        assert_eq!(lanemask(LaneMaskKind::Lt)[3], 0b111);
        assert_eq!(lanemask(LaneMaskKind::Le)[3], 0b1111);
        assert_eq!(lanemask(LaneMaskKind::Eq)[3], 0b1000);
        assert_eq!(lanemask(LaneMaskKind::Gt)[31], 0);
        assert_eq!(lanemask(LaneMaskKind::Ge)[0], 0xFFFF_FFFF);
    }
}
