#!/usr/bin/env bash
# Run 100, GPU 1 (as run; recorded afterwards): the backward norms' parts
# (failed: TILE_LIBRARY was not set), the cluster kernels' NUM_STAGES=2
# checked (only the last 3 lines kept: no verdict) and tuned.
set -uo pipefail
o=/tmp/o; mkdir -p $o
run="$(TILE_GPU_WORK=/tmp/tgB bash bench/unpack-tile-run.sh)"
TILE_KERNELS_DIR=$PWD/dist/tile-gpu/src/examples timeout 230 python3 bench/norm_backward_parts.py \
  --shapes 4096x1024,4096x4096,16384x4096,4096x8192,2048x16384,32768x1024 --dtypes bf16,f32 > $o/parts.jsonl 2> $o/parts.err
echo "parts rc=$?"
for k in layer_norm rms_norm; do for t in bf16 f32; do
  m=300; n=16384
  if [ $k = layer_norm ]; then
    args="--arg $t[${m}x${n}]=zeros --arg f32[40x${n}]=zeros --arg f32[40x${n}]=zeros --arg $t[${m}x${n}]=randn:1 --arg $t[${m}x${n}]=randn:2 --arg $t[${n}]=randn:3 --arg f32[${m}]=randn:4 --arg f32[${m}]=uniform:5 --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n"
  else
    args="--arg $t[${m}x${n}]=zeros --arg f32[40x${n}]=zeros --arg $t[${m}x${n}]=randn:1 --arg $t[${m}x${n}]=randn:2 --arg $t[${n}]=randn:3 --arg f32[${m}]=uniform:5 --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n"
  fi
  echo "== check ${k}_backward_cluster $t NUM_STAGES=2"
  TILE_CACHE_DIR=/tmp/tgB/cache timeout 120 $run examples/${k}_backward_cluster.mlir -D DTYPE=$t -D CLUSTER=8 -D BLOCK_SIZE=2048 -D NUM_WARPS=4 -D NUM_STAGES=2 --grid persistent:320 $args --check --check-seconds 0 2>&1 | tail -3
done; done > $o/cluster-check.log 2>&1
for s in 2048x16384 1024x32768; do m=${s%x*}; n=${s#*x}
  for k in layer_norm rms_norm; do
    if [ $k = layer_norm ]; then
      args="--arg bf16[${m}x${n}]=zeros --arg f32[264x${n}]=zeros --arg f32[264x${n}]=zeros --arg bf16[${m}x${n}]=fill:0.75 --arg bf16[${m}x${n}]=fill:1.25 --arg bf16[${n}]=fill:0.5 --arg f32[${m}]=fill:0.1 --arg f32[${m}]=fill:1.5 --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n"; bytes=$((3*m*n*2+3*n*2+8*m))
    else
      args="--arg bf16[${m}x${n}]=zeros --arg f32[264x${n}]=zeros --arg bf16[${m}x${n}]=fill:0.75 --arg bf16[${m}x${n}]=fill:1.25 --arg bf16[${n}]=fill:0.5 --arg f32[${m}]=fill:1.5 --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n"; bytes=$((3*m*n*2+2*n*2+4*m))
    fi
    echo "== $k $s"
    TILE_CACHE_DIR=/tmp/tgB/tune-$k-$s timeout 100 $run examples/${k}_backward.mlir examples/${k}_backward_cluster.mlir -D DTYPE=bf16 --grid persistent:264 $args --tune --no-tuning-database --bench --bench-reps 40 --bytes $bytes 2>&1 | grep -E "^tuned:|^bench:|^tune: [0-9]+ config|NUM_STAGES=2.*ms|error"
  done
done > $o/cluster-tune.log 2>&1
echo callB done
# The call: GPU 0 ran `CUDA_VISIBLE_DEVICES=0 SUITE_SECONDS=440 WAIT_FILE=/tmp/o/callB.done
# WAIT_SECONDS=120 bash bench/gpu_session.sh suite wait-file` beside this on GPU 1.
