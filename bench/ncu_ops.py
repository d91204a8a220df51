#!/usr/bin/env python3
"""Runs one tile.ops kernel a few times at one shape, for Nsight Compute to
profile its last launch (the earlier ones compile, load and warm up):

  ncu --kernel-name regex:KERNEL --launch-skip 4 --launch-count 1 \\
      --section SpeedOfLight --section Occupancy ... \\
      python3 bench/ncu_ops.py KERNEL DTYPE MxN

KERNEL: a case of bench/kernels_bench.py (softmax, rms_norm_backward,
layer_norm_backward, cross_entropy, ...).
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from bench.kernels_bench import DTYPES, cases  # noqa: E402

kernel, dtype, shape = sys.argv[1], sys.argv[2], sys.argv[3]
m, n = (int(v) for v in shape.split("x"))
_, _, fn = cases(kernel, m, n, DTYPES[dtype])
for _ in range(5):
    fn()
torch.cuda.synchronize()
