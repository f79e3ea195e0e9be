//! A program file's `[[checks]]`: each names a buffer or a snapshot and a reference `.npy`
//! file of the same type and length, with a tolerance for floating-point data; every fault is
//! an error naming the key.

use super::*;

/// The `[[checks]]`: each names a buffer or a snapshot and a reference `.npy` file of the same
/// type and length, with a tolerance for floating-point data.
pub(super) fn parse_checks(
    cx: &Ctx,
    raw_checks: Option<&[Spanned<RawCheck>]>,
    buffers: &[Buffer],
    snapshots: &[(String, usize)],
    folder: &Path,
) -> Result<Vec<Check>, FileError> {
    let mut checks = Vec::new();
    for (i, rc) in raw_checks.into_iter().flatten().enumerate() {
        let key = format!("checks[{i}]");
        let c = rc.get_ref();
        let (bi, snapshot, label) = match (&c.buffer, &c.snapshot) {
            (Some(b), None) => {
                let Some(bi) = buffers.iter().position(|x| &x.name == b.get_ref()) else {
                    return Err(cx.at(
                        b,
                        &format!("{key}.buffer"),
                        format!("no buffer '{}'", b.get_ref()),
                    ));
                };
                (bi, None, b.get_ref().clone())
            }
            (None, Some(s)) => {
                let Some((_, bi)) = snapshots.iter().find(|(n, _)| n == s.get_ref()) else {
                    return Err(cx.at(
                        s,
                        &format!("{key}.snapshot"),
                        format!(
                            "no snapshot '{}'; snapshots are taken by copy = \"to_host\" \
                             steps",
                            s.get_ref()
                        ),
                    ));
                };
                (*bi, Some(s.get_ref().clone()), s.get_ref().clone())
            }
            _ => {
                return Err(cx.at(
                    rc,
                    &key,
                    "a check names exactly one of 'buffer' or 'snapshot'",
                ))
            }
        };
        let buf = &buffers[bi];
        let rpath = folder.join(c.reference.get_ref());
        let rkey = format!("{key}.reference");
        let rbytes = std::fs::read(&rpath).map_err(|e| {
            cx.at(
                &c.reference,
                &rkey,
                format!("cannot read {}: {e}", rpath.display()),
            )
        })?;
        let n = npy::read(&rbytes)
            .map_err(|e| cx.at(&c.reference, &rkey, format!("{}: {e}", rpath.display())))?;
        if n.dtype != buf.dtype || n.count() != buf.count {
            return Err(cx.at(
                &c.reference,
                &rkey,
                format!(
                    "{} holds {} {} elements; '{label}' has {} {} elements",
                    rpath.display(),
                    n.count(),
                    n.dtype.name(),
                    buf.count,
                    buf.dtype.name()
                ),
            ));
        }
        let tolerance = if buf.dtype.is_float() {
            let get = |t: &Option<Spanned<f64>>, what: &str, d: f64| match t {
                None => Ok(d),
                Some(v) if v.get_ref().is_finite() && *v.get_ref() >= 0.0 => Ok(*v.get_ref()),
                Some(v) => Err(cx.at(
                    v,
                    &format!("{key}.{what}"),
                    "a tolerance is a finite number ≥ 0",
                )),
            };
            Tolerance::Close {
                rtol: get(&c.rtol, "rtol", 1e-5)?,
                atol: get(&c.atol, "atol", 1e-8)?,
            }
        } else {
            if let Some(t) = c.rtol.as_ref().or(c.atol.as_ref()) {
                return Err(cx.at(
                    t,
                    &key,
                    format!(
                        "'{label}' is {}: integers compare exactly; drop rtol/atol",
                        buf.dtype.name()
                    ),
                ));
            }
            Tolerance::Exact
        };
        checks.push(Check {
            label,
            buffer: bi,
            snapshot,
            reference: Arc::new(n.data),
            tolerance,
        });
    }
    Ok(checks)
}
