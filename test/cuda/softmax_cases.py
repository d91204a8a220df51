#!/usr/bin/env python3
"""Runs tile's softmax kernels on the GPU over a set of shapes and checks them.

  softmax_cases.py KERNEL DTYPE CASES [--torch] [--work DIR]

KERNEL is softmax, online or rows (examples/softmax.mlir,
online_softmax.mlir, softmax_rows.mlir, each with -D DTYPE). DTYPE is f32,
f16 or bf16. CASES names a set of shapes (see CASES below): the seeds' shapes, or
odd ones. For each shape it runs

  tile-run KERNEL --target=cuda --check --grid persistent:WORK ...

(the GPU against the CPU interpreter, every buffer), then checks the output
against a float64 softmax of the same input (utils/reference.py's), that the
output's columns past N were not written, and with --torch against
torch.softmax on the GPU. It prints one line per shape and exits 1 if any
failed, after running them all. tile-run comes from PATH.
"""

import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import reference  # noqa: E402

# (rows, columns, input row stride, output row stride): strides default to
# the columns.
CASES = {
    # 000 and 001: 1823 x 781; 001's benchmark: M = 4096, N = 256 .. 16384.
    "seeds": [(1823, 781)] + [(4096, 1 << k) for k in range(8, 15)],
    # 004: M = 1024, N = 2^8 .. 2^17.
    "online-seeds": [(1024, 1 << k) for k in range(8, 18)],
    # Short rows for the many-rows kernel, and the seeds' 1823 x 781.
    "rows-seeds": [(1823, 781), (4096, 64), (4096, 128), (4096, 256),
                   (4096, 1024)],
    # N = 1; N not a multiple of 4; rows with a stride larger than N (the
    # rest of each row must stay as it was); one row; fewer rows than SMs.
    "odd": [(5, 1), (7, 3), (1000, 781, 800, 800), (300, 1000, 1024, 1024),
            (300, 1001, 1024, 1040), (257, 4097, 4100, 4104), (1, 50),
            (3, 2049)],
}

# Tolerances: (relative to float64, rtol and atol against torch.softmax).
# The float64 check divides by max(|ref|, the smallest normal of the type).
FLOAT64_RTOL = {"f32": 1e-5, "f16": 2e-3, "bf16": 8e-3}
SMALLEST_NORMAL = {"f32": 2.0**-126, "f16": 2.0**-14, "bf16": 2.0**-126}
TORCH_TOL = {"f32": (1e-5, 1e-7), "f16": (2e-3, 1e-6), "bf16": (1.6e-2, 1e-6)}


def next_pow2(n):
    return 1 << max(0, (n - 1).bit_length())


def kernel_file(kernel, dtype):
    """The kernel file and the -D parameters that pick the element type."""
    name = {"softmax": "softmax", "online": "online_softmax",
            "rows": "softmax_rows"}[kernel]
    return os.path.join(ROOT, "examples", name + ".mlir"), {"DTYPE": dtype}


def configuration(kernel, rows, cols):
    """The -D parameters (warps included) and the work a persistent grid is
    capped at."""
    block = next_pow2(cols)
    if kernel == "softmax":
        defines = {"BLOCK_SIZE": block}
        work = rows
        elements = block
    elif kernel == "online":
        block = min(block, 4096)
        defines = {"BLOCK_SIZE": block}
        work = rows
        elements = block
    else:
        per = max(1, min(8, 4096 // block))
        defines = {"ROWS": per, "BLOCK_SIZE": block}
        work = -(-rows // per)
        elements = per * block
    defines["NUM_WARPS"] = min(32, max(4, elements // 256))
    return defines, work


def load_input(path, dtype):
    array = np.load(path)
    if dtype == "bf16":
        return (array.astype(np.uint32) << 16).view(np.float32)
    return array


def torch_compare(x, y, dtype, cols):
    import torch

    def to_torch(array):
        if dtype == "bf16":
            return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
        return torch.from_numpy(array)

    xt = to_torch(x).cuda()[:, :cols]
    yt = to_torch(y).cuda()[:, :cols]
    ref = torch.softmax(xt, dim=1)
    rtol, atol = TORCH_TOL[dtype]
    a, r = yt.double(), ref.double()
    nan_ok = bool(torch.equal(torch.isnan(a), torch.isnan(r)))
    finite = ~torch.isnan(r)
    diff = (a - r).abs().where(finite, torch.zeros_like(a))
    max_abs = float(diff.max()) if diff.numel() else 0.0
    rel = diff / r.abs().clamp_min(SMALLEST_NORMAL[dtype])
    max_rel = float(rel.max()) if rel.numel() else 0.0
    bad = int((diff > atol + rtol * r.abs()).sum())
    ok = nan_ok and bad == 0
    return ok, (f"torch.softmax: max abs {max_abs:.3g}, max rel {max_rel:.3g}"
                f"{'' if nan_ok else ', NaN mismatch'}"
                f"{f', {bad} elements past rtol {rtol:g} atol {atol:g}' if bad else ''}"
                f" {'OK' if ok else 'FAILED'}")


def run_case(args, case, path, type_defines):
    rows, cols = case[0], case[1]
    stride_in = case[2] if len(case) > 2 else cols
    stride_out = case[3] if len(case) > 3 else stride_in
    defines, work = configuration(args.kernel, rows, cols)
    defines.update(type_defines)
    t = args.dtype
    x_path = os.path.join(args.work, "x.npy")
    y_path = os.path.join(args.work, "y.npy")
    seed = rows * 100003 + cols
    if args.target == "cuda":
        launch = ["--target=cuda", "--check", "--grid", f"persistent:{work}"]
    else:  # trying the script out where there is no GPU
        launch = ["--target=cpu", "--grid", str(work)]
    command = ["tile-run", path] + launch + [
               "--arg", f"{t}[{rows}x{stride_out}]=zeros",
               "--arg", f"{t}[{rows}x{stride_in}]=randn:{seed}",
               "--arg", f"i32={stride_in}", "--arg", f"i32={stride_out}",
               "--arg", f"i32={rows}", "--arg", f"i32={cols}",
               "--out", f"0={y_path}", "--out", f"1={x_path}"]
    for name, value in defines.items():
        command += ["-D", f"{name}={value}"]
    label = (f"{args.kernel} {t} {rows}x{cols}"
             f"{f' (strides {stride_in}, {stride_out})' if stride_in != cols or stride_out != cols else ''}"
             f" [{' '.join(f'{k}={v}' for k, v in defines.items())}, "
             f"grid persistent:{work}]")
    start = time.time()
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    elapsed = time.time() - start
    output = result.stdout.strip()
    if result.returncode != 0:
        print(f"{label}: tile-run FAILED (exit {result.returncode}, "
              f"{elapsed:.1f} s)\n  $ {' '.join(command)}")
        print("  " + output.replace("\n", "\n  "))
        return False
    # The GPU line and the check line of the wanted buffer, for the log.
    lines = [l.strip() for l in output.splitlines()]
    ran = next((l for l in lines if " ran on " in l), "")
    checked = next((l for l in lines if l.startswith("argument 0")), "")
    ok = True
    notes = [checked.split(": ", 1)[-1] if checked else "no check line"]

    x = load_input(x_path, t)
    y_raw = np.load(y_path)
    y = load_input(y_path, t)
    ref = reference.softmax_reference(x[:, :cols])
    got = y[:, :cols].astype(np.float64)
    with np.errstate(invalid="ignore"):
        diff = np.abs(got - ref)
        rel = diff / np.maximum(np.abs(ref), SMALLEST_NORMAL[t])
    nan_ok = np.array_equal(np.isnan(got), np.isnan(ref))
    max_rel = float(np.nanmax(rel)) if rel.size else 0.0
    f64_ok = nan_ok and max_rel <= FLOAT64_RTOL[t]
    notes.append(f"float64: max rel {max_rel:.3g} (rtol "
                 f"{FLOAT64_RTOL[t]:g}) {'OK' if f64_ok else 'FAILED'}")
    ok &= f64_ok
    if stride_out > cols:
        written = int(np.count_nonzero(y_raw[:, cols:]))
        if written:
            notes.append(f"{written} elements past column {cols} written "
                         f"FAILED")
            ok = False
    if args.torch:
        torch_ok, text = torch_compare(np.load(x_path), y_raw, t, cols)
        notes.append(text)
        ok &= torch_ok
    match = re.search(r"grid (.*?), \d+ threads per block", ran)
    grid = match.group(1) if match else ran.split(": grid ", 1)[-1]
    print(f"{label}: grid {grid}; {'; '.join(notes)} "
          f"[{elapsed:.1f} s] {'PASS' if ok else 'FAIL'}")
    sys.stdout.flush()
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernel", choices=["softmax", "online", "rows"])
    parser.add_argument("dtype", choices=["f32", "f16", "bf16"])
    parser.add_argument("cases", choices=sorted(CASES))
    parser.add_argument("--torch", action="store_true",
                        help="also compare with torch.softmax on the GPU")
    parser.add_argument("--target", choices=["cuda", "cpu"], default="cuda",
                        help="cpu tries the script on the interpreter alone")
    parser.add_argument("--work", default=".",
                        help="a directory for the .npy files")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    path, type_defines = kernel_file(args.kernel, args.dtype)
    failures = 0
    for case in CASES[args.cases]:
        if not run_case(args, case, path, type_defines):
            failures += 1
    total = len(CASES[args.cases])
    print(f"{args.kernel} {args.dtype} {args.cases}: {total - failures} of "
          f"{total} shapes passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
