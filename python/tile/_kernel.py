"""Kernels: loading, arguments, launches (see docs/python.md).

A launch `kernel[grid](*args)` takes one of two paths:

- the fast path, for PyTorch CUDA tensors and Python scalars: a function
  generated for the kernel's signature (`_generate_fast_path`) computes the
  launch's key from the arguments (each tensor's dtype, device, shape and
  address modulo 16; each integer's power-of-two bucket and divisibility),
  finds the prepared launch in a dict, packs the function, stream, grid and
  the 8-byte slots of the arguments into one bytes object and makes one C
  call (tile_launch_packed), which goes straight to cuLaunchKernel(Ex);
- the slow path, for everything else and the first launch of a key: checks
  every argument against the kernel's signature (count, element types,
  devices; an error names the parameter), prepares the launch in the C
  library (meta-parameters from the tuning cache or fitted, specialization,
  compilation through the compile cache, loading), stores it for the fast
  path, and launches; NumPy arrays (and CPU tensors) run on the CPU
  interpreter here.
"""

import ctypes
import struct
import sys
import warnings

from . import _capi
from ._capi import ArgumentError, TileError

try:
    import numpy as _np
except ImportError:  # pragma: no cover - numpy is a dependency of the tests
    _np = None

__all__ = ["Kernel", "Function", "TuneResult", "load", "load_string", "reinterpret"]


class TileWarning(UserWarning):
    """A warning of the runtime (a kernel that spills, a tuning cache entry
    that is ignored)."""


# ----------------------------------------------------------------------------
# Element types
# ----------------------------------------------------------------------------

_NUMPY_DTYPES = {
    "float16": "f16",
    "bfloat16": "bf16",  # ml_dtypes' bfloat16, where installed
    "float32": "f32",
    "bool": "i1",
    "int32": "i32",
    "int64": "i64",
}
_TORCH_DTYPES = None


def _torch():
    """PyTorch where the program imported it (this package never does)."""
    return sys.modules.get("torch")


def _torch_dtypes():
    global _TORCH_DTYPES
    if _TORCH_DTYPES is None:
        torch = _torch()
        _TORCH_DTYPES = {
            torch.float16: "f16",
            torch.bfloat16: "bf16",
            torch.float32: "f32",
            torch.bool: "i1",
            torch.int32: "i32",
            torch.int64: "i64",
        }
    return _TORCH_DTYPES


def _dtype_name(value):
    """A meta-parameter's or reinterpret's type as tile names it ("f16"),
    from a name, a NumPy dtype or a torch dtype."""
    if isinstance(value, str):
        if value in _capi.DTYPES:
            return value
        if value in _NUMPY_DTYPES:
            return _NUMPY_DTYPES[value]
        raise ValueError(
            "unknown element type %r: tile's are %s" % (value, ", ".join(_capi.DTYPES))
        )
    torch = _torch()
    if torch is not None and isinstance(value, torch.dtype):
        if value in _torch_dtypes():
            return _torch_dtypes()[value]
        raise ValueError("tile has no element type for %s" % value)
    if _np is not None:
        try:
            name = _np.dtype(value).name
        except TypeError:
            name = None
        if name in _NUMPY_DTYPES:
            return _NUMPY_DTYPES[name]
    raise ValueError("tile has no element type for %r" % (value,))


# What a buffer of each element type is, in messages.
_EXAMPLES = {
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "i1": "bool",
    "i32": "int32",
    "i64": "int64",
}

# ----------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------


class reinterpret:
    """A host or device buffer seen as another element type of the same size:
    `tile.reinterpret(np_uint16_array, "bf16")` passes a NumPy array of
    bfloat16 bit patterns to a kernel that takes `!tile.ptr<bf16>` (NumPy
    has no bfloat16)."""

    __slots__ = ("array", "dtype")

    def __init__(self, array, dtype):
        self.array = array
        self.dtype = _dtype_name(dtype)


class _Buffer:
    """A buffer argument as the runtime needs it."""

    __slots__ = ("dtype", "address", "shape", "extent", "device", "writable", "what")

    def __init__(self, dtype, address, shape, extent, device, writable, what):
        self.dtype = dtype  # tile's name, or None for a type tile lacks
        self.address = address
        self.shape = tuple(int(d) for d in shape)
        self.extent = extent  # elements from address the kernel may access
        self.device = device  # -1: host memory; else the CUDA device
        self.writable = writable
        self.what = what  # "a torch.float16 CUDA tensor", for messages


def _extent(shape, strides):
    """The elements a strided view spans from its first (strides in
    elements); None where a stride is negative."""
    if any(d == 0 for d in shape):
        return 0
    extent = 1
    for size, stride in zip(shape, strides):
        if stride < 0:
            return None
        extent += (size - 1) * stride
    return extent


def _describe(arg):
    """The _Buffer for `arg`, or None when it is no buffer."""
    torch = _torch()
    if isinstance(arg, reinterpret):
        inner = _describe(arg.array)
        if inner is None:
            raise ArgumentError("tile.reinterpret takes an array or a tensor")
        size = {"f16": 2, "bf16": 2, "f32": 4, "i1": 1, "i32": 4, "i64": 8}
        itemsize = _itemsize(arg.array)
        if itemsize != size[arg.dtype]:
            raise ArgumentError(
                "tile.reinterpret: %s has %d-byte elements; %s has %d"
                % (inner.what, itemsize, arg.dtype, size[arg.dtype])
            )
        inner.dtype = arg.dtype
        inner.what += " (as %s)" % arg.dtype
        return inner
    if torch is not None and isinstance(arg, torch.Tensor):
        device = arg.get_device()
        dtype = _torch_dtypes().get(arg.dtype)
        where = "CUDA" if device >= 0 else "CPU"
        what = "a %s %s tensor" % (arg.dtype, where)
        if device >= 0 and arg.device.type != "cuda":
            raise ArgumentError("%s is on %s, which tile cannot run on" % (what, arg.device))
        extent = _extent(arg.shape, arg.stride())
        if extent is None:
            raise ArgumentError("%s has a negative stride" % what)
        return _Buffer(dtype, arg.data_ptr(), arg.shape, extent, device, True, what)
    if _np is not None and isinstance(arg, _np.ndarray):
        return _describe_numpy(arg)
    if _np is not None and isinstance(arg, _np.generic):
        return None  # a NumPy scalar
    cuda = getattr(arg, "__cuda_array_interface__", None)
    if cuda is not None:
        return _describe_cuda_interface(arg, cuda)
    if _np is not None and hasattr(arg, "__array_interface__"):
        return _describe_numpy(_np.asarray(arg))
    return None


def _itemsize(array):
    torch = _torch()
    if torch is not None and isinstance(array, torch.Tensor):
        return array.element_size()
    if hasattr(array, "itemsize"):
        return array.itemsize
    cuda = getattr(array, "__cuda_array_interface__", None)
    if cuda is not None:
        return _np.dtype(cuda["typestr"]).itemsize
    return _np.asarray(array).itemsize


def _describe_numpy(array):
    dtype = _NUMPY_DTYPES.get(array.dtype.name)
    what = "a NumPy %s array" % array.dtype.name
    itemsize = array.itemsize
    if any(s % itemsize for s in array.strides):
        raise ArgumentError("%s has strides that are not whole elements" % what)
    extent = _extent(array.shape, [s // itemsize for s in array.strides])
    if extent is None:
        raise ArgumentError(
            "%s has a negative stride: pass numpy.ascontiguousarray(...)" % what
        )
    address = array.__array_interface__["data"][0]
    return _Buffer(
        dtype, address, array.shape, extent, -1, bool(array.flags.writeable), what
    )


def _describe_cuda_interface(arg, cuda):
    typestr = cuda["typestr"]
    dtype = _NUMPY_DTYPES.get(_np.dtype(typestr).name) if _np is not None else None
    itemsize = int(typestr[2:])
    shape = tuple(cuda["shape"])
    strides = cuda.get("strides")
    if strides is None:
        strides, step = [], 1
        for size in reversed(shape):
            strides.insert(0, step)
            step *= size
    else:
        strides = [s // itemsize for s in strides]
    extent = _extent(shape, strides)
    what = "a CUDA array (%s, %s)" % (type(arg).__name__, typestr)
    if extent is None:
        raise ArgumentError("%s has a negative stride" % what)
    address, readonly = cuda["data"]
    device = getattr(getattr(arg, "device", None), "id", 0)
    if not isinstance(device, int):
        device = 0
    return _Buffer(dtype, address or 0, shape, extent, device, not readonly, what)


def _f16_bits(value):
    return struct.unpack("<H", struct.pack("<e", value))[0]


def _bf16_bits(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return (bits >> 16) | 0x40  # a quiet NaN
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    if (rounded & 0x7F80) == 0x7F80 and (bits & 0x7F800000) != 0x7F800000:
        raise OverflowError("out of bfloat16's range")
    return rounded & 0xFFFF


_INT_RANGE = {"i32": (-(1 << 31), 1 << 31), "i64": (-(1 << 63), 1 << 63)}


def _scalar_bits(value, dtype, where):
    """The bits of a scalar argument for a parameter of `dtype`."""
    if _np is not None and isinstance(value, _np.generic):
        value = value.item()
    if dtype in _INT_RANGE:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentError(
                "%s is an %s: pass a Python int, not %s" % (where, dtype, _what(value))
            )
        low, high = _INT_RANGE[dtype]
        if not low <= value < high:
            raise ArgumentError("%s is an %s, and %d does not fit it" % (where, dtype, value))
        return value & ((1 << 64) - 1)
    if dtype == "i1":
        if not isinstance(value, (bool, int)) or value not in (0, 1):
            raise ArgumentError("%s is an i1: pass a bool, not %s" % (where, _what(value)))
        return int(bool(value))
    if dtype in ("f32", "f16", "bf16"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ArgumentError(
                "%s is an %s: pass a Python float, not %s" % (where, dtype, _what(value))
            )
        try:
            if dtype == "f32":
                return struct.unpack("<I", struct.pack("<f", value))[0]
            if dtype == "f16":
                return _f16_bits(value)
            return _bf16_bits(value)
        except (OverflowError, struct.error):
            raise ArgumentError(
                "%s is an %s, and %r is out of its range" % (where, dtype, value)
            ) from None
    raise ArgumentError("%s has a type no argument can have" % where)


def _what(value):
    """What `value` is, for messages: "a NumPy float16 array", "an int (5)"."""
    buffer = None
    try:
        buffer = _describe(value)
    except TileError:
        pass
    if buffer is not None:
        return buffer.what
    name = type(value).__name__
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return "%s %s (%s)" % ("an" if name[:1] in "aeiou" else "a", name, shown)


# ----------------------------------------------------------------------------
# Grids
# ----------------------------------------------------------------------------


def _parse_grid(grid, where="the grid"):
    """("fixed", (x, y, z)) | ("persistent", cap) | ("callable", fn)."""
    if callable(grid):
        return "callable", grid
    if isinstance(grid, str):
        if grid == "persistent":
            return "persistent", 0
        if grid.startswith("persistent:"):
            cap = grid[len("persistent:") :]
            if cap.isdigit() and int(cap) > 0:
                return "persistent", int(cap)
        raise ArgumentError(
            "%s is %r: a grid is a tuple of 1 to 3 sizes, 'persistent' or "
            "'persistent:N'" % (where, grid)
        )
    if _np is not None and isinstance(grid, _np.integer):
        grid = int(grid)
    if isinstance(grid, int) and not isinstance(grid, bool):
        grid = (grid,)
    if isinstance(grid, (tuple, list)) and 1 <= len(grid) <= 3:
        sizes = []
        for size in grid:
            if _np is not None and isinstance(size, _np.integer):
                size = int(size)
            if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size < 2**31:
                break
            sizes.append(size)
        else:
            return "fixed", tuple(sizes) + (1,) * (3 - len(sizes))
    raise ArgumentError(
        "%s is %r: a grid is a tuple of 1 to 3 sizes from 0 to 2**31 - 1, "
        "'persistent', 'persistent:N', or a callable of the kernel's "
        "parameters that returns one" % (where, grid)
    )


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


class _Entry:
    """A prepared launch, as the fast path uses it."""

    __slots__ = ("handle", "device", "grid", "grid_of", "check", "pack", "function")


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
    "device",
    "defines",
    "verbose",
)


def load(path, *variants, **kwargs):
    """Loads a kernel file; keyword arguments in capitals are its
    meta-parameters (-D):

        softmax = tile.load("examples/softmax.mlir", BLOCK_SIZE=1024)

    More files are variants of the same launch (the tuning cache or the
    tuner chooses between them; without either, the first that fits the
    launch runs). Options: kernel= (the kernel's name in a file of
    several), target= ("cuda" or "cpu"; default: where the arguments are),
    tuning= ("cache": the tuning cache's choice where it has one, else the
    defaults fitted to the launch; "defaults": fitted defaults; "auto":
    tune a launch that the cache has nothing for), num_warps= (for kernels
    without tile.num_warps), device= (the GPU of launches with no CUDA
    tensor), cache_dir= (the compile and tuning caches), verbose= (print the
    library's notes, such as the meta-parameters chosen, to stderr),
    defines= (a dict of meta-parameters whose names clash with these
    options)."""
    paths = [path] + list(variants)
    if len(paths) == 1 and isinstance(path, (list, tuple)):
        paths = list(path)
    return Kernel(paths, None, kwargs)


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
            param.dtype = _capi.DTYPES[info.dtype] if 0 <= info.dtype < 6 else None
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
        self._format = _capi.PACKET_HEADER + "".join(
            _slot_format(p) for p in self.params
        )
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

    def _where(self, index):
        param = self.params[index]
        if param.name:
            return "argument %d (%s) of @%s" % (index, param.name, self.name)
        return "argument %d of @%s" % (index, self.name)

    def _classify(self, args, target=None):
        """Checks `args` against the signature; returns the target, the
        device, and the tile_arg array (with what keeps it alive)."""
        if len(args) != len(self.params):
            names = ", ".join(p.name or "#%d" % p.index for p in self.params)
            raise ArgumentError(
                "%s takes %d arguments (%s); got %d"
                % (self.signature, len(self.params), names, len(args))
            )
        buffers = {}
        for index, (param, arg) in enumerate(zip(self.params, args)):
            where = self._where(index)
            buffer = _describe(arg)
            if param.is_pointer:
                if buffer is None:
                    raise ArgumentError(
                        "%s is a buffer of %s (a %s tensor or array), not %s"
                        % (where, param.dtype, _EXAMPLES.get(param.dtype), _what(arg))
                    )
                if buffer.dtype != param.dtype:
                    raise ArgumentError(
                        "%s is a buffer of %s (%s), not %s"
                        % (where, param.dtype, _EXAMPLES.get(param.dtype), buffer.what)
                    )
                buffers[index] = buffer
            elif buffer is not None:
                raise ArgumentError(
                    "%s is a scalar of type %s, not %s" % (where, param.dtype, buffer.what)
                )
        # Where the kernel runs: the GPU of the CUDA buffers, the CPU
        # interpreter for host buffers; never both.
        target = target or self._target
        on_gpu = [i for i, b in buffers.items() if b.device >= 0]
        on_host = [i for i, b in buffers.items() if b.device < 0]
        if target is None:
            target = "cuda" if on_gpu else "cpu" if on_host else _default_target()
        if target == "cuda" and on_host:
            index = on_host[0]
            why = (
                "the other buffers are on the GPU (%s is %s)"
                % (self._where(on_gpu[0]), buffers[on_gpu[0]].what)
                if on_gpu
                else "the kernel was loaded with target='cuda'"
            )
            raise ArgumentError(
                "%s is %s in host memory, but the kernel runs on the GPU: %s; "
                "pass CUDA tensors" % (self._where(index), buffers[index].what, why)
            )
        if target == "cpu" and on_gpu:
            index = on_gpu[0]
            raise ArgumentError(
                "%s is %s, but the kernel runs on the CPU interpreter "
                "(target='cpu'): pass NumPy arrays or CPU tensors"
                % (self._where(index), buffers[index].what)
            )
        device = self._device
        if on_gpu:
            device = buffers[on_gpu[0]].device
            for index in on_gpu[1:]:
                if buffers[index].device != device:
                    raise ArgumentError(
                        "%s is on GPU %d, but %s is on GPU %d: a launch runs "
                        "on one GPU"
                        % (
                            self._where(index),
                            buffers[index].device,
                            self._where(on_gpu[0]),
                            device,
                        )
                    )
        c_args = (_capi.Arg * max(len(args), 1))()
        keep = []
        for index, (param, arg) in enumerate(zip(self.params, args)):
            c_arg = c_args[index]
            c_arg.dtype = _capi.DTYPE_CODES[param.dtype]
            buffer = buffers.get(index)
            if buffer is None:
                c_arg.is_buffer = 0
                c_arg.value = _scalar_bits(arg, param.dtype, self._where(index))
                continue
            c_arg.is_buffer = 1
            c_arg.value = buffer.address
            shape = (ctypes.c_int64 * max(len(buffer.shape), 1))(*buffer.shape)
            keep.append(shape)
            c_arg.shape = shape
            c_arg.rank = len(buffer.shape)
            c_arg.extent = buffer.extent
            c_arg.writable = 1 if buffer.writable else 0
        return target, device, c_args, keep

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
        function = self._prepare(target, device, c_args, tuning, tune_grid)
        if target == "cpu":
            return self._run_cpu(function, kind, value, args, c_args)

        # Store the launch for the fast path where its key can be made (torch
        # tensors and Python scalars).
        entry = _Entry()
        entry.handle = function.handle
        entry.device = device
        entry.function = function
        entry.check = function.check
        entry.pack = self._pack
        entry.grid = None
        entry.grid_of = None
        if kind == "fixed":
            entry.grid = value if value[0] and value[1] and value[2] else None
            entry.grid_of = _skip
        elif kind == "persistent":
            entry.grid = function.persistent_grid(value)
        else:
            entry.grid_of = _CallableGrid(self, function)
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

    def prepare(self, *args, target=None):
        """The Function a launch with `args` runs: its meta-parameters, and
        on a GPU its compiled kernel's resources (compiling it if need be)."""
        target, device, c_args, keep = self._classify(args, target)
        return self._prepare(target, device, c_args)

    def tune(self, grid, *args, warmup=None, reps=None, progress=False):
        """Tunes the kernel's declared meta-parameters for a launch on `grid`
        (a tuple or 'persistent[:N]') with `args` (CUDA tensors): times every
        configuration on copies of the arguments, checks the fastest against
        the CPU interpreter, stores it in the tuning cache (where later
        launches in the same shape bucket find it, from Python or tile-run)
        and returns a TuneResult. The arguments are not changed."""
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


def _skip(grid, args):
    """A grid with no program: nothing to launch."""
    return None


class _CallableGrid:
    """The grid of a launch from a callable of the kernel's parameters."""

    def __init__(self, kernel, function):
        self.kernel = kernel
        self.function = function

    def __call__(self, grid, args):
        result = grid(_meta_args(self.kernel, self.function, args))
        kind, value = _parse_grid(result, "the grid function's result")
        if kind == "persistent":
            return self.function.persistent_grid(value)
        if kind != "fixed":
            raise ArgumentError("the grid function returned a callable")
        return value if value[0] and value[1] and value[2] else None


def _meta_args(kernel, function, args):
    """What a grid callable gets: the arguments by parameter name, and the
    meta-parameters the launch was compiled with."""
    meta = {}
    for param, arg in zip(kernel.params, args):
        meta[param.name or "#%d" % param.index] = arg
    meta.update(function.meta)
    return meta


def _grid_text(kind, value):
    if kind == "persistent":
        return "persistent:%d" % value if value else "persistent"
    return ",".join(str(size) for size in value)


def _default_target():
    import os

    target = os.environ.get("TILE_TARGET")
    if target in ("cpu", "cuda"):
        return target
    count = ctypes.c_int32()
    return "cuda" if not _capi.lib().cuda_device_count(ctypes.byref(count)) and count.value else "cpu"


def _slot_format(param):
    """struct's format of a parameter's 8-byte slot."""
    if param.is_pointer:
        return "Q"
    return {
        "i32": "i4x",
        "i64": "q",
        "i1": "?7x",
        "f32": "f4x",
        "f16": "H6x",
        "bf16": "H6x",
    }.get(param.dtype, "Q")


# The CUDA stream of a launch: torch's current stream of the device.
def _torch_stream_function():
    """torch's current raw stream of a device, as a function of the device;
    None where torch is not imported."""
    torch = _torch()
    if torch is None:
        return None
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw
    return lambda device: torch.cuda.current_stream(device).cuda_stream


def _get_current_stream(device):
    """The current stream of `device`: torch's where torch is imported,
    else the default stream."""
    function = _torch_stream_function()
    return function(device) if function is not None else 0


def _stream_handle(stream, device, args):
    if stream is None:
        return _get_current_stream(device)
    if isinstance(stream, int):
        return stream
    handle = getattr(stream, "cuda_stream", None)
    if handle is None:
        handle = getattr(stream, "ptr", None)  # CuPy
    if not isinstance(handle, int):
        raise ArgumentError(
            "stream is a CUDA stream: a torch.cuda.Stream, a handle (int) or None"
        )
    return handle


def _explicit_stream(stream):
    return _stream_handle(stream, 0, ())


def _generate_fast_path(kernel):
    """The fast path's launch and key functions for `kernel`'s signature."""
    lines = []
    names = ["a%d" % i for i in range(len(kernel.params))]
    unpack = (", ".join(names) + ("," if len(names) == 1 else "")) if names else "()"
    key = ["grid"]
    values = []
    pointers = []
    for i, param in enumerate(kernel.params):
        a = names[i]
        if param.is_pointer:
            pointers.append("        p%d = %s.data_ptr()" % (i, a))
            key += ["%s.dtype" % a, "%s.get_device()" % a, "p%d & 15" % i, "%s.shape" % a]
            values.append("p%d" % i)
        elif param.dtype in ("i32", "i64"):
            key.append(
                "(((%s - 1).bit_length() << 4 | (%s & 15)) if %s > 0 else %s - 1)"
                % (a, a, a, a)
            )
            values.append(a)
        elif param.dtype == "i1":
            key.append("not %s" % a)
            values.append(a)
        elif param.dtype == "f16":
            values.append("f16_bits(%s)" % a)
        elif param.dtype == "bf16":
            values.append("bf16_bits(%s)" % a)
        else:
            values.append(a)
    source = [
        "def key(grid, args):",
        "    %s = args" % unpack,
    ]
    source += [line[4:] for line in pointers]
    source.append("    return (%s,)" % ", ".join(key))
    source += [
        "def fast(grid, stream, args):",
        "    try:",
        "        %s = args" % unpack,
    ]
    source += pointers
    source += [
        "        e = cache[(%s,)]" % ", ".join(key),
        "    except Exception:",
        "        return slow(grid, stream, args)",
        "    if e.check is not None and not e.check(args):",
        "        return slow(grid, stream, args)",
        "    g = e.grid",
        "    if g is None:",
        "        g = e.grid_of(grid, args)",
        "        if g is None:",
        "            return None",
        "    if stream is None:",
        "        stream = current_stream(e.device)",
        "    elif stream.__class__ is not int:",
        "        stream = explicit_stream(stream)",
        "    try:",
        "        packet = e.pack(e.handle, stream, g[0], g[1], g[2], %d%s)"
        % (len(names), "".join(", " + v for v in values)),
        "    except Exception:",
        "        return slow(grid, stream, args)",
        "    status = launch(packet)",
        "    if status:",
        "        raise lib.error(status)",
    ]
    lib = kernel._lib
    scope = {
        "cache": kernel._fast_cache,
        "slow": kernel._slow,
        # Bound now where torch is imported already (the usual case), else
        # looked up at each launch.
        "current_stream": _torch_stream_function() or _get_current_stream,
        "explicit_stream": _explicit_stream,
        "launch": lib.launch_packed,
        "lib": lib,
        "f16_bits": _f16_bits,
        "bf16_bits": _bf16_bits,
    }
    exec(compile("\n".join(source), "<tile fast path of @%s>" % kernel.name, "exec"), scope)
    return scope["fast"], scope["key"]
