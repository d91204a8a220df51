"""tile: kernels of the tile language, launched from Python.

    import tile, torch
    softmax = tile.load("examples/softmax.mlir", BLOCK_SIZE=1024)
    softmax["persistent"](y, x, x.stride(0), y.stride(0), n_rows, n_cols)

A pure-Python package over tile's C API (libtile-c.so, through ctypes): with
PyTorch CUDA tensors a kernel runs on their GPU, on the current stream; with
NumPy arrays on the CPU interpreter. See docs/python.md.
"""

from ._arguments import reinterpret
from ._capi import library_path
from ._devices import cuda_device_count, synchronize
from ._errors import (
    ArgumentError,
    CompileError,
    CudaError,
    KernelError,
    RunError,
    TileError,
    TileWarning,
)
from ._kernel import (
    Function,
    Kernel,
    MetaParam,
    TuneResult,
    load,
    load_string,
    tune_export,
    tune_import,
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
    "tune_export",
    "tune_import",
    "version",
]


def version():
    """The compiler's version, as compile-cache keys name it."""
    from . import _capi

    return _capi.text(_capi.lib().version())
