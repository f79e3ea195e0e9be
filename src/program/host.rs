//! The host program of a [`UserProgram`]: what it does to a [`Gpu`], as a
//! [`sim::workloads::Workload`].
//!
//! One run: every buffer is allocated in name order (`Gpu::alloc`, zeroed memory); a buffer
//! whose init is not `zeros` is then copied host-to-device (`Gpu::copy_to_device`, so the copy
//! counts in the Activity — DRAM traffic and, with `mem.memcpy_fills_l2`, the L2 fill — as a
//! built-in workload's uploads do); then the steps run in order: launches, host-to-device
//! copies of the given contents, device-to-host copies (`Gpu::copy_from_device`, kept as a
//! snapshot and, with [`UserProgram::write_outputs`], written to their file), groups repeated.
//! Conditional handles are allocated after the buffers, one 32-bit device word each, written
//! with their default value when it is not 0 (a host-to-device copy of 4 bytes); a kernel's
//! `cudaGraphSetConditional` stores into that word, and a conditional group reads it back
//! (`Gpu::copy_from_device`, which no model counts) before each decision.
//! With `check`, each `[[checks]]` entry compares its snapshot, or its buffer read back at the
//! end, with the reference; the `--size` tier is ignored (a program has fixed sizes).

use super::{Arg, Buffer, Check, CondKind, DType, Init, Num, Step, Tolerance, UserProgram};
use sim::workloads::{CheckResult, Rng, RunReport, Size, Workload, WorkloadInfo};
use sim::{DevPtr, Gpu, Launch, ParamValue, SimError};
use std::collections::BTreeMap;

/// IEEE-754 half-precision bits of `v`, rounded to nearest even (overflow to infinity): the
/// emulator's `cvt.rn.f16` ([`sim::emu::cvt::f64_to_f16`]).
pub fn f16_bits(v: f64) -> u16 {
    sim::emu::cvt::f64_to_f16(v, sim::ptx::isa::Rnd::Rn)
}

/// The value of IEEE-754 half-precision bits ([`sim::emu::cvt::f16_to_f64`]).
pub fn f16_value(h: u16) -> f64 {
    sim::emu::cvt::f16_to_f64(h)
}

/// Appends `n` as one element of `dtype` (integers already range-checked; floats rounded).
fn push_elem(out: &mut Vec<u8>, dtype: DType, n: Num) {
    match (dtype.is_float(), n) {
        (false, Num::Int(i)) => {
            out.extend_from_slice(&(i as u64).to_le_bytes()[..dtype.size() as usize])
        }
        (false, Num::Float(f)) => {
            out.extend_from_slice(&(f as i64 as u64).to_le_bytes()[..dtype.size() as usize])
        }
        (true, n) => {
            let v = n.as_f64();
            match dtype {
                DType::F16 => out.extend_from_slice(&f16_bits(v).to_le_bytes()),
                DType::F32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
                _ => out.extend_from_slice(&v.to_le_bytes()),
            }
        }
    }
}

/// The bytes of `init` for `count` elements of `dtype` (`None` for zeros: nothing to copy).
pub fn init_bytes(init: &Init, dtype: DType, count: u64) -> Option<Vec<u8>> {
    let n = count as usize;
    let mut out = Vec::with_capacity(n * dtype.size() as usize);
    match init {
        Init::Zeros => return None,
        Init::File { data, .. } => return Some(data.to_vec()),
        Init::Constant(v) => {
            let mut one = Vec::new();
            push_elem(&mut one, dtype, *v);
            for _ in 0..n {
                out.extend_from_slice(&one);
            }
        }
        Init::Range { start, step } => {
            for i in 0..n {
                let v = match (start, step) {
                    (Num::Int(a), Num::Int(b)) if !dtype.is_float() => Num::Int(a + b * i as i128),
                    _ => Num::Float(start.as_f64() + step.as_f64() * i as f64),
                };
                push_elem(&mut out, dtype, v);
            }
        }
        Init::Random { seed, min, max } => {
            let mut rng = Rng::new(*seed);
            for _ in 0..n {
                let v = match (min, max) {
                    (Num::Int(lo), Num::Int(hi)) if !dtype.is_float() => {
                        let span = (hi - lo + 1) as u128;
                        Num::Int(lo + ((rng.next_u64() as u128 * span) >> 64) as i128)
                    }
                    _ => {
                        let unit = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
                        Num::Float(min.as_f64() + (max.as_f64() - min.as_f64()) * unit)
                    }
                };
                push_elem(&mut out, dtype, v);
            }
        }
    }
    Some(out)
}

/// Element `i` of little-endian `data` of `dtype` as an exact integer (integer types).
fn int_at(data: &[u8], dtype: DType, i: usize) -> i128 {
    let s = dtype.size() as usize;
    let mut b = [0u8; 8];
    b[..s].copy_from_slice(&data[i * s..(i + 1) * s]);
    let u = u64::from_le_bytes(b);
    match dtype {
        DType::I8 => u as u8 as i8 as i128,
        DType::I16 => u as u16 as i16 as i128,
        DType::I32 => u as u32 as i32 as i128,
        DType::I64 => u as i64 as i128,
        _ => u as i128,
    }
}

/// Element `i` of little-endian `data` of `dtype` as a float.
fn float_at(data: &[u8], dtype: DType, i: usize) -> f64 {
    let s = dtype.size() as usize;
    let c = &data[i * s..(i + 1) * s];
    match dtype {
        DType::F16 => f16_value(u16::from_le_bytes([c[0], c[1]])),
        DType::F32 => f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64,
        DType::F64 => f64::from_le_bytes(c.try_into().expect("8 bytes")),
        _ => int_at(data, dtype, i) as f64,
    }
}

/// Compares `got` with `want` (both `count` elements of `dtype`) under `tol`; the detail
/// reports the largest absolute (and, for floats, relative) error and the first failing
/// element.
pub fn compare(label: &str, dtype: DType, got: &[u8], want: &[u8], tol: Tolerance) -> CheckResult {
    let n = want.len() / dtype.size() as usize;
    if got.len() != want.len() {
        return CheckResult {
            passed: false,
            detail: format!(
                "{label}: {} bytes read back, the reference has {}",
                got.len(),
                want.len()
            ),
        };
    }
    let mut bad = 0usize;
    let mut first: Option<usize> = None;
    let (mut max_abs, mut max_rel) = (0f64, 0f64);
    for i in 0..n {
        let fail = match tol {
            Tolerance::Exact => {
                let (g, w) = (int_at(got, dtype, i), int_at(want, dtype, i));
                max_abs = max_abs.max((g - w).unsigned_abs() as f64);
                g != w
            }
            Tolerance::Close { rtol, atol } => {
                let (g, w) = (float_at(got, dtype, i), float_at(want, dtype, i));
                let d = (g - w).abs();
                if g.is_nan() || w.is_nan() {
                    max_abs = f64::INFINITY;
                    true
                } else if g == w {
                    false
                } else if g.is_infinite() || w.is_infinite() {
                    max_abs = f64::INFINITY;
                    true
                } else {
                    max_abs = max_abs.max(d);
                    if w != 0.0 {
                        max_rel = max_rel.max(d / w.abs());
                    }
                    d > atol + rtol * w.abs()
                }
            }
        };
        if fail {
            bad += 1;
            first.get_or_insert(i);
        }
    }
    let what = match tol {
        Tolerance::Exact => format!("max abs err {max_abs} over {n} {} (exact)", dtype.name()),
        Tolerance::Close { rtol, atol } => format!(
            "max abs err {max_abs:.3e}, max rel err {max_rel:.3e} over {n} {} (rtol {rtol:.0e}, \
             atol {atol:.0e})",
            dtype.name()
        ),
    };
    match first {
        None => CheckResult {
            passed: true,
            detail: format!("{label}: {what}"),
        },
        Some(i) => {
            let (g, w) = match tol {
                Tolerance::Exact => (
                    int_at(got, dtype, i).to_string(),
                    int_at(want, dtype, i).to_string(),
                ),
                Tolerance::Close { .. } => (
                    float_at(got, dtype, i).to_string(),
                    float_at(want, dtype, i).to_string(),
                ),
            };
            CheckResult {
                passed: false,
                detail: format!(
                    "{label}: {bad} of {n} elements differ; {what}; first at [{i}]: got {g} want \
                     {w}"
                ),
            }
        }
    }
}

/// State of one run.
struct RunState {
    ptrs: Vec<DevPtr>,
    /// Device address of each conditional handle's word.
    handles: Vec<DevPtr>,
    /// Handle of each texture object.
    textures: Vec<u64>,
    snapshots: BTreeMap<String, Vec<u8>>,
    launches: u64,
}

fn io_err(what: String) -> SimError {
    SimError::Other(what)
}

impl UserProgram {
    fn exec(&self, steps: &[Step], gpu: &mut dyn Gpu, st: &mut RunState) -> Result<(), SimError> {
        for s in steps {
            match s {
                Step::Launch {
                    kernel,
                    grid,
                    block,
                    shared,
                    args,
                    repeat,
                    cooperative,
                } => {
                    let params = args
                        .iter()
                        .map(|a| match a {
                            Arg::Buffer(i) => ParamValue::U64(st.ptrs[*i]),
                            Arg::Handle(i) => ParamValue::U64(st.handles[*i]),
                            Arg::Texture(i) => ParamValue::U64(st.textures[*i]),
                            Arg::Scalar(v) => v.clone(),
                        })
                        .collect();
                    let l = Launch {
                        kernel: kernel.clone(),
                        grid: *grid,
                        block: *block,
                        params,
                        shared_bytes: *shared,
                        cooperative: *cooperative,
                    };
                    for _ in 0..*repeat {
                        gpu.launch(&l)?;
                        st.launches += 1;
                    }
                }
                Step::ToDevice {
                    buffer,
                    init,
                    repeat,
                } => {
                    let b = &self.buffers[*buffer];
                    let bytes = init_bytes(init, b.dtype, b.count)
                        .unwrap_or_else(|| vec![0u8; b.bytes() as usize]);
                    for _ in 0..*repeat {
                        gpu.copy_to_device(st.ptrs[*buffer], &bytes)?;
                    }
                }
                Step::ToHost {
                    buffer,
                    snapshot,
                    file,
                    repeat,
                } => {
                    let b = &self.buffers[*buffer];
                    let mut out = vec![0u8; b.bytes() as usize];
                    for _ in 0..*repeat {
                        gpu.copy_from_device(st.ptrs[*buffer], &mut out)?;
                    }
                    if let (Some(f), true) = (file, self.write_outputs) {
                        write_output(f, b, &out)?;
                    }
                    if let Some(n) = snapshot {
                        st.snapshots.insert(n.clone(), out);
                    }
                }
                Step::Group { steps, repeat } => {
                    for _ in 0..*repeat {
                        self.exec(steps, gpu, st)?;
                    }
                }
                Step::Conditional {
                    steps,
                    handle,
                    kind,
                } => {
                    let at = st.handles[*handle];
                    let value = |gpu: &mut dyn Gpu| -> Result<u32, SimError> {
                        let mut b = [0u8; 4];
                        gpu.copy_from_device(at, &mut b)?;
                        Ok(u32::from_le_bytes(b))
                    };
                    match kind {
                        CondKind::If => {
                            if value(gpu)? != 0 {
                                self.exec(steps, gpu, st)?;
                            }
                        }
                        CondKind::While { max_iterations, at } => {
                            let mut n = 0u32;
                            while value(gpu)? != 0 {
                                if n == *max_iterations {
                                    return Err(io_err(format!(
                                        "{at}: the while loop on conditional '{}' is still \
                                         true after {n} iterations (max_iterations)",
                                        self.conditionals[*handle].name
                                    )));
                                }
                                self.exec(steps, gpu, st)?;
                                n += 1;
                                if gpu.last_launch_truncated() {
                                    // partial device results: the loop stops (`Gpu` doc)
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn check_one(
        &self,
        c: &Check,
        gpu: &mut dyn Gpu,
        st: &RunState,
    ) -> Result<CheckResult, SimError> {
        let b = &self.buffers[c.buffer];
        let got = match &c.snapshot {
            Some(n) => st.snapshots.get(n).cloned().ok_or_else(|| {
                io_err(format!(
                    "check '{}': snapshot '{n}' was not taken (its step did not run)",
                    c.label
                ))
            })?,
            None => {
                let mut out = vec![0u8; b.bytes() as usize];
                gpu.copy_from_device(st.ptrs[c.buffer], &mut out)?;
                out
            }
        };
        Ok(compare(&c.label, b.dtype, &got, &c.reference, c.tolerance))
    }
}

/// Writes a device-to-host copy to its file: `.npy` with the buffer's dtype and shape, else
/// the raw bytes.
fn write_output(f: &std::path::Path, b: &Buffer, data: &[u8]) -> Result<(), SimError> {
    let bytes = if f.extension().is_some_and(|e| e == "npy") {
        super::npy::write(b.dtype, &[b.count], data)
    } else {
        data.to_vec()
    };
    std::fs::write(f, bytes).map_err(|e| io_err(format!("cannot write {}: {e}", f.display())))
}

impl Workload for UserProgram {
    fn info(&self) -> WorkloadInfo {
        self.info
    }

    fn identity(&self) -> String {
        self.identity.clone()
    }

    fn run(&self, _size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let mut st = RunState {
            handles: Vec::with_capacity(self.conditionals.len()),
            textures: Vec::with_capacity(self.textures.len()),
            ptrs: Vec::with_capacity(self.buffers.len()),
            snapshots: BTreeMap::new(),
            launches: 0,
        };
        if let Some(b) = self.stack_bytes {
            gpu.set_stack_limit(b)?;
        }
        for b in &self.buffers {
            let p = gpu.alloc(b.bytes())?;
            if let Some(bytes) = init_bytes(&b.init, b.dtype, b.count) {
                gpu.copy_to_device(p, &bytes)?;
            }
            st.ptrs.push(p);
        }
        for c in &self.conditionals {
            let p = gpu.alloc(4)?;
            if c.default != 0 {
                gpu.copy_to_device(p, &c.default.to_le_bytes())?;
            }
            st.handles.push(p);
        }
        for t in &self.textures {
            let desc = sim::texture::TextureDesc {
                base: st.ptrs[t.buffer],
                ..t.desc.clone()
            };
            let h = gpu
                .create_texture(&desc)
                .map_err(|e| io_err(format!("texture '{}': {e}", t.name)))?;
            st.textures.push(h);
        }
        self.exec(&self.steps, gpu, &mut st)?;
        let check = if check && !self.checks.is_empty() {
            let parts = self
                .checks
                .iter()
                .map(|c| self.check_one(c, gpu, &st))
                .collect::<Result<Vec<_>, _>>()?;
            Some(CheckResult::all(parts))
        } else {
            None
        };
        Ok(RunReport {
            launches: u32::try_from(st.launches).unwrap_or(u32::MAX),
            check,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_precision_round_trips() {
        for v in [
            0.0,
            1.0,
            -2.5,
            65504.0,
            6.103515625e-5,
            5.960464477539063e-8,
        ] {
            assert_eq!(f16_value(f16_bits(v)), v, "{v}");
        }
        assert_eq!(f16_bits(1e6), 0x7c00);
        assert_eq!(f16_bits(1.0 + 1.0 / 4096.0), 0x3c00); // ties to even
        assert!(f16_value(f16_bits(f64::NAN)).is_nan());
    }

    #[test]
    fn inits_are_exact_and_deterministic() {
        let r = init_bytes(
            &Init::Range {
                start: Num::Int(-2),
                step: Num::Int(3),
            },
            DType::I16,
            3,
        )
        .unwrap();
        assert_eq!(r, [0xfe, 0xff, 1, 0, 4, 0]);
        let rnd = |seed| {
            init_bytes(
                &Init::Random {
                    seed,
                    min: Num::Int(5),
                    max: Num::Int(7),
                },
                DType::U8,
                1000,
            )
            .unwrap()
        };
        assert_eq!(rnd(1), rnd(1));
        assert_ne!(rnd(1), rnd(2));
        assert!(rnd(1).iter().all(|&b| (5..=7).contains(&b)));
        assert!((5..=7).all(|v| rnd(1).contains(&v)));
        assert!(init_bytes(&Init::Zeros, DType::F32, 4).is_none());
    }

    #[test]
    fn comparison_reports_errors() {
        let enc = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let tol = Tolerance::Close {
            rtol: 1e-5,
            atol: 1e-8,
        };
        let ok = compare("y", DType::F32, &enc(&[1.0, 2.0]), &enc(&[1.0, 2.0]), tol);
        assert!(ok.passed, "{}", ok.detail);
        let bad = compare("y", DType::F32, &enc(&[1.0, 2.1]), &enc(&[1.0, 2.0]), tol);
        assert!(
            !bad.passed && bad.detail.contains("first at [1]"),
            "{}",
            bad.detail
        );
        let nan = compare("y", DType::F32, &enc(&[f32::NAN]), &enc(&[1.0]), tol);
        assert!(!nan.passed);
        let ints = compare(
            "c",
            DType::I32,
            &[1, 0, 0, 0],
            &[2, 0, 0, 0],
            Tolerance::Exact,
        );
        assert!(
            !ints.passed && ints.detail.contains("max abs err 1"),
            "{}",
            ints.detail
        );
    }
}
