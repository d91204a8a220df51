"""The element types of tile-smith's references (tile_smith_ref.py): each
type's unit in the last place, smallest normal and precision, the 8-bit
formats' largest values, the .npy dtypes tile-run reads and writes, and the
conversions between a buffer's .npy array, the reference's float64 values
(or Python ints) and a type's rounding.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float8  # noqa: E402  utils/float8.py: the 8-bit formats in float64

UNIT = {"f32": 2.0**-24, "f16": 2.0**-11, "bf16": 2.0**-8,
        "f8E4M3FN": 2.0**-4, "f8E5M2": 2.0**-3}
TINY = {"f32": 2.0**-126, "f16": 2.0**-14, "bf16": 2.0**-126,
        "f8E4M3FN": 2.0**-6, "f8E5M2": 2.0**-14}
PRECISION = {"f32": 24, "f16": 11, "bf16": 8, "f8E4M3FN": 4, "f8E5M2": 3}
# The 8-bit formats: utils/float8.py's names, and their largest finite
# values (a store saturates to them).
F8 = {"f8E4M3FN": "e4m3", "f8E5M2": "e5m2"}
F8_MAX = {"f8E4M3FN": 448.0, "f8E5M2": 57344.0}
U32 = 2.0**-24
NPY_DTYPES = {
    "f32": np.float32,
    "f16": np.float16,
    "bf16": np.uint16,
    "f8E4M3FN": np.uint8,
    "f8E5M2": np.uint8,
    "i32": np.int32,
    "i64": np.int64,
}
# Integers are exact: Python ints in object arrays, wrapped to their width
# after each operation (two's complement, as arith defines them). Their
# bounds are 0, or inf for lanes that came from an unchecked float.
WIDTH = {"i32": 32, "i64": 64}
INF = float("inf")


def bf16_bits(x):
    """float64 values rounded to bf16 (to nearest, ties to even): the bits."""
    with np.errstate(all="ignore"):
        f = np.ascontiguousarray(np.asarray(x, dtype=np.float64).astype(np.float32))
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f)
    rounded[nan] = ((bits[nan] >> 16) | 0x40).astype(np.uint16)
    return rounded


def from_bf16_bits(bits):
    bits = np.ascontiguousarray(np.asarray(bits, dtype=np.uint16))
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def round_to(x, t):
    """float64 values rounded to `t` as the kernel rounds: through f32."""
    with np.errstate(all="ignore"):
        f = np.asarray(x, dtype=np.float64).astype(np.float32)
        if t == "f32":
            return f.astype(np.float64)
        if t == "f16":
            return f.astype(np.float16).astype(np.float64)
    if t in F8:
        return float8.decode(float8.encode(f.astype(np.float64), F8[t]), F8[t])
    return from_bf16_bits(bf16_bits(f))


def to_values(array, t):
    """A buffer as tile-run reads and writes it (.npy) to the reference's
    values: float64, or Python ints for integers."""
    if t in WIDTH:
        return np.asarray(array).astype(np.int64).astype(object)
    if t == "bf16":
        return from_bf16_bits(array)
    if t in F8:
        return float8.decode(array, F8[t])
    return np.asarray(array).astype(np.float64)


def from_values(x, t):
    if t in WIDTH:
        return np.array([int(v) for v in np.asarray(x).reshape(-1)],
                        dtype=NPY_DTYPES[t])
    if t == "bf16":
        return bf16_bits(x)
    if t in F8:
        return float8.encode(np.asarray(x, dtype=np.float64), F8[t])
    with np.errstate(all="ignore"):
        return np.asarray(x, dtype=np.float64).astype(NPY_DTYPES[t])


def wrap(x, t):
    """Integers wrapped to the width of `t`, two's complement."""
    half = 1 << (WIDTH[t] - 1)
    return (x + half) % (2 * half) - half


def unsigned(x, t):
    return x % (1 << WIDTH[t])


def _int_to_float(v, t):
    """An integer rounded once to a float of `t`, to nearest even."""
    v = int(v)
    if v == 0:
        return 0.0
    a, bits = abs(v), PRECISION[t]
    length = a.bit_length()
    if length > bits:
        shift = length - bits
        q, rest, half = a >> shift, a & ((1 << shift) - 1), 1 << (shift - 1)
        if rest > half or (rest == half and q & 1):
            q += 1
        a = q << shift
    f = float(a)
    return -f if v < 0 else f
