#!/usr/bin/env python3
"""The softmax sweep, tuned: tile against torch.softmax and Triton.

Runs on the GPU machine (the device tool), from the repository root, with
the GPU bundle of scripts/build-gpu-bundle.sh in dist/tile-gpu:

  python3 bench/tune_sweep.py tile     [--dtypes f32,f16,bf16] [--shapes ...] [--and-tune]
  python3 bench/tune_sweep.py tune     [--dtypes ...] [--shapes ...] [--tune-top N]
  python3 bench/tune_sweep.py exhaust  [--dtypes ...] [--shapes ...]
  python3 bench/tune_sweep.py baseline [--dtypes ...] [--shapes ...]
  python3 bench/tune_sweep.py untuned  [--dtypes ...] [--shapes ...]
  python3 bench/tune_sweep.py report   RESULTS.jsonl... --out PREFIX

Every phase gives tile-run the three softmax kernels as variants of one
launch (examples/softmax_rows.mlir, softmax.mlir, online_softmax.mlir), with
a persistent grid; a kernel that cannot take the shape (rows longer than its
largest block) has no admissible configuration.

exhaust   `tile-run --tune-all` per shape: every configuration the launch
          admits, pruning none, each timed over 50 runs in one run; from
          the same measurements, the configuration the pruned tuner would
          choose (the fastest it keeps) against the fastest of all.
tune      `tile-run --tune --bench` per shape: the pruned search, the
          fastest checked against the interpreter, the winner run and timed
          again with --bench.
tile      exhaust per shape, and with --and-tune then tune (which finds the
          exhaustive search's kernels in the compile cache). Without a tune
          record, report takes a shape's tuned figure from the exhaustive
          run (the pruned tuner's choice, at its time there).
baseline  torch.softmax (alone with --torch-only) and Triton's kernels (seed 001's fused kernel over
          num_warps in 4, 8, 16, 32 and num_stages in 1, 4, for rows of up
          to 32768 floats; for rows of 4096 and more, seed 004's online
          kernel with BLOCK 4096 at 8 and 16 warps and 8192 at 16: a
          superset of the configurations that won in the trial run,
          bench/results/2026-11-23-h100-tuning-trial-baseline.jsonl),
          each checked against float64 and timed the way tile-run --bench
          times (CUDA events, L2 flushed before each of 100 runs, median).
untuned   `tile-run --no-tuning-cache --no-tuning-database --bench` per
          shape: what a launch runs with no tuning cache and no tuning
          database (the cost model's choice), and its speed.
database  `tile-run --bench` per shape with a tuning cache that holds only
          the tuning database --database FILE, imported (with --database
          shipped, nothing: the databases built into tile-run): what a
          launch runs on a machine that never tuned, given that database.
report    Joins the results into a CSV and a plot (GB/s against N, log
          axis, one line per implementation, the copy bandwidth as a
          horizontal line) and prints the tables docs/performance.md uses.

Each phase appends one JSON object per line to $OUT/<phase>.jsonl and logs
what it ran to stdout. GB/s counts 2 x M x N x element size per run.
"""
import argparse
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUNDLE = os.environ.get("TILE_BUNDLE", os.path.join(ROOT, "dist", "tile-gpu"))
WORK = os.environ.get("TILE_GPU_WORK", "/tmp/tile-sweep")
OUT = os.environ.get("OUT", os.path.join(ROOT, "sweep-results"))
# The input tile-run makes (randn:0; uniform:0 is made several times faster
# on the host, which counts at rows of 256K and 512K elements).
INIT = os.environ.get("TILE_SWEEP_INIT", "randn:0")

# Seed 001's sweep (M = 4096), seed 004's (M = 1024), and column counts
# between powers of two, among them rows between 16K and 32K floats.
SEED_001 = [(4096, n) for n in (256, 512, 768, 1024, 2048, 3072, 4096, 6144,
                                8192, 12288, 16384)]
SEED_004 = [(1024, n) for n in (256, 1024, 4096, 16384, 32768, 65536,
                                131072)]
BETWEEN = [(4096, 1500), (4096, 5000), (4096, 10000), (1024, 20000),
           (1024, 24000), (1024, 30000), (1024, 50000), (1024, 100000)]
SHAPES = SEED_001 + SEED_004 + BETWEEN
KERNELS = ("softmax_rows", "softmax", "online_softmax")
# The cluster kernel splits a row over several SMs: it only pays where a row
# is long (16384 floats or more), and its space is large, so the sweep gives
# it as a variant from there on (--kernels overrides both).
CLUSTER_KERNEL = "softmax_cluster"
CLUSTER_FROM = 16384


def kernels_for(args, n):
    if args.kernels:
        return args.kernels
    return KERNELS + ((CLUSTER_KERNEL,) if n >= CLUSTER_FROM else ())
# The exhaustive search times each configuration over 50 runs (after 5
# warm-up runs), not --bench's 100, to fit the device time of a session.
EXHAUST_BENCH = ["--bench-reps", "50", "--bench-warmup", "5"]
# --bench-reps for the tune phase (0: tile-run's default, 100).
BENCH_REPS = 0
# --tune-top for the tune phase (0: every configuration pruning keeps).
TUNE_TOP = 0
COPY_GBPS = 3000.0  # the H100's device-to-device copy, bench/results


def element_size(dtype):
    return 4 if dtype == "f32" else 2


def gbps(m, n, dtype, ms):
    return 2 * m * n * element_size(dtype) / (ms * 1e-3) / 1e9


def parse_shapes(text):
    if not text:
        return SHAPES
    return [tuple(int(v) for v in item.split("x")) for item in text.split(",")]


def tile_run():
    """The bundle's tile-run, unpacked once."""
    path = os.path.join(WORK, "bin", "tile-run")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with lzma.open(os.path.join(BUNDLE, "bin", "tile-run.xz")) as src, \
                open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.chmod(path, 0o755)
    return path


def launch_args(kernels, dtype, m, n):
    spec = "%s[%dx%d]" % (dtype, m, n)
    return [os.path.join(BUNDLE, "src", "examples", kernel + ".mlir")
            for kernel in kernels] + [
            "--target=cuda", "-D", "DTYPE=" + dtype,
            "--grid", "persistent:%d" % m,
            "--arg", spec + "=zeros", "--arg", spec + "=" + INIT,
            "--arg", "i32=%d" % n, "--arg", "i32=%d" % n,
            "--arg", "i32=%d" % m, "--arg", "i32=%d" % n]


TABLE_ROW = re.compile(
    r"^ +(\d+) +([0-9.]+) ms +(\d+) regs  (.*?)(?:  \(spills: (\d+) bytes per thread\))?(  \(timed once: [^)]*\))?(?:  \(pruned: ([a-z ]+)\))?(?:  \(finalist: [^)]*\))?(?:  \(checked\))?$")
BENCH = re.compile(r"^bench: median ([0-9.]+) ms")
HEADER = re.compile(r"^tune: (\d+) configurations, (\d+) compiled, (\d+) timed, in ([0-9.]+) s")


def run_tile(kernels, dtype, m, n, extra, log, cache="cache"):
    command = [tile_run()] + launch_args(kernels, dtype, m, n) + extra
    env = dict(os.environ, TILE_CACHE_DIR=os.path.join(WORK, cache))
    start = time.time()
    result = subprocess.run(command, env=env, capture_output=True, text=True,
                            timeout=900)
    log.write("$ tile-run %s\n" % " ".join(command[1:]))
    log.write(result.stdout)
    # The progress lines are many; keep the errors.
    log.write("".join(line + "\n" for line in result.stderr.splitlines()
                      if not line.startswith("tune: [")))
    log.write("(exit %d, %.1f s)\n\n" % (result.returncode, time.time() - start))
    log.flush()
    return result


def parse_table(stdout):
    rows = []
    header = None
    for line in stdout.splitlines():
        match = HEADER.match(line)
        if match:
            header = dict(configurations=int(match.group(1)),
                          compiled=int(match.group(2)),
                          timed=int(match.group(3)),
                          seconds=float(match.group(4)))
            continue
        match = TABLE_ROW.match(line)
        if match:
            label = match.group(4)
            kernel, _, config = label.rpartition(": ")
            rows.append(dict(ms=float(match.group(2)),
                             regs=int(match.group(3)),
                             kernel=kernel.replace(".mlir", ""),
                             config=config,
                             spills=int(match.group(5) or 0),
                             once=bool(match.group(6)),
                             pruned=match.group(7) or ""))
    return header, rows


def emit(out, record):
    out.write(json.dumps(record) + "\n")
    out.flush()
    print(json.dumps(record), flush=True)


def tune_shape(kernels, dtype, m, n, log, out):
    """One tile-run --tune --bench, choosing among the kernels."""
    reps = ["--bench-reps", str(BENCH_REPS), "--bench-warmup", "5"] if BENCH_REPS else []
    top = ["--tune-top", str(TUNE_TOP)]
    start = time.time()
    result = run_tile(kernels, dtype, m, n, ["--tune", "--bench"] + reps + top, log)
    wall = time.time() - start
    record = dict(phase="tune", dtype=dtype, M=m, N=n, top=TUNE_TOP,
                  wall_seconds=wall)
    header, rows = parse_table(result.stdout)
    bench = [b for b in map(BENCH.match, result.stdout.splitlines()) if b]
    if result.returncode != 0 or not bench or not rows:
        lines = result.stderr.strip().splitlines() or ["?"]
        record.update(ok=False, reason=lines[-1][:300])
    else:
        ms = float(bench[0].group(1))
        per_kernel = {}
        for row in rows:
            per_kernel.setdefault(row["kernel"], row)
        record.update(ok=True, ms=ms, gbps=gbps(m, n, dtype, ms),
                      kernel=rows[0]["kernel"], config=rows[0]["config"],
                      tune_ms=rows[0]["ms"], search=header,
                      per_kernel={k: dict(ms=r["ms"], config=r["config"])
                                  for k, r in per_kernel.items()})
    emit(out, record)


def exhaust_shape(kernels, dtype, m, n, log, out):
    """Every configuration of the kernels, pruning none, in one run: the
    pruned tuner's choice (the fastest it keeps) against the fastest."""
    result = run_tile(kernels, dtype, m, n,
                      ["--tune-all", "--no-tuning-cache"] + EXHAUST_BENCH, log)
    header, rows = parse_table(result.stdout)
    record = dict(phase="exhaust", dtype=dtype, M=m, N=n)
    if not rows:
        record.update(ok=False)
    else:
        # Those timed once were over 3x the fastest: never the best.
        best = min(rows, key=lambda r: r["ms"])
        kept = [r for r in rows if not r["pruned"]]
        chosen = min(kept, key=lambda r: r["ms"]) if kept else None
        record.update(ok=True, best_ms=best["ms"],
                      best_config=best["kernel"] + ": " + best["config"],
                      chosen_ms=chosen["ms"] if chosen else None,
                      chosen_config=(chosen["kernel"] + ": " + chosen["config"])
                      if chosen else None,
                      configurations=len(rows), kept=len(kept), search=header,
                      times={r["kernel"] + ": " + r["config"]: r["ms"]
                             for r in rows})
    emit(out, record)


def phase_untuned(args, log, out, phase="untuned"):
    if phase == "database":
        # A tuning cache of its own that holds nothing but the database,
        # imported: what a launch finds on a machine that never tuned.
        cache = os.path.join(WORK, "database-cache")
        shutil.rmtree(cache, ignore_errors=True)
        # "shipped": no import; the database built into tile-run.
        result = subprocess.CompletedProcess([], 0, "", "") \
            if args.database == "shipped" else subprocess.run(
            [tile_run(), "--tune-import", args.database],
            env=dict(os.environ, TILE_CACHE_DIR=cache), capture_output=True,
            text=True)
        log.write("$ tile-run --tune-import %s\n%s%s(exit %d)\n\n" % (
            args.database, result.stdout, result.stderr, result.returncode))
        if result.returncode != 0:
            sys.exit("--tune-import failed: " + result.stderr)
    for dtype in args.dtypes:
        for m, n in args.shapes:
            if phase == "database":
                result = run_tile(kernels_for(args, n), dtype, m, n,
                                  ["--bench"], log, cache="database-cache")
            else:
                result = run_tile(kernels_for(args, n), dtype, m, n,
                                  ["--no-tuning-cache", "--no-tuning-database",
                                   "--bench"], log)
            record = dict(phase=phase, dtype=dtype, M=m, N=n)
            bench = [b for b in map(BENCH.match, result.stdout.splitlines()) if b]
            if result.returncode != 0 or not bench:
                lines = result.stderr.strip().splitlines() or ["?"]
                record.update(ok=False, reason=lines[-1][:300])
            else:
                ms = float(bench[0].group(1))
                chosen = [line for line in result.stdout.splitlines()
                          if line.startswith(("variant:", "fitted:", "model:",
                                              "tuned:"))]
                record.update(ok=True, ms=ms, gbps=gbps(m, n, dtype, ms),
                              chosen=chosen)
            emit(out, record)


def phase_tune(args, log, out):
    for dtype in args.dtypes:
        for m, n in args.shapes:
            tune_shape(kernels_for(args, n), dtype, m, n, log, out)


def phase_exhaust(args, log, out):
    for dtype in args.dtypes:
        for m, n in args.shapes:
            exhaust_shape(kernels_for(args, n), dtype, m, n, log, out)


def phase_tile(args, log, out):
    """Per shape, exhaust, and with --and-tune then tune: the tuner finds
    the exhaustive search's kernels in the compile cache and only times."""
    for dtype in args.dtypes:
        for m, n in args.shapes:
            exhaust_shape(kernels_for(args, n), dtype, m, n, log, out)
            if args.and_tune:
                tune_shape(kernels_for(args, n), dtype, m, n, log, out)


def phase_baseline(args, log, out):
    import torch
    import triton

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from triton_softmax import fused_kernel, online_kernel

    props = torch.cuda.get_device_properties(0)
    flush = torch.empty(2 * props.L2_cache_size // 4, dtype=torch.int32,
                        device="cuda")
    torch_dtype = {"f32": torch.float32, "f16": torch.float16,
                   "bf16": torch.bfloat16}
    tolerance = {"f32": 1e-5, "f16": 2e-3, "bf16": 1.6e-2}

    def time_it(fn):
        for _ in range(10):
            fn()
        events = []
        for i in range(100):
            flush.fill_(i)
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            events.append((start, end))
        torch.cuda.synchronize()
        ms = sorted(s.elapsed_time(e) for s, e in events)
        return (ms[49] + ms[50]) / 2

    for dtype in args.dtypes:
        for m, n in args.shapes:
            torch.manual_seed(0)
            x = torch.randn(m, n, device="cuda", dtype=torch_dtype[dtype])
            ref = torch.softmax(x.double(), dim=1)

            def record(impl, fn, config="", timed=None):
                y = torch.empty_like(x)
                try:
                    fn(y)
                    torch.cuda.synchronize()
                except Exception as error:  # out of resources, say
                    line = dict(phase="baseline", dtype=dtype, M=m, N=n,
                                impl=impl, config=config, ok=False,
                                reason=str(error).splitlines()[0][:200])
                    out.write(json.dumps(line) + "\n")
                    return
                error = ((y.double() - ref).abs() /
                         (ref.abs() + 1e-30)).max().item()
                ok = error <= tolerance[dtype] * 10 or torch.allclose(
                    y.double(), ref, rtol=tolerance[dtype], atol=1e-6)
                ms = time_it(timed or (lambda: fn(y)))
                line = dict(phase="baseline", dtype=dtype, M=m, N=n, impl=impl,
                            config=config, ok=bool(ok), ms=ms,
                            gbps=gbps(m, n, dtype, ms), max_rel_error=error)
                out.write(json.dumps(line) + "\n")
                out.flush()
                print(json.dumps(line), flush=True)

            # Checked through a copy; timed alone, as a program calls it.
            record("torch.softmax", lambda y: y.copy_(torch.softmax(x, dim=1)),
                   timed=lambda: torch.softmax(x, dim=1))
            if args.torch_only:
                continue
            block = triton.next_power_of_2(n)
            grid = (min(props.multi_processor_count * 4, m),)
            # A whole row of more than 32768 floats in one block: out of
            # shared memory with stages, and 4-6x slower than the online
            # kernel without (the trial's 131072 columns).
            for warps in (4, 8, 16, 32) if block <= 32768 else ():
                for stages in (1, 4):
                    record("Triton fused", lambda y, w=warps, s=stages:
                           fused_kernel[grid](y, x, x.stride(0), y.stride(0),
                                              m, n, BLOCK_SIZE=block,
                                              num_stages=s, num_warps=w),
                           "num_warps=%d num_stages=%d" % (warps, stages))
            if n >= 4096:
                for tile, warps in ((4096, 8), (4096, 16), (8192, 16)):
                    record("Triton online", lambda y, b=tile, w=warps:
                           online_kernel[(m,)](y, x, x.stride(0),
                                               y.stride(0), n,
                                               BLOCK_SIZE=b, num_warps=w),
                           "BLOCK=%d num_warps=%d" % (tile, warps))
            del x, ref
            torch.cuda.empty_cache()


def phase_report(args):
    records = []
    for path in args.results:
        with open(path) as f:
            records += [json.loads(line) for line in f if line.strip()]
    best = {}  # (dtype, M, N, impl) -> (gbps, config)

    def offer(key, value, config):
        if key not in best or value > best[key][0]:
            best[key] = (value, config)

    exhaust = []
    for r in records:
        key = (r["dtype"], r["M"], r["N"])
        if r["phase"] == "tune" and r.get("ok"):
            offer(key + ("tile (tuned)",), r["gbps"], r["kernel"] + ": " + r["config"])
        elif r["phase"] == "baseline" and r.get("ok"):
            impl = "torch.softmax" if r["impl"] == "torch.softmax" else "Triton (best)"
            offer(key + (impl,), r["gbps"], (r["impl"] + " " + r["config"]).strip())
        elif r["phase"] == "exhaust" and r.get("ok"):
            exhaust.append(r)
    # Without a --tune run of its own, a shape's tuned figure is the pruned
    # tuner's choice in the exhaustive run: the fastest configuration the
    # pruned search keeps, at its time there.
    for r in exhaust:
        key = (r["dtype"], r["M"], r["N"], "tile (tuned)")
        if key not in best and r.get("chosen_ms"):
            offer(key, gbps(r["M"], r["N"], r["dtype"], r["chosen_ms"]),
                  r["chosen_config"])
    tuned = {(r["dtype"], r["M"], r["N"]): r["kernel"] + ": " + r["config"]
             for r in records if r["phase"] == "tune" and r.get("ok")}
    shapes = sorted({k[:3] for k in best})
    impls = ["tile (tuned)", "torch.softmax", "Triton (best)"]
    with open(args.out + ".csv", "w") as f:
        f.write("dtype,M,N,impl,gbps,of_copy,config\n")
        for key in shapes:
            for impl in impls:
                if key + (impl,) in best:
                    value, config = best[key + (impl,)]
                    f.write('%s,%d,%d,%s,%.1f,%.3f,"%s"\n' % (
                        key[0], key[1], key[2], impl, value, value / COPY_GBPS, config))
    # The table: per shape, tile against the others.
    print("| dtype | M | N | tile GB/s | of copy | torch | Triton | tile / torch | tile / Triton | tile's choice |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for key in shapes:
        tile = best.get(key + ("tile (tuned)",))
        torch_ = best.get(key + ("torch.softmax",))
        triton_ = best.get(key + ("Triton (best)",))
        if not tile:
            continue
        print("| %s | %d | %d | %.0f | %.0f%% | %s | %s | %s | %s | %s |" % (
            key[0], key[1], key[2], tile[0], 100 * tile[0] / COPY_GBPS,
            "%.0f" % torch_[0] if torch_ else "-",
            "%.0f" % triton_[0] if triton_ else "-",
            "%.2f" % (tile[0] / torch_[0]) if torch_ else "-",
            "%.2f" % (tile[0] / triton_[0]) if triton_ else "-", tile[1]))
    if exhaust:
        print()
        # "kept / best": the fastest configuration the pruned search keeps
        # against the fastest of all, in the exhaustive run's times; "tuned
        # / best": the configuration --tune chose in its own run, at its
        # time in the exhaustive run.
        print("| dtype | M | N | configurations | kept | best (ms) | kept / best | tuned's choice | tuned / best |")
        print("| --- | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: |")
        for r in sorted(exhaust, key=lambda r: (r["dtype"], r["M"], r["N"])):
            key = (r["dtype"], r["M"], r["N"])
            ratio = r["chosen_ms"] / r["best_ms"] if r.get("chosen_ms") else float("nan")
            choice = tuned.get(key)
            tuned_ms = r.get("times", {}).get(choice) if choice else None
            print("| %s | %d | %d | %d | %d | %.4f (%s) | %.3f | %s | %s |" % (
                r["dtype"], r["M"], r["N"], r["configurations"], r["kept"],
                r["best_ms"], r["best_config"], ratio, choice or "-",
                "%.3f" % (tuned_ms / r["best_ms"]) if tuned_ms else "-"))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no plot", file=sys.stderr)
        return
    panels = sorted({(k[0], k[1]) for k in shapes})
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4.2),
                             squeeze=False)
    for ax, (dtype, m) in zip(axes[0], panels):
        for impl, style in zip(impls, ("o-", "s--", "^:")):
            points = sorted((k[2], best[k + (impl,)][0]) for k in shapes
                            if k[0] == dtype and k[1] == m and k + (impl,) in best)
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], style,
                        label=impl, markersize=4)
        ax.axhline(COPY_GBPS, color="gray", linewidth=1,
                   label="copy bandwidth (%.0f GB/s)" % COPY_GBPS)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("N (columns)")
        ax.set_ylabel("GB/s")
        ax.set_title("softmax, %s, M = %d" % (dtype, m))
        ax.set_ylim(0, COPY_GBPS * 1.1)
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out + ".png", dpi=120)
    print("wrote %s.csv and %s.png" % (args.out, args.out))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("phase", choices=["tile", "tune", "exhaust", "baseline",
                                          "untuned", "database", "report"])
    parser.add_argument("results", nargs="*")
    parser.add_argument("--dtypes", default="f32,f16,bf16")
    parser.add_argument("--shapes", default="")
    parser.add_argument("--and-tune", action="store_true")
    parser.add_argument("--bench-reps", type=int, default=0,
                        help="timed runs per configuration in the tune phase")
    parser.add_argument("--tune-top", type=int, default=0,
                        help="the tune phase times only the cost model's N "
                        "first configurations of each kernel")
    parser.add_argument("--torch-only", action="store_true",
                        help="baseline: torch.softmax only, not Triton")
    parser.add_argument("--database", default="",
                        help="database: the tuning database to import")
    parser.add_argument("--kernels", default="",
                        help="comma-separated kernel names (examples/NAME.mlir)")
    parser.add_argument("--out", default=os.path.join(OUT, "sweep"))
    args = parser.parse_args()
    args.dtypes = args.dtypes.split(",")
    args.shapes = parse_shapes(args.shapes)
    args.kernels = tuple(k for k in args.kernels.split(",") if k)
    global BENCH_REPS, TUNE_TOP
    BENCH_REPS = args.bench_reps
    TUNE_TOP = args.tune_top
    if args.phase == "report":
        phase_report(args)
        return
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, args.phase + ".log"), "a") as log, \
            open(os.path.join(OUT, args.phase + ".jsonl"), "a") as out:
        {"tile": phase_tile, "tune": phase_tune, "exhaust": phase_exhaust,
         "baseline": phase_baseline,
         "untuned": phase_untuned,
         "database": lambda a, l, o: phase_untuned(a, l, o, "database")}[
             args.phase](args, log, out)


if __name__ == "__main__":
    main()
