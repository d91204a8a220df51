#!/usr/bin/env bash
# One GPU session's matmul checks beside the GPU suite: compute-sanitizer
# (memcheck, racecheck) on tensor-core matmuls at odd shapes, then
# bench/matmul_bench.py against torch.matmul. Run from the repository root
# on the GPU machine after dist/tile-gpu/run-gpu-tests.sh unpacked the
# bundle into $TILE_GPU_WORK (default /tmp/tile-gpu); writes
# $OUT/matmul-sanitizer.log and $OUT/matmul-bench.log.
set -uo pipefail
set -f
work="${TILE_GPU_WORK:-/tmp/tile-gpu}"
out="${OUT:-$PWD/gpu-results}"
export PATH="$work/bin:$PATH:/usr/local/cuda/bin"
export TILE_CACHE_DIR="$work/cache"
ex=examples
runs=(
  "$ex/matmul.mlir --target=cuda -D DTYPE=f16 --grid 2 --arg f16[77x39]=randn:1 --arg f16[39x45]=randn:2 --arg f16[77x45]=zeros --arg i32=77 --arg i32=45 --arg i32=39 --arg i32=39 --arg i32=1 --arg i32=45 --arg i32=1 --arg i32=45 --arg i32=1 --check --atol 1e-2"
  "$ex/matmul.mlir --target=cuda -D DTYPE=bf16 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=16 -D NUM_WARPS=2 --grid 6 --arg bf16[39x77]=randn:3 --arg bf16[39x45]=randn:4 --arg bf16[77x45]=zeros --arg i32=77 --arg i32=45 --arg i32=39 --arg i32=1 --arg i32=77 --arg i32=45 --arg i32=1 --arg i32=45 --arg i32=1 --check --atol 1e-2"
  "$ex/matmul.mlir --target=cuda -D DTYPE=f32 --grid 2 --arg f32[77x39]=randn:5 --arg f32[45x39]=randn:6 --arg f32[77x48]=zeros --arg i32=77 --arg i32=45 --arg i32=39 --arg i32=39 --arg i32=1 --arg i32=1 --arg i32=39 --arg i32=48 --arg i32=1 --check --atol 1e-2 --rtol 1e-3"
)
status=0
{
  echo "== compute-sanitizer ($(compute-sanitizer --version | tail -n 1))"
  for tool in memcheck racecheck; do
    for run in "${runs[@]}"; do
      echo "\$ compute-sanitizer --tool $tool --error-exitcode 99 tile-run $run --no-guards"
      # shellcheck disable=SC2086
      timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 99 \
        tile-run $run --no-guards || status=1
      echo
    done
  done
} > "$out/matmul-sanitizer.log" 2>&1
cat "$out/matmul-sanitizer.log"
timeout 400 python3 bench/matmul_bench.py --run "$work/bin/tile-run" \
  > "$out/matmul-bench.log" 2>&1 || status=1
cat "$out/matmul-bench.log"
exit $status
