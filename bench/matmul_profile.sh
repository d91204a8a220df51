#!/usr/bin/env bash
# ncu and the SASS of examples/matmul.mlir at 4096^3 f16 (128x256x64, 8
# warps, 3 stages: bench/matmul_bench.py's best) on the GPU machine, after the bundle is unpacked into
# /tmp/tile-gpu (dist/tile-gpu/run-gpu-tests.sh none). Writes
# $OUT/matmul-ncu.log and $OUT/matmul-sass.txt.
set -uo pipefail
set -f
work=/tmp/tile-gpu
export TILE_CACHE_DIR=$work/profile-cache
rm -rf "$TILE_CACHE_DIR"
m=4096 n=4096 k=4096
args=(examples/matmul.mlir --target=cuda --no-tuning-cache -D DTYPE=f16
  -D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=64 -D NUM_WARPS=8 -D NUM_STAGES=3
  -D GROUP_M=8 --grid 512
  --arg "f16[${m}x${k}]=uniform:1" --arg "f16[${k}x${n}]=uniform:2"
  --arg "f16[${m}x${n}]=zeros" --arg i32=$m --arg i32=$n --arg i32=$k
  --arg i32=$k --arg i32=1 --arg i32=$n --arg i32=1 --arg i32=$n --arg i32=1)
ncu --section SpeedOfLight --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section WarpStateStats --section Occupancy --section LaunchStats \
  --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_ldsm.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__inst_executed_pipe_tensor_op_hmma.sum \
  "$work/bin/tile-run" "${args[@]}" > "$OUT/matmul-ncu.log" 2>&1
cubin=$(find "$TILE_CACHE_DIR" -name '*.cubin' | head -n 1)
if [ -z "$cubin" ]; then
  entry=$(find "$TILE_CACHE_DIR" -name '*.ptx' | head -n 1)
  cubin=/tmp/matmul-profile.cubin
  # A compile-cache entry is a header, an empty line, then the PTX.
  sed '1,/^$/d' "$entry" > /tmp/matmul-profile.ptx
  ptxas -arch=sm_90 /tmp/matmul-profile.ptx -o "$cubin"
fi
{ echo "cubin: $cubin"; cuobjdump -sass "$cubin" 2>&1 || nvdisasm -c "$cubin"; } > "$OUT/matmul-sass.txt" 2>&1
grep -c HMMA "$OUT/matmul-sass.txt"
tail -n 60 "$OUT/matmul-ncu.log"
