#!/usr/bin/env bash
# The tuned matmul against torch.matmul (cuBLAS), one GPU run: for each
# dtype, `tile-run --tune --bench` of examples/matmul.mlir at M = N = K =
# SIZE (default 4096) over the configurations of BLOCK_M x BLOCK_N x
# NUM_WARPS its declared space holds (BLOCK_K=64 NUM_STAGES=3 GROUP_M=8 set
# by hand: the rest of the space is issue 27's model's to search in
# seconds), the winner checked against the interpreter within
# --check-seconds; then bench/matmul_bench.py times the winner beside
# torch.matmul, L2 flushed for both. Run from the repository root on the GPU
# machine with the bundle in dist/tile-gpu; writes $OUT/matmul-tune.log.
#
#   bash bench/matmul_tune_run.sh [SIZE] [DTYPE...]
set -uo pipefail
size="${1:-4096}"
shift || true
dtypes=("${@:-f16}")
[ $# -eq 0 ] && dtypes=(f16 bf16)
out="${OUT:-$PWD/gpu-results}"
run="$(bench/unpack-tile-run.sh)" || exit 1
export TILE_CACHE_DIR="${TILE_GPU_WORK:-/tmp/tile-gpu}/cache"
log="$out/matmul-tune.log"
status=0
configs=()
for dtype in "${dtypes[@]}"; do
  m=$size n=$size k=$size
  echo "== tile-run --tune --bench, $dtype ${m}x${n}x${k}, BLOCK_K=64 NUM_STAGES=3 GROUP_M=8 set ($(date -u '+%F %H:%M UTC'))" | tee -a "$log"
  start=$SECONDS
  timeout 220 "$run" examples/matmul.mlir --target=cuda -D "DTYPE=$dtype" \
    -D BLOCK_K=64 -D NUM_STAGES=3 -D GROUP_M=8 \
    --grid 'cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)' \
    --arg "$dtype[${m}x${k}]=uniform:1" --arg "$dtype[${k}x${n}]=uniform:2" \
    --arg "$dtype[${m}x${n}]=zeros" \
    --arg "i32=$m" --arg "i32=$n" --arg "i32=$k" \
    --arg "i32=$k" --arg i32=1 --arg "i32=$n" --arg i32=1 \
    --arg "i32=$n" --arg i32=1 \
    --tune --bench --check-seconds 30 > "$out/tune-$dtype.txt" 2>&1
  code=$?
  grep -v '^tune: \[' "$out/tune-$dtype.txt" >> "$log"
  echo "(exit $code, $((SECONDS - start)) s)" | tee -a "$log"
  [ $code -eq 0 ] || status=1
  winner=$(sed -n 's/^tuned: BLOCK_M=\([0-9]*\) BLOCK_N=\([0-9]*\) NUM_WARPS=\([0-9]*\) .*/\1,\2,64,\3,3/p' "$out/tune-$dtype.txt" | tail -n 1)
  [ -n "$winner" ] && configs+=("$dtype:$winner")
done
for entry in "${configs[@]}"; do
  dtype=${entry%%:*} config=${entry#*:}
  echo "== the winner beside torch.matmul, $dtype: $config" | tee -a "$log"
  timeout 50 python3 bench/matmul_bench.py --run "$run" --dtypes "$dtype" \
    --sizes "$size,$size,$size" --configs "$config" --reps 50 2>&1 | tee -a "$log" || status=1
done
exit $status
