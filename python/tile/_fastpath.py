"""The fast path of a launch, for PyTorch CUDA tensors and Python scalars: a
function generated for the kernel's signature (_generate_fast_path) computes
the launch's key from the arguments (each tensor's dtype, device, shape and
address modulo 16; each integer's tuning-cache bucket and divisibility),
finds the prepared launch (an _Entry, which the slow path stores) in a dict,
packs the function, stream, grid and the 8-byte slots of the arguments into
one bytes object (the packet, _packet_format) and makes one C call
(tile_launch_packed), which goes straight to cuLaunchKernel(Ex). Anything
it cannot key or launch goes to the kernel's slow path.
"""

from . import _capi
from ._arguments import _bf16_bits, _f16_bits
from ._devices import _explicit_stream, _get_current_stream, _torch_stream_function
from ._grids import _CallableGrid, _skip


class _Entry:
    """A prepared launch, as the fast path uses it."""

    __slots__ = ("handle", "device", "grid", "grid_of", "check", "pack", "function")


def _entry(kernel, function, device, kind, value):
    """The _Entry of a launch prepared as `function` on `device`, on a grid
    that _parse_grid made (kind, value)."""
    entry = _Entry()
    entry.handle = function.handle
    entry.device = device
    entry.function = function
    entry.check = function.check
    entry.pack = kernel._pack
    entry.grid = None
    entry.grid_of = None
    if kind == "fixed":
        entry.grid = value if value[0] and value[1] and value[2] else None
        entry.grid_of = _skip
    elif kind == "persistent":
        entry.grid = function.persistent_grid(value)
    else:
        entry.grid_of = _CallableGrid(kernel, function)
    return entry


def _packet_format(params):
    """struct's format of a launch's packet: tile_launch_packet's header,
    then one 8-byte slot per parameter."""
    return _capi.PACKET_HEADER + "".join(_slot_format(p) for p in params)


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
            # The tuning cache's bucket (TuningCache.cpp's roundUp: a
            # quarter of an octave, 2^m x 1, 1.25, 1.5, 1.75; values up to 4
            # as they are) and the remainder modulo 16.
            key.append(
                "(((%s.bit_length() << 8 | -(-%s // (1 << (%s.bit_length() - 3)))) << 4"
                " | (%s & 15)) if %s > 4 else %s)" % (a, a, a, a, a, a)
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
