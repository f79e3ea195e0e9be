//! What a launch of a program file or of the one-launch shorthand must satisfy: grid and CTA
//! shapes within CUDA's limits and the kernel's `.maxntid`/`.reqntid`, scalar arguments that fit
//! the kernel's `.param` types (structures passed by value as their bytes), and the lookup of a
//! kernel across a program's modules through `Module::load`.

use super::file::num;
use super::Num;
use sim::ptx::{Kernel, Module, Ty};
use sim::ParamValue;
use std::sync::Arc;

/// Parses a grid or block shape: `X` or `[X]`, `[X, Y]`, `[X, Y, Z]`.
pub(crate) fn dim3(v: &toml::Value) -> Result<[u32; 3], String> {
    let items: Vec<&toml::Value> = match v {
        toml::Value::Array(a) => a.iter().collect(),
        one => vec![one],
    };
    if items.is_empty() || items.len() > 3 {
        return Err("expected X or [X, Y, Z] (1 to 3 positive integers)".into());
    }
    let mut d = [1u32; 3];
    for (i, x) in items.iter().enumerate() {
        d[i] = x
            .as_integer()
            .filter(|&n| n > 0 && n <= u32::MAX as i64)
            .ok_or_else(|| format!("{x} is not a positive 32-bit integer"))? as u32;
    }
    Ok(d)
}

/// Checks `d` against CUDA's launch limits (CUDA C++ Programming Guide, "Technical
/// Specifications per Compute Capability"): a grid of at most 2^31 − 1 × 65535 × 65535 CTAs, a
/// CTA of at most 1024 × 1024 × 64 threads and 1024 in all.
pub fn check_dims(d: [u32; 3], block: bool) -> Result<(), String> {
    let (max, total): ([u32; 3], Option<u64>) = if block {
        ([1024, 1024, 64], Some(1024))
    } else {
        ([i32::MAX as u32, 65535, 65535], None)
    };
    for (i, axis) in ["x", "y", "z"].iter().enumerate() {
        if d[i] > max[i] {
            return Err(format!(
                "{axis} = {} is above the CUDA limit {}",
                d[i], max[i]
            ));
        }
    }
    if let Some(t) = total {
        let n = d.iter().map(|&v| v as u64).product::<u64>();
        if n > t {
            return Err(format!("{n} threads in a CTA, above the CUDA limit {t}"));
        }
    }
    Ok(())
}

/// Checks a CTA shape against the kernel's `.maxntid` and `.reqntid`.
pub fn check_block_for_kernel(k: &Kernel, block: [u32; 3]) -> Result<(), String> {
    let n: u64 = block.iter().map(|&v| v as u64).product();
    if let Some(m) = k.code.maxntid {
        let max: u64 = m.iter().map(|&v| v as u64).product();
        if n > max || block.iter().zip(m).any(|(&b, m)| b > m) {
            return Err(format!(
                "CTA {block:?} ({n} threads) exceeds kernel '{}''s .maxntid {m:?}",
                k.name
            ));
        }
    }
    if let Some(r) = k.code.reqntid {
        if block != r {
            return Err(format!(
                "CTA {block:?} differs from kernel '{}''s .reqntid {r:?}",
                k.name
            ));
        }
    }
    Ok(())
}

/// The PTX spelling of a parameter type (`.u32`, `.f32`, ...), as messages name it.
pub fn ty_name(t: Ty) -> String {
    format!(".{}", format!("{t:?}").to_lowercase())
}

/// The parameter types a launch can pass (those the emulator packs).
const PASSABLE: &str = ".u8/.u16/.u32/.s32/.b32 (u8, u16, u32, i32), .f32 (f32), .f64 (f64), \
                        .u64/.s64/.b64 (a buffer, u64, i64), arrays (bytes = [...])";

/// One scalar given for parameter `p`: a typed table `{ u32 = N }` (also `i32`/`s32`, `u64`,
/// `i64`/`s64`, `f32`, `f64`) or a bare number (an integer for an integer parameter, any number
/// for `.f32`). The value must fit the parameter's type.
pub fn scalar_for(v: &toml::Value, p: &sim::ptx::Param) -> Result<ParamValue, String> {
    if let toml::Value::Table(t) = v {
        if let (1, Some(toml::Value::Array(items))) = (t.len(), t.get("bytes")) {
            let bytes: Vec<u8> = items
                .iter()
                .map(|x| {
                    x.as_integer()
                        .and_then(|i| u8::try_from(i).ok())
                        .ok_or_else(|| {
                            format!("bytes of parameter '{}' are integers 0..=255", p.name)
                        })
                })
                .collect::<Result<_, _>>()?;
            if bytes.len() != p.bytes as usize {
                return Err(format!(
                    "parameter '{}' takes {} bytes; {} given",
                    p.name,
                    p.bytes,
                    bytes.len()
                ));
            }
            return Ok(ParamValue::Bytes(bytes));
        }
    }
    let (ty_given, n): (Option<&str>, Num) = match v {
        toml::Value::Table(t) if t.len() == 1 => {
            let (k, x) = t.iter().next().expect("one key");
            let n = num(x).ok_or_else(|| format!("'{k}' must be a number"))?;
            (Some(k.as_str()), n)
        }
        other => (
            None,
            num(other).ok_or_else(|| {
                "an argument is a buffer name, a number or a typed scalar such as { u32 = 4 }"
                    .to_string()
            })?,
        ),
    };
    let mismatch = |given: &str| {
        format!(
            "parameter '{}' is declared {}; a {given} value does not match it",
            p.name,
            ty_name(p.ty)
        )
    };
    let int_in = |lo: i128, hi: i128, n: Num| -> Result<i128, String> {
        match n {
            Num::Int(i) if (lo..=hi).contains(&i) => Ok(i),
            Num::Int(i) => Err(format!(
                "{i} does not fit parameter '{}' ({}, {lo}..={hi})",
                p.name,
                ty_name(p.ty)
            )),
            Num::Float(f) => Err(format!(
                "{f} is not an integer; parameter '{}' is declared {}",
                p.name,
                ty_name(p.ty)
            )),
        }
    };
    match (ty_given, p.ty) {
        (Some("u32") | None, Ty::U32 | Ty::B32) => {
            Ok(ParamValue::U32(int_in(0, u32::MAX as i128, n)? as u32))
        }
        (None, Ty::S32) | (Some("i32" | "s32"), Ty::U32 | Ty::S32 | Ty::B32) => Ok(
            ParamValue::S32(int_in(i32::MIN as i128, i32::MAX as i128, n)? as i32),
        ),
        (Some("u32"), Ty::S32) => Ok(ParamValue::U32(int_in(0, u32::MAX as i128, n)? as u32)),
        (Some("u64") | None, Ty::U64 | Ty::B64) => {
            Ok(ParamValue::U64(int_in(0, u64::MAX as i128, n)? as u64))
        }
        (Some("i64" | "s64") | None, Ty::S64) | (Some("i64" | "s64"), Ty::U64 | Ty::B64) => Ok(
            ParamValue::U64(int_in(i64::MIN as i128, i64::MAX as i128, n)? as i64 as u64),
        ),
        (Some("u64"), Ty::S64) => Ok(ParamValue::U64(int_in(0, u64::MAX as i128, n)? as u64)),
        (Some("f32") | None, Ty::F32) | (Some("f32"), Ty::B32) => {
            Ok(ParamValue::F32(n.as_f64() as f32))
        }
        (Some("f64") | None, Ty::F64) => Ok(ParamValue::F64(n.as_f64())),
        (Some("u16") | None, Ty::U16 | Ty::B16) => {
            Ok(ParamValue::U16(int_in(0, u16::MAX as i128, n)? as u16))
        }
        (Some("i16" | "s16") | None, Ty::S16) => {
            Ok(ParamValue::U16(
                int_in(i16::MIN as i128, i16::MAX as i128, n)? as i16 as u16,
            ))
        }
        (Some("u8") | None, Ty::U8 | Ty::B8) if !p.is_array => {
            Ok(ParamValue::U8(int_in(0, u8::MAX as i128, n)? as u8))
        }
        (Some("i8" | "s8") | None, Ty::S8) if !p.is_array => {
            Ok(ParamValue::U8(
                int_in(i8::MIN as i128, i8::MAX as i128, n)? as i8 as u8,
            ))
        }
        (_, _) if p.is_array => Err(format!(
            "parameter '{}' is a structure passed by value ({} bytes): give its bytes as \
             {{ bytes = [b0, b1, ...] }}",
            p.name, p.bytes
        )),
        (_, t)
            if !matches!(
                t,
                Ty::U32
                    | Ty::S32
                    | Ty::B32
                    | Ty::F32
                    | Ty::U64
                    | Ty::S64
                    | Ty::B64
                    | Ty::F64
                    | Ty::U16
                    | Ty::S16
                    | Ty::B16
                    | Ty::U8
                    | Ty::S8
                    | Ty::B8
            ) =>
        {
            Err(format!(
                "parameter '{}' is declared {}, which a launch cannot pass yet (passable: \
                 {PASSABLE})",
                p.name,
                ty_name(t)
            ))
        }
        (Some(g), _)
            if ![
                "u32", "i32", "s32", "u64", "i64", "s64", "f32", "f64", "u16", "i16", "s16", "u8",
                "i8", "s8",
            ]
            .contains(&g) =>
        {
            Err(format!(
                "unknown scalar type '{g}'; allowed: u8, i8, u16, i16, u32, i32, u64, i64, f32, \
                 f64, or bytes = [...] for a structure"
            ))
        }
        (Some(g), _) => Err(mismatch(g)),
        (None, _) => Err(mismatch(if matches!(n, Num::Int(_)) {
            "integer"
        } else {
            "floating-point"
        })),
    }
}

/// Looks a kernel up in the program's modules ([`Module::load`]): the kernel, or why it
/// cannot be had — refused for PTX the model cannot represent (file, line and construct),
/// absent (with the kernels there are), or defined in several sources.
pub fn find_kernel(modules: &[(String, Module)], name: &str) -> Result<Arc<Kernel>, String> {
    let has = |m: &Module| {
        m.kernel_names().iter().any(|k| k == name) || m.refused().iter().any(|(k, _)| k == name)
    };
    let hits: Vec<&(String, Module)> = modules.iter().filter(|(_, m)| has(m)).collect();
    match hits.as_slice() {
        [(_, m)] => m.load(name).map_err(|e| e.to_string()),
        [] => {
            let mut all: Vec<String> = modules.iter().flat_map(|(_, m)| m.kernel_names()).collect();
            all.extend(modules.iter().flat_map(|(_, m)| {
                m.refused()
                    .into_iter()
                    .map(|(k, _)| format!("{k} (refused)"))
            }));
            Err(format!(
                "no kernel '{name}' in the sources; kernels: {}",
                if all.is_empty() {
                    "(none)".to_string()
                } else {
                    all.join(", ")
                }
            ))
        }
        many => Err(format!(
            "kernel '{name}' is in several sources ({}); rename one",
            many.iter()
                .map(|(f, _)| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
