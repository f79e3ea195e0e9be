//! Lane semantics of the tensor-core instructions (`ptx/tensor.rs`): the fragment layouts, the
//! matrix arithmetic and the fragment loads and stores. A tensor instruction is executed by
//! the whole warp at once (`.sync.aligned`): every lane must be active, or none (all
//! predicated off); otherwise the kernel stops with an error naming the active lanes.
//!
//! **Fragment layouts.** `mma.sync` m16n8k8/m16n8k16 use the PTX ISA's documented layouts
//! ("Matrix Fragments for mma.m16n8k8 / mma.m16n8k16"): with `g = lane / 4` and
//! `t = lane % 4`, element `i` of a lane's fragment is, for A of m16n8k16, at
//! (g + 8·(⌊i/2⌋ mod 2), 2t + i mod 2 + 8·⌊i/4⌋), for A of m16n8k8 at (g + 8·⌊i/2⌋,
//! 2t + i mod 2); for B of m16n8k16 at (k = 2t + i mod 2 + 8·⌊i/2⌋, n = g), for B of m16n8k8
//! at (2t + i, g); for C and D at (g + 8·⌊i/2⌋, 2t + i mod 2). Two 16-bit elements share a
//! register, the lower index in the
//! low half. `wmma` leaves the layout to the implementation; this one is: a fragment of a
//! R×C matrix with E elements per lane (E = registers × elements per register) holds, at
//! element `e` of lane `l`, the matrix element whose index in *fragment order* is
//! `(l·E + e) mod R·C`, fragment order being row-major, or column-major for an A or B
//! fragment loaded `.col` (the layout `wmma.mma` names for A and B). The accumulator
//! fragments (C, D) are always in row-major fragment order, whatever the layout of their load
//! or store. Where the registers hold more than R·C elements (f16 multiplicands: 512 slots)
//! every element appears in several slots; loads fill every slot, a multiply reads the slot
//! of the highest lane. So a program that only loads, multiplies, stores and applies the same
//! element-wise operation to every element of a fragment computes the matrix it means.
//!
//! **Arithmetic.** `D = A·B + C`: each element starts from C's element converted exactly to
//! f32 and, for k = 0, 1, …, K−1 in order, becomes `fma(A[i][k], B[k][j], acc)`, the f32
//! fused multiply-add rounded to nearest even (the product of two f16 or bf16 values is exact,
//! so each step is one rounding of `acc + A·B`). Subnormals are kept. An f16 D is the f32 sum
//! rounded to nearest even once at the end. Hardware tensor cores may order and round the
//! additions differently; this is the reference order the emulator guarantees.

use super::alu::Lanes;
use super::cvt::{f16_to_f64, f64_to_f16};
use super::exec::{fetch, runtime, Ctx};
use super::memop;
use super::warp::Warp;
use crate::inst::{MemSpace, WarpInst, WARP_SIZE};
use crate::ptx::isa::{AddrBase, Inst, Opnd, Rnd, Space, Ty};
use crate::ptx::tensor::{group_registers, Frag, MmaTy, Shape, TensorOp};
use crate::SimError;

/// Where a fragment's elements sit.
#[derive(Clone, Copy, Debug)]
pub struct FragLayout {
    /// `wmma` (this emulator's layout) rather than `mma.sync` (the PTX ISA's).
    pub wmma: bool,
    /// Which matrix.
    pub frag: Frag,
    /// Shape of the product.
    pub shape: Shape,
    /// Element type.
    pub ty: MmaTy,
    /// Column-major fragment order (`wmma` A or B loaded `.col`).
    pub col: bool,
}

impl FragLayout {
    /// Registers of the fragment.
    pub fn regs(&self) -> usize {
        TensorOp::frag_regs(self.wmma, self.frag, self.shape, self.ty)
    }

    /// Elements per lane.
    pub fn per_lane(&self) -> usize {
        self.regs() * self.ty.per_reg()
    }

    /// (row, column) of element `e` of lane `l`.
    pub fn elem(&self, l: usize, e: usize) -> (usize, usize) {
        let (rows, cols) = self.frag.dims(self.shape);
        if self.wmma {
            let q = (l * self.per_lane() + e) % (rows * cols);
            return if self.col {
                (q % rows, q / rows)
            } else {
                (q / cols, q % cols)
            };
        }
        let (g, t) = (l / 4, l % 4);
        match (self.frag, self.shape) {
            (Frag::A, Shape::M16n8k16) => (g + 8 * ((e / 2) % 2), 2 * t + e % 2 + 8 * (e / 4)),
            (Frag::A, _) => (g + 8 * (e / 2), 2 * t + e % 2),
            (Frag::B, Shape::M16n8k16) => (2 * t + e % 2 + 8 * (e / 2), g),
            (Frag::B, _) => (2 * t + e % 2, g),
            (Frag::C, _) => (g + 8 * (e / 2), 2 * t + e % 2),
        }
    }
}

/// The bits of element `e` of lane `l` in registers `regs`.
fn get_bits(w: &Warp, regs: &[u16], ty: MmaTy, l: usize, e: usize) -> u32 {
    let per = ty.per_reg();
    let v = w.regs[regs[e / per] as usize * WARP_SIZE + l];
    if per == 2 {
        (v >> (16 * (e % 2))) & 0xFFFF
    } else {
        v
    }
}

/// The value of an element's bits (exact).
pub fn to_f32(bits: u32, ty: MmaTy) -> f32 {
    match ty {
        MmaTy::F16 => f16_to_f64(bits as u16) as f32,
        MmaTy::Bf16 => f32::from_bits(bits << 16),
        MmaTy::F32 => f32::from_bits(bits),
    }
}

/// An f32 as an element of `ty`, rounded to nearest even.
pub fn from_f32(x: f32, ty: MmaTy) -> u32 {
    match ty {
        MmaTy::F16 => f64_to_f16(x as f64, Rnd::Rn) as u32,
        MmaTy::Bf16 => {
            if x.is_nan() {
                0x7FC0
            } else {
                let b = x.to_bits();
                (b.wrapping_add(0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF
            }
        }
        MmaTy::F32 => x.to_bits(),
    }
}

/// The matrix of a fragment, row-major (a slot written later wins for repeated elements).
fn gather(w: &Warp, lay: &FragLayout, regs: &[u16]) -> Vec<f32> {
    let (_, cols) = lay.frag.dims(lay.shape);
    let (rows, _) = lay.frag.dims(lay.shape);
    let mut m = vec![0f32; rows * cols];
    for l in 0..WARP_SIZE {
        for e in 0..lay.per_lane() {
            let (r, c) = lay.elem(l, e);
            m[r * cols + c] = to_f32(get_bits(w, regs, lay.ty, l, e), lay.ty);
        }
    }
    m
}

/// Register values (`[reg][lane]`) holding element bits `bits(l, e)` in layout `lay`.
fn pack(lay: &FragLayout, mut bits: impl FnMut(usize, usize) -> u32) -> Vec<u32> {
    let per = lay.ty.per_reg();
    let mut v = vec![0u32; lay.regs() * WARP_SIZE];
    for l in 0..WARP_SIZE {
        for e in 0..lay.per_lane() {
            let b = bits(l, e);
            let sh = if per == 2 { 16 * (e % 2) } else { 0 };
            v[(e / per) * WARP_SIZE + l] |= b << sh;
        }
    }
    v
}

fn write_regs(w: &mut Warp, regs: &[u16], vals: &[u32]) {
    for (k, &r) in regs.iter().enumerate() {
        let row = &mut w.regs[r as usize * WARP_SIZE..(r as usize + 1) * WARP_SIZE];
        row.copy_from_slice(&vals[k * WARP_SIZE..(k + 1) * WARP_SIZE]);
    }
}

/// `D = A·B + C` over row-major matrices (see the module documentation for the order and
/// rounding): A is m×k, B k×n, C m×n.
pub fn mma_f32(a: &[f32], b: &[f32], c: &[f32], (m, n, k): (usize, usize, usize)) -> Vec<f32> {
    let mut d = c.to_vec();
    for i in 0..m {
        for j in 0..n {
            let mut acc = c[i * n + j];
            for kk in 0..k {
                acc = a[i * k + kk].mul_add(b[kk * n + j], acc);
            }
            d[i * n + j] = acc;
        }
    }
    d
}

/// Per-lane base addresses of a tensor load or store, resolved to `space` when generic.
fn bases(
    ctx: &Ctx,
    w: &Warp,
    inst: &Inst,
    cta: (&[u32; 3], u32),
    space: Space,
) -> Result<(Lanes, Space), String> {
    let base: Lanes = match inst.addr.base {
        AddrBase::None => [0; 32],
        AddrBase::R32(r) => fetch(w, Opnd::R32(r), ctx, cta),
        AddrBase::R64(r) => fetch(w, Opnd::R64(r), ctx, cta),
        AddrBase::Global(i) => [ctx.global_syms[i as usize]; 32],
    };
    let mut a = [0u64; 32];
    for l in 0..WARP_SIZE {
        a[l] = base[l].wrapping_add(inst.addr.off as u64);
    }
    let sp = if space == Space::Generic {
        memop::resolve_generic(&mut a, u32::MAX)?
    } else {
        space
    };
    if !matches!(sp, Space::Global | Space::Shared | Space::Local) {
        return Err(format!("a matrix cannot be in {sp:?} memory"));
    }
    Ok((a, sp))
}

fn mem_space(s: Space) -> MemSpace {
    match s {
        Space::Shared => MemSpace::Shared,
        Space::Local => MemSpace::Local,
        _ => MemSpace::Global,
    }
}

/// Executes the tensor instruction `t` at `pc` for the lanes `mask`; with `REC`, completes the
/// record's memory part (the resolved space and each lane's first address).
#[allow(clippy::too_many_arguments)]
pub(super) fn step<const REC: bool>(
    ctx: &mut Ctx,
    w: &mut Warp,
    t: TensorOp,
    pc: usize,
    mask: u32,
    cta: (&[u32; 3], u32),
    lm: (&mut [u8], &mut [u8], u32),
    out: &mut WarpInst,
) -> Result<(), SimError> {
    if mask == 0 {
        return Ok(());
    }
    if mask != u32::MAX {
        return Err(runtime(
            ctx,
            pc,
            format!(
                "a warp-wide matrix instruction (.sync.aligned) needs all 32 lanes active; \
                 active lanes {mask:#010x}"
            ),
        ));
    }
    let code = ctx.code;
    let inst = &code.insts[pc];
    let (srcs, dsts) = group_registers(&code.insts, pc);
    let (ns, nd) = t.fragment_regs();
    if srcs.len() != ns || dsts.len() != nd {
        return Err(runtime(ctx, pc, "internal: tensor operands".into()));
    }
    let r = match t {
        TensorOp::Mma {
            wmma,
            acol,
            bcol,
            shape,
            ab,
            c,
            d,
        } => {
            let lay = |frag, ty, col| FragLayout {
                wmma,
                frag,
                shape,
                ty,
                col,
            };
            let (la, lb, lc, ld) = (
                lay(Frag::A, ab, acol),
                lay(Frag::B, ab, bcol),
                lay(Frag::C, c, false),
                lay(Frag::C, d, false),
            );
            let (na, nb) = (la.regs(), lb.regs());
            let am = gather(w, &la, &srcs[..na]);
            let bm = gather(w, &lb, &srcs[na..na + nb]);
            let cm = gather(w, &lc, &srcs[na + nb..]);
            let mnk = shape.mnk();
            let dm = mma_f32(&am, &bm, &cm, mnk);
            let vals = pack(&ld, |l, e| {
                let (r, cc) = ld.elem(l, e);
                from_f32(dm[r * mnk.1 + cc], d)
            });
            write_regs(w, &dsts, &vals);
            Ok(())
        }
        TensorOp::WmmaLoad {
            frag,
            col,
            shape,
            ty,
            space,
        } => wmma_mem::<REC>(
            ctx,
            w,
            inst,
            (frag, col, shape, ty, space),
            true,
            &dsts,
            cta,
            lm,
            out,
        ),
        TensorOp::WmmaStore {
            col,
            shape,
            ty,
            space,
        } => wmma_mem::<REC>(
            ctx,
            w,
            inst,
            (Frag::C, col, shape, ty, space),
            false,
            &srcs,
            cta,
            lm,
            out,
        ),
        TensorOp::Ldmatrix { num, trans, space } => {
            ldmatrix::<REC>(ctx, w, inst, (num, trans, space), &dsts, cta, lm, out)
        }
    };
    r.map_err(|msg| runtime(ctx, pc, msg))
}

/// `wmma.load` (when `inst` is a load: `regs` are its destinations) or `wmma.store` (`regs`
/// are the D fragment). Element (r, c) of the matrix is at `a + (r·stride + c)·bytes` for
/// `.row`, `a + (c·stride + r)·bytes` for `.col`; the stride, in elements, defaults to the
/// matrix's columns (`.row`) or rows (`.col`).
#[allow(clippy::too_many_arguments)]
fn wmma_mem<const REC: bool>(
    ctx: &mut Ctx,
    w: &mut Warp,
    inst: &Inst,
    (frag, col, shape, ty, space): (Frag, bool, Shape, MmaTy, Space),
    load: bool,
    regs: &[u16],
    cta: (&[u32; 3], u32),
    lm: (&mut [u8], &mut [u8], u32),
    out: &mut WarpInst,
) -> Result<(), String> {
    let (base, sp) = bases(ctx, w, inst, cta, space)?;
    let lay = FragLayout {
        wmma: true,
        frag,
        shape,
        ty,
        col: col && frag != Frag::C,
    };
    let (rows, cols) = frag.dims(shape);
    let stride: Lanes = if inst.nsrc == 1 {
        fetch(w, inst.src[0], ctx, cta)
    } else {
        [if col { rows } else { cols } as u64; 32]
    };
    let bytes = ty.bytes() as u64;
    let ety = if bytes == 2 { Ty::B16 } else { Ty::B32 };
    let (shared, local, lb) = lm;
    let mut vals = vec![0u32; lay.regs() * WARP_SIZE];
    let per = ty.per_reg();
    for e in 0..lay.per_lane() {
        let mut a = [0u64; 32];
        for l in 0..WARP_SIZE {
            let (r, c) = lay.elem(l, e);
            let st = stride[l] & 0xFFFF_FFFF;
            let off = if col {
                c as u64 * st + r as u64
            } else {
                r as u64 * st + c as u64
            };
            a[l] = base[l].wrapping_add(off.wrapping_mul(bytes));
        }
        let sh = if per == 2 { 16 * (e % 2) } else { 0 };
        let reg = e / per;
        // a store's values, none for a load
        let d: Option<Lanes> =
            (!load).then(|| std::array::from_fn(|l| get_bits(w, regs, ty, l, e) as u64));
        let mut v = [0u64; 32];
        memop::element_access(
            ctx,
            w,
            sp,
            (shared, local, lb),
            &a,
            u32::MAX,
            ety,
            d.as_ref(),
            &mut v,
        )?;
        if load {
            for l in 0..WARP_SIZE {
                vals[reg * WARP_SIZE + l] |= (v[l] as u32) << sh;
            }
        }
        if REC && e == 0 {
            if let Some(mi) = out.mem.as_mut() {
                mi.space = mem_space(sp);
                mi.addrs = a;
            }
        }
    }
    if load {
        write_regs(w, regs, &vals);
    }
    Ok(())
}

/// `ldmatrix`: matrix j's eight rows of eight 16-bit elements start at the addresses of lanes
/// 8j … 8j+7 (16-byte aligned); lane l receives in register j the elements (l/4, 2(l%4)) and
/// (l/4, 2(l%4)+1) of matrix j, or with `.trans` the elements (2(l%4), l/4) and
/// (2(l%4)+1, l/4), the first in the low half (PTX ISA, "ldmatrix").
#[allow(clippy::too_many_arguments)]
fn ldmatrix<const REC: bool>(
    ctx: &mut Ctx,
    w: &mut Warp,
    inst: &Inst,
    (num, trans, space): (u8, bool, Space),
    regs: &[u16],
    cta: (&[u32; 3], u32),
    lm: (&mut [u8], &mut [u8], u32),
    out: &mut WarpInst,
) -> Result<(), String> {
    let (base, sp) = bases(ctx, w, inst, cta, space)?;
    let rows = 8 * num as usize;
    for (l, a) in base.iter().enumerate().take(rows) {
        if a % 16 != 0 {
            return Err(format!(
                "lane {l}: ldmatrix row address {a:#x} is not 16-byte aligned"
            ));
        }
    }
    let (shared, local, lb) = lm;
    let mut vals = vec![0u32; num as usize * WARP_SIZE];
    for j in 0..num as usize {
        for h in 0..2 {
            let a: Lanes = std::array::from_fn(|l| {
                let (r, c) = if trans {
                    (2 * (l % 4) + h, l / 4)
                } else {
                    (l / 4, 2 * (l % 4) + h)
                };
                base[8 * j + r].wrapping_add(2 * c as u64)
            });
            let mut v = [0u64; 32];
            memop::element_access(
                ctx,
                w,
                sp,
                (shared, local, lb),
                &a,
                u32::MAX,
                Ty::B16,
                None,
                &mut v,
            )?;
            for l in 0..WARP_SIZE {
                vals[j * WARP_SIZE + l] |= (v[l] as u32 & 0xFFFF) << (16 * h);
            }
        }
    }
    write_regs(w, regs, &vals);
    if REC {
        if let Some(mi) = out.mem.as_mut() {
            mi.space = mem_space(sp);
            for l in 0..WARP_SIZE {
                mi.addrs[l] = base[l % rows];
            }
        }
    }
    Ok(())
}
