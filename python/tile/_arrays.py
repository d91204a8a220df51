"""What tile.ops asks of its arrays, torch tensors or NumPy arrays alike,
through the few calls both have: dtypes, allocation, rows of contiguous
elements, and the checks of its arguments."""

from ._errors import ArgumentError


def is_torch(x):
    """Whether x is a torch tensor (without importing torch)."""
    return type(x).__module__.startswith("torch")


def dtype_text(x):
    """x's dtype as both libraries spell it: "float32", "bfloat16"."""
    return str(x.dtype).replace("torch.", "")


def numpy():
    import numpy
    return numpy


def empty(x, shape, dtype=None):
    if is_torch(x):
        import torch
        return torch.empty(shape, dtype=dtype or x.dtype, device=x.device)
    np = numpy()
    return np.empty(shape, dtype=dtype or x.dtype)


def f32(x):
    if is_torch(x):
        import torch
        return torch.float32
    return numpy().float32


def rows(x, name):
    """x as a 2-D array of rows with contiguous elements (a view where it
    can be), and the shape to give the result back."""
    if not hasattr(x, "shape") or not hasattr(x, "dtype"):
        raise ArgumentError("%s must be a torch tensor or a NumPy array, not %s"
                            % (name, type(x).__name__))
    if len(x.shape) < 1:
        raise ArgumentError("%s must have at least one dimension" % name)
    n = x.shape[-1]
    if n < 1:
        raise ArgumentError("%s has an empty last dimension" % name)
    if dtype_text(x) not in ("float32", "float16", "bfloat16"):
        raise ArgumentError("%s is %s: the kernels take float32, float16 or "
                            "bfloat16" % (name, x.dtype))
    if is_torch(x):
        if x.dim() == 2 and x.stride(1) == 1:
            return within_offsets(x, name), tuple(x.shape)
        if x.stride(-1) != 1:
            x = x.contiguous()
        return within_offsets(x.reshape(-1, n), name), tuple(x.shape)
    np = numpy()
    if x.ndim == 2 and x.strides[1] == x.itemsize:
        return within_offsets(x, name), x.shape
    x = np.ascontiguousarray(x)
    return within_offsets(x.reshape(-1, n), name), x.shape


# The kernels compute element offsets in 32 bits (their "Bounds" comments):
# a row array reaching 2^31 elements or more past its start (16384 rows of
# 131072 logits) is refused here, not read at a wrapped offset.
OFFSET_LIMIT = 2**31


def within_offsets(x2, name):
    """x2 (rows of contiguous elements), if its last element's offset from
    its first fits the kernels' 32-bit offsets; else an ArgumentError."""
    m, n = x2.shape
    stride = x2.stride(0) if is_torch(x2) else x2.strides[0] // x2.itemsize
    if m > 0 and (m - 1) * abs(stride) + n >= OFFSET_LIMIT:
        raise ArgumentError(
            "%s is %d rows of %d (%d elements apart): it reaches 2^31 elements "
            "or more, beyond the kernels' 32-bit offsets" % (name, m, n, stride))
    return x2


def row_stride(x):
    if is_torch(x):
        return x.stride(0)
    return x.strides[0] // x.itemsize


def check_like(x, other, name, length):
    if not hasattr(other, "shape") or tuple(other.shape) != (length,):
        raise ArgumentError("%s must have shape (%d,) (the input's last "
                            "dimension), not %s" % (
                                name, length,
                                tuple(other.shape) if hasattr(other, "shape")
                                else type(other).__name__))
    if is_torch(other) != is_torch(x):
        raise ArgumentError("%s is a %s, the input a %s: give both as torch "
                            "tensors or both as NumPy arrays" % (
                                name, type(other).__name__, type(x).__name__))
    if other.dtype != x.dtype:
        raise ArgumentError("%s is %s, the input %s: they must match" % (
            name, other.dtype, x.dtype))
    if is_torch(x) and other.device != x.device:
        raise ArgumentError("%s is on %s, the input on %s" % (
            name, other.device, x.device))
    if is_torch(other):
        return other.contiguous()
    return numpy().ascontiguousarray(other)
