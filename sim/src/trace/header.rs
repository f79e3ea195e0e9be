//! `kernelslist.g` and the `.traceg` header (simulator §3.2.1, §3.2.2).

use crate::stream::{Dim3, KernelInfo};
use crate::SimError;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// One command of `kernelslist.g`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListEntry {
    /// `MemcpyHtoD,0x<addr>,<bytes>`: recorded, not timed.
    MemcpyHtoD {
        /// Device address copied to.
        addr: u64,
        /// Bytes copied.
        bytes: u64,
    },
    /// A kernel trace, as a path resolved against the list file's folder.
    Kernel(PathBuf),
}

/// Reads `kernelslist.g` (or the file `kernelslist.g` inside `path` when it is a folder).
pub fn read_kernel_list(path: &Path) -> Result<Vec<ListEntry>, SimError> {
    let file = if path.is_dir() {
        path.join("kernelslist.g")
    } else {
        path.to_path_buf()
    };
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(&file).map_err(|e| SimError::Io {
        path: shown.clone(),
        source: e,
    })?;
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let err = |msg: String| SimError::Trace {
            file: shown.clone(),
            line: i + 1,
            msg,
        };
        if let Some(rest) = line.strip_prefix("MemcpyHtoD,") {
            let mut it = rest.split(',');
            let addr = it
                .next()
                .and_then(|a| a.trim().strip_prefix("0x"))
                .and_then(|a| u64::from_str_radix(a, 16).ok())
                .ok_or_else(|| err(format!("bad MemcpyHtoD address in '{line}'")))?;
            let bytes = it
                .next()
                .and_then(|b| b.trim().parse::<u64>().ok())
                .ok_or_else(|| err(format!("bad MemcpyHtoD byte count in '{line}'")))?;
            out.push(ListEntry::MemcpyHtoD { addr, bytes });
        } else if line.ends_with(".traceg") {
            out.push(ListEntry::Kernel(dir.join(line)));
        } else {
            return Err(err(format!(
                "expected 'MemcpyHtoD,0x<addr>,<bytes>' or a '.traceg' file name, found '{line}'"
            )));
        }
    }
    Ok(out)
}

/// The parsed header of one `.traceg` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceHeader {
    /// Kernel name, grid, block, shared bytes and registers per thread.
    pub info: KernelInfo,
    /// `-kernel id`: the kernel's number in the traced run.
    pub kernel_id: u32,
    /// `-binary version`: SASS architecture of the traced binary (e.g. 61 for sm_61).
    pub binary_version: u32,
    /// `-cuda stream id`.
    pub stream_id: u32,
    /// `-shmem base_addr`: start of the shared window in the generic address space.
    pub shmem_base: u64,
    /// `-local mem base_addr`: start of the local window in the generic address space.
    pub local_base: u64,
    /// `-nvbit version` of the tracer.
    pub nvbit_version: String,
    /// `-accelsim tracer version`: trace line format version.
    pub tracer_version: u32,
    /// `-gpuenergy explicit regs = 1`: every register is listed (the writer's rich form), so
    /// wide-register expansion must not be applied. The stock Accel-Sim parser ignores the key;
    /// the stock form does not write it.
    pub explicit_regs: bool,
}

fn parse_dim3(v: &str) -> Option<Dim3> {
    let inner = v.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut it = inner.split(',').map(|s| s.trim().parse::<u32>().ok());
    let d = [it.next()??, it.next()??, it.next()??];
    if it.next().is_some() || d.contains(&0) {
        return None;
    }
    Some(d)
}

fn parse_hex(v: &str) -> Option<u64> {
    u64::from_str_radix(v.trim().strip_prefix("0x")?, 16).ok()
}

/// Reads header lines up to and including the first line starting with `#`. Returns the header
/// and the number of lines consumed. Keys may come in any order; `kernel name`, `grid dim`,
/// `block dim`, `shmem` and `nregs` are required.
pub fn read_header<R: BufRead>(
    reader: &mut R,
    file: &str,
    bytes_read: &mut u64,
) -> Result<(TraceHeader, usize), SimError> {
    let mut h = TraceHeader {
        info: KernelInfo {
            name: String::new(),
            grid: [0; 3],
            block: [0; 3],
            shared_bytes: 0,
            regs_per_thread: 0,
        },
        kernel_id: 0,
        binary_version: 0,
        stream_id: 0,
        shmem_base: 0,
        local_base: 0,
        nvbit_version: String::new(),
        tracer_version: 0,
        explicit_regs: false,
    };
    let (mut have_name, mut have_grid, mut have_block, mut have_shmem, mut have_nregs) =
        (false, false, false, false, false);
    let mut line = String::new();
    let mut n = 0usize;
    loop {
        line.clear();
        let got = reader.read_line(&mut line).map_err(|e| SimError::Io {
            path: file.to_string(),
            source: e,
        })?;
        if got == 0 {
            return Err(SimError::Trace {
                file: file.into(),
                line: n + 1,
                msg: "end of file inside the header (expected '#traces format = ...')".into(),
            });
        }
        *bytes_read += got as u64;
        n += 1;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            break;
        }
        let err = |msg: String| SimError::Trace {
            file: file.into(),
            line: n,
            msg,
        };
        let body = t.strip_prefix('-').ok_or_else(|| {
            err(format!(
                "expected a '-key = value' header line, found '{t}'"
            ))
        })?;
        let (key, value) = body
            .split_once('=')
            .ok_or_else(|| err(format!("expected '-key = value', found '{t}'")))?;
        let (key, value) = (key.trim(), value.trim());
        let num = |v: &str| {
            v.parse::<u32>()
                .map_err(|_| err(format!("bad number '{v}' for '{key}'")))
        };
        match key {
            "kernel name" => {
                h.info.name = value.to_string();
                have_name = true;
            }
            "kernel id" => h.kernel_id = num(value)?,
            "grid dim" => {
                h.info.grid = parse_dim3(value)
                    .ok_or_else(|| err(format!("bad grid dim '{value}', expected (x,y,z)")))?;
                have_grid = true;
            }
            "block dim" => {
                h.info.block = parse_dim3(value)
                    .ok_or_else(|| err(format!("bad block dim '{value}', expected (x,y,z)")))?;
                have_block = true;
            }
            "shmem" => {
                h.info.shared_bytes = num(value)?;
                have_shmem = true;
            }
            "nregs" => {
                h.info.regs_per_thread = num(value)?;
                have_nregs = true;
            }
            "binary version" => h.binary_version = num(value)?,
            "cuda stream id" => h.stream_id = num(value)?,
            "shmem base_addr" => {
                h.shmem_base =
                    parse_hex(value).ok_or_else(|| err(format!("bad address '{value}'")))?
            }
            "local mem base_addr" => {
                h.local_base =
                    parse_hex(value).ok_or_else(|| err(format!("bad address '{value}'")))?
            }
            "nvbit version" => h.nvbit_version = value.to_string(),
            "accelsim tracer version" => h.tracer_version = num(value)?,
            "gpuenergy explicit regs" => h.explicit_regs = num(value)? != 0,
            _ => {} // unknown keys are informational
        }
    }
    for (ok, key) in [
        (have_name, "kernel name"),
        (have_grid, "grid dim"),
        (have_block, "block dim"),
        (have_shmem, "shmem"),
        (have_nregs, "nregs"),
    ] {
        if !ok {
            return Err(SimError::Trace {
                file: file.into(),
                line: n,
                msg: format!("header lacks the required '-{key} = ...' line"),
            });
        }
    }
    Ok((h, n))
}

/// Writes a header in tracer order (binary version 61, tracer version 3 for our own traces).
///
/// How the stock Accel-Sim parser reads a header, which this output respects: it reads lines up
/// to the first one starting with `#` (the `#traces format = ...` comment), which ends the
/// header; blank lines are skipped; on a `-` line it compares the first two words after the `-`
/// with the keys the NVBit tracer writes, and a line with any other key is echoed and otherwise
/// ignored, as is a line starting with anything else. After the header every non-blank line that
/// is not `#BEGIN_TB`, `#END_TB`, `thread block = ...`, `warp = ...` or `insts = ...` is taken
/// as an instruction, so exactly one `#` line is written before the body. The only key outside
/// the tracer's twelve is `-gpuenergy explicit regs = 1`, written for the rich form alone.
pub fn write_header(h: &TraceHeader, out: &mut String) {
    use std::fmt::Write;
    let [gx, gy, gz] = h.info.grid;
    let [bx, by, bz] = h.info.block;
    let _ = writeln!(out, "-kernel name = {}", h.info.name);
    let _ = writeln!(out, "-kernel id = {}", h.kernel_id);
    let _ = writeln!(out, "-grid dim = ({gx},{gy},{gz})");
    let _ = writeln!(out, "-block dim = ({bx},{by},{bz})");
    let _ = writeln!(out, "-shmem = {}", h.info.shared_bytes);
    let _ = writeln!(out, "-nregs = {}", h.info.regs_per_thread);
    let _ = writeln!(out, "-binary version = {}", h.binary_version);
    let _ = writeln!(out, "-cuda stream id = {}", h.stream_id);
    let _ = writeln!(out, "-shmem base_addr = 0x{:016x}", h.shmem_base);
    let _ = writeln!(out, "-local mem base_addr = 0x{:016x}", h.local_base);
    let _ = writeln!(out, "-nvbit version = {}", h.nvbit_version);
    let _ = writeln!(out, "-accelsim tracer version = {}", h.tracer_version);
    if h.explicit_regs {
        let _ = writeln!(out, "-gpuenergy explicit regs = 1");
    }
    out.push('\n');
    out.push_str(
        "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num \
         [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n",
    );
}
