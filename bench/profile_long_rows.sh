#!/usr/bin/env bash
# Nsight Compute on whole-row softmax at M x N f32 (default 1024 x 32768):
# tile's softmax.mlir and Triton's fused kernel (bench/triton_softmax.py) at
# the same warps and one stage, one launch each, with the sections that say
# where a memory-bound kernel's time goes (speed of light, memory workload,
# occupancy, warp states, launch statistics). Runs on the GPU machine from
# the repository root with the bundle in dist/tile-gpu:
#
#   bench/profile_long_rows.sh [M N WARPS] > LOG
set -uo pipefail
set -f
m=${1:-1024} n=${2:-32768} warps=${3:-32}
run="$(bench/unpack-tile-run.sh)" || exit 1
block=1
while [ $block -lt "$n" ]; do block=$((block * 2)); done
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis
          --section Occupancy --section LaunchStats --section WarpStateStats
          --section SchedulerStats)
echo "== tile softmax.mlir BLOCK_SIZE=$block NUM_WARPS=$warps NUM_STAGES=1, $m x $n"
ncu "${sections[@]}" --launch-count 1 "$run" examples/softmax.mlir --target=cuda \
  -D BLOCK_SIZE=$block -D NUM_WARPS=$warps -D NUM_STAGES=1 --grid "persistent:$m" \
  --arg "f32[${m}x${n}]=zeros" --arg "f32[${m}x${n}]=randn:0" \
  --arg "i32=$n" --arg "i32=$n" --arg "i32=$m" --arg "i32=$n" 2>&1
echo "== Triton fused num_warps=$warps num_stages=1, $m x $n"
cat > /tmp/triton_one.py <<PY
import sys, torch, triton
sys.path.insert(0, "bench")
from triton_softmax import fused_kernel
m, n, warps = $m, $n, $warps
x = torch.randn(m, n, device="cuda"); y = torch.empty_like(x)
grid = (min(torch.cuda.get_device_properties(0).multi_processor_count * 4, m),)
for _ in range(2):
    fused_kernel[grid](y, x, x.stride(0), y.stride(0), m, n,
                       BLOCK_SIZE=triton.next_power_of_2(n), num_stages=1,
                       num_warps=warps)
torch.cuda.synchronize()
PY
ncu "${sections[@]}" --kernel-name fused_kernel --launch-skip 1 --launch-count 1 \
  python3 /tmp/triton_one.py 2>&1
