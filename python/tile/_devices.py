"""Devices and streams: PyTorch where the program imported it, the GPUs the
driver sees (cuda_device_count, synchronize), the target of a launch whose
arguments do not decide it, and the CUDA stream a launch goes on.
"""

import ctypes
import os
import sys

from . import _capi
from ._errors import ArgumentError

__all__ = ["cuda_device_count", "synchronize"]


def _torch():
    """PyTorch where the program imported it (this package never does)."""
    return sys.modules.get("torch")


def cuda_device_count():
    """The GPUs the CUDA driver sees (0 without a driver or a GPU)."""
    count = ctypes.c_int32()
    if _capi.lib().cuda_device_count(ctypes.byref(count)):
        return 0
    return count.value


def synchronize(device=0):
    """Waits for all work on GPU `device`; a kernel's fault surfaces here."""
    lib = _capi.lib()
    lib.check(lib.cuda_synchronize(device))


def _default_target():
    """Where a launch with no buffer runs: $TILE_TARGET, else a GPU where
    there is one, else the CPU interpreter."""
    target = os.environ.get("TILE_TARGET")
    if target in ("cpu", "cuda"):
        return target
    return "cuda" if cuda_device_count() else "cpu"


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
