"""corrupt-tuning-database.py IN OUT: writes OUT, a tuning database made
from IN's first record: a stray line before any record, then seven copies
of the record each broken one way (its key, a field twice, a field
missing, a malformed choice, a variant past the kernels, an unknown field,
a negative time), then the record intact."""

import sys


def main():
    lines = open(sys.argv[1]).read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("entry "))
    record = lines[start:]
    out = [lines[0], "stray line", ""]

    def broken(edit):
        copy = list(record)
        edit(copy)
        out.extend(copy)
        out.append("")

    def key(copy):
        last = copy[0][-1]
        copy[0] = copy[0][:-1] + ("0" if last != "0" else "1")

    def field(name):
        return lambda copy: next(i for i, l in enumerate(copy) if l.startswith(name + " "))

    def twice(copy):
        copy.append(copy[field("time")(copy)])

    def no_gpu(copy):
        del copy[field("gpu")(copy)]

    def bad_choice(copy):
        copy[field("choice")(copy)] = "choice BLOCK_SIZE=abc"

    def variant(copy):
        copy[field("variant")(copy)] = "variant 1"

    def unknown(copy):
        copy.append("colour red")

    def negative(copy):
        copy[field("time")(copy)] = "time -1"

    for edit in (key, twice, no_gpu, bad_choice, variant, unknown, negative):
        broken(edit)
    out.extend(record)
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


main()
