//! The tensor cores of the timing model (`units.n_tensor`, `units.tensor_macs_per_cycle`,
//! `latency.tensor`): a product of M·N·K multiply-accumulates makes P = ⌈MACs / rate⌉ passes,
//! so a dependent chain advances by latency + (P − II)⁺ per product and independent products
//! on one core by max(II, P); a machine without tensor cores refuses them naming the key; an
//! nvcc-compiled WMMA GEMM runs on the timing model with its MACs and tensor instructions
//! counted in the Activity record.

mod common;
use sim::config::GpuConfig;
use sim::inst::{Family, OpClass};
use sim::ptx::Module;
use sim::timing::synth::{alu, SynthStream};
use sim::timing::{Simulation, Stream, TimingGpu};
use sim::{Gpu, Launch, ParamValue};

fn tensor_sm(n_tensor: u32, rate: u32, lat: [u32; 2]) -> GpuConfig {
    let mut c = GpuConfig::preset("gtx1080ti").unwrap();
    c.gpu.n_sm = 1;
    c.frontend.perfect_icache = true;
    c.units.n_tensor = n_tensor;
    c.units.tensor_macs_per_cycle = rate;
    c.latency.tensor = lat;
    c
}

/// Cycles of `n` tensor products of class `op` in one warp: each reads and writes register 1
/// (`dependent`), or writes its own register and reads none.
fn run(cfg: &GpuConfig, op: OpClass, n: u32, dependent: bool) -> Result<u64, sim::SimError> {
    let mut s = SynthStream::new(
        "mma",
        [1, 1, 1],
        [32, 1, 1],
        8,
        0,
        Box::new(move |_, _| {
            (0..n)
                .map(|i| {
                    if dependent {
                        alu(8 * i, Family::Tensor, op, &[1], &[1])
                    } else {
                        alu(8 * i, Family::Tensor, op, &[(i % 8) as u16 + 1], &[])
                    }
                })
                .collect()
        }),
    );
    Ok(Simulation::new(cfg).run(Stream(&mut s))?.cycles)
}

/// Cycles per product: the difference of runs of 40 and 20 products, over 20.
fn period(cfg: &GpuConfig, op: OpClass, dependent: bool) -> f64 {
    let a = run(cfg, op, 40, dependent).unwrap();
    let b = run(cfg, op, 20, dependent).unwrap();
    (a - b) as f64 / 20.0
}

#[test]
fn a_dependent_chain_advances_by_the_latency_and_the_passes() {
    // the issue overhead of a dependent chain on this preset (operand read + dispatch), as
    // timing_pipeline.rs measures it for every class
    const OVERHEAD: f64 = 2.0;
    for (op, macs) in [
        (OpClass::MmaF16Macs1024, 1024u32),
        (OpClass::MmaF16Macs2048, 2048),
        (OpClass::MmaBf16Macs4096, 4096),
    ] {
        for (rate, lat) in [(64u32, [10u32, 1u32]), (256, [30, 2]), (4096, [7, 1])] {
            let cfg = tensor_sm(4, rate, lat);
            let passes = macs.div_ceil(rate);
            let want = (lat[0] + passes.saturating_sub(lat[1])) as f64 + OVERHEAD;
            assert_eq!(
                period(&cfg, op, true),
                want,
                "{op:?} at {rate} MACs/cycle, latency {lat:?}"
            );
        }
    }
}

#[test]
fn independent_products_on_one_core_advance_by_the_passes() {
    // one warp uses its own sub-core's core: one product per max(II, P) cycles
    for (rate, ii) in [(64u32, 1u32), (128, 40), (1024, 1)] {
        let cfg = tensor_sm(4, rate, [5, ii]);
        let want = ii.max(4096u32.div_ceil(rate)) as f64;
        let got = period(&cfg, OpClass::MmaF16Macs4096, false);
        assert_eq!(got, want, "rate {rate}, ii {ii}");
    }
}

#[test]
fn a_machine_without_tensor_cores_refuses_them_naming_the_key() {
    let cfg = tensor_sm(0, 64, [1, 1]);
    let e = run(&cfg, OpClass::MmaF16Macs2048, 4, true)
        .unwrap_err()
        .to_string();
    assert!(e.contains("units.n_tensor"), "{e}");
    // and the PTX path, through the emulator's stream
    let m = tensor_module();
    let mut gpu = TimingGpu::new(cfg.clone());
    let e = gemm(&mut gpu, &m).unwrap_err().to_string();
    assert!(e.contains("units.n_tensor"), "{e}");
}

fn tensor_module() -> Module {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/tensor.ptx");
    Module::parse(
        &std::fs::read_to_string(&p).unwrap(),
        &p.display().to_string(),
    )
    .unwrap()
}

/// The WMMA GEMM of `cuda_tensor.rs` (32×48×64, B column-major) on `gpu`; returns C.
fn gemm<G: Gpu>(gpu: &mut G, m: &Module) -> Result<Vec<u32>, sim::SimError> {
    let (mm, nn, kk) = (32usize, 48usize, 64usize);
    let a: Vec<u16> = common::data(mm * kk, 1)
        .into_iter()
        .map(|x| 0x3800 | (x & 0x3FF) as u16)
        .collect();
    let b: Vec<u16> = common::data(kk * nn, 2)
        .into_iter()
        .map(|x| 0x3800 | (x & 0x3FF) as u16)
        .collect();
    let pa = gpu.alloc((a.len() * 2) as u64)?;
    let pb = gpu.alloc((b.len() * 2) as u64)?;
    let pc = gpu.alloc((mm * nn * 4) as u64)?;
    let bytes = |v: &[u16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    gpu.copy_to_device(pa, &bytes(&a))?;
    gpu.copy_to_device(pb, &bytes(&b))?;
    gpu.copy_to_device(pc, &vec![0u8; mm * nn * 4])?;
    let u = ParamValue::U64;
    let i = ParamValue::S32;
    gpu.launch(&Launch {
        kernel: m.load("wmma_gemm")?,
        grid: [1, (nn / 16) as u32, 1],
        block: [64, 1, 1],
        params: vec![
            u(pa),
            u(pb),
            u(pc),
            i(mm as i32),
            i(nn as i32),
            i(kk as i32),
            ParamValue::F32(1.0),
            ParamValue::F32(0.0),
            i(1),
        ],
        shared_bytes: 0,
        cooperative: false,
    })?;
    let mut out = vec![0u8; mm * nn * 4];
    gpu.copy_from_device(pc, &mut out)?;
    Ok(out
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

#[test]
fn a_wmma_gemm_on_the_timing_model_counts_its_products() {
    let m = tensor_module();
    let cfg = tensor_sm(8, 64, [1, 1]);
    let mut gpu = TimingGpu::new(cfg.clone());
    let c = gemm(&mut gpu, &m).unwrap();
    // the same values as on the functional emulator
    let want = gemm(&mut sim::emu::Emulator::new(), &m).unwrap();
    assert_eq!(c, want);
    assert!(c.iter().any(|&x| x != 0));
    let k = &gpu.activity().kernels[0];
    // 6 tiles of 16×16, each 4 k-steps of one m16n16k16 product
    assert_eq!(k.by_family.tensor.warp_insts, 24);
    assert_eq!(k.by_family.tensor.thread_insts, 24 * 32);
    let t = k.tensor.expect("tensor stats");
    assert_eq!(t.macs_f16, 24 * 4096);
    assert_eq!(t.macs_bf16, 0);
    // the products ran on the tensor pipes, each occupying its core 4096 / 64 cycles
    let mut ops = 0;
    let mut busy = 0;
    for sm in &k.sms {
        for p in sm.exec.iter().filter(|p| p.pipe == "tensor") {
            ops += p.ops.get("MMA_F16_4096").map_or(0, |o| o.ops);
            busy += p.busy.busy_cycles;
        }
    }
    assert_eq!(ops, 24);
    assert_eq!(busy, 24 * 64);
    // and the record names it
    let json = serde_json::to_string(&gpu.activity().kernels[0]).unwrap();
    assert!(json.contains("\"tensor\""));
}

#[test]
fn records_without_tensor_work_do_not_name_it() {
    let cfg = tensor_sm(0, 64, [1, 1]);
    let mut s = SynthStream::new(
        "fp",
        [1, 1, 1],
        [32, 1, 1],
        8,
        0,
        Box::new(|_, _| vec![alu(0, Family::Fp, OpClass::Add, &[1], &[1])]),
    );
    let k = Simulation::new(&cfg).run(Stream(&mut s)).unwrap();
    let json = serde_json::to_string(&k).unwrap();
    assert!(!json.contains("tensor"), "{json}");
}

#[test]
fn the_tensor_keys_are_set_like_any_other_and_range_checked() {
    let base = GpuConfig::preset("gtx1080ti").unwrap();
    assert_eq!(base.units.n_tensor, 0, "no preset has tensor cores");
    let set = |k: &str, v: &str| base.with_overrides(&[(k.to_string(), v.to_string())], "--set");
    let c = set("units.n_tensor", "8").unwrap();
    assert_eq!(c.units.n_tensor, 8);
    assert_eq!(
        set("units.tensor_macs_per_cycle", "256")
            .unwrap()
            .units
            .tensor_macs_per_cycle,
        256
    );
    assert_eq!(
        set("latency.tensor", "[12, 2]").unwrap().latency.tensor,
        [12, 2]
    );
    let e = set("units.tensor_macs_per_cycle", "0")
        .unwrap_err()
        .to_string();
    assert!(e.contains("units.tensor_macs_per_cycle"), "{e}");
    let e = set("units.n_tensor", "65").unwrap_err().to_string();
    assert!(e.contains("units.n_tensor"), "{e}");
    // a preset's text does not name the keys at their defaults (its hash is unchanged)
    assert!(!base.to_toml_string().contains("tensor"));
    assert!(c.to_toml_string().contains("n_tensor = 8"));
}
