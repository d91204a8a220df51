#!/usr/bin/env python3
"""softmax_grid.mlir launched many times from one loaded module, each
output checked against float64: the launches alternate grids of different
sizes and rows of different counts, so that each starts from the slots and
the epoch the one before left (tile.grid_reduce's tags must never let a
launch take a slot of an earlier one for its own).

  python3 bench/grid_repeat_check.py [--launches 300] [--dtypes f32,bf16]

Prints one line per (dtype, configuration) and exits 1 if any output is
off.
"""
import argparse
import os
import sys

# (rtol, atol) of each element against float64.
TOLERANCE = {"f32": (1e-4, 1e-12), "f16": (4e-3, 1e-7), "bf16": (1.6e-2, 1e-30)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=300)
    parser.add_argument("--dtypes", default="f32,bf16")
    parser.add_argument("--configs", default="4096:8:1:3,1024:4:2:2,512:4:4:4,2048:8:1:1",
                        help="BLOCK_SIZE:NUM_WARPS:MIN_BLOCKS_PER_SM:NUM_STAGES,...")
    args = parser.parse_args()
    import torch
    import tile
    root = os.environ.get("TILE_KERNELS_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    path = os.path.join(root, "softmax_grid.mlir")
    tdtypes = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    failed = 0
    generator = torch.Generator(device="cpu").manual_seed(0)
    for dtype in args.dtypes.split(","):
        for config in args.configs.split(","):
            block, warps, blocks, stages = (int(v) for v in config.split(":"))
            kernel = tile.load(path, DTYPE=dtype, BLOCK_SIZE=block, NUM_WARPS=warps,
                               MIN_BLOCKS_PER_SM=blocks, NUM_STAGES=stages, tuning="defaults")
            worst, bad = 0.0, 0
            for launch in range(args.launches):
                m = int(torch.randint(1, 9, (1,), generator=generator))
                n = int(torch.randint(1, 300000, (1,), generator=generator))
                grid = "persistent" if launch % 3 else int(
                    torch.randint(1, 40, (1,), generator=generator))
                x = (torch.rand(m, n, generator=generator) * 16 - 8).to(tdtypes[dtype]).cuda()
                y = torch.full_like(x, float("nan"))
                kernel[grid](y, x, x.stride(0), y.stride(0), m, n)
                expected = torch.softmax(x.double().cpu(), dim=1)
                rtol, atol = TOLERANCE[dtype]
                excess = ((y.double().cpu() - expected).abs() - rtol * expected).max().item()
                worst = max(worst, excess)
                if not excess <= atol:
                    bad += 1
                    if bad <= 3:
                        print("  launch %d: %s %dx%d grid %s: off by %.3g beyond rtol %g"
                              % (launch, dtype, m, n, grid, excess, rtol), flush=True)
            failed += bad
            print("%s BLOCK_SIZE=%d NUM_WARPS=%d MIN_BLOCKS_PER_SM=%d NUM_STAGES=%d: %d launches, "
                  "%d off, worst excess over rtol %.3g" % (dtype, block, warps, blocks, stages,
                                                          args.launches, bad, worst), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
