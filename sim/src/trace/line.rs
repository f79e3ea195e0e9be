//! One instruction line of a `.traceg` body (simulator §3.2.4): parsing into a
//! [`WarpInst`] without allocation, and formatting a `WarpInst` back into a line.

use super::sass::{classify, mem_width_from_opcode, sass_name};
use crate::inst::{
    Family, MemInfo, MemSpace, OpClass, Reg, WarpInst, MAX_DST, MAX_SRC, PRED_BASE, WARP_SIZE,
};
use std::fmt::Write as _;

/// Register number that stands for RZ (no access, no dependence).
pub const RZ: u16 = 255;

/// Address-compression modes of the memory part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrMode {
    /// Mode 0: every active lane's address is listed.
    ListAll = 0,
    /// Mode 1: a base address and one stride for the run of consecutive active lanes.
    BaseStride = 1,
    /// Mode 2: a base address, then the delta from the previous active lane for each further lane.
    BaseDelta = 2,
}

/// Which register convention a written trace follows.
///
/// - [`TraceForm::Stock`]: the NVBit tracer's own form, which the stock Accel-Sim trace parser
///   reads: at most one destination register (the first general register, i.e. the base register
///   of a wide destination), at most four source registers, only general registers `R<n>` (no
///   predicates), and a wide operand of an 8-/16-byte memory op or a DP op listed by its base
///   register alone. Readers recover the other registers of a wide operand from the opcode width
///   (see [`wide_group`]). Lossy: predicate dependences, the high halves of 64-bit integer
///   results (the opcode carries no width), further destinations and sources beyond four.
/// - [`TraceForm::Rich`]: gpuenergy's lossless form: every register is listed, predicates as
///   `P<n>`, up to [`MAX_DST`] destinations and [`MAX_SRC`] sources, and the header carries
///   `-gpuenergy explicit regs = 1` so that readers do not expand wide registers again.
///   `read(write(x)) == x` holds for this form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TraceForm {
    /// The stock NVBit-tracer form (the default of `gpuenergy trace`).
    #[default]
    Stock,
    /// gpuenergy's explicit-register form.
    Rich,
}

impl TraceForm {
    /// The form's command-line name: `stock` or `rich`.
    pub fn name(self) -> &'static str {
        match self {
            TraceForm::Stock => "stock",
            TraceForm::Rich => "rich",
        }
    }

    /// Parses a command-line name (`stock` or `rich`).
    pub fn from_name(s: &str) -> Option<TraceForm> {
        match s {
            "stock" => Some(TraceForm::Stock),
            "rich" => Some(TraceForm::Rich),
            _ => None,
        }
    }
}

/// Source registers a stock Accel-Sim parser accepts on one line (its `MAX_SRC`).
pub const STOCK_MAX_SRC: usize = 4;
/// Destination registers a stock Accel-Sim parser accepts on one line (its `MAX_DST`).
pub const STOCK_MAX_DST: usize = 1;

/// Registers per listed register of an instruction in a trace without explicit registers: a DP
/// op's `Rn` stands for the pair `Rn, Rn+1`; an 8- or 16-byte memory op's `Rn` stands for
/// `Rn … Rn+w/4−1` (`w` = bytes per thread from the opcode, [`mem_width_from_opcode`]); every
/// other register stands for itself. This is the rule of the SASS register file, where a 64- or
/// 128-bit operand occupies consecutive 32-bit registers named by the first one, and the NVBit
/// tracer reports only that first register.
///
/// `mem_width_bytes` is `Some` only for lines with a memory part (`mem_width > 0`).
pub fn wide_group(family: Family, mem_width_bytes: Option<u8>) -> u16 {
    if family == Family::Dp {
        return 2;
    }
    match mem_width_bytes {
        Some(w) if w >= 8 => u16::from(w) / 4,
        _ => 1,
    }
}

/// Options that change how lines are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOptions {
    /// Tracer version from the header; below 3 each line starts with 4 decimal fields to skip.
    pub tracer_version: u32,
    /// For 8-/16-byte memory ops and DP ops, `Rn` stands for `Rn … Rn+w/4−1`.
    pub expand_wide_regs: bool,
    /// Treat `LDC` as an ALU instruction.
    pub ldc_as_alu: bool,
    /// Shared-memory window base (generic `LD`/`ST` classification); 0 = unknown.
    pub shmem_base: u64,
    /// Local-memory window base; 0 = unknown.
    pub local_base: u64,
}

impl Default for LineOptions {
    fn default() -> Self {
        LineOptions {
            tracer_version: 3,
            expand_wide_regs: true,
            ldc_as_alu: false,
            shmem_base: 0,
            local_base: 0,
        }
    }
}

/// `R<n>` (0…255, R255 = RZ) or, in gpuenergy's own traces, a predicate `P<n>` (0…15).
fn parse_reg(tok: &str) -> Result<u16, String> {
    if let Some(p) = tok.strip_prefix('P') {
        return p
            .parse::<u16>()
            .ok()
            .filter(|&n| (n as usize) < crate::inst::PRED_REGS)
            .map(|n| PRED_BASE + n)
            .ok_or_else(|| format!("expected a predicate P0..P15, found '{tok}'"));
    }
    tok.strip_prefix('R')
        .and_then(|n| n.parse::<u16>().ok())
        .filter(|&n| n <= RZ)
        .ok_or_else(|| format!("expected a register R0..R255, found '{tok}'"))
}

fn parse_hex_u64(tok: &str) -> Result<u64, String> {
    let digits = tok.strip_prefix("0x").unwrap_or(tok);
    u64::from_str_radix(digits, 16).map_err(|_| format!("expected a hex address, found '{tok}'"))
}

/// Appends `reg … reg+group−1` (the exact inverse of the writer's folding; duplicates are kept,
/// as an instruction may name one register twice).
fn push_expanded(list: &mut [Reg], n: &mut u8, max: usize, reg: u16, group: u16) {
    for k in 0..group {
        let r = reg + k;
        if reg < RZ && r >= RZ {
            break; // a general-register group never runs into RZ or the predicates
        }
        if (*n as usize) < max {
            list[*n as usize] = r;
            *n += 1;
        }
    }
}

/// Parses one instruction line into `out`. Returns a message (without file/line, which the
/// caller adds) on malformed input.
pub fn parse_line(line: &str, opts: &LineOptions, out: &mut WarpInst) -> Result<(), String> {
    let mut toks = line.split_ascii_whitespace();
    let mut next = |what: &str| {
        toks.next()
            .ok_or_else(|| format!("line ends before {what}"))
    };
    if opts.tracer_version < 3 {
        for _ in 0..4 {
            let t = next("the thread-block/warp fields")?;
            t.parse::<u32>()
                .map_err(|_| format!("expected a decimal field, found '{t}'"))?;
        }
    }
    let pc_tok = next("the PC")?;
    let pc = u32::from_str_radix(pc_tok, 16).map_err(|_| format!("bad PC '{pc_tok}'"))?;
    let mask_tok = next("the active mask")?;
    if mask_tok.len() != 8 {
        return Err(format!("bad mask '{mask_tok}': expected 8 hex digits"));
    }
    let mask = u32::from_str_radix(mask_tok, 16).map_err(|_| format!("bad mask '{mask_tok}'"))?;
    let ndst_tok = next("dest_num")?;
    let ndst: usize = ndst_tok
        .parse()
        .map_err(|_| format!("bad dest_num '{ndst_tok}'"))?;
    if ndst > MAX_DST {
        return Err(format!("dest_num {ndst} exceeds {MAX_DST}"));
    }
    let mut dst_raw = [0u16; MAX_DST];
    for d in dst_raw.iter_mut().take(ndst) {
        *d = parse_reg(next("a destination register")?)?;
    }
    let opcode = next("the opcode")?;
    let cls = classify(opcode, opts.ldc_as_alu)
        .ok_or_else(|| format!("unknown SASS opcode '{opcode}'"))?;
    let nsrc_tok = next("src_num")?;
    let nsrc: usize = nsrc_tok
        .parse()
        .map_err(|_| format!("bad src_num '{nsrc_tok}'"))?;
    if nsrc > MAX_SRC {
        return Err(format!("src_num {nsrc} exceeds {MAX_SRC}"));
    }
    let mut src_raw = [0u16; MAX_SRC];
    for s in src_raw.iter_mut().take(nsrc) {
        *s = parse_reg(next("a source register")?)?;
    }
    let width_tok = next("mem_width")?;
    let width_field: u32 = width_tok
        .parse()
        .map_err(|_| format!("bad mem_width '{width_tok}'"))?;

    *out = WarpInst::new(pc, cls.family, cls.op, mask);
    let mut mem = None;
    if width_field > 0 {
        let width = mem_width_from_opcode(opcode);
        let mode_tok = next("the address compression mode")?;
        let mode = match mode_tok {
            "0" => AddrMode::ListAll,
            "1" => AddrMode::BaseStride,
            "2" => AddrMode::BaseDelta,
            _ => return Err(format!("unknown address compression mode '{mode_tok}'")),
        };
        let mut addrs = [0u64; WARP_SIZE];
        match mode {
            AddrMode::ListAll => {
                for (lane, a) in addrs.iter_mut().enumerate() {
                    if mask >> lane & 1 == 1 {
                        *a = parse_hex_u64(next("an address")?)?;
                    }
                }
            }
            AddrMode::BaseStride => {
                let base = parse_hex_u64(next("the base address")?)?;
                let st = next("the stride")?;
                let stride: i64 = st.parse().map_err(|_| format!("bad stride '{st}'"))?;
                let mut cur = base;
                let mut started = false;
                for (lane, a) in addrs.iter_mut().enumerate() {
                    if mask >> lane & 1 == 1 {
                        if started {
                            cur = cur.wrapping_add(stride as u64);
                        }
                        *a = cur;
                        started = true;
                    } else if started {
                        break;
                    }
                }
            }
            AddrMode::BaseDelta => {
                let mut prev = parse_hex_u64(next("the base address")?)?;
                let mut first = true;
                for (lane, a) in addrs.iter_mut().enumerate() {
                    if mask >> lane & 1 == 1 {
                        if !first {
                            // Readers tolerate a missing trailing delta.
                            let delta: i64 = match toks.next() {
                                Some(t) => t.parse().map_err(|_| format!("bad delta '{t}'"))?,
                                None => 0,
                            };
                            prev = prev.wrapping_add(delta as u64);
                        }
                        *a = prev;
                        first = false;
                    }
                }
            }
        }
        let space = match cls.space {
            Some(s) => Some(s),
            None if cls.generic => {
                let first = (0..WARP_SIZE)
                    .find(|&l| mask >> l & 1 == 1)
                    .map(|l| addrs[l]);
                let a = first.unwrap_or(0);
                // Shared if either window base is unknown (0), or the address is in its window.
                Some(
                    if opts.shmem_base == 0
                        || opts.local_base == 0
                        || (a >= opts.shmem_base && a < opts.local_base)
                    {
                        MemSpace::Shared
                    } else if a >= opts.local_base && a < opts.local_base + 16 * 1024 {
                        MemSpace::Local
                    } else {
                        MemSpace::Global
                    },
                )
            }
            None => None,
        };
        if let Some(space) = space {
            mem = Some(MemInfo {
                space,
                width_bytes: width,
                addrs,
            });
        }
    }
    if toks.next().is_some() {
        return Err("unexpected extra fields at the end of the line".into());
    }
    // The group follows the opcode text (an `LDC.64` read as an ALU op still names a pair).
    let group: u16 = if opts.expand_wide_regs {
        wide_group(
            cls.family,
            (width_field > 0).then(|| mem_width_from_opcode(opcode)),
        )
    } else {
        1
    };
    for &r in &dst_raw[..ndst] {
        if r >= PRED_BASE {
            push_expanded(&mut out.dst, &mut out.n_dst, MAX_DST, r, 1);
        } else if r != RZ {
            push_expanded(&mut out.dst, &mut out.n_dst, MAX_DST, r, group);
        }
    }
    for &r in &src_raw[..nsrc] {
        if r >= PRED_BASE {
            push_expanded(&mut out.src, &mut out.n_src, MAX_SRC, r, 1);
        } else if r != RZ {
            push_expanded(&mut out.src, &mut out.n_src, MAX_SRC, r, group);
        }
    }
    out.mem = mem;
    Ok(())
}

/// Writes a register list as `count R.. P..`: general registers as `R<n>` and predicates as
/// `P<n>` (the rich form). Accel-Sim's tracer lists no predicates; gpuenergy's rich traces do
/// (they are marked `-gpuenergy explicit regs = 1`, which also tells readers not to expand wide
/// registers), so a rich trace carries the same register dependences as the emulator's stream.
fn write_regs(buf: &mut String, regs: &[Reg]) {
    let listed = regs.iter().filter(|&&r| r != RZ);
    let _ = write!(buf, "{}", listed.clone().count());
    for &r in listed {
        if r >= PRED_BASE {
            let _ = write!(buf, " P{}", r - PRED_BASE);
        } else {
            let _ = write!(buf, " R{r}");
        }
    }
}

/// The registers a stock-form line lists for `regs` (at most `max` of them, in list order): only
/// general registers (predicates and RZ dropped), and, when each listed register stands for
/// `group` consecutive registers ([`wide_group`]), only those not already covered by an earlier
/// listed register: `R10 R12 R11 R13` of a DP op becomes `R10 R12`, which a reader expands back
/// to `R10 R11 R12 R13`. Returns the number written into `out`.
pub fn stock_regs(regs: &[Reg], group: u16, max: usize, out: &mut [Reg]) -> usize {
    let max = max.min(out.len());
    let mut n = 0usize;
    for &r in regs {
        if n == max {
            break;
        }
        if r >= RZ {
            continue; // RZ and predicates
        }
        let covered = out[..n].iter().any(|&b| r >= b && r < b + group);
        if !covered {
            out[n] = r;
            n += 1;
        }
    }
    n
}

/// Writes `count R..` for [`stock_regs`] of `regs`.
fn write_stock_regs(buf: &mut String, regs: &[Reg], group: u16, max: usize) {
    let mut listed = [0 as Reg; MAX_SRC];
    let n = stock_regs(regs, group, max, &mut listed);
    let _ = write!(buf, "{n}");
    for r in &listed[..n] {
        let _ = write!(buf, " R{r}");
    }
}

/// Formats `inst` as a rich-form trace line (tracer version 3, every register listed); see
/// [`format_line_as`].
pub fn format_line(inst: &WarpInst, buf: &mut String) {
    format_line_as(inst, TraceForm::Rich, buf)
}

/// Formats `inst` as a trace line of `form` (tracer version 3), choosing address compression per
/// §3.2.4: base_stride when the active lanes are one contiguous run of ≥ 2 lanes with a constant
/// i32 difference, base_delta otherwise. The stock form lists registers per [`stock_regs`]: one
/// destination at most, four sources at most.
pub fn format_line_as(inst: &WarpInst, form: TraceForm, buf: &mut String) {
    buf.clear();
    let space = inst.mem.map(|m| m.space);
    let width = inst.mem.map(|m| m.width_bytes).unwrap_or(4);
    let name = sass_name(inst.family, inst.op, space, width);
    let _ = write!(buf, "{:04x} {:08x} ", inst.pc, inst.active_mask);
    match form {
        TraceForm::Rich => {
            write_regs(buf, inst.dsts());
            let _ = write!(buf, " {name} ");
            write_regs(buf, inst.srcs());
        }
        TraceForm::Stock => {
            // The group a reader will apply, from the opcode text it will see.
            let group = wide_group(inst.family, inst.mem.map(|_| mem_width_from_opcode(&name)));
            write_stock_regs(buf, inst.dsts(), group, STOCK_MAX_DST);
            let _ = write!(buf, " {name} ");
            write_stock_regs(buf, inst.srcs(), group, STOCK_MAX_SRC);
        }
    }
    match inst.mem {
        None => buf.push_str(" 0"),
        Some(m) => {
            let _ = write!(buf, " {}", m.width_bytes);
            let mask = inst.active_mask;
            let lanes: Vec<usize> = (0..WARP_SIZE).filter(|&l| mask >> l & 1 == 1).collect();
            if lanes.is_empty() {
                // No active lane: base_delta with base 0 and no deltas.
                buf.push_str(" 2 0x0000000000000000");
                return;
            }
            let contiguous = lanes.len() >= 2 && lanes.windows(2).all(|w| w[1] == w[0] + 1);
            let stride =
                m.addrs[lanes[1.min(lanes.len() - 1)]].wrapping_sub(m.addrs[lanes[0]]) as i64;
            let const_stride = contiguous
                && i32::try_from(stride).is_ok()
                && lanes
                    .windows(2)
                    .all(|w| m.addrs[w[1]].wrapping_sub(m.addrs[w[0]]) as i64 == stride);
            if const_stride {
                let _ = write!(buf, " 1 0x{:016x} {}", m.addrs[lanes[0]], stride);
            } else {
                let _ = write!(buf, " 2 0x{:016x}", m.addrs[lanes[0]]);
                for w in lanes.windows(2) {
                    let d = m.addrs[w[1]].wrapping_sub(m.addrs[w[0]]) as i64;
                    let _ = write!(buf, " {d}");
                }
            }
        }
    }
}

/// A synthetic `EXIT` appended to a warp whose trace does not end in one (spec §3.2.5).
pub fn synthetic_exit(pc: u32, mask: u32) -> WarpInst {
    WarpInst::new(pc, Family::Ctrl, OpClass::Exit, mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<WarpInst, String> {
        let mut w = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
        parse_line(s, &LineOptions::default(), &mut w).map(|_| w)
    }

    #[test]
    fn parses_alu_line() {
        let w = parse("0010 ffffffff 1 R4 IMAD.MOV.U32 2 R255 R2 0").unwrap();
        assert_eq!(w.pc, 0x10);
        assert_eq!((w.family, w.op), (Family::Int, OpClass::Add));
        assert_eq!(w.dsts(), &[4]);
        assert_eq!(w.srcs(), &[2]); // RZ dropped
        assert!(w.mem.is_none());
    }

    #[test]
    fn parses_every_compression_mode() {
        let w = parse("0020 0000000f 1 R6 LDG.E 1 R2 4 1 0x1000 4").unwrap();
        let m = w.mem.unwrap();
        assert_eq!(&m.addrs[..5], &[0x1000, 0x1004, 0x1008, 0x100c, 0]);
        let w = parse("0020 00000005 1 R6 LDG.E 1 R2 4 2 0x2000 -8").unwrap();
        let m = w.mem.unwrap();
        assert_eq!(&m.addrs[..3], &[0x2000, 0, 0x1ff8]);
        let w = parse("0020 00000003 1 R6 LDS 1 R2 4 0 0x10 0x20").unwrap();
        assert_eq!(&w.mem.unwrap().addrs[..2], &[0x10, 0x20]);
        // Missing trailing delta tolerated.
        let w = parse("0020 00000007 0 STG.E 2 R2 R4 4 2 0x100 4").unwrap();
        assert_eq!(&w.mem.unwrap().addrs[..3], &[0x100, 0x104, 0x104]);
        // Base-stride decoding stops at the first inactive lane.
        let w = parse("0020 0000000b 1 R6 LDG.E 1 R2 4 1 0x1000 4").unwrap();
        assert_eq!(&w.mem.unwrap().addrs[..4], &[0x1000, 0x1004, 0, 0]);
    }

    #[test]
    fn wide_registers_expand() {
        let w = parse("0030 ffffffff 1 R8 LDG.E.64 1 R2 8 1 0x0 8").unwrap();
        assert_eq!(w.dsts(), &[8, 9]);
        assert_eq!(w.srcs(), &[2, 3]);
        let w = parse("0030 ffffffff 1 R8 DADD 2 R2 R4 0").unwrap();
        assert_eq!(w.dsts(), &[8, 9]);
        assert_eq!(w.srcs(), &[2, 3, 4, 5]);
    }

    #[test]
    fn rejects_malformed_lines() {
        assert!(parse("0010 fffffff 0 NOP 0 0")
            .unwrap_err()
            .contains("mask"));
        assert!(parse("0010 ffffffff 0 FROB 0 0")
            .unwrap_err()
            .contains("unknown SASS"));
        assert!(parse("0010 ffffffff 0 LDG.E 1 R2 4 7 0x0")
            .unwrap_err()
            .contains("compression mode"));
        assert!(parse("0010 ffffffff 1").unwrap_err().contains("line ends"));
        assert!(parse("0010 ffffffff 0 NOP 0 0 junk").is_err());
    }

    #[test]
    fn old_tracer_versions_skip_four_fields() {
        let opts = LineOptions {
            tracer_version: 2,
            ..LineOptions::default()
        };
        let mut w = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
        parse_line("0 0 0 1 0010 ffffffff 0 EXIT 0 0", &opts, &mut w).unwrap();
        assert_eq!(w.op, OpClass::Exit);
    }

    #[test]
    fn format_then_parse_round_trips() {
        let explicit = LineOptions {
            expand_wide_regs: false,
            ..LineOptions::default()
        };
        let parse = |s: &str| {
            let mut w = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
            parse_line(s, &explicit, &mut w).map(|_| w)
        };
        let mut buf = String::new();
        let mut i = WarpInst::new(0x40, Family::Mem, OpClass::Load, 0x0000_ff0f);
        i.n_dst = 2;
        i.dst[..2].copy_from_slice(&[10, 11]);
        i.n_src = 2;
        i.src[..2].copy_from_slice(&[2, 3]);
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            if i.active_mask >> l & 1 == 1 {
                *a = (0x7000_0000 + (l as u64 * 8)) ^ 0x40;
            }
        }
        i.mem = Some(MemInfo {
            space: MemSpace::Global,
            width_bytes: 8,
            addrs,
        });
        format_line(&i, &mut buf);
        assert_eq!(parse(&buf).unwrap(), i, "{buf}");
        // Contiguous, constant stride: base_stride.
        let mut j = i;
        j.active_mask = 0xffff_ffff;
        let mut a2 = [0u64; 32];
        for (l, a) in a2.iter_mut().enumerate() {
            *a = 0x1000 + 8 * l as u64;
        }
        j.mem = Some(MemInfo {
            addrs: a2,
            ..i.mem.unwrap()
        });
        format_line(&j, &mut buf);
        assert!(buf.ends_with(" 8 1 0x0000000000001000 8"), "{buf}");
        assert_eq!(parse(&buf).unwrap(), j);
    }

    #[test]
    fn stock_form_lists_base_registers_only() {
        let mut buf = String::new();
        // DP add: pairs (8,9) ← (10,11) + (12,13), emulator order lows first, then highs.
        let mut d = WarpInst::new(0x10, Family::Dp, OpClass::Add, u32::MAX);
        d.n_dst = 2;
        d.dst[..2].copy_from_slice(&[8, 9]);
        d.n_src = 5;
        d.src[..5].copy_from_slice(&[10, 12, 11, 13, PRED_BASE + 1]);
        format_line_as(&d, TraceForm::Stock, &mut buf);
        assert_eq!(buf, "0010 ffffffff 1 R8 DADD 2 R10 R12 0");
        let back = parse(&buf).unwrap();
        assert_eq!(back.dsts(), &[8, 9]);
        assert_eq!(back.srcs(), &[10, 11, 12, 13]);
        // Compare to a predicate: no destination is listed; a predicate source is dropped.
        let mut c = WarpInst::new(0x20, Family::Int, OpClass::Setp, u32::MAX);
        c.n_dst = 1;
        c.dst[0] = PRED_BASE + 2;
        c.n_src = 3;
        c.src[..3].copy_from_slice(&[4, 5, PRED_BASE]);
        format_line_as(&c, TraceForm::Stock, &mut buf);
        assert_eq!(buf, "0020 ffffffff 0 ISETP.GE.AND 2 R4 R5 0");
        // A 4-byte load through a 64-bit address: no expansion, both address halves listed.
        let mut l = WarpInst::new(0x30, Family::Mem, OpClass::Load, 1);
        l.n_dst = 1;
        l.dst[0] = 6;
        l.n_src = 2;
        l.src[..2].copy_from_slice(&[2, 3]);
        l.mem = Some(MemInfo {
            space: MemSpace::Global,
            width_bytes: 4,
            addrs: [0x100; 32],
        });
        format_line_as(&l, TraceForm::Stock, &mut buf);
        assert_eq!(
            buf,
            "0030 00000001 1 R6 LDG.E 2 R2 R3 4 2 0x0000000000000100"
        );
        assert_eq!(parse(&buf).unwrap().srcs(), &[2, 3]);
        // A 16-byte load: one destination, R20 standing for R20..R23.
        l.n_dst = 4;
        l.dst[..4].copy_from_slice(&[20, 21, 22, 23]);
        l.mem = Some(MemInfo {
            width_bytes: 16,
            ..l.mem.unwrap()
        });
        format_line_as(&l, TraceForm::Stock, &mut buf);
        assert!(
            buf.starts_with("0030 00000001 1 R20 LDG.E.128 1 R2 16 "),
            "{buf}"
        );
        assert_eq!(parse(&buf).unwrap().dsts(), &[20, 21, 22, 23]);
        // More than four sources: the first four are kept.
        let mut f = WarpInst::new(0x40, Family::Int, OpClass::Mad, u32::MAX);
        f.n_src = 5;
        f.src[..5].copy_from_slice(&[1, 2, 3, 4, 5]);
        format_line_as(&f, TraceForm::Stock, &mut buf);
        assert_eq!(buf, "0040 ffffffff 0 IMAD 4 R1 R2 R3 R4 0");
    }

    #[test]
    fn ldc_width_expands_even_as_an_alu_op() {
        let opts = LineOptions {
            ldc_as_alu: true,
            ..LineOptions::default()
        };
        let mut w = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
        parse_line("0010 ffffffff 1 R2 LDC.64 1 R4 8 1 0x10 0", &opts, &mut w).unwrap();
        assert_eq!(w.family, Family::Int);
        assert_eq!(w.dsts(), &[2, 3]);
    }
}
