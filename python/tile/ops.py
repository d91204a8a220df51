"""tile.ops: a transformer's memory-bound kernels as operators.

    import tile.ops
    y = tile.ops.softmax(x)                          # the last dimension
    y = tile.ops.rms_norm(x, weight, eps=1e-6)
    y = tile.ops.layer_norm(x, weight, bias, eps=1e-5)
    loss = tile.ops.cross_entropy(logits, target, ignore_index=-100,
                                  reduction="mean", label_smoothing=0.0)
    c = tile.ops.matmul(a, b)                        # 2-D A [M, K] @ B [K, N]

torch.nn.functional's conventions: the operators take PyTorch tensors (CUDA
or CPU; f32, f16 or bf16, computed in f32) and return tensors of the
input's dtype; on PyTorch they are custom operators (torch.library, in the
`tile` namespace) with fake-tensor implementations and autograd formulas
that run the backward kernels, so torch.compile graphs hold them whole.
They also take NumPy arrays (f32 or f16), run on the CPU interpreter and
return NumPy arrays, without gradients.

The kernels are the repository's examples (examples/*.mlir, found beside
the package or under $TILE_KERNELS_DIR), loaded once per dtype; a launch
runs what the tuning cache, a tuning database or the cost model chooses
(docs/tuning.md). Each operator's math, the bytes it must move and its
figures: docs/kernels.md.

What each needs of its arguments (a tile.ArgumentError names the argument
otherwise): x has at least one dimension, its rows (the last dimension)
contiguous (a tensor whose last dimension is strided is copied first);
weight and bias are 1-D of the last dimension's length, of x's dtype, on
x's device; cross_entropy's target is an integer tensor of one element per
row. Targets outside [0, classes) other than ignore_index raise on the CPU;
on the GPU their rows' loss (and gradient) is NaN, and nothing is read out
of bounds.

Rows longer than one program holds run on a cluster variant (a row split
over up to 16 programs, up to 16 x 32768 elements: softmax, the norms and
their backward passes; cross-entropy holds rows of up to 16384 classes
whole (cross_entropy_rows.mlir) or loops over them in chunks, and
splits rows too few to fill the GPU over several programs each: a partial
kernel and a combine, each logit still read once). Longer rows: softmax,
its backward pass and the norms and their backward passes run in two
stages that read each row twice.
"""

import os

from ._arrays import is_torch as _is_torch
from ._arrays import numpy as _numpy
from ._arrays import empty as _empty
from ._arrays import f32 as _f32
from ._arrays import rows as _rows
from ._arrays import row_stride as _row_stride
from ._arrays import check_like as _check_like
from ._errors import ArgumentError
from ._kernel import load
from ._matmul import matmul_forward as _matmul_forward

_HERE = os.path.dirname(os.path.abspath(__file__))
# The weight gradients are summed in two stages: each program of a
# persistent grid sums its rows into a row of a [programs, N] f32 buffer,
# then the rows written are summed. The grid holds at most this many
# programs per SM: each one more adds 8N bytes to move (its row written,
# then read). On the H100, caps of 264, 528 and 1024 programs ran within 1%
# of one another at 4096 to 16384 rows (run 28c, CUDA-graph times: the
# grid's occupancy, not the cap, bounded them). _MAX_PARTIAL_ROWS, where
# set, caps the programs instead.
_PARTIAL_PROGRAMS_PER_SM = 2
_MAX_PARTIAL_ROWS = 0
# How the kernels' launches choose a configuration: tile.load's tuning=
# ("cache": a stored choice, else the shipped database's, else the cost
# model's; "auto": tune a launch with no stored choice first, as
# bench/kernels_bench.py --tune does).
_TUNING = "cache"


def _kernels_dir():
    path = os.environ.get("TILE_KERNELS_DIR") or os.path.join(
        os.path.dirname(os.path.dirname(_HERE)), "examples")
    if not os.path.isfile(os.path.join(path, "softmax.mlir")):
        raise FileNotFoundError(
            "tile.ops: no kernels at %s (set TILE_KERNELS_DIR to the "
            "repository's examples directory)" % path)
    return path


_loaded = {}


def _kernel(names, dtype):
    """The kernel files `names` (variants of one launch) for `dtype`, loaded
    once."""
    key = (names, str(dtype), _TUNING)
    kernel = _loaded.get(key)
    if kernel is None:
        directory = _kernels_dir()
        kernel = _loaded[key] = load(
            *[os.path.join(directory, name + ".mlir") for name in names],
            DTYPE=dtype, tuning=_TUNING)
    return kernel


# On the CPU interpreter, programs run one after the other: a few suffice,
# a multiple of every cluster size (the cluster variants need one).
_CPU_PROGRAMS = 16


def _on_gpu(x):
    return _is_torch(x) and x.is_cuda


def _programs(x, rows):
    """At most how many programs (on the GPU: clusters, for a cluster
    variant) a launch over `rows` rows of x runs: on the GPU,
    _PARTIAL_PROGRAMS_PER_SM per SM (or _MAX_PARTIAL_ROWS where a caller
    sets it)."""
    if not _on_gpu(x):
        return _CPU_PROGRAMS
    cap = _MAX_PARTIAL_ROWS
    if not cap:
        import torch
        sms = torch.cuda.get_device_properties(x.device).multi_processor_count
        cap = _PARTIAL_PROGRAMS_PER_SM * sms
    return max(1, min(rows, cap))


def _grid(x, rows):
    """A persistent grid on the GPU (as many programs as fit at once, at
    most `rows`); on the CPU a grid of _programs(x, rows)."""
    if _on_gpu(x):
        return "persistent:%d" % max(1, rows)
    return (_CPU_PROGRAMS,)


# The kernels, on arrays of rows.

_SOFTMAX = ("softmax_rows", "softmax", "online_softmax", "softmax_cluster")
# Rows longer than softmax_cluster.mlir's largest (16 blocks of 32768) are
# split as cross-entropy's are (_splits) where they are too few for the GPU;
# shorter ones read once through clusters, at 0.93-0.97 of the copy
# bandwidth (docs/tuning.md), which the split's 1.5 copies cannot reach.
_SOFTMAX_SPLIT_ABOVE_COLUMNS = 16 * 32768


def _softmax_forward(x):
    x2, shape = _rows(x, "x")
    m, n = x2.shape
    y = _empty(x2, (m, n))
    q = _splits(x2, m, n) if n > _SOFTMAX_SPLIT_ABOVE_COLUMNS else 1
    if q == 1:
        _kernel(_SOFTMAX, x2.dtype)[_grid(x2, m)](y, x2, _row_stride(x2), n, m, n)
        return y.reshape(shape)
    # Few rows longer than a cluster holds: the Q programs of each row first
    # write its logsumexp's partials (cross-entropy's first stage), then
    # normalize their chunks (softmax_normalize.mlir), reading each element
    # twice in all, where online_softmax.mlir would read each row twice on
    # one SM, half the SMs idle at 64 rows.
    parts = [_empty(x2, (m, q), _f32(x2)) for _ in range(3)]
    _kernel(("cross_entropy_partial",), x2.dtype)[(m, q)](
        *parts, x2, _row_stride(x2), m, n)
    _kernel(("softmax_normalize",), x2.dtype)[(m, q)](
        y, x2, parts[0], parts[1], _row_stride(x2), n, m, n, q)
    return y.reshape(shape)


# Rows longer than the cluster variants of softmax backward and RMSNorm
# hold (16 blocks of 32768) take two stages: row_dot_partial.mlir's partial
# sums of a row's products on a grid (rows, Q), their sum per row here, then
# the second stage (softmax_backward_apply.mlir, rms_norm_apply.mlir), which
# reads the row again. Tests lower it to reach the path on the interpreter.
_ROW_SPLIT_ABOVE_COLUMNS = 16 * 32768


def _row_dot_sums(a, b, m, n):
    """Per row, the sum of a * b over the row (f32), and Q: the programs
    that shared each row."""
    q = _splits(a, m, n)
    parts = _empty(a, (m, q), _f32(a))
    _kernel(("row_dot_partial",), a.dtype)[(m, q)](
        parts, a, b, _row_stride(a), _row_stride(b), m, n, q)
    return parts.sum(1), q


def _softmax_backward(y, dy):
    y2, shape = _rows(y, "y")
    dy2, _ = _rows(dy, "grad")
    m, n = y2.shape
    dx = _empty(y2, (m, n))
    if n > _ROW_SPLIT_ABOVE_COLUMNS:
        s, q = _row_dot_sums(y2, dy2, m, n)
        _kernel(("softmax_backward_apply",), y2.dtype)[(m, q)](
            dx, y2, dy2, s, _row_stride(y2), _row_stride(dy2), n, m, n)
        return dx.reshape(shape)
    _kernel(("softmax_backward", "softmax_backward_cluster"), y2.dtype)[_grid(y2, m)](
        dx, y2, dy2, _row_stride(y2), _row_stride(dy2), n, m, n)
    return dx.reshape(shape)


def _rms_norm_forward(x, weight, eps):
    x2, shape = _rows(x, "x")
    m, n = x2.shape
    weight = _check_like(x2, weight, "weight", n)
    y = _empty(x2, (m, n))
    if n > _ROW_SPLIT_ABOVE_COLUMNS:
        squares, q = _row_dot_sums(x2, x2, m, n)
        mean = squares / n + float(eps)
        if _is_torch(x2):
            rstd = mean.rsqrt()
        else:
            np = _numpy()
            rstd = (np.float32(1) / np.sqrt(mean)).astype(np.float32)
        _kernel(("rms_norm_apply",), x2.dtype)[(m, q)](
            y, x2, weight, rstd, _row_stride(x2), n, m, n)
        return y.reshape(shape), rstd
    rstd = _empty(x2, (m,), _f32(x2))
    _kernel(("rms_norm", "rms_norm_cluster"), x2.dtype)[_grid(x2, m)](
        y, rstd, x2, weight, _row_stride(x2), n, m, n, float(eps))
    return y.reshape(shape), rstd


def _sum_partials(buffers, rows, like):
    """The second stage of the weight gradients: the first `rows` rows of
    each partial buffer (buffers: [B, cap, N] f32, B <= 2) summed, in
    `like`'s dtype, into B tensors of their own (a custom operator's outputs
    may not alias), by sum_partials.mlir in one launch (B sums and casts by PyTorch took
    four launches for LayerNorm, longer than their bytes)."""
    count, cap, n = buffers.shape
    # Two outputs whatever B (with B = 1 the second is not written).
    outs = [_empty(like, (n,)) for _ in range(2)]
    _kernel(("sum_partials",), like.dtype)[_grid(like, count * -(-n // 32))](
        outs[0], outs[1], buffers, count, cap * n, rows, n)
    return tuple(outs[:count])


def _norm_backward(names, partials, dy, x, *saved):
    """A norm's backward kernels `names` on dy and x: dx, and `partials`
    weight gradients summed in two stages (a [programs, N] f32 buffer each,
    the kernel's arguments after dx, then their rows' sum). `saved`: the
    weight and the forward pass's statistics, as the kernels take them.

    Every program (every cluster, in the cluster variant) writes its row of
    the buffers, so on the GPU, once the launch's grid is known (the fast
    path's entry holds it, from the second call of a shape on), the buffers
    are left unzeroed and only the rows written are summed."""
    x2, shape = _rows(x, "x")
    dy2, _ = _rows(dy, "grad")
    m, n = x2.shape
    cap = _programs(x2, m)
    dx = _empty(x2, (m, n))
    kernel = _kernel(names, x2.dtype)
    grid = _grid(x2, cap)
    buffers = _empty(x2, (partials, cap, n), _f32(x2))
    args = (dx, *(buffers[i] for i in range(partials)), dy2, x2, *saved,
            _row_stride(x2), _row_stride(dy2), n, m, n)
    rows = _rows_written(kernel, grid, args) if _on_gpu(x2) else None
    if rows is None:
        buffers[...] = 0
        rows = cap
    kernel[grid](*args)
    return (dx.reshape(shape),) + _sum_partials(buffers, rows, x2)


def _rows_written(kernel, grid, args):
    """The rows of the partial buffers that a launch of `kernel` on `grid`
    writes (its programs, or its clusters), where the fast path has the
    launch prepared already; else None."""
    try:
        entry = kernel._fast_cache.get(kernel._key(grid, args))
    except Exception:
        return None
    if entry is None or entry.grid is None:
        return None
    return entry.grid[0] // max(1, entry.function.cluster_size)


def _rms_norm_backward(dy, x, weight, rstd):
    if x.shape[-1] > _ROW_SPLIT_ABOVE_COLUMNS:
        return _rms_norm_backward_split(dy, x, weight, rstd)
    return _norm_backward(("rms_norm_backward", "rms_norm_backward_cluster"),
                          1, dy, x, weight, rstd)


def _rms_norm_backward_split(dy, x, weight, rstd):
    """Rows beyond the cluster variant's: row_dot_weighted_partial.mlir's
    partial sums of dy * w * x give c = rstd * sum / N per row, then
    rms_norm_backward_apply.mlir walks every row of each block of columns
    (dx, and that block of dw whole)."""
    x2, shape = _rows(x, "x")
    dy2, _ = _rows(dy, "grad")
    m, n = x2.shape
    q = _splits(x2, m, n)
    parts = _empty(x2, (m, q), _f32(x2))
    _kernel(("row_dot_weighted_partial",), x2.dtype)[(m, q)](
        parts, dy2, x2, weight, _row_stride(dy2), _row_stride(x2), m, n, q)
    c = rstd * (parts.sum(1) / n)
    if not _is_torch(x2):
        c = c.astype(_numpy().float32)
    dx = _empty(x2, (m, n))
    dw = _empty(x2, (n,), _f32(x2))
    # Persistent: as many programs as fit, stepping over the blocks of
    # columns (at most one per 256 columns, the smallest block).
    _kernel(("rms_norm_backward_apply",), x2.dtype)[_grid(x2, -(-n // 256))](
        dx, dw, dy2, x2, weight, rstd, c, _row_stride(x2), _row_stride(dy2),
        n, m, n)
    dw = dw.to(x2.dtype) if _is_torch(x2) else dw.astype(x2.dtype)
    return dx.reshape(shape), dw


def _layer_norm_forward(x, weight, bias, eps):
    x2, shape = _rows(x, "x")
    m, n = x2.shape
    weight = _check_like(x2, weight, "weight", n)
    bias = _check_like(x2, bias, "bias", n)
    y = _empty(x2, (m, n))
    if n > _ROW_SPLIT_ABOVE_COLUMNS:
        # layer_norm_partial.mlir's sums of d = x - K and d^2, K = x[row, 0]
        # (shifted, so that the variance does not cancel), then
        # layer_norm_apply.mlir.
        q = _splits(x2, m, n)
        sum1, sum2 = (_empty(x2, (m, q), _f32(x2)) for _ in range(2))
        _kernel(("layer_norm_partial",), x2.dtype)[(m, q)](
            sum1, sum2, x2, _row_stride(x2), m, n, q)
        shift_mean = sum1.sum(1) / n
        var = sum2.sum(1) / n - shift_mean * shift_mean
        if _is_torch(x2):
            mean = x2[:, 0].float() + shift_mean
            rstd = (var.clamp_min(0) + float(eps)).rsqrt()
        else:
            np = _numpy()
            mean = (x2[:, 0].astype(np.float32) + shift_mean).astype(np.float32)
            rstd = (np.float32(1) / np.sqrt(np.maximum(var, 0) + np.float32(eps))
                    ).astype(np.float32)
        _kernel(("layer_norm_apply",), x2.dtype)[(m, q)](
            y, x2, weight, bias, mean, rstd, _row_stride(x2), n, m, n)
        return y.reshape(shape), mean, rstd
    mean = _empty(x2, (m,), _f32(x2))
    rstd = _empty(x2, (m,), _f32(x2))
    _kernel(("layer_norm", "layer_norm_cluster"), x2.dtype)[_grid(x2, m)](
        y, mean, rstd, x2, weight, bias, _row_stride(x2), n, m, n, float(eps))
    return y.reshape(shape), mean, rstd


def _layer_norm_backward(dy, x, weight, mean, rstd):
    if x.shape[-1] > _ROW_SPLIT_ABOVE_COLUMNS:
        return _layer_norm_backward_split(dy, x, weight, mean, rstd)
    return _norm_backward(("layer_norm_backward", "layer_norm_backward_cluster"),
                          2, dy, x, weight, mean, rstd)


def _layer_norm_backward_split(dy, x, weight, mean, rstd):
    """Rows beyond the cluster variant's: layer_norm_backward_partial.mlir's
    sums of g = dy * w and g * xhat give their means per row, then
    layer_norm_backward_apply.mlir walks every row of each block of columns
    (dx, and that block of dw and db whole)."""
    x2, shape = _rows(x, "x")
    dy2, _ = _rows(dy, "grad")
    m, n = x2.shape
    q = _splits(x2, m, n)
    sum_g, sum_gx = (_empty(x2, (m, q), _f32(x2)) for _ in range(2))
    _kernel(("layer_norm_backward_partial",), x2.dtype)[(m, q)](
        sum_g, sum_gx, dy2, x2, weight, mean, rstd, _row_stride(x2),
        _row_stride(dy2), m, n, q)
    c_g, c_gx = sum_g.sum(1) / n, sum_gx.sum(1) / n
    if not _is_torch(x2):
        c_g, c_gx = (c.astype(_numpy().float32) for c in (c_g, c_gx))
    dx = _empty(x2, (m, n))
    dw, db = (_empty(x2, (n,), _f32(x2)) for _ in range(2))
    _kernel(("layer_norm_backward_apply",), x2.dtype)[_grid(x2, -(-n // 256))](
        dx, dw, db, dy2, x2, weight, mean, rstd, c_g, c_gx, _row_stride(x2),
        _row_stride(dy2), n, m, n)
    if _is_torch(x2):
        dw, db = dw.to(x2.dtype), db.to(x2.dtype)
    else:
        dw, db = dw.astype(x2.dtype), db.astype(x2.dtype)
    return dx.reshape(shape), dw, db


def _targets(logits, target):
    """target as a contiguous int64 array of one element per row."""
    m = logits.shape[0]
    if not hasattr(target, "shape") or tuple(target.shape) != (m,):
        raise ArgumentError("target must have shape (%d,) (one class per row "
                            "of the logits), not %s" % (
                                m, tuple(getattr(target, "shape", ())) or
                                type(target).__name__))
    if _is_torch(logits):
        import torch
        if not _is_torch(target) or target.device != logits.device:
            raise ArgumentError("target must be a torch tensor on %s"
                                % logits.device)
        if target.dtype not in (torch.int64, torch.int32):
            raise ArgumentError("target must hold integers (int64 or int32), "
                                "not %s" % target.dtype)
        return target.to(torch.int64).contiguous()
    np = _numpy()
    if _is_torch(target) or target.dtype.kind not in "iu":
        raise ArgumentError("target must be a NumPy array of integers")
    return np.ascontiguousarray(target, dtype=np.int64)


# Rows too few to fill the GPU (under _SPLIT_BELOW_ROWS_PER_SM per SM) and
# long are split: the Q programs along y of a grid (rows, Q) share each
# row's chunks (cross_entropy_partial.mlir and cross_entropy_backward.mlir),
# then cross_entropy_combine.mlir merges the forward pass's Q partials per
# row. Q aims at _SPLIT_PROGRAMS_PER_SM programs per SM, each of at least
# _SPLIT_MIN_COLUMNS columns, at most _MAX_SPLITS parts (the combine's
# widest tile): many programs of a few chunks each, so that the last wave
# of a grid that is not persistent is a small part of it (at 64 rows of
# 2^20 and 9 parts, 576 programs ran at 0.51 of the copy bandwidth in run
# 28c, as a second wave of 48 programs would make it). On the CPU
# interpreter rows are not split
# unless a test sets _CPU_SPLITS.
_SPLIT_BELOW_ROWS_PER_SM = 4
_SPLIT_PROGRAMS_PER_SM = 16
_SPLIT_MIN_COLUMNS = 8192
_MAX_SPLITS = 256
_CPU_SPLITS = 1


def _splits(x, rows, columns):
    """Q, the programs that share each row (1: the one-pass kernels)."""
    if not _on_gpu(x):
        return max(1, min(_CPU_SPLITS, _MAX_SPLITS))
    import torch
    sms = torch.cuda.get_device_properties(x.device).multi_processor_count
    if rows >= _SPLIT_BELOW_ROWS_PER_SM * sms:
        return 1
    want = -(-_SPLIT_PROGRAMS_PER_SM * sms // max(1, rows))
    return max(1, min(_MAX_SPLITS, want, columns // _SPLIT_MIN_COLUMNS))


def _cross_entropy_forward(logits, target, ignore_index, label_smoothing):
    x2, _ = _rows(logits, "logits")
    if len(logits.shape) != 2:
        raise ArgumentError("logits must be 2-D (rows, classes), not %s"
                            % (tuple(logits.shape),))
    m, n = x2.shape
    target = _targets(x2, target)
    if not _on_gpu(x2):
        np = _numpy()
        t = np.asarray(target)
        bad = (t != ignore_index) & ((t < 0) | (t >= n))
        if bad.any():
            row = int(np.argmax(bad))
            raise ArgumentError("target[%d] is %d, outside [0, %d) and not "
                                "ignore_index (%d)" % (row, int(t[row]), n,
                                                        ignore_index))
    loss = _empty(x2, (m,), _f32(x2))
    lse = _empty(x2, (m,), _f32(x2))
    q = _splits(x2, m, n)
    if q == 1:
        _kernel(("cross_entropy_rows", "cross_entropy"), x2.dtype)[_grid(x2, m)](
            loss, lse, x2, target, _row_stride(x2), m, n, int(ignore_index),
            float(label_smoothing))
        return loss, lse
    parts = [_empty(x2, (m, q), _f32(x2)) for _ in range(3)]
    _kernel(("cross_entropy_partial",), x2.dtype)[(m, q)](
        *parts, x2, _row_stride(x2), m, n)
    _kernel(("cross_entropy_combine",), x2.dtype)[_grid(x2, m)](
        loss, lse, *parts, x2, target, _row_stride(x2), m, n, q,
        int(ignore_index), float(label_smoothing))
    return loss, lse


def _cross_entropy_backward(dloss, logits, target, lse, ignore_index,
                            label_smoothing):
    x2, _ = _rows(logits, "logits")
    m, n = x2.shape
    dx = _empty(x2, (m, n))
    q = _splits(x2, m, n)
    grid = _grid(x2, m) if q == 1 else (m, q)
    _kernel(("cross_entropy_backward",), x2.dtype)[grid](
        dx, dloss, x2, _targets(x2, target), lse, _row_stride(x2), n, m, n,
        int(ignore_index), float(label_smoothing))
    return dx


def _reduce(loss, target, ignore_index, reduction):
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    count = (target != ignore_index).sum()
    return loss.sum() / count


# PyTorch: custom operators with fake implementations and autograd.

_registered = False


def _register_torch():
    global _registered
    if _registered:
        return
    import torch
    from torch import Tensor

    @torch.library.custom_op("tile::softmax", mutates_args=())
    def softmax_op(x: Tensor) -> Tensor:
        return _softmax_forward(x)

    @softmax_op.register_fake
    def _(x):
        return torch.empty_like(x)

    @torch.library.custom_op("tile::softmax_backward", mutates_args=())
    def softmax_backward_op(y: Tensor, dy: Tensor) -> Tensor:
        return _softmax_backward(y, dy)

    @softmax_backward_op.register_fake
    def _(y, dy):
        return torch.empty_like(y)

    def softmax_setup(ctx, inputs, output):
        ctx.save_for_backward(output)

    def softmax_grad(ctx, dy):
        (y,) = ctx.saved_tensors
        return softmax_backward_op(y, dy.contiguous())

    softmax_op.register_autograd(softmax_grad, setup_context=softmax_setup)

    @torch.library.custom_op("tile::rms_norm", mutates_args=())
    def rms_norm_op(x: Tensor, weight: Tensor, eps: float) -> tuple[Tensor, Tensor]:
        return _rms_norm_forward(x, weight, eps)

    @rms_norm_op.register_fake
    def _(x, weight, eps):
        return (torch.empty_like(x),
                x.new_empty(x.shape[:-1], dtype=torch.float32).reshape(-1))

    @torch.library.custom_op("tile::rms_norm_backward", mutates_args=())
    def rms_norm_backward_op(dy: Tensor, x: Tensor, weight: Tensor,
                             rstd: Tensor) -> tuple[Tensor, Tensor]:
        return _rms_norm_backward(dy, x, weight, rstd)

    @rms_norm_backward_op.register_fake
    def _(dy, x, weight, rstd):
        return torch.empty_like(x), torch.empty_like(weight)

    def rms_norm_setup(ctx, inputs, output):
        x, weight, _ = inputs
        ctx.save_for_backward(x, weight, output[1])

    def rms_norm_grad(ctx, dy, _drstd):
        x, weight, rstd = ctx.saved_tensors
        dx, dw = rms_norm_backward_op(dy.contiguous(), x, weight, rstd)
        return dx, dw, None

    rms_norm_op.register_autograd(rms_norm_grad, setup_context=rms_norm_setup)

    @torch.library.custom_op("tile::layer_norm", mutates_args=())
    def layer_norm_op(x: Tensor, weight: Tensor, bias: Tensor,
                      eps: float) -> tuple[Tensor, Tensor, Tensor]:
        return _layer_norm_forward(x, weight, bias, eps)

    @layer_norm_op.register_fake
    def _(x, weight, bias, eps):
        rows = x.numel() // x.shape[-1]
        return (torch.empty_like(x),
                x.new_empty((rows,), dtype=torch.float32),
                x.new_empty((rows,), dtype=torch.float32))

    @torch.library.custom_op("tile::layer_norm_backward", mutates_args=())
    def layer_norm_backward_op(dy: Tensor, x: Tensor, weight: Tensor,
                               mean: Tensor, rstd: Tensor
                               ) -> tuple[Tensor, Tensor, Tensor]:
        return _layer_norm_backward(dy, x, weight, mean, rstd)

    @layer_norm_backward_op.register_fake
    def _(dy, x, weight, mean, rstd):
        return torch.empty_like(x), torch.empty_like(weight), torch.empty_like(weight)

    def layer_norm_setup(ctx, inputs, output):
        x, weight, _, _ = inputs
        ctx.save_for_backward(x, weight, output[1], output[2])

    def layer_norm_grad(ctx, dy, _dmean, _drstd):
        x, weight, mean, rstd = ctx.saved_tensors
        dx, dw, db = layer_norm_backward_op(dy.contiguous(), x, weight, mean, rstd)
        return dx, dw, db, None

    layer_norm_op.register_autograd(layer_norm_grad,
                                    setup_context=layer_norm_setup)

    @torch.library.custom_op("tile::cross_entropy", mutates_args=())
    def cross_entropy_op(logits: Tensor, target: Tensor, ignore_index: int,
                         label_smoothing: float) -> tuple[Tensor, Tensor]:
        return _cross_entropy_forward(logits, target, ignore_index,
                                      label_smoothing)

    @cross_entropy_op.register_fake
    def _(logits, target, ignore_index, label_smoothing):
        rows = logits.shape[0]
        return (logits.new_empty((rows,), dtype=torch.float32),
                logits.new_empty((rows,), dtype=torch.float32))

    @torch.library.custom_op("tile::cross_entropy_backward", mutates_args=())
    def cross_entropy_backward_op(dloss: Tensor, logits: Tensor,
                                  target: Tensor, lse: Tensor,
                                  ignore_index: int,
                                  label_smoothing: float) -> Tensor:
        return _cross_entropy_backward(dloss, logits, target, lse,
                                       ignore_index, label_smoothing)

    @cross_entropy_backward_op.register_fake
    def _(dloss, logits, target, lse, ignore_index, label_smoothing):
        return torch.empty_like(logits)

    def cross_entropy_setup(ctx, inputs, output):
        logits, target, ignore_index, label_smoothing = inputs
        ctx.save_for_backward(logits, target, output[1])
        ctx.ignore_index = ignore_index
        ctx.label_smoothing = label_smoothing

    def cross_entropy_grad(ctx, dloss, _dlse):
        logits, target, lse = ctx.saved_tensors
        dx = cross_entropy_backward_op(
            dloss.float().contiguous(), logits, target, lse, ctx.ignore_index,
            ctx.label_smoothing)
        return dx, None, None, None

    cross_entropy_op.register_autograd(cross_entropy_grad,
                                       setup_context=cross_entropy_setup)

    @torch.library.custom_op("tile::matmul", mutates_args=())
    def matmul_op(a: Tensor, b: Tensor) -> Tensor:
        return _matmul_forward(a, b, _matmul_kernel)

    @matmul_op.register_fake
    def _(a, b):
        return a.new_empty((a.shape[0], b.shape[1]))

    def matmul_setup(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    def matmul_grad(ctx, dc):
        # dA = dC @ B^T and dB = A^T @ dC, the transposes read as views.
        a, b = ctx.saved_tensors
        da = matmul_op(dc, b.t()) if ctx.needs_input_grad[0] else None
        db = matmul_op(a.t(), dc) if ctx.needs_input_grad[1] else None
        return da, db

    matmul_op.register_autograd(matmul_grad, setup_context=matmul_setup)

    global _torch_ops
    _torch_ops = dict(softmax=softmax_op, rms_norm=rms_norm_op,
                      layer_norm=layer_norm_op,
                      cross_entropy=cross_entropy_op, matmul=matmul_op)
    _registered = True


_torch_ops = {}


def _torch_op(name):
    _register_torch()
    return _torch_ops[name]


# The matmuls, variants of one launch on the same grid (one program per
# tile of C): matmul_persistent.mlir carries tile.persistent, which runs
# that grid's work on the programs that fit at once.
_MATMUL = ("matmul", "matmul_persistent")


def _matmul_kernel(dtype):
    return _kernel(_MATMUL, dtype)


# The operators.

def softmax(x):
    """softmax(x) along the last dimension (torch.softmax(x, -1))."""
    if _is_torch(x):
        return _torch_op("softmax")(x)
    return _softmax_forward(x)


def rms_norm(x, weight, eps=1e-6):
    """x * rsqrt(mean(x^2, -1) + eps) * weight, over the last dimension
    (torch.nn.functional.rms_norm(x, (N,), weight, eps))."""
    if _is_torch(x):
        return _torch_op("rms_norm")(x, weight, float(eps))[0]
    return _rms_norm_forward(x, weight, eps)[0]


def layer_norm(x, weight, bias, eps=1e-5):
    """(x - mean) * rsqrt(var + eps) * weight + bias over the last dimension
    (torch.nn.functional.layer_norm(x, (N,), weight, bias, eps))."""
    if _is_torch(x):
        return _torch_op("layer_norm")(x, weight, bias, float(eps))[0]
    return _layer_norm_forward(x, weight, bias, eps)[0]


def cross_entropy(logits, target, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """torch.nn.functional.cross_entropy on logits [rows, classes] and
    integer targets [rows]: per row logsumexp(x) - x[t] (with label
    smoothing s: lse - (1 - s) x[t] - s mean(x)), 0 where t ==
    ignore_index; reduction "mean" (over the rows not ignored), "sum" or
    "none"."""
    if reduction not in ("mean", "sum", "none"):
        raise ArgumentError("reduction must be 'mean', 'sum' or 'none', not %r"
                            % (reduction,))
    if not 0.0 <= float(label_smoothing) <= 1.0:
        raise ArgumentError("label_smoothing must be in [0, 1], not %r"
                            % (label_smoothing,))
    if _is_torch(logits):
        loss = _torch_op("cross_entropy")(logits, target, int(ignore_index),
                                          float(label_smoothing))[0]
    else:
        loss = _cross_entropy_forward(logits, target, ignore_index,
                                      label_smoothing)[0]
    return _reduce(loss, target, ignore_index, reduction)


def matmul(a, b):
    """a @ b for matrices a [M, K] and b [K, N] of one dtype (float32 in
    TF32, as torch.matmul with allow_tf32; float16 and bfloat16 exactly),
    accumulated in float32 and returned in the inputs' dtype
    (torch.matmul's). Any strides: transposed views are read in place."""
    if _is_torch(a):
        return _torch_op("matmul")(a, b)
    return _matmul_forward(a, b, _matmul_kernel)
