//! A program file's `[textures.NAME]`: texture objects over buffers, which a launch argument
//! `{ texture = "NAME" }` passes as a `cudaTextureObject_t`; every fault is an error naming
//! the key.
//!
//! ```toml
//! [textures.src]
//! buffer = "plane"          # a buffer of dtype f32, i32 or u32
//! dims = [512, 512]         # width[, height[, depth]] in texels (or one integer: 1-D)
//! channels = 1              # 32-bit channels per texel: 1, 2 or 4 (default 1)
//! filter = "point"          # or "linear" (f32 texels only; default "point")
//! address = "clamp"         # clamp, border, wrap, mirror; one for every dimension or a list
//!                           # of one per dimension (default "clamp")
//! normalized = false        # coordinates in [0, 1) span the texture (default false); wrap
//!                           # and mirror need normalized coordinates
//! ```
//!
//! The texels are the buffer's elements, row-major from its start; the buffer holds at least
//! width·height·depth·channels elements.

use super::*;
use sim::texture::{TexAddress, TexFilter, TexFormat, TextureDesc, MAX_TEXTURE_EXTENT};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTexture {
    buffer: Spanned<String>,
    dims: Spanned<toml::Value>,
    channels: Option<Spanned<i64>>,
    filter: Option<Spanned<String>>,
    address: Option<Spanned<toml::Value>>,
    normalized: Option<Spanned<bool>>,
}

/// The `[textures]` table: each texture's buffer, shape and sampler state, checked against
/// CUDA's rules ([`TextureDesc::check`]) with the buffer's address left to the run.
pub(super) fn parse_textures(
    cx: &Ctx,
    raw: Option<&BTreeMap<Spanned<String>, Spanned<RawTexture>>>,
    buffers: &[Buffer],
    conditionals: &[Conditional],
) -> Result<Vec<Texture>, FileError> {
    let mut out = Vec::new();
    for (name, rt) in raw.into_iter().flatten() {
        let key = format!("textures.{}", name.get_ref());
        let n = name.get_ref();
        if buffers.iter().any(|b| &b.name == n) || conditionals.iter().any(|c| &c.name == n) {
            return Err(cx.at(
                name,
                &key,
                format!("'{n}' names a buffer or a conditional too; give the texture another name"),
            ));
        }
        let t = rt.get_ref();
        let b = &t.buffer;
        let Some(bi) = buffers.iter().position(|x| &x.name == b.get_ref()) else {
            return Err(cx.at(
                b,
                &format!("{key}.buffer"),
                format!(
                    "no buffer '{}'; buffers: {}",
                    b.get_ref(),
                    names_or_none(buffers.iter().map(|x| x.name.as_str()))
                ),
            ));
        };
        let buf = &buffers[bi];
        let format = match buf.dtype {
            DType::F32 => TexFormat::F32,
            DType::I32 => TexFormat::S32,
            DType::U32 => TexFormat::U32,
            d => {
                return Err(cx.at(
                    b,
                    &format!("{key}.buffer"),
                    format!(
                        "buffer '{}' is {}; a texture's texels are f32, i32 or u32",
                        buf.name,
                        d.name()
                    ),
                ))
            }
        };
        let dims = parse_dims(cx, &t.dims, &key)?;
        let channels = match &t.channels {
            None => 1,
            Some(c) if matches!(c.get_ref(), 1 | 2 | 4) => *c.get_ref() as u8,
            Some(c) => {
                return Err(cx.at(
                    c,
                    &format!("{key}.channels"),
                    format!("{} is not a channel count; allowed: 1, 2, 4", c.get_ref()),
                ))
            }
        };
        let elems: u64 = dims.iter().map(|&d| d as u64).product::<u64>() * channels as u64;
        if elems > buf.count {
            return Err(cx.at(
                &t.dims,
                &format!("{key}.dims"),
                format!(
                    "{} texels of {channels} channel(s) need {elems} elements; buffer '{}' has {}",
                    elems / channels as u64,
                    buf.name,
                    buf.count
                ),
            ));
        }
        let filter = match &t.filter {
            None => TexFilter::Point,
            Some(f) => match f.get_ref().as_str() {
                "point" => TexFilter::Point,
                "linear" => TexFilter::Linear,
                o => {
                    return Err(cx.at(
                        f,
                        &format!("{key}.filter"),
                        format!("'{o}' is not a filter mode; allowed: point, linear"),
                    ))
                }
            },
        };
        let address = parse_address(cx, t.address.as_ref(), dims.len(), &key)?;
        let normalized = t.normalized.as_ref().is_some_and(|n| *n.get_ref());
        let desc = TextureDesc {
            base: 0,
            dims,
            channels,
            format,
            filter,
            address,
            normalized,
        };
        desc.check().map_err(|m| cx.at(rt, &key, m))?;
        out.push(Texture {
            name: n.clone(),
            buffer: bi,
            desc,
        });
    }
    Ok(out)
}

/// `dims`: one extent (1-D) or a list of 1 to 3, each in 1..=[`MAX_TEXTURE_EXTENT`].
fn parse_dims(cx: &Ctx, v: &Spanned<toml::Value>, key: &str) -> Result<Vec<u32>, FileError> {
    let k = format!("{key}.dims");
    let bad = || {
        cx.at(
            v,
            &k,
            format!(
                "expected width, [width, height] or [width, height, depth], each in \
                 1..={MAX_TEXTURE_EXTENT}"
            ),
        )
    };
    let items: Vec<&toml::Value> = match v.get_ref() {
        toml::Value::Array(a) => a.iter().collect(),
        x => vec![x],
    };
    if !(1..=3).contains(&items.len()) {
        return Err(bad());
    }
    items
        .iter()
        .map(|x| match x {
            toml::Value::Integer(i) if (1..=MAX_TEXTURE_EXTENT as i64).contains(i) => Ok(*i as u32),
            _ => Err(bad()),
        })
        .collect()
}

/// `address`: one mode for every dimension, or a list of one per dimension.
fn parse_address(
    cx: &Ctx,
    v: Option<&Spanned<toml::Value>>,
    n: usize,
    key: &str,
) -> Result<Vec<TexAddress>, FileError> {
    let Some(v) = v else {
        return Ok(vec![TexAddress::Clamp; n]);
    };
    let k = format!("{key}.address");
    let one = |x: &toml::Value| match x {
        toml::Value::String(s) => TexAddress::from_name(s).ok_or_else(|| {
            cx.at(
                v,
                &k,
                format!(
                    "'{s}' is not an addressing mode; allowed: {}",
                    TexAddress::NAMES
                ),
            )
        }),
        _ => Err(cx.at(
            v,
            &k,
            format!(
                "expected a mode or a list of one per dimension; modes: {}",
                TexAddress::NAMES
            ),
        )),
    };
    match v.get_ref() {
        toml::Value::Array(a) if a.len() == n => a.iter().map(one).collect(),
        toml::Value::Array(a) => Err(cx.at(
            v,
            &k,
            format!("{} modes for a texture of {n} dimension(s)", a.len()),
        )),
        x => Ok(vec![one(x)?; n]),
    }
}
