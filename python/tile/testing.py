"""Timing and checking helpers for kernels launched from Python.

`bench(fn)` times a callable on the GPU as `tile-run --bench` times a kernel:
warm-up runs, then each timed run alone between CUDA events, with the L2
cache flushed before it (a write of twice its size), and the median, min
and max in milliseconds. It needs PyTorch (for the events and the flush).
"""

import statistics

__all__ = ["BenchResult", "bench", "launch_overhead"]


class BenchResult:
    """Times of bench(), in milliseconds."""

    def __init__(self, times):
        ordered = sorted(times)
        self.times = list(times)
        self.median = statistics.median(ordered)
        self.min = ordered[0]
        self.max = ordered[-1]

    def gbps(self, nbytes):
        """The bandwidth of `nbytes` moved in the median time, in GB/s."""
        return nbytes / (self.median * 1e-3) / 1e9

    def __repr__(self):
        return "<BenchResult median %.4f ms (min %.4f, max %.4f) over %d runs>" % (
            self.median,
            self.min,
            self.max,
            len(self.times),
        )


_flush_buffers = {}


def _flush_buffer(torch, device):
    buffer = _flush_buffers.get(device)
    if buffer is None:
        props = torch.cuda.get_device_properties(device)
        l2 = getattr(props, "L2_cache_size", 0) or 50 * 2**20
        buffer = torch.empty(max(2 * l2, 2**20) // 4, dtype=torch.int32, device=device)
        _flush_buffers[device] = buffer
    return buffer


def bench(fn, warmup=10, reps=100, flush_l2=True, device=None, graph=False):
    """Times `fn()` on the GPU: `warmup` runs, then `reps` runs each between
    two CUDA events on the current stream, L2 flushed before each (unless
    flush_l2=False). Returns a BenchResult (milliseconds).

    With graph=True, `fn`'s launches are captured once in a CUDA graph
    (after two runs on a side stream) and the replays are timed instead:
    the GPU's time alone, without the host's time to issue them, which a
    call slower on the host than its kernels would otherwise add."""
    import torch

    if device is None:
        device = torch.cuda.current_device()
    if graph:
        stream = torch.cuda.Stream(device)
        stream.wait_stream(torch.cuda.current_stream(device))
        with torch.cuda.stream(stream):
            fn()
            fn()
        torch.cuda.current_stream(device).wait_stream(stream)
        captured = torch.cuda.CUDAGraph()
        with torch.cuda.graph(captured):
            fn()
        fn = captured.replay
    flush = _flush_buffer(torch, device) if flush_l2 else None
    for i in range(warmup):
        if flush is not None:
            flush.fill_(i)
        fn()
    torch.cuda.synchronize(device)
    events = []
    for i in range(reps):
        if flush is not None:
            flush.fill_(i)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        events.append((start, end))
    torch.cuda.synchronize(device)
    return BenchResult([start.elapsed_time(end) for start, end in events])


def launch_overhead(fn, reps=500, rounds=21):
    """The host time of one call of `fn` (a kernel launch, already
    compiled), in microseconds: the median over `rounds` of the mean of
    `reps` back-to-back calls, timed with time.perf_counter_ns. The calls do
    not wait for the GPU, which synchronizes between rounds; keep `reps`
    below the depth of the launch queue (about a thousand), or a full queue
    makes the GPU's time the host's."""
    import time

    sync = None
    try:
        import torch

        if torch.cuda.is_available():
            sync = torch.cuda.synchronize
    except ImportError:
        pass
    fn()
    if sync:
        sync()
    means = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(reps):
            fn()
        means.append((time.perf_counter_ns() - start) / reps / 1000)
        if sync:
            sync()
    return statistics.median(means)
