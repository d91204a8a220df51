"""tile.ops on NumPy arrays (the CPU interpreter), against the float64
references of utils/reference.py, and its argument errors.

    TILE_LIBRARY=build/lib/libtile-c.so PYTHONPATH=python python3 -m pytest python/tests/test_ops_cpu.py
"""

import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "utils"))
sys.path.insert(0, os.path.join(HERE, ".."))
import reference  # noqa: E402  utils/reference.py
import tile  # noqa: E402
import tile.ops as ops  # noqa: E402


def close(got, ref, tol=2e-5):
    got = np.asarray(got, dtype=np.float64).reshape(-1, np.shape(ref)[-1] if np.ndim(ref) else 1)
    ref = np.asarray(ref, dtype=np.float64).reshape(got.shape)
    scale = np.maximum(np.abs(ref).max(axis=1, keepdims=True), 1e-30)
    error = float((np.abs(got - ref) / scale).max())
    assert error <= tol, "max error %g" % error


SHAPES = [(1, 1), (37, 300), (5, 3, 100), (4, 2000),
          # Longer than one program holds (32768): the cluster variants.
          (3, 40000)]


@pytest.fixture
def rng():
    return np.random.default_rng(7)


@pytest.mark.parametrize("shape", SHAPES)
def test_softmax(shape, rng):
    x = rng.standard_normal(shape).astype(np.float32)
    y = ops.softmax(x)
    assert y.shape == x.shape and y.dtype == np.float32
    close(y, reference.softmax_reference(x.reshape(-1, shape[-1])))


@pytest.mark.parametrize("splits", [3, 7])
def test_softmax_split(splits, rng, monkeypatch):
    # The split path for few rows longer than a cluster holds (on the GPU:
    # more than 2^19 columns), made to run here on rows of 5000 in 3 or 7
    # parts: cross_entropy_partial's logsumexp partials, then
    # softmax_normalize on the same grid. With 7 parts of a row of 2
    # chunks, 5 parts see nothing. Row 4's first chunk is all -inf, row 6
    # is 3e5 off zero, row 8 all -inf (NaN, as torch.softmax), and the rows
    # are 5100 apart in memory.
    monkeypatch.setattr(ops, "_CPU_SPLITS", splits)
    monkeypatch.setattr(ops, "_SOFTMAX_SPLIT_ABOVE_COLUMNS", 1000)
    wide = (3 * rng.standard_normal((11, 5100))).astype(np.float32)
    x = wide[:, :5000]
    x[4, :4096] = -np.inf
    x[6] += 3e5
    x[8] = -np.inf
    y = ops.softmax(x)
    ref = reference.softmax_reference(x)
    assert np.array_equal(np.isnan(y), np.isnan(ref))
    assert np.isnan(y[8]).all()
    keep = [i for i in range(11) if i != 8]
    close(y[keep], ref[keep])


@pytest.mark.parametrize("shape", SHAPES)
def test_rms_norm(shape, rng):
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal(shape[-1]).astype(np.float32)
    close(ops.rms_norm(x, w, eps=1e-6),
          reference.rms_norm(x.reshape(-1, shape[-1]), w, eps=1e-6)[0])


@pytest.mark.parametrize("shape", SHAPES)
def test_layer_norm(shape, rng):
    x = (rng.standard_normal(shape) + 3).astype(np.float32)
    w = rng.standard_normal(shape[-1]).astype(np.float32)
    b = rng.standard_normal(shape[-1]).astype(np.float32)
    close(ops.layer_norm(x, w, b),
          reference.layer_norm(x.reshape(-1, shape[-1]), w, b, eps=1e-5)[0],
          1e-4)


@pytest.mark.parametrize("shape", [(37, 300), (3, 40000)])
def test_backward_kernels(shape, rng):
    m, n = shape
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    _, rstd = ops._rms_norm_forward(x, w, 1e-6)
    dx, dw = ops._rms_norm_backward(dy, x, w, rstd)
    rdx, rdw = reference.rms_norm_backward(dy, x, w, eps=1e-6)
    close(dx, rdx, 1e-4)
    close(dw.reshape(1, -1), rdw.reshape(1, -1), 1e-4)
    y = ops.softmax(x)
    close(ops._softmax_backward(y, dy), reference.softmax_backward(y, dy), 1e-4)
    _, mean, rstd = ops._layer_norm_forward(x, w, b, 1e-5)
    dx, dw, db = ops._layer_norm_backward(dy, x, w, mean, rstd)
    rdx, rdw, rdb = reference.layer_norm_backward(dy, x, w, eps=1e-5)
    close(dx, rdx, 1e-4)
    close(dw.reshape(1, -1), rdw.reshape(1, -1), 1e-4)
    close(db.reshape(1, -1), rdb.reshape(1, -1), 1e-4)


def test_rows_beyond_32_bit_offsets():
    # Rows reaching 2^31 elements past their start (here a view that claims
    # rows 2^30 apart over a small buffer, never read) are refused with the
    # argument's name: the kernels' offsets are 32-bit.
    base = np.zeros(64, np.float32)
    x = np.lib.stride_tricks.as_strided(base, (3, 8), (4 << 30, 4))
    with pytest.raises(tile.ArgumentError, match=r"x is 3 rows of 8 .*2\^31"):
        ops.softmax(x)
    with pytest.raises(tile.ArgumentError, match=r"x is 3 rows of 8"):
        ops.rms_norm(x, np.ones(8, np.float32))
    with pytest.raises(tile.ArgumentError, match=r"logits is 3 rows of 8"):
        ops.cross_entropy(x, np.zeros(3, np.int64))


@pytest.mark.parametrize("splits", [1, 3, 7])
def test_row_split(splits, rng, monkeypatch):
    # The split path of softmax backward and RMSNorm for rows longer than
    # their cluster variants hold (on the GPU: more than 2^19 columns), made
    # to run here on rows of 5001 in 1, 3 or 7 parts (row_dot_partial's
    # partial sums, their sum per row, then softmax_backward_apply and
    # rms_norm_apply on the same grid; the backward norms' and LayerNorm's
    # below): rows 5100 apart in memory, row 2 all
    # zero (RMSNorm's rstd is then 1 / sqrt(eps)), row 5 3e3 off zero, row 9
    # with a NaN (propagating to the row's every element, as in PyTorch).
    monkeypatch.setattr(ops, "_CPU_SPLITS", splits)
    monkeypatch.setattr(ops, "_ROW_SPLIT_ABOVE_COLUMNS", 1000)
    wide = rng.standard_normal((11, 5100)).astype(np.float32)
    x = wide[:, :5001]
    x[2] = 0
    x[5] += 3e3
    x[9, 17] = np.nan
    w = rng.standard_normal(5001).astype(np.float32)
    y, rstd = ops._rms_norm_forward(x, w, 1e-6)
    ref, ref_rstd = reference.rms_norm(x, w, eps=1e-6)
    assert np.isnan(y[9]).all() and np.isnan(rstd[9])
    keep = [i for i in range(11) if i != 9]
    close(y[keep], ref[keep], 1e-5)
    close(rstd[keep].reshape(1, -1), np.asarray(ref_rstd)[keep].reshape(1, -1), 1e-5)
    assert rstd[2] == np.float32(1 / np.sqrt(np.float32(1e-6)))
    # RMSNorm backward: row_dot_weighted_partial, then
    # rms_norm_backward_apply over blocks of columns (dw whole per block).
    dy = rng.standard_normal((10, 5100)).astype(np.float32)[:, :5001]
    dx, dw = ops._rms_norm_backward(dy, x[keep], w, rstd[keep])
    rdx, rdw = reference.rms_norm_backward(dy, x[keep], w, eps=1e-6)
    close(dx, rdx, 1e-4)
    close(dw.reshape(1, -1), rdw.reshape(1, -1), 1e-4)
    # LayerNorm: layer_norm_partial's shifted sums (row 5, 3e3 off zero,
    # checks that its variance does not cancel), layer_norm_apply; its
    # backward pass: layer_norm_backward_partial, layer_norm_backward_apply.
    b = rng.standard_normal(5001).astype(np.float32)
    y, mean, rstd = ops._layer_norm_forward(x[keep], w, b, 1e-5)
    ref, ref_mean, ref_rstd = reference.layer_norm(x[keep], w, b, eps=1e-5)
    close(y, ref, 1e-4)
    close(np.reshape(rstd, (1, -1)), np.reshape(ref_rstd, (1, -1)), 1e-4)
    yn, _, _ = ops._layer_norm_forward(x, w, b, 1e-5)
    assert np.isnan(yn[9]).all()
    dx, dw, db = ops._layer_norm_backward(dy, x[keep], w, mean, rstd)
    rdx, rdw, rdb = reference.layer_norm_backward(dy, x[keep], w, eps=1e-5)
    close(dx, rdx, 1e-4)
    close(dw.reshape(1, -1), rdw.reshape(1, -1), 1e-4)
    close(db.reshape(1, -1), rdb.reshape(1, -1), 1e-4)
    s = rng.standard_normal((11, 5100)).astype(np.float32)[:, :5001]
    p = np.exp(s - s.max(1, keepdims=True))
    p = (p / p.sum(1, keepdims=True)).astype(np.float32)
    dy = rng.standard_normal((11, 5001)).astype(np.float32)
    dy[9, 4000] = np.nan
    dx = ops._softmax_backward(p, dy)
    ref_dx = reference.softmax_backward(p, dy)
    assert np.isnan(dx[9]).all()
    close(dx[keep], ref_dx[keep], 1e-4)


@pytest.mark.parametrize("smoothing", [0.0, 0.1])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy(smoothing, reduction, rng):
    x = (3 * rng.standard_normal((29, 5000))).astype(np.float32)
    t = rng.integers(0, 5000, 29)
    t[[2, 11]] = -100
    loss = ops.cross_entropy(x, t, reduction=reduction, label_smoothing=smoothing)
    ref = reference.cross_entropy(x, t, label_smoothing=smoothing)[0]
    if reduction == "none":
        close(np.reshape(loss, (1, -1)), ref.reshape(1, -1))
    elif reduction == "sum":
        assert abs(loss - ref.sum()) <= 1e-5 * abs(ref.sum())
    else:
        assert abs(loss - ref.sum() / 27) <= 1e-5 * abs(ref.sum() / 27)
    _, lse = ops._cross_entropy_forward(x, t, -100, smoothing)
    dloss = rng.standard_normal(29).astype(np.float32)
    close(ops._cross_entropy_backward(dloss, x, t, lse, -100, smoothing),
          reference.cross_entropy_backward(dloss, x, t, ignore_index=-100,
                                           label_smoothing=smoothing), 1e-4)


@pytest.mark.parametrize("splits", [1, 3, 7])
def test_cross_entropy_split(splits, rng, monkeypatch):
    # 1: the one-pass kernels (cross_entropy_rows.mlir holds these rows of
    # 5000 whole; a row partly -inf once gave it a NaN loss, -inf * 0).
    # 3 and 7: the split path (a partial kernel on a grid (rows, Q), the
    # combine, the backward on the same grid), as the GPU takes it for few
    # long rows;
    # with 7 parts of a row of 2 chunks, 5 parts see nothing. Row 4's first
    # chunk is all -inf (no smoothing: its mean would make the loss inf).
    monkeypatch.setattr(ops, "_CPU_SPLITS", splits)
    x = (3 * rng.standard_normal((13, 5000))).astype(np.float32)
    x[4, :4096] = -np.inf
    t = rng.integers(0, 5000, 13)
    t[2] = -100
    t[4] = 4500
    loss, lse = ops._cross_entropy_forward(x, t, -100, 0.0)
    ref_loss, ref_lse = reference.cross_entropy(x, t, label_smoothing=0.0)[:2]
    close(np.reshape(loss, (1, -1)), np.reshape(ref_loss, (1, -1)))
    close(np.reshape(lse, (1, -1)), np.reshape(ref_lse, (1, -1)))
    dloss = rng.standard_normal(13).astype(np.float32)
    close(ops._cross_entropy_backward(dloss, x, t, lse, -100, 0.0),
          reference.cross_entropy_backward(dloss, x, t, ignore_index=-100,
                                           label_smoothing=0.0), 1e-4)


@pytest.mark.parametrize("m,n,k,dtype", [(1, 1, 1, np.float32), (37, 45, 29, np.float32),
                                         (70, 130, 200, np.float16), (5, 7, 0, np.float32),
                                         (0, 5, 3, np.float16)])
def test_matmul(m, n, k, dtype, rng):
    # Against float64: f32 is multiplied in TF32 (10-bit mantissas) and f16
    # rounded once at the end, both accumulated in f32. K = 0 gives zeros,
    # M = 0 an empty C without a launch.
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    c = ops.matmul(a, b)
    assert c.shape == (m, n) and c.dtype == dtype
    if m and n:
        ref = a.astype(np.float64) @ b.astype(np.float64)
        if k == 0:
            assert not c.any()
        else:
            close(c, ref, tol=4e-3)


def test_matmul_strided(rng):
    # Transposed operands (views with unit strides across rows) and a
    # column slice: read in place, as the backward pass's A^T and B^T are;
    # a negative stride is copied first.
    a = rng.standard_normal((48, 33)).astype(np.float32)
    b = rng.standard_normal((50, 48)).astype(np.float32)
    close(ops.matmul(a.T, b.T), a.T.astype(np.float64) @ b.T.astype(np.float64), tol=4e-3)
    wide = rng.standard_normal((33, 80)).astype(np.float32)
    close(ops.matmul(a, wide[:, 5:45]), a.astype(np.float64) @ wide[:, 5:45], tol=4e-3)
    close(ops.matmul(a[::-1], wide[:, :7]), a[::-1].astype(np.float64) @ wide[:, :7], tol=4e-3)


def test_matmul_errors(rng):
    a = np.ones((4, 6), np.float32)
    with pytest.raises(tile.ArgumentError, match=r"a is 4 x 6 and b 5 x 3: a's columns must be b's rows"):
        ops.matmul(a, np.ones((5, 3), np.float32))
    with pytest.raises(tile.ArgumentError, match=r"b is float16, a float32: they must match"):
        ops.matmul(a, np.ones((6, 3), np.float16))
    with pytest.raises(tile.ArgumentError, match=r"a must be a matrix \(2 dimensions\), not of shape \(6,\)"):
        ops.matmul(np.ones(6, np.float32), a)
    with pytest.raises(tile.ArgumentError, match=r"b is float64: matmul takes float32"):
        ops.matmul(a, np.ones((6, 3)))
    with pytest.raises(tile.ArgumentError, match=r"a must be a torch tensor or a NumPy array, not list"):
        ops.matmul([[1.0]], a)
    # Offsets past 32 bits: C of 2^32 elements (the operands broadcast
    # views, nothing allocated), refused before anything runs.
    wide = np.broadcast_to(np.float32(1), (1 << 16, 2))
    with pytest.raises(tile.ArgumentError, match=r"C would be 65536 x 65536: more elements than"):
        ops.matmul(wide, wide.T)


def test_errors(rng):
    x = rng.standard_normal((4, 10)).astype(np.float32)
    with pytest.raises(tile.ArgumentError, match=r"weight must have shape \(10,\)"):
        ops.rms_norm(x, np.ones(9, np.float32))
    with pytest.raises(tile.ArgumentError, match=r"weight is float16, the input float32"):
        ops.rms_norm(x, np.ones(10, np.float16))
    with pytest.raises(tile.ArgumentError, match=r"bias must have shape"):
        ops.layer_norm(x, np.ones(10, np.float32), np.ones(3, np.float32))
    with pytest.raises(tile.ArgumentError, match=r"target\[1\] is 10, outside \[0, 10\)"):
        ops.cross_entropy(x, np.array([0, 10, 1, 2]))
    with pytest.raises(tile.ArgumentError, match=r"target must have shape \(4,\)"):
        ops.cross_entropy(x, np.array([0, 1]))
    with pytest.raises(tile.ArgumentError, match=r"target must be a NumPy array of integers"):
        ops.cross_entropy(x, np.zeros(4, np.float32))
    with pytest.raises(tile.ArgumentError, match=r"reduction must be"):
        ops.cross_entropy(x, np.zeros(4, np.int64), reduction="avg")
    with pytest.raises(tile.ArgumentError, match=r"must have at least one dimension"):
        ops.softmax(np.float32(1.0))
    with pytest.raises(tile.ArgumentError, match=r"torch tensor or a NumPy array"):
        ops.softmax([1.0, 2.0])
    with pytest.raises(tile.ArgumentError, match=r"x is float64: the kernels take float32"):
        ops.softmax(np.zeros((2, 3)))
    with pytest.raises(tile.ArgumentError, match=r"empty last dimension"):
        ops.rms_norm(np.zeros((2, 0), np.float32), np.zeros(0, np.float32))
