//! The program file: a TOML description of a host program — PTX or CUDA sources, device
//! buffers with their initial contents, a sequence of launches and host↔device copies, and
//! checks of output buffers against `.npy` references. Parsed with serde over `toml::Spanned`
//! values so that every error names the file, the line, the column and the key (the approach of
//! [`crate::sweep::file`]).
//!
//! ```toml
//! name = "jacobi"                 # labels every result (not a built-in workload's name)
//! ptx = ["jacobi.ptx"]            # and/or cuda = ["jacobi.cu"]; paths relative to this file
//! arch = "sm_75"                  # PTX target of the CUDA sources (default sm_75)
//! stack_bytes = 8192              # call stack per thread of kernels that call recursive
//!                                 # device functions (cudaLimitStackSize; default 1024)
//!
//! [buffers.a]                     # one table per device buffer
//! dtype = "f32"                   # u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64
//! count = 4096                    # elements (or: bytes = 16384)
//! init = { random = { seed = 1, min = -1.0, max = 1.0 } }
//! # init = "zeros" (default) | { constant = 2.5 } | { range = { start = 0, step = 1 } }
//! #      | { file = "a.npy" }     (.npy: dtype and element count must match; else raw bytes)
//!
//! [[steps]]                       # in order
//! launch = "jacobi_step"          # a kernel of the sources
//! grid = [16, 1]                  # X or [X, Y, Z]
//! block = 256
//! shared = 0                      # dynamic shared memory per CTA, bytes (default 0)
//! args = ["a", "b", { u32 = 4096 }, { f32 = 0.5 }]   # buffer names or typed scalars
//! repeat = 10                     # (default 1)
//!
//! [[steps]]
//! copy = "to_device"              # or "to_host"
//! buffer = "a"
//! from = { constant = 0 }         # to_device: any init (default: the buffer's own)
//! # snapshot = "a_mid"            # to_host: keep the contents under a name for a check
//! # file = "a_mid.npy"            # to_host: written by `run --program` (.npy, else raw bytes)
//!
//! [[steps]]                       # a group of steps repeated as a whole
//! repeat = 5
//! [[steps.body]]
//! launch = "k1"
//! # ...
//!
//! [conditionals]                  # CUDA-graph conditional handles, 32-bit values
//! keep_going = { default = 1 }    # the value when the program starts (default 0)
//!
//! [[steps]]                       # a conditional group: while = "H" repeats the body while
//! while = "keep_going"            # H is nonzero (checked before each iteration), if = "H"
//! max_iterations = 1000           # runs it once when H is nonzero; more iterations than
//! [[steps.body]]                  # max_iterations (default 10000) is an error
//! launch = "step"
//! cooperative = true              # a cooperative launch (grid-wide sync; default false)
//! args = ["a", { handle = "keep_going" }]   # a handle passes its 64-bit cudaGraphConditionalHandle;
//!                                 # the kernel sets it with cudaGraphSetConditional(h, v)
//!
//! [textures.img]                  # a texture object over a buffer (file/textures.rs)
//! buffer = "a"                    # f32, i32 or u32 texels, row-major
//! dims = [64, 64]                 # width[, height[, depth]]
//! filter = "point"                # or "linear"; address = "clamp" | "border" | ...
//! # a launch passes it as { texture = "img" } (a cudaTextureObject_t)
//!
//! [[checks]]                      # used by `run --program … --check`
//! buffer = "b"                    # the buffer at the end of the program (or: snapshot = "a_mid")
//! reference = "b_ref.npy"         # same dtype and element count
//! rtol = 1e-5                     # floats: |got − want| ≤ atol + rtol·|want| (defaults 1e-5,
//! atol = 1e-8                     # 1e-8, numpy's allclose); integers compare exactly
//! ```
//!
//! What is checked here, each error naming file, line and key: unknown keys and wrong types;
//! a name that a built-in workload has; a buffer's dtype, its size (`count` or `bytes`, a
//! whole number of elements, at most [`MAX_BUFFER_BYTES`], all buffers together at most
//! [`MAX_TOTAL_BYTES`]) and init (values representable in the dtype, an input file of exactly
//! the buffer's size); every kernel present in the sources; grid and CTA within CUDA's limits
//! and the CTA within the kernel's `.maxntid` and equal to its `.reqntid`; an argument list of
//! the kernel's `.param` count, each a buffer for a 64-bit pointer parameter or a scalar of a
//! compatible type, or a declared conditional handle for a 64-bit parameter; conditional groups
//! naming declared handles, `max_iterations` in 1..=[`MAX_REPEAT`]; copies and checks naming
//! existing buffers and snapshots; references of the buffer's dtype and element count.

use super::npy;
use super::{
    Arg, Buffer, Check, CondKind, Conditional, Init, Source, Step, Texture, Tolerance, UserProgram,
};
use serde::Deserialize;
use sim::ptx::{Kernel, Module, Ty};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

mod args;
mod checks;
mod textures;
use args::resolve_args;
use checks::parse_checks;
use textures::{parse_textures, RawTexture};

pub use super::launch_args::{check_block_for_kernel, check_dims};
use super::launch_args::{dim3, ty_name};
pub(crate) use super::launch_args::{find_kernel, scalar_for};

/// Largest buffer a program may declare: the emulator's global address space
/// (`sim::emu::memory::MAX_GLOBAL_BYTES`, 64 GiB).
pub const MAX_TOTAL_BYTES: u64 = 64 << 30;

/// Largest buffer whose initial contents are generated or read on the host (zeros need none).
pub const MAX_BUFFER_BYTES: u64 = 4 << 30;

/// Largest `repeat` of one step (and largest `max_iterations` of a `while` group).
pub const MAX_REPEAT: i64 = 1_000_000;

/// `max_iterations` of a `while` group that does not give one.
pub const DEFAULT_MAX_ITERATIONS: u32 = 10_000;

pub use super::dtype::{DType, DTYPES};

pub(crate) use super::init::{num, parse_init};
pub(crate) use crate::spanned_file::Ctx;
pub use crate::spanned_file::{FileError, Loc};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuffer {
    dtype: Spanned<String>,
    count: Option<Spanned<i64>>,
    bytes: Option<Spanned<i64>>,
    init: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    launch: Option<Spanned<String>>,
    grid: Option<Spanned<toml::Value>>,
    block: Option<Spanned<toml::Value>>,
    shared: Option<Spanned<i64>>,
    args: Option<Spanned<Vec<Spanned<toml::Value>>>>,
    repeat: Option<Spanned<i64>>,
    copy: Option<Spanned<String>>,
    buffer: Option<Spanned<String>>,
    from: Option<Spanned<toml::Value>>,
    snapshot: Option<Spanned<String>>,
    file: Option<Spanned<String>>,
    body: Option<Spanned<Vec<Spanned<RawStep>>>>,
    cooperative: Option<Spanned<bool>>,
    #[serde(rename = "while")]
    while_: Option<Spanned<String>>,
    #[serde(rename = "if")]
    if_: Option<Spanned<String>>,
    max_iterations: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConditional {
    default: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    buffer: Option<Spanned<String>>,
    snapshot: Option<Spanned<String>>,
    reference: Spanned<String>,
    rtol: Option<Spanned<f64>>,
    atol: Option<Spanned<f64>>,
}

type Names = Spanned<Vec<Spanned<String>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: Spanned<String>,
    ptx: Option<Names>,
    cuda: Option<Names>,
    arch: Option<Spanned<String>>,
    stack_bytes: Option<Spanned<i64>>,
    buffers: Option<BTreeMap<Spanned<String>, Spanned<RawBuffer>>>,
    steps: Option<Spanned<Vec<Spanned<RawStep>>>>,
    checks: Option<Vec<Spanned<RawCheck>>>,
    conditionals: Option<BTreeMap<Spanned<String>, Spanned<RawConditional>>>,
    textures: Option<BTreeMap<Spanned<String>, Spanned<RawTexture>>>,
}

/// `names` joined by ", ", or "none".
fn names_or_none<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// What the step parser carries along.
struct StepCx<'a> {
    cx: &'a Ctx<'a>,
    folder: &'a Path,
    modules: &'a [(String, Module)],
    buffers: &'a [Buffer],
    conditionals: &'a [Conditional],
    textures: &'a [Texture],
    snapshots: Vec<(String, usize)>,
}

fn repeat_of(sc: &StepCx, s: &RawStep, key: &str) -> Result<u32, FileError> {
    match &s.repeat {
        None => Ok(1),
        Some(r) if (1..=MAX_REPEAT).contains(r.get_ref()) => Ok(*r.get_ref() as u32),
        Some(r) => Err(sc.cx.at(
            r,
            &format!("{key}.repeat"),
            format!(
                "{} is not a repeat count; allowed: 1..={MAX_REPEAT}",
                r.get_ref()
            ),
        )),
    }
}

/// The condition of a group step: `while = "H"` (with `max_iterations`) or `if = "H"` on a
/// declared handle; `None` for a plain repeated group.
fn conditional_of(
    sc: &StepCx,
    s: &RawStep,
    st: &Spanned<RawStep>,
    key: &str,
) -> Result<Option<(usize, CondKind)>, FileError> {
    let cx = sc.cx;
    let (name, what) = match (&s.while_, &s.if_) {
        (None, None) => {
            if let Some(m) = &s.max_iterations {
                return Err(cx.at(
                    m,
                    &format!("{key}.max_iterations"),
                    "'max_iterations' belongs to a while group (while = \"HANDLE\")",
                ));
            }
            return Ok(None);
        }
        (Some(_), Some(i)) => {
            return Err(cx.at(
                i,
                &format!("{key}.if"),
                "a group has at most one of 'while' and 'if'",
            ))
        }
        (Some(w), None) => (w, "while"),
        (None, Some(i)) => (i, "if"),
    };
    if let Some(r) = &s.repeat {
        return Err(cx.at(
            r,
            &format!("{key}.repeat"),
            format!("a {what} group runs as its conditional says; 'repeat' does not belong to it"),
        ));
    }
    let Some(handle) = sc
        .conditionals
        .iter()
        .position(|c| &c.name == name.get_ref())
    else {
        return Err(cx.at(
            name,
            &format!("{key}.{what}"),
            format!(
                "no conditional '{}'; declared in [conditionals]: {}",
                name.get_ref(),
                names_or_none(sc.conditionals.iter().map(|c| c.name.as_str()))
            ),
        ));
    };
    let kind = if what == "while" {
        let (max_iterations, at) = match &s.max_iterations {
            None => (
                DEFAULT_MAX_ITERATIONS,
                cx.at(st, &format!("{key}.max_iterations"), "").to_string(),
            ),
            Some(m) if (1..=MAX_REPEAT).contains(m.get_ref()) => (
                *m.get_ref() as u32,
                cx.at(m, &format!("{key}.max_iterations"), "").to_string(),
            ),
            Some(m) => {
                return Err(cx.at(
                    m,
                    &format!("{key}.max_iterations"),
                    format!(
                        "{} is not an iteration bound; allowed: 1..={MAX_REPEAT}",
                        m.get_ref()
                    ),
                ))
            }
        };
        CondKind::While {
            max_iterations,
            at: at.trim_end_matches([' ', ':']).to_string(),
        }
    } else {
        if let Some(m) = &s.max_iterations {
            return Err(cx.at(
                m,
                &format!("{key}.max_iterations"),
                "'max_iterations' belongs to a while group; an if group runs once",
            ));
        }
        CondKind::If
    };
    Ok(Some((handle, kind)))
}

/// The `[conditionals]` table: each handle's default value, a 32-bit unsigned integer.
fn parse_conditionals(
    cx: &Ctx,
    raw: Option<&BTreeMap<Spanned<String>, Spanned<RawConditional>>>,
    buffers: &[Buffer],
) -> Result<Vec<Conditional>, FileError> {
    let mut out = Vec::new();
    for (name, rc) in raw.into_iter().flatten() {
        let key = format!("conditionals.{}", name.get_ref());
        if buffers.iter().any(|b| &b.name == name.get_ref()) {
            return Err(cx.at(
                name,
                &key,
                format!(
                    "'{}' names a buffer too; give the handle another name",
                    name.get_ref()
                ),
            ));
        }
        let default = match &rc.get_ref().default {
            None => 0,
            Some(d) if (0..=u32::MAX as i64).contains(d.get_ref()) => *d.get_ref() as u32,
            Some(d) => {
                return Err(cx.at(
                    d,
                    &format!("{key}.default"),
                    format!(
                        "{} is not a conditional value; allowed: 0..=4294967295 (unsigned int)",
                        d.get_ref()
                    ),
                ))
            }
        };
        out.push(Conditional {
            name: name.get_ref().clone(),
            default,
        });
    }
    Ok(out)
}

/// The optional step keys a `launch` step refuses (it takes `grid`, `block`, `shared`, `args`
/// and `cooperative`).
const LAUNCH_REFUSES: &[&str] = &[
    "copy",
    "buffer",
    "from",
    "snapshot",
    "file",
    "while",
    "if",
    "max_iterations",
];
/// The keys a group step (`body`) refuses (it takes `repeat` or a condition).
const GROUP_REFUSES: &[&str] = &[
    "grid",
    "block",
    "shared",
    "args",
    "buffer",
    "from",
    "snapshot",
    "file",
    "cooperative",
];
/// The keys a `copy` step refuses (it takes `buffer`, `from`, `snapshot` and `file`).
const COPY_REFUSES: &[&str] = &[
    "grid",
    "block",
    "shared",
    "args",
    "cooperative",
    "while",
    "if",
    "max_iterations",
];

fn parse_steps(
    sc: &mut StepCx,
    steps: &Spanned<Vec<Spanned<RawStep>>>,
    prefix: &str,
) -> Result<Vec<Step>, FileError> {
    let cx = sc.cx;
    let mut out = Vec::new();
    for (i, st) in steps.get_ref().iter().enumerate() {
        let key = format!("{prefix}[{i}]");
        let s = st.get_ref();
        let kinds = [s.launch.is_some(), s.copy.is_some(), s.body.is_some()];
        if kinds.iter().filter(|&&b| b).count() != 1 {
            return Err(cx.at(
                st,
                &key,
                "a step has exactly one of 'launch' (a kernel), 'copy' (\"to_device\" or \
                 \"to_host\") or 'body' (a repeated group of steps)",
            ));
        }
        let repeat = repeat_of(sc, s, &key)?;
        let (kind, refused) = if s.launch.is_some() {
            ("launch", LAUNCH_REFUSES)
        } else if s.body.is_some() {
            ("group", GROUP_REFUSES)
        } else {
            ("copy", COPY_REFUSES)
        };
        refuse_keys(cx, st, &key, kind, refused)?;
        let step = if let Some(k) = &s.launch {
            launch_step(sc, st, k, &key, repeat)?
        } else if let Some(body) = &s.body {
            group_step(sc, st, body, &key, repeat)?
        } else {
            let c = s.copy.as_ref().expect("one kind");
            copy_step(sc, st, c, &key, repeat)?
        };
        out.push(step);
    }
    Ok(out)
}

/// The optional keys of a step, each with whether it is present, in the order a refusal
/// names them (the first refused key present is the one reported).
fn step_keys(s: &RawStep) -> [(bool, &'static str); 13] {
    [
        (s.grid.is_some(), "grid"),
        (s.block.is_some(), "block"),
        (s.shared.is_some(), "shared"),
        (s.args.is_some(), "args"),
        (s.copy.is_some(), "copy"),
        (s.buffer.is_some(), "buffer"),
        (s.from.is_some(), "from"),
        (s.snapshot.is_some(), "snapshot"),
        (s.file.is_some(), "file"),
        (s.cooperative.is_some(), "cooperative"),
        (s.while_.is_some(), "while"),
        (s.if_.is_some(), "if"),
        (s.max_iterations.is_some(), "max_iterations"),
    ]
}

/// Refuses the first of the `refused` keys that step `st` (at `key`) has: they do not belong
/// to a `kind` step.
fn refuse_keys(
    cx: &Ctx,
    st: &Spanned<RawStep>,
    key: &str,
    kind: &str,
    refused: &[&str],
) -> Result<(), FileError> {
    for (present, what) in step_keys(st.get_ref()) {
        if refused.contains(&what) {
            not_here(cx, st, key, present, what, kind)?;
        }
    }
    Ok(())
}

/// Refuses the key `what` of step `st` (at `key`) when `present`: it does not belong to a
/// `kind` step.
fn not_here(
    cx: &Ctx,
    st: &Spanned<RawStep>,
    key: &str,
    present: bool,
    what: &str,
    kind: &str,
) -> Result<(), FileError> {
    if present {
        Err(cx.at(
            st,
            &format!("{key}.{what}"),
            format!("'{what}' does not belong to a {kind} step"),
        ))
    } else {
        Ok(())
    }
}

/// A `launch` step of kernel `k`: its grid, block, dynamic shared memory and arguments.
fn launch_step(
    sc: &StepCx,
    st: &Spanned<RawStep>,
    k: &Spanned<String>,
    key: &str,
    repeat: u32,
) -> Result<Step, FileError> {
    let cx = sc.cx;
    let s = st.get_ref();
    let kernel =
        find_kernel(sc.modules, k.get_ref()).map_err(|m| cx.at(k, &format!("{key}.launch"), m))?;
    let dim = |v: &Option<Spanned<toml::Value>>, what: &str, block: bool| {
        let k2 = format!("{key}.{what}");
        let Some(v) = v else {
            return Err(cx.at(st, &k2, format!("a launch needs '{what}'")));
        };
        let d = dim3(v.get_ref()).map_err(|m| cx.at(v, &k2, m))?;
        check_dims(d, block).map_err(|m| cx.at(v, &k2, m))?;
        Ok(d)
    };
    let grid = dim(&s.grid, "grid", false)?;
    let block = dim(&s.block, "block", true)?;
    if let Some(bv) = &s.block {
        check_block_for_kernel(&kernel, block)
            .map_err(|m| cx.at(bv, &format!("{key}.block"), m))?;
    }
    let shared = match &s.shared {
        None => 0,
        Some(v) if (0..=u32::MAX as i64).contains(v.get_ref()) => *v.get_ref() as u32,
        Some(v) => {
            return Err(cx.at(
                v,
                &format!("{key}.shared"),
                "dynamic shared memory is a byte count, 0..=4294967295",
            ))
        }
    };
    let empty = Spanned::new(0..0, Vec::new());
    let args_sp = s.args.as_ref().unwrap_or(&empty);
    let args = if s.args.is_none() && !kernel.params().is_empty() {
        return Err(cx.at(
            st,
            &format!("{key}.args"),
            format!(
                "kernel '{}' declares {} parameters; give 'args'",
                kernel.name,
                kernel.params().len()
            ),
        ));
    } else {
        resolve_args(
            cx,
            key,
            &kernel,
            args_sp,
            sc.buffers,
            sc.conditionals,
            sc.textures,
        )?
    };
    Ok(Step::Launch {
        kernel,
        grid,
        block,
        shared,
        args,
        repeat,
        cooperative: s.cooperative.as_ref().is_some_and(|c| *c.get_ref()),
    })
}

/// A group step: the steps of `body`, repeated `repeat` times or under a device condition.
fn group_step(
    sc: &mut StepCx,
    st: &Spanned<RawStep>,
    body: &Spanned<Vec<Spanned<RawStep>>>,
    key: &str,
    repeat: u32,
) -> Result<Step, FileError> {
    let cx = sc.cx;
    let s = st.get_ref();
    if body.get_ref().is_empty() {
        return Err(cx.at(body, &format!("{key}.body"), "the group has no steps"));
    }
    let cond = conditional_of(sc, s, st, key)?;
    let inner = parse_steps(sc, body, &format!("{key}.body"))?;
    Ok(match cond {
        None => Step::Group {
            steps: inner,
            repeat,
        },
        Some((handle, kind)) => Step::Conditional {
            steps: inner,
            handle,
            kind,
        },
    })
}

/// A `copy` step (`c`: "to_device" or "to_host") of the step's buffer.
fn copy_step(
    sc: &mut StepCx,
    st: &Spanned<RawStep>,
    c: &Spanned<String>,
    key: &str,
    repeat: u32,
) -> Result<Step, FileError> {
    let cx = sc.cx;
    let s = st.get_ref();
    let Some(b) = &s.buffer else {
        return Err(cx.at(st, &format!("{key}.buffer"), "a copy needs 'buffer'"));
    };
    let Some(bi) = sc.buffers.iter().position(|x| &x.name == b.get_ref()) else {
        return Err(cx.at(
            b,
            &format!("{key}.buffer"),
            format!("no buffer '{}'", b.get_ref()),
        ));
    };
    let buf = &sc.buffers[bi];
    match c.get_ref().as_str() {
        "to_device" => {
            not_here(cx, st, key, s.snapshot.is_some(), "snapshot", "to_device")?;
            not_here(
                cx,
                st,
                key,
                s.file.is_some(),
                "file",
                "to_device (use from = { file = … })",
            )?;
            let init = match &s.from {
                None => buf.init.clone(),
                Some(f) => parse_init(f.get_ref(), buf.dtype, buf.count, sc.folder)
                    .map_err(|m| cx.at(f, &format!("{key}.from"), m))?,
            };
            Ok(Step::ToDevice {
                buffer: bi,
                init,
                repeat,
            })
        }
        "to_host" => {
            not_here(cx, st, key, s.from.is_some(), "from", "to_host")?;
            let snapshot = match &s.snapshot {
                Some(n) => {
                    if sc.snapshots.iter().any(|(x, _)| x == n.get_ref()) {
                        return Err(cx.at(
                            n,
                            &format!("{key}.snapshot"),
                            format!("snapshot '{}' is taken twice", n.get_ref()),
                        ));
                    }
                    sc.snapshots.push((n.get_ref().clone(), bi));
                    Some(n.get_ref().clone())
                }
                None => None,
            };
            let file = s.file.as_ref().map(|f| sc.folder.join(f.get_ref()));
            Ok(Step::ToHost {
                buffer: bi,
                snapshot,
                file,
                repeat,
            })
        }
        other => Err(cx.at(
            c,
            &format!("{key}.copy"),
            format!("unknown copy '{other}'; allowed: to_device, to_host"),
        )),
    }
}

/// Reads `names` (paths relative to `folder`) as the given kind of source.
fn read_sources(
    cx: &Ctx,
    names: &Names,
    key: &str,
    folder: &Path,
    cuda_arch: Option<&str>,
) -> Result<Vec<Source>, FileError> {
    if names.get_ref().is_empty() {
        return Err(cx.at(names, key, "the list is empty; give at least one file"));
    }
    let mut out = Vec::new();
    for n in names.get_ref() {
        let path = folder.join(n.get_ref());
        let src = match cuda_arch {
            None => Source::ptx(&path),
            Some(arch) => Source::cuda(&path, arch),
        }
        .map_err(|e| cx.at(n, key, format!("{e:#}")))?;
        out.push(src);
    }
    Ok(out)
}

/// The `[buffers]` table: each buffer's element type, size (`count` or `bytes`) and initial
/// contents, within the emulator's global memory and the host-initialisation limit.
fn parse_buffers(
    cx: &Ctx,
    raw_buffers: Option<&BTreeMap<Spanned<String>, Spanned<RawBuffer>>>,
    folder: &Path,
) -> Result<Vec<Buffer>, FileError> {
    let mut buffers = Vec::new();
    let mut total: u64 = 0;
    if let Some(bt) = raw_buffers {
        for (bname, rb) in bt {
            let bname = bname.get_ref();
            let key = format!("buffers.{bname}");
            let b = rb.get_ref();
            let dtype = DType::parse(b.dtype.get_ref()).ok_or_else(|| {
                cx.at(
                    &b.dtype,
                    &format!("{key}.dtype"),
                    format!("unknown dtype '{}'; allowed: {DTYPES}", b.dtype.get_ref()),
                )
            })?;
            let count = match (&b.count, &b.bytes) {
                (Some(_), Some(y)) => {
                    return Err(cx.at(
                        y,
                        &format!("{key}.bytes"),
                        "give 'count' (elements) or 'bytes', not both",
                    ))
                }
                (None, None) => {
                    return Err(cx.at(rb, &key, "a buffer needs 'count' (elements) or 'bytes'"))
                }
                (Some(c), None) => {
                    let n = *c.get_ref();
                    let bytes = (n as u64).checked_mul(dtype.size());
                    if n < 1 || bytes.is_none_or(|b| b > MAX_TOTAL_BYTES) {
                        return Err(cx.at(
                            c,
                            &format!("{key}.count"),
                            format!(
                                "{n} elements of {}: a buffer holds 1 element up to \
                                 {MAX_TOTAL_BYTES} bytes",
                                dtype.name()
                            ),
                        ));
                    }
                    n as u64
                }
                (None, Some(y)) => {
                    let n = *y.get_ref();
                    if n < 1 || n as u64 > MAX_TOTAL_BYTES {
                        return Err(cx.at(
                            y,
                            &format!("{key}.bytes"),
                            format!("{n} bytes: a buffer holds 1 up to {MAX_TOTAL_BYTES} bytes"),
                        ));
                    }
                    if !(n as u64).is_multiple_of(dtype.size()) {
                        return Err(cx.at(
                            y,
                            &format!("{key}.bytes"),
                            format!(
                                "{n} bytes is not a whole number of {} elements ({} bytes \
                                 each)",
                                dtype.name(),
                                dtype.size()
                            ),
                        ));
                    }
                    n as u64 / dtype.size()
                }
            };
            let bytes = count * dtype.size();
            total = total.saturating_add(bytes);
            if total > MAX_TOTAL_BYTES {
                return Err(cx.at(
                    rb,
                    &key,
                    format!(
                        "the buffers so far need {total} bytes, more than the emulator's \
                         {MAX_TOTAL_BYTES}-byte global memory"
                    ),
                ));
            }
            let init = match &b.init {
                None => Init::Zeros,
                Some(v) => {
                    let ik = format!("{key}.init");
                    let init = parse_init(v.get_ref(), dtype, count, folder)
                        .map_err(|m| cx.at(v, &ik, m))?;
                    if !matches!(init, Init::Zeros) && bytes > MAX_BUFFER_BYTES {
                        return Err(cx.at(
                            v,
                            &ik,
                            format!(
                                "{bytes} bytes of initial contents; a buffer initialised on \
                                 the host holds at most {MAX_BUFFER_BYTES} bytes (zeros \
                                 have no limit below the total)"
                            ),
                        ));
                    }
                    init
                }
            };
            buffers.push(Buffer {
                name: bname.clone(),
                dtype,
                count,
                init,
            });
        }
    }
    Ok(buffers)
}

impl UserProgram {
    /// Reads and checks the program file at `path` (sources and data files are read, CUDA
    /// sources compiled, kernels parsed).
    pub fn load(path: &Path) -> Result<UserProgram, anyhow::Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read program file {}: {e}", path.display()))?;
        Ok(UserProgram::parse(path, &text)?)
    }

    /// Parses and checks `text`, the contents of `path` (relative paths inside it are resolved
    /// against `path`'s folder).
    pub fn parse(path: &Path, text: &str) -> Result<UserProgram, FileError> {
        let cx = Ctx {
            file: path.display().to_string(),
            text,
        };
        let raw: Raw = cx.parse()?;
        let folder = path.parent().unwrap_or(Path::new(""));
        let name = raw.name.get_ref().trim().to_string();
        super::check_name(&name).map_err(|m| cx.at(&raw.name, "name", m))?;
        let arch = match &raw.arch {
            Some(a) => {
                super::nvcc::check_arch(a.get_ref()).map_err(|m| cx.at(a, "arch", m))?;
                if raw.cuda.is_none() {
                    return Err(cx.at(
                        a,
                        "arch",
                        "'arch' applies to 'cuda' sources; there are none",
                    ));
                }
                a.get_ref().clone()
            }
            None => super::nvcc::DEFAULT_ARCH.to_string(),
        };
        let stack_bytes = match &raw.stack_bytes {
            Some(b) => {
                let max = sim::emu::MAX_STACK_LIMIT_BYTES;
                let v = *b.get_ref();
                if !(1..=i64::from(max)).contains(&v) {
                    return Err(cx.at(
                        b,
                        "stack_bytes",
                        format!("{v}: the call-stack bytes per thread must be in 1..={max}"),
                    ));
                }
                Some(v as u32)
            }
            None => None,
        };
        let mut sources = Vec::new();
        if let Some(p) = &raw.ptx {
            sources.extend(read_sources(&cx, p, "ptx", folder, None)?);
        }
        if let Some(c) = &raw.cuda {
            sources.extend(read_sources(&cx, c, "cuda", folder, Some(&arch))?);
        }
        if sources.is_empty() {
            return Err(cx.err(
                Loc { line: 1, col: 1 },
                "ptx",
                "no sources: give ptx = [\"k.ptx\"] and/or cuda = [\"k.cu\"]",
            ));
        }
        let modules: Vec<(String, Module)> = sources
            .iter()
            .map(|s| (s.label.clone(), s.module.clone()))
            .collect();
        let buffers = parse_buffers(&cx, raw.buffers.as_ref(), folder)?;
        let conditionals = parse_conditionals(&cx, raw.conditionals.as_ref(), &buffers)?;
        let textures = parse_textures(&cx, raw.textures.as_ref(), &buffers, &conditionals)?;
        let Some(raw_steps) = raw.steps.as_ref().filter(|s| !s.get_ref().is_empty()) else {
            return Err(cx.err(
                Loc { line: 1, col: 1 },
                "steps",
                "no steps; give at least one [[steps]] launch",
            ));
        };
        let mut sc = StepCx {
            cx: &cx,
            folder,
            modules: &modules,
            buffers: &buffers,
            conditionals: &conditionals,
            textures: &textures,
            snapshots: Vec::new(),
        };
        let steps = parse_steps(&mut sc, raw_steps, "steps")?;
        if super::count_launches(&steps) == 0 {
            return Err(cx.at(raw_steps, "steps", "the steps launch no kernel"));
        }
        let snapshots = sc.snapshots;
        let checks = parse_checks(&cx, raw.checks.as_deref(), &buffers, &snapshots, folder)?;
        let mut p = UserProgram::assemble(
            name,
            path.display().to_string(),
            text.as_bytes(),
            sources,
            buffers,
            steps,
            checks,
        );
        p.conditionals = conditionals;
        p.textures = textures;
        p.stack_bytes = stack_bytes;
        Ok(p)
    }
}
