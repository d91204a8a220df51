#!/usr/bin/env python3
"""examples/matmul.mlir against torch.matmul (cuBLAS) on the GPU, one run.

For each dtype and M x N x K, and each block configuration given, times the
tile kernel with `tile-run --bench` (CUDA events, L2 flushed before each
run, median of --reps) after a --check against the interpreter on the same
launch, and torch.matmul on tensors of the same shape with CUDA events
(median of the same number of runs, after warm-up). Prints one line per
measurement: TFLOPS (2 M N K / median time) and tile / cuBLAS.

The 8-bit floats (--dtypes f8E4M3FN, f8E5M2) take B column-major (N x K
in memory), as wgmma's 8-bit form and cuBLAS's need: tile stores C in the
8-bit type unless --c-dtype says otherwise (--c-dtype bf16 writes what
torch._scaled_mm, scales of 1, and Triton write), cuBLAS and Triton in bf16.

Run on the GPU machine from the repository root, with the bundle unpacked
(bench/unpack-tile-run.sh):

  python3 bench/matmul_bench.py [--sizes 4096,4096,4096 ...] [--dtypes f16,bf16]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys


F8 = ("f8E4M3FN", "f8E5M2")


def tile_time(run, dtype, m, n, k, params, reps, tma=False, ptx=None,
              out_dir=None, c_dtype=None, kernel="examples/matmul.mlir",
              persistent=False):
    c_dtype = c_dtype or dtype
    defines = ["-D", f"C_DTYPE={c_dtype}"]
    for name, value in params.items():
        defines += ["-D", f"{name}={value}"]
    grid = -(-m // params["BLOCK_M"]) * -(-n // params["BLOCK_N"])
    # A persistent kernel walks the tiles with as many programs as fit on
    # the GPU at once, at most one per tile.
    grid = f"persistent:{grid}" if persistent else str(grid)
    # B as K x N row-major, or for 8-bit floats N x K (column-major).
    b_spec, b_strides = ((f"{dtype}[{n}x{k}]", ["1", str(k)]) if dtype in F8
                         else (f"{dtype}[{k}x{n}]", [str(n), "1"]))
    cmd = [run, kernel, "--target=cuda", "--no-tuning-cache",
           "-D", f"DTYPE={dtype}", *defines, "--grid", grid,
           "--arg", f"{dtype}[{m}x{k}]=uniform:1",
           "--arg", f"{b_spec}=uniform:2",
           "--arg", f"{c_dtype}[{m}x{n}]=zeros",
           "--arg", f"i32={m}", "--arg", f"i32={n}", "--arg", f"i32={k}",
           "--arg", f"i32={k}", "--arg", "i32=1",
           "--arg", f"i32={b_strides[0]}", "--arg", f"i32={b_strides[1]}",
           "--arg", f"i32={n}", "--arg", "i32=1",
           "--bench", "--bench-reps", str(reps), "--timing"]
    if out_dir:
        # A, B and C as the last launch left them, for check_result.
        cmd += [f"--out={i}={out_dir}/{name}.npy"
                for i, name in enumerate("abc")]
    if ptx:
        # A kernel compiled elsewhere (tile-opt --tile-to-ptx with options
        # tile-run does not have), specialized for this launch.
        cmd += ["--ptx", ptx]
    if tma:
        # TMA's copies of A and B (sm_90a): tile-loads-to-descs takes the
        # example's loads, their unit strides passed as 1.
        cmd.append("--tma")
    else:
        # cp.async's copies: TMA is tile-run's default on sm_90a.
        cmd.append("--tma=false")
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        return None, (result.stdout + result.stderr).strip().splitlines()[-3:]
    found = re.search(r"bench: median ([0-9.]+) ms", result.stdout)
    regs = re.search(r"(\d+) registers per thread, (\d+) bytes of shared "
                     r"memory, (\d+) bytes of local", result.stdout)
    return float(found.group(1)), regs.groups() if regs else None


def torch_time(torch, dtype, m, n, k, reps, flush):
    """torch.matmul's median time; with `flush`, L2 is flushed before each
    run (a 256 MiB write), as tile-run --bench does."""
    types = {"f16": torch.float16, "bf16": torch.bfloat16,
             "f32": torch.float32}
    torch.backends.cuda.matmul.allow_tf32 = True
    if dtype in F8:
        # cuBLAS's fp8 matmul: B column-major, C in bf16, unit scales.
        f8 = getattr(torch, {"f8E4M3FN": "float8_e4m3fn",
                             "f8E5M2": "float8_e5m2"}[dtype])
        a = torch.rand(m, k, device="cuda").to(f8)
        b_t = torch.rand(n, k, device="cuda").to(f8)
        one = torch.tensor(1.0, device="cuda")

        def product():
            return torch._scaled_mm(a, b_t.t(), one, one,
                                    out_dtype=torch.bfloat16)
    else:
        a = torch.rand(m, k, device="cuda", dtype=types[dtype])
        b = torch.rand(k, n, device="cuda", dtype=types[dtype])

        def product():
            return torch.matmul(a, b)
    scratch = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    for _ in range(10):
        product()
    times = []
    for _ in range(reps):
        if flush:
            scratch.zero_()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        product()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def load_npy(torch, path, dtype):
    """A buffer tile-run wrote, as a float32 tensor on the GPU (bf16 files
    hold the raw bits as uint16, 8-bit floats as uint8)."""
    import numpy as np
    data = np.load(path)
    if dtype == "bf16":
        tensor = torch.from_numpy(data.astype(np.int16)).view(torch.bfloat16)
    elif dtype in F8:
        tensor = torch.from_numpy(data).view(getattr(
            torch, {"f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2"}[dtype]))
    else:
        tensor = torch.from_numpy(data)
    return tensor.cuda().float()


# What C may be off by, relative to the largest element of the product:
# its own rounding (f16, bf16, the 8-bit floats' 3 and 2 mantissa bits) and
# TF32's inputs for f32.
CHECK_TOLERANCE = {"f32": 2e-3, "f16": 2e-3, "bf16": 8e-3,
                   "f8E4M3FN": 1.5e-1, "f8E5M2": 3e-1}
# The 8-bit floats' largest values: C saturates there (sums of K products
# of uniform [0, 1) values pass them soon).
F8_LARGEST = {"f8E4M3FN": 448.0, "f8E5M2": 57344.0}


def check_result(torch, dtype, c_dtype, out_dir, reference):
    """The largest error of tile's C against torch's float32 product of
    the same A and B (computed once per shape: `reference` caches it),
    relative to the product's largest magnitude (every run of a shape
    starts from the same seeds, so from the same A and B)."""
    a = load_npy(torch, f"{out_dir}/a.npy", dtype)
    b = load_npy(torch, f"{out_dir}/b.npy", dtype)
    if not reference:
        allow = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = False
        product = a @ (b.t() if dtype in F8 else b)
        if c_dtype in F8:
            product = product.clamp(-F8_LARGEST[c_dtype], F8_LARGEST[c_dtype])
        reference.append(product)
        torch.backends.cuda.matmul.allow_tf32 = allow
    ref = reference[0]
    c = load_npy(torch, f"{out_dir}/c.npy", c_dtype)
    return ((c - ref).abs().max() / ref.abs().max()).item()


TRITON_CONFIGS = [  # BLOCK_M, BLOCK_N, BLOCK_K, warps, stages
    (128, 256, 64, 8, 3), (128, 256, 64, 8, 4), (256, 128, 64, 8, 3),
    (256, 128, 64, 8, 4), (128, 128, 64, 4, 4), (128, 128, 64, 8, 4),
    (128, 128, 32, 4, 4), (64, 128, 64, 4, 4), (64, 128, 64, 4, 5),
    (64, 128, 64, 4, 6)]


def triton_matmul():
    """A Triton kernel written the way its tutorial writes a matmul (grouped
    program order, masked loads, tl.dot into an f32 accumulator); Triton
    3.6 puts it on wgmma on Hopper and pipelines it num_stages deep."""
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(a, b, c, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               stride_cm, stride_cn, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
               GROUP_M: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m = tl.cdiv(M, BLOCK_M)
        tiles_n = tl.cdiv(N, BLOCK_N)
        in_group = GROUP_M * tiles_n
        first_m = (pid // in_group) * GROUP_M
        rows_in_group = tl.minimum(tiles_m - first_m, GROUP_M)
        tile_m = first_m + (pid % in_group) % rows_in_group
        tile_n = (pid % in_group) // rows_in_group
        rm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for step in range(0, tl.cdiv(K, BLOCK_K)):
            k = step * BLOCK_K + rk
            x = tl.load(a + rm[:, None] * stride_am + k[None, :] * stride_ak,
                        mask=(rm[:, None] < M) & (k[None, :] < K), other=0.0)
            y = tl.load(b + k[:, None] * stride_bk + rn[None, :] * stride_bn,
                        mask=(k[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(x, y, acc)
        tl.store(c + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
                 acc.to(c.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))

    return kernel


def triton_time(torch, kernel, dtype, m, n, k, reps):
    """The best of TRITON_CONFIGS: (median ms, config), each timed as
    torch_time times torch.matmul (L2 flushed before each run), after a
    check against torch.matmul."""
    types = {"f16": torch.float16, "bf16": torch.bfloat16}
    if dtype in F8:
        # Triton's fp8 dot on Hopper: B column-major, C in bf16.
        f8 = getattr(torch, {"f8E4M3FN": "float8_e4m3fn",
                             "f8E5M2": "float8_e5m2"}[dtype])
        a = torch.rand(m, k, device="cuda").to(f8)
        b = torch.rand(n, k, device="cuda").to(f8).t()
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        ref = a.float() @ b.float()
    else:
        a = torch.rand(m, k, device="cuda", dtype=types[dtype])
        b = torch.rand(k, n, device="cuda", dtype=types[dtype])
        c = torch.empty(m, n, device="cuda", dtype=types[dtype])
        ref = torch.matmul(a, b).float()
    scratch = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    best = None
    for bm, bn, bk, warps, stages in TRITON_CONFIGS:
        grid = (-(-m // bm) * -(-n // bn),)

        def run():
            kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1),
                         b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                         BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                         num_warps=warps, num_stages=stages)
        try:
            run()
            torch.cuda.synchronize()
        except Exception as error:  # out of shared memory, say
            print(f"  triton {bm}x{bn}x{bk} {warps} warps {stages} stages: "
                  f"failed: {str(error).splitlines()[0][:100]}", flush=True)
            continue
        error = (c.float() - ref).abs().max().item()
        if error > 1e-2 * ref.abs().max().item():
            print(f"  triton {bm}x{bn}x{bk}: wrong (max error {error})")
            continue
        for _ in range(5):
            run()
        times = []
        for _ in range(reps):
            scratch.zero_()
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            run()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        ms = statistics.median(times)
        if best is None or ms < best[0]:
            best = (ms, (bm, bn, bk, warps, stages))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", default="/tmp/tile-gpu/bin/tile-run")
    parser.add_argument("--sizes", nargs="+",
                        default=["4096,4096,4096", "8192,8192,8192",
                                 "3000,5000,2000"])
    parser.add_argument("--dtypes", default="f16,bf16")
    parser.add_argument("--configs", nargs="+",
                        default=["128,256,64,8,3", "256,128,64,8,3",
                                 "128,128,64,4,3", "128,128,32,4,3",
                                 "128,128,32,4,4", "128,256,32,8,3",
                                 "64,128,32,4,4"],
                        help="BLOCK_M,BLOCK_N,BLOCK_K,NUM_WARPS[,NUM_STAGES]")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--baseline-run", action="append", default=[],
                        metavar="[NAME=]PATH",
                        help="another tile-run (an older build, a variant) "
                        "timed beside --run, on the first configuration "
                        "or with --baseline-all on each; may be repeated")
    parser.add_argument("--baseline-all", action="store_true",
                        help="time the baselines on every configuration")
    parser.add_argument("--tma", action="store_true",
                        help="also time each configuration with tile-run "
                        "--tma (TMA copies on sm_90a), as 'tile+tma'")
    parser.add_argument("--c-dtype", default=None,
                        help="C's element type (the example's C_DTYPE; by "
                        "default each dtype's own): bf16 for the 8-bit "
                        "floats writes what torch._scaled_mm writes")
    parser.add_argument("--persistent", metavar="KERNEL",
                        help="also time, as 'persistent', a persistent "
                        "matmul taking the example's arguments "
                        "(examples/matmul_persistent.mlir) on a grid of as "
                        "many programs as fit, with TMA")
    parser.add_argument("--tma-only", action="store_true",
                        help="time 'tile+tma' alone, not the cp.async "
                        "'tile' runs beside it (a sweep of many shapes)")
    parser.add_argument("--ptx", action="append", default=[],
                        metavar="NAME=PATTERN",
                        help="also time, as NAME, the PTX file PATTERN "
                        "names ({dtype}, {bm}, {bn}, {bk}, {warps} and "
                        "{stages} filled in) with tile-run --ptx, where it "
                        "exists; may be repeated")
    parser.add_argument("--verify", metavar="DIR",
                        help="write each tile run's A, B and C under DIR "
                        "(say /dev/shm/mm) and check C against torch's "
                        "float32 product: 'matches' or 'WRONG' on its line")
    parser.add_argument("--triton", action="store_true",
                        help="also time a Triton kernel written as its "
                        "tutorial's, best of TRITON_CONFIGS, in the same run")
    args = parser.parse_args()
    import torch
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    triton_kernel = triton_matmul() if args.triton else None
    for dtype in args.dtypes.split(","):
        for size in args.sizes:
            m, n, k = (int(v) for v in size.split(","))
            flops = 2.0 * m * n * k
            try:
                ref = torch_time(torch, dtype, m, n, k, args.reps, flush=True)
                warm = torch_time(torch, dtype, m, n, k, args.reps,
                                  flush=False)
            except RuntimeError as error:
                # cuBLAS has no f8E5M2 x f8E5M2 product, for one.
                print(f"{dtype} {m}x{n}x{k}: no torch peer: "
                      f"{str(error).splitlines()[0][:120]}", flush=True)
                continue
            peer = "torch._scaled_mm" if dtype in F8 else "torch.matmul"
            print(f"{dtype} {m}x{n}x{k}: {peer} {ref:.4f} ms, "
                  f"{flops / ref / 1e9:.1f} TFLOPS with L2 flushed as for "
                  f"tile (ratios below are against this); {warm:.4f} ms, "
                  f"{flops / warm / 1e9:.1f} TFLOPS without", flush=True)
            if args.triton and dtype in ("f16", "bf16") + F8:
                best = triton_time(torch, triton_kernel, dtype, m, n, k,
                                   args.reps)
                if best:
                    ms, (bm, bn, bk, warps, stages) = best
                    print(f"  triton (best: {bm}x{bn}x{bk} {warps} warps "
                          f"{stages} stages): {ms:.4f} ms, "
                          f"{flops / ms / 1e9:.1f} TFLOPS, {ref / ms:.3f} of "
                          "torch.matmul", flush=True)
            baselines = []
            for value in args.baseline_run:
                name, _, path = value.rpartition("=")
                baselines.append((path, name or "baseline"))
            runs = []
            for index, config in enumerate(args.configs):
                if not args.tma_only:
                    runs.append((args.run, config, "tile"))
                if args.tma or args.tma_only:
                    runs.append((args.run, config, "tile+tma"))
                if args.persistent:
                    runs.append((args.run, config, "persistent"))
                if index == 0 or args.baseline_all:
                    runs += [(path, config, name) for path, name in baselines]
                runs += [(args.run, config, value)
                         for value in args.ptx]
            reference = []
            for run, config, name in runs:
                values = [int(v) for v in config.split(",")]
                bm, bn, bk, warps = values[:4]
                stages = values[4] if len(values) > 4 else 3
                ptx = None
                if "=" in name:
                    name, _, pattern = name.partition("=")
                    ptx = pattern.format(dtype=dtype, bm=bm, bn=bn, bk=bk,
                                         warps=warps, stages=stages)
                    if not os.path.exists(ptx):
                        continue
                params = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                          "NUM_WARPS": warps, "NUM_STAGES": stages,
                          "GROUP_M": 8}
                if args.verify:
                    os.makedirs(args.verify, exist_ok=True)
                ms, info = tile_time(run, dtype, m, n, k, params, args.reps,
                                     tma=name in ("tile+tma", "persistent")
                                     or bool(ptx),
                                     ptx=ptx, out_dir=args.verify,
                                     c_dtype=args.c_dtype,
                                     kernel=(args.persistent
                                             if name == "persistent" else
                                             "examples/matmul.mlir"),
                                     persistent=name == "persistent")
                label = f"  {name} {bm}x{bn}x{bk} {warps} warps {stages} stages"
                if args.c_dtype and args.c_dtype != dtype:
                    label += f" C {args.c_dtype}"
                if ms is None:
                    print(f"{label}: failed: {' | '.join(info)}", flush=True)
                    continue
                if args.verify:
                    c_dtype = args.c_dtype or dtype
                    error = check_result(torch, dtype, c_dtype, args.verify,
                                         reference)
                    verdict = ("matches" if error <= CHECK_TOLERANCE[c_dtype]
                               else "WRONG")
                    label += f" [{verdict}: max error {error:.2e} of the largest]"
                print(f"{label}: {ms:.4f} ms, {flops / ms / 1e9:.1f} TFLOPS, "
                      f"{ref / ms:.3f} of torch.matmul"
                      + (f" (registers {info[0]}, shared {info[1]} B, "
                         f"local {info[2]} B)" if info else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
