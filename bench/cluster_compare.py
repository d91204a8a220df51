#!/usr/bin/env python3
"""softmax_cluster from two GPU bundles, side by side, on long rows.

Runs on the GPU machine from the repository root:

  python3 bench/cluster_compare.py OLD_BUNDLE NEW_BUNDLE [--dtypes f32,f16,bf16]

For each shape (M = 1024 rows of 32768, 65536 and 131072 f32 elements and
M = 256 of 262144, and rows of the same byte sizes in f16 and bf16) and each
configuration of a small grid (clusters of 4, 8 and 16, the block the
smallest power of two that covers a row's slice, 4, 8 and 16 warps, one
stage, a cluster per row), runs `tile-run --bench` with each bundle's
tile-run and examples/softmax_cluster.mlir, the two bundles interleaved,
then prints per shape each bundle's best time and the ratio of the best
times (old / new: above 1 means the new bundle is faster). GB/s counts
2 x M x N x element size per run. The input is zeros (the time does not
depend on the values, and random data for a 512 MiB input takes longer to
make than the runs); tune_sweep.py measures on random data, checked.
"""
import argparse
import lzma
import os
import re
import shutil
import subprocess
import sys

SHAPES = {
    "f32": [(1024, 32768), (1024, 65536), (1024, 131072), (256, 262144)],
    "f16": [(1024, 65536), (1024, 131072), (1024, 262144), (256, 524288)],
    "bf16": [(1024, 65536), (1024, 131072), (1024, 262144), (256, 524288)],
}
SIZE = {"f32": 4, "f16": 2, "bf16": 2}
BENCH = re.compile(r"^bench: median ([0-9.]+) ms")


def unpack(bundle, work):
    os.makedirs(work, exist_ok=True)
    run = os.path.join(work, "tile-run")
    with lzma.open(os.path.join(bundle, "bin", "tile-run.xz")) as src, \
            open(run, "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.chmod(run, 0o755)
    return run


def configs(n):
    for cluster in (4, 8, 16):
        block = 1
        while block * cluster < n:
            block *= 2
        if block > 32768 or block < 1024:
            continue
        for warps in (4, 8, 16):
            yield {"CLUSTER": cluster, "BLOCK_SIZE": block,
                   "NUM_WARPS": warps, "NUM_STAGES": 1, "waves": "all"}


def bench(run, bundle, work, dtype, m, n, config, reps):
    args = [run, os.path.join(bundle, "src", "examples", "softmax_cluster.mlir"),
            "--target=cuda", "--grid", "persistent:%d" % m,
            "--bench", "--bench-reps", str(reps), "--no-tuning-cache"]
    for name, value in config.items():
        if name == "waves":
            args += ["--waves", value]
        else:
            args += ["-D", "%s=%s" % (name, value)]
    if dtype != "f32":
        args += ["-D", "DTYPE=" + dtype]
    args += ["--arg", "%s[%dx%d]=zeros" % (dtype, m, n),
             "--arg", "%s[%dx%d]=zeros" % (dtype, m, n)]
    args += ["--arg", "i32=%d" % n] * 2 + ["--arg", "i32=%d" % m,
                                           "--arg", "i32=%d" % n]
    env = dict(os.environ, TILE_CACHE_DIR=os.path.join(work, "cache"))
    result = subprocess.run(args, capture_output=True, text=True, env=env,
                            timeout=120)
    for line in result.stdout.splitlines():
        match = BENCH.match(line)
        if match:
            return float(match.group(1))
    sys.stdout.write("    failed: %s\n%s%s" % (" ".join(args), result.stdout,
                                               result.stderr))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--dtypes", default="f32,f16,bf16")
    parser.add_argument("--reps", type=int, default=50)
    args = parser.parse_args()
    work = os.environ.get("TILE_GPU_WORK", "/tmp/tile-cluster-compare")
    runs = {}
    for name in ("old", "new"):
        bundle = getattr(args, name)
        runs[name] = unpack(bundle, os.path.join(work, name))
        with open(os.path.join(bundle, "MANIFEST")) as f:
            print("== %s: %s, %s" % (name, bundle, f.read().splitlines()[1]))
    summary = []
    for dtype in args.dtypes.split(","):
        for m, n in SHAPES[dtype]:
            best = {"old": None, "new": None}
            for config in configs(n):
                text = " ".join("%s=%s" % item for item in config.items())
                times = {}
                for name in ("old", "new"):
                    times[name] = bench(runs[name], getattr(args, name),
                                        os.path.join(work, name), dtype, m, n,
                                        config, args.reps)
                    if times[name] is not None and (
                            best[name] is None or times[name] < best[name][0]):
                        best[name] = (times[name], text)
                print("%-4s %5d %7d  %-48s old %s  new %s" % (
                    dtype, m, n, text,
                    "%.4f ms" % times["old"] if times["old"] else "failed",
                    "%.4f ms" % times["new"] if times["new"] else "failed"),
                    flush=True)
            summary.append((dtype, m, n, best))
    print("\n== best per shape (GB/s: 2 x M x N x element size per run)")
    print("%-4s %5s %7s  %10s %10s %7s  %s" % ("type", "M", "N", "old GB/s",
                                              "new GB/s", "old/new",
                                              "new's configuration"))
    for dtype, m, n, best in summary:
        if not best["old"] or not best["new"]:
            print("%-4s %5d %7d  (a bundle failed every configuration)" % (
                dtype, m, n))
            continue
        gbps = {name: 2 * m * n * SIZE[dtype] / (best[name][0] * 1e6)
                for name in best}
        print("%-4s %5d %7d  %10.1f %10.1f %7.3f  %s" % (
            dtype, m, n, gbps["old"], gbps["new"],
            best["old"][0] / best["new"][0], best["new"][1]))


if __name__ == "__main__":
    main()
