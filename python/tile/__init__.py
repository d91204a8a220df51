"""tile: kernels of the tile language, launched from Python.

    import tile, torch
    softmax = tile.load("examples/softmax.mlir", BLOCK_SIZE=1024)
    softmax["persistent"](y, x, x.stride(0), y.stride(0), n_rows, n_cols)

A pure-Python package over tile's C API (libtile-c.so, through ctypes): with
PyTorch CUDA tensors a kernel runs on their GPU, on the current stream; with
NumPy arrays on the CPU interpreter. See docs/python.md.
"""

from ._capi import (
    ArgumentError,
    CompileError,
    CudaError,
    KernelError,
    RunError,
    TileError,
    library_path,
)
from ._kernel import (
    Function,
    Kernel,
    MetaParam,
    TileWarning,
    TuneResult,
    load,
    load_string,
    reinterpret,
)
from . import testing

__all__ = [
    "ArgumentError",
    "CompileError",
    "CudaError",
    "Function",
    "Kernel",
    "KernelError",
    "MetaParam",
    "RunError",
    "TileError",
    "TileWarning",
    "TuneResult",
    "cuda_device_count",
    "library_path",
    "load",
    "load_string",
    "reinterpret",
    "synchronize",
    "testing",
    "version",
]


def version():
    """The compiler's version, as compile-cache keys name it."""
    from . import _capi

    return _capi.text(_capi.lib().version())


def cuda_device_count():
    """The GPUs the CUDA driver sees (0 without a driver or a GPU)."""
    import ctypes

    from . import _capi

    count = ctypes.c_int32()
    if _capi.lib().cuda_device_count(ctypes.byref(count)):
        return 0
    return count.value


def synchronize(device=0):
    """Waits for all work on GPU `device`; a kernel's fault surfaces here."""
    from . import _capi

    lib = _capi.lib()
    lib.check(lib.cuda_synchronize(device))
