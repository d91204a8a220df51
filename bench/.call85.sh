#!/usr/bin/env bash
# run 85: --tune over matmul.mlir and matmul_persistent.mlir (the check of dot kernels fixed in c8e7db0)
o=/tmp/o5; rm -rf $o; mkdir -p $o /tmp/tile-gpu/bin
for t in tile-run; do python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open('dist/tile-gpu/bin/$t.xz'),open('/tmp/tile-gpu/bin/$t','wb'))"; chmod +x /tmp/tile-gpu/bin/$t; done
run=/tmp/tile-gpu/bin/tile-run
nvidia-smi --query-gpu=name,clocks.max.mem --format=csv > $o/env.log
tune() { # DTYPE M N K TIMEOUT DEFINES...
  local d=$1 M=$2 N=$3 K=$4 t=$5; shift 5
  echo "== $d M=$M N=$N K=$K $* $(date -u +%H:%M:%S)"
  TILE_CACHE_DIR=$o/cache timeout $t $run dist/tile-gpu/src/examples/matmul.mlir dist/tile-gpu/src/examples/matmul_persistent.mlir \
    --target=cuda --tune --bench --check-seconds=5 -D DTYPE=$d "$@" \
    --grid 'cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)' --arg "$d[${M}x${K}]=randn:1" --arg "$d[${K}x${N}]=randn:2" --arg "$d[${M}x${N}]=zeros" \
    --arg i32=$M --arg i32=$N --arg i32=$K --arg i32=$K --arg i32=1 --arg i32=$N --arg i32=1 --arg i32=$N --arg i32=1 2>&1 | grep -v "^  argument [01] "
  echo "rc=${PIPESTATUS[0]}"
}
{
for d in bf16 f16; do
  for shape in "4096 4096 1024" "16384 16384 1024" "8192 8192 8192"; do
    set -- $shape
    tune $d $1 $2 $3 60 -D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=64 -D NUM_WARPS=8 -D GROUP_M=8
  done
done
tune bf16 4096 4096 1024 200 -D BLOCK_K=64 -D GROUP_M=8
} > $o/tune-variants.log 2>&1
tar cJf $OUT/tune.tar.xz -C /tmp o5
