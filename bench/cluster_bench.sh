#!/usr/bin/env bash
# softmax_cluster against online_softmax (its best configuration in the
# tuned sweep, bench/results/2026-11-23-h100-tuning-sweep-report.md) on rows
# of 32768 to 262144 floats, with --bench (CUDA events, L2 flushed, median
# of 100). Runs on the GPU machine from the repository root, with the
# bundle of scripts/build-gpu-bundle.sh in dist/tile-gpu:
#
#   bench/cluster_bench.sh [LOG]
set -uo pipefail
set -f
run="$(bench/unpack-tile-run.sh)" || exit 1
log="${1:-/dev/stdout}"
bench() { # M N FILE DEFINES...
  local m=$1 n=$2 file=$3
  shift 3
  local defines=()
  for d in "$@"; do defines+=(-D "$d"); done
  echo "== $m x $n $file $*"
  "$run" "dist/tile-gpu/src/examples/$file.mlir" --target=cuda "${defines[@]}" \
    --grid "persistent:$m" --bench \
    --arg "f32[${m}x${n}]=zeros" --arg "f32[${m}x${n}]=randn:0" \
    --arg "i32=$n" --arg "i32=$n" --arg "i32=$m" --arg "i32=$n" 2>&1 |
    grep -E "^(@|bench:|error|warning)"
}
{
  for n in 32768 65536 131072; do
    bench 1024 $n online_softmax BLOCK_SIZE=16384 NUM_WARPS=16
    for c in 2 4 8 16; do
      b=$((n / c))
      [ $b -le 32768 ] && [ $b -ge 2048 ] && bench 1024 $n softmax_cluster CLUSTER=$c BLOCK_SIZE=$b NUM_WARPS=16
    done
  done
  bench 256 262144 online_softmax BLOCK_SIZE=16384 NUM_WARPS=16
  bench 256 262144 softmax_cluster CLUSTER=8 BLOCK_SIZE=32768 NUM_WARPS=16
  bench 256 262144 softmax_cluster CLUSTER=16 BLOCK_SIZE=16384 NUM_WARPS=16
  bench 256 262144 softmax_cluster CLUSTER=16 BLOCK_SIZE=16384 NUM_WARPS=8
} > "$log"
