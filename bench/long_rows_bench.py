#!/usr/bin/env python3
"""Softmax on few, very long rows (64 x 2^20): the ways tile has, side by
side in one process, against torch.softmax and a copy of the same bytes.

  ops        tile.ops.softmax: the split path (cross_entropy_partial.mlir,
             then softmax_normalize.mlir) above 16 x 32768 columns;
  online     online_softmax.mlir, the cost model's choice (one row per
             program, each row read twice);
  cluster    online_softmax_cluster.mlir tuned (top 32) in a cache of its
             own: a row per cluster, each program walking its chunk twice,
             the second time from L2;
  cluster-model
             online_softmax_cluster.mlir, the cost model's choice;
  grid-model softmax_grid.mlir (each row split over every program of one
             wave, statistics combined by tile.grid_reduce, the row read
             once), the cost model's choice;
  grid-B-W-P[-S] softmax_grid.mlir with BLOCK_SIZE=B, NUM_WARPS=W,
             MIN_BLOCKS_PER_SM=P and NUM_STAGES=S (--grid-configs);
  rows4-B-W-P-S
             bench/softmax_grid_rows4.mlir (four rows a grid exchange),
             --rows4-configs;
  grid       softmax_grid.mlir tuned (top 32), unless --skip-tune;
  torch      torch.softmax(x, dim=1);
  copy       y.copy_(x).

Every output is checked against float64 first; then all are timed in
rounds as bench/issue27_interleaved.py times them (CUDA events, L2 flushed
before each launch, the launch order rotated each round), and each case's
record (median ms, GB/s of 2 x M x N elements, the configurations) is
printed as one JSON line.

  python3 bench/long_rows_bench.py [--shapes 64x1048576,...] [--dtypes f32,bf16]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from issue27_interleaved import time_rounds, TOLERANCE  # noqa: E402

SHAPES = "64x1048576,32x1048576,128x1048576,16x2097152,100x777777,256x262144"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=SHAPES)
    parser.add_argument("--dtypes", default="f32,bf16")
    parser.add_argument("--reps", type=int, default=40)
    parser.add_argument("--top", type=int, default=32)
    parser.add_argument("--caps", default="16:8:8:4096,16:8:16:4096,16:4:16:4096,8:16:16:4096",
                        help="CLUSTER:GRID_CAP:NUM_WARPS:BLOCK_SIZE,... of online_softmax_cluster "
                        "on a capped grid")
    parser.add_argument("--skip-tune", action="store_true")
    parser.add_argument("--rows4-configs", default="",
                        help="BLOCK_SIZE:NUM_WARPS:MIN_BLOCKS_PER_SM:NUM_STAGES,... of "
                             "bench/softmax_grid_rows4.mlir (four rows a grid exchange)")
    parser.add_argument("--grid-configs", default="1024:4:4,2048:4:4,2048:8:2,4096:8:1,4096:4:2,8192:8:1",
                        help="BLOCK_SIZE:NUM_WARPS:MIN_BLOCKS_PER_SM[:NUM_STAGES],... of "
                             "softmax_grid")
    parser.add_argument("--no-cluster", action="store_true",
                        help="leave out online_softmax_cluster (model, tuned and capped)")
    args = parser.parse_args()
    args.caps = [tuple(int(v) for v in c.split(":")) for c in args.caps.split(",") if c]
    args.grid_configs = [tuple(int(v) for v in c.split(":"))
                         for c in args.grid_configs.split(",") if c]
    args.rows4_configs = [tuple(int(v) for v in c.split(":"))
                          for c in args.rows4_configs.split(",") if c]
    import torch
    import tile
    import tile.ops
    root = os.environ.get("TILE_KERNELS_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    work = tempfile.mkdtemp(prefix="long-rows-")
    flush = torch.empty(256 * 1024 * 1024 // 4, device="cuda", dtype=torch.float32)
    tdtypes = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    for dtype in args.dtypes.split(","):
        for shape in args.shapes.split(","):
            m, n = (int(v) for v in shape.split("x"))
            record = {"dtype": dtype, "m": m, "n": n, "ok": True}
            try:
                run(torch, tile, record, root, work, dtype, m, n, tdtypes[dtype], flush, args)
            except Exception as error:  # noqa: BLE001 - record and go on
                record["ok"] = False
                record["error"] = "%s: %s" % (type(error).__name__, str(error)[:400])
            print(json.dumps(record), flush=True)
            torch.cuda.empty_cache()
    return 0


def run(torch, tile, record, root, work, dtype, m, n, tdtype, flush, args):
    torch.manual_seed(0)
    x = torch.rand(m, n, device="cuda", dtype=torch.float32).mul_(8).sub_(4).to(tdtype)
    scalars = (x.stride(0), x.stride(0), m, n)
    grid = "persistent:%d" % m
    launches, configs = {}, {}

    def add_kernel(name, kernel, tune=False, grid=grid):
        y = torch.empty_like(x)
        if tune:
            start = time.time()
            kernel.tune(grid, y, x, *scalars, top=args.top)
            record["tune_s_" + name] = round(time.time() - start, 2)
        launcher = kernel[grid]
        launcher(y, x, *scalars)
        torch.cuda.synchronize()
        configs[name] = str(kernel.prepare(y, x, *scalars, grid=grid).config)
        launches[name] = (lambda: launcher(y, x, *scalars), y)

    # The grid kernel on every program of one wave (not capped by the rows).
    grid_path = os.path.join(root, "softmax_grid.mlir")
    add_kernel("grid-model", tile.load(grid_path, DTYPE=dtype, cache_dir=os.path.join(work, "model"),
                                       tuning="defaults"), grid="persistent")
    # Each configuration on every program that fits, and (-cap) on no more
    # programs than hold a block of the row: the others would hold nothing,
    # yet every program takes part in every exchange, whose cost grows with
    # the programs.
    for config in args.grid_configs:
        block, warps, per_sm = config[:3]
        stages = {"NUM_STAGES": config[3]} if len(config) > 3 else {}
        kernel = tile.load(grid_path, DTYPE=dtype, BLOCK_SIZE=block, NUM_WARPS=warps,
                           MIN_BLOCKS_PER_SM=per_sm, tuning="defaults",
                           cache_dir=os.path.join(work, "model"), **stages)
        name = "grid-" + "-".join(str(v) for v in config)
        add_kernel(name, kernel, grid="persistent")
        add_kernel(name + "-cap", kernel, grid="persistent:%d" % -(-n // block))
    # bench/softmax_grid_rows4.mlir: four rows a grid exchange.
    rows4_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "softmax_grid_rows4.mlir")
    for config in args.rows4_configs:
        block, warps, per_sm, stages = config
        kernel = tile.load(rows4_path, DTYPE=dtype, BLOCK_SIZE=block, NUM_WARPS=warps,
                           MIN_BLOCKS_PER_SM=per_sm, NUM_STAGES=stages, tuning="defaults",
                           cache_dir=os.path.join(work, "model"))
        name = "rows4-" + "-".join(str(v) for v in config)
        add_kernel(name, kernel, grid="persistent")
        add_kernel(name + "-cap", kernel, grid="persistent:%d" % -(-n // block))
    if not args.skip_tune:
        add_kernel("grid", tile.load(grid_path, DTYPE=dtype, cache_dir=os.path.join(work, "tuned"),
                                     tuning_databases=False), tune=True, grid="persistent")

    y_ops = tile.ops.softmax(x)
    launches["ops"] = (lambda: tile.ops.softmax(x), y_ops)
    add_kernel("online", tile.load(os.path.join(root, "online_softmax.mlir"), DTYPE=dtype,
                                   cache_dir=os.path.join(work, "model"), tuning="defaults"))
    cluster = cluster_path = os.path.join(root, "online_softmax_cluster.mlir")
    caps = [] if args.no_cluster else args.caps
    if not args.no_cluster:
        add_kernel("cluster-model", tile.load(cluster, DTYPE=dtype,
                                              cache_dir=os.path.join(work, "model"),
                                              tuning="defaults"))
    if not args.skip_tune and not args.no_cluster:
        add_kernel("cluster", tile.load(cluster, DTYPE=dtype, cache_dir=os.path.join(work, "tuned"),
                                        tuning_databases=False), tune=True)
    # The cluster kernel on fewer clusters than fit: with one program per
    # SM, the rows in flight (and the bytes between a chunk's two reads)
    # fit in L2 (grid caps count clusters).
    for cluster, cap, warps, block in caps:
        name = "cluster%d-cap%d-w%d-b%d" % (cluster, cap, warps, block)
        kernel = tile.load(cluster_path, DTYPE=dtype, CLUSTER=cluster, NUM_WARPS=warps,
                           BLOCK_SIZE=block, tuning="defaults",
                           cache_dir=os.path.join(work, "model"))
        y = torch.empty_like(x)
        capped = "persistent:%d" % min(cap, m)
        launcher = kernel[capped]
        launcher(y, x, *scalars)
        torch.cuda.synchronize()
        configs[name] = str(kernel.prepare(y, x, *scalars, grid=capped).config)
        launches[name] = (lambda launcher=launcher, y=y: launcher(y, x, *scalars), y)
    launches["torch"] = (lambda: torch.softmax(x, dim=1), torch.softmax(x, dim=1))
    y_copy = torch.empty_like(x)
    launches["copy"] = (lambda: y_copy.copy_(x), None)

    ref = torch.softmax(x.double(), dim=1)
    errors = {}
    for name, (_, y) in launches.items():
        if y is None:
            continue
        error = ((y.double() - ref).abs() - TOLERANCE[dtype] * ref.abs() - 1e-6).max().item()
        errors[name] = float("%.3g" % error)
        if error > 0:
            record["ok"] = False
    record["excess_error"] = errors
    del ref
    names = list(launches)
    for i in range(3):
        for name in names:
            launches[name][0]()
    times = time_rounds(torch, names, launches, flush, args.reps)
    nbytes = 2 * m * n * x.element_size()
    record["ms"], record["gbps"] = {}, {}
    for name in names:
        median = statistics.median(times[name])
        record["ms"][name] = round(median, 4)
        record["gbps"][name] = round(nbytes / (median * 1e-3) / 1e9, 1)
    record["of_copy"] = {name: round(record["ms"]["copy"] / record["ms"][name], 3) for name in names}
    record["config"] = configs


if __name__ == "__main__":
    sys.exit(main())
