#!/usr/bin/env python3
"""Issue 27's figures from the records of bench/issue27_gpu_run.sh.

  python3 bench/issue27_report.py DIR...

Reads untuned.jsonl, tune.jsonl, baseline.jsonl and database.jsonl from
each DIR (one device run each; a shape's figures are compared only with
figures of the same run) and prints, per shape, the GB/s of the launch with
no stored choice (the cost model's), of the tuned choice (tile-run --tune
--tune-top N, then --bench), of torch.softmax, and of the launch that finds
the tuned choice in a tuning database; their ratios; and the tuner's wall
time. Then the summary the issue asks for: the worst ratios, and the median
search time.
"""
import json
import os
import statistics
import sys


def load(path):
    if not os.path.exists(path):
        return []
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def main():
    rows = {}
    for run, directory in enumerate(sys.argv[1:]):
        for phase in ("untuned", "tune", "baseline", "database"):
            for r in load(os.path.join(directory, phase + ".jsonl")):
                if not r.get("ok"):
                    continue
                if phase == "baseline" and r.get("impl") != "torch.softmax":
                    continue
                key = (r["dtype"], r["M"], r["N"])
                rows.setdefault((run,) + key, {})[phase] = r
    print("| run | dtype | M | N | untuned GB/s | tuned GB/s | untuned / tuned "
          "| torch GB/s | untuned / torch | database / tuned | tune s | the model's choice |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    ratios = {"untuned / tuned": [], "untuned / torch": [],
              "database / tuned": []}
    seconds = []

    def ratio(a, b, name):
        if a is None or b is None:
            return "-"
        ratios[name].append((a / b, key))
        return "%.3f" % (a / b)

    for key in sorted(rows, key=lambda k: (k[1], k[0], k[2], k[3])):
        phases = rows[key]
        untuned = phases.get("untuned", {}).get("gbps")
        tuned = phases.get("tune", {}).get("gbps")
        torch = phases.get("baseline", {}).get("gbps")
        database = phases.get("database", {}).get("gbps")
        wall = phases.get("tune", {}).get("wall_seconds")
        if wall is not None:
            seconds.append(wall)
        chosen = [c for c in phases.get("untuned", {}).get("chosen", [])
                  if c.startswith("model:")]
        choice = chosen[0][len("model: "):].split(" (estimated")[0] if chosen else "-"
        fmt = lambda v: "%.0f" % v if v is not None else "-"
        print("| %d | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            key[0], key[1], key[2], key[3], fmt(untuned), fmt(tuned),
            ratio(untuned, tuned, "untuned / tuned"), fmt(torch),
            ratio(untuned, torch, "untuned / torch"),
            ratio(database, tuned, "database / tuned"),
            "%.1f" % wall if wall is not None else "-",
            choice.replace("|", "/")))
    print()
    for name, values in ratios.items():
        if not values:
            continue
        worst = min(values)
        print("%s: worst %.3f (%s %dx%d), at least 0.90 at %d of %d shapes, "
              "at least 0.98 at %d, at least 1.00 at %d" % (
                  name, worst[0], worst[1][1], worst[1][2], worst[1][3],
                  sum(v >= 0.90 for v, _ in values), len(values),
                  sum(v >= 0.98 for v, _ in values),
                  sum(v >= 1.0 for v, _ in values)))
    if seconds:
        print("tune: median %.1f s per shape, longest %.1f s, over %d shapes" % (
            statistics.median(seconds), max(seconds), len(seconds)))


if __name__ == "__main__":
    main()
