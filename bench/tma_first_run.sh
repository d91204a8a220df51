#!/usr/bin/env bash
# The first GPU run of TMA copies (tile-run --tma, issue 26 step A.2), from
# the repository root on the GPU machine with the bundle in dist/tile-gpu:
# the GPU tests of tensor descriptors and tensor maps (test/cuda/
# tensor-desc.test, tensor-map.test), then the descriptor matmul
# (test/Pipelines/Inputs/matmul-desc.mlir) at M = N = K = 4096, f16,
# 128 x 128 x 64 blocks, 3 stages, 4 warps, timed with TMA copies and with
# cp.async (tile-run --bench, L2 flushed, median), beside torch.matmul.
# Logs into $OUT.
set -uo pipefail
out=${OUT:-/tmp/o}
mkdir -p "$out"
LIT_FILTER='tensor-desc|tensor-map' OUT="$out/suite" TILE_LIT_TIMEOUT=200 \
  bash dist/tile-gpu/run-gpu-tests.sh tests > "$out/tests-stdout.log" 2>&1
echo "tests rc=$?"
grep -E "PASS|FAIL|error|max (relative )?error" "$out/suite/gpu-tests.log" | head -40
run=/tmp/tile-gpu/bin/tile-run
n=4096
for mode in tma cp.async; do
  flag=""; [ "$mode" = tma ] && flag="--tma"
  TILE_CACHE_DIR=/tmp/tile-gpu/cache timeout 120 $run test/Pipelines/Inputs/matmul-desc.mlir --target=cuda $flag \
    --no-tuning-cache -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D NUM_STAGES=3 -D NUM_WARPS=4 \
    --grid $(( (n / 128) * (n / 128) )) \
    --arg "f16[${n}x${n}]=uniform:1" --arg "f16[${n}x${n}]=uniform:2" --arg "f16[${n}x${n}]=zeros" \
    --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$n \
    --bench --bench-reps 50 > "$out/matmul-$mode.log" 2>&1
  echo "matmul $mode rc=$?"
  grep -E "median|ms|TFLOP|error" "$out/matmul-$mode.log" | head -5
done
timeout 60 python3 -c "
import torch
a = torch.rand(4096, 4096, device='cuda', dtype=torch.float16)
b = torch.rand(4096, 4096, device='cuda', dtype=torch.float16)
for _ in range(5): a @ b
ts = []
for _ in range(50):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
ts.sort(); ms = ts[len(ts) // 2]
print('torch.matmul f16 4096^3: %.4f ms, %.1f TFLOPS' % (ms, 2 * 4096**3 / ms / 1e9))
" 2>&1 | tee "$out/torch.log"
