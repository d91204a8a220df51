#!/usr/bin/env python3
"""The 8-bit floats f8E4M3FN and f8E5M2, for tests: an independent reference
of what tile stores (their bits, as <u1/|u1 .npy files) written from the
formats' definitions in float64 NumPy, not from the compiler's code.

  decode(bits, fmt)    float64 values of uint8 bits ("e4m3" or "e5m2")
  encode(values, fmt)  the bits of float64 values rounded to nearest, ties to
                       even, saturating to the largest finite value (+-448,
                       +-57344; infinities included) as tile.cast and PTX's
                       cvt.rn.satfinite do; NaN to a NaN
  half_ulp(values, fmt)  half the spacing of the format at each value's
                       magnitude (the most a correct rounding moves it)

As a command: python3 utils/float8.py check-scale X.npy Y.npy XFMT YFMT S
checks y = encode(decode(x) * S) element by element (the product in f32).
"""

import sys

import numpy as np

FORMATS = {"e4m3": (4, 3, 7), "e5m2": (5, 2, 15)}


def decode(bits, fmt):
    e_bits, m_bits, bias = FORMATS[fmt]
    bits = np.asarray(bits, dtype=np.uint8).astype(np.int64)
    sign = np.where(bits & 0x80, -1.0, 1.0)
    e = (bits >> m_bits) & ((1 << e_bits) - 1)
    m = (bits & ((1 << m_bits) - 1)).astype(np.float64)
    value = np.where(e == 0, m / 2 ** m_bits * 2.0 ** (1 - bias),
                     (1 + m / 2 ** m_bits) * 2.0 ** (e - bias))
    value = sign * value
    top = (1 << e_bits) - 1
    if fmt == "e4m3":  # no infinities; S.1111.111 is NaN
        return np.where((e == top) & (m == (1 << m_bits) - 1), np.nan, value)
    value = np.where((e == top) & (m == 0), sign * np.inf, value)
    return np.where((e == top) & (m != 0), np.nan, value)


def _finite_table(fmt):
    table = decode(np.arange(256), fmt)
    keep = np.isfinite(table)
    return np.arange(256)[keep], table[keep]


def encode(values, fmt):
    codes, table = _finite_table(fmt)
    largest = table.max()
    values = np.asarray(values, dtype=np.float64)
    out = np.zeros(values.shape, dtype=np.uint8)
    for index, v in np.ndenumerate(values):
        if np.isnan(v):
            out[index] = 0x7F
            continue
        negative = np.signbit(v)
        v = min(abs(v), largest)
        distance = np.abs(table - v)
        nearest = [c for c in codes[distance == distance.min()] if c < 0x80]
        # A tie goes to the even code (its last mantissa bit 0).
        even = [c for c in nearest if c % 2 == 0]
        code = (even or nearest)[0]
        out[index] = code | (0x80 if negative else 0)
    return out


def half_ulp(values, fmt):
    e_bits, m_bits, bias = FORMATS[fmt]
    magnitude = np.abs(np.asarray(values, dtype=np.float64))
    exponent = np.floor(np.log2(np.maximum(magnitude, 2.0 ** (1 - bias))))
    return 2.0 ** (exponent - m_bits) / 2


def check_scale(x_path, y_path, x_fmt, y_fmt, scale):
    x, y = np.load(x_path), np.load(y_path)
    product = (decode(x, x_fmt).astype(np.float32) * np.float32(scale))
    expected = encode(product.astype(np.float64), y_fmt)
    got_nan, expected_nan = np.isnan(decode(y, y_fmt)), np.isnan(product)
    wrong = np.flatnonzero(((y != expected) & ~expected_nan) |
                           (got_nan != expected_nan))
    if wrong.size:
        i = wrong[0]
        sys.exit("check-scale: %d of %d wrong; first at %d: x %r (%g) * %g "
                 "gave %#04x, expected %#04x" % (
                     wrong.size, y.size, i, int(x.flat[i]),
                     decode(x.flat[i], x_fmt), scale, int(y.flat[i]),
                     int(expected.flat[i])))
    print("check-scale: %d elements OK" % y.size)


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "check-scale":
        check_scale(*sys.argv[2:6], float(sys.argv[6]))
    else:
        sys.exit(__doc__)
