#!/usr/bin/env python3
"""Runs bench/matmul_bench.py's Triton matmul once (after a warm-up), for
Nsight Compute: ncu --kernel-name regex:kernel python3 bench/ncu_matmul_triton.py
DTYPE M N K BLOCK_M BLOCK_N BLOCK_K WARPS STAGES."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matmul_bench  # noqa: E402
import torch  # noqa: E402

dtype, m, n, k, bm, bn, bk, warps, stages = sys.argv[1:10]
m, n, k, bm, bn, bk, warps, stages = (int(v) for v in
                                      (m, n, k, bm, bn, bk, warps, stages))
types = {"f16": torch.float16, "bf16": torch.bfloat16}
a = torch.rand(m, k, device="cuda", dtype=types[dtype])
b = torch.rand(k, n, device="cuda", dtype=types[dtype])
c = torch.empty(m, n, device="cuda", dtype=types[dtype])
kernel = matmul_bench.triton_matmul()
grid = (-(-m // bm) * -(-n // bn),)
for _ in range(2):
    compiled = kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                 b.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm,
                 BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, num_warps=warps,
                 num_stages=stages)
torch.cuda.synchronize()
# With TRITON_PTX_OUT=FILE, the PTX Triton compiled, to read beside tile's.
if os.environ.get("TRITON_PTX_OUT"):
    with open(os.environ["TRITON_PTX_OUT"], "w") as f:
        f.write(compiled.asm["ptx"])
