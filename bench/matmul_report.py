#!/usr/bin/env python3
"""A table of bench/matmul_bench.py logs: per dtype and M x N x K, torch.matmul's
TFLOPS, Triton's best and tile's best (with and without --tma), each as a
ratio to torch.matmul measured in the same run (bench/matmul_plot.py draws
the same logs as an SVG).

  python3 bench/matmul_report.py LOG...

Every ratio is the log's own (the bench times torch.matmul beside each shape,
L2 flushed as for tile); nothing is measured here.
"""

import argparse
import re
import sys

# torch.matmul, or for the 8-bit floats torch._scaled_mm (cuBLAS's fp8).
SHAPE = re.compile(r"^(\w+) (\d+)x(\d+)x(\d+): torch.(?:matmul|_scaled_mm) ([0-9.]+) ms, ([0-9.]+) TFLOPS")
TRITON = re.compile(r"^  triton \(best: ([^)]*)\): ([0-9.]+) ms, ([0-9.]+) TFLOPS, ([0-9.]+) of")
# matmul_bench --verify puts "[matches: ...]" or "[WRONG: ...]" after the
# configuration (and --c-dtype "C TYPE" before it).
TILE = re.compile(r"^  (tile(?:\+tma)?|persistent) (\S+ \d+ warps \d+ stages(?: C \w+)?)"
                  r"(?: \[(matches|WRONG)[^\]]*\])?: ([0-9.]+) ms, "
                  r"([0-9.]+) TFLOPS, ([0-9.]+) of")


def parse(paths):
    """{(dtype, m, n, k): {"torch": tflops, "triton": (tflops, ratio, cfg),
    "tile": (...), "tile+tma": (...)}}, the best of each kind."""
    shapes = {}
    for path in paths:
        current = None
        with open(path) as lines:
            for line in lines:
                shape = SHAPE.match(line)
                if shape:
                    key = (shape.group(1), int(shape.group(2)),
                           int(shape.group(3)), int(shape.group(4)))
                    current = shapes.setdefault(key, {})
                    current["torch"] = float(shape.group(6))
                    continue
                if current is None:
                    continue
                triton = TRITON.match(line)
                if triton:
                    current["triton"] = (float(triton.group(3)),
                                         float(triton.group(4)), triton.group(1))
                    continue
                tile = TILE.match(line)
                if tile:
                    kind = tile.group(1)
                    entry = (float(tile.group(5)), float(tile.group(6)),
                             tile.group(2))
                    if tile.group(3):
                        current.setdefault("verdicts", []).append(
                            tile.group(3))
                    if kind not in current or entry[0] > current[kind][0]:
                        current[kind] = entry
    return shapes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args()
    shapes = parse(args.logs)
    if not shapes:
        print("no matmul_bench results in " + ", ".join(args.logs))
        return 1

    def cell(entry):
        return "%.1f (%.3f)" % entry[:2] if entry else "-"

    persistent = any("persistent" in row for row in shapes.values())
    print("| dtype | M x N x K | torch TFLOPS | Triton best | tile best | "
          "tile+tma best | tile+tma's configuration |"
          + (" persistent best | its configuration |" if persistent else ""))
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |"
          + (" ---: | --- |" if persistent else ""))
    for (dtype, m, n, k), row in sorted(shapes.items()):
        tma = row.get("tile+tma")
        line = "| %s | %d x %d x %d | %.1f | %s | %s | %s | %s |" % (
            dtype, m, n, k, row["torch"], cell(row.get("triton")),
            cell(row.get("tile")), cell(tma), tma[2] if tma else "-")
        if persistent:
            kept = row.get("persistent")
            line += " %s | %s |" % (cell(kept), kept[2] if kept else "-")
        print(line)
    print()
    print("(TFLOPS, and in parentheses the ratio to torch.matmul in the "
          "same run; the best of the configurations each log timed.)")
    verdicts = [v for row in shapes.values() for v in row.get("verdicts", [])]
    if verdicts:
        print()
        print("tile runs checked against torch's float32 product "
              "(matmul_bench --verify): %d matched, %d WRONG" % (
                  verdicts.count("matches"), verdicts.count("WRONG")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
