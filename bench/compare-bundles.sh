#!/usr/bin/env bash
# Runs on the GPU machine: times the README's benchmark command with the
# tile-run of two GPU bundles (scripts/build-gpu-bundle.sh), interleaved in
# one run, each bundle with its own examples/softmax.mlir:
#
#   bench/compare-bundles.sh OLD_BUNDLE NEW_BUNDLE [ROUNDS]
#
# Prints every run's bench line, then per bundle the median of the rounds'
# medians and the ratio NEW / OLD of the times.
set -uo pipefail
set -f
old="$1" new="$2" rounds="${3:-5}"
work="${TILE_GPU_WORK:-/tmp/tile-compare}"
mkdir -p "$work"
for name in old new; do
  bundle="${!name}"
  mkdir -p "$work/$name"
  python3 -c 'import lzma, shutil, sys
with lzma.open(sys.argv[1]) as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)' "$bundle/bin/tile-run.xz" "$work/$name/tile-run" || exit 1
  chmod +x "$work/$name/tile-run"
  echo "== $name: $bundle"
  head -n 3 "$bundle/MANIFEST"
done
args=(--target=cuda -D BLOCK_SIZE=8192 -D NUM_WARPS=16 --grid persistent:4096
  --arg 'f32[4096x8192]=zeros' --arg 'f32[4096x8192]=randn:0'
  --arg i32=8192 --arg i32=8192 --arg i32=4096 --arg i32=8192 --check --bench)
echo "\$ tile-run examples/softmax.mlir ${args[*]}"
status=0
for round in $(seq "$rounds"); do
  for name in old new; do
    bundle="${!name}"
    TILE_CACHE_DIR="$work/$name/cache" timeout 120 "$work/$name/tile-run" \
      "$bundle/src/examples/softmax.mlir" "${args[@]}" > "$work/$name/last.log" 2>&1 ||
      { status=1; cat "$work/$name/last.log"; }
    line=$(grep '^bench:' "$work/$name/last.log")
    echo "round $round $name: $line"
    echo "$line" | sed -E 's/^bench: median ([0-9.]+) ms.*/\1/' >> "$work/$name/medians"
  done
done
for name in old new; do
  echo "$name: median of medians $(sort -g "$work/$name/medians" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') ms over $rounds rounds"
done
paste "$work/old/medians" "$work/new/medians" |
  awk '{r = $2 / $1; s += r; n++} END {printf "new / old time: mean ratio %.4f over %d rounds\n", s / n, n}'
exit $status
