//! Accel-Sim trace reader/writer: round trips, malformed input, streaming of a >1 GB trace.

mod common;
use common::Replay;

use sim::inst::{Family, MemInfo, MemSpace, OpClass, WarpInst, PRED_BASE};
use sim::trace::line::LineOptions;
use sim::trace::{
    read_kernel_list, scan_body, ListEntry, TraceForm, TraceKernel, TraceOptions, TraceWriter,
};
use sim::{KernelInfo, KernelStream, Step};
use std::collections::BTreeMap;
use std::io::Read;

/// SplitMix64, for deterministic synthetic instruction streams.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn random_inst(r: &mut Rng, pc: u32, barrier: bool) -> WarpInst {
    use Family::*;
    use OpClass::*;
    let kinds: [(Family, OpClass); 16] = [
        (Int, Add),
        (Int, Mad),
        (Int, Logic),
        (Int, Setp),
        (Int, Mov),
        (Fp, Add),
        (Fp, Mad),
        (Fp, Mul),
        (Fp, Cvt),
        (Sfu, Rsqrt),
        (Sfu, Div),
        (Dp, Mad),
        (Mem, Load),
        (Mem, Store),
        (Mem, Atomic),
        (Ctrl, Branch),
    ];
    let (f, o) = if barrier {
        (Bar, Barrier)
    } else {
        kinds[(r.next() % 16) as usize]
    };
    let mask = match r.next() % 4 {
        0 => 0xffff_ffff,
        1 => r.next() as u32,
        2 => 0x0000_ffff,
        _ => 0,
    };
    let mut i = WarpInst::new(pc, f, o, mask);
    let wide = f == Dp;
    let step = if wide { 2 } else { 1 };
    if !matches!(o, Store | Branch | Barrier) {
        i.n_dst = step;
        let d = (r.next() % 60) as u16 * 2;
        for k in 0..step {
            i.dst[k as usize] = d + k as u16;
        }
    }
    let ns = if matches!(o, Branch | Barrier) {
        0
    } else {
        1 + (r.next() % 2) as u8
    };
    for s in 0..ns {
        let base = (r.next() % 60) as u16 * 2;
        for k in 0..step {
            let n = i.n_src as usize;
            if n < 5 {
                i.src[n] = base + k as u16;
                i.n_src += 1;
            }
        }
        let _ = s;
    }
    if matches!(o, Load | Store | Atomic) {
        let space = match o {
            Atomic => MemSpace::Global,
            _ => [MemSpace::Global, MemSpace::Shared, MemSpace::Local][(r.next() % 3) as usize],
        };
        let width = [4u8, 8, 16, 1, 2][(r.next() % 5) as usize];
        let width = if o == Atomic { 4 } else { width };
        if width >= 8 {
            // Wide memory ops name register groups of width/4.
            let g = width as u16 / 4;
            let d = (r.next() % 16) as u16 * 8;
            i.n_dst = 0;
            if o == Load {
                i.n_dst = g.min(4) as u8;
                for k in 0..g.min(4) {
                    i.dst[k as usize] = d + k;
                }
            }
            i.n_src = g.min(4) as u8;
            for k in 0..g.min(4) {
                i.src[k as usize] = 128 + k;
            }
        }
        let mut addrs = [0u64; 32];
        let base = r.next() % (1 << 40);
        let stride = [4u64, 8, 0, 128][(r.next() % 4) as usize];
        let scatter = r.next().is_multiple_of(3);
        for (l, a) in addrs.iter_mut().enumerate() {
            if mask >> l & 1 == 1 {
                *a = if scatter {
                    r.next() % (1 << 40)
                } else {
                    base + stride * l as u64
                };
            }
        }
        i.mem = Some(MemInfo {
            space,
            width_bytes: width,
            addrs,
        });
    }
    i
}

fn synthetic_kernel(seed: u64) -> Replay {
    let info = KernelInfo {
        name: "_Z9syntheticPfS_".into(),
        grid: [3, 2, 1],
        block: [80, 1, 1], // 3 warps, the last one partial
        shared_bytes: 1024,
        regs_per_thread: 24,
    };
    let mut r = Rng(seed);
    let mut warps = BTreeMap::new();
    for cta in 0..info.num_ctas() {
        for w in 0..info.warps_per_cta() {
            let mut v = Vec::new();
            for k in 0..200u32 {
                v.push(random_inst(&mut r, 16 * k, k == 50 || k == 120));
            }
            v.push(WarpInst::new(
                16 * 200,
                Family::Ctrl,
                OpClass::Exit,
                0xffff_ffff,
            ));
            warps.insert((cta, w), v);
        }
    }
    Replay::new(info, warps)
}

fn read_all(k: &mut TraceKernel) -> BTreeMap<(u32, u32), Vec<WarpInst>> {
    let info = k.info().clone();
    let mut out = BTreeMap::new();
    let mut inst = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
    for cta in 0..info.num_ctas() {
        k.begin_cta(cta, 0, 0).unwrap();
        for w in 0..info.warps_per_cta() {
            let mut v = Vec::new();
            while k.next_inst(cta, w, 0, &mut inst).unwrap() == Step::Inst {
                v.push(inst);
            }
            out.insert((cta, w), v);
        }
        k.end_cta(cta).unwrap();
    }
    out
}

fn tmpdir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gpuenergy-trace-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn write_then_read_gives_the_same_instructions() {
    let dir = tmpdir("rt");
    let mut w = TraceWriter::create(&dir, TraceForm::Rich).unwrap();
    w.memcpy_h2d(0x7f00_0000_1000, 4096).unwrap();
    let mut k = synthetic_kernel(7);
    let expected = k.warps.clone();
    let (path, n) = w.write_kernel(&mut k).unwrap();
    w.finish().unwrap();
    assert_eq!(n, expected.values().map(|v| v.len() as u64).sum::<u64>());
    let list = read_kernel_list(&dir).unwrap();
    assert_eq!(
        list[0],
        ListEntry::MemcpyHtoD {
            addr: 0x7f00_0000_1000,
            bytes: 4096
        }
    );
    assert_eq!(list[1], ListEntry::Kernel(path.clone()));
    let mut rk = TraceKernel::open(&path, &TraceOptions::default()).unwrap();
    assert_eq!(rk.info(), &k.info);
    let got = read_all(&mut rk);
    assert!(rk.warnings().is_empty(), "{:?}", rk.warnings());
    assert_eq!(got.len(), expected.len());
    for (key, v) in &expected {
        let g = &got[key];
        assert_eq!(g.len(), v.len(), "{key:?}");
        for (a, b) in v.iter().zip(g) {
            assert_eq!(a, b, "warp {key:?}");
        }
    }
    // Writing what was read gives byte-identical files.
    let dir2 = tmpdir("rt2");
    let mut w2 = TraceWriter::create(&dir2, TraceForm::Rich).unwrap();
    let mut again = Replay::new(k.info.clone(), got);
    let (path2, _) = w2.write_kernel(&mut again).unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&path2).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

#[test]
fn predicates_are_written_as_p_registers() {
    let mut i = WarpInst::new(0, Family::Int, OpClass::Setp, u32::MAX);
    i.n_dst = 1;
    i.dst[0] = PRED_BASE + 2;
    i.n_src = 2;
    i.src[..2].copy_from_slice(&[4, 5]);
    let mut s = String::new();
    sim::trace::line::format_line(&i, &mut s);
    assert_eq!(s, "0000 ffffffff 1 P2 ISETP.GE.AND 2 R4 R5 0");
}

fn write_file(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const HEADER: &str = "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n-binary version = 61\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f1000000000\n-nvbit version = 1.5\n-accelsim tracer version = 3\n\n#traces format = ...\n\n";

fn open_err(tag: &str, body: &str) -> String {
    let dir = tmpdir(tag);
    let p = write_file(&dir, "kernel-1.traceg", &format!("{HEADER}{body}"));
    let r = TraceKernel::open(&p, &TraceOptions::default()).and_then(|mut k| {
        k.begin_cta(0, 0, 0)?;
        let mut i = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
        while k.next_inst(0, 0, 0, &mut i)? == Step::Inst {}
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
    r.err().map(|e| e.to_string()).unwrap_or_default()
}

#[test]
fn malformed_traces_name_file_and_line() {
    let e = open_err(
        "trunc",
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n0000 ffffffff 0 NOP 0 0\n#END_TB\n",
    );
    assert!(
        e.contains("kernel-1.traceg:21") && e.contains("truncated"),
        "{e}"
    );
    let e = open_err(
        "mask",
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 fffzffff 0 EXIT 0 0\n#END_TB\n",
    );
    assert!(
        e.contains("kernel-1.traceg:20") && e.contains("mask"),
        "{e}"
    );
    let e = open_err("mode", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R2 LDG.E 1 R4 4 9 0x0\n#END_TB\n");
    assert!(e.contains(":20") && e.contains("compression mode"), "{e}");
    let e = open_err(
        "noend",
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n",
    );
    assert!(e.contains("#END_TB"), "{e}");
    let dir = tmpdir("hdr");
    let p = write_file(&dir, "k.traceg", "-kernel name = k\n-grid dim = (1,1)\n");
    let e = TraceKernel::open(&p, &TraceOptions::default())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("k.traceg:2") && e.contains("grid dim"), "{e}");
    let p = write_file(&dir, "kernelslist.g", "kernel-1.traceg\nbogus line\n");
    let e = read_kernel_list(&p).unwrap_err().to_string();
    assert!(e.contains("kernelslist.g:2"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_exit_is_appended_with_a_warning() {
    let dir = tmpdir("exit");
    let p = write_file(&dir, "k.traceg", &format!("{HEADER}#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 NOP 0 0\n#END_TB\n"));
    let mut k = TraceKernel::open(&p, &TraceOptions::default()).unwrap();
    let got = read_all(&mut k);
    assert_eq!(got[&(0, 0)].len(), 2);
    assert_eq!(got[&(0, 0)][1].op, OpClass::Exit);
    assert_eq!(k.warnings().len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A body generated on the fly: `ctas` thread blocks of 32 warps × `per_warp` lines each.
struct GeneratedBody {
    ctas: u64,
    per_warp: u64,
    cta: u64,
    warp: u64,
    line: u64,
    stage: u8,
    pending: Vec<u8>,
    at: usize,
    bytes: u64,
}

impl GeneratedBody {
    fn refill(&mut self) -> bool {
        use std::fmt::Write;
        let mut s = String::new();
        match self.stage {
            0 => {
                if self.cta == self.ctas {
                    return false;
                }
                let _ = write!(s, "#BEGIN_TB\n\nthread block = {},0,0\n\n", self.cta);
                self.stage = 1;
                self.warp = 0;
            }
            1 => {
                let _ = write!(s, "warp = {}\ninsts = {}\n", self.warp, self.per_warp);
                self.stage = 2;
                self.line = 0;
            }
            _ => {
                // Emit lines in chunks.
                for _ in 0..64 {
                    if self.line == self.per_warp {
                        break;
                    }
                    let pc = self.line * 16;
                    let _ = writeln!(
                        s,
                        "{pc:04x} ffffffff 1 R{} LDG.E.64 1 R2 8 1 0x{:016x} 8",
                        (self.line % 100) * 2,
                        0x7f00_0000_0000u64 + self.line * 256
                    );
                    self.line += 1;
                }
                if self.line == self.per_warp {
                    self.warp += 1;
                    self.stage = 1;
                    if self.warp == 32 {
                        s.push_str("#END_TB\n\n");
                        self.cta += 1;
                        self.stage = 0;
                    }
                }
            }
        }
        self.bytes += s.len() as u64;
        self.pending = s.into_bytes();
        self.at = 0;
        true
    }
}

impl Read for GeneratedBody {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.pending.len() {
            if !self.refill() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

#[test]
fn streams_more_than_a_gigabyte_in_bounded_memory() {
    // 16 CTAs × 32 warps × 32 768 lines ≈ 17 M lines of ~62 bytes ≈ 1.05 GB.
    let mut body = GeneratedBody {
        ctas: 16,
        per_warp: 32_768,
        cta: 0,
        warp: 0,
        line: 0,
        stage: 0,
        pending: Vec::new(),
        at: 0,
        bytes: 0,
    };
    let before = rss_kib();
    let (ctas, warps, insts) = scan_body(&mut body, "<generated>", LineOptions::default()).unwrap();
    let after = rss_kib();
    assert_eq!((ctas, warps, insts), (16, 512, 16 * 32 * 32_768));
    assert!(
        body.bytes > 1_000_000_000,
        "only {} bytes generated",
        body.bytes
    );
    if let (Some(b), Some(a)) = (before, after) {
        println!("streamed {} bytes; RSS {} KiB -> {} KiB", body.bytes, b, a);
        assert!(
            a.saturating_sub(b) < 100 * 1024,
            "RSS grew by {} KiB",
            a - b
        );
    }
}
