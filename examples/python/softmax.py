#!/usr/bin/env python3
"""Softmax of a PyTorch tensor with tile, beside torch.softmax.

    PYTHONPATH=python python3 examples/python/softmax.py            # the seeds' shapes
    PYTHONPATH=python python3 examples/python/softmax.py --dtype f16 --shape 4096x8192

`softmax(x)` runs tile's softmax kernels on a 2-D CUDA tensor, row by row,
on torch's current stream: examples/softmax.mlir (a row per program, in
registers) for rows that fit one tile, examples/online_softmax.mlir (rows of
any length, read twice) for longer ones. The two files are variants of one
launch: the tuning cache's choice runs where it has one (`--tune` fills it,
as `tile-run --tune` does), else the first whose defaults fit the launch.
The kernels compute in f32 and load and store f32, f16 or bf16 (their DTYPE
meta-parameter).

For each shape and element type the script checks the result against
torch.softmax and times both with tile.testing.bench (CUDA events around
each run, L2 flushed before it, the median of 100 runs), printing the
median and the bandwidth of the 2 x M x N elements read and written.
"""

import argparse
import os
import sys

import torch

import tile

EXAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL_FILES = [
    os.path.join(EXAMPLES, "softmax.mlir"),
    os.path.join(EXAMPLES, "online_softmax.mlir"),
]

_kernels = {}


def kernel(dtype):
    """The softmax kernels for tensors of `dtype`, loaded once."""
    loaded = _kernels.get(dtype)
    if loaded is None:
        loaded = _kernels[dtype] = tile.load(*KERNEL_FILES, DTYPE=dtype)
    return loaded


def softmax_into(y, x):
    """y = softmax(x) along the rows of 2-D CUDA tensors with contiguous rows."""
    n_rows, n_cols = x.shape
    # A persistent grid: as many programs as fit on the GPU at once, at most
    # one per row; each steps over the rows.
    kernel(x.dtype)["persistent:%d" % n_rows](
        y, x, x.stride(0), y.stride(0), n_rows, n_cols
    )
    return y


def softmax(x):
    """softmax(x) along the last dimension of a 2-D CUDA tensor."""
    if x.dim() != 2 or x.stride(1) != 1:
        raise ValueError("softmax takes a 2-D tensor with contiguous rows")
    return softmax_into(torch.empty_like(x), x)


# torch.softmax against tile: (rtol, atol) per element type, a few units in
# the last place (tile's exp is the GPU's ex2.approx).
TOLERANCES = {
    torch.float32: (1e-5, 1e-7),
    torch.float16: (2e-3, 1e-6),
    torch.bfloat16: (1.6e-2, 1e-6),
}
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
# Seed 001's sweep (M = 4096) and seed 004's (M = 1024).
SEED_SHAPES = [(4096, 1 << k) for k in range(8, 15)] + [
    (1024, 1 << k) for k in range(8, 18)
]


def check(x, y):
    rtol, atol = TOLERANCES[x.dtype]
    torch.testing.assert_close(y, torch.softmax(x, dim=1), rtol=rtol, atol=atol)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dtype", choices=["f32", "f16", "bf16", "all"], default="all")
    parser.add_argument(
        "--shape", action="append", help="MxN (default: the seeds' shapes)"
    )
    parser.add_argument("--no-bench", action="store_true", help="check only")
    parser.add_argument(
        "--tune", action="store_true", help="tune each shape first (tile's tuning cache)"
    )
    args = parser.parse_args()
    shapes = (
        [tuple(int(s) for s in shape.split("x")) for shape in args.shape]
        if args.shape
        else SEED_SHAPES
    )
    dtypes = list(DTYPES.values()) if args.dtype == "all" else [DTYPES[args.dtype]]
    torch.manual_seed(0)
    print(
        "%-9s %6s %7s  %-10s %-44s %10s %9s %10s %9s"
        % ("dtype", "M", "N", "check", "kernel", "tile ms", "GB/s", "torch ms", "GB/s")
    )
    failed = 0
    for dtype in dtypes:
        for m, n in shapes:
            x = torch.randn(m, n, device="cuda", dtype=dtype)
            y = torch.empty_like(x)
            k = kernel(dtype)
            if args.tune:
                k.tune("persistent:%d" % m, y, x, n, n, m, n)
            softmax_into(y, x)
            try:
                check(x, y)
                verdict = "ok"
            except AssertionError as error:
                verdict, failed = "MISMATCH", failed + 1
                print(error, file=sys.stderr)
            function = k.prepare(y, x, n, n, m, n)
            name = os.path.basename(KERNEL_FILES[function.variant])
            config = " ".join(
                "%s=%s" % (key, value) for key, value in function.meta.items() if key != "DTYPE"
            )
            line = "%-9s %6d %7d  %-10s %-44s" % (
                str(dtype).split(".")[-1],
                m,
                n,
                verdict,
                name + " " + config,
            )
            if not args.no_bench:
                nbytes = 2 * m * n * x.element_size()
                ours = tile.testing.bench(lambda: softmax_into(y, x))
                theirs = tile.testing.bench(lambda: torch.softmax(x, dim=1))
                line += " %10.4f %9.1f %10.4f %9.1f" % (
                    ours.median,
                    ours.gbps(nbytes),
                    theirs.median,
                    theirs.gbps(nbytes),
                )
            print(line, flush=True)
    if failed:
        print("%d shapes differ from torch.softmax" % failed, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
