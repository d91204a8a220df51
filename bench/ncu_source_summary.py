#!/usr/bin/env python3
"""Where a kernel's warps wait, from Nsight Compute's source page.

    bench/ncu_source_summary.py SOURCE.csv[.xz] [--top N]

SOURCE.csv is `ncu -i REPORT --page source --csv --print-source sass` of a
report taken with the SourceCounters and WarpStateStats sections (as
bench/ncu_matmul.sh --source and bench/ncu_grid.sh take them). Prints the
warp-state samples of the whole kernel by stall reason, by SASS opcode
(the instruction a warp was stalled at: a load's consumer for long
scoreboard stalls, the barrier for barrier stalls, the poll's load for a
poll loop's), and the N instructions with the most samples, each with its
leading reasons.
"""
import argparse
import collections
import csv
import io
import lzma
import sys


def read_rows(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", newline="") as f:
        text = f.read()
    lines = text.splitlines()
    # The first line names the kernel ("Kernel Name","NAME",); the header
    # follows.
    start = next((i for i, line in enumerate(lines) if line.startswith('"Address"')), None)
    if start is None:
        sys.exit("%s: no source page (no line of column names)" % path)
    return list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def opcode(source):
    words = source.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].rstrip(",;") if words else "?"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args(argv)
    rows = read_rows(args.csv)
    if not rows:
        sys.exit("%s: no instructions" % args.csv)
    reasons = [c for c in rows[0] if c.startswith("stall_") and "(Not Issued)" not in c]
    total = sum(number(r["Warp Stall Sampling (All Samples)"]) for r in rows)
    if total == 0:
        sys.exit("%s: no warp-state samples (was WarpStateStats collected?)" % args.csv)
    print("%s: %d SASS instructions, %d samples" % (args.csv, len(rows), total))

    by_reason = collections.Counter()
    for r in rows:
        for reason in reasons:
            by_reason[reason] += number(r[reason])
    print("\nby stall reason:")
    for reason, samples in by_reason.most_common():
        if samples:
            print("  %-24s %8d  %5.1f%%" % (reason, samples, 100 * samples / total))

    by_opcode = collections.Counter()
    for r in rows:
        by_opcode[opcode(r["Source"])] += number(r["Warp Stall Sampling (All Samples)"])
    print("\nby opcode (the instruction a warp stalled at):")
    for name, samples in by_opcode.most_common(15):
        if samples:
            print("  %-28s %8d  %5.1f%%" % (name, samples, 100 * samples / total))

    print("\nthe %d instructions with the most samples:" % args.top)
    ranked = sorted(rows, key=lambda r: -number(r["Warp Stall Sampling (All Samples)"]))
    for r in ranked[:args.top]:
        samples = number(r["Warp Stall Sampling (All Samples)"])
        if not samples:
            break
        lead = sorted(((number(r[c]), c) for c in reasons), reverse=True)[:2]
        lead = ", ".join("%s %d" % (c[len("stall_"):], s) for s, c in lead if s)
        print("  %s %6d %5.1f%%  %-50s %s" % (
            r["Address"][-5:], samples, 100 * samples / total,
            r["Source"].strip()[:50], lead))


if __name__ == "__main__":
    main()
