"""Damages the one entry of a compile cache in a given way
(compile-cache.test).

    damage-compile-cache.py CACHE byte|truncate|bare|key
    damage-compile-cache.py CACHE link-dir OUTSIDE

byte flips one byte of the PTX, truncate cuts the entry short, bare leaves
the PTX without its header, key names another key in the header; link-dir
replaces the entry's directory with a link to OUTSIDE.
"""
import glob
import os
import shutil
import sys

cache, how = sys.argv[1], sys.argv[2]
[path] = glob.glob(os.path.join(cache, "*", "*.ptx"))
with open(path, "rb") as f:
    entry = f.read()
header, ptx = entry.split(b"\n\n", 1)
if how == "byte":
    entry = header + b"\n\n" + ptx[:-2] + bytes([ptx[-2] ^ 1]) + ptx[-1:]
elif how == "truncate":
    entry = entry[:len(entry) // 2]
elif how == "bare":
    entry = ptx
elif how == "key":
    entry = entry.replace(b"\nkey ", b"\nkey 0", 1)
elif how == "link-dir":
    directory = os.path.dirname(path)
    shutil.rmtree(directory)
    os.symlink(sys.argv[3], directory)
    sys.exit(0)
else:
    sys.exit("unknown damage " + how)
with open(path, "wb") as f:
    f.write(entry)
