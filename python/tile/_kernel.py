"""Kernels: load and load_string, Kernel (a loaded kernel: its parameters
and meta-parameters, launches, prepare, tune, compile), Function (a launch
prepared), MetaParam and TuneResult (see docs/python.md).

A launch `kernel[grid](*args)` takes one of two paths:

- the fast path (_fastpath), for PyTorch CUDA tensors and Python scalars:
  a function generated for the kernel's signature finds the prepared launch
  by the arguments' key and makes one C call;
- the slow path (Kernel._slow), for everything else and the first launch of
  a key: checks every argument against the kernel's signature (_arguments;
  count, element types, devices; an error names the parameter), prepares
  the launch in the C library (meta-parameters from the tuning cache or
  fitted, specialization, compilation through the compile cache, loading),
  stores it for the fast path, and launches; NumPy arrays (and CPU tensors)
  run on the CPU interpreter here.
"""

import ctypes
import os
import struct
import sys
import warnings

from . import _capi
from ._arguments import _classify, _dtype_name
from ._devices import _stream_handle, _torch
from ._errors import ArgumentError, TileWarning
from ._fastpath import _entry, _generate_fast_path, _packet_format
from ._grids import _grid_text, _meta_args, _parse_grid

__all__ = ["Kernel", "Function", "MetaParam", "TuneResult", "load", "load_string"]


# ----------------------------------------------------------------------------
# Functions: a launch prepared
# ----------------------------------------------------------------------------


class Function:
    """A kernel prepared for a kind of launch: its meta-parameters chosen and,
    on a GPU, specialized, compiled and loaded."""

    def __init__(self, kernel, handle):
        lib = _capi.lib()
        self.kernel = kernel
        self.handle = handle
        info = _capi.FunctionInfo()
        lib.check(lib.function_get_info(handle, ctypes.byref(info)))
        self.target = "cuda" if info.target == _capi.TARGET_CUDA else "cpu"
        self.device = info.device
        self.variant = info.variant
        self.config = _capi.text(info.config)
        self.block_size = info.block_size
        self.cluster_size = info.cluster_size
        self.num_registers = info.num_registers
        self.shared_bytes = info.shared_bytes
        self.local_bytes = info.local_bytes
        self.specialization = _capi.text(info.specialization)
        meta = {}
        entry = _capi.MetaParamInfo()
        for index in range(lib.function_num_meta_params(handle)):
            lib.check(lib.function_get_meta_param(handle, index, ctypes.byref(entry)))
            value = _capi.text(entry.value)
            meta[_capi.text(entry.name)] = value if entry.is_type else int(value)
        #: The meta-parameters it was compiled with: {"BLOCK_SIZE": 1024, ...}.
        self.meta = meta
        # The promises a launch must keep that its key does not capture: each
        # integer's tile.max_value, and a tile.divisibility above 16.
        checks = []
        param = _capi.ParamInfo()
        for index in range(len(kernel.params)):
            lib.check(lib.function_get_param(handle, index, ctypes.byref(param)))
            if param.is_pointer or param.dtype not in (4, 5):
                continue
            if param.max_value != (1 << 63) - 1:
                checks.append("args[%d] <= %d" % (index, param.max_value))
            if param.divisibility > 16:
                checks.append("args[%d] %% %d == 0" % (index, param.divisibility))
        self.check = eval("lambda args: " + " and ".join(checks)) if checks else None
        self._persistent = {}

    def persistent_grid(self, cap=0):
        """The grid of a persistent launch: (programs, 1, 1)."""
        grid = self._persistent.get(cap)
        if grid is None:
            lib = _capi.lib()
            sizes = (ctypes.c_uint32 * 3)()
            lib.check(lib.persistent_grid(self.handle, cap, sizes))
            grid = self._persistent[cap] = (sizes[0], sizes[1], sizes[2])
        return grid

    def __repr__(self):
        where = "GPU %d" % self.device if self.target == "cuda" else "the CPU interpreter"
        text = "<tile.Function @%s on %s: %s" % (self.kernel.name, where, self.config)
        if self.target == "cuda":
            text += ", %d threads per block, %d registers" % (
                self.block_size,
                self.num_registers,
            )
        return text + ">"


class TuneResult:
    """What Kernel.tune found: the winner's meta-parameters, and the tuner's
    table."""

    def __init__(self, function, report):
        self.function = function
        self.config = dict(function.meta)
        self.report = report

    def __repr__(self):
        return "<tile.TuneResult %s>" % self.function.config


# ----------------------------------------------------------------------------
# Kernels
# ----------------------------------------------------------------------------


class _Param:
    __slots__ = ("index", "name", "is_pointer", "dtype", "divisibility", "max_value")

    def __repr__(self):
        kind = "!tile.ptr<%s>" % self.dtype if self.is_pointer else self.dtype
        return "%s: %s" % (self.name or "#%d" % self.index, kind)


class MetaParam:
    """A meta-parameter the kernel file declares."""

    __slots__ = ("name", "value", "is_type", "is_defined", "values")

    def __repr__(self):
        return "%s = %s" % (self.name, self.value)


_OPTIONS = (
    "kernel",
    "target",
    "tuning",
    "num_warps",
    "cache_dir",
    "tuning_databases",
    "tma",
    "device",
    "defines",
    "verbose",
)


def load(path, *variants, **kwargs):
    """Loads a kernel file; keyword arguments in capitals are its
    meta-parameters (-D):

        softmax = tile.load("examples/softmax.mlir", BLOCK_SIZE=1024)

    More files are variants of the same launch (a stored choice, the tuner
    or, on a GPU, the cost model chooses between them; on the CPU without a
    stored choice, the first that fits the launch runs). Options: kernel= (the kernel's name in a file of
    several), target= ("cuda" or "cpu"; default: where the arguments are),
    tuning= ("cache": the tuning cache's choice where it has one, else an
    imported or shipped tuning database's, else on a GPU the cost model's
    choice and on the CPU the defaults fitted to the launch; "defaults": no
    stored choice; "auto": tune a launch that has no stored choice),
    tuning_databases= (False: look up choices in the tuning cache only,
    not in the tuning databases), tma= (True, the default: on an sm_90a GPU, copy the
    descriptor loads that feed wgmma dots with TMA, and the loads of dot
    operands the compiler proves to be boxes; a launch whose tensor maps
    cannot be made runs the kernel compiled without TMA, where the kernel
    made no descriptor itself; False: cp.async, as on other GPUs), num_warps= (for kernels
    without tile.num_warps), device= (the GPU of launches with no CUDA
    tensor), cache_dir= (the compile and tuning caches), verbose= (print the
    library's notes, such as the meta-parameters chosen, to stderr),
    defines= (a dict of meta-parameters whose names clash with these
    options)."""
    paths = [path] + list(variants)
    if len(paths) == 1 and isinstance(path, (list, tuple)):
        paths = list(path)
    return Kernel(paths, None, kwargs)


def _move_tuning(function, path, cache_dir):
    lib = _capi.lib()
    report = ctypes.c_char_p()
    encoded = None if cache_dir is None else str(cache_dir).encode()
    lib.check(getattr(lib, function)(encoded, os.fsencode(path), ctypes.byref(report)))
    return _capi.text(report.value)


def tune_export(path, cache_dir=None):
    """Writes the tuning cache's entries (under cache_dir, default the
    default cache) as a tuning database at `path`; returns the report."""
    return _move_tuning("tuning_export", path, cache_dir)


def tune_import(path, cache_dir=None):
    """Merges the tuning database at `path` into the cache's imported
    databases, consulted where the tuning cache has no choice; returns the
    report (how many records, which were ignored). A file that is not a
    tuning database raises TileError. See docs/tuning.md."""
    return _move_tuning("tuning_import", path, cache_dir)


def load_string(text, name="<string>", **kwargs):
    """Loads a kernel from its text; `name` names it in messages."""
    return Kernel([name], text, kwargs)


def _define(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        value = _dtype_name(value)
    return "%s=%s" % (name, value)


class Kernel:
    """A loaded kernel. `kernel[grid](*args)` launches it (see load)."""

    def __init__(self, paths, text, kwargs):
        lib = _capi.lib()
        defines = dict(kwargs.pop("defines", None) or {})
        options = {}
        for key in list(kwargs):
            if key in _OPTIONS:
                options[key] = kwargs.pop(key)
        defines.update(kwargs)
        self._target = options.get("target")
        if self._target not in (None, "cpu", "cuda"):
            raise ValueError("target is 'cuda' or 'cpu', not %r" % (self._target,))
        self._tuning = options.get("tuning", "cache")
        if self._tuning not in ("cache", "defaults", "auto"):
            raise ValueError(
                "tuning is 'cache', 'defaults' or 'auto', not %r" % (self._tuning,)
            )
        self._num_warps = int(options.get("num_warps", 4))
        self._verbose = bool(options.get("verbose", False))
        self._messages = ""
        self._device = int(options.get("device", 0))
        cache_dir = options.get("cache_dir")
        self._cache_dir = None if cache_dir is None else str(cache_dir).encode()
        self._tuning_databases = options.get("tuning_databases", True)
        if not isinstance(self._tuning_databases, bool):
            raise ValueError(
                "tuning_databases is True or False, not %r" % (self._tuning_databases,)
            )
        self._tma = options.get("tma", True)
        if not isinstance(self._tma, bool):
            raise ValueError("tma is True or False, not %r" % (self._tma,))

        encoded = [_define(k, v).encode() for k, v in defines.items()]
        load_options = _capi.LoadOptions()
        kernel_name = options.get("kernel")
        load_options.kernel_name = kernel_name.encode() if kernel_name else None
        load_options.defines = (ctypes.c_char_p * max(len(encoded), 1))(*encoded)
        load_options.num_defines = len(encoded)
        handle = ctypes.c_void_p()
        if text is None:
            names = [str(p).encode() for p in paths]
            status = lib.load_files(
                (ctypes.c_char_p * len(names))(*names),
                len(names),
                ctypes.byref(load_options),
                ctypes.byref(handle),
            )
        else:
            status = lib.load_string(
                text.encode(),
                str(paths[0]).encode(),
                ctypes.byref(load_options),
                ctypes.byref(handle),
            )
        lib.check(status)
        self._handle = handle.value
        self._lib = lib
        self.paths = [str(p) for p in paths]
        self.defines = dict(defines)
        #: "softmax", and "@softmax(!tile.ptr<f32>, ...)".
        self.name = _capi.text(lib.kernel_name(self._handle))
        self.signature = _capi.text(lib.kernel_signature(self._handle))
        self.params = []
        info = _capi.ParamInfo()
        for index in range(lib.kernel_num_params(self._handle)):
            lib.check(lib.kernel_get_param(self._handle, index, ctypes.byref(info)))
            param = _Param()
            param.index = index
            param.name = _capi.text(info.name)
            param.is_pointer = bool(info.is_pointer)
            param.dtype = _capi.DTYPES[info.dtype] if 0 <= info.dtype < len(_capi.DTYPES) else None
            param.divisibility = info.divisibility
            param.max_value = info.max_value
            self.params.append(param)
        #: The meta-parameters of the (first) file: {"BLOCK_SIZE": MetaParam}.
        self.meta = {}
        entry = _capi.MetaParamInfo()
        for index in range(lib.kernel_num_meta_params(self._handle)):
            lib.check(lib.kernel_get_meta_param(self._handle, index, ctypes.byref(entry)))
            meta = MetaParam()
            meta.name = _capi.text(entry.name)
            meta.value = _capi.text(entry.value)
            meta.is_type = bool(entry.is_type)
            meta.is_defined = bool(entry.is_defined)
            values = _capi.text(entry.values)
            meta.values = values.split(",") if values else []
            self.meta[meta.name] = meta
        self._format = _packet_format(self.params)
        self._pack = struct.Struct(self._format).pack
        self._fast_cache = {}
        self._fast, self._key = _generate_fast_path(self)

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._handle = None
            try:
                self._lib.destroy(handle)
            except Exception:  # pragma: no cover - interpreter shutdown
                pass

    def __repr__(self):
        return "<tile.Kernel %s from %s>" % (self.signature, ", ".join(self.paths))

    @property
    def messages(self):
        """What the library printed besides results during the last launch
        that was not a repeat (the first of its kind), prepare, tune or
        compile: notes on the meta-parameters chosen ("fitted: ...",
        "tuned: ... from the tuning cache"), the tuner's table, warnings."""
        return self._messages

    def _collect(self, first):
        """Takes what the last C call on the kernel printed into messages
        (`first`: the first call of an operation), prints it with
        verbose=True, and turns its warnings into TileWarnings."""
        text = _capi.text(self._lib.kernel_messages(self._handle))
        self._messages = text if first else self._messages + text
        if text and self._verbose:
            sys.stderr.write(text if text.endswith("\n") else text + "\n")
        for line in text.splitlines():
            if "warning: " in line:
                warnings.warn(line.split("warning: ", 1)[1], TileWarning, stacklevel=4)

    def __getitem__(self, grid):
        if type(grid) is list:
            grid = tuple(grid)
        return _Launcher(self, grid)

    def run(self, grid, *args, stream=None):
        """kernel.run(grid, *args) is kernel[grid](*args)."""
        return self._fast(grid, stream, args)

    # -- the slow path -------------------------------------------------------

    def _classify(self, args, target=None):
        """Checks `args` against the signature (see _arguments._classify);
        returns the target, the device, and the tile_arg array (with what
        keeps it alive)."""
        return _classify(self, args, target or self._target, self._device)

    def _prepare(self, target, device, c_args, tuning=None, tune_grid=None, **tune):
        lib = self._lib
        options = lib.prepare_options_default()
        options.target = _capi.TARGET_CUDA if target == "cuda" else _capi.TARGET_CPU
        options.device = device
        options.tuning = _capi.TUNING_MODES[tuning or self._tuning]
        options.num_warps = self._num_warps
        options.tune_grid = tune_grid.encode() if tune_grid else None
        options.tune_warmup = tune.get("warmup") or 0
        options.tune_repetitions = tune.get("reps") or 0
        options.tune_progress = 1 if tune.get("progress") else 0
        options.cache_dir = self._cache_dir
        options.tuning_databases = 1 if self._tuning_databases else 0
        options.tma = 1 if self._tma else 0
        if tune.get("top") is not None:
            options.tune_top = int(tune["top"])
        handle = ctypes.c_void_p()
        status = lib.prepare(
            self._handle,
            ctypes.byref(options),
            c_args,
            len(self.params),
            ctypes.byref(handle),
        )
        self._collect(first=True)
        lib.check(status)
        return Function(self, handle.value)

    def _slow(self, grid, stream, args):
        kind, value = _parse_grid(grid)
        target, device, c_args, keep = self._classify(args)
        tuning, tune_grid = None, None
        if target == "cuda" and self._tuning == "auto":
            if kind == "callable":
                raise ArgumentError(
                    "tuning='auto' tunes on the launch's grid, and a callable "
                    "grid differs by configuration: give a tuple or "
                    "'persistent[:N]', or tune with Kernel.tune"
                )
            tune_grid = _grid_text(kind, value)
        elif target == "cuda" and kind == "persistent":
            # The launch's cap: the cost model estimates on it, and a choice
            # of all waves (a program per row) launches it.
            tune_grid = _grid_text(kind, value)
        function = self._prepare(target, device, c_args, tuning, tune_grid)
        if target == "cpu":
            return self._run_cpu(function, kind, value, args, c_args)

        # Store the launch for the fast path where its key can be made (torch
        # tensors and Python scalars).
        entry = _entry(self, function, device, kind, value)
        try:
            self._fast_cache[self._key(grid, args)] = entry
        except Exception:
            pass  # no fast path for these arguments (no torch tensors)
        g = entry.grid if entry.grid is not None else entry.grid_of(grid, args)
        if g is None:
            return None
        stream = _stream_handle(stream, device, args)
        values = [c_args[i].value for i in range(len(self.params))]
        slots = (ctypes.c_uint64 * max(len(values), 1))(*values)
        sizes = (ctypes.c_uint32 * 3)(*g)
        self._lib.check(
            self._lib.function_launch(function.handle, sizes, stream, slots, len(values))
        )
        return None

    def _run_cpu(self, function, kind, value, args, c_args):
        if kind == "persistent":
            raise ArgumentError(
                "a persistent grid is sized from a GPU's occupancy; on the CPU "
                "interpreter give the grid itself, such as (1823,)"
            )
        if kind == "callable":
            kind, value = _parse_grid(
                value(_meta_args(self, function, args)), "the grid function's result"
            )
            if kind != "fixed":
                return self._run_cpu(function, kind, value, args, c_args)
        if not all(value):
            return None
        sizes = (ctypes.c_uint32 * 3)(*value)
        status = self._lib.run_cpu(function.handle, sizes, c_args, len(self.params))
        self._collect(first=False)
        self._lib.check(status)
        return None

    # -- the rest of the API -------------------------------------------------

    def prepare(self, *args, target=None, grid=None):
        """The Function a launch with `args` runs: its meta-parameters, and
        on a GPU its compiled kernel's resources (compiling it if need be).
        With grid= ('persistent[:N]'), the launch's grid: the cost model
        estimates on its cap, and a choice of several waves (config
        "... waves=all") launches them."""
        target, device, c_args, keep = self._classify(args, target)
        tune_grid = None
        if grid is not None and target == "cuda":
            kind, value = _parse_grid(grid)
            if kind == "persistent":
                tune_grid = _grid_text(kind, value)
        return self._prepare(target, device, c_args, tune_grid=tune_grid)

    def tune(self, grid, *args, warmup=None, reps=None, progress=False, top=32):
        """Tunes the kernel's declared meta-parameters for a launch on `grid`
        (a tuple or 'persistent[:N]') with `args` (CUDA tensors): times the
        `top` configurations the cost model ranks first, of each kernel (0:
        every configuration), on copies of the arguments, checks the fastest against
        the CPU interpreter, stores it in the tuning cache (where later
        launches in the same shape bucket find it, from Python or tile-run)
        and returns a TuneResult. The arguments are not changed."""
        if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top < 2**32:
            raise ArgumentError("top is a count of configurations, not %r" % (top,))
        kind, value = _parse_grid(grid)
        if kind == "callable":
            raise ArgumentError(
                "the tuner launches every configuration on one grid: give a "
                "tuple or 'persistent[:N]'"
            )
        target, device, c_args, keep = self._classify(args)
        if target != "cuda":
            raise ArgumentError("Kernel.tune times the kernel on a GPU: pass CUDA tensors")
        torch = _torch()
        if torch is not None and torch.cuda.is_initialized():
            torch.cuda.synchronize(device)
        function = self._prepare(
            target,
            device,
            c_args,
            "tune",
            _grid_text(kind, value),
            warmup=warmup,
            reps=reps,
            progress=progress,
            top=top,
        )
        self._fast_cache.clear()
        return TuneResult(function, self.messages)

    def compile(self, *args, chip="sm_90", format="ptx"):
        """The kernel compiled for `chip` without a GPU: PTX text (or a cubin,
        format="cubin", through the CUDA toolkit's ptxas), specialized on
        `args` (buffers and scalars, as a launch would; none: on the kernel
        file's hints only) with its defaults fitted to them."""
        if format not in ("ptx", "cubin"):
            raise ValueError("format is 'ptx' or 'cubin', not %r" % (format,))
        c_args, count = None, 0
        if args:
            _, _, c_args, keep = self._classify(args, target="cpu")
            count = len(self.params)
        binary = ctypes.POINTER(ctypes.c_char)()
        size = ctypes.c_size_t()
        status = self._lib.compile(
            self._handle,
            chip.encode(),
            1 if format == "cubin" else 0,
            c_args,
            count,
            ctypes.byref(binary),
            ctypes.byref(size),
        )
        self._collect(first=True)
        self._lib.check(status)
        data = ctypes.string_at(binary, size.value)
        return data if format == "cubin" else data.decode()


class _Launcher:
    """kernel[grid]: call it with the kernel's arguments."""

    __slots__ = ("_fast", "grid")

    def __init__(self, kernel, grid):
        self._fast = kernel._fast
        self.grid = grid

    def __call__(self, *args, stream=None):
        return self._fast(self.grid, stream, args)
