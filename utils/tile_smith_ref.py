"""The runtime of tile-smith's NumPy references.

tile-smith writes, beside each random kernel, a reference (ref.py): one line
per operation of the kernel's block computation, as calls of this module on
every block of the launch at once. Nothing here uses the compiler or the
interpreter: the reference is an independent account of what the kernel
stores, in float64.

A value is a Value: `r`, the reference's value of every lane of every block
(float64 arrays of shape [blocks] + the tile's shape), rounded to the
value's element type after each operation, as the kernel rounds; `e`, a
bound on how far the kernel's value may lie from `r`; and `t`, the element
type. The bound is a running error analysis: each operation propagates its
operands' bounds through the function (exactly, for monotone functions, by
evaluating it at the ends of the operands' intervals) and adds its own
error (the f32 implementation's, in units of 2^-24: a few for `exp`, `log`
and friends, more for `tile.exp`, which the GPU computes as
`ex2.approx(x * log2 e)`, and log2(n) + warps + 2 for a sum of n values,
which a GPU adds in a tree and then warp by warp), plus one unit in the last
place of the result's type for the rounding of each side (f16 and bf16 are
computed in f32 and rounded). An infinite bound means the lane is not
checked: where an operand's interval crosses a function's edge (a log of
something that may be negative, a floor near an integer, a comparison whose
outcome rounding can flip) the kernel may legitimately give anything.
Where the reference is inf or NaN with a finite bound (inputs hold some inf
and NaN), the kernel must give exactly that.

Buffers are flat: a Buffer holds `r` (the elements as float64), `e` (the
stored elements' bounds) and `written`. A buffer of 8-bit floats (f8E4M3FN,
f8E5M2; .npy files of their bits) holds values of a wider type: a load
widens them exactly (`t=`), a store rounds to the 8-bit format first, once,
saturating as tile.cast does (a value that may pass the largest finite one
is not checked: saturation cuts the error analysis short). `make_inputs` fills the buffers of
a launch; `compare` checks what a run wrote against the reference.

TILE_SMITH_FAULT injects a fault into the reference, to show that the
harness catches mismatches: `exp` makes tile.exp 10% too large, `store`
perturbs every stored element, `tf32` multiplies f32 dots in full precision
rather than in TF32 (tile_smith_dot.py).
"""

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_smith_types import (  # noqa: E402, F401  the element types
    F8, F8_MAX, INF, NPY_DTYPES, TINY, U32, UNIT, WIDTH, _int_to_float,
    from_values, round_to, to_values, unsigned, wrap)

# The own error of each function, in units of 2^-24 of its result, beyond
# the rounding to the result's type: libm and libdevice are within a few
# ulps. tile.exp's depends on its argument (see unary).
OWN_ERROR = {
    "math_exp": 8,
    "exp2": 8,
    "expm1": 8,
    "log": 8,
    "log2": 8,
    "log1p": 8,
    "sqrt": 2,
    "rsqrt": 8,
    "tanh": 8,
    "sin": 8,
    "cos": 8,
    "erf": 8,
    "atan": 8,
}

FAULT = os.environ.get("TILE_SMITH_FAULT", "")


class Value:
    def __init__(self, r, e, t):
        self.r, self.t = r, t
        if t in WIDTH:
            self.e = np.asarray(e, dtype=np.float64)
            return
        # Where the reference is inf or NaN, so must the kernel be (unless
        # the lane is unchecked): such values come from inputs that are,
        # not from rounding.
        self.e = np.where(np.isfinite(r) | np.isinf(e), e, 0.0)


class Cond:
    """A condition: `c` and `amb`, where rounding may flip it."""

    def __init__(self, c, amb):
        self.c, self.amb = c, amb


class Buffer:
    def __init__(self, t, values):
        self.t = t
        self.r = np.array(values, dtype=object if t in WIDTH else np.float64)
        self.e = np.zeros(self.r.shape)
        self.written = np.zeros(self.r.shape, dtype=bool)


class ReferenceError(Exception):
    """The program is not what the runtime expects (a tile-smith bug)."""


class Blocks:
    """The blocks of a launch, in the order of their linear index. `k` is K,
    the inner dimension of dots: their operands are "lhs" (BM x K) and "rhs"
    (K x BN), column block bj reading its own slice of K (bj * K + k), an
    rhs the block's own columns (0..BN-1)."""

    def __init__(self, rank, rows, cols, block_rows, block_cols, k=0):
        self.rank, self.rows, self.cols = rank, rows, cols
        self.bm, self.bn, self.k = block_rows, block_cols, k
        self.row_blocks = -(-rows // block_rows)
        self.col_blocks = -(-cols // block_cols)
        self.count = self.row_blocks * self.col_blocks
        b = np.arange(self.count, dtype=np.int64)
        self.bi, self.bj = b // self.col_blocks, b % self.col_blocks

    def dims(self, shape):
        n = self.count
        if shape == "tile":
            return (n, self.bm, self.bn) if self.rank == 2 else (n, self.bn)
        return {"rows": (n, self.bm), "cols": (n, self.bn), "scalar": (n,),
                "lhs": (n, self.bm, self.k), "rhs": (n, self.k, self.bn)}[shape]

    def depth_index(self):
        """The index along K of a dot operand's lanes: [blocks, K]."""
        return self.bj[:, None] * self.k + np.arange(self.k, dtype=np.int64)[None, :]

    def row_index(self, shape):
        """The row index of each lane: rows for tiles and rows, the row
        block for columns and scalars."""
        bm = np.arange(self.bm, dtype=np.int64)
        if self.rank == 1 and shape in ("tile", "scalar"):
            index = np.zeros(1, dtype=np.int64)
        elif shape in ("tile", "lhs"):
            index = self.bi[:, None, None] * self.bm + bm[None, :, None]
        elif shape == "rhs":
            index = self.depth_index()[:, :, None]
        elif shape == "rows":
            index = self.bi[:, None] * self.bm + bm[None, :]
        elif shape == "cols":
            index = self.bi[:, None]
        else:
            index = self.bi
        return np.broadcast_to(index, self.dims(shape))

    def col_index(self, shape):
        bn = np.arange(self.bn, dtype=np.int64)
        if shape == "lhs":
            index = self.depth_index()[:, None, :]
        elif shape == "rhs":
            index = bn[None, None, :]
        elif shape == "tile" and self.rank == 2:
            index = self.bj[:, None, None] * self.bn + bn[None, None, :]
        elif shape in ("tile", "cols"):
            index = self.bj[:, None] * self.bn + bn[None, :]
        elif shape == "rows":
            index = self.bj[:, None]
        else:
            index = self.bj
        return np.broadcast_to(index, self.dims(shape))

    def mask(self, shape, cut="none", bound=0):
        m = np.ones(self.dims(shape), dtype=bool)
        if (shape == "tile" and self.rank == 2) or shape in ("rows", "lhs"):
            m &= self.row_index(shape) < self.rows
        if shape in ("tile", "cols"):
            m &= self.col_index(shape) < self.cols
        if cut == "cols_below":
            m &= self.col_index(shape) < bound
        elif cut == "rows_below":
            m &= self.row_index(shape) < bound
        elif cut == "cols_from":
            m &= self.col_index(shape) >= bound
        elif cut == "diagonal":
            m &= self.col_index(shape) <= self.row_index(shape) + bound
        elif cut != "none":
            raise ReferenceError("unknown cut " + cut)
        return m


def _finish(exact, prop, own, t):
    """The result of a rounding operation: `exact` rounded to `t`, its bound
    the propagated `prop` plus the function's own relative error `own` and
    the rounding of both sides."""
    return Value(round_to(exact, t), _bound(exact, prop, own, t), t)


def _bound(exact, prop, own, t):
    """prop + (own + 2 ulp of t) * |result| + the smallest normal of t;
    infinite where the reference is finite and the bound is not a number
    (unchecked); where the reference is inf or NaN, 0 (the kernel must
    match exactly) unless prop is infinite (it may not)."""
    with np.errstate(all="ignore"):
        prop = np.where(np.isnan(prop), INF, prop)
        mag = np.abs(exact) + prop
        rel = own + 2 * UNIT[t]
        e = prop + np.where(mag == 0, 0.0, rel * mag) + TINY[t]
        finite = np.isfinite(round_to(exact, t))
    e = np.where(np.isnan(e), INF, e)
    return np.where(finite, e, np.where(np.isinf(prop), INF, 0.0))


def _scaled(magnitude, bound):
    """magnitude * bound, 0 where the bound is 0 (even for inf magnitudes)."""
    with np.errstate(all="ignore"):
        return np.where(bound == 0, 0.0, np.abs(magnitude) * bound)


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x) if np.size(x) else x


MONOTONE = {
    "exp": np.exp,
    "math_exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log1p": np.log1p,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "tanh": np.tanh,
    "erf": _erf,
    "atan": np.arctan,
}


def load(g, buf, shape, offset, row_stride, col_stride, mask, other=None,
         t=None):
    """The lanes of `buf` the mask leaves on (else `other`, or 0); `t`: the
    type an 8-bit buffer's elements are widened to (exactly)."""
    index = (
        offset
        + g.row_index(shape) * row_stride
        + g.col_index(shape) * col_stride
    )
    on = g.mask(shape, **mask) if mask is not None else np.ones(index.shape, bool)
    if np.any(on & ((index < 0) | (index >= buf.r.size))):
        raise ReferenceError("a load reaches past its buffer")
    values = buf.r[np.clip(index, 0, buf.r.size - 1)]
    r = np.where(on, values, 0 if other is None else other)
    return Value(r, np.zeros(r.shape), t or buf.t)


def store(g, buf, shape, offset, row_stride, col_stride, mask, value,
          atomic=False):
    """Writes value's lanes (where the mask holds) into buf; with atomic
    (tile.atomic_add), adds them to what buf held, rounded as one f32 or
    wrapping i32 addition each."""
    index = (
        offset
        + g.row_index(shape) * row_stride
        + g.col_index(shape) * col_stride
    )
    on = g.mask(shape, **mask) if mask is not None else np.ones(index.shape, bool)
    where = index[on]
    if np.any((where < 0) | (where >= buf.r.size)):
        raise ReferenceError("a store reaches past its buffer")
    if np.unique(where).size != where.size or np.any(buf.written[where]):
        raise ReferenceError("two lanes store to one element")
    if buf.t in F8 and value.t != buf.t:
        value = cast(value, buf.t)
    if value.t != buf.t:
        raise ReferenceError("a store of another type")
    r, e = value.r[on], value.e[on]
    if atomic:
        total = binary("addi" if buf.t in WIDTH else "add",
                       Value(buf.r[where], buf.e[where], buf.t),
                       Value(r, e, buf.t))
        r, e = total.r, total.e
    if FAULT == "store":
        r = wrap(r + 1, buf.t) if buf.t in WIDTH else round_to(r * 1.25 + 0.5, buf.t)
    buf.r[where] = r
    buf.e[where] = e
    buf.written[where] = True


def constant(g, shape, value, t):
    if t in WIDTH:
        r = np.full(g.dims(shape), int(value), dtype=object)
        return Value(r, np.zeros(r.shape), t)
    r = np.full(g.dims(shape), round_to(value, t))
    return Value(r, np.zeros(r.shape), t)


def _elementwise(f, *arrays):
    return np.frompyfunc(f, len(arrays), 1)(*arrays) if arrays[0].size else arrays[0]


def int_unary(fn, x):
    t, width = x.t, WIDTH[x.t]
    u = unsigned(x.r, t)
    if fn == "absi":
        r = wrap(np.abs(x.r), t)
    elif fn == "ctlz":
        r = _elementwise(lambda v: width - int(v).bit_length(), u)
    elif fn == "cttz":
        r = _elementwise(
            lambda v: width if v == 0 else (int(v) & -int(v)).bit_length() - 1, u)
    elif fn == "ctpop":
        r = _elementwise(lambda v: bin(int(v)).count("1"), u)
    else:
        raise ReferenceError("unknown integer function " + fn)
    return Value(np.asarray(r, dtype=object), x.e.copy(), t)


def int_binary(fn, a, b):
    t, x, y = a.t, a.r, b.r
    e = np.maximum(a.e, b.e)
    if fn in ("divsi", "remsi", "divui", "remui", "ceildivsi", "floordivsi"):
        if np.any(y == 0):
            raise ReferenceError("an integer division by zero")
        low = -(1 << (WIDTH[t] - 1))
        if fn in ("divsi", "remsi", "ceildivsi", "floordivsi") and np.any(
                (x == low) & (y == -1)):
            raise ReferenceError("the minimum divided by -1")

    def trunc_div(x, y):
        q = np.abs(x) // np.abs(y)
        return np.where((x < 0) != (y < 0), -q, q)

    if fn == "addi":
        r = x + y
    elif fn == "subi":
        r = x - y
    elif fn == "muli":
        r = x * y
    elif fn == "divsi":
        r = trunc_div(x, y)
    elif fn == "remsi":
        r = x - y * trunc_div(x, y)
    elif fn == "divui":
        r = unsigned(x, t) // unsigned(y, t)
    elif fn == "remui":
        r = unsigned(x, t) % unsigned(y, t)
    elif fn == "ceildivsi":
        r = -((-x) // y)
    elif fn == "floordivsi":
        r = x // y
    elif fn == "andi":
        r = x & y
    elif fn == "ori":
        r = x | y
    elif fn == "xori":
        r = x ^ y
    elif fn in ("shli", "shrsi", "shrui"):
        if np.any((y < 0) | (y >= WIDTH[t])):
            raise ReferenceError("a shift by the width or more")
        if fn == "shli":
            r = x << y
        elif fn == "shrsi":
            r = x >> y
        else:
            r = unsigned(x, t) >> y
    elif fn in ("maxsi", "minsi"):
        r = np.where((x >= y) == (fn == "maxsi"), x, y)
    elif fn in ("maxui", "minui"):
        r = np.where((unsigned(x, t) >= unsigned(y, t)) == (fn == "maxui"), x, y)
    else:
        raise ReferenceError("unknown integer function " + fn)
    return Value(np.asarray(wrap(r, t), dtype=object), e, t)


def unary(fn, x):
    if x.t in WIDTH:
        return int_unary(fn, x)
    r, e, t = x.r, x.e, x.t
    with np.errstate(all="ignore"):
        if fn == "neg":
            return Value(-r, e.copy(), t)
        if fn == "abs":
            return Value(np.abs(r), e.copy(), t)
        if fn in ("floor", "ceil"):
            f = np.floor if fn == "floor" else np.ceil
            flips = (e > 0) & ~(f(r - e) == f(r + e))
            return Value(f(r), np.where(flips, INF, e * 0), t)
        if fn in ("sin", "cos"):
            exact = np.sin(r) if fn == "sin" else np.cos(r)
            prop = np.minimum(e, 2.0)
            return _finish(exact, prop, OWN_ERROR[fn] * U32, t)
        f = MONOTONE[fn]
        exact = f(r)
        prop = np.maximum(np.abs(f(r + e) - exact), np.abs(f(r - e) - exact))
        prop = np.where(e == 0, 0.0, np.where(np.isnan(prop), INF, prop))
        if fn == "exp":
            # ex2.approx (2 ulp) of x * log2(e) rounded to f32.
            own = (6 + 2 * np.abs(r)) * U32
            if FAULT == "exp":
                exact = exact * 1.1
        else:
            own = OWN_ERROR[fn] * U32
        return _finish(exact, prop, own, t)


def binary(fn, a, b):
    if a.t in WIDTH:
        return int_binary(fn, a, b)
    ra, rb, ea, eb, t = a.r, b.r, a.e, b.e, a.t
    with np.errstate(all="ignore"):
        if fn in ("maximum", "minimum", "maxnum", "minnum"):
            f = {
                "maximum": np.maximum,
                "minimum": np.minimum,
                "maxnum": np.fmax,
                "minnum": np.fmin,
            }[fn]
            return Value(f(ra, rb), np.maximum(ea, eb), t)
        if fn == "rem":
            inexact = (ea > 0) | (eb > 0)
            return Value(np.fmod(ra, rb), np.where(inexact, INF, 0.0), t)
        if fn == "copysign":
            # A NaN's sign is unspecified (x86 and the GPU differ).
            unsure = (rb == 0) | np.isnan(rb) | ((eb > 0) & ~(np.abs(rb) > eb))
            return Value(np.copysign(ra, rb), np.where(unsure, INF, ea), t)
        if fn == "add":
            return _finish(ra + rb, ea + eb, 0.0, t)
        if fn == "sub":
            return _finish(ra - rb, ea + eb, 0.0, t)
        if fn == "mul":
            prop = _scaled(ra, eb) + _scaled(rb, ea) + _scaled(ea, eb)
            return _finish(ra * rb, prop, 0.0, t)
        if fn == "div":
            exact = ra / rb
            room = np.abs(rb) - eb
            prop = np.where(room > 0, (ea + _scaled(exact, eb)) / room, INF)
            prop = np.where((ea == 0) & (eb == 0), 0.0, prop)
            return _finish(exact, prop, 4 * U32, t)
    raise ReferenceError("unknown binary function " + fn)


def fma(a, b, c):
    with np.errstate(all="ignore"):
        prop = _scaled(a.r, b.e) + _scaled(b.r, a.e) + _scaled(a.e, b.e) + c.e
        return _finish(a.r * b.r + c.r, prop, 0.0, a.t)


INT_PREDICATES = {
    "eq": (False, lambda x, y: x == y),
    "ne": (False, lambda x, y: x != y),
    "slt": (False, lambda x, y: x < y),
    "sle": (False, lambda x, y: x <= y),
    "sgt": (False, lambda x, y: x > y),
    "sge": (False, lambda x, y: x >= y),
    "ult": (True, lambda x, y: x < y),
    "ule": (True, lambda x, y: x <= y),
    "ugt": (True, lambda x, y: x > y),
    "uge": (True, lambda x, y: x >= y),
}


def compare(predicate, x, value):
    """x against a constant, or against another Value."""
    if x.t in WIDTH:
        e = x.e
        if isinstance(value, Value):
            e, value = np.maximum(e, value.e), value.r
        is_unsigned, f = INT_PREDICATES[predicate]
        lhs, rhs = x.r, value
        if is_unsigned:
            lhs, rhs = unsigned(lhs, x.t), unsigned(rhs, x.t)
        c = np.asarray(f(lhs, rhs), dtype=bool)
        return Cond(c, e > 0)
    r, e = x.r, x.e
    if value is x:  # a value against itself: no rounding can flip that
        e, value = np.zeros(e.shape), x.r
    elif isinstance(value, Value):
        e, value = e + value.e, value.r
    with np.errstate(all="ignore"):
        c = {
            "olt": lambda: r < value,
            "ole": lambda: r <= value,
            "ogt": lambda: r > value,
            "oge": lambda: r >= value,
            "une": lambda: ~(r == value),
            "ult": lambda: ~(r >= value),
        }[predicate]()
        amb = (e > 0) & ~(np.abs(r - value) > e)
    return Cond(c, amb)


def index(g, shape, kind):
    if kind == "col_below_row":
        c = g.col_index(shape) < g.row_index(shape)
    elif kind == "odd_col":
        c = (g.col_index(shape) & 1) == 1
    elif kind == "odd_row":
        c = (g.row_index(shape) & 1) == 1
    else:
        raise ReferenceError("unknown index condition " + kind)
    c = np.array(c)
    return Cond(c, np.zeros(c.shape, dtype=bool))


def logic(fn, a, b):
    c = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}[fn](
        a.c, b.c
    )
    return Cond(c, a.amb | b.amb)


def select(cond, a, b):
    r = np.where(cond.c, a.r, b.r)
    e = np.where(cond.amb, INF, np.where(cond.c, a.e, b.e))
    return Value(r, e, a.t)


def cast(x, t, style="tile_cast"):
    """tile.cast, extf, truncf between floats; extsi, extui, trunci between
    integers; sitofp, uitofp (rounded once from the integer) and fptosi,
    fptoui (toward zero, saturated, NaN to 0) between the two."""
    signed = style != "unsigned"
    if x.t in WIDTH and t in WIDTH:
        r = x.r if signed or WIDTH[t] < WIDTH[x.t] else unsigned(x.r, x.t)
        return Value(np.asarray(wrap(r, t), dtype=object), x.e.copy(), t)
    if x.t in WIDTH:
        v = x.r if signed else unsigned(x.r, x.t)
        f = np.asarray(_elementwise(lambda i: _int_to_float(i, t), v), dtype=np.float64)
        return Value(round_to(f, t), np.where(x.e == 0, 0.0, INF), t)
    if t in WIDTH:
        width = WIDTH[t]
        low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (
            0, (1 << width) - 1)

        def convert(v):
            v = float(v)
            if v != v:
                return 0
            if v == INF:
                return high
            if v == -INF:
                return low
            return min(max(int(v), low), high)

        with np.errstate(all="ignore"):
            r = _elementwise(convert, x.r)
            flips = (x.e > 0) & ~(
                _elementwise(convert, x.r - x.e) == _elementwise(convert, x.r + x.e))
        return Value(np.asarray(wrap(r, t), dtype=object),
                     np.where(np.asarray(flips, dtype=bool), INF, 0.0), t)
    r = round_to(x.r, t)
    e = np.where(x.e == 0, 0.0, _bound(x.r, x.e, 0.0, t))
    if t in F8:
        # Saturation: exact where the value is exactly representable or
        # beyond reach; not checked where its interval reaches the largest
        # finite value (rounding there is cut, not bounded).
        with np.errstate(all="ignore"):
            near = np.isfinite(x.r) & (np.abs(x.r) + x.e >= F8_MAX[t])
            e = np.where(near & (x.e > 0), INF, e)
            e = np.where(near & (x.e == 0), 0.0, e)
    return Value(r, e, t)


def reduce(kind, x, axis, depth):
    ax = 1 + axis
    if x.t in WIDTH:
        e = np.max(x.e, axis=ax)
        if kind == "max":
            return Value(np.max(x.r, axis=ax), e, x.t)
        return Value(np.asarray(wrap(np.sum(x.r, axis=ax), x.t), dtype=object), e, x.t)
    with np.errstate(all="ignore"):
        if kind == "max":
            return Value(np.max(x.r, axis=ax), np.max(x.e, axis=ax), x.t)
        exact = np.sum(x.r, axis=ax)
        prop = np.sum(x.e, axis=ax)
        # The kernel's own rounding: at most depth additions in f32 behind
        # each partial sum.
        magnitude = np.where(np.isfinite(x.r), np.abs(x.r), 0.0)
        prop = prop + depth * U32 * np.sum(magnitude, axis=ax)
    return Value(round_to(exact, x.t), _bound(exact, prop, 0.0, x.t), x.t)


def expand(g, x, source, shape):
    """A scalar, row or column value widened to a larger shape."""
    dims = g.dims(shape)
    if source == "scalar":
        r = x.r.reshape((-1,) + (1,) * (len(dims) - 1))
    elif source == "rows":
        r = x.r[:, :, None]
    else:
        r = x.r[:, None, :]
    e = x.e.reshape(r.shape)
    return Value(
        np.array(np.broadcast_to(r, dims)), np.array(np.broadcast_to(e, dims)), x.t
    )


def accumulate(g, x, kind, start):
    """The sum or maximum of a value over the column blocks of each row
    block, from `start`, one column block after another: the column loop's
    iter_arg after the loop."""
    shape = x.r.shape[1:]
    r = x.r.reshape((g.row_blocks, g.col_blocks) + shape)
    e = x.e.reshape(r.shape)
    integer = x.t in WIDTH
    start = int(start) if integer else round_to(start, x.t)
    acc = Value(
        np.full((g.row_blocks,) + shape, start, dtype=object if integer else None),
        np.zeros((g.row_blocks,) + shape),
        x.t,
    )
    fn = {"sum": "add", "max": "maximum"}[kind]
    if integer:
        fn = {"sum": "addi", "max": "maxsi"}[kind]
    for j in range(g.col_blocks):
        step = Value(r[:, j], e[:, j], x.t)
        acc = binary(fn, acc, step)
    return acc


# Dots (tile.dot) are computed in tile_smith_dot.py, beside this file.
import tile_smith_dot as _dots  # noqa: E402


def dot(a, b, c, precision="tf32"):
    return _dots.dot(a, b, c, precision)


def accumulate_dot(g, a, b, start, precision="tf32", restart=0):
    return _dots.accumulate_dot(g, a, b, start, precision, restart)


#
# Inputs and checking.
#


def make_inputs(launch):
    """The buffers of a launch, as the arrays tile-run reads (.npy): inputs
    uniform in their [lo, hi] (some inf and NaN where the launch says so),
    outputs uniform in [-1, 1], so that an element the kernel should not
    write is seen if it does. Keyed by argument index."""
    rng = np.random.default_rng(launch["seed"])
    arrays = {}
    for index, arg in enumerate(launch["args"]):
        if "buffer" not in arg:
            continue
        t, n = arg["type"], arg["size"]
        if t in WIDTH:
            lo, hi = (-1000, 1000) if arg["output"] else (arg["lo"], arg["hi"])
            x = rng.integers(lo, hi, size=n, endpoint=True, dtype=np.int64)
            arrays[index] = x.astype(NPY_DTYPES[t])
            continue
        if arg["output"]:
            x = round_to(rng.uniform(-1, 1, n), t)
        else:
            x = round_to(rng.uniform(arg["lo"], arg["hi"], n), t)
            # (No inf in f8E4M3FN, and none in an 8-bit buffer's inputs.)
            if launch["specials"] and t not in F8:
                count = max(1, n // 50)
                where = rng.integers(0, n, count)
                x[where] = rng.choice(np.array([INF, -INF, np.nan]), count)
        arrays[index] = from_values(x, t)
    return arrays


def evaluate(reference, launch, arrays):
    """Runs the reference on the launch's input arrays; returns the Buffers
    (by argument index) as the kernel should leave them."""
    buffers = {}
    for index, arg in enumerate(launch["args"]):
        if "buffer" in arg:
            buffers[arg["buffer"]] = Buffer(
                arg["type"], to_values(arrays[index], arg["type"])
            )
    import sys

    reference(sys.modules[__name__], buffers)
    return buffers


def compare_buffer(got, buf, slack=2.0):
    """Checks a buffer as a run left it against the reference. Returns None
    when it matches, else (element, got, expected, tolerance) of the worst
    element, with the number of bad elements."""
    got = to_values(got, buf.t).reshape(-1)
    ref = buf.r
    tol = np.where(buf.written, slack * buf.e, 0.0)
    if buf.t in WIDTH:
        bad = ~np.isinf(tol) & ~np.asarray(got == ref, dtype=bool)
        if not np.any(bad):
            return None
        worst = int(np.argmax(bad))
        return worst, int(got[worst]), int(ref[worst]), 0.0, int(
            np.count_nonzero(bad))
    with np.errstate(all="ignore"):
        checked = ~np.isinf(tol)
        nan_got, nan_ref = np.isnan(got), np.isnan(ref)
        diff = np.abs(got - ref)
        bad = checked & ~(nan_got & nan_ref) & ~(got == ref)
        bad &= (nan_got != nan_ref) | ~(diff <= tol)
        if not np.any(bad):
            return None
        score = np.where(bad, np.where(tol > 0, diff / tol, INF), -1.0)
        score = np.where(np.isnan(score), INF, score)
    worst = int(np.argmax(score))
    return worst, float(got[worst]), float(ref[worst]), float(tol[worst]), int(
        np.count_nonzero(bad)
    )
