"""Damages the one entry of a tuning cache in a given way (tuning.test)."""
import glob
import os
import shutil
import sys

cache, how = sys.argv[1], sys.argv[2]
[path] = glob.glob(os.path.join(cache, "tuning", "*.txt"))
if os.path.islink(path):
    os.remove(path)
    lines = []
elif os.path.isdir(path):
    os.rmdir(path)
    lines = []
else:
    with open(path) as f:
        lines = f.read().splitlines()
# Start every damage from a good entry, kept beside the cache.
good = os.path.join(cache, "good-entry")
if not os.path.exists(good):
    with open(good, "w") as f:
        f.write("\n".join(lines) + "\n")
with open(good) as f:
    lines = f.read().splitlines()


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
    os.remove(path)
    os.mkdir(path)
    sys.exit(0)
elif how == "device":
    if os.path.lexists(path):
        os.remove(path)
    os.symlink("/dev/zero", path)
    sys.exit(0)
elif how == "huge":
    lines = lines + ["#" * 1024] * 2048
else:
    sys.exit("unknown damage " + how)
with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
