//! hotspot (Rodinia): transient thermal simulation of a chip as a 2-D grid of RC cells.
//! Each cell integrates `dT = step/Cap · (P + (T_N + T_S − 2T)/Ry + (T_E + T_W − 2T)/Rx +
//! (T_amb − T)/Rz)` (explicit Euler; neighbours clamped at the chip edge). The kernel runs a
//! pyramid of 2 time steps per launch on 16×16 shared-memory tiles (FP, barrier-heavy,
//! divergent at the shrinking tile edges).
//!
//! Cell constants follow the usual silicon-die RC model: a 16 mm × 16 mm die 0.5 mm thick,
//! volumetric heat capacity 1.75·10⁶ J/(m³K) scaled by 0.5, conductivity 100 W/(mK), step chosen
//! from a maximum power density of 3·10⁶ W/m² and a precision of 10⁻³ K.

use super::*;

const PTX: &str = include_str!("../../workloads/hotspot.ptx");
const FILE: &str = "sim/workloads/hotspot.ptx";
const BLOCK: u32 = 16;
/// Time steps per launch.
const PYRAMID: u32 = 2;
const AMBIENT_K: f32 = 80.0;

/// The hotspot workload.
pub struct Hotspot;

/// (grid side, time steps). Bench uses 512² instead of the spec's 1024² so that a functional
/// run stays within tens of seconds.
fn dims(size: Size) -> (usize, usize) {
    match size {
        Size::Test => (64, 4),
        Size::Bench => (512, 20),
    }
}

/// RC constants of one cell for an `n × n` grid: (Cap, Rx, Ry, Rz, step), as f32.
fn cell_constants(n: usize) -> [f32; 5] {
    let chip_height_m = 0.016f64;
    let chip_width_m = 0.016f64;
    let t_chip_m = 0.0005f64;
    let factor_chip = 0.5f64;
    let spec_heat_si = 1.75e6f64;
    let k_si = 100.0f64;
    let max_pd = 3.0e6f64;
    let precision = 0.001f64;
    let gh = chip_height_m / n as f64;
    let gw = chip_width_m / n as f64;
    let cap = factor_chip * spec_heat_si * t_chip_m * gw * gh;
    let rx = gw / (2.0 * k_si * t_chip_m * gh);
    let ry = gh / (2.0 * k_si * t_chip_m * gw);
    let rz = t_chip_m / (k_si * gh * gw);
    let max_slope = max_pd / (factor_chip * t_chip_m * spec_heat_si);
    let step = precision / max_slope;
    [cap as f32, rx as f32, ry as f32, rz as f32, step as f32]
}

/// Initial temperatures (K) and power (W) per cell.
fn generate(size: Size) -> (usize, usize, Vec<f32>, Vec<f32>) {
    let (n, steps) = dims(size);
    let mut rng = Rng::for_workload("hotspot", size);
    let temp = rng.vec_f32(n * n, 320.0, 345.0);
    let power = rng.vec_f32(n * n, 0.0, 2.0e-3);
    (n, steps, temp, power)
}

/// CPU reference: `steps` explicit time steps over the whole grid, same operation order as the
/// kernel (FMA where it uses FMA).
fn reference(n: usize, steps: usize, temp: &[f32], power: &[f32]) -> Vec<f32> {
    let [cap, rx, ry, rz, step] = cell_constants(n);
    let sdc = step / cap;
    let (rx1, ry1, rz1) = (1.0 / rx, 1.0 / ry, 1.0 / rz);
    let mut t = temp.to_vec();
    let mut u = vec![0f32; n * n];
    for _ in 0..steps {
        for r in 0..n {
            for x in 0..n {
                let c = t[r * n + x];
                let nn = t[r.saturating_sub(1) * n + x];
                let s = t[(r + 1).min(n - 1) * n + x];
                let w = t[r * n + x.saturating_sub(1)];
                let e = t[r * n + (x + 1).min(n - 1)];
                let ns = c.mul_add(-2.0, s + nn);
                let we = c.mul_add(-2.0, e + w);
                let amb = AMBIENT_K - c;
                let mut acc = ns.mul_add(ry1, power[r * n + x]);
                acc = we.mul_add(rx1, acc);
                acc = amb.mul_add(rz1, acc);
                u[r * n + x] = sdc.mul_add(acc, c);
            }
        }
        std::mem::swap(&mut t, &mut u);
    }
    t
}

impl Workload for Hotspot {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: "hotspot",
            suite: "rodinia",
            character: "F B Sh D",
            description: "2-D thermal RC stencil, 16x16 shared-memory tiles, pyramid of 2 steps \
                          per launch",
        }
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("calculate_temp", 93744)],
            regs_hint: Some(27),
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let (n, steps, temp, power) = generate(size);
        let k = &load_kernels(PTX, FILE, &["calculate_temp"])?[0];
        let [cap, rx, ry, rz, step] = cell_constants(n);
        let d_power = upload_f32(gpu, &power)?;
        let mut src = upload_f32(gpu, &temp)?;
        let mut dst = alloc_words(gpu, n * n)?;
        let small = (BLOCK - 2 * PYRAMID) as usize;
        let blocks = n.div_ceil(small) as u32;
        let border = PYRAMID as i32;
        let mut launches = 0;
        let mut t = 0;
        while t < steps {
            let iteration = (PYRAMID as usize).min(steps - t) as i32;
            launch(
                gpu,
                k,
                [blocks, blocks, 1],
                [BLOCK, BLOCK, 1],
                vec![
                    ParamValue::S32(iteration),
                    ptr(d_power),
                    ptr(src),
                    ptr(dst),
                    ParamValue::S32(n as i32),
                    ParamValue::S32(n as i32),
                    ParamValue::S32(border),
                    ParamValue::S32(border),
                    ParamValue::F32(cap),
                    ParamValue::F32(rx),
                    ParamValue::F32(ry),
                    ParamValue::F32(rz),
                    ParamValue::F32(step),
                ],
            )?;
            launches += 1;
            std::mem::swap(&mut src, &mut dst);
            t += PYRAMID as usize;
        }
        let check = if check {
            let got = download_f32(gpu, src, n * n)?;
            let want = reference(n, steps, &temp, &power);
            Some(compare_f32("temperature", &got, &want, 1e-5, 1.0))
        } else {
            None
        };
        Ok(RunReport { launches, check })
    }
}
