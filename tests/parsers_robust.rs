//! Parser robustness: every text input the project reads is fed mutated versions of a valid
//! input (byte flips, truncation, line duplication and deletion, numbers replaced by extreme or
//! malformed ones, stray bytes) and must answer with a clean error or a sane value — never a
//! panic, and never a NaN, infinity or negative quantity where the value is a physical size.
//!
//! The mutator is deterministic under proptest's seed and the case count is bounded, so the
//! whole file runs in seconds in a release build. Coverage-guided fuzzing of the same parsers
//! lives in `fuzz/` (nightly, not part of the default build).
//!
//! Inputs covered: Accel-Sim `kernelslist.g` and `.traceg` (header, body, and the indexing
//! reader), simulator TOML configurations, activity records (JSON), calibration overlays,
//! synthesis reports (Yosys, OpenSTA, Design Compiler, Genus), Liberty, VCD, the CACTI-style
//! CSV of `sram --batch` and of the SRAM reference data, correlation reference CSVs,
//! GPGPU-Sim option files, user program files and `.npy` files.

use proptest::prelude::*;
use sim::inst::{Family, OpClass, WarpInst};
use sim::trace::line::LineOptions;
use sim::trace::{read_kernel_list, scan_body, TraceKernel, TraceOptions};
use sim::{KernelStream, Step};
use std::io::Cursor;
use std::path::{Path, PathBuf};

/// Cases per parser (a mutated input is a few kilobytes at most, so this stays fast);
/// `GPUENERGY_ROBUST_CASES` overrides it for a longer local search.
fn cases(default: u32) -> u32 {
    std::env::var("GPUENERGY_ROBUST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The generator seed: fixed so that every run (and CI) checks the same inputs;
/// `GPUENERGY_ROBUST_SEED` picks another for a local search.
fn config(default_cases: u32) -> ProptestConfig {
    let seed = std::env::var("GPUENERGY_ROBUST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x6770_7565_6e65_7267);
    ProptestConfig {
        cases: cases(default_cases),
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        ..ProptestConfig::default()
    }
}

/// Replacement tokens for a number: extremes, malformed forms and non-finite spellings.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-0",
    "1e309",
    "-1e309",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1e-320",
    "0x",
    "0xffffffffffffffffff",
    "",
    "1.5",
    "-2147483649",
    "(",
    "\"",
];

/// One mutation; the two numbers select positions and choices.
#[derive(Clone, Debug)]
struct Mutation {
    kind: u8,
    a: u32,
    b: u32,
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(
        (0u8..7, any::<u32>(), any::<u32>()).prop_map(|(kind, a, b)| Mutation { kind, a, b }),
        1..5,
    )
}

/// Byte ranges of the decimal/hex numbers in `text`.
fn number_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() {
            let s = i;
            while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'.') {
                i += 1;
            }
            spans.push((s, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// Line ranges (including the newline) of `text`.
fn line_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut s = 0;
    for (i, &c) in text.iter().enumerate() {
        if c == b'\n' {
            spans.push((s, i + 1));
            s = i + 1;
        }
    }
    if s < text.len() {
        spans.push((s, text.len()));
    }
    spans
}

/// Applies `muts` to `seed` in order.
fn mutate(seed: &[u8], muts: &[Mutation]) -> Vec<u8> {
    let mut t = seed.to_vec();
    for m in muts {
        let pick = |n: usize| (m.a as usize) % n.max(1);
        match m.kind {
            // Byte flip.
            0 if !t.is_empty() => {
                let i = pick(t.len());
                t[i] ^= (m.b as u8).max(1);
            }
            // Truncation.
            1 => {
                let i = pick(t.len() + 1);
                t.truncate(i);
            }
            // Line duplication.
            2 => {
                let lines = line_spans(&t);
                if !lines.is_empty() {
                    let (s, e) = lines[pick(lines.len())];
                    let copy = t[s..e].to_vec();
                    let at = lines[(m.b as usize) % lines.len()].0;
                    t.splice(at..at, copy);
                }
            }
            // Line deletion.
            3 => {
                let lines = line_spans(&t);
                if !lines.is_empty() {
                    let (s, e) = lines[pick(lines.len())];
                    t.drain(s..e);
                }
            }
            // Number substitution.
            4 | 5 => {
                let nums = number_spans(&t);
                if !nums.is_empty() {
                    let (s, e) = nums[pick(nums.len())];
                    let rep = NUMBERS[(m.b as usize) % NUMBERS.len()].as_bytes().to_vec();
                    t.splice(s..e, rep);
                }
            }
            // Stray bytes (including a multi-byte character and NUL).
            _ => {
                let i = pick(t.len() + 1);
                let junk: &[u8] = match m.b % 5 {
                    0 => b"\0",
                    1 => "\u{e9}".as_bytes(),
                    2 => b"\n\n",
                    3 => b"=",
                    _ => b"{[(",
                };
                t.splice(i..i, junk.iter().copied());
            }
        }
    }
    t
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch folder unique to this process and test.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpuenergy-robust-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read_repo(rel: &str) -> Vec<u8> {
    std::fs::read(repo(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

// ---------------------------------------------------------------- Accel-Sim traces

const TRACE_HEADER: &str = "-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-shmem = 0\n-nregs = 8\n-binary version = 61\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f1000000000\n-nvbit version = 1.5\n-accelsim tracer version = 3\n\n#traces format = ...\n\n";

const TRACE_BODY: &str = "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 4\n0000 ffffffff 1 R2 IMAD.MOV.U32 2 R1 R0 0\n0010 0000000f 1 R6 LDG.E 1 R2 4 1 0x1000 4\n0020 00000005 0 STG.E 2 R2 R4 4 2 0x2000 -8\n0030 ffffffff 0 EXIT 0 0\n\nwarp = 1\ninsts = 2\n0000 ffffffff 1 R8 DADD 2 R2 R4 0\n0010 ffffffff 0 EXIT 0 0\n\n#END_TB\n\n#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 2\n0000 00000003 1 R6 LDS 1 R2 4 0 0x10 0x20\n0010 ffffffff 0 EXIT 0 0\n\n#END_TB\n";

const KERNELSLIST: &str =
    "MemcpyHtoD,0x00007f0000001000,4096\nkernel-1.traceg\nMemcpyHtoD,0x10,8\nkernel-1.traceg\n";

fn trace_seed() -> Vec<u8> {
    format!("{TRACE_HEADER}{TRACE_BODY}").into_bytes()
}

/// Header then body from memory, as the reader does for a file.
fn parse_trace_in_memory(bytes: &[u8]) -> Result<(u64, u64, u64), String> {
    let mut cur = Cursor::new(bytes);
    let mut read = 0u64;
    let (h, _) = sim::trace::header::read_header(&mut cur, "k.traceg", &mut read)
        .map_err(|e| e.to_string())?;
    let _ = h;
    let rest = &bytes[(read as usize).min(bytes.len())..];
    scan_body(rest, "k.traceg", LineOptions::default()).map_err(|e| e.to_string())
}

/// Opens a `.traceg` file and walks every warp of the first two CTAs (bounded).
fn walk_trace_file(path: &Path) -> Result<u64, String> {
    let mut k = TraceKernel::open(path, &TraceOptions::default()).map_err(|e| e.to_string())?;
    let mut n = 0u64;
    let mut inst = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
    for cta in 0..2u32 {
        if k.begin_cta(cta, 0, 0).is_err() {
            continue;
        }
        for warp in 0..2u32 {
            for _ in 0..64 {
                match k.next_inst(cta, warp, 0, &mut inst) {
                    Ok(Step::Inst) => n += 1,
                    _ => break,
                }
            }
        }
        let _ = k.end_cta(cta);
    }
    Ok(n)
}

#[test]
fn trace_seeds_are_valid() {
    assert_eq!(parse_trace_in_memory(&trace_seed()).unwrap(), (2, 3, 8));
    let d = scratch("trace-seed");
    let p = d.join("kernel-1.traceg");
    std::fs::write(&p, trace_seed()).unwrap();
    assert_eq!(walk_trace_file(&p).unwrap(), 8);
    std::fs::write(d.join("kernelslist.g"), KERNELSLIST).unwrap();
    assert_eq!(read_kernel_list(&d).unwrap().len(), 4);
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------- seeds of the other parsers

fn config_seed() -> Vec<u8> {
    read_repo("sim/presets/gtx780.toml")
}

fn activity_seed() -> Vec<u8> {
    sim::activity::Activity::new("gtx480", "0123456789abcdef")
        .to_json()
        .into_bytes()
}

fn overlay_seed() -> Vec<u8> {
    use models::overlay::{KindFit, Overlay, OverlayReference, QuantityFit};
    let fit = |terms: &[&str], c: &[f64]| QuantityFit {
        form: "alu32".into(),
        terms: terms.iter().map(|t| t.to_string()).collect(),
        coefficients: c.to_vec(),
        n_points: 6,
        fit_mape_pct: 1.5,
        cv_mape_pct: 2.5,
    };
    let mut kinds = std::collections::BTreeMap::new();
    kinds.insert(
        "alu32".to_string(),
        KindFit {
            area_m2: Some(fit(&["WIDTH", "1"], &[2e-12, 1e-12])),
            energy_per_op_j: Some(fit(&["WIDTH", "1"], &[1e-15, 3e-16])),
            ..KindFit::default()
        },
    );
    Overlay {
        node: "asap7".into(),
        reference: OverlayReference {
            flavour: "rvt".into(),
            corner: "tt".into(),
            vdd_v: 0.7,
            temperature_c: 25.0,
            clock_period_s: 1e-9,
            source: "robustness seed".into(),
        },
        kinds,
    }
    .to_toml_string()
    .into_bytes()
}

const REPORTS: &[&str] = &[
    "calibration/tests/goldens_parsers/yosys_stat.txt",
    "calibration/tests/goldens_parsers/yosys_stat.json",
    "calibration/tests/goldens_parsers/opensta_power.rpt",
    "calibration/tests/goldens_parsers/opensta_checks.rpt",
    "calibration/tests/goldens_parsers/dc_area.rpt",
    "calibration/tests/goldens_parsers/dc_power.rpt",
    "calibration/tests/goldens_parsers/genus_area.rpt",
    "calibration/tests/goldens_parsers/genus_power.rpt",
    "calibration/tests/goldens_parsers/genus_power_legacy.rpt",
];

const LIBERTY: &str = "library (a) {\n  time_unit : \"1ps\";\n  leakage_power_unit : \"1pW\";\n  capacitive_load_unit (1,ff);\n  nom_voltage : 0.7;\n  nom_temperature : 25;\n  lu_table_template (t1) {\n    index_1 (\"1, 2\");\n  }\n  cell (INVx1) {\n    area : 0.5;\n    cell_leakage_power : 10;\n    leakage_power () {\n      value : 12;\n      when : \"A\";\n    }\n    pin (A) {\n      direction : input;\n      capacitance : 0.6;\n    }\n    pin (Y) {\n      direction : output;\n      function : \"!A\";\n      timing () {\n        cell_rise (t1) {\n          index_1 (\"1, 2\");\n          index_2 (\"1, 3\");\n          values ( \\\n            \"1, 2\", \\\n            \"3, 4\" \\\n          );\n        }\n      }\n    }\n  }\n  cell (DFFx1) {\n    area : 2.0;\n    ff (IQ, IQN) {\n      next_state : \"D\";\n      clocked_on : \"CLK\";\n    }\n    pin (D) {\n      direction : input;\n      capacitance : 0.5;\n    }\n  }\n}\n";

const VCD: &str = "$timescale 1ps $end\n$scope module tb $end\n$var reg 1 ! clk $end\n$scope module dut $end\n$var wire 2 \" a [1:0] $end\n$var wire 1 # \\g[1].e $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n0!\nb00 \"\n0#\n$end\n#500\n1!\n#1000\n0!\nb11 \"\n1#\n#1500\n1!\n#2000\n0!\nb1 \"\nx#\n";

const SRAM_BATCH: &str = "tech_um,size_bytes,block_bytes,rw_ports,read_ports,write_ports,banks,cell_type\n0.032,16384,64,1,0,0,1,itrs-hp\n0.045, 65536 ,32,1,1,1,2,itrs-lstp\n";

/// The reference file's path: its `preset` column names files beside it.
fn correlate_file() -> String {
    repo("tests/data/correlate/accelsim-gtx480.csv")
        .display()
        .to_string()
}

fn correlate_seed() -> Vec<u8> {
    read_repo("tests/data/correlate/accelsim-gtx480.csv")
}

/// The first lines of the shared CACTI reference CSV (read at run time, never copied).
fn cacti_seed() -> Option<Vec<u8>> {
    let t = std::fs::read_to_string(repo("../shared/reference/cacti7_train.csv")).ok()?;
    Some(
        t.lines()
            .take(6)
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
    )
}

fn gpgpusim_seed() -> Vec<u8> {
    b"# GTX480-like options\n-gpgpu_n_clusters 15\n-gpgpu_n_cores_per_cluster 1\n-gpgpu_n_mem 6\n-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n-gpgpu_shader_registers 32768\n-gpgpu_shader_core_pipeline 1536:32\n-gpgpu_shader_cta 8\n-gpgpu_num_sched_per_core 2\n-gpgpu_scheduler gto\n-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8\n-gpgpu_cache:dl2 S:64:128:8,L:B:m:W:L,A:32:4,4\n-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0\"\n-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBBCCCC.CCSSSSSS\n-ptx_opcode_latency_int 4,13,4,5,145\n-gpgpu_pipeline_widths 2,0,0,2,1,2,0,0,2,1,4\n-gpgpu_num_sp_units 2\n-gpgpu_shmem_size 49152\n".to_vec()
}

#[test]
fn other_seeds_are_valid() {
    sim::config::GpuConfig::from_toml_str(&text(&config_seed()), "gtx780.toml").unwrap();
    sim::activity::Activity::from_json(&text(&activity_seed()), "a.json").unwrap();
    models::overlay::Overlay::from_toml_str(&text(&overlay_seed()), Path::new("o.toml")).unwrap();
    for r in REPORTS {
        let t = text(&read_repo(r));
        assert!(
            calibration::parsers::parse_report(&t, Path::new(r))
                .unwrap()
                .is_some(),
            "{r}"
        );
    }
    let li = calibration::liberty::library_info(LIBERTY, Path::new("a.lib"), &["INVx1"]).unwrap();
    assert_eq!(li.cells.len(), 2);
    let v = calibration::vcd::Vcd::parse(VCD, Path::new("a.vcd")).unwrap();
    assert_eq!(v.vars.len(), 3);
    gpuenergy::correlate::parse_reference(&text(&correlate_seed()), &correlate_file()).unwrap();
    if let Some(c) = cacti_seed() {
        models::sram::reference::parse_cacti_csv(&text(&c)).unwrap();
    }
    let src = text(&gpgpusim_seed());
    let imported = sim::config::gpgpusim::import(
        &[sim::config::gpgpusim::OptionSource {
            file: "gpgpusim.config",
            text: &src,
        }],
        None,
        "imported",
    );
    assert!(imported.is_ok(), "{:?}", imported.err());
    assert_eq!(run_sram_batch(SRAM_BATCH.as_bytes(), "seed"), Some(0));
}

// ---------------------------------------------------------------- checks on parsed values

fn finite_nonneg(v: f64) -> bool {
    v.is_finite() && v >= 0.0
}

fn check_report(r: &calibration::parsers::ParsedReport) {
    for (what, v) in [("area", r.area_m2), ("leakage", r.leakage_w)] {
        if let Some(v) = v {
            assert!(finite_nonneg(v), "{what} = {v}");
        }
    }
    for (what, v) in [
        ("internal", r.internal_w),
        ("switching", r.switching_w),
        ("total", r.total_w),
        ("critical path", r.critical_path_s),
        ("slack", r.slack_s),
    ] {
        if let Some(v) = v {
            assert!(v.is_finite(), "{what} = {v}");
        }
    }
}

fn check_liberty(li: &calibration::liberty::LibraryInfo) {
    for v in [
        li.time_unit_s,
        li.leakage_unit_w,
        li.cap_unit_f,
        li.nom_voltage_v,
        li.nom_temperature_c,
    ] {
        assert!(v.is_finite(), "library unit or nominal value {v}");
    }
    for (name, c) in &li.cells {
        assert!(finite_nonneg(c.area), "cell {name}: area {}", c.area);
        if let Some(l) = c.leakage {
            assert!(l.is_finite(), "cell {name}: leakage {l}");
        }
        for (pin, cap) in &c.input_caps {
            assert!(cap.is_finite(), "cell {name} pin {pin}: capacitance {cap}");
        }
    }
}

/// Runs `gpuenergy sram --batch` on `csv`; the exit status, or `None` when killed by a signal.
fn run_sram_batch(csv: &[u8], tag: &str) -> Option<i32> {
    let d = scratch(&format!("sram-{tag}"));
    let p = d.join("batch.csv");
    std::fs::write(&p, csv).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(["sram", "--batch"])
        .arg(&p)
        .arg("--out")
        .arg(d.join("out.csv"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&d);
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "sram --batch panicked on {:?}: {}",
        text(csv),
        String::from_utf8_lossy(&out.stderr)
    );
    out.status.code()
}

// ---------------------------------------------------------------- regressions found by the search

#[test]
fn vcd_with_an_absurd_width_is_refused_not_allocated() {
    let t = "$scope module m $end\n$var wire 4294967295 ! a $end\n$upscope $end\n$enddefinitions $end\n#0\n";
    let e = calibration::vcd::Vcd::parse(t, Path::new("w.vcd")).unwrap_err();
    assert!(
        e.to_string().contains("w.vcd:2") && e.to_string().contains("width"),
        "{e}"
    );
    // A huge range bound no longer overflows the bit numbering.
    let t = "$scope module m $end\n$var wire 2 ! a [-9223372036854775808:0] $end\n$upscope $end\n$enddefinitions $end\n#0\nb11 !\n";
    assert!(calibration::vcd::Vcd::parse(t, Path::new("w.vcd")).is_ok());
}

#[test]
fn vcd_identifier_redeclared_with_another_width_is_refused() {
    // Found by the `vcd` fuzz target: the activities of the second declaration indexed past
    // the per-bit statistics sized by the first.
    let t = "$scope module m $end\n$var wire 1 ! a $end\n$var wire 2 ! b [1:0] $end\n$upscope $end\n$enddefinitions $end\n#0\nb11 !\n#10\n";
    let e = calibration::vcd::Vcd::parse(t, Path::new("w.vcd")).unwrap_err();
    assert!(
        e.to_string().contains("w.vcd:3") && e.to_string().contains("width"),
        "{e}"
    );
    // The same width under two names is an alias, as the VCD format allows.
    let t = "$scope module m $end\n$var wire 2 ! a [1:0] $end\n$var wire 2 ! b [1:0] $end\n$upscope $end\n$enddefinitions $end\n#0\nb11 !\n#10\n";
    let v = calibration::vcd::Vcd::parse(t, Path::new("w.vcd")).unwrap();
    assert_eq!(v.activities(&["m".to_string()], 1.0).len(), 4);
}

#[test]
fn ptx_register_count_is_bounded() {
    // Found by the `ptx` fuzz target: `%r<4222222220>` materialised billions of names.
    let t = ".version 6.0\n.target sm_20\n.address_size 64\n.visible .entry k()\n{\n    .reg .b32 %r<4222222220>;\n    ret;\n}\n";
    let e = sim::ptx::Module::parse(t, "big.ptx")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("big.ptx:6") && e.contains("register count"),
        "{e}"
    );
}

#[test]
fn liberty_units_must_be_finite_and_positive() {
    for (attr, line) in [
        ("time_unit", "  time_unit : \"-1ps\";"),
        ("leakage_power_unit", "  leakage_power_unit : \"-1nW\";"),
        ("capacitive_load_unit", "  capacitive_load_unit (inf,ff);"),
        ("nom_temperature", "  nom_temperature : nan;"),
    ] {
        let t = format!("library (x) {{\n{line}\n}}\n");
        let e = calibration::liberty::library_info(&t, Path::new("x.lib"), &[]).unwrap_err();
        assert!(
            e.to_string().contains("x.lib:2") && e.to_string().contains(attr),
            "{e}"
        );
    }
}

#[test]
fn synthesis_reports_refuse_negative_area_and_leakage() {
    for r in REPORTS {
        let t = text(&read_repo(r));
        let Some(good) = calibration::parsers::parse_report(&t, Path::new(r)).unwrap() else {
            continue;
        };
        // Every number of the report made negative, one at a time: a parse that succeeds
        // must still have a non-negative area and leakage.
        for (s, _) in number_spans(t.as_bytes()) {
            let bad = format!("{}-{}", &t[..s], &t[s..]);
            if let Ok(Some(p)) = calibration::parsers::parse_report(&bad, Path::new(r)) {
                check_report(&p);
            }
        }
        check_report(&good);
    }
}

// ---------------------------------------------------------------- the properties

/// A program file exercising every step kind, against the committed test kernels.
fn program_seed() -> Vec<u8> {
    let ptx = repo("tests/data/programs/kernels.ptx");
    format!(
        "name = \"p\"\nptx = [\"{}\"]\n[buffers.a]\ndtype = \"f32\"\ncount = 300\n\
         init = {{ random = {{ seed = 3, min = -1.0, max = 1.0 }} }}\n[buffers.b]\ndtype = \
         \"u8\"\nbytes = 1200\ninit = {{ range = {{ start = 0, step = 0 }} }}\n[buffers.v]\n\
         dtype = \"i32\"\ncount = 300\ninit = {{ constant = -7 }}\n[[steps]]\nrepeat = 2\n\
         [[steps.body]]\nlaunch = \"smooth\"\ngrid = [2, 1, 1]\nblock = 256\nshared = 0\n\
         args = [\"b\", \"a\", 300]\n[[steps]]\nlaunch = \"scale_index\"\ngrid = 2\nblock = \
         [128]\nargs = [\"v\", {{ i32 = 3 }}, {{ u32 = 300 }}]\nrepeat = 3\n[[steps]]\ncopy = \
         \"to_host\"\nbuffer = \"a\"\nsnapshot = \"s\"\n[[steps]]\ncopy = \"to_device\"\n\
         buffer = \"v\"\nfrom = {{ constant = 1 }}\n",
        ptx.display()
    )
    .into_bytes()
}

#[test]
fn program_seed_is_valid() {
    let p = gpuenergy::program::UserProgram::parse(Path::new("p.toml"), &text(&program_seed()))
        .unwrap();
    assert_eq!(p.launches(), 5);
    let n = gpuenergy::program::npy::write(gpuenergy::program::DType::F32, &[2, 3], &[0u8; 24]);
    assert_eq!(gpuenergy::program::npy::read(&n).unwrap().count(), 6);
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn program_file(m in mutations()) {
        let t = text(&mutate(&program_seed(), &m));
        let _ = gpuenergy::program::UserProgram::parse(Path::new("p.toml"), &t);
    }

    #[test]
    fn npy_file(m in mutations()) {
        let seed = gpuenergy::program::npy::write(
            gpuenergy::program::DType::I16,
            &[3, 4],
            &[7u8; 24],
        );
        if let Ok(n) = gpuenergy::program::npy::read(&mutate(&seed, &m)) {
            prop_assert_eq!(n.data.len() as u64, n.count() * n.dtype.size());
        }
    }

    #[test]
    fn trace_header_and_body(m in mutations()) {
        let _ = parse_trace_in_memory(&mutate(&trace_seed(), &m));
    }

    #[test]
    fn kernelslist(m in mutations()) {
        let d = scratch("klist");
        let p = d.join("kernelslist.g");
        std::fs::write(&p, mutate(KERNELSLIST.as_bytes(), &m)).unwrap();
        let _ = read_kernel_list(&p);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn config_toml(m in mutations()) {
        let t = text(&mutate(&config_seed(), &m));
        if let Ok(cfg) = sim::config::GpuConfig::from_toml_str(&t, "gtx780.toml") {
            let _ = cfg.hash_hex();
        }
    }

    #[test]
    fn activity_json(m in mutations()) {
        let t = text(&mutate(&activity_seed(), &m));
        let _ = sim::activity::Activity::from_json(&t, "a.json");
    }

    #[test]
    fn overlay_toml(m in mutations()) {
        let t = text(&mutate(&overlay_seed(), &m));
        if let Ok(o) = models::overlay::Overlay::from_toml_str(&t, Path::new("o.toml")) {
            for (kind, k) in &o.kinds {
                for (q, f) in k.quantities() {
                    for c in &f.coefficients {
                        prop_assert!(c.is_finite(), "{kind}.{q}: coefficient {c}");
                    }
                }
            }
            prop_assert!(o.reference.vdd_v.is_finite() && o.reference.clock_period_s.is_finite());
        }
    }

    #[test]
    fn synthesis_reports(which in 0..REPORTS.len(), m in mutations()) {
        let t = text(&mutate(&read_repo(REPORTS[which]), &m));
        if let Ok(Some(r)) = calibration::parsers::parse_report(&t, Path::new(REPORTS[which])) {
            check_report(&r);
        }
    }

    #[test]
    fn liberty(m in mutations()) {
        let t = text(&mutate(LIBERTY.as_bytes(), &m));
        if let Ok(li) = calibration::liberty::library_info(&t, Path::new("a.lib"), &["INVx1", "DFFx1"]) {
            check_liberty(&li);
        }
    }

    #[test]
    fn vcd(m in mutations()) {
        let t = text(&mutate(VCD.as_bytes(), &m));
        if let Ok(v) = calibration::vcd::Vcd::parse(&t, Path::new("a.vcd")) {
            prop_assert!(v.timescale_s.is_finite() && v.timescale_s > 0.0);
            for scope in v.scopes() {
                for (name, (a, b)) in v.activities(&scope, 4.0) {
                    prop_assert!(a.is_finite() && b.is_finite(), "{name}: {a} {b}");
                }
            }
        }
    }

    #[test]
    fn correlate_reference(m in mutations()) {
        let t = text(&mutate(&correlate_seed(), &m));
        if let Ok(r) = gpuenergy::correlate::parse_reference(&t, &correlate_file()) {
            for row in &r.rows {
                prop_assert!(finite_nonneg(row.reference_cycles), "line {}: {}", row.line, row.reference_cycles);
            }
        }
    }

    #[test]
    fn cacti_reference_csv(m in mutations()) {
        if let Some(seed) = cacti_seed() {
            let _ = models::sram::reference::parse_cacti_csv(&text(&mutate(&seed, &m)));
        }
    }

    #[test]
    fn gpgpusim_options(m in mutations()) {
        let t = text(&mutate(&gpgpusim_seed(), &m));
        let _ = sim::config::gpgpusim::import(
            &[sim::config::gpgpusim::OptionSource { file: "gpgpusim.config", text: &t }],
            None,
            "imported",
        );
    }
}

proptest! {
    // Each case starts a process and prepares technology data: fewer cases.
    #![proptest_config(config(48))]

    #[test]
    fn trace_file_reader(m in mutations()) {
        let d = scratch("traceg");
        let p = d.join("kernel-1.traceg");
        std::fs::write(&p, mutate(&trace_seed(), &m)).unwrap();
        let _ = walk_trace_file(&p);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn sram_batch_csv(m in mutations()) {
        let code = run_sram_batch(&mutate(SRAM_BATCH.as_bytes(), &m), "m");
        prop_assert!(matches!(code, Some(0) | Some(2)), "exit status {code:?}");
    }
}
