"""Triton's softmax kernels from the seeds, the baselines of the benchmarks
(bench/ptx_harness.py, bench/tune_sweep.py): seed 001's fused kernel on a
persistent grid, and seed 004's two-pass online kernel, one program per
row. Both compute in f32 and store in the output's element type."""
import triton
import triton.language as tl


@triton.jit
def fused_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                 BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    # Seed 001's fused softmax, a persistent grid, computed in f32.
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=num_stages):
        cols = tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * in_stride + cols, mask=mask,
                    other=-float("inf")).to(tl.float32)
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        y = num / tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols,
                 y.to(out_ptr.dtype.element_ty), mask=mask)

@triton.jit
def online_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols,
                  BLOCK_SIZE: tl.constexpr):
    # Seed 004's two-pass online softmax, one program per row.
    row = tl.program_id(0)
    in_ptr += row * in_stride
    out_ptr += row * out_stride
    m = tl.zeros([BLOCK_SIZE], dtype=tl.float32) - float("inf")
    s = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for i in range(0, tl.cdiv(n_cols, BLOCK_SIZE)):
        idx = tl.arange(0, BLOCK_SIZE) + i * BLOCK_SIZE
        x = tl.load(in_ptr + idx, mask=idx < n_cols,
                    other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        if i:
            s *= tl.exp(m - m_new)
        x = tl.exp(x - m_new)
        s += tl.where(idx < n_cols, x, 0.0)
        m = m_new
    m_all = tl.max(m)
    s = tl.sum(s * tl.exp(m - m_all))
    for i in range(tl.cdiv(n_cols, BLOCK_SIZE) - 1, -1, -1):
        idx = tl.arange(0, BLOCK_SIZE) + i * BLOCK_SIZE
        x = tl.load(in_ptr + idx, mask=idx < n_cols,
                    other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + idx,
                 (tl.exp(x - m_all) / s).to(out_ptr.dtype.element_ty),
                 mask=idx < n_cols)
