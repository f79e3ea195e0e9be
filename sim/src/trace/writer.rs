//! Accel-Sim trace writer (simulator §3.2.5 "Writer"): runs a kernel stream functionally
//! and writes `kernel-<id>.traceg` files plus `kernelslist.g`, binary version 61, tracer version 3.
//!
//! Two register conventions ([`TraceForm`]): the stock NVBit-tracer form, which the stock
//! Accel-Sim parser reads (its header holds only the twelve `-key = value` lines the tracer
//! writes, then the one `#traces format` comment line that ends the header), and gpuenergy's rich
//! form, which lists every register and adds `-gpuenergy explicit regs = 1`. Both write
//! `kernelslist.g` as the tracer's post-processing step does: `MemcpyHtoD,0x<16 hex>,<bytes>`
//! and `kernel-<id>.traceg`, one per line, in program order.

use super::header::{write_header, TraceHeader};
use super::line::{format_line_as, TraceForm};
use crate::inst::{OpClass, WarpInst};
use crate::stream::{KernelStream, Step};
use crate::SimError;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Steps every warp of CTA `cta` to completion, honouring `bar.sync` (a warp that returned a
/// barrier waits until every non-exited warp of its CTA has returned it), and hands each
/// instruction to `on_inst(warp, inst)`.
pub fn drive_cta(
    stream: &mut dyn KernelStream,
    cta: u32,
    mut on_inst: impl FnMut(u32, &WarpInst),
) -> Result<(), SimError> {
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        Run,
        Bar,
        Done,
    }
    let nw = stream.info().warps_per_cta();
    stream.begin_cta(cta, 0, 0)?;
    let mut st = vec![S::Run; nw as usize];
    let mut inst = WarpInst::new(0, crate::inst::Family::Int, OpClass::Nop, 0);
    loop {
        for w in 0..nw {
            while st[w as usize] == S::Run {
                match stream.next_inst(cta, w, 0, &mut inst)? {
                    Step::Done => st[w as usize] = S::Done,
                    Step::Inst => {
                        on_inst(w, &inst);
                        if inst.op == OpClass::Barrier {
                            st[w as usize] = S::Bar;
                        }
                    }
                }
            }
        }
        if st.iter().all(|&s| s == S::Done) {
            break;
        }
        // Everyone not done is at the barrier: release it.
        for s in st.iter_mut() {
            if *s == S::Bar {
                *s = S::Run;
            }
        }
    }
    stream.end_cta(cta)
}

/// Writes one folder of traces: `kernelslist.g` and one `.traceg` per kernel.
pub struct TraceWriter {
    dir: PathBuf,
    list: BufWriter<File>,
    next_id: u32,
    form: TraceForm,
    /// Window bases written in the headers (our own traces have no generic loads/stores).
    pub shmem_base: u64,
    /// Local-window base written in the headers.
    pub local_base: u64,
}

impl TraceWriter {
    /// Creates `dir` (and parents) and an empty `kernelslist.g` in it; kernels are written in
    /// `form`.
    pub fn create(dir: &Path, form: TraceForm) -> Result<TraceWriter, SimError> {
        let io = |e| SimError::Io {
            path: dir.display().to_string(),
            source: e,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let list = File::create(dir.join("kernelslist.g")).map_err(io)?;
        Ok(TraceWriter {
            dir: dir.to_path_buf(),
            list: BufWriter::new(list),
            next_id: 1,
            form,
            shmem_base: 0,
            local_base: 0,
        })
    }

    fn io_err(&self, e: std::io::Error) -> SimError {
        SimError::Io {
            path: self.dir.display().to_string(),
            source: e,
        }
    }

    /// Records a host-to-device copy in `kernelslist.g`.
    pub fn memcpy_h2d(&mut self, addr: u64, bytes: u64) -> Result<(), SimError> {
        writeln!(self.list, "MemcpyHtoD,0x{addr:016x},{bytes}").map_err(|e| self.io_err(e))
    }

    /// Runs `stream` functionally and writes it as the next kernel. Returns the path written and
    /// the number of instruction lines.
    pub fn write_kernel(
        &mut self,
        stream: &mut dyn KernelStream,
    ) -> Result<(PathBuf, u64), SimError> {
        let id = self.next_id;
        self.next_id += 1;
        let name = format!("kernel-{id}.traceg");
        let path = self.dir.join(&name);
        let io = |e| SimError::Io {
            path: path.display().to_string(),
            source: e,
        };
        let info = stream.info().clone();
        let header = TraceHeader {
            info: info.clone(),
            kernel_id: id,
            binary_version: 61,
            stream_id: 0,
            shmem_base: self.shmem_base,
            local_base: self.local_base,
            nvbit_version: "gpuenergy".into(),
            tracer_version: 3,
            explicit_regs: self.form == TraceForm::Rich,
        };
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&path).map_err(io)?);
        let mut text = String::new();
        write_header(&header, &mut text);
        out.write_all(text.as_bytes()).map_err(io)?;
        let nw = info.warps_per_cta() as usize;
        let mut per_warp: Vec<Vec<u8>> = vec![Vec::new(); nw];
        let mut counts = vec![0u64; nw];
        let mut line = String::with_capacity(512);
        let form = self.form;
        let mut total = 0u64;
        for cta in 0..info.num_ctas() {
            for (b, c) in per_warp.iter_mut().zip(counts.iter_mut()) {
                b.clear();
                *c = 0;
            }
            drive_cta(stream, cta, |w, inst| {
                format_line_as(inst, form, &mut line);
                let b = &mut per_warp[w as usize];
                b.extend_from_slice(line.as_bytes());
                b.push(b'\n');
                counts[w as usize] += 1;
            })?;
            if counts.iter().all(|&c| c == 0) {
                continue; // empty CTAs are omitted
            }
            let [x, y, z] = info.cta_coords(cta);
            write!(out, "#BEGIN_TB\n\nthread block = {x},{y},{z}\n\n").map_err(io)?;
            for w in 0..nw {
                write!(out, "warp = {w}\ninsts = {}\n", counts[w]).map_err(io)?;
                out.write_all(&per_warp[w]).map_err(io)?;
                out.write_all(b"\n").map_err(io)?;
                total += counts[w];
            }
            out.write_all(b"#END_TB\n\n").map_err(io)?;
        }
        out.flush().map_err(io)?;
        writeln!(self.list, "{name}").map_err(|e| self.io_err(e))?;
        self.list.flush().map_err(|e| self.io_err(e))?;
        Ok((path, total))
    }

    /// The register convention of the kernels written.
    pub fn form(&self) -> TraceForm {
        self.form
    }

    /// Flushes `kernelslist.g`.
    pub fn finish(mut self) -> Result<PathBuf, SimError> {
        self.list.flush().map_err(|e| self.io_err(e))?;
        Ok(self.dir.join("kernelslist.g"))
    }
}
