#!/usr/bin/env python3
"""Where a tile.ops call's time goes, on the GPU: for each kernel and shape,
the host time of one call (tile.testing.launch_overhead), its time between
CUDA events with the L2 flushed before it (tile.testing.bench, as
bench/kernels_bench.py times it), and the same calls captured in a CUDA
graph and replayed (no host time in it), with the configuration each
launch ran (the kernels' messages). One JSON object per line.

  python3 bench/ops_overhead.py [--shapes 4096x1024,...] [--dtypes bf16]
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import tile.ops as ops  # noqa: E402
from tile.testing import bench, launch_overhead  # noqa: E402
from bench.kernels_bench import DTYPES, KERNELS, cases  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="4096x1024,4096x4096,4096x8192")
    parser.add_argument("--dtypes", default="bf16")
    parser.add_argument("--partial-rows", default="0",
                        help="comma-separated caps on the backward norms' "
                        "programs (0: tile.ops' default)")
    parser.add_argument("--kernels", default=KERNELS)
    args = parser.parse_args()
    for kernel in args.kernels.split(","):
        for dtype_name in args.dtypes.split(","):
            for shape, cap in [(s, int(c)) for s in args.shapes.split(",")
                               for c in args.partial_rows.split(",")]:
                m, n = (int(v) for v in shape.split("x"))
                ops._MAX_PARTIAL_ROWS = cap
                record = dict(kernel=kernel, dtype=dtype_name, M=m, N=n, partial_rows=cap)
                try:
                    nbytes, _, fn = cases(kernel, m, n, DTYPES[dtype_name])
                    fn()
                    torch.cuda.synchronize()
                    record["bytes"] = nbytes
                    record["host_us"] = launch_overhead(fn, reps=200, rounds=5)
                    record["events_us"] = bench(fn, warmup=5, reps=30).median * 1e3
                    record["graph_us"] = bench(fn, warmup=3, reps=20, graph=True).median * 1e3
                    record["graph_gbps"] = nbytes / (record["graph_us"] * 1e-6) / 1e9
                    record["messages"] = {"/".join(k[0]): v.messages.strip()[-400:]
                                          for k, v in ops._loaded.items()
                                          if k[1] == str(DTYPES[dtype_name])}
                    record["ok"] = True
                except Exception as error:
                    record.update(ok=False, reason=str(error)[:300])
                print(json.dumps(record), flush=True)
                ops._loaded.clear()


if __name__ == "__main__":
    main()
