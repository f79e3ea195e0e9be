//! Parsers for the structured GPGPU-Sim option values: cache geometry strings, DRAM timing,
//! the DRAM address map, clock domains and the warp scheduler.
//!
//! Each parser checks the value against what the gpuenergy schema can represent and refuses,
//! naming the allowed values, what it cannot honour (a write-evict cache, an XOR set index, a
//! round-robin-over-all-warps scheduler, …).

use super::options::{bad_value, parse_uint, OptionValue};
use crate::config::{
    AllocPolicy, CacheConfig, DramTiming, InnerPolicy, Replacement, SchedPolicy, SetIndex,
    WriteAlloc, WritePolicy,
};
use crate::SimError;

/// Sector size of a GPGPU-Sim sector cache (`S` type): fixed at 32 B, four per 128-B line.
pub const SECTOR_BYTES: u32 = 32;

/// A parsed GPGPU-Sim cache string
/// `<type>:<sets>:<line>:<assoc>,<repl>:<write>:<alloc>:<write alloc>:<set index>,
/// <mshr type>:<entries>:<merge>,<miss queue>[:<fifo>][,<port width>]`.
#[derive(Clone, Debug, PartialEq)]
pub struct CacheString {
    /// The geometry and policies in schema terms (latency and banks are not part of the string
    /// and keep the base value).
    pub cache: CacheConfig,
    /// Sub-fields the schema has no key for: `(name, value)`.
    pub unmodelled: Vec<(String, String)>,
}

fn letter(field: &str) -> Option<char> {
    let mut c = field.chars();
    let l = c.next()?;
    c.next().is_none().then_some(l)
}

/// Parses a cache string onto `base` (whose `latency` and `banks` are kept).
pub fn cache_string(opt: &OptionValue, base: &CacheConfig) -> Result<CacheString, SimError> {
    const FORMAT: &str = "<N|S>:<sets>:<line bytes>:<assoc>,<L|F>:<R|B|T|L>:<m|f|s>:<N|W|F|L>:\
                          <L|H|P>,<A|S|F|T>:<mshr entries>:<merge>,<miss queue>[:<fifo>][,<port bytes>]";
    let v = opt.value.trim();
    if v == "none" {
        return Err(bad_value(
            opt,
            "a disabled cache is not modelled (every SM has this cache)",
            FORMAT,
        ));
    }
    let groups: Vec<&str> = v.split(',').collect();
    if groups.len() < 4 || groups.len() > 5 {
        return Err(bad_value(opt, "malformed cache string", FORMAT));
    }
    let g0: Vec<&str> = groups[0].split(':').collect();
    let g1: Vec<&str> = groups[1].split(':').collect();
    let g2: Vec<&str> = groups[2].split(':').collect();
    let g3: Vec<&str> = groups[3].split(':').collect();
    let num = |s: &str| parse_uint(s).and_then(|x| u32::try_from(x).ok());
    let malformed = || bad_value(opt, "malformed cache string", FORMAT);
    if g0.len() != 4 || g1.len() != 5 || g2.len() != 3 || g3.is_empty() || g3.len() > 2 {
        return Err(malformed());
    }
    let (Some(sets), Some(line), Some(assoc)) = (num(g0[1]), num(g0[2]), num(g0[3])) else {
        return Err(malformed());
    };
    let (Some(mshr), Some(merge), Some(missq)) = (num(g2[1]), num(g2[2]), num(g3[0])) else {
        return Err(malformed());
    };
    let sector_bytes = match letter(g0[0]) {
        Some('N') => line,
        Some('S') => {
            if line != 4 * SECTOR_BYTES {
                return Err(bad_value(
                    opt,
                    "a sector cache has four 32-byte sectors per line",
                    "line size 128 with type S",
                ));
            }
            SECTOR_BYTES
        }
        _ => {
            return Err(bad_value(
                opt,
                "unknown cache type",
                "N (normal), S (sector)",
            ))
        }
    };
    let replacement = match letter(g1[0]) {
        Some('L') => Replacement::Lru,
        Some('F') => Replacement::Fifo,
        _ => {
            return Err(bad_value(
                opt,
                "replacement policy not modelled",
                "L (LRU), F (FIFO)",
            ))
        }
    };
    let write_policy = match letter(g1[1]) {
        Some('R') => WritePolicy::Ro,
        Some('B') => WritePolicy::Wb,
        Some('T') => WritePolicy::Wt,
        Some('L') => WritePolicy::LocalWbGlobalWt,
        _ => {
            return Err(bad_value(
                opt,
                "write policy not modelled",
                "R (read-only), B (write-back), T (write-through), L (local write-back, global write-through)",
            ))
        }
    };
    let alloc = match letter(g1[2]) {
        Some('m') => AllocPolicy::OnMiss,
        Some('f') => AllocPolicy::OnFill,
        Some('s') => AllocPolicy::Streaming,
        _ => {
            return Err(bad_value(
                opt,
                "allocation policy not modelled",
                "m (on miss), f (on fill), s (streaming)",
            ))
        }
    };
    // `W` (GPGPU-Sim 3.x write-allocate: write plus a read of the line) and `F` (fetch on
    // write) both fetch the line on a write miss: the schema's `allocate`.
    let write_alloc = match letter(g1[3]) {
        Some('N') => WriteAlloc::None,
        Some('W') | Some('F') => WriteAlloc::Allocate,
        Some('L') => WriteAlloc::LazyFetchOnRead,
        _ => {
            return Err(bad_value(
                opt,
                "write-allocate policy not modelled",
                "N (none), W or F (allocate and fetch), L (lazy fetch on read)",
            ))
        }
    };
    let set_index = match letter(g1[4]) {
        Some('L') => SetIndex::Linear,
        Some('H') => SetIndex::Hash,
        Some('P') => SetIndex::Ipoly,
        _ => {
            return Err(bad_value(
                opt,
                "set-index function not modelled",
                "L (linear), H (hash), P (IPOLY)",
            ))
        }
    };
    if !matches!(letter(g2[0]), Some('A' | 'S' | 'F' | 'T')) {
        return Err(bad_value(opt, "unknown MSHR type", "A, S, F, T"));
    }
    if matches!(write_policy, WritePolicy::Wb)
        && matches!(alloc, AllocPolicy::OnFill | AllocPolicy::Streaming)
    {
        return Err(bad_value(
            opt,
            "a write-back cache cannot allocate on fill (GPGPU-Sim refuses it too)",
            "write policy B with allocation m",
        ));
    }
    if matches!(g1[3], "F" | "L") && matches!(alloc, AllocPolicy::OnFill | AllocPolicy::Streaming) {
        return Err(bad_value(
            opt,
            "fetch-on-write and lazy-fetch-on-read need allocation on miss (GPGPU-Sim refuses it too)",
            "write-allocate F or L with allocation m",
        ));
    }
    let mut unmodelled = Vec::new();
    if let Some(fifo) = g3.get(1) {
        unmodelled.push(("result FIFO entries".to_string(), fifo.to_string()));
    }
    if let Some(width) = groups.get(4) {
        unmodelled.push(("data port width".to_string(), width.to_string()));
    }
    Ok(CacheString {
        cache: CacheConfig {
            sets,
            line_bytes: line,
            assoc,
            sector_bytes,
            replacement,
            write_policy,
            alloc,
            write_alloc,
            set_index,
            mshr_entries: mshr,
            mshr_merge: merge,
            miss_queue: missq,
            latency: base.latency,
            banks: base.banks,
        },
        unmodelled,
    })
}

/// DRAM banks, bank groups and timing from `-gpgpu_dram_timing_opt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DramTimingOpt {
    /// Banks per chip.
    pub n_banks: u32,
    /// Bank groups per chip.
    pub n_bank_groups: u32,
    /// Timing in DRAM cycles.
    pub timing: DramTiming,
}

/// Parses `-gpgpu_dram_timing_opt` in either of GPGPU-Sim's forms: named
/// (`nbk=16:CCD=2:…`, any order, separators `=`, `:`, `;` and spaces) or positional
/// (`nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR[:nbkgrp:CCDL:RTPL]`). Bank groups, CCDL and RTPL
/// left out mean no bank groups (1, 0, 0), as in GPGPU-Sim; every other field is required.
pub fn dram_timing(opt: &OptionValue) -> Result<DramTimingOpt, SimError> {
    const KEYS: [&str; 14] = [
        "nbk", "CCD", "RRD", "RCD", "RAS", "RP", "RC", "CL", "WL", "CDLR", "WR", "nbkgrp", "CCDL",
        "RTPL",
    ];
    let allowed = "nbk=<n>:CCD=<n>:RRD=<n>:RCD=<n>:RAS=<n>:RP=<n>:RC=<n>:CL=<n>:WL=<n>:CDLR=<n>:\
                   WR=<n>[:nbkgrp=<n>:CCDL=<n>:RTPL=<n>], or the same 11 or 14 numbers in that order";
    let mut vals: [Option<u32>; 14] = [None; 14];
    let num = |s: &str| parse_uint(s).and_then(|x| u32::try_from(x).ok());
    if opt.value.contains('=') {
        let toks: Vec<&str> = opt
            .value
            .split(|c: char| c == '=' || c == ':' || c == ';' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .collect();
        if !toks.len().is_multiple_of(2) {
            return Err(bad_value(opt, "each timing name needs a value", allowed));
        }
        for pair in toks.chunks(2) {
            let Some(k) = KEYS.iter().position(|k| *k == pair[0]) else {
                return Err(bad_value(
                    opt,
                    &format!("unknown timing name '{}'", pair[0]),
                    allowed,
                ));
            };
            vals[k] = Some(num(pair[1]).ok_or_else(|| {
                bad_value(
                    opt,
                    &format!("'{}' is not an unsigned integer", pair[0]),
                    allowed,
                )
            })?);
        }
    } else {
        let nums: Option<Vec<u32>> = opt.value.trim().split(':').map(num).collect();
        match nums {
            Some(n) if n.len() == 11 || n.len() == 14 => {
                for (slot, v) in vals.iter_mut().zip(n) {
                    *slot = Some(v);
                }
            }
            _ => return Err(bad_value(opt, "expected 11 or 14 numbers", allowed)),
        }
    }
    for (k, v) in KEYS.iter().zip(vals).take(11) {
        if v.is_none() {
            return Err(bad_value(opt, &format!("'{k}' is missing"), allowed));
        }
    }
    let g = |i: usize| vals[i].unwrap_or(0);
    let n_bank_groups = vals[11].unwrap_or(1);
    if g(0) == 0 || n_bank_groups == 0 {
        return Err(bad_value(
            opt,
            "banks and bank groups must be positive",
            allowed,
        ));
    }
    Ok(DramTimingOpt {
        n_banks: g(0),
        n_bank_groups,
        timing: DramTiming {
            ccd: g(1),
            rrd: g(2),
            rcd: g(3),
            ras: g(4),
            rp: g(5),
            rc: g(6),
            cl: g(7),
            wl: g(8),
            cdlr: g(9),
            wr: g(10),
            ccdl: g(12),
            rtpl: g(13),
        },
    })
}

/// Parses `-gpgpu_mem_addr_mapping dramid@<bit>;<64-bit map>` into the channel interleave in
/// bytes (2^bit) and the schema's 32-bit channel-local map (`RRRRRRRR.…`, dotted by bytes).
/// The upper 32 map bits must be unused (`0`); explicit chip bits (`D`) are not modelled.
pub fn addr_map(opt: &OptionValue) -> Result<(u32, String), SimError> {
    let allowed = "dramid@<bit>;<64 characters of 0, R, B, C, S (dots, spaces, '|' ignored)> \
                   with the upper 32 all 0";
    let v = opt.value.trim();
    let Some((head, map)) = v.split_once(';') else {
        return Err(bad_value(
            opt,
            "channel bits given inside the map are not modelled",
            allowed,
        ));
    };
    let bit = head
        .strip_prefix("dramid@")
        .and_then(parse_uint)
        .filter(|b| *b < 32)
        .ok_or_else(|| bad_value(opt, "expected dramid@<bit> before ';'", allowed))?;
    let bits: String = map
        .chars()
        .filter(|c| !matches!(c, '.' | ' ' | '|'))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if bits.len() != 64 || bits.chars().any(|c| !"0RBCS".contains(c)) {
        return Err(bad_value(
            opt,
            "the map must have 64 characters from 0, R, B, C, S",
            allowed,
        ));
    }
    if bits[..32].chars().any(|c| c != '0') {
        return Err(bad_value(
            opt,
            "address bits above 32 are not modelled",
            allowed,
        ));
    }
    let low = &bits[32..];
    let dotted = [&low[0..8], &low[8..16], &low[16..24], &low[24..32]].join(".");
    Ok((1u32 << bit, dotted))
}

/// Parses `-gpgpu_clock_domains <core>:<icnt>:<l2>:<dram>` (MHz).
pub fn clock_domains(opt: &OptionValue) -> Result<[f64; 4], SimError> {
    let allowed = "<core MHz>:<interconnect MHz>:<L2 MHz>:<DRAM MHz>, each positive";
    let vals: Vec<f64> = opt
        .value
        .split(':')
        .map(|s| s.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad_value(opt, "not four clock frequencies", allowed))?;
    match vals[..] {
        [a, b, c, d] if vals.iter().all(|f| f.is_finite() && *f > 0.0) => Ok([a, b, c, d]),
        _ => Err(bad_value(
            opt,
            "not four positive clock frequencies",
            allowed,
        )),
    }
}

/// A `-gpgpu_scheduler` value in schema terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduler {
    /// `sched.policy`.
    pub policy: SchedPolicy,
    /// `sched.two_level.active_per_sched` and `sched.two_level.inner` for the two-level policy.
    pub two_level: Option<(u32, InnerPolicy)>,
}

/// Parses `-gpgpu_scheduler`: `lrr`, `gto`, `old` (oldest first) or
/// `two_level_active:<active warps>:<inner>:<outer>` with GPGPU-Sim's prioritisation codes
/// (inner 0 = loose round-robin, 2 = greedy-then-oldest; outer 1 = strict round-robin, the FIFO
/// refill the two-level policy of the simulator uses).
pub fn scheduler(opt: &OptionValue) -> Result<Scheduler, SimError> {
    let allowed = "lrr, gto, old, two_level_active:<active warps>:<0 (lrr) | 2 (gto)>:1";
    let v = opt.value.trim();
    let policy = match v {
        "lrr" => SchedPolicy::Lrr,
        "gto" => SchedPolicy::Gto,
        "old" => SchedPolicy::Oldest,
        _ => {
            let Some(rest) = v.strip_prefix("two_level_active:") else {
                return Err(bad_value(opt, "scheduler not modelled", allowed));
            };
            let f: Vec<Option<u64>> = rest.split(':').map(parse_uint).collect();
            let (active, inner) = match f[..] {
                [Some(a), Some(0), Some(1)] if a > 0 => (a, InnerPolicy::Lrr),
                [Some(a), Some(2), Some(1)] if a > 0 => (a, InnerPolicy::Gto),
                _ => return Err(bad_value(opt, "two-level parameters not modelled", allowed)),
            };
            let active = u32::try_from(active)
                .map_err(|_| bad_value(opt, "active warps out of range", allowed))?;
            return Ok(Scheduler {
                policy: SchedPolicy::TwoLevel,
                two_level: Some((active, inner)),
            });
        }
    };
    Ok(Scheduler {
        policy,
        two_level: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opt(name: &str, value: &str) -> OptionValue {
        OptionValue {
            name: name.into(),
            value: value.into(),
            file: "f".into(),
            line: 7,
        }
    }

    fn base() -> CacheConfig {
        crate::config::GpuConfig::preset("gtx1080ti")
            .unwrap()
            .icache
            .clone()
    }

    #[test]
    fn sector_streaming_l1() {
        let c = cache_string(
            &opt("-gpgpu_cache:dl1", "S:4:128:96,L:L:s:N:L,A:256:8,16:0,32"),
            &base(),
        )
        .unwrap();
        let k = &c.cache;
        assert_eq!(
            (k.sets, k.line_bytes, k.assoc, k.sector_bytes),
            (4, 128, 96, 32)
        );
        assert_eq!(k.write_policy, WritePolicy::LocalWbGlobalWt);
        assert_eq!(k.alloc, AllocPolicy::Streaming);
        assert_eq!(k.set_index, SetIndex::Linear);
        assert_eq!((k.mshr_entries, k.mshr_merge, k.miss_queue), (256, 8, 16));
        assert_eq!(k.size_bytes(), 48 * 1024);
        assert_eq!(c.unmodelled.len(), 2);
    }

    #[test]
    fn fermi_l1_and_texture_fifo() {
        let c = cache_string(&opt("x", "N:32:128:4,L:L:m:N:H,S:64:8,8"), &base()).unwrap();
        assert_eq!(c.cache.sector_bytes, 128);
        assert_eq!(c.cache.set_index, SetIndex::Hash);
        assert!(c.unmodelled.is_empty());
        let t = cache_string(&opt("x", "N:4:128:24,L:R:m:N:L,T:128:4,128:2"), &base()).unwrap();
        assert_eq!((t.cache.mshr_entries, t.cache.miss_queue), (128, 128));
        assert_eq!(t.unmodelled[0].1, "2");
    }

    #[test]
    fn unhonourable_cache_values_are_refused() {
        for (v, needle) in [
            ("N:32:128:4,L:E:m:N:L,A:64:8,8", "write policy"),
            ("N:32:128:4,L:L:m:N:X,A:64:8,8", "set-index"),
            ("N:32:128:4,R:L:m:N:L,A:64:8,8", "replacement"),
            ("S:32:64:4,L:L:m:N:L,A:64:8,8", "sector"),
            ("N:32:128:4,L:B:f:N:L,A:64:8,8", "write-back"),
            ("none", "disabled"),
            ("N:32:128", "malformed"),
        ] {
            let e = cache_string(&opt("-gpgpu_cache:dl1", v), &base()).unwrap_err();
            let s = e.to_string();
            assert!(s.contains(needle) && s.contains("line 7"), "{v}: {s}");
            assert!(s.contains("allowed"), "{s}");
        }
    }

    #[test]
    fn dram_timing_named_and_positional() {
        let named = dram_timing(&opt(
            "t",
            "nbk=16:CCD=2:RRD=8:RCD=16:RAS=37:RP=16:RC=52: CL=16:WL=6:CDLR=7:WR=16:nbkgrp=4:CCDL=4:RTPL=3",
        ))
        .unwrap();
        assert_eq!((named.n_banks, named.n_bank_groups), (16, 4));
        assert_eq!(named.timing.rc, 52);
        assert_eq!(named.timing.ccdl, 4);
        let pos = dram_timing(&opt("t", "16:2:8:16:37:16:52:16:6:7:16:4:4:3")).unwrap();
        assert_eq!(pos, named);
        let legacy = dram_timing(&opt("t", "4:2:8:12:21:13:34:9:4:5:13")).unwrap();
        assert_eq!((legacy.n_bank_groups, legacy.timing.ccdl), (1, 0));
        assert!(dram_timing(&opt("t", "nbk=16:CCD=2")).is_err());
        assert!(dram_timing(&opt("t", "nbk=16:tFAW=2")).is_err());
    }

    #[test]
    fn address_map() {
        let (il, m) = addr_map(&opt(
            "m",
            "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS",
        ))
        .unwrap();
        assert_eq!(il, 256);
        assert_eq!(m, "0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS");
        assert!(addr_map(&opt("m", "0000DDDD")).is_err());
    }

    #[test]
    fn schedulers() {
        assert_eq!(
            scheduler(&opt("s", "gto")).unwrap().policy,
            SchedPolicy::Gto
        );
        let t = scheduler(&opt("s", "two_level_active:6:0:1")).unwrap();
        assert_eq!(t.two_level, Some((6, InnerPolicy::Lrr)));
        let e = scheduler(&opt("-gpgpu_scheduler", "rrr")).unwrap_err();
        assert!(e.to_string().contains("lrr, gto"), "{e}");
        assert!(scheduler(&opt("s", "two_level_active:6:3:1")).is_err());
    }
}
