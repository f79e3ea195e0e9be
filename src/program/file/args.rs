//! A launch step's `args`: each a buffer name (its device address), a conditional handle
//! `{ handle = "H" }`, a texture object `{ texture = "T" }` or a typed scalar, checked against
//! the kernel's parameters; every fault is an error naming the key.

use super::*;

/// Checks a launch's argument list against the kernel's parameters and resolves it.
pub(super) fn resolve_args(
    cx: &Ctx,
    key: &str,
    kernel: &Kernel,
    args: &Spanned<Vec<Spanned<toml::Value>>>,
    buffers: &[Buffer],
    conditionals: &[Conditional],
    textures: &[Texture],
) -> Result<Vec<Arg>, FileError> {
    let params = kernel.params();
    let given = args.get_ref();
    if given.len() != params.len() {
        let decl: Vec<String> = params
            .iter()
            .map(|p| format!("{} {}", ty_name(p.ty), p.name))
            .collect();
        return Err(cx.at(
            args,
            &format!("{key}.args"),
            format!(
                "{} arguments given; kernel '{}' declares {} parameters: {}",
                given.len(),
                kernel.name,
                params.len(),
                decl.join(", ")
            ),
        ));
    }
    let mut out = Vec::new();
    for (i, (a, p)) in given.iter().zip(params).enumerate() {
        let akey = format!("{key}.args[{i}]");
        match a.get_ref() {
            toml::Value::String(b) => {
                let Some(bi) = buffers.iter().position(|x| &x.name == b) else {
                    return Err(cx.at(
                        a,
                        &akey,
                        format!(
                            "no buffer '{b}'; buffers: {}",
                            buffers
                                .iter()
                                .map(|b| b.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                };
                if !matches!(p.ty, Ty::U64 | Ty::S64 | Ty::B64) {
                    return Err(cx.at(
                        a,
                        &akey,
                        format!(
                            "buffer '{b}' passes a 64-bit device pointer, but parameter '{}' is \
                             declared {}",
                            p.name,
                            ty_name(p.ty)
                        ),
                    ));
                }
                out.push(Arg::Buffer(bi));
            }
            toml::Value::Table(t) if t.contains_key("handle") => {
                let h = match (t.len(), t.get("handle")) {
                    (1, Some(toml::Value::String(h))) => h,
                    _ => {
                        return Err(cx.at(
                            a,
                            &akey,
                            "a conditional handle argument is { handle = \"NAME\" } alone",
                        ))
                    }
                };
                let Some(ci) = conditionals.iter().position(|c| &c.name == h) else {
                    return Err(cx.at(
                        a,
                        &akey,
                        format!(
                            "no conditional '{h}'; declared in [conditionals]: {}",
                            names_or_none(conditionals.iter().map(|c| c.name.as_str()))
                        ),
                    ));
                };
                if !matches!(p.ty, Ty::U64 | Ty::S64 | Ty::B64) {
                    return Err(cx.at(
                        a,
                        &akey,
                        format!(
                            "conditional '{h}' passes a 64-bit cudaGraphConditionalHandle, but \
                             parameter '{}' is declared {}",
                            p.name,
                            ty_name(p.ty)
                        ),
                    ));
                }
                out.push(Arg::Handle(ci));
            }
            toml::Value::Table(t) if t.contains_key("texture") => {
                out.push(texture_arg(cx, a, &akey, t, p, textures)?);
            }
            v => out.push(Arg::Scalar(
                scalar_for(v, p).map_err(|m| cx.at(a, &akey, m))?,
            )),
        }
    }
    Ok(out)
}

/// A texture object argument `{ texture = "NAME" }` for parameter `p`: a declared texture
/// passed as a 64-bit `cudaTextureObject_t`.
fn texture_arg(
    cx: &Ctx,
    a: &Spanned<toml::Value>,
    akey: &str,
    t: &toml::map::Map<String, toml::Value>,
    p: &sim::ptx::Param,
    textures: &[Texture],
) -> Result<Arg, FileError> {
    let name = match (t.len(), t.get("texture")) {
        (1, Some(toml::Value::String(h))) => h,
        _ => {
            return Err(cx.at(
                a,
                akey,
                "a texture argument is { texture = \"NAME\" } alone",
            ))
        }
    };
    let Some(ti) = textures.iter().position(|x| &x.name == name) else {
        return Err(cx.at(
            a,
            akey,
            format!(
                "no texture '{name}'; declared in [textures]: {}",
                names_or_none(textures.iter().map(|x| x.name.as_str()))
            ),
        ));
    };
    if !matches!(p.ty, Ty::U64 | Ty::S64 | Ty::B64) {
        return Err(cx.at(
            a,
            akey,
            format!(
                "texture '{name}' passes a 64-bit cudaTextureObject_t, but parameter '{}' is \
                 declared {}",
                p.name,
                ty_name(p.ty)
            ),
        ));
    }
    Ok(Arg::Texture(ti))
}
