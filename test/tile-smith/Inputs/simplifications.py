"""Prints every one-step simplification of the programs of some seeds
(tile-smith --simplify K, until it says there are no more) and checks that
tile-opt verifies each.

    simplifications.py TILE_SMITH TILE_OPT WORK_DIR SEED...
"""

import os
import subprocess
import sys

smith, opt, work = sys.argv[1:4]
status = 0
for seed in sys.argv[4:]:
    program = os.path.join(work, "seed-%s.json" % seed)
    with open(program, "w") as f:
        subprocess.run([smith, "--seed", seed, "--print=description"],
                       stdout=f, check=True)
    k, bad = 0, []
    while True:
        done = subprocess.run([smith, "--from", program, "--simplify", str(k)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if done.returncode == 2:
            break
        if done.returncode != 0:
            bad.append("%d: %s" % (k, done.stderr.decode()))
        else:
            verified = subprocess.run([opt, "-o", os.devnull],
                                      input=done.stdout, stderr=subprocess.PIPE)
            if verified.returncode != 0:
                bad.append("%d: %s" % (k, verified.stderr.decode()))
        k += 1
    if bad:
        status = 1
        print("seed %s: %d simplifications, %d fail:\n%s"
              % (seed, k, len(bad), "\n".join(bad)))
    else:
        print("seed %s: %d simplifications, all verify" % (seed, k))
sys.exit(status)
