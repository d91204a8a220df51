"""Checks an 8-bit-float matmul's bf16 C against float64 (float8.test).

    check_f8_matmul_bf16.py UTILS A.npy B.npy C.npy

A (M x K) and B (N x K, column-major B) hold f8E4M3FN bytes, C (M x N) bf16
bits. Each element of C must be within 2^-8 |ref| (bf16's rounding: half an
ulp is at most that) plus 2^-11 of the sum of the products' magnitudes
(twice what the tensor cores' fast accumulation of 8-bit products may lose,
float8.test's 2^-12, since the rounding applies to the sum as accumulated)
of ref = A @ B^T in float64. Exits 1 on a miss, naming the worst element.
"""

import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
import float8  # noqa: E402  (utils/float8.py)

a, b = (float8.decode(np.load(path), "e4m3") for path in sys.argv[2:4])
bits = np.load(sys.argv[4])
if bits.dtype != np.uint16:
    sys.exit(f"{sys.argv[4]}: expected bf16 bits (<u2), got {bits.dtype}")
c = (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
ref = a @ b.T
bound = 2.0**-8 * np.abs(ref) + 2.0**-11 * (np.abs(a) @ np.abs(b).T)
err = np.abs(c - ref) / np.maximum(bound, np.finfo(np.float64).tiny)
worst = np.unravel_index(np.argmax(err), err.shape)
print(f"f8 matmul, bf16 C: worst {err.max():.2f} of the bound at "
      f"{tuple(int(i) for i in worst)}: {c[worst]!r} against {ref[worst]!r}")
sys.exit(0 if err.max() <= 1 else 1)
