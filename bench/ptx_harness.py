#!/usr/bin/env python3
"""Runs the compiler's PTX on the GPU machine: checks and times softmax.

The PTX comes from bench/make_variants.py (built here, carried there). This
harness loads it through the CUDA driver (ctypes), launches it on PyTorch's
tensors with a persistent grid sized by occupancy (as seeds 000/001 do),
checks every result against torch.softmax in float64, and times it beside
torch.softmax and a Triton fused softmax (seed 001's kernel, persistent,
num_warps=8, num_stages=4) in the same run, with triton.testing.do_bench
(median; L2 flushed between repetitions). GB/s = 2 * M * N * 4 / time.
"""
import ctypes
import json
import math
import os
import sys

import torch
import triton
from triton.testing import do_bench

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from triton_softmax import fused_kernel, online_kernel  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PTX_DIR = os.environ.get("PTX_DIR", os.path.join(HERE, "ptx"))
OUT = os.environ.get("OUT", "/tmp")
# Only these kernels (comma-separated), if set.
KERNELS = [k for k in os.environ.get("KERNELS", "").split(",") if k]
# Only these row lengths, if set.
COLS = [int(n) for n in os.environ.get("COLS", "").split(",") if n]

cuda = ctypes.CDLL("libcuda.so.1")


def check(result, what):
    if result != 0:
        text = ctypes.c_char_p()
        cuda.cuGetErrorString(result, ctypes.byref(text))
        raise RuntimeError("%s failed: %s" % (what, text.value.decode()))


class Kernel:
    def __init__(self, variant):
        self.v = variant
        ptx = open(os.path.join(PTX_DIR, variant["file"]), "rb").read() + b"\0"
        self.module = ctypes.c_void_p()
        check(cuda.cuModuleLoadData(ctypes.byref(self.module), ptx),
              "cuModuleLoadData(%s)" % variant["name"])
        self.func = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(self.func), self.module,
                                       variant["kernel"].encode()),
              "cuModuleGetFunction")
        self.threads = 32 * variant["warps"]
        blocks = ctypes.c_int()
        check(cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(blocks), self.func, self.threads, ctypes.c_size_t(0)),
            "cuOccupancyMaxActiveBlocksPerMultiprocessor")
        self.blocks_per_sm = blocks.value
        regs = ctypes.c_int()
        check(cuda.cuFuncGetAttribute(ctypes.byref(regs), 4, self.func),
              "cuFuncGetAttribute")  # CU_FUNC_ATTRIBUTE_NUM_REGS
        self.registers = regs.value

    def launcher(self, y, x):
        m, n = x.shape
        rows = self.v["rows_per_program"]
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        grid = max(1, min(sms * self.blocks_per_sm, math.ceil(m / rows)))
        args = [ctypes.c_uint64(y.data_ptr()), ctypes.c_uint64(x.data_ptr()),
                ctypes.c_int32(x.stride(0)), ctypes.c_int32(y.stride(0)),
                ctypes.c_int32(m), ctypes.c_int32(n)]
        params = (ctypes.c_void_p * len(args))(
            *[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

        def launch():
            check(cuda.cuLaunchKernel(self.func, grid, 1, 1, self.threads, 1, 1,
                                      0, stream, params, None), "cuLaunchKernel")
        launch.keep = (args, params)
        launch.grid = grid
        return launch


def triton_online(x, y):
    m, n = x.shape
    online_kernel[(m,)](y, x, x.stride(0), y.stride(0), n,
                               BLOCK_SIZE=4096, num_warps=16)


def triton_softmax(x, y):
    m, n = x.shape
    block = triton.next_power_of_2(n)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    grid = (min(sms * 4, m),)
    fused_kernel[grid](y, x, x.stride(0), y.stride(0), m, n,
                                BLOCK_SIZE=block, num_stages=4, num_warps=8)


def candidates(variants, n, kernels, dtype="f32"):
    aligned = n % 16 == 0
    block = triton.next_power_of_2(n)
    for v in variants:
        if v.get("dtype", "f32") != dtype:
            continue
        if v["aligned"] and not aligned:
            continue
        if not v["aligned"] and aligned:
            continue
        if v["kernel"] == "online_softmax":
            if v["defines"]["BLOCK_SIZE"] > block:
                continue
        elif v["max_cols"] != max(block, 256 if v["kernel"] == "softmax_rows" else 1024):
            continue
        if KERNELS and v["kernel"] not in KERNELS:
            continue
        yield kernels[v["name"]]


def main():
    variants = json.load(open(os.path.join(PTX_DIR, "manifest.json")))
    torch.manual_seed(0)
    # PyTorch creates and makes current the device's primary context, which
    # the driver calls below share.
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    check(cuda.cuInit(0), "cuInit")
    kernels = {}
    for v in variants:
        kernels[v["name"]] = Kernel(v)
    print("loaded %d kernels" % len(kernels), flush=True)

    # The ceiling: a device-to-device copy of 1 GiB (bytes read + written).
    src = torch.empty(1 << 28, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)
    t_copy = do_bench(lambda: dst.copy_(src), return_mode="median")
    print("copy 1 GiB: %.1f GB/s" % (2 * src.numel() * 4 / t_copy / 1e6), flush=True)
    del src, dst

    shapes = [(4096, n) for n in [256, 512, 768, 1024, 2048, 3072, 4096, 6144,
                                  8192, 12288, 12544, 16384]]
    shapes += [(1024, n) for n in [256, 1024, 4096, 16384, 32768, 65536, 131072]]
    shapes += [(1823, 781)]
    shapes = [(m, n, "f32") for m, n in shapes]
    shapes += [(4096, n, "f16") for n in [1024, 4096, 8192]]
    shapes += [(4096, 8192, "bf16")]
    if COLS:
        shapes = [s for s in shapes if s[1] in COLS]
    records = []
    failures = 0
    torch_dtypes = {"f32": torch.float32, "f16": torch.float16,
                    "bf16": torch.bfloat16}
    for m, n, dtype in shapes:
        elem = 4 if dtype == "f32" else 2
        tol = {"f32": 1e-5, "f16": 2e-3, "bf16": 1e-2}[dtype]
        x = torch.randn(m, n, device="cuda", dtype=torch_dtypes[dtype])
        ref = torch.softmax(x.double(), dim=-1)
        ref_norm = ref.norm().item()
        t_torch = do_bench(lambda: torch.softmax(x, dim=-1), return_mode="median")
        t_triton = None
        y_tr = torch.empty_like(x)
        if n <= 16384:
            triton_softmax(x, y_tr)
            t_triton = do_bench(lambda: triton_softmax(x, y_tr), return_mode="median")
        if m == 1024 and n >= 4096:
            # For long rows, seed 004's online kernel is Triton's best.
            triton_online(x, y_tr)
            t_online = do_bench(lambda: triton_online(x, y_tr), return_mode="median")
            if t_triton is None or t_online < t_triton:
                t_triton = t_online
        best = None
        for k in candidates(variants, n, kernels, dtype):
            y = torch.full_like(x, float("nan"))
            launch = k.launcher(y, x)
            launch()
            torch.cuda.synchronize()
            err = ((y.double() - ref).norm() / ref_norm).item()
            max_abs = (y.double() - ref).abs().max().item()
            ok = math.isfinite(err) and err < tol and max_abs < tol
            if not ok:
                failures += 1
                print("FAIL %s M=%d N=%d rel=%g max_abs=%g" % (
                    k.v["name"], m, n, err, max_abs), flush=True)
                records.append(dict(M=m, N=n, variant=k.v["name"], ok=False,
                                    rel=err, max_abs=max_abs))
                continue
            t = do_bench(launch, return_mode="median")
            rec = dict(M=m, N=n, variant=k.v["name"], ok=True, rel=err,
                       max_abs=max_abs, ms=t, grid=launch.grid,
                       regs=k.registers, blocks_per_sm=k.blocks_per_sm,
                       gbps=2 * m * n * elem / t / 1e6, dtype=dtype)
            records.append(rec)
            if best is None or t < best["ms"]:
                best = rec
        per_kernel = {}
        for r in records:
            if (r.get("M") == m and r.get("N") == n and r.get("ok")
                    and r.get("dtype") == dtype):
                kv = kernels[r["variant"]].v
                kname = kv["kernel"] + ("/s%d" % kv["defines"]["NUM_STAGES"]
                                        if "NUM_STAGES" in kv["defines"] else "")
                if kname not in per_kernel or r["ms"] < per_kernel[kname]["ms"]:
                    per_kernel[kname] = r
        detail = "  ".join("%s %.0f" % (k, r["gbps"]) for k, r in sorted(per_kernel.items()))
        gb = lambda t: 2 * m * n * elem / t / 1e6 if t else float("nan")
        line = dtype.rjust(4) + " M=%5d N=%6d | tile %7.1f GB/s (%s) | torch %7.1f | triton %7.1f | tile/torch %.2f tile/triton %s" % (
            m, n, best["gbps"] if best else float("nan"),
            best["variant"] if best else "-", gb(t_torch),
            gb(t_triton) if t_triton else float("nan"),
            (best["gbps"] / gb(t_torch)) if best else float("nan"),
            ("%.2f" % (best["gbps"] / gb(t_triton))) if (best and t_triton) else "-")
        print(line, flush=True)
        print("           best per kernel: " + detail, flush=True)
        records.append(dict(M=m, N=n, dtype=dtype, torch_ms=t_torch, triton_ms=t_triton,
                            best=best["variant"] if best else None, summary=line))
    with open(os.path.join(OUT, "harness.json"), "w") as f:
        json.dump(records, f, indent=1)
    print("failures: %d" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
