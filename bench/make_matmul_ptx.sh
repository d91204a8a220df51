#!/usr/bin/env bash
# Compiles examples/matmul.mlir for sm_90a with pipeline options tile-run
# does not take, specialized as tile-run specializes a launch whose sizes and
# strides are multiples of 16 with unit inner strides, into
# OUTDIR/NAME-DTYPE-BMxBNxBKxWARPSxSTAGES.ptx, for bench/matmul_bench.py --ptx:
#
#   bench/make_matmul_ptx.sh OUTDIR NAME "PIPELINE OPTIONS" DTYPES CONFIGS...
#
# CONFIGS as matmul_bench.py's: BLOCK_M,BLOCK_N,BLOCK_K,NUM_WARPS,NUM_STAGES.
set -euo pipefail
out=$1 name=$2 options=$3 dtypes=$4
shift 4
opt=${TILE_OPT:-build/bin/tile-opt}
mkdir -p "$out"
for dtype in ${dtypes//,/ }; do
  for config in "$@"; do
    IFS=, read -r bm bn bk warps stages <<< "$config"
    file="$out/$name-$dtype-${bm}x${bn}x${bk}x${warps}x${stages}.ptx"
    "$opt" examples/matmul.mlir -D DTYPE="$dtype" -D BLOCK_M="$bm" \
      -D BLOCK_N="$bn" -D BLOCK_K="$bk" -D NUM_WARPS="$warps" \
      -D NUM_STAGES="$stages" -D GROUP_M=8 \
      --tile-specialize-arguments="divisibility=0:16,1:16,2:16,3:16,4:16,5:16,${DIVISIBLE_STRIDES:-6:16,8:16,10:16} ones=${ONES:-7,9,11}" \
      --tile-to-ptx="chip=sm_90a $options dump-ptx=$file" -o /dev/null
    echo "$file"
  done
done
