"""The simulated device (CuPy-like): device arrays, PTX/CUDA modules and kernel launches.

Everything that checks or simulates is in the native module (``gpuenergy._native``); this
file converts numpy arrays to bytes and back and chooses the device a launch runs on.
"""

import os
import tempfile

import numpy as np

from . import _native
from ._dtypes import dtype_of, scalar_kind
from ._progress import LaunchProgress
from ._results import Activity


def _set_list(set):
    """``{"pg.bet": 19}`` or ``["pg.bet=19"]`` as KEY=VALUE strings (applied in order)."""
    if set is None:
        return []
    if isinstance(set, dict):
        out = []
        for k, v in set.items():
            if isinstance(v, bool):
                v = "true" if v else "false"
            out.append(f"{k}={v}")
        return out
    if isinstance(set, str):
        return [set]
    return [str(s) for s in set]


class DeviceArray:
    """An array in device memory: ``shape`` elements of ``dtype`` at address ``ptr``."""

    __slots__ = ("device", "ptr", "shape", "dtype")

    def __init__(self, device, ptr, shape, dtype):
        self.device = device
        self.ptr = ptr
        self.shape = shape
        self.dtype = dtype

    @property
    def size(self):
        """Elements."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self):
        """Bytes."""
        return self.size * self.dtype.itemsize

    def get(self):
        """The contents as a new numpy array (a device-to-host copy)."""
        data = self.device._dev.copy_from_device(self.ptr, self.nbytes)
        return np.frombuffer(bytearray(data), dtype=self.dtype).reshape(self.shape)

    def set(self, host):
        """Copies ``host`` (same shape and dtype after conversion) into the array."""
        a = np.require(host, dtype=self.dtype, requirements="C")
        if a.shape != self.shape:
            raise ValueError(f"set: shape {a.shape} differs from the device array's {self.shape}")
        self.device._dev.copy_to_device(self.ptr, a.tobytes())

    def __len__(self):
        return self.shape[0] if self.shape else 0

    def __repr__(self):
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype}, ptr={self.ptr:#x})"


class Kernel:
    """A kernel of a module, launched CuPy-style: ``k(grid, block, args, shared_mem=0)``."""

    def __init__(self, native, device):
        self._k = native
        self._device = device

    @property
    def name(self):
        return self._k.name

    @property
    def params(self):
        """The ``.param`` list as ``(name, type)`` pairs."""
        return self._k.params

    def __call__(self, grid, block, args, shared_mem=0):
        if not isinstance(args, (tuple, list)):
            raise TypeError(
                f"kernel '{self.name}': args must be a tuple of device arrays and numpy scalars"
            )
        dev = self._device
        for a in args:
            if isinstance(a, DeviceArray):
                if dev is None:
                    dev = a.device
                elif a.device is not dev:
                    raise TypeError(
                        f"kernel '{self.name}': an argument lives on another device than the "
                        "launch"
                    )
        if dev is None:
            raise TypeError(
                f"kernel '{self.name}': no device to launch on (load the module with "
                "dev.load_ptx, or pass a device array)"
            )
        dev.launch(self, grid, block, args, shared_mem)

    def __repr__(self):
        ps = ", ".join(f"{t} {n}" for n, t in self.params)
        return f"Kernel {self.name}({ps})"


class Module:
    """A PTX module; ``mod["name"]`` or ``mod.name`` is a kernel."""

    def __init__(self, native, device=None):
        self._m = native
        self._device = device

    @property
    def kernels(self):
        """The kernels the module defines."""
        return self._m.kernels

    @property
    def label(self):
        return self._m.label

    def __getitem__(self, name):
        return Kernel(self._m[name], self._device)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return Kernel(self._m[name], self._device)
        except KeyError as e:
            raise AttributeError(e.args[0]) from None

    def __contains__(self, name):
        return name in self._m

    def __repr__(self):
        return f"Module({self.label}: {', '.join(self.kernels)})"


def load_ptx(source, device=None):
    """A module from PTX text or a ``.ptx`` file path (kernels launch on ``device``, or on the
    device of their array arguments)."""
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and ".entry" not in source
    ):
        path = os.fspath(source)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise _native.GpuEnergyError(f"cannot read PTX file {path}: {e.strerror}") from None
        return Module(_native.Module(text, path), device)
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    return Module(_native.Module(source, "<ptx>"), device)


def compile_cuda(source, arch="sm_75", device=None):
    """A module compiled from CUDA (a ``.cu`` path or the source text) by NVIDIA's compiler
    from the ``nvidia-cuda-nvcc`` package (``pip install gpuenergy[cuda]``), PTX cached by
    content as ``--cuda`` does."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source):
        return Module(_native.Module.compile_cuda(os.fspath(source), arch), device)
    with tempfile.TemporaryDirectory(prefix="gpuenergy-cuda-") as d:
        path = os.path.join(d, "kernels.cu")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        return Module(_native.Module.compile_cuda(path, arch), device)


class Device:
    """A simulated GPU (see the package documentation for the arguments)."""

    def __init__(
        self,
        preset=None,
        config=None,
        technique=None,
        set=None,
        scheduler=None,
        tech="finfet7",
        op=None,
        vdd=None,
        device=None,
        temperature_k=None,
        name="python",
        progress=None,
    ):
        if config is not None:
            config = os.fspath(config)
        self._dev = _native.Device(
            preset,
            config,
            technique,
            _set_list(set),
            scheduler,
            tech,
            op,
            vdd,
            device,
            temperature_k,
            name,
        )
        self.progress = progress

    @classmethod
    def _lent(cls, native, progress=False):
        d = cls.__new__(cls)
        d._dev = native
        d.progress = progress
        return d

    # -- modules
    def load_ptx(self, source):
        """A module from PTX text or a ``.ptx`` path; its kernels launch on this device."""
        return load_ptx(source, self)

    def compile_cuda(self, source, arch="sm_75"):
        """A module compiled from CUDA source text or a ``.cu`` path for ``arch``."""
        return compile_cuda(source, arch, self)

    # -- memory
    def empty(self, shape, dtype=np.float32):
        """A device array of ``shape`` (zeroed: device memory is allocated zeroed)."""
        dt = dtype_of(dtype)
        shape = (int(shape),) if np.isscalar(shape) else tuple(int(s) for s in shape)
        if any(s < 0 for s in shape):
            raise ValueError(f"empty: negative dimension in shape {shape}")
        n = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
        return DeviceArray(self, self._dev.alloc(n), shape, dt)

    zeros = empty

    def to_device(self, host, dtype=None):
        """A device array holding a copy of ``host`` (a host-to-device copy)."""
        a = np.asarray(host)
        dt = dtype_of(dtype if dtype is not None else a.dtype)
        a = np.require(a, dtype=dt, requirements="C")
        d = self.empty(a.shape, dt)
        if a.nbytes:
            self._dev.copy_to_device(d.ptr, a.tobytes())
        return d

    # -- launches
    def launch(self, kernel, grid, block, args, shared_mem=0):
        """Launches ``kernel`` (see ``Kernel.__call__``)."""
        spec = []
        for a in args:
            if isinstance(a, DeviceArray):
                spec.append(("ptr", a.ptr))
            elif isinstance(a, (bool, np.bool_)):
                raise TypeError(f"kernel '{kernel.name}': a bool is not a kernel argument")
            else:
                kind = scalar_kind(a)
                spec.append((kind, a.item()) if kind else ("", a))
        bar = LaunchProgress(kernel.name, self.progress)
        try:
            self._dev.launch(kernel._k, grid, block, spec, shared_mem, bar if bar.on else None)
        finally:
            bar.close()

    @property
    def launches(self):
        """Launches made so far."""
        return self._dev.launches

    @property
    def last_launch_truncated(self):
        """Whether the last launch stopped at a simulation limit (partial results)."""
        return self._dev.last_launch_truncated

    @property
    def config_name(self):
        return self._dev.config_name

    def finish(self):
        """Ends the run; returns its Activity."""
        return Activity(self._dev.finish())

    def __repr__(self):
        return f"Device({self.config_name or 'lent'}, {self.launches} launches)"
