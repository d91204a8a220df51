#!/usr/bin/env python3
"""An experiment for issue 25's rows of 2^20: the two-stage (split) paths of
tile.ops run over the rows in chunks of C rows, so that the second stage
re-reads rows the first has just read while they are still in L2 (50 MiB
on the H100), against the whole launch and a copy of the same bytes.

Runs on the GPU machine from the repository root (TILE_LIBRARY set,
PYTHONPATH=python):

  python3 bench/chunked_rows_bench.py [--shapes 64x1048576] [--dtypes f32,bf16]
      [--chunks 64,16,8,4,2,1] [--kernels softmax,...] > chunked.jsonl

Each case is timed as kernels_bench.py times it (CUDA graph replays, L2
flushed before each, the median); softmax runs tile.ops' own chunks
(ops._CHUNK_BYTES set to C rows), checked against float64 torch; the other
kernels are called on slices of C rows, their outputs the chunks' (not
copied into one tensor), so only the time is compared. The
backward norms' chunks each write a dw (and db) of their own, summed by
nobody: the bytes of a real chunked dw would add C-row partial rows.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import tile.ops as ops  # noqa: E402
from tile.testing import bench  # noqa: E402

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def chunked(fn, m, c, rows, others=()):
    """fn over row chunks of c rows: rows are tensors sliced along dim 0."""
    def run():
        for r0 in range(0, m, c):
            fn(*[t[r0:r0 + c] for t in rows], *others)
    return run


def case(kernel, m, n, dtype, c):
    e = torch.tensor([], dtype=dtype).element_size()
    torch.manual_seed(0)
    x = torch.randn(m, n, device="cuda", dtype=dtype)
    w = torch.randn(n, device="cuda", dtype=dtype)
    b = torch.randn(n, device="cuda", dtype=dtype)
    dy = torch.randn(m, n, device="cuda", dtype=dtype)
    if kernel == "softmax":
        # tile.ops' own chunks (ops._CHUNK_BYTES), checked against torch.
        ops._CHUNK_BYTES = c * n * e
        y = ops._softmax_forward(x)
        ref = torch.softmax(x.double(), -1)
        error = ((y.double() - ref).abs().max() / ref.abs().max()).item()
        return 2 * m * n * e, lambda: ops._softmax_forward(x), error
    if kernel == "softmax_backward":
        y = torch.softmax(x.float(), -1).to(dtype)
        return 3 * m * n * e, chunked(ops._softmax_backward, m, c, (y, dy)), None
    if kernel == "rms_norm":
        return 2 * m * n * e, chunked(
            lambda xs: ops._rms_norm_forward(xs, w, 1e-6), m, c, (x,)), None
    if kernel == "layer_norm":
        return 2 * m * n * e, chunked(
            lambda xs: ops._layer_norm_forward(xs, w, b, 1e-5), m, c, (x,)), None
    if kernel == "rms_norm_backward":
        rstd = torch.rsqrt(x.float().pow(2).mean(-1) + 1e-6)
        return 3 * m * n * e, chunked(
            lambda d, xs, r: ops._rms_norm_backward(d, xs, w, r), m, c, (dy, x, rstd)), None
    if kernel == "layer_norm_backward":
        mean = x.float().mean(-1)
        rstd = torch.rsqrt(x.float().var(-1, unbiased=False) + 1e-5)
        return 3 * m * n * e, chunked(
            lambda d, xs, mu, r: ops._layer_norm_backward(d, xs, w, mu, r), m, c,
            (dy, x, mean, rstd)), None
    raise ValueError(kernel)


def copy_case(nbytes):
    words = max(1, nbytes // 2 // 16)
    src = torch.empty(words, 4, device="cuda", dtype=torch.int32).random_()
    dst = torch.empty_like(src)
    return lambda: dst.copy_(src)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", default="64x1048576")
    p.add_argument("--dtypes", default="f32,bf16")
    p.add_argument("--chunks", default="64,16,8,4,2,1")
    p.add_argument("--kernels", default="softmax,softmax_backward,rms_norm,layer_norm,"
                   "rms_norm_backward,layer_norm_backward")
    args = p.parse_args()
    dev = torch.cuda.get_device_name()
    for shape in args.shapes.split(","):
        m, n = (int(v) for v in shape.split("x"))
        for dname in args.dtypes.split(","):
            dtype = DTYPES[dname]
            for kernel in args.kernels.split(","):
                copies = {}
                for c in (int(v) for v in args.chunks.split(",")):
                    if c > m:
                        continue
                    nbytes, fn, error = case(kernel, m, n, dtype, c)
                    if nbytes not in copies:
                        copies[nbytes] = bench(copy_case(nbytes), graph=True, reps=50).median
                    ms = bench(fn, graph=True, reps=50).median
                    print(json.dumps({
                        "kernel": kernel, "dtype": dname, "M": m, "N": n, "chunk_rows": c,
                        "device": dev, "bytes": nbytes, "tile_ms": ms,
                        "copy_ms": copies[nbytes], "of_copy": copies[nbytes] / ms,
                        "max_error": error}), flush=True)
                    torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
