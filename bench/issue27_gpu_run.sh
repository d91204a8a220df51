#!/usr/bin/env bash
# Issue 27 on the GPU, one run (from the repository root on the GPU machine,
# the bundle of scripts/build-gpu-bundle.sh in dist/tile-gpu): the softmax
# sweep with no stored choice (the cost model's), then tuned with
# --tune-top N per shape (the cost model's N first of each kernel, each
# record with the search's wall time), both through bench/tune_sweep.py in
# one run; then the tuned choices exported as a tuning database
# ($OUT/h100.txt, for tuning/h100.txt). Writes $OUT/untuned.jsonl,
# $OUT/tune.jsonl, their logs and $OUT/h100.txt.
#
#   TUNE_TOP=32 DTYPES=f32,f16,bf16 bash bench/issue27_gpu_run.sh [SHAPES]
#
# SHAPES: bench/tune_sweep.py's --shapes (default: its whole sweep). Each
# phase runs under a time limit (UNTUNED_SECONDS, TUNE_SECONDS) so that the
# export runs whatever the tuning got through.
set -uo pipefail
out="${OUT:-$PWD/gpu-results}"
mkdir -p "$out"
export OUT="$out" TILE_SWEEP_INIT="${TILE_SWEEP_INIT:-uniform:0}" PYTHONUNBUFFERED=1
top="${TUNE_TOP:-32}"
dtypes="${DTYPES:-f32,f16,bf16}"
shapes=()
[ $# -gt 0 ] && shapes=(--shapes "$1")
status=0
timeout "${UNTUNED_SECONDS:-200}" python3 bench/tune_sweep.py untuned \
  --dtypes "$dtypes" "${shapes[@]}" > "$out/untuned-stdout.log" 2>&1 || status=1
timeout "${TUNE_SECONDS:-300}" python3 bench/tune_sweep.py tune --tune-top "$top" \
  --dtypes "$dtypes" "${shapes[@]}" > "$out/tune-stdout.log" 2>&1 || status=1
# The tuner's cache (bench/tune_sweep.py's $TILE_GPU_WORK/cache) as a
# tuning database.
work="${TILE_GPU_WORK:-/tmp/tile-sweep}"
TILE_CACHE_DIR="$work/cache" "$work/bin/tile-run" --tune-export "$out/h100.txt" || status=1
grep -c '"ok": true' "$out/untuned.jsonl" "$out/tune.jsonl"
exit $status
