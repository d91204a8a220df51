#!/usr/bin/env python3
"""Where the backward norms' time goes: tile.ops' whole backward (the
kernel, then the partial rows of dw (and db) summed by sum_partials.mlir)
beside the same with the sums and casts by PyTorch (one of each per
buffer, as before sum_partials.mlir), the kernel alone, and a copy of the
bytes the backward must move, each timed as CUDA-graph replays with L2
flushed (tile.testing.bench(graph=True)), in one process.

Runs on the GPU machine, from the repository root, with TILE_LIBRARY and
PYTHONPATH=python:

  python3 bench/norm_backward_parts.py [--shapes 4096x4096,...]
                                       [--dtypes bf16,f32] > parts.jsonl

One JSON object per case: milliseconds of "whole", "torch_sums",
"kernel" and "copy", GB/s of each over the bytes the backward must move (as
bench/kernels_bench.py counts them), and the launch's choice.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import tile.ops as ops  # noqa: E402
from tile.testing import bench  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernels_bench import DTYPES, choices, copy_case  # noqa: E402


def inputs(kernel, m, n, dtype):
    """(bytes, the whole backward)."""
    e = torch.tensor([], dtype=dtype).element_size()
    x = torch.randn(m, n, device="cuda", dtype=dtype)
    w = torch.randn(n, device="cuda", dtype=dtype)
    dy = torch.randn(m, n, device="cuda", dtype=dtype)
    if kernel == "rms_norm_backward":
        rstd = torch.rsqrt(x.float().pow(2).mean(-1) + 1e-6)
        return (3 * m * n * e + 2 * n * e + 4 * m,
                lambda: ops._rms_norm_backward(dy, x, w, rstd))
    mean = x.float().mean(-1)
    rstd = torch.rsqrt(x.float().var(-1, unbiased=False) + 1e-5)
    return (3 * m * n * e + 3 * n * e + 8 * m,
            lambda: ops._layer_norm_backward(dy, x, w, mean, rstd))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="4096x4096,16384x4096,4096x8192,2048x16384,"
                        "32768x1024")
    parser.add_argument("--dtypes", default="bf16,f32")
    parser.add_argument("--kernels", default="rms_norm_backward,layer_norm_backward")
    args = parser.parse_args()
    sum_partials = ops._sum_partials

    def torch_sums(buffers, rows, like):
        return tuple(b[:rows].sum(0).to(like.dtype) for b in buffers)

    def timed(fn, replacement):
        ops._sum_partials = replacement
        try:
            return bench(fn, warmup=5, reps=50, graph=True).median
        finally:
            ops._sum_partials = sum_partials

    for kernel in args.kernels.split(","):
        for dtype_name in args.dtypes.split(","):
            dtype = DTYPES[dtype_name]
            for shape in args.shapes.split(","):
                m, n = (int(v) for v in shape.split("x"))
                nbytes, whole = inputs(kernel, m, n, dtype)
                record = {"kernel": kernel, "dtype": dtype_name, "M": m, "N": n,
                          "bytes": nbytes}
                record["whole"] = timed(whole, sum_partials)
                record["choice"] = choices()[-3:]
                record["torch_sums"] = timed(whole, torch_sums)
                record["kernel_ms"] = timed(whole, lambda buffers, rows, like: ())
                record["copy"] = bench(copy_case(nbytes), warmup=5, reps=50,
                                       graph=True).median
                for key in ("whole", "torch_sums", "kernel_ms", "copy"):
                    record[key.replace("_ms", "") + "_gbs"] = round(
                        nbytes / record[key] / 1e6, 1)
                print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
