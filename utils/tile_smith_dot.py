"""tile.dot in tile-smith's NumPy references: the part of the runtime
(tile_smith_ref.py, which calls it as R.dot and R.accumulate_dot) that
multiplies a dot's operands, rounds f32 inputs to TF32, and bounds the
error of the kernel's f32 accumulation.

A dot's operands are Values of shapes "lhs" ([blocks, BM, K]) and "rhs"
([blocks, K, BN]); its accumulator and its result are f32 tiles.
"""

import numpy as np

import tile_smith_ref as R


def tf32(x):
    """f32 values rounded to TF32 as cvt.rna.tf32.f32 rounds them: to 11
    significant bits, to nearest, ties away from zero (computed from the
    value, not from its bits); inf and NaN stay. Below f32's smallest normal
    the spacing stays 2^-136, as it does for the instruction, which rounds
    away the 13 low bits of the significand."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        exponent = np.frexp(x)[1]
        spacing = np.ldexp(1.0, np.maximum(exponent, -125) - 11)
        r = np.sign(x) * np.floor(np.abs(x) / spacing + 0.5) * spacing
    return np.where(np.isfinite(x), r, x)


def _matmul(x, y):
    """x @ y for every block: [n, M, K] @ [n, K, N], plain IEEE arithmetic
    in float64 (einsum's own loops, not BLAS), so inf and NaN propagate as
    they do in f32."""
    return np.einsum("nik,nkj->nij", x, y)


def _finite_magnitude(x):
    return np.where(np.isfinite(x), np.abs(x), 0.0)


def _scaled_matmul(x, e, left=True):
    """The sum over K of |x| times the bound e (x on the left: x @ e, else
    e @ x), infinite where a non-finite x meets a nonzero bound."""
    inf = (~np.isfinite(x)).astype(np.float64)
    some = (e > 0).astype(np.float64)
    mag = _finite_magnitude(x)
    with np.errstate(all="ignore"):
        total = _matmul(mag, e) if left else _matmul(e, mag)
        hits = _matmul(inf, some) if left else _matmul(some, inf)
    return np.where(hits > 0, R.INF, total)


def dot(a, b, c, precision="tf32"):
    """tile.dot: c + a @ b in every block, a [n, BM, K] and b [n, K, BN] of
    one float type, c and the result f32. f16 and bf16 inputs are exact, and
    so are their products in f32; f32 inputs are rounded to TF32 first
    unless precision is "ieee" (their products are then exact too: 11 + 11
    bits). The reference computes the sum exactly (float64; products of f32
    values are exact in it), then rounds to f32.

    The kernel adds the K products and c in f32 in an order of its own: one
    after another with FMAs (the interpreter, and the GPU on small tiles),
    or in the tensor cores' mma.sync, which align the terms of each
    instruction (16 products and c; 8 for TF32) to the largest and truncate
    them, losing up to 2 ulp of the largest per term. Either way the error
    is at most a few ulp of f32 per term of |c| + sum |a||b|: about K ulp for
    FMAs, about 2.25 K for the tensor cores' K/16 (K/8) instructions of 17
    (9) terms. The bound allows (3 K + 8) ulp of it, plus the rounding of the
    result (_bound): still far below what a wrong element is off by (a wrong
    product, a lost or doubled term, an input not rounded to TF32 are off by
    a whole term, or 2^-11 of each).

    The inputs' own bounds propagate as for a product and a sum; an f32 input
    rounded to TF32 whose kernel value may differ from the reference's may
    round to a neighbour: 2^-10 of it more."""
    if a.t != b.t or a.t in R.WIDTH or c.t != "f32":
        raise R.ReferenceError("a dot of %s and %s onto %s" % (a.t, b.t, c.t))
    ra, rb, ea, eb = a.r, b.r, a.e, b.e
    # TILE_SMITH_FAULT=tf32: the reference multiplies f32 in full precision,
    # to show that the bound tells the two apart.
    if a.t == "f32" and precision != "ieee" and R.FAULT != "tf32":
        with np.errstate(all="ignore"):
            ea = np.where(ea == 0, 0.0, ea + 2.0**-10 * (np.abs(ra) + ea))
            eb = np.where(eb == 0, 0.0, eb + 2.0**-10 * (np.abs(rb) + eb))
        ra, rb = tf32(ra), tf32(rb)
    k = ra.shape[-1]
    with np.errstate(all="ignore"):
        exact = _matmul(ra, rb) + c.r
        prop = (_scaled_matmul(ra, eb, left=True)
                + _scaled_matmul(rb, ea, left=False)
                + _matmul(ea, eb) + c.e)
        terms = _finite_magnitude(c.r) + _matmul(
            _finite_magnitude(ra), _finite_magnitude(rb))
        prop = prop + (3 * k + 8) * R.U32 * terms
    bound = R._bound(exact, prop, 0.0, "f32")
    return R.Value(R.round_to(exact, "f32"), bound, "f32")


def accumulate_dot(g, a, b, start, precision="tf32", restart=0):
    """The column loop's dot accumulator: from `start`, each column block
    adds its product a @ b (tile.dot onto the iter_arg), one after another,
    as a matrix multiply's K loop does; with `restart`, it starts again
    from `start` at every block whose index is a multiple of it."""
    ra = a.r.reshape((g.row_blocks, g.col_blocks) + a.r.shape[1:])
    ea = a.e.reshape(ra.shape)
    rb = b.r.reshape((g.row_blocks, g.col_blocks) + b.r.shape[1:])
    eb = b.e.reshape(rb.shape)
    shape = (g.row_blocks, g.bm, g.bn)
    acc = R.Value(np.full(shape, R.round_to(start, "f32")), np.zeros(shape),
                  "f32")
    for j in range(g.col_blocks):
        if restart and j % restart == 0:
            acc = R.Value(np.full(shape, R.round_to(start, "f32")),
                          np.zeros(shape), "f32")
        lhs = R.Value(ra[:, j], ea[:, j], a.t)
        rhs = R.Value(rb[:, j], eb[:, j], b.t)
        acc = dot(lhs, rhs, acc, precision)
    return acc
