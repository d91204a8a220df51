#!/usr/bin/env bash
# Nsight Compute of tile's and Triton's matmuls at one shape and block (on
# the GPU machine, after the bundle's tile-run is unpacked):
#
#   bench/ncu_matmul.sh [--source] OUTDIR DTYPE M N K BLOCK_M BLOCK_N BLOCK_K WARPS STAGES
#
# By default the stall reasons, the shared-memory bank conflicts and the
# pipes' use, as text (OUTDIR/ncu-matmul-{tile,triton}.txt); with --source,
# the stall samples of each SASS instruction (Nsight Compute's source page)
# as CSV (OUTDIR/source-{tile,triton}.csv). NCU_CLOCK_CONTROL=none profiles
# at the GPU's own clocks instead of Nsight Compute's locked base clock (run
# 75: the two kernels level at the base clock, tile 5% slower by events).
#
# TILE_KERNEL (default examples/matmul.mlir), TILE_GRID (default one
# program per tile) and TILE_ARGS (say --tma=false for the cp.async
# copies; TMA is tile-run's default on sm_90a) choose tile's launch;
# NCU_NAME (default tile) names its files; NCU_TRITON=0 leaves Triton out.
set -uo pipefail
source_page=0
if [ "${1:-}" = --source ]; then source_page=1; shift; fi
out=$1 dtype=$2 m=$3 n=$4 k=$5 bm=$6 bn=$7 bk=$8 warps=$9 stages=${10}
run=${TILE_RUN:-/tmp/tile-gpu/bin/tile-run}
mkdir -p "$out"
grid=$(( ((m + bm - 1) / bm) * ((n + bn - 1) / bn) ))
clock=(--clock-control "${NCU_CLOCK_CONTROL:-base}")
if [ $source_page = 1 ]; then
  args=("${clock[@]}" --section SourceCounters --section WarpStateStats --import-source no -f)
else
  args=("${clock[@]}" --section SpeedOfLight --section WarpStateStats --section SourceCounters
        --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis
        --metrics "regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$,regex:^sm__pipe_tensor.*pct_of_peak_sustained_active$,smsp__sass_inst_executed_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")
fi
# profile NAME COMMAND...: one kernel's report, as text or as a saved report.
profile() {
  local name=$1; shift
  if [ $source_page = 1 ]; then
    timeout 200 ncu "${args[@]}" -o "$out/$name" "$@" > "$out/ncu-$name.log" 2>&1
  else
    timeout 200 ncu "${args[@]}" "$@" > "$out/ncu-matmul-$name.txt" 2>&1
  fi
  echo "ncu $name rc=$?"
}
name=${NCU_NAME:-tile}
# shellcheck disable=SC2086
profile "$name" --kernel-name regex:matmul --launch-count 1 \
  "$run" "${TILE_KERNEL:-examples/matmul.mlir}" --target=cuda ${TILE_ARGS:-} -D DTYPE="$dtype" \
  -D BLOCK_M="$bm" -D BLOCK_N="$bn" -D BLOCK_K="$bk" -D NUM_WARPS="$warps" \
  -D NUM_STAGES="$stages" --grid "${TILE_GRID:-$grid}" \
  --arg "$dtype[${m}x${k}]=randn:1" --arg "$dtype[${k}x${n}]=randn:2" \
  --arg "$dtype[${m}x${n}]=zeros" --arg i32="$m" --arg i32="$n" --arg i32="$k" \
  --arg i32="$k" --arg i32=1 --arg i32="$n" --arg i32=1 --arg i32="$n" \
  --arg i32=1
names=("$name")
if [ "${NCU_TRITON:-1}" != 0 ]; then
  profile triton --kernel-name 'regex:^kernel$' --launch-skip 1 --launch-count 1 \
    python3 bench/ncu_matmul_triton.py "$dtype" "$m" "$n" "$k" "$bm" "$bn" "$bk" \
    "$warps" "$stages"
  names+=(triton)
fi
if [ $source_page = 1 ]; then
  for name in "${names[@]}"; do
    ncu -i "$out/$name.ncu-rep" --page source --csv --print-source sass \
      > "$out/source-$name.csv" 2> "$out/source-$name.err"
    echo "source $name rc=$? $(wc -l < "$out/source-$name.csv") lines"
    rm -f "$out/$name.ncu-rep"
  done
fi
