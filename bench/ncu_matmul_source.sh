#!/usr/bin/env bash
# Per-instruction stall samples (Nsight Compute's source page, SASS) of
# tile's and Triton's matmuls at one shape and block, as CSV:
#
#   bench/ncu_matmul_source.sh OUTDIR DTYPE M N K BLOCK_M BLOCK_N BLOCK_K WARPS STAGES
set -uo pipefail
out=$1 dtype=$2 m=$3 n=$4 k=$5 bm=$6 bn=$7 bk=$8 warps=$9 stages=${10}
run=${TILE_RUN:-/tmp/tile-gpu/bin/tile-run}
mkdir -p "$out"
grid=$(( ((m + bm - 1) / bm) * ((n + bn - 1) / bn) ))
args=(--section SourceCounters --section WarpStateStats --import-source no -f)
timeout 200 ncu "${args[@]}" -o "$out/tile" --kernel-name regex:matmul --launch-count 1 \
  "$run" examples/matmul.mlir --target=cuda -D DTYPE="$dtype" \
  -D BLOCK_M="$bm" -D BLOCK_N="$bn" -D BLOCK_K="$bk" -D NUM_WARPS="$warps" \
  -D NUM_STAGES="$stages" --grid "$grid" \
  --arg "$dtype[${m}x${k}]=randn:1" --arg "$dtype[${k}x${n}]=randn:2" \
  --arg "$dtype[${m}x${n}]=zeros" --arg i32="$m" --arg i32="$n" --arg i32="$k" \
  --arg i32="$k" --arg i32=1 --arg i32="$n" --arg i32=1 --arg i32="$n" \
  --arg i32=1 > "$out/ncu-tile.log" 2>&1
echo "ncu tile rc=$?"
timeout 200 ncu "${args[@]}" -o "$out/triton" --kernel-name 'regex:^kernel$' --launch-skip 1 \
  --launch-count 1 python3 bench/ncu_matmul_triton.py "$dtype" "$m" "$n" "$k" \
  "$bm" "$bn" "$bk" "$warps" "$stages" > "$out/ncu-triton.log" 2>&1
echo "ncu triton rc=$?"
for f in tile triton; do
  ncu -i "$out/$f.ncu-rep" --page source --csv --print-source sass \
    > "$out/source-$f.csv" 2> "$out/source-$f.err"
  echo "source $f rc=$? $(wc -l < "$out/source-$f.csv") lines"
  rm -f "$out/$f.ncu-rep"
done
