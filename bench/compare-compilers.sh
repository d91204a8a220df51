#!/usr/bin/env bash
# Runs on the GPU machine: the same launches compiled by the tile-run of two
# bundles (scripts/build-gpu-bundle.sh; each bin/tile-run.xz), the kernels
# of EXAMPLES (one directory for both), interleaved for ROUNDS rounds, each
# launch checked against the interpreter:
#
#   bench/compare-compilers.sh OLD_BUNDLE NEW_BUNDLE EXAMPLES [ROUNDS]
#
# Prints every bench line, then per launch and compiler the median of the
# rounds' medians and the ratio NEW / OLD of the times. The first round
# checks each launch's results against the interpreter (a sample of its
# programs, within --check-seconds), the others only time. The launches: the
# cluster softmax at rows of 100000 f16 held to 2 and to 3 blocks per SM
# (waves 1 and all), the whole-row softmax at 4096 x 8192 f32, LayerNorm
# at 4096 x 8192 bf16, and cross-entropy forward and backward at 4096 x
# 50257 bf16 (rows at every offset from a multiple of 8).
set -uo pipefail
set -f
old="$1" new="$2" examples="$3" rounds="${4:-3}"
work="${TILE_GPU_WORK:-/tmp/tile-compare-compilers}"
mkdir -p "$work"
declare -A runs
for name in old new; do
  bundle="${!name}"
  runs[$name]="$(TILE_BUNDLE="$bundle" TILE_GPU_WORK="$work/$name" \
    bash "$(dirname "$0")/unpack-tile-run.sh")" || exit 1
  echo "== $name: $bundle: $(sed -n 2p "$bundle/MANIFEST")"
done
cluster=(softmax_cluster.mlir -D DTYPE=f16 -D CLUSTER=8 -D BLOCK_SIZE=16384 -D NUM_STAGES=2
  -D NUM_WARPS=4 --grid persistent:1024 --arg 'f16[1024x100000]=zeros'
  --arg 'f16[1024x100000]=randn:0' --arg i32=100000 --arg i32=100000 --arg i32=1024 --arg i32=100000)
declare -A cases=(
  [cluster-mb2-w1]="${cluster[*]} -D MIN_BLOCKS_PER_SM=2 --waves 1"
  [cluster-mb3-w1]="${cluster[*]} -D MIN_BLOCKS_PER_SM=3 --waves 1"
  [cluster-mb3-all]="${cluster[*]} -D MIN_BLOCKS_PER_SM=3 --waves all"
  [softmax-f32-8192]="softmax.mlir -D BLOCK_SIZE=8192 -D NUM_WARPS=16 --grid persistent:4096 --arg f32[4096x8192]=zeros --arg f32[4096x8192]=randn:0 --arg i32=8192 --arg i32=8192 --arg i32=4096 --arg i32=8192"
  [ce-bf16-50257]="cross_entropy.mlir -D DTYPE=bf16 -D GROUPS=512 -D NUM_STAGES=2 -D NUM_WARPS=4 --grid persistent:4096 --waves 4 --arg f32[4096]=zeros --arg f32[4096]=zeros --arg bf16[4096x50257]=randn:0 --arg i64[4096]=zeros --arg i32=50257 --arg i32=4096 --arg i32=50257 --arg i64=-100 --arg f32=0.1"
  [ce-backward-bf16-50257]="cross_entropy_backward.mlir -D DTYPE=bf16 -D BLOCK_SIZE=8192 -D NUM_STAGES=2 -D NUM_WARPS=16 --grid persistent:4096 --waves all --arg bf16[4096x50257]=zeros --arg f32[4096]=randn:1 --arg bf16[4096x50257]=randn:0 --arg i64[4096]=zeros --arg f32[4096]=randn:2 --arg i32=50257 --arg i32=50257 --arg i32=4096 --arg i32=50257 --arg i64=-100 --arg f32=0.1"
  [layer_norm-bf16-8192]="layer_norm.mlir -D DTYPE=bf16 -D BLOCK_SIZE=8192 -D NUM_WARPS=8 --grid persistent:4096 --arg bf16[4096x8192]=zeros --arg f32[4096]=zeros --arg f32[4096]=zeros --arg bf16[4096x8192]=randn:0 --arg bf16[8192]=randn:1 --arg bf16[8192]=randn:2 --arg i32=8192 --arg i32=8192 --arg i32=4096 --arg i32=8192 --arg f32=1e-5"
)
status=0
for round in $(seq "$rounds"); do
  for label in $(printf '%s\n' "${!cases[@]}" | sort); do
    read -r -a args <<< "${cases[$label]}"
    file="$examples/${args[0]}"
    check=()
    [ "$round" = 1 ] && check=(--check --check-seconds=5)
    for name in old new; do
      TILE_CACHE_DIR="$work/$name/cache" timeout 120 "${runs[$name]}" "$file" \
        --target=cuda "${args[@]:1}" "${check[@]}" --bench > "$work/$name/last.log" 2>&1 ||
        { status=1; cat "$work/$name/last.log"; }
      line=$(grep '^bench:' "$work/$name/last.log")
      echo "round $round $label $name: $line"
      echo "$line" | sed -E 's/^bench: median ([0-9.]+) ms.*/\1/' >> "$work/$name/$label.medians"
    done
  done
done
for label in $(printf '%s\n' "${!cases[@]}" | sort); do
  o=$(sort -g "$work/old/$label.medians" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  n=$(sort -g "$work/new/$label.medians" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$label: old $o ms, new $n ms, new / old $(awk -v o="$o" -v n="$n" 'BEGIN {printf "%.4f", n / o}')"
done
exit $status
