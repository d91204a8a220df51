#!/usr/bin/env bash
set -euo pipefail
out=bench/.abl
rm -rf $out; mkdir -p $out/k $out/ptx $out/cubin
cp examples/layer_norm_backward.mlir $out/k/ln_v0.mlir
cp examples/rms_norm_backward.mlir $out/k/rms_v0.mlir
: > $out/cases.txt
lnargs() { local m=$1 n=$2; echo "--arg bf16[${m}x${n}]=zeros --arg f32[528x${n}]=zeros --arg f32[528x${n}]=zeros --arg bf16[${m}x${n}]=fill:0.75 --arg bf16[${m}x${n}]=fill:1.25 --arg bf16[${n}]=fill:0.5 --arg f32[${m}]=fill:0.1 --arg f32[${m}]=fill:1.5 --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n"; }
rmsargs() { local m=$1 n=$2; echo "--arg bf16[${m}x${n}]=zeros --arg f32[528x${n}]=zeros --arg bf16[${m}x${n}]=fill:0.75 --arg bf16[${m}x${n}]=fill:1.25 --arg bf16[${n}]=fill:0.5 --arg f32[${m}]=fill:1.5 --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n"; }
add() { # name kernel compiler shape defs
  local name=$1 kern=$2 comp=$3 shape=$4; shift 4
  local m=${shape%x*} n=${shape#*x} args
  if [[ $kern == ln* ]]; then args=$(lnargs $m $n); bytes=$((3*m*n*2+3*n*2+8*m)); else args=$(rmsargs $m $n); bytes=$((3*m*n*2+2*n*2+4*m)); fi
  local defs="-D DTYPE=bf16 $*"
  /tmp/abl/bin/tile-run-$comp $out/k/$kern.mlir --emit=ptx --chip sm_90a $defs $args -o $out/ptx/$name.ptx
  echo "$name|$kern|$shape|$bytes|$defs --grid persistent:264 $args" >> $out/cases.txt
}
declare -A LN=( [4096x1024]="-D ROWS=2 -D BLOCK_SIZE=1024 -D NUM_WARPS=8 -D NUM_STAGES=4"
  [4096x4096]="-D ROWS=1 -D BLOCK_SIZE=4096 -D NUM_WARPS=16 -D NUM_STAGES=4"
  [16384x4096]="-D ROWS=1 -D BLOCK_SIZE=4096 -D NUM_WARPS=16 -D NUM_STAGES=4"
  [4096x8192]="-D ROWS=1 -D BLOCK_SIZE=8192 -D NUM_WARPS=16 -D NUM_STAGES=4"
  [32768x1024]="-D ROWS=2 -D BLOCK_SIZE=1024 -D NUM_WARPS=8 -D NUM_STAGES=4" )
declare -A RMS=( [4096x1024]="-D ROWS=4 -D BLOCK_SIZE=1024 -D NUM_WARPS=4 -D NUM_STAGES=3"
  [4096x4096]="-D ROWS=1 -D BLOCK_SIZE=4096 -D NUM_WARPS=4 -D NUM_STAGES=3"
  [16384x4096]="-D ROWS=1 -D BLOCK_SIZE=4096 -D NUM_WARPS=4 -D NUM_STAGES=3"
  [4096x8192]="-D ROWS=1 -D BLOCK_SIZE=8192 -D NUM_WARPS=8 -D NUM_STAGES=3"
  [32768x1024]="-D ROWS=4 -D BLOCK_SIZE=1024 -D NUM_WARPS=4 -D NUM_STAGES=3" )
for s in 4096x1024 4096x4096 16384x4096 4096x8192 32768x1024; do
  for c in head fma fma2; do add ln-$c-$s ln_v0 $c $s ${LN[$s]}; done
  for c in head fma2; do add rms-$c-$s rms_v0 $c $s ${RMS[$s]}; done
done
