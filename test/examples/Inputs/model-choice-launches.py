"""model-choice-launches.py EXAMPLES: prints a shell script that runs
`tile-runner-test choose --ptxas` over a sample of launches of the examples
(spills-model-choice.test), stopping at the first that fails."""

import sys

examples = sys.argv[1]
softmax = ",".join("%s/%s.mlir" % (examples, k) for k in
                   ("softmax_rows", "softmax", "online_softmax",
                    "softmax_cluster"))
lines = ["set -e", "n=0"]


def launch(files, dtype, grid, specs, chip="sm_90"):
    lines.append("$TILE_RUNNER_TEST choose %s -D DTYPE=%s --ptxas=$PTXAS "
                 "--chip=%s --grid '%s' %s" % (files, dtype, chip, grid,
                                               " ".join("'%s'" % s
                                                        for s in specs)))
    lines.append("n=$((n + 1))")


for dtype, m, n in (("f32", 4096, 256), ("f16", 4096, 1000), ("bf16", 4096, 3000),
                    ("f32", 1024, 8192), ("f16", 512, 20000), ("bf16", 256, 50000),
                    ("f32", 64, 131072), ("f16", 16, 262144), ("f32", 8, 1048576)):
    buffer = "%s[%dx%d]=zeros" % (dtype, m, n)
    launch(softmax, dtype, "persistent:%d" % m,
           [buffer, buffer, "i32=%d" % n, "i32=%d" % n, "i32=%d" % m, "i32=%d" % n])
# The matmuls also for sm_90a, as the runtime compiles for an H100: the
# tensor cores' wgmma path (where rows are 16-byte aligned: K = 704).
for chip, odd_k in (("sm_90", 700), ("sm_90a", 704)):
    for dtype, m, n, k in (("f16", 4096, 4096, 4096), ("bf16", 1000, 3000, odd_k),
                           ("f32", 512, 512, 512)):
        for matmul in ("matmul", "matmul_persistent"):
            launch("%s/%s.mlir" % (examples, matmul), dtype,
                   "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)",
                   ["%s[%dx%d]=zeros" % (dtype, m, k),
                    "%s[%dx%d]=zeros" % (dtype, k, n),
                    "%s[%dx%d]=zeros" % (dtype, m, n), "i32=%d" % m,
                    "i32=%d" % n, "i32=%d" % k, "i32=%d" % k, "i32=1",
                    "i32=%d" % n, "i32=1", "i32=%d" % n, "i32=1"], chip)
lines.append("$TILE_RUNNER_TEST choose %s/vector_add.mlir --ptxas=$PTXAS --grid 8 "
             "'f32[1000]=zeros' 'f32[1000]=zeros' 'f32[1000]=zeros' i32=1000"
             % examples)
lines.append("n=$((n + 1))")
lines.append('echo "$n launches, none spills"')
print("\n".join(lines))
