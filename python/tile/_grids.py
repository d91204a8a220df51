"""Grids: a launch's grid parsed (a tuple of 1 to 3 sizes, 'persistent',
'persistent:N' or a callable of the kernel's parameters), written as the
tuner's text, and computed for a launch from a callable.
"""

from ._errors import ArgumentError

try:
    import numpy as _np
except ImportError:  # pragma: no cover - numpy is a dependency of the tests
    _np = None


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


def _grid_text(kind, value):
    """A parsed grid as the tuner takes it: "persistent:N" or "x,y,z"."""
    if kind == "persistent":
        return "persistent:%d" % value if value else "persistent"
    return ",".join(str(size) for size in value)


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
