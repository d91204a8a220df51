"""Arguments: what a launch's arguments are to tile. Element types (tile's
names from NumPy's and torch's dtypes), reinterpret, buffers described from
NumPy arrays, torch tensors and __cuda_array_interface__ objects (_Buffer),
the bits of scalars, and the check of a launch's arguments against the
kernel's signature (_classify), which picks the target and device and builds
the C API's argument array.
"""

import ctypes
import struct

from . import _capi
from ._devices import _default_target, _torch
from ._errors import ArgumentError, TileError

try:
    import numpy as _np
except ImportError:  # pragma: no cover - numpy is a dependency of the tests
    _np = None

__all__ = ["reinterpret"]


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
    "float8_e4m3fn": "f8E4M3FN",  # ml_dtypes' 8-bit floats, where installed
    "float8_e5m2": "f8E5M2",
}
_TORCH_DTYPES = None


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
        # PyTorch's 8-bit floats (2.1 and later).
        for name, tile_name in (("float8_e4m3fn", "f8E4M3FN"), ("float8_e5m2", "f8E5M2")):
            if hasattr(torch, name):
                _TORCH_DTYPES[getattr(torch, name)] = tile_name
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
    "f8E4M3FN": "float8_e4m3fn",
    "f8E5M2": "float8_e5m2",
}

# ----------------------------------------------------------------------------
# Buffers and scalars
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
        size = {"f16": 2, "bf16": 2, "f32": 4, "i1": 1, "i32": 4, "i64": 8,
                "f8E4M3FN": 1, "f8E5M2": 1}
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
# A launch's arguments against the kernel's signature
# ----------------------------------------------------------------------------


def _where(kernel, index):
    """Argument `index` of `kernel`, in messages."""
    param = kernel.params[index]
    if param.name:
        return "argument %d (%s) of @%s" % (index, param.name, kernel.name)
    return "argument %d of @%s" % (index, kernel.name)


def _classify(kernel, args, target, device):
    """Checks `args` against `kernel`'s signature; returns the target (the
    one given, else where the buffers are), the device (the buffers' GPU,
    else the one given), and the tile_arg array (with what keeps it
    alive)."""
    if len(args) != len(kernel.params):
        names = ", ".join(p.name or "#%d" % p.index for p in kernel.params)
        raise ArgumentError(
            "%s takes %d arguments (%s); got %d"
            % (kernel.signature, len(kernel.params), names, len(args))
        )
    buffers = {}
    for index, (param, arg) in enumerate(zip(kernel.params, args)):
        where = _where(kernel, index)
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
    on_gpu = [i for i, b in buffers.items() if b.device >= 0]
    on_host = [i for i, b in buffers.items() if b.device < 0]
    if target is None:
        target = "cuda" if on_gpu else "cpu" if on_host else _default_target()
    if target == "cuda" and on_host:
        index = on_host[0]
        why = (
            "the other buffers are on the GPU (%s is %s)"
            % (_where(kernel, on_gpu[0]), buffers[on_gpu[0]].what)
            if on_gpu
            else "the kernel was loaded with target='cuda'"
        )
        raise ArgumentError(
            "%s is %s in host memory, but the kernel runs on the GPU: %s; "
            "pass CUDA tensors" % (_where(kernel, index), buffers[index].what, why)
        )
    if target == "cpu" and on_gpu:
        index = on_gpu[0]
        raise ArgumentError(
            "%s is %s, but the kernel runs on the CPU interpreter "
            "(target='cpu'): pass NumPy arrays or CPU tensors"
            % (_where(kernel, index), buffers[index].what)
        )
    if on_gpu:
        device = buffers[on_gpu[0]].device
        for index in on_gpu[1:]:
            if buffers[index].device != device:
                raise ArgumentError(
                    "%s is on GPU %d, but %s is on GPU %d: a launch runs "
                    "on one GPU"
                    % (
                        _where(kernel, index),
                        buffers[index].device,
                        _where(kernel, on_gpu[0]),
                        device,
                    )
                )
    c_args = (_capi.Arg * max(len(args), 1))()
    keep = []
    for index, (param, arg) in enumerate(zip(kernel.params, args)):
        c_arg = c_args[index]
        c_arg.dtype = _capi.DTYPE_CODES[param.dtype]
        buffer = buffers.get(index)
        if buffer is None:
            c_arg.is_buffer = 0
            c_arg.value = _scalar_bits(arg, param.dtype, _where(kernel, index))
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
