//! Texture fetches (`tex`, [`crate::ptx::texture`]) through the texture objects a program
//! created ([`crate::texture::TextureDesc`], kept in [`super::devcall::DeviceServices`]), by
//! the CUDA programming guide's texture-fetching rules (appendix "Texture Fetching"):
//!
//! - Coordinates: with normalised coordinates x is scaled by the extent N (x·N, in f32);
//!   otherwise it is in texel units. Integer (`.s32`) coordinates are texel indices, never
//!   filtered (`tex1Dfetch`).
//! - Point sampling: the texel i = ⌊x⌋ (⌊x⌋, ⌊y⌋, ⌊z⌋ in 2-D and 3-D).
//! - Linear filtering: x_B = x − 0.5, i = ⌊x_B⌋, α = frac(x_B) held in 9-bit fixed point with
//!   8 fractional bits (the guide does not say how it is rounded; here to the nearest 1/256);
//!   tex(x) = (1−α)·T[i] + α·T[i+1], bilinear and trilinear likewise over 4 and 8 texels, in
//!   f32 in the guide's order of terms.
//! - Addressing, applied to every texel index the fetch reads: clamp to [0, N−1]; border gives
//!   a zero texel; wrap takes the index modulo N; mirror reflects it with period 2N (the
//!   guide's frac(x) and 1 − frac(x) rules on normalised coordinates, at texel granularity).
//! - Results: the texel's channels, and for the channels it lacks 0 in the first three and 1
//!   in the fourth (the (x, 0, 0, 1) of a one-channel texel, the convention of the graphics
//!   texture units CUDA's `tex` runs on; CUDA's `tex2D<float>` reads only the first).
//!
//! The handle of the k-th object created is k (from 1; 0 is never a texture object, as in
//! CUDA). A fetch with a handle that names no object, a geometry other than the object's, a
//! result type of the other class than its texels (float against integer) or a texel outside
//! device memory stops the kernel with an error naming the lane.
//!
//! For the timing model each lane's record carries the address of the first texel it reads
//! (i, j, k after clamping) with the texel's bytes: a linearly filtered fetch is timed as that
//! texel's access, not as its 2, 4 or 8 texels.

#![allow(clippy::needless_range_loop)]

use super::alu::Lanes;
use super::exec::{fetch, runtime, write, Ctx};
use super::memory::GlobalMem;
use super::warp::Warp;
use crate::inst::WarpInst;
use crate::ptx::isa::{Inst, Ty};
use crate::ptx::texture::TexOp;
use crate::texture::{TexAddress, TexFilter, TextureDesc};
use crate::SimError;

/// The texel index along one dimension of extent `n` after addressing mode `mode`; `None`
/// when the index is outside and the mode is border.
fn address(i: i64, n: u32, mode: TexAddress) -> Option<u64> {
    let n = n as i64;
    let a = match mode {
        TexAddress::Clamp => i.clamp(0, n - 1),
        TexAddress::Border => {
            if !(0..n).contains(&i) {
                return None;
            }
            i
        }
        TexAddress::Wrap => i.rem_euclid(n),
        TexAddress::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
    };
    Some(a as u64)
}

/// ⌊v⌋ as a texel index (NaN gives 0, infinities the extreme indices).
fn floor_index(v: f32) -> i64 {
    v.floor() as i64
}

/// A texel's four channels as f32 (float textures) or 32-bit integers, missing channels
/// (0, 0, 1) filled; `None` for the zero texel of border addressing.
fn texel(mem: &GlobalMem, t: &TextureDesc, idx: [Option<u64>; 3]) -> Result<[u32; 4], String> {
    let mut lin = 0u64;
    for d in (0..t.dims.len()).rev() {
        let Some(i) = idx[d] else {
            return Ok([0; 4]);
        };
        lin = lin * t.dims[d] as u64 + i;
    }
    let a = t.base + lin * t.texel_bytes();
    let one = if t.format.is_float() {
        1f32.to_bits()
    } else {
        1
    };
    let mut v = [0, 0, 0, one];
    for k in 0..t.channels as usize {
        let ea = a + 4 * k as u64;
        v[k] = mem.load(ea, 4).map_err(|f| f.describe("texture", ea, 4))? as u32;
    }
    Ok(v)
}

/// One lane's fetch at coordinates `c` (`cty` bits): its four result words and the address
/// of the first texel it reads.
fn sample(
    mem: &GlobalMem,
    t: &TextureDesc,
    cty: Ty,
    c: [u64; 3],
) -> Result<([u32; 4], u64), String> {
    let nd = t.dims.len();
    let float_coords = cty == Ty::F32;
    // texel-space coordinate of each dimension
    let mut u = [0f32; 3];
    let mut ii = [0i64; 3];
    for d in 0..nd {
        if float_coords {
            let x = f32::from_bits(c[d] as u32);
            u[d] = if t.normalized {
                x * t.dims[d] as f32
            } else {
                x
            };
        } else {
            ii[d] = c[d] as u32 as i32 as i64;
        }
    }
    let linear = float_coords && t.filter == TexFilter::Linear;
    let mut w = [0f32; 3];
    if float_coords {
        for d in 0..nd {
            if linear {
                let xb = u[d] - 0.5;
                let fl = xb.floor();
                ii[d] = floor_index(xb);
                w[d] = ((xb - fl) * 256.0).round() / 256.0;
            } else {
                ii[d] = floor_index(u[d]);
            }
        }
    }
    let at = |off: [i64; 3]| {
        let mut idx = [Some(0u64); 3];
        for d in 0..nd {
            idx[d] = address(ii[d].saturating_add(off[d]), t.dims[d], t.address[d]);
        }
        idx
    };
    let mut first = 0u64;
    for d in (0..nd).rev() {
        first =
            first * t.dims[d] as u64 + address(ii[d], t.dims[d], TexAddress::Clamp).unwrap_or(0);
    }
    let first_addr = t.base + first * t.texel_bytes();
    if !linear {
        return Ok((texel(mem, t, at([0; 3]))?, first_addr));
    }
    // (1−α)(1−β)(1−γ)·T[i,j,k] + α(1−β)(1−γ)·T[i+1,j,k] + ... over the 2^dims corners
    let mut acc = [0f32; 4];
    for corner in 0..1usize << nd {
        let mut off = [0i64; 3];
        let mut wt = 1f32;
        for d in 0..nd {
            let hi = corner >> d & 1 == 1;
            off[d] = hi as i64;
            wt *= if hi { w[d] } else { 1.0 - w[d] };
        }
        let v = texel(mem, t, at(off))?;
        for k in 0..4 {
            acc[k] += wt * f32::from_bits(v[k]);
        }
    }
    // the filled channels stay exact (0 and 1 have weights that sum to 1 exactly in 8 bits)
    Ok((acc.map(f32::to_bits), first_addr))
}

/// Executes `tex` for the lanes in `mask`: per lane the texture object of its handle, the
/// fetch, the four results; with `REC` the record's texel addresses and texel bytes.
#[allow(clippy::too_many_arguments)]
pub(super) fn tex_step<const REC: bool>(
    ctx: &mut Ctx,
    warp: &mut Warp,
    inst: &Inst,
    op: TexOp,
    mask: u32,
    pc: usize,
    cta: (&[u32; 3], u32),
    out: &mut WarpInst,
) -> Result<(), SimError> {
    let handles: Lanes = if op.param {
        let o = inst.addr.off as usize;
        let h = ctx
            .params
            .get(o..o + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .ok_or_else(|| {
                runtime(
                    ctx,
                    pc,
                    format!("the texture parameter at offset {o} is outside the parameters"),
                )
            })?;
        [h; 32]
    } else {
        fetch(warp, inst.src[0], ctx, cta)
    };
    let mut coords = [[0u64; 32]; 3];
    for d in 0..op.dims as usize {
        coords[d] = fetch(warp, inst.src[1 + d], ctx, cta);
    }
    let mut res = [[0u64; 32]; 4];
    let mut addrs = [0u64; 32];
    let mut width = 4u8;
    let mut mm = mask;
    while mm != 0 {
        let l = mm.trailing_zeros() as usize;
        mm &= mm - 1;
        let h = handles[l];
        let n = ctx.dev.textures.len();
        let Some(t) = ctx.dev.texture(h) else {
            return Err(runtime(
                ctx,
                pc,
                format!(
                    "lane {l}: {h:#x} is not the handle of a texture object ({n} created{})",
                    if n > 0 {
                        format!(": handles 1..={n}")
                    } else {
                        String::new()
                    }
                ),
            ));
        };
        if t.dims.len() != op.dims as usize {
            let msg = format!(
                "lane {l}: a tex.{}d fetch from texture object {h}, which has {} dimensions",
                op.dims,
                t.dims.len()
            );
            return Err(runtime(ctx, pc, msg));
        }
        if t.format.is_float() != (op.dty == Ty::F32) {
            let msg = format!(
                "lane {l}: a tex .{} result from texture object {h} of {:?} texels (float \
                 texels give .f32, integer texels .s32 or .u32)",
                format!("{:?}", op.dty).to_lowercase(),
                t.format
            );
            return Err(runtime(ctx, pc, msg));
        }
        let c = [coords[0][l], coords[1][l], coords[2][l]];
        let (v, a) = match sample(ctx.mem, t, op.cty, c) {
            Ok(x) => x,
            Err(m) => {
                let msg = format!("lane {l}: texture object {h}: {m}");
                return Err(runtime(ctx, pc, msg));
            }
        };
        width = t.texel_bytes() as u8;
        for k in 0..4 {
            res[k][l] = v[k] as u64;
        }
        addrs[l] = a;
    }
    for k in 0..4 {
        write(warp, inst.dst[k], &res[k], mask);
    }
    if REC {
        if let Some(mi) = out.mem.as_mut() {
            mi.addrs = addrs;
            mi.width_bytes = width;
        }
    }
    Ok(())
}
