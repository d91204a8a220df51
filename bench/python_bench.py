#!/usr/bin/env python3
"""The Python package on the GPU against tile-run and Triton.

    PYTHONPATH=python python3 bench/python_bench.py [--tile-run PATH]
        [--dtype f32,f16,bf16] [--shape MxN]... [--json FILE]

1. Bandwidth: for each element type and shape (default: the seeds', M = 4096
   with N = 256 .. 16384 and M = 1024 with N = 256 .. 131072), the softmax of
   examples/python/softmax.py launched from Python and timed with
   tile.testing.bench (CUDA events, L2 flushed, the median of 100 runs after
   10), then the same kernel (the same file and every meta-parameter given
   with -D, so the same compiled kernel from the compile cache) timed by
   `tile-run --bench`, which times the same way, then Python again: the two
   should be level, as the GPU runs the same kernel on the same grid.
2. Host time of a launch, kernel already compiled: a softmax of one row of
   256 floats (the GPU keeps up, so the host is what is timed), from the
   call to its return, the median of 21 rounds of 500 calls, interleaved:
   tile's `kernel[grid](...)` (a tuple grid and a callable one), the C call
   alone (tile_launch_packed with a packet made once), Triton's launch of
   its own softmax kernel (bench/triton_softmax.py; a tuple grid and a
   callable one) and torch.softmax.

Prints a table per part; --json writes every figure.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys

import torch

import tile
from tile import _capi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import softmax as example  # noqa: E402  examples/python/softmax.py

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def find_tile_run(given):
    for candidate in (given, shutil.which("tile-run"), os.path.join(ROOT, "build", "bin", "tile-run")):
        if candidate and os.path.exists(candidate):
            return candidate
    sys.exit("python_bench: no tile-run (give --tile-run PATH)")


def tile_run_bench(tile_run, file, meta, dtype, m, n):
    """tile-run --bench of `file` with every meta-parameter set: (median ms,
    GB/s, the command)."""
    command = [tile_run, file, "--target=cuda"]
    for name, value in meta.items():
        command += ["-D", "%s=%s" % (name, value)]
    spec = "%s[%dx%d]" % (dtype, m, n)
    command += ["--grid", "persistent:%d" % m, "--arg", spec + "=zeros", "--arg", spec + "=randn:0"]
    command += ["--arg", "i32=%d" % n, "--arg", "i32=%d" % n, "--arg", "i32=%d" % m, "--arg", "i32=%d" % n]
    command += ["--bench"]
    output = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if output.returncode:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(command), output.stdout, output.stderr))
    found = re.search(r"bench: median ([0-9.]+) ms .* ([0-9.]+) GB/s", output.stdout)
    if not found:
        raise RuntimeError("no bench line in:\n" + output.stdout)
    return float(found.group(1)), float(found.group(2)), " ".join(command)


def bandwidth(args, tile_run, results):
    print("== bandwidth: Python's launch against tile-run --bench, the same kernel")
    print(
        "%-5s %6s %7s  %-58s %9s %9s %9s %7s"
        % ("dtype", "M", "N", "kernel", "py GB/s", "run GB/s", "py GB/s", "py/run")
    )
    for name in args.dtype.split(","):
        dtype = DTYPES[name]
        for m, n in args.shapes:
            torch.manual_seed(0)
            x = torch.randn(m, n, device="cuda", dtype=dtype)
            y = torch.empty_like(x)
            kernel = example.kernel(dtype)
            launch = kernel["persistent:%d" % m]
            launch(y, x, n, n, m, n)
            example.check(x, y)
            function = kernel.prepare(y, x, n, n, m, n)
            file = example.KERNEL_FILES[function.variant]
            nbytes = 2 * m * n * x.element_size()
            first = tile.testing.bench(lambda: launch(y, x, n, n, m, n))
            ms, gbps, command = tile_run_bench(tile_run, file, function.meta, name, m, n)
            second = tile.testing.bench(lambda: launch(y, x, n, n, m, n))
            py = max(first.gbps(nbytes), second.gbps(nbytes))
            label = os.path.basename(file) + " " + " ".join(
                "%s=%s" % (k, v) for k, v in function.meta.items() if k != "DTYPE"
            )
            print(
                "%-5s %6d %7d  %-58s %9.1f %9.1f %9.1f %7.3f"
                % (name, m, n, label, first.gbps(nbytes), gbps, second.gbps(nbytes), py / gbps),
                flush=True,
            )
            results.append(
                {
                    "part": "bandwidth",
                    "dtype": name,
                    "m": m,
                    "n": n,
                    "kernel": label,
                    "python_ms": [first.median, second.median],
                    "python_gbps": [first.gbps(nbytes), second.gbps(nbytes)],
                    "tile_run_ms": ms,
                    "tile_run_gbps": gbps,
                    "tile_run_command": command,
                }
            )
            del x, y
            torch.cuda.empty_cache()


def launch_overhead(args, results):
    print("== host time of one launch (us, call to return, kernel compiled)")
    x = torch.randn(1, 256, device="cuda")
    y = torch.empty_like(x)
    kernel = tile.load(os.path.join(ROOT, "examples", "softmax.mlir"), BLOCK_SIZE=256, NUM_WARPS=4)
    fixed = kernel[1]
    grid_fn = kernel[lambda meta: (1,)]
    contenders = {
        "tile kernel[(1,)](...)": lambda: fixed(y, x, 256, 256, 1, 256),
        "tile kernel[lambda meta: (1,)](...)": lambda: grid_fn(y, x, 256, 256, 1, 256),
    }
    # The C call alone: a packet made once, launched again and again.
    fixed(y, x, 256, 256, 1, 256)
    function = kernel.prepare(y, x, 256, 256, 1, 256)
    stream = torch.cuda.current_stream().cuda_stream
    packet = struct.pack(
        kernel._format, function.handle, stream, 1, 1, 1, 6, y.data_ptr(), x.data_ptr(), 256, 256, 1, 256
    )
    launch_packed = _capi.lib().launch_packed
    contenders["tile_launch_packed (the C call alone)"] = lambda: launch_packed(packet)
    try:
        import triton
        import triton_softmax

        def triton_fixed():
            triton_softmax.fused_kernel[(1,)](y, x, 256, 256, 1, 256, BLOCK_SIZE=256, num_stages=1, num_warps=4)

        def triton_callable():
            triton_softmax.fused_kernel[lambda meta: (1,)](
                y, x, 256, 256, 1, 256, BLOCK_SIZE=256, num_stages=1, num_warps=4
            )

        contenders["Triton %s kernel[(1,)](...)" % triton.__version__] = triton_fixed
        contenders["Triton %s kernel[lambda meta: (1,)](...)" % triton.__version__] = triton_callable
    except ImportError as error:
        print("(no Triton: %s)" % error)
    contenders["torch.softmax(x, dim=1)"] = lambda: torch.softmax(x, dim=1)

    # Interleaved: each round runs every contender once.
    rounds = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, fn in contenders.items():
            # One round of tile.testing.launch_overhead: the mean host time
            # of args.reps calls.
            rounds[name].append(tile.testing.launch_overhead(fn, args.reps, rounds=1))
    for name, times in rounds.items():
        print(
            "  %-48s median %6.2f us  (min %6.2f, max %6.2f over %d rounds of %d calls)"
            % (name, statistics.median(times), min(times), max(times), len(times), args.reps)
        )
        results.append(
            {
                "part": "launch",
                "contender": name,
                "median_us": statistics.median(times),
                "rounds_us": times,
                "reps": args.reps,
            }
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tile-run", help="tile-run to compare with (default: PATH, build/bin)")
    parser.add_argument("--dtype", default="f32,f16,bf16")
    parser.add_argument("--shape", action="append", help="MxN (default: the seeds')")
    parser.add_argument("--reps", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--skip-bandwidth", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args()
    args.shapes = (
        [tuple(int(v) for v in s.split("x")) for s in args.shape] if args.shape else example.SEED_SHAPES
    )
    props = torch.cuda.get_device_properties(0)
    print(
        "GPU %s; torch %s; tile %s (%s)"
        % (props.name, torch.__version__, tile.version(), tile.library_path())
    )
    results = []
    if not args.skip_bandwidth:
        bandwidth(args, find_tile_run(args.tile_run), results)
    launch_overhead(args, results)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"gpu": props.name, "results": results}, out, indent=1)


if __name__ == "__main__":
    main()
