#!/usr/bin/env python3
"""Matrix multiply of PyTorch tensors with tile, beside torch.matmul.

    PYTHONPATH=python python3 examples/python/matmul.py             # the sweep
    PYTHONPATH=python python3 examples/python/matmul.py --dtype f16 --shape 4096x4096x4096

`matmul(a, b)` runs examples/matmul.mlir (Triton's matmul tutorial: one
program per BLOCK_M x BLOCK_N tile of C, f32 accumulation on tensor cores)
on 2-D CUDA tensors of f16, bf16 or f32 (TF32, as torch.matmul with
allow_tf32) with any strides, on torch's current stream.

For each shape and element type the script checks tile's result, and
torch.matmul's, against a float64 product of the same inputs, element by
element, with the bound utils/reference.py's matmul states:

    |C - A @ B| <= out_eps * |A @ B| + acc_eps * (|A| @ |B|)

out_eps the output's rounding (2^-11 f16, 2^-8 bf16, 2^-24 f32), acc_eps =
K 2^-24 for the f32 accumulation, plus 2^-10 for TF32's rounding of f32
inputs. It then times both with tile.testing.bench (CUDA events, L2 flushed,
median of 20) and prints TFLOPS (2 M N K / median).
"""

import argparse
import os
import sys

import torch

import tile

EXAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL_FILE = os.path.join(EXAMPLES, "matmul.mlir")
# The block configuration: the best of bench/matmul_bench.py's on the H100
# (docs/performance.md); 144 KiB of shared memory in three stages (f32's
# elements are twice as wide: BLOCK_K = 32 keeps it to 144 KiB).
CONFIG = dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, NUM_WARPS=8,
              NUM_STAGES=3)
CONFIG_F32 = dict(CONFIG, BLOCK_K=32)
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
OUT_EPS = {torch.float16: 2.0**-11, torch.bfloat16: 2.0**-8,
           torch.float32: 2.0**-24}
# M x N x K from 512 to 8192, multiples of 128 and not.
SWEEP = [(512, 512, 512), (777, 1000, 1023), (1024, 1024, 1024),
         (2000, 3000, 1500), (3000, 5000, 2000), (4096, 4096, 4096),
         (4095, 4097, 4100), (5000, 6000, 7000), (8192, 8192, 8192),
         (8191, 640, 8000)]

_kernels = {}


def kernel(dtype):
    """The matmul kernel for tensors of `dtype`, loaded once."""
    loaded = _kernels.get(dtype)
    if loaded is None:
        config = CONFIG_F32 if dtype == torch.float32 else CONFIG
        loaded = _kernels[dtype] = tile.load(KERNEL_FILE, DTYPE=dtype, **config)
    return loaded


def matmul_into(c, a, b):
    """c = a @ b for 2-D CUDA tensors of one element type, any strides."""
    m, k = a.shape
    n = b.shape[1]
    grid = -(-m // CONFIG["BLOCK_M"]) * -(-n // CONFIG["BLOCK_N"])
    kernel(a.dtype)[grid](a, b, c, m, n, k, a.stride(0), a.stride(1),
                          b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    return c


def matmul(a, b):
    """a @ b for 2-D CUDA tensors of f16, bf16 or f32."""
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise ValueError("matmul takes an M x K and a K x N tensor")
    if a.dtype != b.dtype or a.dtype not in OUT_EPS:
        raise ValueError("matmul takes two tensors of f16, bf16 or f32")
    return matmul_into(a.new_empty(a.shape[0], b.shape[1]), a, b)


def worst(c, a, b):
    """The largest |C - A @ B| over its bound (at most 1 passes)."""
    a64, b64 = a.double(), b.double()
    ref = a64 @ b64
    scale = a64.abs() @ b64.abs()
    acc_eps = a.shape[1] * 2.0**-24
    if a.dtype == torch.float32:
        acc_eps += 2.0**-10
    bound = OUT_EPS[c.dtype] * ref.abs() + acc_eps * scale
    ratio = (c.double() - ref).abs() / bound.clamp_min(1e-300)
    return float(ratio.max())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dtype", choices=["f32", "f16", "bf16", "all"],
                        default="all")
    parser.add_argument("--shape", action="append",
                        help="MxNxK (default: the sweep)")
    parser.add_argument("--transpose", action="store_true",
                        help="column-major A and B (views of transposes)")
    parser.add_argument("--no-bench", action="store_true", help="check only")
    args = parser.parse_args()
    shapes = ([tuple(int(v) for v in s.split("x")) for s in args.shape]
              if args.shape else SWEEP)
    dtypes = (list(DTYPES.values()) if args.dtype == "all"
              else [DTYPES[args.dtype]])
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.manual_seed(0)
    print("%-9s %5s %5s %5s  %-8s %11s %11s %9s %9s %9s" % (
        "dtype", "M", "N", "K", "check", "tile/bound", "torch/bound",
        "tile TF", "torch TF", "ratio"))
    failed = 0
    for dtype in dtypes:
        for m, n, k in shapes:
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            if args.transpose:
                a = a.t().contiguous().t()
                b = b.t().contiguous().t()
            c = matmul(a, b)
            ours, theirs = worst(c, a, b), worst(torch.matmul(a, b), a, b)
            verdict = "ok" if ours <= 1 else "MISMATCH"
            failed += ours > 1
            line = "%-9s %5d %5d %5d  %-8s %11.3g %11.3g" % (
                str(dtype).split(".")[-1], m, n, k, verdict, ours, theirs)
            if not args.no_bench:
                flops = 2.0 * m * n * k
                tile_ms = tile.testing.bench(lambda: matmul_into(c, a, b),
                                             reps=20).median
                torch_ms = tile.testing.bench(lambda: torch.matmul(a, b),
                                              reps=20).median
                line += " %9.1f %9.1f %9.3f" % (
                    flops / tile_ms / 1e9, flops / torch_ms / 1e9,
                    torch_ms / tile_ms)
            print(line, flush=True)
    if failed:
        print("%d mismatches" % failed, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
