#!/usr/bin/env python3
"""How well the cost model (include/tile/Runtime/CostModel.h) ranks the
softmax kernels' configurations, against exhaustive measurements on the GPU.

Runs on this machine (no GPU): for each shape of the exhaustive runs given
(bench/tune_sweep.py exhaust: every configuration of the variants timed in
one run), asks `tile-runner-test model` for the model's estimate of every
configuration of the same variants at the same launch, joins the two by
label, and prints per shape, as ratios to the fastest measured
configuration:

  model   the configuration the model ranks first (what a launch with no
          tuning cache runs);
  top K   the fastest measured among the model's K first (what a search
          that times only those would find), for K = 8, 16, 32, 64, 128;
  fitted  with --untuned, the configuration the defaults fitted to the
          launch ran before the model (read from an untuned run of
          bench/tune_sweep.py: its variant and fitted parameters, one wave).

  python3 bench/model_eval.py EXHAUST.jsonl[.xz]... [--untuned UNTUNED.jsonl]
                              [--tool PATH] [--memory KHZ:BITS]

An interleaved sweep's jsonl (bench/issue27_interleaved.py) serves as well:
the configurations each shape's tune timed stand for its space.

A configuration measured but not modeled (a kernel's parameters changed
since the run) is left out of both sides; the older cluster kernel, which
had no MIN_BLOCKS_PER_SM, is matched at MIN_BLOCKS_PER_SM=1.
"""

import argparse
import functools
import json
import lzma
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPS = (8, 16, 32, 64, 128)
LINE = re.compile(r"^(\S+): (.*?): (spills .*|([0-9.]+) us .*)$")


def kernels_for(n):
    """The variants bench/tune_sweep.py gives a launch of N columns."""
    return ["softmax_rows", "softmax", "online_softmax"] + (
        ["softmax_cluster"] if n >= 16384 else [])


COMMAND = re.compile(r"^\$ tile-run .* -D DTYPE=(\w+) .*--arg \w+\[(\d+)x(\d+)\]=")


def tune_log_records(lines):
    """The configurations a tune log (bench/tune_sweep.py tune's tile-run
    --tune output) timed, per launch, as exhaust records: a subset of each
    space (those the tuner's order reached), the fastest of which is the
    "fastest measured"."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from tune_sweep import TABLE_ROW
    record = None
    for line in lines:
        command = COMMAND.match(line)
        if command:
            if record and record["times"]:
                yield record
            record = dict(phase="exhaust", ok=True, dtype=command.group(1),
                          M=int(command.group(2)), N=int(command.group(3)),
                          times={})
            continue
        row = TABLE_ROW.match(line)
        if record is not None and row and not row.group(6):
            record["times"][row.group(4).replace(".mlir", "")] = float(
                row.group(2))
    if record and record["times"]:
        yield record


def interleaved_record(record):
    """The configurations Kernel.tune timed in a shape of
    bench/issue27_interleaved.py (its tune_report), as an exhaust record."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from tune_sweep import TABLE_ROW
    times = {}
    for line in record["tune_report"].splitlines():
        row = TABLE_ROW.match(line)
        if row and not row.group(6):
            times[row.group(4).replace(".mlir", "")] = float(row.group(2))
    return dict(phase="exhaust", ok=True, dtype=record["dtype"],
                M=record["M"], N=record["N"], times=times)


def records(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as lines:
        if ".log" in path:
            yield from tune_log_records(lines)
            return
        for line in lines:
            record = json.loads(line)
            if record.get("kind") == "shape" and record.get("tune_report"):
                yield interleaved_record(record)
            elif record.get("phase") == "exhaust" and record.get("ok"):
                yield record


@functools.total_ordering
class Rank:
    """A configuration's place in the model's order, as isRankedBefore
    (CostModel.cpp) compares two."""

    def __init__(self, us, guaranteed, alone, resident):
        self.key = (us, guaranteed, alone, resident)

    def __eq__(self, other):
        return self.key == other.key

    def __lt__(self, other):
        us, guaranteed, alone, resident = self.key
        o_us, o_guaranteed, o_alone, o_resident = other.key
        if us != o_us:
            return us < o_us
        if guaranteed != o_guaranteed:
            return guaranteed > o_guaranteed
        if alone and o_alone and alone != o_alone:
            return alone < o_alone
        return resident > o_resident


MEMORY = []  # --memory=KHZ:BITS for tile-runner-test model, where given


def estimates(tool, dtype, m, n):
    """The model's estimate of each configuration, in microseconds
    (infinite where it spills), by label."""
    files = ",".join(os.path.join(ROOT, "examples", k + ".mlir")
                     for k in kernels_for(n))
    spec = "%s[%dx%d]" % (dtype, m, n)
    command = [tool, "model", files, "-D", "DTYPE=" + dtype,
               "--grid", "persistent:%d" % m, spec + "=zeros", spec + "=zeros",
               "i32=%d" % n, "i32=%d" % n, "i32=%d" % m, "i32=%d" % n] + MEMORY
    out = subprocess.run(command, capture_output=True, text=True,
                         check=True).stdout
    result = {}
    for line in out.splitlines():
        match = LINE.match(line)
        if match:
            us = float(match.group(4)) if match.group(4) else math.inf
            # As isRankedBefore (CostModel.h) orders equal estimates: more
            # blocks per SM guaranteed by MIN_BLOCKS_PER_SM first.
            asked = re.search(r"MIN_BLOCKS_PER_SM=(\d+)", match.group(2))
            fits = re.search(r"(\d+) per SM", line)
            regs = re.search(r"(\d+) regs, (\d+) threads", line)
            guaranteed = min(int(asked.group(1)) if asked else 1,
                             int(fits.group(1)) if fits else 1)
            # Then more threads resident per SM (132: the H100's SMs, on
            # which every run read here was timed).
            programs = re.search(r"(\d+) programs\)", line)
            resident = 0.0
            if regs and fits and programs:
                count = int(programs.group(1))
                resident = (1.0 if count <= 132 else
                            min(float(fits.group(1)), count / 132.0)) * int(regs.group(2))
            # Of two programs each alone on its SM, the one of fewer threads.
            alone = int(regs.group(2)) if regs and fits and fits.group(1) == "1" else 0
            result[match.group(1) + ": " + match.group(2)] = Rank(
                us, guaranteed, alone, resident)
    return result


# The declared defaults of the variants, in declaration order, as the
# untuned runs of bench/tune_sweep.py ran them before the model.
DEFAULTS = {
    "softmax_rows": [("ROWS", "4"), ("BLOCK_SIZE", "256"), ("NUM_STAGES", "2"),
                     ("NUM_WARPS", "4")],
    "softmax": [("BLOCK_SIZE", "1024"), ("NUM_STAGES", "2"), ("NUM_WARPS", "4")],
    "online_softmax": [("BLOCK_SIZE", "4096"), ("NUM_STAGES", "2"),
                       ("NUM_WARPS", "16")],
}


def fitted_labels(path):
    """(dtype, M, N) -> the label of the configuration an untuned run ran."""
    labels = {}
    for line in open(path):
        if not line.startswith("{"):
            continue
        record = json.loads(line)
        if not record.get("ok"):
            continue
        variant = re.search(r"examples/(\w+)\.mlir", record["chosen"][0]).group(1)
        values = dict(DEFAULTS[variant])
        for note in record["chosen"][1:]:
            found = re.search(r"running with (.*)$", note)
            if found:
                values.update(kv.split("=") for kv in found.group(1).split())
        labels[(record["dtype"], record["M"], record["N"])] = (
            variant + ": " + " ".join("%s=%s" % (k, values[k])
                                      for k, _ in DEFAULTS[variant])
            + " waves=1")
    return labels


def modeled_label(label, model):
    if label in model:
        return label
    if label.startswith("softmax_cluster"):
        if " waves=" in label:
            other = label.replace(" waves=", " MIN_BLOCKS_PER_SM=1 waves=")
        else:
            other = label + " MIN_BLOCKS_PER_SM=1"
        if other in model:
            return other
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--untuned", default=None)
    parser.add_argument("--tool", default=os.path.join(
        ROOT, "build", "bin", "tile-runner-test"))
    parser.add_argument("--memory", default=None, metavar="KHZ:BITS",
                        help="model a GPU whose memory runs at KHZ over BITS "
                        "(GpuModel::fromDevice; the H200: 3201000:6016), "
                        "not the H100")
    args = parser.parse_args()
    if args.memory:
        MEMORY.append("--memory=" + args.memory)
    fitted = fitted_labels(args.untuned) if args.untuned else {}
    print("| dtype | M x N | configurations | fitted | model | "
          + " | ".join("top %d" % k for k in TOPS) + " | model's choice |")
    print("| --- | --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in TOPS)
          + " | --- |")
    worst = {"fitted": [], "model": [], **{k: [] for k in TOPS}}
    untimed = []
    for path in args.results:
        for record in records(path):
            dtype, m, n = record["dtype"], record["M"], record["N"]
            model = estimates(args.tool, dtype, m, n)
            joined = []
            for label, ms in record["times"].items():
                modeled = modeled_label(label, model)
                if modeled is not None:
                    # Ties keep the label order: independent of the times.
                    joined.append((model[modeled], modeled, ms))
            if not joined:
                continue
            best = min(ms for _, _, ms in joined)
            joined.sort(key=lambda row: (row[0], row[1]))  # estimate, rank, label
            # Where only some configurations were timed (a tune's table), the
            # model's first of all may be none of them: "model" is then its
            # first among those timed, and the shape is counted.
            first = min(model, key=lambda label: (model[label], label))
            if first != joined[0][1]:
                untimed.append("%s %dx%d: %s" % (dtype, m, n, first))
            ratios = {"model": joined[0][2] / best}
            label = fitted.get((dtype, m, n))
            times = {modeled: ms for _, modeled, ms in joined}
            if label in times:
                ratios["fitted"] = times[label] / best
            for k in TOPS:
                ratios[k] = min(ms for _, _, ms in joined[:k]) / best
            for key, value in ratios.items():
                worst[key].append(value)
            print("| %s | %d x %d | %d | %s | %.3f | %s | %s |" % (
                dtype, m, n, len(joined),
                "%.3f" % ratios["fitted"] if "fitted" in ratios else "-",
                ratios["model"],
                " | ".join("%.3f" % ratios[k] for k in TOPS), joined[0][1]))
    print()
    for key, values in worst.items():
        if not values:
            continue
        geo = math.exp(sum(math.log(v) for v in values) / len(values))
        within = sum(1 for v in values if v <= 1.02)
        print("%-6s worst %.3f, geometric mean %.3f, within 2%% of the "
              "fastest at %d of %d shapes" % (
                  key if isinstance(key, str) else "top %d" % key,
                  max(values), geo, within, len(values)))
    if untimed:
        print("the model's first choice was not timed at %d shapes "
              "(\"model\" is its first among those timed there):" % len(untimed))
        for line in untimed:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
