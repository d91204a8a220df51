#!/usr/bin/env python3
"""Compiles the softmax kernels to PTX for the GPU harness (ptx_harness.py).

Run here (where tile-opt is built); writes bench/ptx/*.ptx and
bench/ptx/manifest.json, which travel to the GPU machine. Each variant is one
kernel file at one specialization: block size, rows per program, warps, and
whether the strides and the column count are multiples of 16 (what a launch
on aligned rows lets the runtime assume; see docs/compiler.md).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILE_OPT = os.path.join(ROOT, "build", "bin", "tile-opt")
OUT = os.path.join(ROOT, "bench", "ptx")
ALIGNED = "--tile-specialize-arguments=divisibility=2:16,3:16,5:16"


def compile_variant(name, example, defines, warps, aligned):
    path = os.path.join(OUT, name + ".ptx")
    source = os.path.join(ROOT, "examples", example)
    if not os.path.exists(source):
        source = os.path.join(ROOT, "bench", "kernels", example)
    # A kernel that declares NUM_WARPS sets tile.num_warps itself, which
    # wins over the pipeline's option.
    if "// tile.param NUM_WARPS" in open(source).read():
        defines = dict(defines, NUM_WARPS=warps)
    cmd = [TILE_OPT, source]
    cmd += ["-D%s=%s" % kv for kv in defines.items()]
    if aligned:
        cmd.append(ALIGNED)
    cmd += ["--tile-to-ptx=num-warps=%d dump-ptx=%s" % (warps, path), "-o", os.devnull]
    subprocess.run(cmd, check=True)
    return path


def main():
    os.makedirs(OUT, exist_ok=True)
    variants = []

    def add(kernel, example, defines, warps, aligned, max_cols, rows=1,
            dtype="f32"):
        name = "%s_%s_w%d%s" % (
            kernel, "_".join("%s%s" % (k.lower().replace("_size", "").replace("num_", ""), v)
                             for k, v in defines.items()),
            warps, "_a" if aligned else "")
        compile_variant(name, example, defines, warps, aligned)
        variants.append(dict(name=name, kernel=kernel, file=name + ".ptx",
                             warps=warps, aligned=aligned, max_cols=max_cols,
                             rows_per_program=rows, defines=defines,
                             dtype=dtype))

    for stages in [1, 2]:
        for block in [1024, 2048, 4096, 8192, 16384]:
            for warps in [4, 8, 16]:
                if block // (32 * warps) > 128:
                    continue
                add("softmax", "softmax.mlir",
                    {"BLOCK_SIZE": block, "NUM_STAGES": stages}, warps, True,
                    block)
        for block in [256, 512, 1024]:
            for rows in [1, 2, 4, 8, 16]:
                for warps in [1, 2, 4, 8]:
                    if warps > rows or block * rows // (32 * warps) > 64:
                        continue
                    add("softmax_rows", "softmax_rows.mlir",
                        {"ROWS": rows, "BLOCK_SIZE": block, "NUM_STAGES": stages},
                        warps, True, block, rows)
        for block in [1024, 2048, 4096, 8192]:
            for warps in [4, 8, 16]:
                if block // (32 * warps) > 64:
                    continue
                add("online_softmax", "online_softmax.mlir",
                    {"BLOCK_SIZE": block, "NUM_STAGES": stages}, warps, True,
                    1 << 30)
        # The odd seed shape, 1823 x 781: nothing is aligned.
        add("softmax", "softmax.mlir", {"BLOCK_SIZE": 1024, "NUM_STAGES": stages},
            4, False, 1024)
        add("softmax", "softmax.mlir", {"BLOCK_SIZE": 1024, "NUM_STAGES": stages},
            8, False, 1024)
        add("online_softmax", "online_softmax.mlir",
            {"BLOCK_SIZE": 256, "NUM_STAGES": stages}, 4, False, 1 << 30)
        add("softmax_rows", "softmax_rows.mlir",
            {"ROWS": 4, "BLOCK_SIZE": 1024, "NUM_STAGES": stages}, 4, False, 1024, 4)
    # Rows of 32768 floats still fit in the registers of 16 or 32 warps.
    for warps in [16, 32]:
        add("softmax", "softmax.mlir",
            {"BLOCK_SIZE": 32768, "NUM_STAGES": 1}, warps,
            True, 32768)
    # Half precision.
    for dtype in ["f16", "bf16"]:
        for block in [1024, 4096, 8192]:
            for warps in [4, 8, 16]:
                if block // (32 * warps) > 128 or block // (32 * warps) < 4:
                    continue
                add("softmax_half", "softmax.mlir",
                    {"DTYPE": dtype, "BLOCK_SIZE": block, "NUM_STAGES": 2},
                    warps, True, block, dtype=dtype)
    # The pipelining written by hand, to compare with the pass's.
    for block in [1024, 4096, 8192, 16384]:
        for warps in [8, 16]:
            if block // (32 * warps) > 128:
                continue
            add("softmax_prefetch", "softmax_prefetch.mlir", {"BLOCK_SIZE": block},
                warps, True, block)

    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(variants, f, indent=1)
    print("%d variants in %s" % (len(variants), OUT))


if __name__ == "__main__":
    sys.exit(main())
