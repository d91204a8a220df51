#!/usr/bin/env bash
# Two LayerNorm kernels (old: HEAD's, new: w and b loaded per row) at the same configurations, interleaved, 3 rounds.
set -u
mkdir -p /tmp/t && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('dist/tile-gpu/bin/tile-run.xz'),open('/tmp/t/tile-run','wb'))" && chmod +x /tmp/t/tile-run
for round in 1 2 3; do
for c in "4096 8192 8192 4" "4096 8192 8192 8" "2048 16384 16384 8" "2048 16384 16384 16" "4096 4096 4096 4" "4096 4096 4096 8" "1024 32768 32768 16" "16384 4096 4096 8"; do
  set -- $c; m=$1; n=$2; b=$3; w=$4
  for k in old new; do
    chk=(); [ $round = 1 ] && chk=(--check --check-seconds=5)
    line=$(TILE_CACHE_DIR=/tmp/t/cache-$k timeout 60 /tmp/t/tile-run dist/lnexp/$k/layer_norm.mlir --target=cuda -D DTYPE=bf16 -D ROWS=1 -D BLOCK_SIZE=$b -D NUM_WARPS=$w -D NUM_STAGES=2 --grid persistent:$m --arg "bf16[${m}x$n]=zeros" --arg "f32[$m]=zeros" --arg "f32[$m]=zeros" --arg "bf16[${m}x$n]=randn:0" --arg "bf16[$n]=randn:1" --arg "bf16[$n]=randn:2" --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n --arg f32=1e-5 "${chk[@]}" --bench 2>&1 | grep -E '^bench:|error|max rel' | tr '\n' ' ')
    echo "round $round ${m}x$n B=$b W=$w $k: $line"
  done
done; done
