#!/usr/bin/env bash
# Issue 27 on the GPU (from the repository root on the GPU machine, the
# bundle of scripts/build-gpu-bundle.sh in dist/tile-gpu), in steps that
# each fit one device call, named on the command line in the order to run:
#
#   untuned   the softmax sweep with no tuning cache and no tuning database
#             (the cost model's choice): $OUT/untuned.jsonl
#   torch     torch.softmax at the same shapes, timed the same way:
#             $OUT/baseline.jsonl
#   tune      tile-run --tune --tune-top $TUNE_TOP --bench per shape (each
#             record with the search's wall time): $OUT/tune.jsonl; then the
#             tuning cache exported as a tuning database, $OUT/tuned-$PART.txt
#   database  merges every tuned-*.txt under $DATABASES (default
#             bench/gpu-databases) and $OUT into $OUT/h100.txt, then runs
#             the sweep with a cache holding only that database:
#             $OUT/database.jsonl
#
#   TUNE_TOP=32 DTYPES=f32,f16,bf16 SHAPES=4096x256,... PART=b \
#       bash bench/issue27_gpu_run.sh untuned torch tune
#
# SHAPES and DTYPES: bench/tune_sweep.py's (default: its whole sweep). Each
# step runs under a time limit (UNTUNED_SECONDS, TORCH_SECONDS,
# TUNE_SECONDS, DATABASE_SECONDS) so that the later steps run whatever the
# earlier ones got through.
set -uo pipefail
out="${OUT:-$PWD/gpu-results}"
mkdir -p "$out"
export OUT="$out" TILE_SWEEP_INIT="${TILE_SWEEP_INIT:-uniform:0}" PYTHONUNBUFFERED=1
work="${TILE_GPU_WORK:-/tmp/tile-sweep}"
sweep=(--dtypes "${DTYPES:-f32,f16,bf16}")
[ -n "${SHAPES:-}" ] && sweep+=(--shapes "$SHAPES")
status=0
for step in "$@"; do
  echo "== $step ($(date -u '+%H:%M:%S'))"
  case "$step" in
  untuned)
    timeout "${UNTUNED_SECONDS:-200}" python3 bench/tune_sweep.py untuned \
      "${sweep[@]}" > "$out/untuned-stdout.log" 2>&1 || status=1 ;;
  torch)
    timeout "${TORCH_SECONDS:-100}" python3 bench/tune_sweep.py baseline \
      --torch-only "${sweep[@]}" > "$out/baseline-stdout.log" 2>&1 || status=1 ;;
  tune)
    timeout "${TUNE_SECONDS:-300}" python3 bench/tune_sweep.py tune \
      --tune-top "${TUNE_TOP:-32}" "${sweep[@]}" > "$out/tune-stdout.log" 2>&1 || status=1
    TILE_CACHE_DIR="$work/cache" "$work/bin/tile-run" \
      --tune-export "$out/tuned-${PART:-a}.txt" || status=1 ;;
  database)
    merged="$work/merge-cache"
    rm -rf "$merged"
    for file in "${DATABASES:-bench/gpu-databases}"/tuned-*.txt "$out"/tuned-*.txt; do
      [ -f "$file" ] || continue
      TILE_CACHE_DIR="$merged" "$work/bin/tile-run" --tune-import "$file" || status=1
    done
    # The imported databases, merged (a later record of a key wins).
    cp "$merged/tuning-imported.txt" "$out/h100.txt" || status=1
    timeout "${DATABASE_SECONDS:-200}" python3 bench/tune_sweep.py database \
      --database "$out/h100.txt" "${sweep[@]}" > "$out/database-stdout.log" 2>&1 || status=1 ;;
  *)
    echo "unknown step: $step" >&2
    status=1 ;;
  esac
done
for file in "$out"/*.jsonl; do
  echo "$file: $(grep -c '"ok": true' "$file") ok, $(grep -c '"ok": false' "$file") failed"
done
exit $status
