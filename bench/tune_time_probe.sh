#!/usr/bin/env bash
# Where --tune's time goes (issue 27: at most 10 s a shape), on the GPU
# machine from the repository root, with the bundle's tile-run unpacked
# into $TILE_BIN (default /tmp/tile-gpu/bin): per shape, tile-run --tune
# --bench once per mode of $MODES, in order, on one compile cache:
#   cold   --tune-top 32 with a fresh compile cache (what the sweep's tune
#          step paid)
#   warm   the same again: every candidate found compiled
#   reps20 warm, each candidate timed over 20 runs instead of 100
#   topN   warm, --tune-top N: with few candidates, what is left is the
#          search's own preparation of every configuration
# each with its wall time and the search's own ("tune: ... in S s").
#   SHAPES="f32:4096x8192" MODES="cold warm top8 top1" bash bench/tune_time_probe.sh
set -uo pipefail
bin="${TILE_BIN:-/tmp/tile-gpu/bin}"
work=$(mktemp -d)
for shape in ${SHAPES:-f32:4096x8192 f32:4096x1024 f16:1024x100000 bf16:1024x20000}; do
  dtype=${shape%%:*}; size=${shape#*:}; m=${size%x*}; n=${size#*x}
  kernels="examples/softmax_rows.mlir examples/softmax.mlir examples/online_softmax.mlir"
  [ "$n" -ge 16384 ] && kernels="$kernels examples/softmax_cluster.mlir"
  cache="$work/cache-$dtype-$size"
  for mode in ${MODES:-cold warm reps20}; do
    extra=(--tune-top 32)
    case "$mode" in
    reps20) extra+=(--bench-reps 20) ;;
    top*) extra=(--tune-top "${mode#top}") ;;
    esac
    start=$(date +%s%N)
    out=$(TILE_CACHE_DIR="$cache" "$bin/tile-run" $kernels --target=cuda -D DTYPE=$dtype \
      --grid persistent:$m --arg "$dtype[${m}x$n]=zeros" --arg "$dtype[${m}x$n]=uniform:0" \
      --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n --tune --bench "${extra[@]}" 2>/dev/null)
    end=$(date +%s%N)
    echo "$dtype ${m}x$n $mode: wall $(( (end - start) / 1000000 )) ms; $(echo "$out" | grep '^tune:' | head -1); $(echo "$out" | grep '^bench:' | cut -c1-40)"
  done
done
rm -rf "$work"
