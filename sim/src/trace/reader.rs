//! Streaming `.traceg` reader (simulator §3.2.3 and §6.2 "Traces are streamed").
//!
//! Opening a kernel scans the file once and records, for every warp section, its byte offset,
//! first line number and instruction count. Each warp of a resident CTA then reads its own lines
//! through a private buffer (positioned reads on one shared file handle), so memory is
//! O(resident warps × buffer), independent of the trace's size.
//!
//! [`BodyScanner`] is the sequential parser underneath; it works on any `BufRead` (a test streams
//! more than a gigabyte of generated lines through it).
//!
//! Both register conventions of [`crate::trace::TraceForm`] are read. A header with
//! `-gpuenergy explicit regs = 1` (the rich form) lists every register, predicates included, and
//! is taken literally. Any other trace — the stock form gpuenergy writes, and every trace of the
//! NVBit tracer — names a 64-/128-bit operand by its first register only; with
//! `trace.expand_wide_regs` (the default) the scoreboard sees each listed register of a DP op or
//! of an 8-/16-byte memory op expanded to the consecutive registers the opcode width implies
//! ([`crate::trace::line::wide_group`]): `1 R8 LDG.E.64 1 R2` writes R8 and R9 and reads R2 and
//! R3, as the rich form would list them. What a stock trace cannot carry stays lost: predicate
//! registers (so a guarded instruction or branch does not wait for the compare that sets its
//! predicate), the high half of a 64-bit integer result (`IADD`/`IMAD` carry no width), vector
//! registers that are not consecutive, and sources beyond four.

use super::header::{read_header, TraceHeader};
use super::line::{parse_line, synthetic_exit, LineOptions};
use crate::inst::{Family, OpClass, WarpInst};
use crate::stream::{Dim3, KernelInfo, KernelStream, Step};
use crate::SimError;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// A structural event of a trace body.
#[derive(Clone, Debug, PartialEq)]
pub enum BodyEvent {
    /// `thread block = X,Y,Z` after `#BEGIN_TB`.
    CtaStart(Dim3),
    /// `warp = W` then `insts = N`; `offset` is the byte offset of the first instruction line.
    Warp {
        /// Warp index within the CTA.
        warp: u32,
        /// Instruction lines of the warp.
        insts: u64,
        /// Byte offset of the warp's first instruction line in the file.
        offset: u64,
    },
    /// One instruction line (only when the scanner parses instructions).
    Inst,
    /// `#END_TB`.
    CtaEnd,
}

/// Sequential, allocation-free (per line) parser of a trace body.
pub struct BodyScanner<R: BufRead> {
    reader: R,
    file: String,
    line_no: usize,
    offset: u64,
    buf: String,
    opts: LineOptions,
    parse_insts: bool,
    in_cta: bool,
    insts_left: u64,
    cur_warp: Option<u32>,
}

impl<R: BufRead> BodyScanner<R> {
    /// `line_no`/`offset`: where the body starts in the file (after the header).
    /// With `parse_insts` false, instruction lines are counted and skipped, not parsed.
    pub fn new(
        reader: R,
        file: &str,
        line_no: usize,
        offset: u64,
        opts: LineOptions,
        parse_insts: bool,
    ) -> Self {
        BodyScanner {
            reader,
            file: file.to_string(),
            line_no,
            offset,
            buf: String::with_capacity(512),
            opts,
            parse_insts,
            in_cta: false,
            insts_left: 0,
            cur_warp: None,
        }
    }

    fn err(&self, msg: impl Into<String>) -> SimError {
        SimError::Trace {
            file: self.file.clone(),
            line: self.line_no,
            msg: msg.into(),
        }
    }

    /// Reads the next non-blank line into `self.buf`; false at end of file.
    fn next_line(&mut self) -> Result<bool, SimError> {
        loop {
            self.buf.clear();
            let n = self
                .reader
                .read_line(&mut self.buf)
                .map_err(|e| SimError::Io {
                    path: self.file.clone(),
                    source: e,
                })?;
            if n == 0 {
                return Ok(false);
            }
            self.offset += n as u64;
            self.line_no += 1;
            if !self.buf.trim().is_empty() {
                return Ok(true);
            }
        }
    }

    /// The next event, writing parsed instructions into `inst`; `None` at a clean end of file.
    pub fn next_event(&mut self, inst: &mut WarpInst) -> Result<Option<BodyEvent>, SimError> {
        if self.insts_left > 0 {
            if !self.next_line()? {
                return Err(self.err(format!(
                    "truncated warp section: {} instruction line(s) missing at end of file",
                    self.insts_left
                )));
            }
            self.insts_left -= 1;
            let t = self.buf.trim();
            if t.starts_with('#') || t.starts_with("warp") || t.starts_with("thread block") {
                return Err(self.err(format!(
                    "truncated warp section: expected {} more instruction line(s), found '{t}'",
                    self.insts_left + 1
                )));
            }
            if self.parse_insts {
                let opts = self.opts;
                let line = std::mem::take(&mut self.buf);
                let r = parse_line(&line, &opts, inst);
                self.buf = line;
                r.map_err(|m| self.err(m))?;
            }
            return Ok(Some(BodyEvent::Inst));
        }
        if !self.next_line()? {
            if self.in_cta {
                return Err(self.err("end of file inside a thread block (missing '#END_TB')"));
            }
            return Ok(None);
        }
        let t = self.buf.trim().to_string();
        if t == "#BEGIN_TB" {
            if self.in_cta {
                return Err(self.err("'#BEGIN_TB' inside a thread block (missing '#END_TB')"));
            }
            if !self.next_line()? {
                return Err(self.err("end of file after '#BEGIN_TB'"));
            }
            let tb = self.buf.trim();
            let coords = tb
                .strip_prefix("thread block")
                .and_then(|r| r.trim_start().strip_prefix('='))
                .and_then(|r| {
                    let mut it = r.split(',').map(|s| s.trim().parse::<u32>().ok());
                    let d = [it.next()??, it.next()??, it.next()??];
                    it.next().is_none().then_some(d)
                })
                .ok_or_else(|| {
                    self.err(format!("expected 'thread block = X,Y,Z', found '{tb}'"))
                })?;
            self.in_cta = true;
            self.cur_warp = None;
            return Ok(Some(BodyEvent::CtaStart(coords)));
        }
        if t == "#END_TB" {
            if !self.in_cta {
                return Err(self.err("'#END_TB' without '#BEGIN_TB'"));
            }
            self.in_cta = false;
            return Ok(Some(BodyEvent::CtaEnd));
        }
        if let Some(rest) = t.strip_prefix("warp") {
            if !self.in_cta {
                return Err(self.err("'warp =' outside a thread block"));
            }
            let warp = rest
                .trim_start()
                .strip_prefix('=')
                .and_then(|w| w.trim().parse::<u32>().ok())
                .ok_or_else(|| self.err(format!("expected 'warp = N', found '{t}'")))?;
            if !self.next_line()? {
                return Err(self.err("end of file after 'warp ='"));
            }
            let il = self.buf.trim();
            let insts = il
                .strip_prefix("insts")
                .and_then(|r| r.trim_start().strip_prefix('='))
                .and_then(|n| n.trim().parse::<u64>().ok())
                .ok_or_else(|| self.err(format!("expected 'insts = N', found '{il}'")))?;
            self.insts_left = insts;
            self.cur_warp = Some(warp);
            return Ok(Some(BodyEvent::Warp {
                warp,
                insts,
                offset: self.offset,
            }));
        }
        if t.starts_with('#') {
            // Other comment lines are ignored.
            return self.next_event(inst);
        }
        Err(self.err(format!(
            "expected '#BEGIN_TB', '#END_TB', 'warp = N' or an instruction of a declared warp, \
             found '{t}'"
        )))
    }

    /// Current 1-based line number.
    pub fn line_no(&self) -> usize {
        self.line_no
    }
}

/// Where one warp's lines are.
#[derive(Clone, Copy, Debug)]
struct WarpIndex {
    offset: u64,
    insts: u64,
    /// Line number of the line before the first instruction.
    line_no: usize,
}

/// Reader state of one resident warp.
struct WarpCursor {
    offset: u64,
    left: u64,
    line_no: usize,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    last_pc: u32,
    last_mask: u32,
    saw_exit: bool,
    done: bool,
}

/// Options for reading traces (`[trace]` config table).
#[derive(Clone, Copy, Debug)]
pub struct TraceOptions {
    /// Rn of an 8- or 16-byte memory op or of a DP op stands for Rn … Rn+w/4−1 (ignored for a
    /// rich-form trace, whose header says every register is listed).
    pub expand_wide_regs: bool,
    /// Treat `LDC` as an ALU instruction, as Accel-Sim does.
    pub ldc_as_alu: bool,
    /// Per-warp read buffer.
    pub reader_buffer_kb: u32,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            expand_wide_regs: true,
            ldc_as_alu: false,
            reader_buffer_kb: 64,
        }
    }
}

/// One kernel's trace, indexed and ready to stream warp by warp.
pub struct TraceKernel {
    path: PathBuf,
    shown: String,
    file: File,
    header: TraceHeader,
    opts: LineOptions,
    buffer_bytes: usize,
    /// (cta linear id, warp) → section.
    index: BTreeMap<(u32, u32), WarpIndex>,
    open: BTreeMap<u32, Vec<WarpCursor>>,
    warnings: Vec<String>,
    _spill: Option<PathBuf>,
}

impl TraceKernel {
    /// Opens and indexes a `.traceg` file (`.traceg.gz` is decompressed once to a spill file).
    pub fn open(path: &Path, topts: &TraceOptions) -> Result<TraceKernel, SimError> {
        let shown = path.display().to_string();
        let io = |e| SimError::Io {
            path: shown.clone(),
            source: e,
        };
        let (data_path, spill) = if path.extension().map(|e| e == "gz").unwrap_or(false) {
            let spill = std::env::temp_dir().join(format!(
                "gpuenergy-trace-{}-{}.traceg",
                std::process::id(),
                path.file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default()
            ));
            let mut dec = flate2::read::GzDecoder::new(File::open(path).map_err(io)?);
            let mut out = File::create(&spill).map_err(io)?;
            std::io::copy(&mut dec, &mut out).map_err(io)?;
            (spill.clone(), Some(spill))
        } else {
            (path.to_path_buf(), None)
        };
        let file = File::open(&data_path).map_err(io)?;
        let mut reader = BufReader::with_capacity(1 << 16, file.try_clone().map_err(io)?);
        let mut offset = 0u64;
        let (header, hlines) = read_header(&mut reader, &shown, &mut offset)?;
        let opts = LineOptions {
            tracer_version: header.tracer_version,
            expand_wide_regs: topts.expand_wide_regs && !header.explicit_regs,
            ldc_as_alu: topts.ldc_as_alu,
            shmem_base: header.shmem_base,
            local_base: header.local_base,
        };
        let mut scanner = BodyScanner::new(reader, &shown, hlines, offset, opts, false);
        let mut index = BTreeMap::new();
        let mut cur_cta = None;
        let mut scratch = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
        let info = header.info.clone();
        while let Some(ev) = scanner.next_event(&mut scratch)? {
            match ev {
                BodyEvent::CtaStart([x, y, z]) => {
                    let [gx, gy, gz] = info.grid;
                    if x >= gx || y >= gy || z >= gz {
                        return Err(SimError::Trace {
                            file: shown.clone(),
                            line: scanner.line_no(),
                            msg: format!(
                                "thread block {x},{y},{z} is outside the grid {gx},{gy},{gz}"
                            ),
                        });
                    }
                    cur_cta = Some(x + gx * (y + gy * z));
                }
                BodyEvent::Warp {
                    warp,
                    insts,
                    offset,
                } => {
                    let cta = cur_cta.unwrap_or(0);
                    if warp >= info.warps_per_cta() {
                        return Err(SimError::Trace {
                            file: shown.clone(),
                            line: scanner.line_no(),
                            msg: format!(
                                "warp {warp} does not exist in a CTA of {} threads",
                                info.threads_per_cta()
                            ),
                        });
                    }
                    index.insert(
                        (cta, warp),
                        WarpIndex {
                            offset,
                            insts,
                            line_no: scanner.line_no(),
                        },
                    );
                }
                BodyEvent::Inst => {}
                BodyEvent::CtaEnd => cur_cta = None,
            }
        }
        Ok(TraceKernel {
            path: path.to_path_buf(),
            shown,
            file,
            header,
            opts,
            buffer_bytes: (topts.reader_buffer_kb.max(1) as usize) * 1024,
            index,
            open: BTreeMap::new(),
            warnings: Vec::new(),
            _spill: spill,
        })
    }

    /// The parsed header of the kernel trace.
    pub fn header(&self) -> &TraceHeader {
        &self.header
    }

    /// Path of the `.traceg` file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Warnings raised while streaming (e.g. a warp whose trace lacks a final EXIT).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Total instruction lines in the trace.
    pub fn total_insts(&self) -> u64 {
        self.index.values().map(|w| w.insts).sum()
    }
}

impl Drop for TraceKernel {
    fn drop(&mut self) {
        if let Some(p) = &self._spill {
            let _ = std::fs::remove_file(p);
        }
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(not(unix))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    use std::io::{Seek, SeekFrom};
    let mut f = file.try_clone()?;
    f.seek(SeekFrom::Start(offset))?;
    f.read(buf)
}

impl WarpCursor {
    /// The byte range in `buf` of the next non-blank line (without its newline).
    fn next_line(&mut self, file: &File, shown: &str) -> Result<Option<(usize, usize)>, SimError> {
        loop {
            // Find a newline in the buffered bytes; refill when none.
            if let Some(nl) = self.buf[self.pos..self.len]
                .iter()
                .position(|&b| b == b'\n')
            {
                let start = self.pos;
                self.pos += nl + 1;
                self.line_no += 1;
                if self.buf[start..start + nl]
                    .iter()
                    .all(|b| b.is_ascii_whitespace())
                {
                    continue;
                }
                return Ok(Some((start, start + nl)));
            }
            // Move the partial line to the front and read more.
            self.buf.copy_within(self.pos..self.len, 0);
            self.len -= self.pos;
            self.pos = 0;
            if self.len == self.buf.len() {
                let newlen = self.buf.len() * 2;
                self.buf.resize(newlen, 0);
            }
            let n = read_at(file, &mut self.buf[self.len..], self.offset).map_err(|e| {
                SimError::Io {
                    path: shown.to_string(),
                    source: e,
                }
            })?;
            if n == 0 {
                if self.len > 0 {
                    // Last line without a trailing newline.
                    self.pos = self.len;
                    self.line_no += 1;
                    return Ok(Some((0, self.len)));
                }
                return Ok(None);
            }
            self.offset += n as u64;
            self.len += n;
        }
    }
}

impl KernelStream for TraceKernel {
    fn inst_bytes(&self) -> u32 {
        16
    }

    fn info(&self) -> &KernelInfo {
        &self.header.info
    }

    fn begin_cta(&mut self, cta: u32, _sm: u32, _first_warp_slot: u32) -> Result<(), SimError> {
        let nw = self.header.info.warps_per_cta();
        let mut cursors = Vec::with_capacity(nw as usize);
        for w in 0..nw {
            let idx = self.index.get(&(cta, w)).copied();
            let (offset, left, line_no) = match idx {
                Some(i) => (i.offset, i.insts, i.line_no),
                None => (0, 0, 0),
            };
            cursors.push(WarpCursor {
                offset,
                left,
                line_no,
                buf: if left > 0 {
                    vec![0; self.buffer_bytes.min(1 << 20)]
                } else {
                    Vec::new()
                },
                pos: 0,
                len: 0,
                last_pc: 0,
                last_mask: 0,
                saw_exit: idx.map(|i| i.insts == 0).unwrap_or(true), // nothing to end
                done: false,
            });
        }
        self.open.insert(cta, cursors);
        Ok(())
    }

    fn next_inst(
        &mut self,
        cta: u32,
        warp: u32,
        _cycle: u64,
        out: &mut WarpInst,
    ) -> Result<Step, SimError> {
        let shown = &self.shown;
        let cursors = self.open.get_mut(&cta).ok_or_else(|| {
            SimError::Other(format!(
                "{shown}: next_inst on CTA {cta}, which is not open"
            ))
        })?;
        let c = cursors.get_mut(warp as usize).ok_or_else(|| {
            SimError::Other(format!("{shown}: warp {warp} does not exist in CTA {cta}"))
        })?;
        if c.done {
            return Ok(Step::Done);
        }
        if c.left == 0 {
            c.done = true;
            if !c.saw_exit {
                // A warp ends at EXIT; append one and warn (spec §3.2.5).
                if self.warnings.len() < 100 {
                    self.warnings.push(format!(
                        "{shown}: warp {warp} of CTA {cta} does not end in EXIT; one was appended"
                    ));
                }
                *out = synthetic_exit(c.last_pc.wrapping_add(16), c.last_mask);
                return Ok(Step::Inst);
            }
            return Ok(Step::Done);
        }
        let opts = self.opts;
        let file = &self.file;
        let (a, b) = c.next_line(file, shown)?.ok_or_else(|| SimError::Trace {
            file: shown.clone(),
            line: 0,
            msg: format!("warp {warp} of CTA {cta}: trace ends early"),
        })?;
        let r = match std::str::from_utf8(&c.buf[a..b]) {
            Ok(line) => parse_line(line, &opts, out),
            Err(_) => Err("line is not valid UTF-8".to_string()),
        };
        if let Err(m) = r {
            return Err(SimError::Trace {
                file: shown.clone(),
                line: c.line_no,
                msg: m,
            });
        }
        c.left -= 1;
        c.last_pc = out.pc;
        c.last_mask = out.active_mask;
        // A predicated EXIT may end only some lanes; the warp ends with its last line.
        c.saw_exit = out.op == OpClass::Exit;
        Ok(Step::Inst)
    }

    fn end_cta(&mut self, cta: u32) -> Result<(), SimError> {
        self.open.remove(&cta);
        Ok(())
    }
}

/// Counts the instruction lines of a body read from any source, parsing every line; for
/// validation and for the streaming test. Returns (CTAs, warps, instructions).
pub fn scan_body<R: Read>(
    source: R,
    file: &str,
    opts: LineOptions,
) -> Result<(u64, u64, u64), SimError> {
    let reader = BufReader::with_capacity(1 << 16, source);
    let mut s = BodyScanner::new(reader, file, 0, 0, opts, true);
    let mut inst = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
    let (mut ctas, mut warps, mut insts) = (0, 0, 0);
    while let Some(ev) = s.next_event(&mut inst)? {
        match ev {
            BodyEvent::CtaStart(_) => ctas += 1,
            BodyEvent::Warp { .. } => warps += 1,
            BodyEvent::Inst => insts += 1,
            BodyEvent::CtaEnd => {}
        }
    }
    Ok((ctas, warps, insts))
}
