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
      rounded; f32 inputs are taken as multiplied in TF32 (tile.dot's
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
    a, b, c = (load(path, args.bf16) for path in (args.a, args.b, args.c))
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
    if args.bf16:
        out_eps = 2.0**-8
    else:
        out_eps = {np.dtype(np.float16): 2.0**-11,
                   np.dtype(np.float32): 2.0**-24}.get(c.dtype)
        if out_eps is None:
            sys.exit(f"matmul: C holds {c.dtype}; expected f16, bf16 or f32")
    acc_eps = k * 2.0**-24
    if c.dtype == np.float32 and not args.bf16 and not args.ieee:
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
    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
