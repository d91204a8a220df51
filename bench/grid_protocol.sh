#!/usr/bin/env bash
# How tile.grid_reduce's protocol (convert-tilegpu-to-llvm's
# grid-reduce-leader and grid-reduce-backoff options) changes softmax_grid,
# which exchanges once a row across the grid:
#
#   bench/grid_protocol.sh compile OUTDIR   (here: tile-opt compiles the PTX;
#                                           bench/ptx-grid is git-ignored:
#                                           carry it to the GPU)
#   bench/grid_protocol.sh run OUTDIR TILE-RUN   (on the GPU: tile-run --ptx)
#
# Variants: every program combines every program's slots (all), program 0
# combines and posts the result that the others poll (leader; the default
# since run 119), each with and without a nanosleep between polls that
# found slots not ready; bench/softmax_grid_rows4.mlir (four rows an
# exchange) with the leader (rows4); and bench/softmax_grid_groups2.mlir
# (the grid in halves, two rows in flight, one exchange for both; groups2).
# Cases: 64 x 2^20 (the issue's long rows: one block of the row a
# program, 128 programs of 8192 columns, 256 of 4096, 512 of 2048) and
# 64 x 4096 (rows too short to take any time: the exchange alone, on every
# program that fits), f32 and bf16; each variant is
# checked against the interpreter in f32 first. The PTX is compiled as
# tile-run would specialize these launches (strides and columns multiples
# of 16), so it is only run on such shapes.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bench/grid_protocol.sh compile OUTDIR | run OUTDIR TILE-RUN" >&2
  exit 2
fi
mode=$1 out=$2
variants="all:grid-reduce-leader=false all-b100:grid-reduce-leader=false,grid-reduce-backoff=100 leader:grid-reduce-leader=true leader-b200:grid-reduce-leader=true,grid-reduce-backoff=200 rows4:grid-reduce-leader=true groups2:grid-reduce-leader=true"
# The kernel file of a variant: rows4 is bench/softmax_grid_rows4.mlir (four
# rows an exchange), groups2 bench/softmax_grid_groups2.mlir (the grid in
# two halves, two rows in flight, one exchange for both), the others
# examples/softmax_grid.mlir.
kernel_of() {
  case "$1" in
  rows4) echo bench/softmax_grid_rows4.mlir ;;
  groups2) echo bench/softmax_grid_groups2.mlir ;;
  *) echo examples/softmax_grid.mlir ;;
  esac
}
# BLOCK_SIZE:NUM_WARPS:NUM_STAGES:MIN_BLOCKS_PER_SM
configs="8192:16:2:1 8192:16:3:1 8192:8:2:1 8192:8:3:1 8192:8:4:1 4096:8:3:2 2048:8:3:4 1024:4:2:2"
# rows4's own (four rows of the block a program held at once: one stage).
rows4_configs="8192:16:1:1 4096:16:1:2 2048:8:1:4"
# groups2's: two (8192 columns) or four (4096) programs an SM, each holding
# a block of one row.
groups2_configs="8192:8:3:2 8192:8:2:2 4096:8:3:4"
configs_of() {
  case "$1" in
  rows4) echo "$rows4_configs" ;;
  groups2) echo "$groups2_configs" ;;
  *) echo "$configs" ;;
  esac
}
# At run, GRID_VARIANTS and GRID_CONFIGS (names and configurations, space
# separated) pick some of those compiled.
case "$mode" in
compile)
  opt=${TILE_OPT:-build/bin/tile-opt}
  mkdir -p "$out"
  for v in $variants; do
    name=${v%%:*} options=${v#*:}
    for dtype in f32 bf16; do
      for c in $(configs_of $name); do
        IFS=: read -r block warps stages per_sm <<< "$c"
        file="$out/$name-$dtype-$block-$warps-$stages-$per_sm.ptx"
        "$opt" "$(kernel_of $name)" -D DTYPE="$dtype" -D BLOCK_SIZE="$block" \
          -D NUM_WARPS="$warps" -D NUM_STAGES="$stages" -D MIN_BLOCKS_PER_SM="$per_sm" \
          --tile-specialize-arguments="divisibility=2:16,3:16,5:16" \
          --tile-to-ptx="chip=sm_90a ${options//,/ } dump-ptx=$file" -o /dev/null || exit 1
      done
    done
  done
  ls "$out" | wc -l ;;
run)
  run=$3
  # The launch names the meta-parameters the PTX was compiled with ($defs,
  # set per configuration): tile-run takes the block size and the
  # parameters' types from the module, not from the PTX.
  launch() { # PTX DTYPE ROWS COLS GRID EXTRA...
    local ptx=$1 dtype=$2 m=$3 n=$4 grid=$5
    shift 5
    "$run" "$kfile" $defs --target=cuda --ptx "$ptx" --grid "$grid" \
      --arg "$dtype[${m}x$n]=zeros" --arg "$dtype[${m}x$n]=randn:0" \
      --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n "$@" 2>&1
  }
  # First (so that a run cut off by its time limit keeps them): a copy of
  # 64 x 2^20 elements (read and write), and tile.ops.softmax (the split
  # path; where the package loads: TILE_LIBRARY and PYTHONPATH, as
  # bench/gpu_session.sh sets them), timed as --bench times: CUDA events, L2
  # flushed, the median of 50 after 10.
  python3 -c "
import torch
try:
    import tile.ops as ops
except Exception as error:
    ops = None
    print('== tile.ops not loaded:', error)
def median_ms(run):
    flush = torch.empty(1 << 28, dtype=torch.int8, device='cuda')
    ts = []
    for i in range(60):
        flush.zero_(); s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); run(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts = sorted(ts[10:]); return ts[len(ts) // 2]
for dt in (torch.float32, torch.bfloat16):
    x = torch.randn(64, 1 << 20, device='cuda', dtype=dt); y = torch.empty_like(x)
    nbytes = 2 * x.numel() * x.element_size()
    ms = median_ms(lambda: y.copy_(x))
    print('== copy', dt, '64x1048576: %.4f ms, %.0f GB/s' % (ms, nbytes / ms / 1e6))
    if ops is not None:
        ops.softmax(x); torch.cuda.synchronize()
        ms = median_ms(lambda: ops.softmax(x))
        err = (ops.softmax(x).double() - torch.softmax(x.double(), 1)).abs().max().item()
        print('== tile.ops.softmax', dt, '64x1048576: %.4f ms, %.0f GB/s (max error %.2e)' % (ms, nbytes / ms / 1e6, err))
"
  for v in $variants; do
    name=${v%%:*}
    [[ " ${GRID_VARIANTS:-$name} " == *" $name "* ]] || continue
    kfile=$(kernel_of $name)
    for dtype in f32 bf16; do
      size=4; [ $dtype = bf16 ] && size=2
      for c in ${GRID_CONFIGS:-$(configs_of $name)}; do
        IFS=: read -r block warps stages per_sm <<< "$c"
        defs="-D DTYPE=$dtype -D BLOCK_SIZE=$block -D NUM_WARPS=$warps -D NUM_STAGES=$stages -D MIN_BLOCKS_PER_SM=$per_sm"
        ptx="$out/$name-$dtype-$block-$warps-$stages-$per_sm.ptx"
        [ -f "$ptx" ] || continue
        tag="$name $dtype $block:$warps:$stages:$per_sm"
        if [ "$block" -ge 2048 ]; then
          # Rows of 2^20 on a grid of one block a program (two rows at
          # once for groups2).
          grid=$((1048576 / block))
          [ "$name" = groups2 ] && grid=$((2 * grid))
          [ $dtype = f32 ] && echo "== $tag check 4x1048576 grid $grid: $(launch "$ptx" $dtype 4 1048576 $grid --check | grep -E 'argument|error' | tr '\n' ' ')"
          echo "== $tag 64x1048576 grid $grid: $(launch "$ptx" $dtype 64 1048576 $grid --bench --bytes $((2 * 64 * 1048576 * size)) | tail -1)"
        else
          [ $dtype = f32 ] && echo "== $tag check 64x4096 persistent: $(launch "$ptx" $dtype 64 4096 persistent --check | grep -E 'argument|error' | tr '\n' ' ')"
          echo "== $tag 64x4096 persistent: $(launch "$ptx" $dtype 64 4096 persistent --bench --bytes $((2 * 64 * 4096 * size)) | tail -1)"
          echo "== $tag 64x4096 grid 132: $(launch "$ptx" $dtype 64 4096 132 --bench --bytes $((2 * 64 * 4096 * size)) | tail -1)"
        fi
      done
    done
  done ;;
esac
