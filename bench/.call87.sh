#!/usr/bin/env bash
# Run 87 (H200 x2): GPU 0 the GPU tests, 8-bit tile-smith kernels and TMA
# kernels; GPU 1 the kernels bench (first call, CUDA graphs) in bf16 and f32.
set -uo pipefail
o=/tmp/o; mkdir -p $o /tmp/lib
python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('dist/tile-gpu/lib/libtile-c.so.xz'),open('/tmp/lib/libtile-c.so','wb'))"
export TILE_LIBRARY=/tmp/lib/libtile-c.so PYTHONPATH=dist/tile-gpu/src/python PYTHONUNBUFFERED=1
nvidia-smi > $o/env.log 2>&1
( while sleep 20; do tar cJf $OUT/partial.tar.xz.tmp -C /tmp o 2>/dev/null && mv $OUT/partial.tar.xz.tmp $OUT/partial.tar.xz; done ) &
packer=$!
( export CUDA_VISIBLE_DEVICES=0
  OUT=$o/suite TILE_GPU_WORK=/tmp/tg0 timeout 260 bash dist/tile-gpu/run-gpu-tests.sh tests > $o/tests-stdout.log 2>&1
  echo "tests rc=$?" >> $o/tests-stdout.log
  OUT=$o/f8 TILE_GPU_WORK=/tmp/tg0 TILE_DIFFTEST_COUNT=250 TILE_DIFFTEST_SANITIZE=10 TILE_DIFFTEST_ARGS="--with-op f8E4M3FN> --seed 1" \
    timeout 170 bash dist/tile-gpu/run-gpu-tests.sh difftest > $o/f8-stdout.log 2>&1
  echo "f8 rc=$?" >> $o/f8-stdout.log
  pkill -f difftest.py
  OUT=$o/tma TILE_GPU_WORK=/tmp/tg0 TILE_DIFFTEST_COUNT=100 TILE_DIFFTEST_SANITIZE=5 TILE_DIFFTEST_ARGS="--tma --with-tma --seed 7000" \
    timeout 110 bash dist/tile-gpu/run-gpu-tests.sh difftest > $o/tma-stdout.log 2>&1
  echo "tma rc=$?" >> $o/tma-stdout.log
  pkill -f difftest.py ) &
a=$!
( export CUDA_VISIBLE_DEVICES=1
  TILE_KERNELS_DIR=$PWD/dist/tile-gpu/src/examples timeout 540 python3 bench/kernels_bench.py --graph --dtypes bf16,f32 \
    > $o/kernels.jsonl 2> $o/kernels.err
  echo "kernels rc=$?" >> $o/kernels.err ) &
b=$!
wait $a $b
kill $packer 2>/dev/null; wait $packer 2>/dev/null; rm -f $OUT/partial.tar.xz.tmp $OUT/partial.tar.xz
tar cJf $OUT/results.tar.xz -C /tmp o
