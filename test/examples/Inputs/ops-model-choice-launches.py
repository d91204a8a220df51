"""ops-model-choice-launches.py EXAMPLES: prints a shell script that runs
`tile-runner-test choose --ptxas` over a sample of launches of tile.ops'
kernels (spills-ops-model-choice.test), each as python/tile/ops.py launches
it (its variants, arguments and grid), stopping at the first that fails."""

import sys

examples = sys.argv[1]
lines = ["set -e", "n=0"]
# The rows of the backward norms' partial buffers: at most 2 programs per
# SM of the H100 (ops._PARTIAL_PROGRAMS_PER_SM).
CAP = 2 * 132


def launch(kernels, dtype, grid, specs):
    files = ",".join("%s/%s.mlir" % (examples, k) for k in kernels)
    lines.append("$TILE_RUNNER_TEST choose %s -D DTYPE=%s --ptxas=$PTXAS "
                 "--chip=sm_90 --grid '%s' %s" % (
                     files, dtype, grid, " ".join("'%s'" % s for s in specs)))
    lines.append("n=$((n + 1))")


def rows(dtype, m, n):
    return "%s[%dx%d]=zeros" % (dtype, m, n)


def vector(dtype, n):
    return "%s[%d]=zeros" % (dtype, n)


# Rows held by one program, rows on clusters, and (for cross-entropy and
# softmax) rows split over programs.
for dtype, m, n in (("f32", 4096, 1024), ("bf16", 4096, 4096),
                    ("f16", 1024, 32768), ("bf16", 64, 131072)):
    x, p = rows(dtype, m, n), "persistent:%d" % m
    ints = ["i32=%d" % n, "i32=%d" % n, "i32=%d" % m, "i32=%d" % n]
    launch(("softmax_backward", "softmax_backward_cluster"), dtype, p,
           [x, x, x, "i32=%d" % n, "i32=%d" % n, "i32=%d" % n,
            "i32=%d" % m, "i32=%d" % n])
    launch(("rms_norm", "rms_norm_cluster"), dtype, p,
           [x, vector("f32", m), x, vector(dtype, n), "i32=%d" % n,
            "i32=%d" % n, "i32=%d" % m, "i32=%d" % n, "f32=1e-6"])
    launch(("layer_norm", "layer_norm_cluster"), dtype, p,
           [x, vector("f32", m), vector("f32", m), x, vector(dtype, n),
            vector(dtype, n), "i32=%d" % n, "i32=%d" % n, "i32=%d" % m,
            "i32=%d" % n, "f32=1e-5"])
    cap = min(m, CAP)
    part = rows("f32", cap, n)
    launch(("rms_norm_backward", "rms_norm_backward_cluster"), dtype,
           "persistent:%d" % cap,
           [x, part, x, x, vector(dtype, n), vector("f32", m), "i32=%d" % n,
            "i32=%d" % n, "i32=%d" % n, "i32=%d" % m, "i32=%d" % n])
    launch(("layer_norm_backward", "layer_norm_backward_cluster"), dtype,
           "persistent:%d" % cap,
           [x, part, part, x, x, vector(dtype, n), vector("f32", m),
            vector("f32", m), "i32=%d" % n, "i32=%d" % n, "i32=%d" % n,
            "i32=%d" % m, "i32=%d" % n])
    # Their second stage: dw and db, the partial rows summed.
    launch(("sum_partials",), dtype, "persistent:%d" % (2 * (n // 32)),
           [vector(dtype, n), vector(dtype, n), rows("f32", 2 * cap, n), "i32=2",
            "i32=%d" % (cap * n), "i32=%d" % cap, "i32=%d" % n])
    launch(("cross_entropy_rows", "cross_entropy"), dtype, p,
           [vector("f32", m), vector("f32", m), x, vector("i64", m),
            "i32=%d" % n, "i32=%d" % m, "i32=%d" % n, "i64=-100", "f32=0.1"])
    launch(("cross_entropy_backward",), dtype, p,
           [x, vector("f32", m), x, vector("i64", m), vector("f32", m),
            "i32=%d" % n, "i32=%d" % n, "i32=%d" % m, "i32=%d" % n,
            "i64=-100", "f32=0.1"])
# The split paths at 64 rows of 2^20 (33 parts a row, as ops._splits
# gives on 132 SMs).
for dtype in ("f32", "bf16"):
    m, n, q = 64, 1 << 20, 33
    x, part = rows(dtype, m, n), rows("f32", m, q)
    launch(("cross_entropy_partial",), dtype, "%d,%d" % (m, q),
           [part, part, part, x, "i32=%d" % n, "i32=%d" % m, "i32=%d" % n])
    launch(("cross_entropy_combine",), dtype, "persistent:%d" % m,
           [vector("f32", m), vector("f32", m), part, part, part, x,
            vector("i64", m), "i32=%d" % n, "i32=%d" % m, "i32=%d" % n,
            "i32=%d" % q, "i64=-100", "f32=0.0"])
    launch(("softmax_normalize",), dtype, "%d,%d" % (m, q),
           [x, x, part, part, "i32=%d" % n, "i32=%d" % n, "i32=%d" % m,
            "i32=%d" % n, "i32=%d" % q])
    launch(("cross_entropy_backward",), dtype, "%d,%d" % (m, q),
           [x, vector("f32", m), x, vector("i64", m), vector("f32", m),
            "i32=%d" % n, "i32=%d" % n, "i32=%d" % m, "i32=%d" % n,
            "i64=-100", "f32=0.1"])
    # Softmax backward and RMSNorm beyond 2^19 columns.
    launch(("row_dot_partial",), dtype, "%d,%d" % (m, q),
           [part, x, x, "i32=%d" % n, "i32=%d" % n, "i32=%d" % m,
            "i32=%d" % n, "i32=%d" % q])
    launch(("softmax_backward_apply",), dtype, "%d,%d" % (m, q),
           [x, x, x, vector("f32", m), "i32=%d" % n, "i32=%d" % n,
            "i32=%d" % n, "i32=%d" % m, "i32=%d" % n])
    launch(("rms_norm_apply",), dtype, "%d,%d" % (m, q),
           [x, x, vector(dtype, n), vector("f32", m), "i32=%d" % n,
            "i32=%d" % n, "i32=%d" % m, "i32=%d" % n])
    launch(("row_dot_weighted_partial",), dtype, "%d,%d" % (m, q),
           [part, x, x, vector(dtype, n), "i32=%d" % n, "i32=%d" % n,
            "i32=%d" % m, "i32=%d" % n, "i32=%d" % q])
    launch(("layer_norm_partial",), dtype, "%d,%d" % (m, q),
           [part, part, x, "i32=%d" % n, "i32=%d" % m, "i32=%d" % n,
            "i32=%d" % q])
    launch(("layer_norm_apply",), dtype, "%d,%d" % (m, q),
           [x, x, vector(dtype, n), vector(dtype, n), vector("f32", m),
            vector("f32", m), "i32=%d" % n, "i32=%d" % n, "i32=%d" % m,
            "i32=%d" % n])
    launch(("layer_norm_backward_partial",), dtype, "%d,%d" % (m, q),
           [part, part, x, x, vector(dtype, n), vector("f32", m),
            vector("f32", m), "i32=%d" % n, "i32=%d" % n, "i32=%d" % m,
            "i32=%d" % n, "i32=%d" % q])
    launch(("layer_norm_backward_apply",), dtype, "persistent:%d" % (n // 256),
           [x, vector("f32", n), vector("f32", n), x, x, vector(dtype, n),
            vector("f32", m), vector("f32", m), vector("f32", m),
            vector("f32", m), "i32=%d" % n, "i32=%d" % n, "i32=%d" % n,
            "i32=%d" % m, "i32=%d" % n])
    launch(("rms_norm_backward_apply",), dtype, "persistent:%d" % (n // 256),
           [x, vector("f32", n), x, x, vector(dtype, n), vector("f32", m),
            vector("f32", m), "i32=%d" % n, "i32=%d" % n, "i32=%d" % n,
            "i32=%d" % m, "i32=%d" % n])
lines.append('echo "$n launches, none spills"')
print("\n".join(lines))
