#!/usr/bin/env python3
"""How much of a difference between two softmax configurations is the
timing harness's: run 36 timed one configuration in two slots of
bench/issue27_interleaved.py (bf16 4096 x 16384: tuned and database, the
same configuration) 4% apart, and the tuner's own timings (consecutive
launches of one configuration, L2 flushed before each) ordered
configurations differently from the harness at 1024 x 50000-100000.

Per shape, some configurations (each also in a duplicate slot, "NAME'",
the same configuration with its own output buffer) and a copy are timed
under three conditions, each in rounds with the slots' order rotated,
L2 flushed (a write of twice its size) before every timed launch:

  separate   one launch per slot per round, each slot writing its own
             output, the GPU kept busy by a sleep while the host issues
             (issue27_interleaved.py's method);
  shared     the same, but every slot writes one output buffer;
  blocks     each slot runs BLOCK launches in a row per round (each timed,
             flushed before), one output buffer: the tuner's and
             triton.testing.do_bench's condition, a configuration timed in
             steady state.

Prints one JSON record per shape: each condition's median ms per slot,
and each slot's configuration as its launch runs it (the waves included).
A slot whose waves are "all" launches one cluster (or program) per row;
the others take the persistent grid's waves from the cost model (one,
before Python passed a launch's cap to the choice).

  python3 bench/timing_conditions.py [--cases run37a|run37b]

run37a: run 36's tuned, untuned, database and exhaustive choices at seven
shapes; run37b (the default): run 36's tuned choices at 1024 x 50000 and
1024 x 100000 on all waves and on the persistent grid.
"""
import argparse
import json
import os
import statistics
import sys

SLEEP_CYCLES = 100000
RUN37B = [
    # Run 36's tuned launches took waves=all from the tuning cache (a
    # program per row, clusters x rows): the same configurations on all
    # waves and on the persistent grid.
    ("f32", 1024, 50000, {
        "tuned": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=8192 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=3", "all"),
        "tuned-1": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=8192 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=3"),
        "exhaustive": ("softmax_cluster", "CLUSTER=16 BLOCK_SIZE=4096 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=1", "all"),
        "exhaustive-1": ("softmax_cluster", "CLUSTER=16 BLOCK_SIZE=4096 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=1")}),
    ("f16", 1024, 100000, {
        "tuned": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=16384 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=3", "all"),
        "tuned-1": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=16384 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=3"),
        "exhaustive": ("softmax_cluster", "CLUSTER=16 BLOCK_SIZE=8192 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=2")}),
]
RUN37A = [
    # dtype, M, N, {slot: (file, defines)}
    ("f32", 1024, 50000, {
        "tuned": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=8192 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=3"),
        "exhaustive": ("softmax_cluster", "CLUSTER=16 BLOCK_SIZE=4096 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=1"),
        "untuned": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=8192 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=4")}),
    ("f16", 1024, 100000, {
        "tuned": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=16384 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=3"),
        "exhaustive": ("softmax_cluster", "CLUSTER=16 BLOCK_SIZE=8192 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=2"),
        "untuned": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=16384 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=2")}),
    ("bf16", 1024, 100000, {
        "tuned": ("softmax_cluster", "CLUSTER=16 BLOCK_SIZE=8192 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=2"),
        "untuned": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=16384 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=2"),
        "database": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=16384 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=3")}),
    ("f32", 1024, 100000, {
        "tuned": ("softmax_cluster", "CLUSTER=16 BLOCK_SIZE=8192 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=1"),
        "untuned": ("softmax_cluster", "CLUSTER=8 BLOCK_SIZE=16384 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=2")}),
    ("bf16", 4096, 16384, {
        "tuned": ("softmax_cluster", "CLUSTER=4 BLOCK_SIZE=4096 NUM_STAGES=1 NUM_WARPS=4 MIN_BLOCKS_PER_SM=1"),
        "untuned": ("softmax_cluster", "CLUSTER=4 BLOCK_SIZE=4096 NUM_STAGES=2 NUM_WARPS=4 MIN_BLOCKS_PER_SM=4")}),
    ("bf16", 4096, 1500, {
        "tuned": ("softmax_rows", "ROWS=2 BLOCK_SIZE=2048 NUM_STAGES=2 NUM_WARPS=4"),
        "untuned": ("softmax_rows", "ROWS=4 BLOCK_SIZE=2048 NUM_STAGES=2 NUM_WARPS=4"),
        "database": ("softmax", "BLOCK_SIZE=2048 NUM_STAGES=2 NUM_WARPS=4")}),
    ("f16", 1024, 1024, {
        "tuned": ("softmax_rows", "ROWS=1 BLOCK_SIZE=1024 NUM_STAGES=2 NUM_WARPS=4"),
        "untuned": ("softmax_rows", "ROWS=1 BLOCK_SIZE=1024 NUM_STAGES=2 NUM_WARPS=2"),
        "database": ("softmax", "BLOCK_SIZE=1024 NUM_STAGES=2 NUM_WARPS=8")}),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", choices=("run37a", "run37b"), default="run37b")
    cases = RUN37A if parser.parse_args().cases == "run37a" else RUN37B
    import torch
    import tile
    root = os.environ.get("TILE_KERNELS_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    tdtypes = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    props = torch.cuda.get_device_properties(0)
    flush = torch.empty(2 * props.L2_cache_size // 4, dtype=torch.int32, device="cuda")
    for dtype, m, n, slots in cases:
        torch.manual_seed(0)
        x = torch.rand(m, n, device="cuda").mul_(2).sub_(1).to(tdtypes[dtype])
        scalars = (x.stride(0), x.stride(0), m, n)
        grid = "persistent:%d" % m
        shared = torch.empty_like(x)
        launchers, configs = {}, {}
        for name, (file, defines, *waves) in slots.items():
            params = dict(d.split("=") for d in defines.split())
            params = {k: int(v) for k, v in params.items()}
            kernel = tile.load(os.path.join(root, file + ".mlir"), DTYPE=dtype, tuning="defaults",
                               **params)
            # waves "all": one cluster per row.
            g = m * params.get("CLUSTER", 1) if waves == ["all"] else grid
            launchers[name] = kernel[g]
            launchers[name + "'"] = kernel[g]
            configs[name] = "%s: %s" % (file, kernel.prepare(
                shared, x, *scalars, grid=g if isinstance(g, str) else None).config)
        outputs = {name: torch.empty_like(x) for name in launchers}
        outputs["copy"] = torch.empty_like(x)
        names = list(launchers) + ["copy"]

        def launch(name, y):
            if name == "copy":
                y.copy_(x)
            else:
                launchers[name](y, x, *scalars)

        for name in names:
            launch(name, outputs[name])
        torch.cuda.synchronize()
        record = {"dtype": dtype, "m": m, "n": n,
                  "configs": configs}
        rounds = 60 if m * n * x.element_size() > 64 << 20 else 200
        for condition in ("separate", "shared", "blocks"):
            events = {name: [] for name in names}
            block = 10 if condition == "blocks" else 1
            for r in range(rounds // block):
                for name in names[r % len(names):] + names[:r % len(names)]:
                    y = outputs[name] if condition == "separate" else shared
                    if condition != "blocks":
                        torch.cuda._sleep(SLEEP_CYCLES)
                    for _ in range(block):
                        flush.fill_(r)
                        start = torch.cuda.Event(enable_timing=True)
                        end = torch.cuda.Event(enable_timing=True)
                        start.record()
                        launch(name, y)
                        end.record()
                        events[name].append((start, end))
            torch.cuda.synchronize()
            record[condition] = {
                name: round(statistics.median(s.elapsed_time(e) for s, e in pairs), 5)
                for name, pairs in events.items()}
        print(json.dumps(record), flush=True)
        x = shared = outputs = None
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
