"""The C API (include/tile-c/Runtime.h) through ctypes, and its statuses as
exceptions (the classes are _errors').

Everything here mirrors the header: the structures field for field, the
functions with their argument and result types. Calls that may take long
(loading, preparing, compiling, tuning, running on the interpreter) go
through ctypes.CDLL, which releases the GIL; the launch goes through
ctypes.PyDLL, which keeps it (the call is a few microseconds, and releasing
and taking the GIL back would cost as much).
"""

import ctypes
import os
import sys

from . import _errors

__all__ = ["library_path"]

# ----------------------------------------------------------------------------
# Statuses
# ----------------------------------------------------------------------------

# tile_status -> exception class.
_ERRORS = {
    1: _errors.TileError,  # TILE_ERROR_INVALID_CALL: a bug of this package
    2: _errors.KernelError,
    3: _errors.ArgumentError,
    4: _errors.CompileError,
    5: _errors.CudaError,
    6: _errors.RunError,
    7: _errors.TileError,
}

# ----------------------------------------------------------------------------
# Structures
# ----------------------------------------------------------------------------

c_int32, c_uint32, c_int64, c_uint64 = (
    ctypes.c_int32,
    ctypes.c_uint32,
    ctypes.c_int64,
    ctypes.c_uint64,
)
c_char_p, c_void_p, c_size_t = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t

# As tile_dtype numbers them (include/tile-c/Runtime.h).
DTYPES = ("f16", "bf16", "f32", "i1", "i32", "i64", "f8E4M3FN", "f8E5M2")
DTYPE_CODES = {name: code for code, name in enumerate(DTYPES)}
TARGET_CPU, TARGET_CUDA = 0, 1
TUNING_MODES = {"cache": 0, "defaults": 1, "tune": 2, "auto": 3}


class LoadOptions(ctypes.Structure):
    _fields_ = [
        ("kernel_name", c_char_p),
        ("defines", ctypes.POINTER(c_char_p)),
        ("num_defines", c_size_t),
    ]


class ParamInfo(ctypes.Structure):
    _fields_ = [
        ("name", c_char_p),
        ("is_pointer", c_int32),
        ("dtype", c_int32),
        ("divisibility", c_int64),
        ("max_value", c_int64),
    ]


class MetaParamInfo(ctypes.Structure):
    _fields_ = [
        ("name", c_char_p),
        ("value", c_char_p),
        ("is_type", c_int32),
        ("is_defined", c_int32),
        ("values", c_char_p),
    ]


class Arg(ctypes.Structure):
    _fields_ = [
        ("is_buffer", c_int32),
        ("dtype", c_int32),
        ("value", c_uint64),
        ("shape", ctypes.POINTER(c_int64)),
        ("rank", c_int32),
        ("writable", c_int32),
        ("extent", c_int64),
    ]


class PrepareOptions(ctypes.Structure):
    _fields_ = [
        ("target", c_int32),
        ("device", c_int32),
        ("tuning", c_int32),
        ("num_warps", c_uint32),
        ("tune_grid", c_char_p),
        ("tune_warmup", c_uint32),
        ("tune_repetitions", c_uint32),
        ("tune_progress", c_int32),
        ("cache_dir", c_char_p),
        ("tuning_databases", c_int32),
        ("tune_top", c_uint32),
        ("tma", c_int32),
    ]


class FunctionInfo(ctypes.Structure):
    _fields_ = [
        ("name", c_char_p),
        ("variant", c_int32),
        ("target", c_int32),
        ("device", c_int32),
        ("config", c_char_p),
        ("block_size", c_uint32),
        ("cluster_size", c_int32),
        ("num_registers", c_int32),
        ("shared_bytes", c_int32),
        ("local_bytes", c_int32),
        ("specialization", c_char_p),
    ]


# tile_launch_packet, then one 8-byte slot per parameter (struct's format).
PACKET_HEADER = "<QQIIII"

# ----------------------------------------------------------------------------
# The library
# ----------------------------------------------------------------------------

_NAME = "libtile-c.so"


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    env = os.environ.get("TILE_LIBRARY")
    if env:
        yield env
        return
    build = os.environ.get("TILE_BUILD_DIR")
    if build:
        yield os.path.join(build, "lib", _NAME)
    yield os.path.join(here, _NAME)  # installed beside the package
    yield os.path.join(root, "build", "lib", _NAME)  # the repository
    yield os.path.join(root, "lib", _NAME)  # the GPU bundle


def library_path():
    """The libtile-c.so this package loads: $TILE_LIBRARY, else
    $TILE_BUILD_DIR/lib, else beside the package, else the repository's
    build/lib, else the GPU bundle's lib."""
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            return path
        tried.append(path)
    raise ImportError(
        "tile: the C library libtile-c.so was not found (tried "
        + ", ".join(tried)
        + "); build it with scripts/build.sh, or point TILE_LIBRARY at it"
    )


def _declare(lib, name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


class _Library:
    def __init__(self, path):
        self.path = path
        lib = ctypes.CDLL(path)
        fast = ctypes.PyDLL(path)
        d = _declare
        P = ctypes.POINTER
        status = ctypes.c_int
        self.last_error = d(lib, "tile_last_error", c_char_p)
        self.version = d(lib, "tile_version", c_char_p)
        self.cuda_device_count = d(lib, "tile_cuda_device_count", status, P(c_int32))
        self.cuda_synchronize = d(lib, "tile_cuda_synchronize", status, c_int32)
        self.load_files = d(
            lib,
            "tile_kernel_load_files",
            status,
            P(c_char_p),
            c_size_t,
            P(LoadOptions),
            P(c_void_p),
        )
        self.load_string = d(
            lib,
            "tile_kernel_load_string",
            status,
            c_char_p,
            c_char_p,
            P(LoadOptions),
            P(c_void_p),
        )
        self.destroy = d(lib, "tile_kernel_destroy", None, c_void_p)
        self.kernel_name = d(lib, "tile_kernel_name", c_char_p, c_void_p)
        self.kernel_signature = d(lib, "tile_kernel_signature", c_char_p, c_void_p)
        self.kernel_messages = d(lib, "tile_kernel_messages", c_char_p, c_void_p)
        self.kernel_num_params = d(lib, "tile_kernel_num_params", c_size_t, c_void_p)
        self.kernel_get_param = d(
            lib, "tile_kernel_get_param", status, c_void_p, c_size_t, P(ParamInfo)
        )
        self.kernel_num_meta_params = d(
            lib, "tile_kernel_num_meta_params", c_size_t, c_void_p
        )
        self.kernel_get_meta_param = d(
            lib,
            "tile_kernel_get_meta_param",
            status,
            c_void_p,
            c_size_t,
            P(MetaParamInfo),
        )
        self.prepare_options_default = d(
            lib, "tile_prepare_options_default", PrepareOptions
        )
        self.prepare = d(
            lib,
            "tile_kernel_prepare",
            status,
            c_void_p,
            P(PrepareOptions),
            P(Arg),
            c_size_t,
            P(c_void_p),
        )
        self.compile = d(
            lib,
            "tile_kernel_compile",
            status,
            c_void_p,
            c_char_p,
            c_int32,
            P(Arg),
            c_size_t,
            P(ctypes.POINTER(ctypes.c_char)),
            P(c_size_t),
        )
        self.function_get_info = d(
            lib, "tile_function_get_info", status, c_void_p, P(FunctionInfo)
        )
        self.function_get_param = d(
            lib, "tile_function_get_param", status, c_void_p, c_size_t, P(ParamInfo)
        )
        self.function_num_meta_params = d(
            lib, "tile_function_num_meta_params", c_size_t, c_void_p
        )
        self.function_get_meta_param = d(
            lib,
            "tile_function_get_meta_param",
            status,
            c_void_p,
            c_size_t,
            P(MetaParamInfo),
        )
        self.persistent_grid = d(
            lib,
            "tile_function_persistent_grid",
            status,
            c_void_p,
            c_int64,
            P(c_uint32),
        )
        self.run_cpu = d(
            lib,
            "tile_function_run_cpu",
            status,
            c_void_p,
            P(c_uint32),
            P(Arg),
            c_size_t,
        )
        self.function_launch = d(
            fast,
            "tile_function_launch",
            status,
            c_void_p,
            P(c_uint32),
            c_void_p,
            P(c_uint64),
            c_size_t,
        )
        self.tuning_export = d(
            lib, "tile_tuning_export", status, c_char_p, c_char_p, P(c_char_p)
        )
        self.tuning_import = d(
            lib, "tile_tuning_import", status, c_char_p, c_char_p, P(c_char_p)
        )
        # The launch of the Python fast path: one bytes object in.
        self.launch_packed = d(fast, "tile_launch_packed", status, c_char_p)

    def error(self, status, context=None):
        """The exception for `status`, with tile_last_error()'s message."""
        message = self.last_error().decode("utf-8", "replace")
        if context:
            message = context + ": " + message
        return _ERRORS.get(status, _errors.TileError)(message)

    def check(self, status, context=None):
        if status:
            raise self.error(status, context)


_library = None


def lib():
    """The loaded library (loaded on first use)."""
    global _library
    if _library is None:
        _library = _Library(library_path())
    return _library


def text(value):
    """A C string from the API as str."""
    return value.decode("utf-8", "replace") if value is not None else ""


if sys.byteorder != "little":  # the packet's slots are little-endian
    raise ImportError("tile: only little-endian machines are supported")
