//! SASS opcode classification (simulator §3.2.5) and the PTX-class → SASS name mapping used
//! by the trace writer.
//!
//! The classification key is the *base* mnemonic, the text before the first `.`; a few classes need
//! the first modifier (`MUFU.<sub>`, `IMAD.MOV`, `IMAD.IADD`). An unknown base is an error.
//!
//! Two mnemonics are gpuenergy extensions with no SASS counterpart: `MUFU.DIV`, which the writer
//! emits for PTX `div`/`rem` (they run on the SFU, §1.2), and `HMMA.161616`, which it emits for a
//! 16×16×16 `wmma.mma` (one warp instruction of 4096 multiply-accumulates, several HMMAs in
//! real SASS), so that a written trace reads back as the same instruction class.

use crate::inst::{Family, MemSpace, OpClass};

/// What a SASS opcode is, for the timing model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SassClass {
    /// Pipeline family.
    pub family: Family,
    /// Operation class within the family.
    pub op: OpClass,
    /// Memory space for data-accessing memory instructions; `None` for everything else and for
    /// generic `LD`/`ST`, whose space is decided from the first active address.
    pub space: Option<MemSpace>,
    /// True for generic `LD`/`ST` (space from the address windows of the header).
    pub generic: bool,
}

const fn c(family: Family, op: OpClass) -> SassClass {
    SassClass {
        family,
        op,
        space: None,
        generic: false,
    }
}

const fn m(op: OpClass, space: MemSpace) -> SassClass {
    SassClass {
        family: Family::Mem,
        op,
        space: Some(space),
        generic: false,
    }
}

/// Classifies a full SASS opcode such as `IMAD.MOV.U32` or `LDG.E.64`.
/// `ldc_as_alu` treats `LDC` as an ALU instruction (Accel-Sim's behaviour, `trace.ldc_as_alu`).
pub fn classify(opcode: &str, ldc_as_alu: bool) -> Option<SassClass> {
    use Family::*;
    use OpClass::*;
    let mut parts = opcode.split('.');
    let base = parts.next().unwrap_or("");
    let first_mod = parts.next().unwrap_or("");
    let cls = match base {
        // FP32 (and FP16 pairs, whose II is halved by the timing model).
        "FADD" | "FADD32I" | "HADD2" | "FSWZADD" | "FSWZ" | "RRO" | "FCHK" => c(Fp, Add),
        "FFMA" | "FFMA32I" | "HFMA2" => c(Fp, Mad),
        "FMUL" | "FMUL32I" | "HMUL2" => c(Fp, Mul),
        "FMNMX" => c(Fp, Max),
        "FSET" | "FSETP" | "FCMP" | "HSET2" | "HSETP2" => c(Fp, Setp),
        "FSEL" => c(Fp, Mov),
        "F2F" | "F2I" | "I2F" | "I2I" | "I2IP" | "FRND" => c(Fp, Cvt),
        // Integer.
        "IMAD" if first_mod.starts_with("MOV") || first_mod.starts_with("IADD") => c(Int, Add),
        "IMAD" | "IMADSP" | "XMAD" | "IDP" | "IDP4A" => c(Int, Mad),
        "IADD" | "IADD3" | "IADD32I" | "ISUB" | "ISCADD" | "ISCADD32I" | "LEA" | "IABS"
        | "ISAD" | "VADD" | "VABSDIFF" | "VABSDIFF4" => c(Int, Add),
        "IMUL" | "IMUL32I" => c(Int, Mul),
        "IMNMX" | "VMNMX" => c(Int, Max),
        "ISETP" | "ISET" | "ICMP" => c(Int, Setp),
        "LOP" | "LOP3" | "LOP32I" | "POPC" | "FLO" | "BFE" | "BFI" | "BREV" | "BMSK" | "SHF"
        | "SHL" | "SHR" => c(Int, Logic),
        // ALU group: INT pipe, integer latency.
        "SHFL" => c(Int, Shfl),
        "MOV" | "MOV32I" | "SEL" | "PRMT" | "SGXT" | "P2R" | "R2P" | "PLOP3" | "PSETP" | "PSET"
        | "CSET" | "CSETP" | "S2R" | "CS2R" | "B2R" | "R2B" | "VOTE" | "MATCH" | "GETLMEMBASE"
        | "SETLMEMBASE" | "LEPC" | "SETCTAID" | "TEX" | "TLD" | "TLD4" | "TMML" | "TXD" | "TXQ" => {
            c(Int, Mov)
        }
        "NOP" | "DEPBAR" | "CCTL" | "CCTLL" | "ERRBAR" | "PMTRIG" => c(Int, Nop),
        // SFU.
        "MUFU" => {
            let op = match first_mod {
                "RCP" | "RCP64H" => Rcp,
                "RSQ" | "RSQ64H" => Rsqrt,
                "SIN" => Sin,
                "COS" => Cos,
                "EX2" => Ex2,
                "LG2" => Lg2,
                "SQRT" => Sqrt,
                "DIV" => Div,
                _ => return None,
            };
            c(Sfu, op)
        }
        // Double precision.
        "DADD" => c(Dp, Add),
        "DFMA" => c(Dp, Mad),
        "DMUL" => c(Dp, Mul),
        "DMNMX" => c(Dp, Max),
        "DSETP" | "DSET" => c(Dp, Setp),
        // Memory.
        "LDG" => m(Load, MemSpace::Global),
        "LDL" => m(Load, MemSpace::Local),
        "LDS" => m(Load, MemSpace::Shared),
        "LDC" if ldc_as_alu => c(Int, Mov),
        "LDC" => m(Load, MemSpace::Const),
        "STG" => m(Store, MemSpace::Global),
        "STL" => m(Store, MemSpace::Local),
        "STS" => m(Store, MemSpace::Shared),
        "ATOM" | "ATOMG" => m(Atomic, MemSpace::Global),
        "ATOMS" => m(Atomic, MemSpace::Shared),
        "RED" => m(Reduction, MemSpace::Global),
        "LD" | "ST" => SassClass {
            family: Mem,
            op: if base == "LD" { Load } else { Store },
            space: None,
            generic: true,
        },
        "MEMBAR" => c(Mem, Membar),
        // Control.
        "EXIT" | "RET" | "KILL" => c(Ctrl, Exit),
        "BRA" | "BRX" | "JMP" | "JMX" | "SSY" | "SYNC" | "BSSY" | "BSYNC" | "BREAK" | "BRK"
        | "PBK" | "CONT" | "PCNT" | "CAL" | "JCAL" | "CALL" | "PRET" | "RTT" => c(Ctrl, Branch),
        "WARPSYNC" | "YIELD" | "BPT" | "NANOSLEEP" => c(Ctrl, Nop),
        "BAR" => c(Bar, Barrier),
        // Tensor cores: the shape modifier gives the multiply-accumulates (m16n8k8: 1024,
        // m16n8k16: 2048; `161616`, the writer's name for a 16×16×16 product, 4096), a `BF16`
        // modifier bf16 inputs (else f16). Volta's HMMA.884 steps are not classified.
        "HMMA" => {
            let macs = match first_mod {
                "1688" => 1024,
                "16816" => 2048,
                "161616" => 4096,
                _ => return None,
            };
            let bf16 = opcode.split('.').any(|p| p == "BF16");
            c(Tensor, OpClass::of_mma(macs, bf16)?)
        }
        _ => return None,
    };
    Some(cls)
}

/// Bytes per thread of a memory opcode, recomputed from the opcode text (spec §3.2.4 item 6): the
/// first all-digit token n gives n/8, a `U<n>`/`S<n>` token gives n/8, the default is 4.
pub fn mem_width_from_opcode(opcode: &str) -> u8 {
    for tok in opcode.split('.').skip(1) {
        if !tok.is_empty() && tok.bytes().all(|b| b.is_ascii_digit()) {
            if let Ok(n) = tok.parse::<u32>() {
                if n >= 8 {
                    return (n / 8).min(255) as u8;
                }
            }
        }
        if let Some(rest) = tok.strip_prefix('U').or_else(|| tok.strip_prefix('S')) {
            if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
                if let Ok(n) = rest.parse::<u32>() {
                    if n >= 8 {
                        return (n / 8).min(255) as u8;
                    }
                }
            }
        }
    }
    4
}

fn width_suffix(width: u8) -> &'static str {
    match width {
        1 => ".U8",
        2 => ".U16",
        8 => ".64",
        16 => ".128",
        _ => "",
    }
}

/// The SASS mnemonic the writer emits for an instruction class (spec §3.2.5 "Writer").
/// Every name returned classifies back to the same `(family, op)` (and memory space, with
/// `Param` written as a constant load) — a unit test checks this for every class.
pub fn sass_name(family: Family, op: OpClass, space: Option<MemSpace>, width: u8) -> String {
    use Family::*;
    use OpClass::*;
    let s: &str = match (family, op) {
        (Fp, Add) => "FADD",
        (Fp, Mad) => "FFMA",
        (Fp, Mul) => "FMUL",
        (Fp, Max) => "FMNMX",
        (Fp, Setp) => "FSETP.GE.AND",
        (Fp, Cvt) => "F2F.F32",
        (Int, Add) => "IADD",
        (Int, Mad) => "IMAD",
        (Int, Mul) => "IMUL",
        (Int, Max) => "IMNMX",
        (Int, Setp) => "ISETP.GE.AND",
        (Int, Logic) => "LOP.AND",
        (Int, Shfl) => "SHFL.IDX",
        (Int, Cvt) => "I2I.S32.S32",
        (Int, Nop) => "NOP",
        (Sfu, Sin) => "MUFU.SIN",
        (Sfu, Cos) => "MUFU.COS",
        (Sfu, Ex2) => "MUFU.EX2",
        (Sfu, Lg2) => "MUFU.LG2",
        (Sfu, Rsqrt) => "MUFU.RSQ",
        (Sfu, Rcp) => "MUFU.RCP",
        (Sfu, Sqrt) => "MUFU.SQRT",
        (Sfu, Div) => "MUFU.DIV",
        (Dp, Add) => "DADD",
        (Dp, Mad) => "DFMA",
        (Dp, Mul) => "DMUL",
        (Dp, Max) => "DMNMX",
        (Dp, Setp) => "DSETP.GE.AND",
        (Mem, Membar) => "MEMBAR.CTA",
        (Ctrl, Exit) => "EXIT",
        (Ctrl, Nop) => "WARPSYNC",
        (Bar, _) => "BAR.SYNC",
        (Tensor, MmaF16Macs1024) => "HMMA.1688.F32",
        (Tensor, MmaF16Macs2048) => "HMMA.16816.F32",
        (Tensor, MmaBf16Macs1024) => "HMMA.1688.F32.BF16",
        (Tensor, MmaBf16Macs2048) => "HMMA.16816.F32.BF16",
        (Tensor, MmaBf16Macs4096) => "HMMA.161616.F32.BF16",
        (Tensor, _) => "HMMA.161616.F32",
        (Ctrl, _) => "BRA",
        (Mem, Load) => {
            return match space {
                Some(MemSpace::Shared) => format!("LDS{}", width_suffix(width)),
                Some(MemSpace::Local) => format!("LDL{}", width_suffix(width)),
                Some(MemSpace::Const) | Some(MemSpace::Param) => {
                    format!("LDC{}", width_suffix(width))
                }
                _ => format!("LDG.E{}", width_suffix(width)),
            }
        }
        (Mem, Store) => {
            return match space {
                Some(MemSpace::Shared) => format!("STS{}", width_suffix(width)),
                Some(MemSpace::Local) => format!("STL{}", width_suffix(width)),
                _ => format!("STG.E{}", width_suffix(width)),
            }
        }
        (Mem, Atomic) => {
            return match space {
                Some(MemSpace::Shared) => format!("ATOMS.ADD{}", width_suffix(width)),
                _ => format!("ATOMG.E.ADD{}", width_suffix(width)),
            }
        }
        (Mem, _) => return format!("RED.E.ADD{}", width_suffix(width)),
        // Moves, selects and anything else without its own SASS form.
        (Fp, _) => "FSEL",
        (Dp, _) => "DADD",
        (Sfu, _) => "MUFU.RCP",
        (Int, _) => "MOV",
    };
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Family::*;
    use OpClass::*;

    #[test]
    fn classifies_examples_from_the_spec() {
        let k = |s| classify(s, false).map(|c| (c.family, c.op));
        assert_eq!(k("IMAD.MOV.U32"), Some((Int, Add)));
        assert_eq!(k("IMAD.WIDE"), Some((Int, Mad)));
        assert_eq!(k("LDG.E.64").map(|x| x.1), Some(Load));
        assert_eq!(k("MUFU.RSQ"), Some((Sfu, Rsqrt)));
        assert_eq!(k("F2I.TRUNC"), Some((Fp, Cvt)));
        assert_eq!(k("BAR.SYNC"), Some((Bar, Barrier)));
        assert_eq!(k("FOOBAR"), None);
        assert_eq!(k("MUFU.XYZ"), None);
        assert_eq!(classify("LDC", true).map(|c| c.family), Some(Int));
        assert_eq!(
            classify("LDC", false).and_then(|c| c.space),
            Some(MemSpace::Const)
        );
        assert!(classify("LD.E", false).unwrap().generic);
    }

    #[test]
    fn widths_from_opcode() {
        assert_eq!(mem_width_from_opcode("LDG.E.64"), 8);
        assert_eq!(mem_width_from_opcode("LDG.E.128.SYS"), 16);
        assert_eq!(mem_width_from_opcode("LDS.U8"), 1);
        assert_eq!(mem_width_from_opcode("STS.S16"), 2);
        assert_eq!(mem_width_from_opcode("STG.E"), 4);
    }

    #[test]
    fn hmma_classifies_by_shape_and_input_type() {
        let k = |s: &str| classify(s, false).map(|c| (c.family, c.op));
        assert_eq!(k("HMMA.16816.F32"), Some((Tensor, MmaF16Macs2048)));
        assert_eq!(k("HMMA.16816.F32.BF16"), Some((Tensor, MmaBf16Macs2048)));
        assert_eq!(k("HMMA.1688.F16"), Some((Tensor, MmaF16Macs1024)));
        assert_eq!(k("HMMA.161616.F32"), Some((Tensor, MmaF16Macs4096)));
        // Volta's m8n8k4 steps are not classified
        assert_eq!(k("HMMA.884.F32.F32.STEP0"), None);
    }

    #[test]
    fn writer_names_classify_back() {
        let ops = crate::inst::ALL_OPS;
        let fams = [Int, Fp, Dp, Sfu, Mem, Ctrl, Bar, Tensor];
        // The combinations the PTX front end produces (spec §3.1.4).
        let produced = |f: Family, o: OpClass| match f {
            // Integer↔integer `cvt` is written as I2I, which the spec classifies as FP: the
            // trace format cannot tell the two apart, so it is not required to round-trip.
            Int => matches!(o, Add | Max | Mul | Mad | Shfl | Mov | Logic | Setp | Nop),
            Fp => matches!(o, Add | Max | Mul | Mad | Cvt | Mov | Setp),
            Dp => matches!(o, Add | Max | Mul | Mad | Setp),
            Sfu => matches!(o, Div | Sin | Cos | Ex2 | Lg2 | Rsqrt | Rcp | Sqrt),
            Mem => matches!(o, Load | Store | Atomic | Reduction | Membar),
            Ctrl => matches!(o, Branch | Exit | Nop),
            Bar => o == Barrier,
            Tensor => o.mma().is_some(),
        };
        for f in fams {
            for o in ops {
                if !produced(f, o) {
                    continue;
                }
                for space in [MemSpace::Global, MemSpace::Shared, MemSpace::Local] {
                    for w in [1u8, 2, 4, 8, 16] {
                        let name = sass_name(f, o, Some(space), w);
                        let cls = classify(&name, false).unwrap_or_else(|| panic!("{name}"));
                        assert_eq!((cls.family, cls.op), (f, o), "{name}");
                        if cls.space.is_some() && o != Membar {
                            assert_eq!(mem_width_from_opcode(&name), w, "{name}");
                            if o == Load || o == Store {
                                assert_eq!(cls.space, Some(space), "{name}");
                            }
                        }
                    }
                }
            }
        }
    }
}
