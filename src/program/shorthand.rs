//! The one-launch shorthand's kernel arguments (`--param TYPE:VALUE`), shared by `run` and
//! every command that takes `--ptx`/`--cuda`: scalars of the PTX parameter types, zeroed
//! buffers and buffers read from files.

use anyhow::{bail, Context, Result};
use sim::ParamValue;
use std::path::PathBuf;

pub(crate) fn parse_uint(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse::<u64>().ok()
    }
}

/// One `--param` argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamArg {
    /// A scalar parameter (`u32:N`, `s32:N`, `u64:N`, `f32:X`).
    Scalar(ParamValue),
    /// Zeroed buffer of this many bytes.
    Zeroed(u64),
    /// Buffer initialised from a file.
    File(PathBuf),
}

/// Parses `TYPE:VALUE`.
pub fn parse_param(s: &str) -> Result<ParamArg> {
    let Some((ty, val)) = s.split_once(':') else {
        bail!(
            "--param '{s}': expected TYPE:VALUE with TYPE one of u8, u16, u32, s32, u64, f32, \
             f64, buf"
        );
    };
    let bad = || format!("--param '{s}': '{val}' is not a valid {ty} value");
    Ok(match ty {
        "u32" => ParamArg::Scalar(ParamValue::U32(
            parse_uint(val)
                .and_then(|v| u32::try_from(v).ok())
                .with_context(bad)?,
        )),
        "s32" => ParamArg::Scalar(ParamValue::S32(val.parse::<i32>().ok().with_context(bad)?)),
        "u64" => ParamArg::Scalar(ParamValue::U64(parse_uint(val).with_context(bad)?)),
        "f32" => ParamArg::Scalar(ParamValue::F32(val.parse::<f32>().ok().with_context(bad)?)),
        "f64" => ParamArg::Scalar(ParamValue::F64(val.parse::<f64>().ok().with_context(bad)?)),
        "u16" => ParamArg::Scalar(ParamValue::U16(
            parse_uint(val)
                .and_then(|v| u16::try_from(v).ok())
                .with_context(bad)?,
        )),
        "u8" => ParamArg::Scalar(ParamValue::U8(
            parse_uint(val)
                .and_then(|v| u8::try_from(v).ok())
                .with_context(bad)?,
        )),
        "buf" => match parse_uint(val) {
            Some(n) => ParamArg::Zeroed(n),
            None => ParamArg::File(PathBuf::from(val)),
        },
        _ => bail!(
            "--param '{s}': unknown type '{ty}' (expected u8, u16, u32, s32, u64, f32, f64 or buf)"
        ),
    })
}
