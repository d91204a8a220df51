#!/usr/bin/env python3
"""A shipped tuning database updated from a run's tunes, champion and
challenger: a record the run measured replaces the shipped one only where it
was faster by more than the noise.

bench/issue27_interleaved.py times, at each shape, the launch that takes
the shipped database's record (`database`) beside the run's own tune
(`tuned`), in one process, in turn, over hundreds of rounds, and exports the
tunes (--export). Shipping every new tune in place of the old record churns
the database by the tuner's own noise: at launches of 10-20 us the tuner's
finalists lie a few percent apart and its choice changes from run to run
(runs 55 and 56, docs/tuning.md), so each run's database misses the next
run's tune at a few shapes. Here a shipped record stays unless the run
timed the tune's choice faster than it by more than the noise of that
timing, which depends on the launch's length: in run 102, one
configuration timed in two slots came out up to 2.9% apart at launches
under 10 us and at most 1.4% (mostly under 0.8%) at longer ones. So the
margin is --short-margin (default 2%, issue 27's bar, 0.98 of tuned) where
the tune took under --short-us (10 us), and --margin (default 1%) at longer
launches. A bucket with no shipped record gets the tune's. A shipped record
the run did not measure against its tune (its shape failed, or the launch
did not take it) stays, unless --replace-unmeasured.

  python3 bench/tune_db_merge.py --shipped tuning/h100.txt \\
      --run RUN-f32.jsonl[.xz] ... --tuned RUN-tuned-f32.txt ... \\
      [--margin 0.01] [--short-margin 0.02] [--short-us 10] \\
      [--replace-unmeasured] --out NEW.txt

Entries are matched by their key (the `entry` line: the GPU, the kernels'
text, the fixed parameters and the shape bucket), shapes to entries by the
bucket the launch's message names (`... ms for f32[4096x2048] ...`) and
their DTYPE (the sweep's launches fix nothing else). Where
several shapes share a bucket, the geometric mean of their ratios decides,
against the margin of the shortest of their tunes.
The shipped file's header comments are kept (comments and blank lines
between records are skipped, as the library's reader skips them); what
changed is printed.
"""

import argparse
import json
import lzma
import math
import re
import sys

HEADER = "tile tuning database 1"


def read_database(path):
    """(comments, {key: lines}) of a tuning database, in file order."""
    comments, entries, key = [], {}, None
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != HEADER:
        raise SystemExit("%s: not a tuning database (no '%s' line)" % (path, HEADER))
    for line in lines[1:]:
        if line.startswith("entry "):
            key = line.split()[1]
            entries[key] = [line]
        elif key is None:
            comments.append(line)
        elif line.strip() and not line.startswith("#"):
            # A record runs to the next `entry` line.
            entries[key].append(line)
    while comments and not comments[-1].strip():
        comments.pop()
    return comments, entries


def field(lines, name):
    for line in lines:
        if line.startswith(name + " "):
            return line[len(name) + 1:]
    return None


def bucket_of(lines):
    """The text the launch messages quote: its shapes bucket."""
    return field(lines, "shapes")


def read_runs(paths):
    for path in paths:
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rt") as f:
            for line in f:
                record = json.loads(line)
                if record.get("kind") == "shape" and record.get("ok"):
                    yield record


def quoted_bucket(messages):
    for message in messages:
        found = re.search(r"ms for (.*)\)$", message)
        if found:
            return found.group(1)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shipped", required=True)
    parser.add_argument("--run", nargs="+", required=True)
    parser.add_argument("--tuned", nargs="+", required=True)
    parser.add_argument("--margin", type=float, default=0.01,
                        help="how much faster the tune must have been than the record "
                        "to replace it, at launches of at least --short-us")
    parser.add_argument("--short-margin", type=float, default=0.02,
                        help="the margin at launches whose tune took under --short-us")
    parser.add_argument("--short-us", type=float, default=10.0)
    parser.add_argument("--replace-unmeasured", action="store_true",
                        help="take the tune's record where the run did not time the "
                        "shipped one beside it")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    comments, shipped = read_database(args.shipped)
    tuned = {}
    for path in args.tuned:
        tuned.update(read_database(path)[1])
    by_bucket = {}
    for key, lines in tuned.items():
        by_bucket.setdefault((bucket_of(lines), field(lines, "fixed")), key)

    # Per tuned entry, the ratios database / tuned of the shapes it covers,
    # where the launch took the shipped record.
    ratios, shortest = {}, {}
    for record in read_runs(args.run):
        bucket = quoted_bucket(record["source"].get("tuned", []))
        fixed = "DTYPE=%s" % record["dtype"]
        key = by_bucket.get((bucket, fixed))
        if key is None:
            continue
        from_shipped = any("shipped tuning database" in m
                           for m in record["source"].get("database", []))
        ratio = record["ms"]["database"] / record["ms"]["tuned"] if from_shipped else None
        ratios.setdefault(key, []).append(ratio)
        shortest[key] = min(shortest.get(key, math.inf), record["ms"]["tuned"] * 1000)

    merged = dict(shipped)
    kept = replaced = added = 0
    for key, lines in tuned.items():
        measured = ratios.get(key, [])
        if key in shipped and measured and all(r is not None for r in measured):
            mean = math.exp(sum(math.log(r) for r in measured) / len(measured))
            same = field(shipped[key], "choice") == field(lines, "choice") and \
                field(shipped[key], "variant") == field(lines, "variant") and \
                field(shipped[key], "waves") == field(lines, "waves")
            margin = args.short_margin if shortest[key] < args.short_us else args.margin
            if same or mean <= 1 + margin:
                kept += 1
                continue
            print("replaced %s (%s): the record took %.3f x the tune's time" % (bucket_of(lines), field(lines, "fixed"), mean),
                  file=sys.stderr)
            replaced += 1
        elif key in shipped and not args.replace_unmeasured:
            kept += 1
            print("kept %s (%s): the run did not time it beside the tune" %
                  (bucket_of(lines), field(lines, "fixed")), file=sys.stderr)
            continue
        elif key in shipped:
            replaced += 1
            print("replaced %s (%s): not measured against it" % (bucket_of(lines), field(lines, "fixed")),
                  file=sys.stderr)
        else:
            added += 1
        merged[key] = lines
    with open(args.out, "w") as out:
        out.write(HEADER + "\n")
        for line in comments:
            out.write(line + "\n")
        out.write("\n")
        for lines in merged.values():
            out.write("\n".join(lines) + "\n\n")
    print("kept %d shipped records, replaced %d, added %d; %d in all" %
          (kept, replaced, added, len(merged)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
