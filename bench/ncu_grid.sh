#!/usr/bin/env bash
# Nsight Compute on examples/softmax_grid.mlir (rows split over the whole
# grid, one tile.grid_reduce exchange a row), on the GPU machine from the
# repository root with the bundle in dist/tile-gpu:
#
#   bench/ncu_grid.sh OUTDIR [DTYPE M N BLOCK_SIZE NUM_WARPS NUM_STAGES MIN_BLOCKS_PER_SM GRID]
#
# (default f32 64 1048576 4096 8 3 2 256: run 120's fastest, one block of
# the row a program). Writes OUTDIR/ncu-grid.txt (speed of light, memory
# workload, occupancy, warp states, schedulers), then the stall samples of
# each SASS instruction (OUTDIR/source-grid.csv.xz) and their summary by
# bench/ncu_source_summary.py (OUTDIR/source-grid-summary.txt): whether the
# warps wait in the exchange's polls, at the block barriers, or on the
# row's loads. At the GPU's own clocks (NCU_CLOCK_CONTROL=base for Nsight
# Compute's locked base clock), as a memory-bound kernel is timed.
set -uo pipefail
out=$1
dtype=${2:-f32} m=${3:-64} n=${4:-1048576} block=${5:-4096} warps=${6:-8}
stages=${7:-3} per_sm=${8:-2} grid=${9:-256}
run="$(bench/unpack-tile-run.sh)" || exit 1
mkdir -p "$out"
clock=(--clock-control "${NCU_CLOCK_CONTROL:-none}")
launch=("$run" examples/softmax_grid.mlir --target=cuda -D DTYPE="$dtype"
        -D BLOCK_SIZE="$block" -D NUM_WARPS="$warps" -D NUM_STAGES="$stages"
        -D MIN_BLOCKS_PER_SM="$per_sm" --grid "$grid"
        --arg "$dtype[${m}x$n]=zeros" --arg "$dtype[${m}x$n]=randn:0"
        --arg i32="$n" --arg i32="$n" --arg i32="$m" --arg i32="$n")
echo "== softmax_grid $dtype ${m}x$n BLOCK_SIZE=$block NUM_WARPS=$warps NUM_STAGES=$stages MIN_BLOCKS_PER_SM=$per_sm grid $grid" \
  > "$out/ncu-grid.txt"
timeout 200 ncu "${clock[@]}" --kernel-name regex:softmax_grid --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
  --section LaunchStats --section WarpStateStats --section SchedulerStats \
  "${launch[@]}" >> "$out/ncu-grid.txt" 2>&1
echo "ncu sections rc=$?"
timeout 200 ncu "${clock[@]}" --kernel-name regex:softmax_grid --launch-count 1 \
  --section SourceCounters --section WarpStateStats --import-source no -f \
  -o "$out/grid" "${launch[@]}" > "$out/ncu-grid-source.log" 2>&1
echo "ncu source rc=$?"
ncu -i "$out/grid.ncu-rep" --page source --csv --print-source sass \
  > "$out/source-grid.csv" 2> "$out/source-grid.err"
rm -f "$out/grid.ncu-rep"
python3 bench/ncu_source_summary.py "$out/source-grid.csv" --top 30 \
  > "$out/source-grid-summary.txt" 2>&1
echo "summary rc=$?"
xz -9 -f "$out/source-grid.csv"
