#!/usr/bin/env python3
"""tile.ops' kernels beside eager PyTorch and torch.compile of the same math.

Runs on the GPU machine, from the repository root, with the package's
library (TILE_LIBRARY) and PYTHONPATH=python:

  python3 bench/kernels_bench.py [--shapes 4096x4096,...] [--dtypes f32,bf16]
                                 [--kernels softmax,rms_norm,...] > kernels.jsonl

For each kernel, shape and dtype: tile (the tile.ops kernel, the launch
choosing its configuration as it would on a first call: tuning cache,
databases, else the cost model), eager PyTorch and torch.compile of the
same math, each checked against float64 and timed the same way (CUDA
events, L2 flushed before each of 50 runs, the median; with --graph, of
CUDA-graph replays of each, so that the host's time to issue a call does
not count). GB/s counts the
bytes the kernel must move (docs/kernels.md), the same for the three.
Beside them, unless --tile-only, a copy of the same bytes (half read, half
written: `torch.Tensor.copy_` between two buffers of bytes / 2), timed the
same way: the floor for those bytes at that size, where the 2950 GB/s of
a large copy is the floor of the GPU. One JSON object per line.

With --tune, each case is then tuned (tile.ops' kernels loaded with
tuning="auto": the first launch of a shape bucket runs the tuner, which
stores its choice in the tuning cache) and timed again as "tile_tuned";
--export FILE then writes the tuning cache as a tuning database (after
each tune and at the end). Each
record names the configurations the launches chose ("choices": the
kernels' messages).
"""
import argparse
import contextlib
import json
import os
import re
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import tile  # noqa: E402
import tile.ops as ops  # noqa: E402
from tile.testing import bench  # noqa: E402

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
SHAPES = [(4096, 1024), (4096, 4096), (16384, 4096), (4096, 8192), (2048, 16384),
          (32768, 1024), (1024, 32768)]
CE_SHAPES = [(4096, 32000), (4096, 50257), (1024, 131072), (64, 1 << 20)]
KERNELS = ("softmax,softmax_backward,rms_norm,rms_norm_backward,layer_norm,"
           "layer_norm_backward,cross_entropy,cross_entropy_backward")


def cases(kernel, m, n, dtype):
    """(bytes, {impl: fn}, check) for one kernel at one shape."""
    e = torch.tensor([], dtype=dtype).element_size()
    x = torch.randn(m, n, device="cuda", dtype=dtype)
    w = torch.randn(n, device="cuda", dtype=dtype)
    b = torch.randn(n, device="cuda", dtype=dtype)
    dy = torch.randn(m, n, device="cuda", dtype=dtype)
    if kernel == "softmax":
        math = lambda: torch.softmax(x, -1)
        tile_fn = lambda: ops._softmax_forward(x)
        return 2 * m * n * e, math, tile_fn
    if kernel == "softmax_backward":
        y = torch.softmax(x.float(), -1).to(dtype)
        math = lambda: (y * (dy - (y.float() * dy.float()).sum(-1, keepdim=True))).to(dtype)
        tile_fn = lambda: ops._softmax_backward(y, dy)
        return 3 * m * n * e, math, tile_fn
    if kernel == "rms_norm":
        math = lambda: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6)
                        * w.float()).to(dtype)
        tile_fn = lambda: ops._rms_norm_forward(x, w, 1e-6)[0]
        return 2 * m * n * e + n * e + 4 * m, math, tile_fn
    if kernel == "rms_norm_backward":
        rstd = torch.rsqrt(x.float().pow(2).mean(-1) + 1e-6)

        def math():
            xhat = x.float() * rstd[:, None]
            g = dy.float() * w.float()
            dx = rstd[:, None] * (g - xhat * (g * xhat).mean(-1, keepdim=True))
            return dx.to(dtype), (dy.float() * xhat).sum(0).to(dtype)
        tile_fn = lambda: ops._rms_norm_backward(dy, x, w, rstd)
        return 3 * m * n * e + 2 * n * e + 4 * m, math, tile_fn
    if kernel == "layer_norm":
        math = lambda: torch.nn.functional.layer_norm(x.float(), (n,), w.float(), b.float(),
                                                      1e-5).to(dtype)
        tile_fn = lambda: ops._layer_norm_forward(x, w, b, 1e-5)[0]
        return 2 * m * n * e + 2 * n * e + 8 * m, math, tile_fn
    if kernel == "layer_norm_backward":
        mean = x.float().mean(-1)
        rstd = torch.rsqrt(x.float().var(-1, unbiased=False) + 1e-5)

        def math():
            xhat = (x.float() - mean[:, None]) * rstd[:, None]
            g = dy.float() * w.float()
            dx = rstd[:, None] * (g - g.mean(-1, keepdim=True)
                                  - xhat * (g * xhat).mean(-1, keepdim=True))
            return dx.to(dtype), (dy.float() * xhat).sum(0).to(dtype), dy.float().sum(0).to(dtype)
        tile_fn = lambda: ops._layer_norm_backward(dy, x, w, mean, rstd)
        return 3 * m * n * e + 3 * n * e + 8 * m, math, tile_fn
    if kernel == "cross_entropy":
        t = torch.randint(0, n, (m,), device="cuda")
        math = lambda: torch.nn.functional.cross_entropy(x.float(), t, reduction="none")
        tile_fn = lambda: ops._cross_entropy_forward(x, t, -100, 0.0)[0]
        return m * n * e + 16 * m, math, tile_fn
    if kernel == "cross_entropy_backward":
        t = torch.randint(0, n, (m,), device="cuda")
        lse = torch.logsumexp(x.float(), -1)
        dloss = torch.full((m,), 1.0 / m, device="cuda")

        def math():
            p = torch.exp(x.float() - lse[:, None])
            p[torch.arange(m, device="cuda"), t] -= 1
            return (p * dloss[:, None]).to(dtype)
        tile_fn = lambda: ops._cross_entropy_backward(dloss, x, t, lse, -100, 0.0)
        return 2 * m * n * e + 16 * m, math, tile_fn
    raise ValueError(kernel)


def tune_error(message):
    """A failed tune's message, short: its first line, how many
    configurations each reason left out, and the first lines of the reasons
    other than a bound, the model's rank or dominance (a wrong result, a
    failed compile), which a message cut at its start would lose."""
    lines = message.split("\n")
    counts, others = {}, []
    for line in lines[1:]:
        # "  [kernel.mlir: ]K=V K=V: reason, detail"
        match = re.search(r"=\S+: ([^,]+)", line)
        reason = match.group(1) if match else line.strip()
        counts[reason] = counts.get(reason, 0) + 1
        if not reason.startswith(("inadmissible", "not timed", "dominated")):
            others.append(line.strip())
    return {"first": lines[0][:2000], "reasons": counts, "others": others[:20]}


def copy_case(nbytes):
    """A copy reading and writing nbytes / 2 (in 16-byte words)."""
    words = max(1, nbytes // 2 // 16)
    src = torch.empty(words, 4, device="cuda", dtype=torch.int32).random_()
    dst = torch.empty_like(src)
    return lambda: dst.copy_(src)


def choices(tuning=None):
    """The configurations the kernels loaded so far chose at their last
    first launch (their "tuned:", "model:" or "fitted:" notes); with
    `tuning`, only those of the kernels loaded with it (tile.ops keys its
    kernels by names, dtype and tuning mode)."""
    notes = []
    for key, kernel in ops._loaded.items():
        if tuning is not None and key[2] != tuning:
            continue
        for line in (kernel.messages or "").splitlines():
            if line.startswith(("tuned:", "model:", "fitted:", "tune:")):
                notes.append(line[:300])
    return notes


@contextlib.contextmanager
def tuning_auto():
    """tile.ops' kernels loaded with tuning="auto" inside (a launch with no
    stored choice is tuned first), "cache" again after."""
    ops._TUNING = "auto"
    try:
        yield
    finally:
        ops._TUNING = "cache"


def tile_fn_tuned(fn):
    """fn, run with the tuning cache's choice, which --tune has just
    stored."""
    def run():
        with tuning_auto():
            return fn()
    return run


def first(v):
    return v[0] if isinstance(v, tuple) else v


def case_list(args):
    """(kernel, dtype, M, N) of each case: --cases, else the product."""
    if args.cases:
        out = []
        for case in args.cases.split(","):
            kernel, dtype_name, shape = case.split(":")
            m, n = (int(v) for v in shape.split("x"))
            out.append((kernel, dtype_name, m, n))
        return out
    out = []
    for kernel in args.kernels.split(","):
        shapes = ([tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
                  if args.shapes else (CE_SHAPES if kernel.startswith("cross") else SHAPES))
        for dtype_name in args.dtypes.split(","):
            for m, n in shapes:
                out.append((kernel, dtype_name, m, n))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="")
    parser.add_argument("--dtypes", default="f32,bf16")
    parser.add_argument("--graph", action="store_true",
                        help="time CUDA-graph replays of each (the GPU's time, "
                        "without the host's: tile.testing.bench(graph=True))")
    parser.add_argument("--no-torch", action="store_true",
                        help="time tile and the copy only (no eager PyTorch, no "
                             "torch.compile)")
    parser.add_argument("--tile-only", action="store_true",
                        help="time tile alone, not eager PyTorch or torch.compile")
    parser.add_argument("--partial-rows", type=int, default=0,
                        help="the cap on the programs of the backward norms, "
                        "and so on their partial buffers' rows (default: "
                        "tile.ops')")
    parser.add_argument("--kernels", default=KERNELS)
    parser.add_argument("--cases", default="",
                        help="KERNEL:DTYPE:MxN,... instead of the product of "
                        "--kernels, --dtypes and --shapes")
    parser.add_argument("--tune", action="store_true",
                        help="also tune each case and time it as tile_tuned")
    parser.add_argument("--export", default="",
                        help="with --tune: write the tuning cache as a tuning database")
    args = parser.parse_args()
    props = torch.cuda.get_device_properties(0)
    if args.partial_rows:
        ops._MAX_PARTIAL_ROWS = args.partial_rows
    for kernel, dtype_name, m, n in case_list(args):
        dtype = DTYPES[dtype_name]
        record = dict(kernel=kernel, dtype=dtype_name, M=m, N=n, device=props.name,
                      partial_rows=ops._MAX_PARTIAL_ROWS,
                      timing="cuda-graph" if args.graph else "events")
        try:
            torch.manual_seed(0)
            nbytes, math, tile_fn = cases(kernel, m, n, dtype)
            record["bytes"] = nbytes
            for kernel_object in ops._loaded.values():
                kernel_object._messages = ""
            ref = first(math())
            got = first(tile_fn())
            scale = ref.float().abs().amax().clamp_min(1e-30)
            record["max_error"] = ((got.float() - ref.float()).abs().max() / scale).item()
            impls = [("tile", tile_fn)]
            if not args.tile_only and not args.no_torch:
                impls += [("eager", math), ("torch.compile", torch.compile(math))]
            if not args.tile_only:
                impls.append(("copy", copy_case(nbytes)))
            record["choices"] = {"tile": choices()}
            if args.tune:
                # A tune that fails is recorded, whole, and the
                # other launches are still timed.
                try:
                    start = time.time()
                    with tuning_auto():
                        tuned = first(tile_fn())
                    record["tune_s"] = round(time.time() - start, 2)
                    record["choices"]["tile_tuned"] = choices("auto")
                    record["max_error_tuned"] = (
                        (tuned.float() - ref.float()).abs().max() / scale).item()
                    impls.insert(1, ("tile_tuned", tile_fn_tuned(tile_fn)))
                except Exception as error:  # noqa: BLE001 - recorded
                    record["tune_error"] = tune_error(str(error))
                # Exported after each tune too, so that a run cut off by
                # its time limit keeps the tunes it finished.
                if args.export and "tune_error" not in record:
                    try:
                        tile.tune_export(args.export)
                    except Exception as error:  # noqa: BLE001 - recorded
                        record["export_error"] = str(error)[:2000]
            for impl, fn in impls:
                ms = bench(fn, warmup=5, reps=50, graph=args.graph).median
                record[impl + "_ms"] = ms
                record[impl + "_gbps"] = nbytes / (ms * 1e-3) / 1e9
            record["ok"] = True
        except Exception as error:  # out of memory, a bound, ...
            record.update(ok=False, reason=" | ".join(str(error).splitlines())[:2000])
        print(json.dumps(record), flush=True)
        torch.cuda.empty_cache()
    if args.tune and args.export:
        print(json.dumps({"kind": "export", "report": tile.tune_export(args.export)}),
              flush=True)


if __name__ == "__main__":
    main()
