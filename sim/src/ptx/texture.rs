//! Texture fetches through texture objects (PTX ISA, "Texture Instructions: tex"): the forms
//! nvcc emits for `tex1D`, `tex2D`, `tex3D` and `tex1Dfetch` on a `cudaTextureObject_t`,
//!
//! ```text
//! tex.2d.v4.f32.f32  {%f5, %f6, %f7, %f8}, [%rd2, {%f2, %f4}];
//! tex.1d.v4.s32.s32  {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];
//! ```
//!
//! `tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32}` in the unified texture mode: the texture
//! operand is a 64-bit register or a kernel parameter holding the object's handle, the
//! coordinates a vector of one (1-D), two (2-D) or four (3-D, the fourth ignored, PTX ISA)
//! registers of the coordinate type. Mipmap forms (`.base`, `.level`, `.grad`), array, cube and
//! multisample geometries, `.f16x2` results, the residency predicate `d|p`, offsets and depth
//! compare, and the independent mode's explicit sampler are refused naming what is not
//! supported. The fetch itself (texel addressing and filtering) is `emu/texture.rs`.

use super::ast::{RawInst, RawOpnd};
use super::isa::{Inst, Op, Ty};
use super::scope::{Scope, VarLoc};
use crate::SimError;

/// A decoded `tex` ([`Op::Tex`]). Destinations: the four result registers; `src[0]`: the
/// texture object's register (none when it is a parameter, read at `Inst::addr.off` in the
/// parameter buffer); `src[1..]`: the coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexOp {
    /// Dimensions of the geometry: 1 (`.1d`), 2 (`.2d`) or 3 (`.3d`).
    pub dims: u8,
    /// Result type: `.f32`, `.s32` or `.u32`.
    pub dty: Ty,
    /// Coordinate type: `.f32` or `.s32`.
    pub cty: Ty,
    /// The texture object is a kernel parameter (its offset is `Inst::addr.off`).
    pub param: bool,
}

/// Decodes a `tex`; `None` for any other instruction.
pub(super) fn decode_tex(s: &Scope, ri: &RawInst) -> Result<Option<Inst>, SimError> {
    if ri.opcode != "tex" {
        return Ok(None);
    }
    let mut inst = Inst::new(Op::Nop, ri.pos.line);
    if let Some((g, neg, gp)) = &ri.guard {
        inst.guard = Some((s.pred(g, *gp)?, *neg));
    }
    let form = format!("tex.{}", ri.mods.join("."));
    let bad = |m: String| s.err(ri.pos, format!("'{form}': {m}"));
    let mods: Vec<&str> = ri.mods.iter().map(String::as_str).collect();
    if let Some(m) = mods
        .iter()
        .find(|m| matches!(**m, "base" | "level" | "grad"))
    {
        return bad(format!(
            "mipmapped fetches (.{m}) are not supported; tex.{{1d,2d,3d}}.v4.dtype.ctype is"
        ));
    }
    let [geom, v, dty, cty] = mods[..] else {
        return bad("expected tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32}".into());
    };
    let dims = match geom {
        "1d" => 1u8,
        "2d" => 2,
        "3d" => 3,
        g => {
            return bad(format!(
                "the .{g} geometry is not supported (array, cube and multisample textures); \
                 allowed: .1d, .2d, .3d"
            ))
        }
    };
    if v != "v4" {
        return bad(format!(
            "only .v4 results are supported (.{v}: .v2.f16x2 is not)"
        ));
    }
    let dty = match Ty::from_name(dty) {
        Some(t @ (Ty::F32 | Ty::S32 | Ty::U32)) => t,
        _ => return bad(format!("result type .{dty}; allowed: .f32, .s32, .u32")),
    };
    let cty = match Ty::from_name(cty) {
        Some(t @ (Ty::F32 | Ty::S32)) => t,
        _ => return bad(format!("coordinate type .{cty}; allowed: .f32, .s32")),
    };
    let ops = &ri.operands;
    if ops.len() != 2 {
        return bad(format!(
            "{} operands; expected d, [tex, {{coordinates}}] (offsets and depth compare are \
             not supported)",
            ops.len()
        ));
    }
    let (d, dpos) = (&ops[0].0, ops[0].1);
    let RawOpnd::Vec(dregs) = d else {
        return s.err(
            dpos,
            format!("'{form}': the result is a vector of four registers {{a, b, c, d}} (the residency predicate d|p is not supported)"),
        );
    };
    if dregs.len() != 4 {
        return s.err(
            dpos,
            format!("'{form}': {} result registers; expected 4", dregs.len()),
        );
    }
    for (k, r) in dregs.iter().enumerate() {
        inst.dst[k] = s.gpr(r, dty, dpos, false)?;
    }
    inst.ndst = 4;
    let (a, apos) = (&ops[1].0, ops[1].1);
    let RawOpnd::TexAddr(tex, coords) = a else {
        return s.err(apos, format!("'{form}': expected [tex, {{coordinates}}]"));
    };
    let want = if dims == 3 { 4 } else { dims as usize };
    if coords.len() != want {
        return s.err(
            apos,
            format!(
                "'{form}': {} coordinates; a .{geom} fetch takes {want}{}",
                coords.len(),
                if dims == 3 {
                    " (the fourth ignored)"
                } else {
                    ""
                }
            ),
        );
    }
    let mut param = false;
    if s.regs.contains_key(tex.as_str()) {
        inst.src[0] = s.gpr(tex, Ty::U64, apos, false)?;
    } else if let Some(VarLoc::Param(off, ty)) = s.vars.get(tex.as_str()) {
        if ty.bits() != 64 {
            return s.err(
                apos,
                format!("'{form}': parameter '{tex}' is not 64 bits; a texture object is"),
            );
        }
        param = true;
        inst.addr.off = *off as i64;
    } else {
        return s.err(
            apos,
            format!(
                "'{form}': '{tex}' is neither a register nor a kernel parameter holding a \
                 texture object (texture references, .texref, are not supported)"
            ),
        );
    }
    for (k, c) in coords.iter().take(dims as usize).enumerate() {
        inst.src[1 + k] = s.gpr(c, cty, apos, false)?;
    }
    inst.nsrc = 1 + dims;
    inst.op = Op::Tex(TexOp {
        dims,
        dty,
        cty,
        param,
    });
    Ok(Some(inst))
}
