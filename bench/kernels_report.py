#!/usr/bin/env python3
"""Issue 25's figures from bench/kernels_bench.py's records.

  python3 bench/kernels_report.py KERNELS.jsonl [--copy 2950]

Prints, per kernel, dtype and shape, the GB/s of tile, eager PyTorch and
torch.compile (the bytes each kernel must move over its median time), tile's
fraction of the copy bandwidth (--copy, GB/s: the H100's measured floor of
a large copy) and, where the record has one, of a copy of the same bytes
timed beside it (kernels_bench.py's `copy`: the floor at that size), and
marks with * a shape where tile is under 0.90 of the large copy although
N >= 4096 and M x N >= 2^24 (the issue's bar), with + one under 0.90 of
the same-bytes copy there, and with < one where tile is slower than
torch.compile. Then the counts.
"""
import argparse
import json


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("--copy", type=float, default=2950.0)
    args = parser.parse_args()
    rows = [json.loads(line) for line in open(args.records) if line.strip()]
    print("| kernel | dtype | M x N | tile GB/s | of copy | copy of the bytes GB/s "
          "| of it | eager | torch.compile | |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    bar, same_bar, compile_bar, failed = [], [], [], []
    for r in rows:
        shape = "%d x %d" % (r["M"], r["N"])
        if not r.get("ok"):
            failed.append(r)
            print("| %s | %s | %s | - | - | - | - | - | - | %s |" % (
                r["kernel"], r["dtype"], shape, r.get("reason", "")[:80]))
            continue
        fraction = r["tile_gbps"] / args.copy
        big = r["N"] >= 4096 and r["M"] * r["N"] >= 2 ** 24
        if big:
            bar.append(fraction >= 0.9)
        marks = "*" if big and fraction < 0.9 else ""
        same = r["tile_gbps"] / r["copy_gbps"] if "copy_gbps" in r else float("nan")
        if big and "copy_gbps" in r:
            same_bar.append(same >= 0.9)
            if same < 0.9:
                marks += "+"
        if "torch.compile_gbps" in r:
            compile_bar.append(r["tile_gbps"] >= r["torch.compile_gbps"])
            if r["tile_gbps"] < r["torch.compile_gbps"]:
                marks += "<"
        print("| %s | %s | %s | %.0f | %.2f | %.0f | %.2f | %.0f | %.0f | %s |" % (
            r["kernel"], r["dtype"], shape, r["tile_gbps"], fraction,
            r.get("copy_gbps", float("nan")), same,
            r.get("eager_gbps", float("nan")),
            r.get("torch.compile_gbps", float("nan")), marks))
    print()
    print("at least 0.90 of copy at %d of %d shapes with N >= 4096 and M x N >= 2^24"
          % (sum(bar), len(bar)))
    if same_bar:
        print("at least 0.90 of a copy of the same bytes (timed beside it) at %d of %d "
              "of those shapes" % (sum(same_bar), len(same_bar)))
    print("at least torch.compile at %d of %d shapes" % (sum(compile_bar), len(compile_bar)))
    print("refused: %d (%s)" % (len(failed), ", ".join(sorted(
        {"%s %dx%d" % (r["kernel"], r["M"], r["N"]) for r in failed}))))


if __name__ == "__main__":
    main()
