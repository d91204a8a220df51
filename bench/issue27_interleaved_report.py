#!/usr/bin/env python3
"""The report of bench/issue27_interleaved.py's records: a table per shape
and the issue's counts.

  python3 bench/issue27_interleaved_report.py RECORDS.jsonl[.xz]... [--title T]

A later record of a (dtype, M, N) replaces an earlier one (a rerun). Each
ratio compares two launches timed in turn in the same process (their
medians): untuned / tuned and untuned / torch are speeds (above 1: the
untuned launch is faster); database / tuned likewise, counted only where
the launch took a record of a database (the shipped one, or one imported
with --database; elsewhere no database had a record for the bucket and the
model chose); exhaustive is the tuned
launch's speed over the exhaustive search's winner's, where it ran.
"""

import argparse
import json
import lzma
import statistics


def load(paths):
    shapes = {}
    header = None
    for path in paths:
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rt") as f:
            for line in f:
                if not line.strip():
                    continue
                record = json.loads(line)
                if record["kind"] == "header":
                    header = header or record
                else:
                    shapes[(record["dtype"], record["M"], record["N"])] = record
    return header, shapes


def summary(name, values, bars):
    if not values:
        return "%s: no shapes" % name
    worst = min(values, key=lambda v: v[0])
    counts = ", ".join("at least %.2f at %d" % (bar, sum(v >= bar for v, _ in values))
                       for bar in bars)
    return "%s: worst %.3f (%s), %s of %d shapes" % (name, worst[0], worst[1], counts,
                                                     len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    header, shapes = load(args.records)
    if args.title:
        print("# " + args.title + "\n")
    if header:
        print("%s, torch %s, %s; the model's 32 first timed by the tuner (top=%s).\n" % (
            header["device"], header["torch"], header["tile"], header["top"]))
    print("| dtype | M | N | tuned us | untuned / tuned | torch us | untuned / torch "
          "| copy us | untuned / copy | database / tuned | exhaustive | tune s "
          "| untuned's choice |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: | --- |")
    untuned_tuned, untuned_torch, database_tuned, exhaustive, tune_s = [], [], [], [], []
    # --slot-controls: one kernel in two slots, and two kernels on one output.
    same_kernel, same_output = [], []
    failed = []
    for key in sorted(shapes, key=lambda k: (["f32", "f16", "bf16"].index(k[0]), -k[1], k[2])):
        record = shapes[key]
        label = "%s %dx%d" % key
        if "ms" not in record:
            failed.append("%s: %s" % (label, record.get("error", "no timings")))
            continue
        if not record["ok"]:
            failed.append("%s: a result differs from float64 (%s)" % (
                label, record.get("max_rel_error")))
        ms = record["ms"]
        ut = ms["tuned"] / ms["untuned"]
        uo = ms["torch"] / ms["untuned"]
        untuned_tuned.append((ut, label))
        untuned_torch.append((uo, label))
        from_database = any("shipped tuning database" in line or
                            "imported tuning database" in line
                            for line in record["source"].get("database", []))
        dt = ms["tuned"] / ms["database"]
        if from_database:
            database_tuned.append((dt, label))
        ex = ""
        if "exhaustive" in ms:
            value = ms["exhaustive"] / ms["tuned"]
            exhaustive.append((value, label))
            ex = "%.3f" % value
        # Agreement of two timings (the smaller ratio of the two ways).
        agree = lambda a, b: min(a / b, b / a)  # noqa: E731
        if "database@2" in ms:
            same_kernel.append((agree(ms["database@2"], ms["database"]), label))
        if "tuned@database_y" in ms:
            same_output.append((agree(ms["tuned@database_y"], ms["tuned"]), label))
        tune_s.append(record["tune_s"])
        print("| %s | %d | %d | %.1f | %.3f | %.1f | %.3f | %.1f | %.3f | %s | %s | %.1f | %s |" % (
            key[0], key[1], key[2], ms["tuned"] * 1e3, ut, ms["torch"] * 1e3, uo,
            ms["copy"] * 1e3, ms["copy"] / ms["untuned"],
            "%.3f" % dt if from_database else "(%.3f, model)" % dt, ex,
            record["tune_s"], record["config"]["untuned"]))
    print()
    print(summary("untuned / tuned", untuned_tuned, (0.90, 0.98, 1.00)))
    print(summary("untuned / torch.softmax", untuned_torch, (0.98, 1.00)))
    print(summary("database / tuned (shapes with a database record)", database_tuned,
                  (0.98, 1.00)))
    print(summary("tuned (top 32) / exhaustive", exhaustive, (0.98, 1.00)))
    if same_kernel:
        print(summary("slot controls: the database's kernel timed in two slots "
                      "(the two times' agreement)", same_kernel, (0.98, 0.99)))
        print(summary("slot controls: the tuned kernel on its own output and on the "
                      "database launch's (agreement)", same_output, (0.98, 0.99)))
    if tune_s:
        print("tune (Kernel.tune, top 32, in process): median %.1f s, longest %.1f s, over %d shapes"
              % (statistics.median(tune_s), max(tune_s), len(tune_s)))
    for line in failed:
        print("FAILED " + line)


if __name__ == "__main__":
    main()
