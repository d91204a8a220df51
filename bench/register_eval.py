#!/usr/bin/env python3
"""How far the register estimate (tile/Analysis/RegisterEstimate.h, through
the cost model) is from ptxas, over the configurations a tune log timed.

Runs on this machine (no GPU): reads a tune log of bench/tune_sweep.py
(tile-run --tune's tables give each timed configuration's registers as
ptxas allocated them on the GPU), asks `tile-runner-test model` for the
model's estimate of each at the same launch, and prints, per kernel, the
ratio of ptxas's count to the estimate (by dtype and NUM_STAGES), how often
the estimate promises more blocks per SM than ptxas's registers allow (the
occupancy, and so a persistent grid's size, overestimated), and the worst
cases.

  python3 bench/register_eval.py TUNE.log[.xz] [--tool PATH] [--worst N]
"""
import argparse
import collections
import lzma
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_eval import COMMAND, LINE, kernels_for  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW = re.compile(r"^\s*\d+\s+[0-9.]+ ms\s+(\d+) regs\s+(\S+)\.mlir: (.*?)(\s+\(checked\))?$")
MODEL = re.compile(r"(\d+) regs, (\d+) threads, (\d+) per SM")


def logged(path):
    """(dtype, M, N, {label: ptxas registers}) per launch of the log."""
    opener = lzma.open if path.endswith(".xz") else open
    launch = None
    with opener(path, "rt") as lines:
        for line in lines:
            command = COMMAND.match(line)
            if command:
                if launch:
                    yield launch
                launch = (command.group(1), int(command.group(2)), int(command.group(3)), {})
                continue
            row = ROW.match(line.rstrip())
            if launch and row:
                launch[3][row.group(2) + ": " + row.group(3).strip()] = int(row.group(1))
    if launch:
        yield launch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "tile-runner-test"))
    parser.add_argument("--worst", type=int, default=5)
    args = parser.parse_args()
    cases = collections.defaultdict(list)
    for dtype, m, n, registers in logged(args.log):
        files = ",".join(os.path.join(ROOT, "examples", k + ".mlir") for k in kernels_for(n))
        spec = "%s[%dx%d]" % (dtype, m, n)
        out = subprocess.run(
            [args.tool, "model", files, "-D", "DTYPE=" + dtype, "--grid", "persistent:%d" % m,
             spec + "=zeros", spec + "=zeros", "i32=%d" % n, "i32=%d" % n, "i32=%d" % m,
             "i32=%d" % n], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            match, model = LINE.match(line), MODEL.search(line)
            if not match or not model:
                continue
            label = match.group(1) + ": " + match.group(2)
            if label in registers:
                cases[match.group(1)].append(dict(
                    actual=registers[label], estimate=int(model.group(1)),
                    threads=int(model.group(2)), blocks=int(model.group(3)),
                    label=label, dtype=dtype, n=n,
                    stages=(re.search(r"NUM_STAGES=(\d+)", label) or [0, "-"])[1]))
    print("| kernel | configurations | ptxas / estimate: min | median | max | "
          "occupancy overestimated | median by dtype, stages |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for kernel, rows in sorted(cases.items()):
        ratios = sorted(r["actual"] / r["estimate"] for r in rows)
        over = 0
        for r in rows:
            allocated = (r["actual"] + 7) // 8 * 8
            fits = min(2048 // r["threads"], 65536 // (allocated * r["threads"]), 32)
            over += fits < r["blocks"]
        groups = collections.defaultdict(list)
        for r in rows:
            groups[(r["dtype"], r["stages"])].append(r["actual"] / r["estimate"])
        by = ", ".join("%s/%s %.2f" % (d, s, sorted(v)[len(v) // 2])
                       for (d, s), v in sorted(groups.items()))
        print("| %s | %d | %.2f | %.2f | %.2f | %d | %s |" % (
            kernel, len(rows), ratios[0], ratios[len(ratios) // 2], ratios[-1], over, by))
    print()
    for kernel, rows in sorted(cases.items()):
        for r in sorted(rows, key=lambda r: -r["actual"] / r["estimate"])[:args.worst]:
            print("- %s %s N=%d: ptxas %d, estimate %d (%d per SM by the estimate)" % (
                kernel, r["dtype"], r["n"], r["actual"], r["estimate"], r["blocks"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
