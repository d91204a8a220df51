#!/usr/bin/env python3
"""Float64 references for tile's example kernels, and .npy helpers for tests.

Run with a Python that has numpy (Debian's python3-numpy installs it for
/usr/bin/python3). Subcommands:

  softmax INPUT OUTPUT [--cols N] [--rest-zero] [--rtol R] [--bf16]
      Recomputes softmax over each row of INPUT (the first N columns, all by
      default) in float64, as torch.softmax does: exp(x - max) / sum(exp(x -
      max)). A row whose max is -inf or +inf or NaN is all NaN, as in torch.
      Compares OUTPUT with it: NaN positions must match exactly, elsewhere
      the relative error |y - ref| / max(|ref|, 2^-126) must stay within R
      (default 1e-5; 2^-126 is the smallest normal f32, so values that
      underflow are held to an absolute error of R * 2^-126). With
      --rest-zero, OUTPUT's columns past N must be 0 (the kernel must not
      write there). With --bf16, both files hold bf16 bits as <u2.

  vector-add X Y OUTPUT
      OUTPUT must equal x + y rounded once from float64 to float32, the
      correctly rounded sum, bit for bit.

  print FILE [--bf16]
      Prints "TYPE[SHAPE]", then the elements in C order, one line per row
      of the last dimension (one line in all for rank 0 and 1); --bf16 reads
      a <u2 file as bf16 bits. Floats print in the shortest form that reads
      back as the same value of their type; booleans as true and false.

  matmul A B C [--a-transposed] [--b-transposed] [--ieee] [--bf16]
         [--cols N [--rest-zero]]
      C (its first N columns with --cols, for a C whose rows are longer
      than B's; --rest-zero: the others must be 0, unwritten) must be A @ B
      computed in float64. A file holding the transpose
      (A as K x M, B as N x K: a column-major operand as tile-run writes it)
      is named by --a-transposed or --b-transposed. C's dtype says how it was
      rounded (it may differ from A's and B's: with --bf16, <u2 files are
      bf16); f32 inputs are taken as multiplied in TF32 (tile.dot's
      default) unless --ieee. Each element must be within
          out_eps * |ref| + acc_eps * (|A| @ |B|)
      where out_eps is the output's rounding (2^-11 f16, 2^-8 bf16, 2^-24
      f32) and acc_eps covers the inputs' rounding and f32 accumulation
      over K in any order: K * 2^-24, plus 2^-10 for TF32 (each input
      rounded to 11 significant bits). A wrong element is off by about
      |ref|, far outside it.

  softmax-edge-cases OUTPUT
      Writes an f32 [8 x 12] input whose rows are the cases torch.softmax
      is checked on: all -inf, one +inf, a NaN, huge values (+-1e30), all
      equal, +inf and -inf together, large negatives, ordinary values.

  check KERNEL NAME=FILE... [--eps E] [--ignore-index I]
        [--label-smoothing S] [--rtol R] [--cols N [--rest-zero]]
      Checks the outputs of one of the training kernels (examples/
      rms_norm.mlir, rms_norm_backward.mlir, softmax_backward.mlir,
      layer_norm.mlir, layer_norm_backward.mlir, cross_entropy.mlir,
      cross_entropy_backward.mlir; KERNEL is the file's name without
      .mlir) against the float64 reference functions below, computed from
      the input files. NAME is the kernel's parameter name (CHECKED lists
      them); every input marked required must be given, and each output
      given is checked (at least one). A <u2 file holds bf16 bits. With
      --cols N, 2-D buffers (and w, b) are cut to their first N columns,
      for rows padded to a longer stride; --rest-zero: the outputs'
      columns past N must be 0 (the kernel must not write there).
      A `*_partial` output ([programs, n_cols], one row per program) is
      checked by its column sums against the reference dw or db. Saved
      statistics (rstd, mean, lse) given as inputs to a backward kernel
      are used as given, as the kernel uses them; left out, they are
      recomputed from x (with --eps).
      Errors are measured per row against that row's scale, not per
      element (dx in the backward passes cancels: an element near 0 has
      no meaningful relative error): for a 2-D output the row's largest
      |reference|; for dw and db the largest |reference| of the vector;
      for one value per row, its |reference|, except mean (against the
      row's root mean square, as mean is a difference of large sums) and
      loss (against max(|loss|, |lse|), as lse - x[t] cancels); scales
      below 2^-126 count as 2^-126. NaN positions must match exactly and
      infinities must be equal. The tolerance is --rtol, else by the
      output file's dtype: 1e-5 for f32, 4e-3 for f16, 3e-2 for bf16.
      Prints one line per output, `KERNEL OUTPUT: ... max error E
      (tolerance R): OK` or `FAIL`.

Reference functions (importable: numpy arrays in, float64 arrays out, with
PyTorch's semantics: NaN propagates, rows whose target is ignore_index give
0): rms_norm, rms_norm_backward, softmax_backward, layer_norm,
layer_norm_backward, cross_entropy, cross_entropy_backward. A target out of
[0, V) that is not ignore_index (an error in PyTorch) gives a NaN loss and
a NaN row of dx, as the kernels do.

Each check prints its errors and its verdict, and exits 1 on failure.
"""

import argparse
import sys

import numpy as np

SMALLEST_NORMAL_F32 = 2.0**-126


def load(path, bf16=False):
    try:
        array = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        sys.exit(f"{path}: cannot read it as a .npy file: {error}")
    if bf16:
        if array.dtype != np.uint16:
            sys.exit(f"{path}: --bf16 needs a <u2 file, got {array.dtype}")
        array = (array.astype(np.uint32) << 16).view(np.float32)
    return array


def softmax_reference(x):
    """Row softmax in float64 with torch.softmax's semantics."""
    x = x.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.max(x, axis=1, keepdims=True)
        e = np.exp(x - m)
        return e / np.sum(e, axis=1, keepdims=True)


def compare(name, got, ref, rtol):
    got64 = got.astype(np.float64)
    nan_got, nan_ref = np.isnan(got64), np.isnan(ref)
    if not np.array_equal(nan_got, nan_ref):
        where = np.argwhere(nan_got != nan_ref)[0]
        print(f"{name}: NaN mismatch at {tuple(int(i) for i in where)}: "
              f"got {got64[tuple(where)]!r}, expected {ref[tuple(where)]!r}")
        return False
    ok = ~nan_ref
    if not np.array_equal(np.isinf(got64[ok]), np.isinf(ref[ok])):
        print(f"{name}: infinities differ")
        return False
    with np.errstate(invalid="ignore"):
        diff = np.where(ok, np.abs(got64 - ref), 0.0)
        diff = np.where(np.isinf(ref) & (got64 == ref), 0.0, diff)
    rel = diff / np.maximum(np.abs(np.where(ok, ref, 1.0)), SMALLEST_NORMAL_F32)
    max_abs = float(np.max(diff)) if diff.size else 0.0
    max_rel = float(np.max(rel)) if rel.size else 0.0
    verdict = "OK" if max_rel <= rtol else "FAIL"
    print(f"{name}: {got.shape[0]} rows x {got.shape[1]} columns, "
          f"{int(np.sum(nan_ref))} NaN, max abs error {max_abs:.3g}, "
          f"max rel error {max_rel:.3g} (tolerance {rtol:g}): {verdict}")
    if verdict != "OK":
        where = np.unravel_index(np.argmax(rel), rel.shape)
        print(f"  worst at {tuple(int(i) for i in where)}: got "
              f"{got64[where]!r}, expected {ref[where]!r}")
    return verdict == "OK"


def cmd_softmax(args):
    x, y = load(args.input, args.bf16), load(args.output, args.bf16)
    if x.ndim != 2 or y.ndim != 2 or x.shape[0] != y.shape[0]:
        sys.exit(f"softmax: shapes {x.shape} and {y.shape} do not match")
    cols = args.cols if args.cols is not None else x.shape[1]
    ref = softmax_reference(x[:, :cols])
    ok = compare("softmax", y[:, :cols], ref, args.rtol)
    if args.rest_zero and y.shape[1] > cols:
        rest = y[:, cols:]
        if np.any(rest != 0):
            print(f"softmax: {int(np.sum(rest != 0))} elements past column "
                  f"{cols} were written")
            ok = False
    return 0 if ok else 1


def cmd_vector_add(args):
    x, y, out = load(args.x), load(args.y), load(args.output)
    expected = (x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
    if out.shape != expected.shape:
        sys.exit(f"vector-add: shape {out.shape}, expected {expected.shape}")
    same = out.view(np.uint32) == expected.view(np.uint32)
    if not np.all(same):
        i = int(np.argmin(same))
        print(f"vector-add: {int(np.sum(~same))} of {out.size} elements "
              f"differ; first at {i}: got {out[i]!r}, expected {expected[i]!r}")
        return 1
    print(f"vector-add: {out.size} elements equal the correctly rounded "
          f"sums: OK")
    return 0


def format_value(value):
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    return str(value)


def cmd_print(args):
    array = load(args.file, args.bf16)
    names = {"float32": "f32", "float16": "f16", "int32": "i32",
             "int64": "i64", "bool": "i1", "uint16": "u16"}
    name = "bf16" if args.bf16 else names.get(array.dtype.name, array.dtype.name)
    shape = "x".join(str(d) for d in array.shape)
    print(f"{name}[{shape}]")
    rows = array.reshape(-1, array.shape[-1]) if array.ndim else [[array[()]]]
    for row in rows:
        print(" ".join(format_value(v) for v in row))
    return 0


def cmd_softmax_edge_cases(args):
    inf, nan = np.inf, np.nan
    rows = [
        [-inf] * 12,                                   # all -inf: NaN
        [0.5, inf, -1.0] + [0.0] * 9,                  # one +inf: NaN
        [1.0, 2.0, nan] + [3.0] * 9,                   # a NaN: NaN
        [1e30, -1e30, 1e30, 0.0] + [-3e38] * 8,        # huge values
        [7.0] * 12,                                    # all equal: 1/12
        [inf, -inf] + [1.0] * 10,                      # +inf and -inf
        [-1e30] * 6 + [-1e30 + 1e24] * 6,              # large negatives
        [float(i) / 3.0 - 2.0 for i in range(12)],     # ordinary values
    ]
    np.save(args.output, np.array(rows, dtype=np.float32))
    return 0

def cmd_matmul(args):
    # With --bf16 the <u2 files hold bf16 bits; C may have another type
    # (an f32 C of bf16 inputs: the example's C_DTYPE).
    raw = [load(path) for path in (args.a, args.b, args.c)]
    c_bf16 = args.bf16 and raw[2].dtype == np.uint16
    a_f32 = raw[0].dtype == np.float32
    if args.bf16 and raw[0].dtype != np.uint16:
        sys.exit(f"{args.a}: --bf16 needs a <u2 file, got {raw[0].dtype}")
    a, b, c = ((array.astype(np.uint32) << 16).view(np.float32)
               if args.bf16 and array.dtype == np.uint16 else array
               for array in raw)
    if args.a_transposed:
        a = a.T
    if args.b_transposed:
        b = b.T
    rest = None
    if args.cols is not None:
        rest, c = c[:, args.cols:], c[:, :args.cols]
    if a.ndim != 2 or b.ndim != 2 or c.ndim != 2 or a.shape[1] != b.shape[0] \
            or c.shape != (a.shape[0], b.shape[1]):
        sys.exit(f"matmul: A {a.shape} @ B {b.shape} does not give C "
                 f"{c.shape}")
    k = a.shape[1]
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref = a64 @ b64
    scale = np.abs(a64) @ np.abs(b64)
    if c_bf16:
        out_eps = 2.0**-8
    else:
        out_eps = {np.dtype(np.float16): 2.0**-11,
                   np.dtype(np.float32): 2.0**-24}.get(c.dtype)
        if out_eps is None:
            sys.exit(f"matmul: C holds {c.dtype}; expected f16, bf16 or f32")
    acc_eps = k * 2.0**-24
    if a_f32 and not args.ieee:
        acc_eps += 2.0**-10
    got = c.astype(np.float64)
    bound = out_eps * np.abs(ref) + acc_eps * scale
    bad = ~(np.abs(got - ref) <= bound)
    worst = np.abs(got - ref) / np.maximum(bound, np.finfo(np.float64).tiny)
    verdict = "FAIL" if np.any(bad) else "OK"
    print(f"matmul: {a.shape[0]} x {b.shape[1]} x {k}, max abs error "
          f"{float(np.max(np.abs(got - ref))) if got.size else 0.0:.3g}, "
          f"max error / bound {float(np.max(worst)) if got.size else 0.0:.3g}"
          f": {verdict}")
    if verdict != "OK":
        where = np.unravel_index(np.argmax(worst), worst.shape)
        print(f"  {int(np.sum(bad))} elements out of bounds; worst at "
              f"{tuple(int(i) for i in where)}: got {got[where]!r}, "
              f"expected {ref[where]!r} (bound {bound[where]:.3g})")
    if args.rest_zero and rest is not None and np.any(rest != 0):
        print(f"matmul: {int(np.sum(rest != 0))} elements past column "
              f"{args.cols} were written")
        return 1
    return 0 if verdict == "OK" else 1



# Training kernels: float64 references with PyTorch's semantics. Each takes
# numpy arrays (any float dtype; rows along axis 0, features along axis 1)
# and returns float64 arrays, as a tuple when there are several outputs.

def _f64(a):
    return np.asarray(a).astype(np.float64)


def rms_norm(x, w, eps=1e-5):
    """y = x * rstd * w, rstd = rsqrt(mean(x^2) + eps); returns (y, rstd)."""
    x, w = _f64(x), _f64(w)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        rstd = 1.0 / np.sqrt(np.mean(x * x, axis=1) + eps)
        return x * rstd[:, None] * w, rstd


def rms_norm_backward(dy, x, w, rstd=None, eps=1e-5):
    """Returns (dx, dw): xhat = x * rstd, g = dy * w,
    dx = rstd * (g - xhat * mean(g * xhat)), dw = sum over rows of dy * xhat.
    rstd as saved by the forward pass, else recomputed with eps."""
    dy, x, w = _f64(dy), _f64(x), _f64(w)
    if rstd is None:
        rstd = rms_norm(x, w, eps)[1]
    r = _f64(rstd)[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        xhat = x * r
        g = dy * w
        c = np.mean(g * xhat, axis=1, keepdims=True)
        return r * (g - xhat * c), np.sum(dy * xhat, axis=0)


def softmax_backward(y, dy):
    """dx = y * (dy - sum(y * dy)) per row, y = softmax(x)."""
    y, dy = _f64(y), _f64(dy)
    with np.errstate(invalid="ignore", over="ignore"):
        return y * (dy - np.sum(y * dy, axis=1, keepdims=True))


def layer_norm(x, w, b, eps=1e-5):
    """y = (x - mean) * rstd * w + b, rstd = 1 / sqrt(var + eps) with the
    biased variance; returns (y, mean, rstd)."""
    x, w, b = _f64(x), _f64(w), _f64(b)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        mean = np.mean(x, axis=1)
        xc = x - mean[:, None]
        rstd = 1.0 / np.sqrt(np.mean(xc * xc, axis=1) + eps)
        return xc * rstd[:, None] * w + b, mean, rstd


def layer_norm_backward(dy, x, w, mean=None, rstd=None, eps=1e-5):
    """Returns (dx, dw, db): xhat = (x - mean) * rstd, g = dy * w,
    dx = rstd * (g - mean(g) - xhat * mean(g * xhat)),
    dw = sum over rows of dy * xhat, db = sum over rows of dy. mean and
    rstd as saved by the forward pass, else recomputed with eps."""
    dy, x, w = _f64(dy), _f64(x), _f64(w)
    if mean is None or rstd is None:
        _, m, r = layer_norm(x, w, np.zeros_like(w), eps)
        mean = m if mean is None else mean
        rstd = r if rstd is None else rstd
    m, r = _f64(mean)[:, None], _f64(rstd)[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        xhat = (x - m) * r
        g = dy * w
        c1 = np.mean(g * xhat, axis=1, keepdims=True)
        c2 = np.mean(g, axis=1, keepdims=True)
        return (r * (g - c2 - xhat * c1), np.sum(dy * xhat, axis=0),
                np.sum(dy, axis=0))


def logsumexp(x):
    """log(sum(exp(x))) per row, as max + log(sum(exp(x - max))): NaN where
    the max is infinite or NaN, as torch's log_softmax gives."""
    x = _f64(x)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        m = np.max(x, axis=1)
        return m + np.log(np.sum(np.exp(x - m[:, None]), axis=1))


def _targets(target, n_cols, ignore_index):
    t = np.asarray(target).astype(np.int64)
    ignored = t == ignore_index
    valid = (t >= 0) & (t < n_cols) & ~ignored
    return np.where(valid, t, 0), ignored, valid


def cross_entropy(x, target, ignore_index=-100, label_smoothing=0.0):
    """Per-row loss of torch.nn.functional.cross_entropy(x, target,
    reduction='none', ignore_index=..., label_smoothing=s):
    (1 - s) * (lse - x[t]) + s * (lse - mean(x)); 0 where the target is
    ignore_index, NaN where it is out of [0, V). Returns (loss, lse)."""
    x = _f64(x)
    s = float(label_smoothing)
    lse = logsumexp(x)
    t, ignored, valid = _targets(target, x.shape[1], ignore_index)
    with np.errstate(invalid="ignore", over="ignore"):
        logp_t = x[np.arange(x.shape[0]), t] - lse
        loss = -logp_t
        if s != 0.0:
            loss = (1.0 - s) * loss + s * -np.mean(x - lse[:, None], axis=1)
    loss = np.where(valid, loss, np.nan)
    return np.where(ignored, 0.0, loss), lse


def cross_entropy_backward(dloss, x, target, lse=None, ignore_index=-100,
                           label_smoothing=0.0):
    """dx = (softmax(x) - (1 - s) * onehot(t) - s / V) * dloss[row]; 0 on
    rows whose target is ignore_index, NaN on rows whose target is out of
    [0, V). softmax(x) = exp(x - lse) with lse as saved by the forward
    pass, else recomputed."""
    x = _f64(x)
    s = float(label_smoothing)
    n_rows, n_cols = x.shape
    if lse is None:
        lse = logsumexp(x)
    t, ignored, valid = _targets(target, n_cols, ignore_index)
    with np.errstate(invalid="ignore", over="ignore"):
        grad = np.exp(x - _f64(lse)[:, None]) - s / n_cols
        grad[np.arange(n_rows), t] -= np.where(valid, 1.0 - s, 0.0)
        grad *= np.where(valid, _f64(dloss), np.nan)[:, None]
    return np.where(ignored[:, None], 0.0, grad)


# What `check` knows of each kernel: its inputs (required, optional) by
# parameter name, its outputs in the order the reference function returns
# them, and the reference.
CHECKED = {
    "rms_norm": (["x", "w"], [], ["y", "rstd"],
                 lambda a, o: rms_norm(a["x"], a["w"], o.eps)),
    "rms_norm_backward": (
        ["dy", "x", "w"], ["rstd"], ["dx", "dw_partial"],
        lambda a, o: rms_norm_backward(a["dy"], a["x"], a["w"],
                                       a.get("rstd"), o.eps)),
    "softmax_backward": (["y", "dy"], [], ["dx"],
                         lambda a, o: (softmax_backward(a["y"], a["dy"]),)),
    "layer_norm": (["x", "w", "b"], [], ["y", "mean", "rstd"],
                   lambda a, o: layer_norm(a["x"], a["w"], a["b"], o.eps)),
    "layer_norm_backward": (
        ["dy", "x", "w"], ["mean", "rstd"], ["dx", "dw_partial", "db_partial"],
        lambda a, o: layer_norm_backward(a["dy"], a["x"], a["w"],
                                         a.get("mean"), a.get("rstd"),
                                         o.eps)),
    "cross_entropy": (
        ["x", "target"], [], ["loss", "lse"],
        lambda a, o: cross_entropy(a["x"], a["target"], o.ignore_index,
                                   o.label_smoothing)),
    "cross_entropy_backward": (
        ["dloss", "x", "target"], ["lse"], ["dx"],
        lambda a, o: (cross_entropy_backward(
            a["dloss"], a["x"], a["target"], a.get("lse"), o.ignore_index,
            o.label_smoothing),)),
}

DEFAULT_RTOL = {"float32": 1e-5, "float16": 4e-3, "bf16": 3e-2}


def compare_scaled(name, got, ref, scale, rtol, shape_text):
    """|got - ref| / scale (scale broadcast to ref's shape) must stay within
    rtol; NaN positions must match and infinities be equal."""
    got64 = got.astype(np.float64)
    nan_got, nan_ref = np.isnan(got64), np.isnan(ref)
    if not np.array_equal(nan_got, nan_ref):
        where = tuple(int(i) for i in np.argwhere(nan_got != nan_ref)[0])
        print(f"{name}: {shape_text}, NaN mismatch at {where}: got "
              f"{got64[where]!r}, expected {ref[where]!r}: FAIL")
        return False
    ok = ~nan_ref
    inf_ref = np.isinf(ref) & ok
    if not np.array_equal(got64[np.isinf(got64) | inf_ref],
                          ref[np.isinf(got64) | inf_ref]):
        print(f"{name}: {shape_text}, infinities differ: FAIL")
        return False
    finite = ok & ~inf_ref
    scale = np.broadcast_to(scale, ref.shape)
    scale = np.maximum(np.where(np.isfinite(scale), scale, 0.0),
                       SMALLEST_NORMAL_F32)
    with np.errstate(invalid="ignore"):
        err = np.where(finite, np.abs(got64 - ref), 0.0) / scale
    max_err = float(np.max(err)) if err.size else 0.0
    verdict = "OK" if max_err <= rtol else "FAIL"
    print(f"{name}: {shape_text}, {int(np.sum(nan_ref))} NaN, max error "
          f"{max_err:.3g} (tolerance {rtol:g}): {verdict}")
    if verdict != "OK":
        where = np.unravel_index(np.argmax(err), err.shape)
        print(f"  worst at {tuple(int(i) for i in where)}: got "
              f"{got64[where]!r}, expected {ref[where]!r} (scale "
              f"{float(scale[where]):.3g})")
    return verdict == "OK"


def _row_max(ref):
    """The largest finite |ref| of each row (of the whole vector for 1-D)."""
    mag = np.where(np.isfinite(ref), np.abs(ref), 0.0)
    if ref.ndim == 1:
        return np.max(mag, initial=0.0)
    return np.max(mag, axis=1, keepdims=True, initial=0.0)


def cmd_check(args):
    inputs, optional, outputs, reference = CHECKED[args.kernel]
    files, dtypes = {}, {}
    for item in args.files:
        name, sep, path = item.partition("=")
        if not sep or not path:
            sys.exit(f"check: '{item}' is not NAME=FILE")
        if name not in inputs + optional + outputs:
            sys.exit(f"check {args.kernel}: unknown name '{name}'; expected "
                     f"one of {', '.join(inputs + optional + outputs)}")
        array = load(path)
        dtypes[name] = "bf16" if array.dtype == np.uint16 else array.dtype.name
        files[name] = load(path, bf16=array.dtype == np.uint16)
    missing = [n for n in inputs if n not in files]
    if missing:
        sys.exit(f"check {args.kernel}: missing input {', '.join(missing)}")
    if not any(n in files for n in outputs):
        sys.exit(f"check {args.kernel}: no output given; expected one of "
                 f"{', '.join(outputs)}")
    rest = {}
    if args.cols is not None:
        for name, array in files.items():
            if array.ndim == 2 and array.shape[1] > args.cols:
                rest[name] = array[:, args.cols:]
                files[name] = array[:, :args.cols]
            elif name in ("w", "b") and array.ndim == 1:
                files[name] = array[:args.cols]
    refs = dict(zip(outputs, reference(
        {n: a for n, a in files.items() if n not in outputs}, args)))
    ok = True
    for name in outputs:
        if name not in files:
            continue
        got, ref = files[name], refs[name]
        rtol = args.rtol if args.rtol is not None else \
            DEFAULT_RTOL.get(dtypes[name], 1e-5)
        label = f"{args.kernel} {name}"
        if name.endswith("_partial"):
            # One row per program: their column sums are dw (or db).
            if got.ndim != 2 or got.shape[1] != ref.shape[0]:
                sys.exit(f"{label}: shape {got.shape}, expected [programs, "
                         f"{ref.shape[0]}]")
            text = (f"{ref.shape[0]} columns (sums of {got.shape[0]} "
                    f"partial rows)")
            got = np.sum(got.astype(np.float64), axis=0)
            ok &= compare_scaled(label, got, ref, _row_max(ref), rtol, text)
            continue
        if got.shape != ref.shape:
            sys.exit(f"{label}: shape {got.shape}, expected {ref.shape}")
        if ref.ndim == 2:
            text = f"{ref.shape[0]} rows x {ref.shape[1]} columns"
            scale = _row_max(ref)
        else:
            text = f"{ref.shape[0]} rows"
            scale = np.abs(ref)
            if name == "mean":
                x = files["x"].astype(np.float64)
                scale = np.maximum(scale, np.sqrt(np.mean(x * x, axis=1)))
            elif name == "loss":
                lse = logsumexp(files["x"])
                scale = np.maximum(scale, np.abs(lse))
        ok &= compare_scaled(label, got, ref, scale, rtol, text)
        if args.rest_zero and name in rest and np.any(rest[name] != 0):
            print(f"{label}: {int(np.sum(rest[name] != 0))} elements past "
                  f"column {args.cols} were written: FAIL")
            ok = False
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("softmax")
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--cols", type=int)
    p.add_argument("--rest-zero", action="store_true")
    p.add_argument("--rtol", type=float, default=1e-5)
    p.add_argument("--bf16", action="store_true",
                   help="read both files' <u2 elements as bf16 bits")
    p.set_defaults(run=cmd_softmax)
    p = sub.add_parser("vector-add")
    p.add_argument("x")
    p.add_argument("y")
    p.add_argument("output")
    p.set_defaults(run=cmd_vector_add)
    p = sub.add_parser("print")
    p.add_argument("file")
    p.add_argument("--bf16", action="store_true")
    p.set_defaults(run=cmd_print)
    p = sub.add_parser("matmul")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("c")
    p.add_argument("--a-transposed", action="store_true")
    p.add_argument("--b-transposed", action="store_true")
    p.add_argument("--cols", type=int)
    p.add_argument("--rest-zero", action="store_true")
    p.add_argument("--ieee", action="store_true",
                   help="f32 inputs were multiplied in full f32, not TF32")
    p.add_argument("--bf16", action="store_true",
                   help="read the files' <u2 elements as bf16 bits")
    p.set_defaults(run=cmd_matmul)
    p = sub.add_parser("softmax-edge-cases")
    p.add_argument("output")
    p.set_defaults(run=cmd_softmax_edge_cases)
    p = sub.add_parser("check")
    p.add_argument("kernel", choices=sorted(CHECKED))
    p.add_argument("files", nargs="+", metavar="NAME=FILE")
    p.add_argument("--eps", type=float, default=1e-5)
    p.add_argument("--ignore-index", type=int, default=-100)
    p.add_argument("--label-smoothing", type=float, default=0.0)
    p.add_argument("--rtol", type=float,
                   help="default: 1e-5 for f32, 4e-3 for f16, 3e-2 for bf16")
    p.add_argument("--cols", type=int)
    p.add_argument("--rest-zero", action="store_true")
    p.set_defaults(run=cmd_check)
    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
