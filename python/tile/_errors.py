"""The exceptions and the warning the package raises: TileError and its
kinds (one per status of the C API, which _capi maps them from) and
TileWarning. `tile` exports them all.
"""

__all__ = [
    "TileError",
    "KernelError",
    "ArgumentError",
    "CompileError",
    "CudaError",
    "RunError",
    "TileWarning",
]


class TileError(Exception):
    """An error of tile's runtime: the message says what and where."""


class KernelError(TileError):
    """The kernel file: unreadable, bad meta-parameters, does not parse or
    verify, no kernel of the name asked for."""


class ArgumentError(TileError, TypeError):
    """A launch's arguments do not fit the kernel: their number, types,
    devices, or a value that breaks a promise of the kernel."""


class CompileError(TileError):
    """Compiling the kernel failed."""


class CudaError(TileError):
    """The GPU: no driver or GPU, a failing driver call, a launch the GPU
    refuses."""


class RunError(TileError):
    """The run failed (an access outside the buffers on the interpreter, no
    configuration the tuner could time)."""


class TileWarning(UserWarning):
    """A warning of the runtime (a kernel that spills, a tuning cache entry
    that is ignored)."""
