//! The simulated device of the Python package: a [`TimingGpu`] (every launch simulated
//! cycle by cycle, memory in its functional emulator) that a Python host program drives call
//! by call — allocations, host↔device copies and launches through [`sim::Gpu`], as a program
//! file's host program does (`gpuenergy::program::host`) — and the PTX modules and kernels it
//! launches. Launch arguments are checked against the kernel's `.param` list with the checks
//! of program files (`gpuenergy::program::launch_args`), so the messages are the same.
//!
//! A device is either owned (made by `Device(...)`: it keeps its GPU until `finish()` hands
//! the Activity over) or lent (a `Gpu` that a study's simulation owns, handed to a Python host
//! program for the duration of one call, see [`crate::program`]).

use crate::activity::{Activity, RunSetup};
use crate::progress::ProgressSlot;
use crate::{py_err, py_msg};
use gpuenergy::cli::{ConfigMods, TechArgs};
use gpuenergy::program::launch_args;
use gpuenergy::study::Study;
use pyo3::exceptions::{PyAttributeError, PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat, PyInt, PyTuple};
use sim::ptx::Ty;
use sim::timing::{Simulation, TimingGpu};
use sim::{Gpu, Launch, ParamValue};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A `Gpu` owned elsewhere (a study's simulation), lent to Python for one host-program call.
/// The pointer is valid only while that call runs: [`Device::close`] replaces it before the
/// lender's frame returns, and every use goes through the device's mutex.
pub(crate) struct LentGpu(*mut (dyn Gpu + 'static));

// SAFETY: the pointee is a `Gpu` the lending thread holds `&mut` to for the whole call and does
// not touch meanwhile; the device's mutex serialises every use, and the pointer is dropped
// (state `Closed`) before the borrow ends.
unsafe impl Send for LentGpu {}

enum State {
    Owned(Box<TimingGpu>),
    Lent(LentGpu),
    Closed(&'static str),
}

/// A simulated GPU driven from Python (`gpuenergy.Device` wraps it).
#[pyclass(module = "gpuenergy._native", frozen)]
pub struct Device {
    state: Mutex<State>,
    setup: Option<Arc<RunSetup>>,
    progress: ProgressSlot,
    launches: AtomicU64,
}

/// The command line's technology-point flags (`--tech --op --vdd --device --temperature`).
pub(crate) fn tech_args(
    tech: &str,
    op: Option<&str>,
    vdd: Option<f64>,
    device: Option<&str>,
    temperature_k: Option<f64>,
) -> TechArgs {
    TechArgs {
        tech: tech.to_string(),
        vdd,
        op: op.map(str::to_string),
        device: device.map(str::to_string),
        temperature: temperature_k.unwrap_or(gpuenergy::study::DEFAULT_TEMPERATURE_K),
    }
}

/// The configuration and technology point of a device, as the command line resolves
/// `--preset/--config`, `mods` (`--technique --scheduler --set`) and `point`.
pub(crate) fn resolve_setup(
    preset: Option<&str>,
    config: Option<std::path::PathBuf>,
    mods: &ConfigMods,
    point: &TechArgs,
    name: &str,
) -> anyhow::Result<RunSetup> {
    let (cfg, _) = gpuenergy::cli::simulate::resolve_config(preset, config.as_ref(), mods)?;
    let tech = point.tech.clone();
    let point = point.choice()?;
    let study = Study::new(cfg.clone(), point.clone(), None);
    let src = study.cost_source()?;
    let chip = study.chip(&src)?;
    // the machine simulated: knobs a technique derives from the technology point filled in,
    // as `estimate` simulates it
    let timed = study.timed_config(&chip)?;
    Ok(RunSetup {
        cfg,
        timed,
        point,
        tech,
        tech_label: src.label,
        name: name.to_string(),
    })
}

impl Device {
    /// A device lent `gpu` for one host-program call (see [`LentGpu`]).
    pub(crate) fn lent(gpu: &mut dyn Gpu) -> Device {
        let p: *mut (dyn Gpu + '_) = gpu;
        // SAFETY: only the lifetime bound is erased; see `LentGpu`.
        let p: *mut (dyn Gpu + 'static) = unsafe { std::mem::transmute(p) };
        Device {
            state: Mutex::new(State::Lent(LentGpu(p))),
            setup: None,
            progress: ProgressSlot::default(),
            launches: AtomicU64::new(0),
        }
    }

    /// Ends a lent device's loan: every later call is refused. Waits (with the GIL released)
    /// for a call still running on it in another thread.
    pub(crate) fn close(&self, py: Python<'_>) {
        py.detach(|| {
            *self.state.lock().unwrap_or_else(|p| p.into_inner()) = State::Closed(
                "this device was lent to one run of a host program, which has returned; use \
                 the device passed to the current call",
            );
        });
    }

    /// Launches made on it.
    pub(crate) fn launch_count(&self) -> u64 {
        self.launches.load(Ordering::Relaxed)
    }

    /// The device's state, or an error while another thread runs a call on it: a device runs
    /// one call at a time, and waiting here with the GIL held would stop the running launch
    /// from ever taking the GIL back.
    fn lock(&self) -> PyResult<MutexGuard<'_, State>> {
        match self.state.try_lock() {
            Ok(g) => Ok(g),
            Err(std::sync::TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => Err(py_msg(
                "the device is running a call in another thread; a device runs one call at a \
                 time",
            )),
        }
    }

    /// Runs `f` on the device's GPU, with the GIL released when `detach`.
    fn with_gpu<R: Send>(
        &self,
        py: Python<'_>,
        detach: bool,
        f: impl FnOnce(&mut dyn Gpu) -> Result<R, sim::SimError> + Send,
    ) -> PyResult<R> {
        let mut guard = self.lock()?;
        let gpu: &mut dyn Gpu = match &mut *guard {
            State::Owned(g) => g.as_mut(),
            // SAFETY: see `LentGpu`: valid while the state is `Lent`, and the guard is held.
            State::Lent(p) => unsafe { &mut *p.0 },
            State::Closed(why) => return Err(py_msg(*why)),
        };
        struct SendGpu<'a>(&'a mut dyn Gpu);
        // SAFETY: the GPU is used by one thread at a time (the guard is held throughout).
        unsafe impl Send for SendGpu<'_> {}
        let g = SendGpu(gpu);
        let r = if detach {
            py.detach(move || {
                let g = g;
                f(g.0)
            })
        } else {
            f(g.0)
        };
        r.map_err(py_err)
    }
}

/// `[x, y, z]` from an int or a tuple/list of 1 to 3 ints.
fn dim3(v: &Bound<'_, PyAny>, what: &str) -> PyResult<[u32; 3]> {
    let items: Vec<Bound<'_, PyAny>> = if v.is_instance_of::<PyInt>() {
        vec![v.clone()]
    } else {
        v.try_iter()
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "{what}: expected an int or a tuple (x, y, z) of 1 to 3 positive ints"
                ))
            })?
            .collect::<PyResult<_>>()?
    };
    if items.is_empty() || items.len() > 3 {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected an int or a tuple (x, y, z) of 1 to 3 positive ints, got {} items",
            items.len()
        )));
    }
    let mut d = [1u32; 3];
    for (i, x) in items.iter().enumerate() {
        let n: i64 = x
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("{what}: {x} is not an int")))?;
        if n <= 0 || n > u32::MAX as i64 {
            return Err(py_msg(format!(
                "{what}: {n} is not a positive 32-bit integer"
            )));
        }
        d[i] = n as u32;
    }
    Ok(d)
}

#[pymethods]
impl Device {
    /// A simulated GPU: `preset` (default gtx1080ti) or a `config` TOML file, then `technique`
    /// (NAME or NAME+NAME), `scheduler`, and `set` (KEY=VALUE strings, applied last), as the
    /// command line's flags; `tech`/`op`/`vdd`/`device`/`temperature_k` fix the technology
    /// point that estimates default to and that derived knobs (`pg.timing = "Physical"`) are
    /// computed at. `name` labels the run.
    #[new]
    #[pyo3(signature = (preset=None, config=None, technique=None, set=Vec::new(), scheduler=None,
                        tech="finfet7", op=None, vdd=None, device=None, temperature_k=None,
                        name="python"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        preset: Option<&str>,
        config: Option<std::path::PathBuf>,
        technique: Option<String>,
        set: Vec<String>,
        scheduler: Option<String>,
        tech: &str,
        op: Option<&str>,
        vdd: Option<f64>,
        device: Option<&str>,
        temperature_k: Option<f64>,
        name: &str,
    ) -> PyResult<Device> {
        let preset = preset.or(if config.is_none() {
            Some("gtx1080ti")
        } else {
            None
        });
        let mods = ConfigMods {
            technique,
            scheduler,
            set,
        };
        let point = tech_args(tech, op, vdd, device, temperature_k);
        let setup = resolve_setup(preset, config, &mods, &point, name).map_err(py_err)?;
        let progress = ProgressSlot::default();
        let mut gpu = Simulation::new(&setup.timed).gpu().map_err(py_err)?;
        gpu.set_progress(progress.hook());
        Ok(Device {
            state: Mutex::new(State::Owned(Box::new(gpu))),
            setup: Some(Arc::new(setup)),
            progress,
            launches: AtomicU64::new(0),
        })
    }

    /// Allocates `nbytes` of zeroed device memory (256-byte aligned); returns its address.
    fn alloc(&self, py: Python<'_>, nbytes: u64) -> PyResult<u64> {
        self.with_gpu(py, false, |g| g.alloc(nbytes))
    }

    /// Copies `data` to device address `ptr` (counted as a host-to-device copy).
    fn copy_to_device(&self, py: Python<'_>, ptr: u64, data: &Bound<'_, PyBytes>) -> PyResult<()> {
        let bytes = data.as_bytes();
        self.with_gpu(py, false, |g| g.copy_to_device(ptr, bytes))
    }

    /// `nbytes` of device memory at `ptr`.
    fn copy_from_device<'py>(
        &self,
        py: Python<'py>,
        ptr: u64,
        nbytes: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mut out = vec![0u8; nbytes];
        self.with_gpu(py, false, |g| g.copy_from_device(ptr, &mut out))?;
        Ok(PyBytes::new(py, &out))
    }

    /// Launches `kernel` on a `grid` of CTAs of `block` threads with `shared_mem` bytes of
    /// dynamic shared memory. `args` holds one `(kind, value)` per parameter: kind `"ptr"`
    /// (a device array's address), `""` (a Python int or float) or a scalar type (`u8 i8 u16
    /// i16 u32 i32 u64 i64 f32 f64`, a numpy scalar), each checked against the kernel's
    /// `.param` list. The simulation runs with the GIL released; `progress(cycles,
    /// warp_insts)` is called every fraction of a second while it runs.
    #[pyo3(signature = (kernel, grid, block, args, shared_mem=0, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        py: Python<'_>,
        kernel: &Kernel,
        grid: &Bound<'_, PyAny>,
        block: &Bound<'_, PyAny>,
        args: Vec<(String, Bound<'_, PyAny>)>,
        shared_mem: u32,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        let k = &kernel.kernel;
        let grid = dim3(grid, "grid")?;
        let block = dim3(block, "block")?;
        launch_args::check_dims(grid, false).map_err(|e| py_msg(format!("grid: {e}")))?;
        launch_args::check_dims(block, true).map_err(|e| py_msg(format!("block: {e}")))?;
        launch_args::check_block_for_kernel(k, block).map_err(|e| py_msg(format!("block: {e}")))?;
        let params = launch_params(k, &args)?;
        let l = Launch {
            kernel: k.clone(),
            grid,
            block,
            params,
            shared_bytes: shared_mem,
            cooperative: false,
        };
        let _on = self.progress.set(progress);
        let name = k.name.clone();
        self.with_gpu(py, true, |g| g.launch(&l))
            .map_err(|e| py_msg(format!("kernel '{name}': {}", e.value(py))))?;
        self.launches.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Ends the run and returns its Activity; the device takes no further calls.
    fn finish(&self) -> PyResult<Activity> {
        let mut guard = self.lock()?;
        match std::mem::replace(
            &mut *guard,
            State::Closed("this device has finished (finish() returned its Activity)"),
        ) {
            State::Owned(gpu) => {
                let setup = self.setup.clone().expect("an owned device has its setup");
                let mut act = gpu.into_activity();
                // as `gpuenergy simulate` stamps it: the study configuration's hash
                act.config_hash = setup.cfg.hash_hex();
                Ok(Activity::new(act, Some(setup)))
            }
            other => {
                let msg = match &other {
                    State::Lent(_) => {
                        "this device belongs to a study's run of a host program: its Activity is \
                         collected when the program returns; finish() is for a Device you made"
                    }
                    State::Closed(why) => why,
                    State::Owned(_) => unreachable!("matched above"),
                };
                *guard = other;
                Err(py_msg(msg))
            }
        }
    }

    /// Whether the last launch stopped at `sim.max_cycles` or `sim.max_warp_insts` (its
    /// results are partial).
    #[getter]
    fn last_launch_truncated(&self) -> PyResult<bool> {
        Ok(match &*self.lock()? {
            State::Owned(g) => g.last_launch_truncated(),
            // SAFETY: see `LentGpu`; the guard is held.
            State::Lent(p) => unsafe { (*p.0).last_launch_truncated() },
            State::Closed(_) => false,
        })
    }

    /// Kernel launches made so far.
    #[getter]
    fn launches(&self) -> u64 {
        self.launch_count()
    }

    /// `gpu.name` of the configuration (`None` on a lent device).
    #[getter]
    fn config_name(&self) -> Option<String> {
        self.setup.as_ref().map(|s| s.cfg.gpu.name.clone())
    }

    /// The configuration's hash, as an Activity record carries it (`None` on a lent device).
    #[getter]
    fn config_hash(&self) -> Option<String> {
        self.setup.as_ref().map(|s| s.cfg.hash_hex())
    }

    /// The hash of the machine simulated: the configuration with the knobs derived from the
    /// technology point (`None` on a lent device).
    #[getter]
    fn machine_hash(&self) -> Option<String> {
        self.setup.as_ref().map(|s| s.timed.hash_hex())
    }

    /// The technology label estimates default to (`None` on a lent device).
    #[getter]
    fn tech(&self) -> Option<String> {
        self.setup.as_ref().map(|s| s.tech_label.clone())
    }
}

/// The launch parameters of `args` for kernel `k` (see [`Device::launch`]).
fn launch_params(
    k: &sim::ptx::Kernel,
    args: &[(String, Bound<'_, PyAny>)],
) -> PyResult<Vec<ParamValue>> {
    let decl = k.params();
    let list = || {
        decl.iter()
            .map(|p| format!("{} {}", launch_args::ty_name(p.ty), p.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if args.len() != decl.len() {
        return Err(PyTypeError::new_err(format!(
            "kernel '{}' takes {} arguments ({}); {} given",
            k.name,
            decl.len(),
            list(),
            args.len()
        )));
    }
    let mut out = Vec::with_capacity(args.len());
    for (i, ((kind, v), p)) in args.iter().zip(decl).enumerate() {
        let at = |m: String| PyTypeError::new_err(format!("kernel '{}' argument {i}: {m}", k.name));
        if kind == "ptr" {
            if !matches!(p.ty, Ty::U64 | Ty::S64 | Ty::B64) || p.is_array {
                return Err(at(format!(
                    "a device array passes a 64-bit device pointer, but parameter '{}' is \
                     declared {}",
                    p.name,
                    launch_args::ty_name(p.ty)
                )));
            }
            out.push(ParamValue::U64(v.extract::<u64>()?));
            continue;
        }
        let number = if v.is_instance_of::<PyFloat>() {
            toml::Value::Float(v.extract::<f64>()?)
        } else if v.is_instance_of::<PyInt>() {
            match v.extract::<i64>() {
                Ok(n) => toml::Value::Integer(n),
                Err(_) => {
                    return Err(at(format!(
                        "{v} is outside the 64-bit signed range the launch arguments take"
                    )))
                }
            }
        } else {
            return Err(at(format!(
                "{} is neither a device array nor a number (pass numpy scalars such as \
                 np.int32(n), np.float32(a), or device arrays)",
                v.get_type().name()?
            )));
        };
        let value = if kind.is_empty() {
            number
        } else {
            let mut t = toml::map::Map::new();
            t.insert(kind.clone(), number);
            toml::Value::Table(t)
        };
        out.push(launch_args::scalar_for(&value, p).map_err(at)?);
    }
    Ok(out)
}

/// A parsed PTX module (`gpuenergy.Module` wraps it).
#[pyclass(module = "gpuenergy._native", frozen)]
pub struct Module {
    label: String,
    module: sim::ptx::Module,
}

#[pymethods]
impl Module {
    /// Parses PTX `text`; `label` (a file name) is what messages name.
    #[new]
    #[pyo3(signature = (text, label="<ptx>"))]
    fn new(py: Python<'_>, text: &str, label: &str) -> PyResult<Module> {
        let module = py
            .detach(|| sim::ptx::Module::parse_lenient(text, label))
            .map_err(py_err)?;
        Ok(Module {
            label: label.to_string(),
            module,
        })
    }

    /// A CUDA source file compiled for `arch` by NVIDIA's compiler (`nvidia-cuda-nvcc`), its
    /// PTX cached by content, as `--cuda` does.
    #[staticmethod]
    #[pyo3(signature = (path, arch="sm_75"))]
    fn compile_cuda(py: Python<'_>, path: std::path::PathBuf, arch: &str) -> PyResult<Module> {
        let s = py
            .detach(|| gpuenergy::program::Source::cuda(&path, arch))
            .map_err(py_err)?;
        Ok(Module {
            label: s.label,
            module: s.module,
        })
    }

    /// The file (or label) the module came from.
    #[getter]
    fn label(&self) -> &str {
        &self.label
    }

    /// Names of the kernels (`.entry`) the module defines.
    #[getter]
    fn kernels(&self) -> Vec<String> {
        self.module.kernel_names()
    }

    /// The kernel `name`; an unknown name raises `KeyError` listing the kernels, a kernel the
    /// model cannot represent `GpuEnergyError` naming the file, line and construct.
    fn __getitem__(&self, name: &str) -> PyResult<Kernel> {
        self.get(name, PyKeyError::new_err)
    }

    fn __getattr__(&self, name: &str) -> PyResult<Kernel> {
        self.get(name, PyAttributeError::new_err)
    }

    fn __contains__(&self, name: &str) -> bool {
        self.module.kernel_names().iter().any(|k| k == name)
    }
}

impl Module {
    fn get(&self, name: &str, absent: fn(String) -> PyErr) -> PyResult<Kernel> {
        let modules = [(self.label.clone(), self.module.clone())];
        let known = self.__contains__(name) || self.module.refused().iter().any(|(k, _)| k == name);
        launch_args::find_kernel(&modules, name)
            .map(|kernel| Kernel { kernel })
            .map_err(|e| {
                if known {
                    py_msg(e)
                } else {
                    absent(format!("{}: {e}", self.label))
                }
            })
    }
}

/// One kernel of a module (`gpuenergy.Kernel` wraps it).
#[pyclass(module = "gpuenergy._native", frozen)]
pub struct Kernel {
    pub(crate) kernel: Arc<sim::ptx::Kernel>,
}

#[pymethods]
impl Kernel {
    /// The kernel's name.
    #[getter]
    fn name(&self) -> &str {
        &self.kernel.name
    }

    /// Its parameters in order, as `(name, type)` with PTX type names (`.u64`, `.f32`, ...).
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.kernel
            .params()
            .iter()
            .map(|p| PyTuple::new(py, [p.name.clone(), launch_args::ty_name(p.ty)]))
            .collect()
    }
}
