"""tile.ops.matmul's forward: C = A @ B on examples/matmul.mlir and its
persistent variant (examples/matmul_persistent.mlir, `tile.persistent`),
one program per tile of C, whichever the tuning cache, a tuning database
or the fitted defaults choose (docs/tuning.md).

The kernels take any strides, so a transposed operand (a view, as the
backward pass's B^T and A^T are) is read in place; a buffer is copied only
where the kernel cannot take it as it is: a NumPy array with a negative
stride, a tensor whose address is not a multiple of 16 bytes (the kernels
promise `tile.divisibility = 16` on their pointers), or offsets past what
32-bit arithmetic holds.
"""

from ._arrays import dtype_text as _dtype_text
from ._arrays import is_torch as _is_torch
from ._errors import ArgumentError

_FLOATS = ("float32", "float16", "bfloat16")
_I32_LIMIT = 2**31


def _strides(x):
    if _is_torch(x):
        return tuple(x.stride())
    return tuple(s // x.itemsize for s in x.strides)


def _reaches(shape, strides):
    """The largest element offset an array of `shape` and `strides` uses."""
    return sum((size - 1) * abs(stride) for size, stride in zip(shape, strides)
               if size > 0)


def _operand(x, name):
    """x as the kernel takes it: the same array, or a copy where it must."""
    if not hasattr(x, "shape") or not hasattr(x, "dtype"):
        raise ArgumentError("%s must be a torch tensor or a NumPy array, not %s"
                            % (name, type(x).__name__))
    if len(x.shape) != 2:
        raise ArgumentError("%s must be a matrix (2 dimensions), not of shape %s"
                            % (name, tuple(x.shape)))
    if _dtype_text(x) not in _FLOATS:
        raise ArgumentError("%s is %s: matmul takes float32, float16 or "
                            "bfloat16" % (name, x.dtype))
    if _is_torch(x):
        if x.data_ptr() % 16 or _reaches(x.shape, x.stride()) >= _I32_LIMIT:
            x = x.contiguous() if not x.is_contiguous() else x.clone()
    else:
        import numpy as np
        if any(s < 0 or s % x.itemsize for s in x.strides) or \
                _reaches(x.shape, _strides(x)) >= _I32_LIMIT:
            x = np.ascontiguousarray(x)
    if _reaches(x.shape, _strides(x)) >= _I32_LIMIT:
        raise ArgumentError("%s is %d x %d: more elements than the kernel's "
                            "32-bit offsets reach" % ((name,) + tuple(x.shape)))
    return x


def _cdiv(a, b):
    return -(-a // b)


def matmul_forward(a, b, kernel):
    """A @ B for 2-D A [M, K] and B [K, N] of one dtype and device; `kernel`
    is a callable of the dtype giving the loaded variants."""
    a = _operand(a, "a")
    b = _operand(b, "b")
    if _is_torch(a) != _is_torch(b):
        raise ArgumentError("b is a %s, a a %s: give both as torch tensors or "
                            "both as NumPy arrays" % (type(b).__name__,
                                                       type(a).__name__))
    if a.dtype != b.dtype:
        raise ArgumentError("b is %s, a %s: they must match" % (b.dtype, a.dtype))
    if _is_torch(a) and a.device != b.device:
        raise ArgumentError("b is on %s, a on %s" % (b.device, a.device))
    m, k = a.shape
    if b.shape[0] != k:
        raise ArgumentError("a is %d x %d and b %d x %d: a's columns must be "
                            "b's rows" % (m, k, b.shape[0], b.shape[1]))
    n = b.shape[1]
    if _reaches((m, n), (n, 1)) >= _I32_LIMIT:
        raise ArgumentError("C would be %d x %d: more elements than the "
                            "kernel's 32-bit offsets reach" % (m, n))
    if _is_torch(a):
        import torch
        c = torch.empty((m, n), dtype=a.dtype, device=a.device)
    else:
        import numpy as np
        c = np.empty((m, n), dtype=a.dtype)
    if m == 0 or n == 0:
        return c
    sa, sb = _strides(a), _strides(b)

    def grid(meta):
        return (_cdiv(m, meta["BLOCK_M"]) * _cdiv(n, meta["BLOCK_N"]),)

    kernel(a.dtype)[grid](a, b, c, m, n, k, sa[0], sa[1], sb[0], sb[1], n, 1)
    return c
