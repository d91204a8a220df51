#!/usr/bin/env bash
# On the GPU machine, from the repository root with the bundle in
# dist/tile-gpu: cuda/tune.test alone, then tile-run --tune --bench at f32
# 4096 x 8192 with --tune-top 32 (twice: the second finds every candidate
# compiled), 8 and 1, and one untuned launch, each with its wall time: what
# part of the search is the candidates' (compiling, timing) and what part
# is every configuration's (preparing the search). Results under /tmp/o.
set -u
mkdir -p /tmp/o
(OUT=/tmp/o/suite LIT_FILTER=tune timeout 200 bash dist/tile-gpu/run-gpu-tests.sh tests > /tmp/o/suite-stdout.log 2>&1; echo "tune.test rc=$?")
tail -4 /tmp/o/suite/gpu-tests.log
bin=/tmp/tile-gpu/bin; cache=/tmp/probe-cache
k="examples/softmax_rows.mlir examples/softmax.mlir examples/online_softmax.mlir"
for top in 32 32 8 1; do
  s=$(date +%s%N)
  out=$(TILE_CACHE_DIR=$cache $bin/tile-run $k --target=cuda -D DTYPE=f32 --grid persistent:4096 --arg 'f32[4096x8192]=zeros' --arg 'f32[4096x8192]=uniform:0' --arg i32=8192 --arg i32=8192 --arg i32=4096 --arg i32=8192 --tune --bench --tune-top $top 2>/dev/null)
  e=$(date +%s%N)
  echo "top $top: wall $(( (e - s) / 1000000 )) ms; $(echo "$out" | grep '^tune:' | head -1)"
done
s=$(date +%s%N)
TILE_CACHE_DIR=$cache $bin/tile-run $k --target=cuda -D DTYPE=f32 --grid persistent:4096 --arg 'f32[4096x8192]=zeros' --arg 'f32[4096x8192]=uniform:0' --arg i32=8192 --arg i32=8192 --arg i32=4096 --arg i32=8192 --bench --no-tuning-cache --no-tuning-database > /tmp/o/untuned.log 2>&1
e=$(date +%s%N); echo "untuned launch: wall $(( (e - s) / 1000000 )) ms"
