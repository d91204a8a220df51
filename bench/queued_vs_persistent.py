#!/usr/bin/env python3
"""softmax_cluster with clusters of 16: the persistent grid against one
cluster per row, side by side.

The cost model (lib/Runtime/CostModel.cpp) has to say, without timing,
whether a kernel of clusters that take a large part of a GPC's block slots
runs faster on the persistent grid (as many clusters as fit at once, each
stepping over rows) or queued (one cluster per row, scheduled as clusters
drain). Run 38 found the persistent grid 10-26% faster at f16 rows of
262144-524288; runs 40, 43 and 48 found the queued grid 6-13% faster at f32
rows of 524288. This script times both at each configuration of a small
grid, so that the rule can be fitted to what decides it.

Runs on the GPU machine from the repository root, with the bundle's
tile-run:

  python3 bench/queued_vs_persistent.py TILE_RUN [--dtypes f32,f16]
      [--shapes 128x524288,...] [--reps 30]

For each shape and configuration (CLUSTER=16, BLOCK_SIZE = N / 16, NUM_WARPS
8 and 16, and 4 where a block is 16384 or less, NUM_STAGES 1 and 2, MIN_BLOCKS_PER_SM 1) it runs `tile-run
--bench` with `--waves 1` and `--waves all`, twice in alternating order, and
prints each median and the ratio (persistent / queued: above 1 means the
queued grid is faster). Input: zeros (timing does not depend on values).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_compare import bench  # noqa: E402

BUNDLE = os.path.join("dist", "tile-gpu")
SIZE = {"f32": 4, "f16": 2, "bf16": 2}
DEFAULT_SHAPES = "128x524288,256x524288,512x524288,128x262144,256x262144,512x262144,1024x262144"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run")
    parser.add_argument("--dtypes", default="f32,f16")
    parser.add_argument("--shapes", default=DEFAULT_SHAPES)
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args()
    work = os.environ.get("TILE_GPU_WORK", "/tmp/tile-queued")
    for dtype in args.dtypes.split(","):
        for shape in args.shapes.split(","):
            m, n = (int(v) for v in shape.split("x"))
            for stages in (1, 2):
                for warps in ((4, 8, 16) if n // 16 <= 16384 else (8, 16)):
                    config = {"CLUSTER": 16, "BLOCK_SIZE": n // 16,
                              "NUM_WARPS": warps, "NUM_STAGES": stages,
                              "MIN_BLOCKS_PER_SM": 1}
                    times = {"1": [], "all": []}
                    for order in (("1", "all"), ("all", "1")):
                        for waves in order:
                            t = bench(args.run, BUNDLE, work, dtype, m, n,
                                      dict(config, waves=waves), args.reps)
                            if t is not None:
                                times[waves].append(t)
                    if not times["1"] or not times["all"]:
                        continue
                    p, q = min(times["1"]), min(times["all"])
                    gbps = 2 * m * n * SIZE[dtype] / (q * 1e6)
                    print("%-4s %5d %7d stages=%d warps=%2d  persistent %s  "
                          "queued %s  persistent/queued %.3f  (queued %.0f "
                          "GB/s)" % (dtype, m, n, stages, warps,
                                     " ".join("%.4f" % t for t in times["1"]),
                                     " ".join("%.4f" % t for t in times["all"]),
                                     p / q, gbps), flush=True)


if __name__ == "__main__":
    main()
