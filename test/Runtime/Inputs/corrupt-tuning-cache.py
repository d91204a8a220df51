"""Damages the one entry of a tuning cache in a given way (tuning.test)."""
import glob
import os
import shutil
import sys

cache, how = sys.argv[1], sys.argv[2]
outside = os.path.dirname(os.path.abspath(cache))
# Undo the damage of the last run first: a tuning directory moved out of the
# cache behind a link comes back.
tuning = os.path.join(cache, "tuning")
if os.path.islink(tuning):
    os.remove(tuning)
    shutil.move(os.path.join(outside, "outside-tuning"), tuning)
[path] = glob.glob(os.path.join(tuning, "*.txt"))
# Start every damage from a good entry, kept beside the cache.
good = os.path.join(cache, "good-entry")
if not os.path.exists(good):
    shutil.copyfile(path, good)
with open(good) as f:
    lines = f.read().splitlines()
if os.path.isdir(path) and not os.path.islink(path):
    os.rmdir(path)
else:
    os.remove(path)


def replace(prefix, line):
    return [line if l.startswith(prefix + " ") else l for l in lines]


if how == "version":
    lines = replace("compiler", "compiler tile 0000000000000000 LLVM 1.0")
elif how == "garbage":
    lines = ["\x00\x01 not an entry"]
elif how == "choice":
    lines = replace("choice", "choice NUM_WARPS=many")
elif how == "truncated":
    lines = [l for l in lines if not l.startswith("choice ")]
elif how == "time":
    lines = replace("time", "time nan")
elif how == "waves":
    lines = replace("waves", "waves most")
elif how == "directory":
    os.mkdir(path)
    sys.exit(0)
elif how == "fifo":
    os.mkfifo(path)
    sys.exit(0)
elif how == "link-out":
    # A good entry, but outside the cache, behind a link.
    target = os.path.join(outside, "outside-entry.txt")
    with open(target, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.symlink(target, path)
    sys.exit(0)
elif how == "link-dir":
    # The good entry, in a directory outside the cache that a link stands
    # for.
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    target = os.path.join(outside, "outside-tuning")
    shutil.rmtree(target, ignore_errors=True)
    shutil.move(tuning, target)
    os.symlink(target, tuning)
    sys.exit(0)
elif how == "huge":
    lines = lines + ["#" * 1024] * 2048
else:
    sys.exit("unknown damage " + how)
with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
