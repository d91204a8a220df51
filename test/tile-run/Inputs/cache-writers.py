"""Several tile-run processes sharing one compile cache at once
(compile-cache.test).

    cache-writers.py TILE_RUN KERNEL WORK ROUNDS PROCESSES

Each round starts PROCESSES tile-run --emit=ptx on KERNEL together on an
empty cache: they all miss, compile, and write the same entry while the
others look it up. Every process must succeed without a warning and print
the PTX a compile without the cache prints; afterwards the entry must be
whole (one more run reads it from the cache) and no temporary file may be
left. Prints "ok" and exits 0, or says what went wrong and exits 1.
"""
import glob
import os
import shutil
import subprocess
import sys

tile_run, kernel, work, rounds, processes = sys.argv[1:]
os.makedirs(work, exist_ok=True)
command = [tile_run, kernel, "--emit=ptx", "--chip=sm_90"]
reference = subprocess.run(command + ["--no-cache"], check=True,
                           stdout=subprocess.PIPE).stdout
for round in range(int(rounds)):
    cache = os.path.join(work, "cache-%d" % round)
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, TILE_CACHE_DIR=cache)
    outputs = [os.path.join(work, "out-%d-%d.ptx" % (round, p))
               for p in range(int(processes))]
    running = [subprocess.Popen(command + ["-o", output], env=env,
                                stderr=subprocess.PIPE)
               for output in outputs]
    for process, output in zip(running, outputs):
        _, err = process.communicate()
        with open(output, "rb") as f:
            ptx = f.read()
        if process.returncode != 0 or err or ptx != reference:
            sys.exit("round %d: a writer failed (exit %d): %s"
                     % (round, process.returncode, err.decode(errors="replace")))
    entries = glob.glob(os.path.join(cache, "*", "*"))
    if len(entries) != 1 or not entries[0].endswith(".ptx"):
        sys.exit("round %d: the cache holds %s" % (round, entries))
    again = subprocess.run(command + ["--timing", "-o", outputs[0]], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if b"from the cache" not in again.stdout or b"warning" in again.stdout:
        sys.exit("round %d: the entry is not read back whole: %s"
                 % (round, again.stderr.decode(errors="replace")))
print("ok")
