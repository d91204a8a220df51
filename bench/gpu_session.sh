#!/usr/bin/env bash
# One device call of this session's GPU work (from the repository root on
# the GPU machine, the bundle in dist/tile-gpu with its src/ synced to the
# working tree): the steps named on the command line, each writing under
# /tmp/o, which is packed into $OUT/results.tar.xz at the end (the device
# returns at most 8 files).
#
#   suite     the GPU tests, compute-sanitizer and 300 random kernels
#             ($SUITE_PARTS of them, $SUITE_DIFFTEST_COUNT kernels, in
#             $SUITE_SECONDS)
#   tests     the GPU tests alone
#   tma-difftest
#             $TMA_DIFFTEST_COUNT random kernels with TMA copies (--with-tma)
#             (default 150, 20 of them under compute-sanitizer) on the GPU
#             with tile-run --tma, from seed $TMA_DIFFTEST_SEED
#   op-difftest
#             $OP_DIFFTEST_COUNT random kernels with $OP_DIFFTEST_OP (default
#             40 with tile.grid_reduce, $OP_DIFFTEST_SANITIZE of them under
#             compute-sanitizer) on the GPU, from seed $OP_DIFFTEST_SEED
#   kernels-old-new
#             bench/kernels_bench.py --tile-only at its shapes, with the
#             kernels of dist/tile-gpu/old-examples (an older commit's
#             examples/*.mlir, written there by `git show COMMIT:FILE`, and
#             carried with the bundle) and then the current ones
#   kernels   bench/kernels_bench.py (tile, eager, torch.compile) at
#             $KERNEL_SHAPES / $KERNELS / $KERNEL_DTYPES (or the list
#             $KERNEL_CASES, KERNEL:DTYPE:MxN,...) (with
#             KERNELS_NO_TORCH=1, tile and the copy alone; with
#             KERNELS_TUNE=1, tuned too, the tunes exported to
#             kernels-tuned.txt)
#   ops-tests python/tests/test_ops_gpu.py (tile.ops against float64 torch;
#             OPS_TESTS_K selects tests as pytest -k does)
#   overhead  bench/ops_overhead.py (host time, events, CUDA graph)
#   parts     bench/norm_backward_parts.py (the backward norms: whole, the
#             kernel alone, the partial sums alone, a copy) at $PARTS_SHAPES
#             / $PARTS_DTYPES
#   ncu       Nsight Compute on tile.ops kernels ($NCU_CASES)
#   i27-STEP  bench/issue27_gpu_run.sh STEP (untuned, torch, tune,
#             database) into /tmp/o/i27
#   interleaved
#             bench/issue27_interleaved.py (tuned, untuned, database,
#             torch.softmax and a copy timed in turn in one process) for
#             $I27_DTYPES at $I27_SHAPES (default: its sweep), with
#             --exhaust $I27_EXHAUST, --database $I27_DATABASE and
#             --export $I27_EXPORT (and --slot-controls with
#             I27_SLOT_CONTROLS=1), into /tmp/o/$I27_NAME.jsonl (default
#             interleaved); the caches stay in $I27_WORK (default
#             /tmp/tile-i27) for the next call
#   sweep-parallel
#             interleaved for each dtype at once on GPUs of its own (and,
#             with SWEEP_SUITE=1, the suite and compare-compilers beside)
#   grid-check
#             bench/grid_repeat_check.py (softmax_grid launched many times
#             from one module, grids and rows varying, each output checked)
#   grid-protocol
#             bench/grid_protocol.sh run bench/ptx-grid (the PTX compiled here
#             by bench/grid_protocol.sh compile bench/ptx-grid, carried) into
#             /tmp/o/grid-protocol.log, within $GRID_PROTOCOL_SECONDS
#   long-rows bench/long_rows_bench.py (softmax on rows of 2^20: the
#             split path, online_softmax, online_softmax_cluster (none with
#             LONG_NO_CLUSTER=1), softmax_grid (the model's, and
#             $LONG_GRID_CONFIGS; bench/softmax_grid_rows4.mlir at
#             $LONG_ROWS4_CONFIGS), torch, copy) at $LONG_SHAPES / $LONG_DTYPES
#   timing    bench/timing_conditions.py (one configuration in two slots,
#             under three timing conditions)
#   matmul    bench/matmul_bench.py (tile beside torch.matmul, and
#             Triton with MATMUL_TRITON=1, each configuration also with
#             --tma with MATMUL_TMA=1) at $MATMUL_SIZES (issue26:
#             issue 26's sweep) with $MATMUL_CONFIGS (and an older
#             tile-run, NAME=PATH, timed beside it on each with
#             MATMUL_BASELINE; and PTX compiled here, NAME=PATTERN ...
#             for matmul_bench.py --ptx, with MATMUL_PTX; with
#             MATMUL_VERIFY=1, each tile result checked against torch), into
#             /tmp/o/$MATMUL_NAME.log (default matmul-bench);
#             MATMUL_CONFIGS=issue26 names eight configurations for it
#   ncu-grid  bench/ncu_grid.sh (softmax_grid's sections, and the stall
#             samples of each SASS instruction, summarized by
#             bench/ncu_source_summary.py) at $NCU_GRID (default f32 64 x
#             2^20, 4096 columns a program on 8 warps, 256 programs)
#   ncu-matmul
#             bench/ncu_matmul.sh (stall reasons, then the stall samples of
#             each SASS instruction with --source) of tile's and Triton's
#             matmuls at $NCU_MATMUL (DTYPE M N K BLOCK_M BLOCK_N BLOCK_K
#             WARPS STAGES; default f16 at 4096^3, 128 x 256 x 64, 8 warps,
#             3 stages), and Triton's PTX
#   queued    bench/queued_vs_persistent.py (softmax_cluster, clusters of
#             16: the persistent grid against one cluster per row) at
#             $QUEUED_SHAPES / $QUEUED_DTYPES
#   wait-file waits (at most $WAIT_SECONDS, default 300) for the file
#             $WAIT_FILE, which a job of the call's own on another GPU
#             writes when it is done, so that its logs under /tmp/o are
#             packed too
#   (kernels-old-new also takes OLDNEW_SHAPES, and OLDNEW_TUNE=1 to tune
#   each case as well, so that both kernels are timed at their own best)
set -uo pipefail
o=/tmp/o
mkdir -p $o /tmp/lib
export PYTHONUNBUFFERED=1
python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('dist/tile-gpu/lib/libtile-c.so.xz'),open('/tmp/lib/libtile-c.so','wb'))"
export TILE_LIBRARY=/tmp/lib/libtile-c.so PYTHONPATH=dist/tile-gpu/src/python
nvidia-smi > $o/env.log 2>&1
# The memory's clock and bus width, which the cost model reads
# (GpuModel::fromDevice; the H100's figures assume 2619 MHz over 5120 bits).
nvidia-smi --query-gpu=name,clocks.max.mem,memory.total --format=csv >> $o/env.log 2>&1
python3 -c "import torch; p = torch.cuda.get_device_properties(0); print('memory_clock_rate', p.memory_clock_rate, 'memory_bus_width', p.memory_bus_width)" >> $o/env.log 2>&1
python3 -c "import torch,triton;print(torch.__version__,triton.__version__)" >> $o/env.log 2>&1
# What the steps have written so far, packed every 20 s into
# $OUT/partial.tar.xz: a call cut off by its time limit (or the device
# budget) still brings back the records made before (run 35 lost a whole
# call's records that way).
( while sleep 20; do tar cJf $OUT/partial.tar.xz.tmp -C /tmp o 2>/dev/null &&
    mv $OUT/partial.tar.xz.tmp $OUT/partial.tar.xz; done ) &
packer=$!
for step in "$@"; do
  echo "== $step $(date -u +%H:%M:%S)"
  case "$step" in
  suite)
    OUT=$o/suite TILE_DIFFTEST_COUNT=${SUITE_DIFFTEST_COUNT:-300} TILE_DIFFTEST_SANITIZE=20 \
      timeout ${SUITE_SECONDS:-420} bash dist/tile-gpu/run-gpu-tests.sh ${SUITE_PARTS:-tests sanitizer difftest} > $o/suite-stdout.log 2>&1
    echo "suite rc=$?"
    # What a timeout left running (difftest's workers) stops here.
    pkill -f difftest.py; pkill -f /tmp/tile-gpu/bin/ ;;
  op-difftest)
    OUT=$o/op-difftest TILE_DIFFTEST_COUNT=${OP_DIFFTEST_COUNT:-40} TILE_DIFFTEST_SANITIZE=${OP_DIFFTEST_SANITIZE:-10} \
      TILE_DIFFTEST_ARGS="--with-op ${OP_DIFFTEST_OP:-tile.grid_reduce} --seed ${OP_DIFFTEST_SEED:-1}" \
      timeout ${OP_DIFFTEST_SECONDS:-200} bash dist/tile-gpu/run-gpu-tests.sh difftest > $o/op-difftest-stdout.log 2>&1
    echo "op-difftest rc=$?" ;;
  tma-difftest)
    OUT=$o/tma TILE_DIFFTEST_COUNT=${TMA_DIFFTEST_COUNT:-150} TILE_DIFFTEST_SANITIZE=${TMA_DIFFTEST_SANITIZE:-20} \
      TILE_DIFFTEST_ARGS="--tma --with-tma --seed ${TMA_DIFFTEST_SEED:-1}" \
      timeout ${TMA_DIFFTEST_SECONDS:-240} bash dist/tile-gpu/run-gpu-tests.sh difftest > $o/tma-difftest-stdout.log 2>&1
    echo "tma-difftest rc=$?"
    pkill -f difftest.py; pkill -f /tmp/tile-gpu/bin/ ;;
  tests)
    OUT=$o/suite timeout ${TESTS_SECONDS:-300} bash dist/tile-gpu/run-gpu-tests.sh tests > $o/tests-stdout.log 2>&1
    echo "tests rc=$?" ;;
  kernels-old-new)
    TILE_KERNELS_DIR=$PWD/dist/tile-gpu/old-examples timeout ${OLDNEW_SECONDS:-110} python3 bench/kernels_bench.py --tile-only --dtypes ${OLDNEW_DTYPES:-bf16} \
      ${KERNELS:+--kernels $KERNELS} ${OLDNEW_SHAPES:+--shapes $OLDNEW_SHAPES} ${OLDNEW_TUNE:+--tune} \
      > $o/kernels-old.jsonl 2> $o/kernels-old.err
    TILE_KERNELS_DIR=$PWD/dist/tile-gpu/src/examples timeout ${OLDNEW_SECONDS:-110} python3 bench/kernels_bench.py --tile-only --dtypes ${OLDNEW_DTYPES:-bf16} \
      ${KERNELS:+--kernels $KERNELS} ${OLDNEW_SHAPES:+--shapes $OLDNEW_SHAPES} ${OLDNEW_TUNE:+--tune} \
      > $o/kernels-new.jsonl 2> $o/kernels-new.err
    echo "old-new done" ;;
  kernels)
    TILE_KERNELS_DIR=$PWD/dist/tile-gpu/src/examples timeout ${KERNELS_SECONDS:-500} python3 bench/kernels_bench.py ${KERNELS_GRAPH:+--graph} \
      ${KERNELS_NO_TORCH:+--no-torch} \
      ${KERNEL_CASES:+--cases $KERNEL_CASES} ${KERNEL_SHAPES:+--shapes $KERNEL_SHAPES} ${KERNELS:+--kernels $KERNELS} ${KERNEL_DTYPES:+--dtypes $KERNEL_DTYPES} \
      ${KERNELS_TUNE:+--tune --export $o/kernels-tuned.txt} > $o/kernels.jsonl 2> $o/kernels.err
    echo "kernels done" ;;
  ops-tests)
    timeout ${OPS_TESTS_SECONDS:-200} python3 -m pytest -q -p no:cacheprovider -rs python/tests/test_ops_gpu.py ${OPS_TESTS_K:+-k "$OPS_TESTS_K"} \
      > $o/ops-tests.log 2>&1
    echo "ops-tests rc=$?" ;;
  overhead)
    timeout ${OVERHEAD_SECONDS:-200} python3 bench/ops_overhead.py ${OVERHEAD_SHAPES:+--shapes $OVERHEAD_SHAPES} \
      ${OVERHEAD_KERNELS:+--kernels $OVERHEAD_KERNELS} ${OVERHEAD_DTYPES:+--dtypes $OVERHEAD_DTYPES} \
      ${OVERHEAD_CAPS:+--partial-rows $OVERHEAD_CAPS} \
      > $o/overhead.jsonl 2> $o/overhead.err
    echo "overhead done" ;;
  parts)
    TILE_KERNELS_DIR=$PWD/dist/tile-gpu/src/examples timeout ${PARTS_SECONDS:-200} python3 bench/norm_backward_parts.py \
      ${PARTS_SHAPES:+--shapes $PARTS_SHAPES} ${PARTS_DTYPES:+--dtypes $PARTS_DTYPES} > $o/parts.jsonl 2> $o/parts.err
    echo "parts rc=$?" ;;
  ncu)
    # NCU_CASES: KERNEL:DTYPE:MxN:NAME_REGEX,... (the regex matches the tile
    # kernel's function name).
    for c in ${NCU_CASES//,/ }; do
      IFS=: read -r k d s r <<< "$c"
      timeout 120 ncu --kernel-name "regex:$r" --launch-skip 4 --launch-count 1 \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
        --section LaunchStats --section SchedulerStats --section WarpStateStats --section SourceCounters \
        python3 bench/ncu_ops.py $k $d $s > $o/ncu-$k-$d-$s.txt 2>&1
      echo "ncu $c rc=$?"
    done ;;
  grid-protocol)
    mkdir -p /tmp/tile-gpu/bin
    [ -x /tmp/tile-gpu/bin/tile-run ] || python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('dist/tile-gpu/bin/tile-run.xz'),open('/tmp/tile-gpu/bin/tile-run','wb'))"
    chmod +x /tmp/tile-gpu/bin/tile-run
    TILE_CACHE_DIR=/tmp/tile-gpu/cache timeout ${GRID_PROTOCOL_SECONDS:-300} bash bench/grid_protocol.sh run bench/ptx-grid /tmp/tile-gpu/bin/tile-run \
      > $o/grid-protocol.log 2>&1
    echo "grid-protocol rc=$?" ;;
  grid-check)
    TILE_KERNELS_DIR=$PWD/dist/tile-gpu/src/examples timeout ${GRID_CHECK_SECONDS:-200} python3 bench/grid_repeat_check.py \
      ${GRID_CHECK_LAUNCHES:+--launches $GRID_CHECK_LAUNCHES} > $o/grid-check.log 2>&1
    echo "grid-check rc=$?" ;;
  long-rows)
    TILE_KERNELS_DIR=$PWD/dist/tile-gpu/src/examples timeout ${LONG_SECONDS:-300} python3 bench/long_rows_bench.py \
      ${LONG_SHAPES:+--shapes $LONG_SHAPES} ${LONG_DTYPES:+--dtypes $LONG_DTYPES} ${LONG_SKIP_TUNE:+--skip-tune} \
      ${LONG_NO_CLUSTER:+--no-cluster} ${LONG_GRID_CONFIGS:+--grid-configs $LONG_GRID_CONFIGS} \
      ${LONG_ROWS4_CONFIGS:+--rows4-configs $LONG_ROWS4_CONFIGS} > $o/long-rows.jsonl 2> $o/long-rows.err
    echo "long-rows rc=$?" ;;
  timing)
    TILE_KERNELS_DIR=$PWD/dist/tile-gpu/src/examples timeout ${TIMING_SECONDS:-200} python3 bench/timing_conditions.py \
      > $o/timing.jsonl 2> $o/timing.err
    echo "timing rc=$?" ;;
  ncu-grid)
    # NCU_GRID: DTYPE M N BLOCK_SIZE NUM_WARPS NUM_STAGES MIN_BLOCKS_PER_SM GRID
    # (default bench/ncu_grid.sh's: f32 64 x 2^20, run 120's fastest).
    timeout ${NCU_GRID_SECONDS:-420} bash bench/ncu_grid.sh $o/ncu-grid ${NCU_GRID:-}
    echo "ncu-grid rc=$?" ;;
  ncu-matmul)
    mkdir -p /tmp/tile-gpu/bin
    [ -x /tmp/tile-gpu/bin/tile-run ] || python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('dist/tile-gpu/bin/tile-run.xz'),open('/tmp/tile-gpu/bin/tile-run','wb'))"
    chmod +x /tmp/tile-gpu/bin/tile-run
    spec=${NCU_MATMUL:-f16 4096 4096 4096 128 256 64 8 3}
    TRITON_PTX_OUT=$o/ncu-matmul/triton.ptx bash bench/ncu_matmul.sh $o/ncu-matmul $spec
    bash bench/ncu_matmul.sh --source $o/ncu-matmul $spec
    for f in $o/ncu-matmul/*.csv; do [ -f "$f" ] && xz -9 "$f"; done
    echo "ncu-matmul done" ;;
  queued)
    mkdir -p /tmp/tile-gpu/bin
    [ -x /tmp/tile-gpu/bin/tile-run ] || python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('dist/tile-gpu/bin/tile-run.xz'),open('/tmp/tile-gpu/bin/tile-run','wb'))"
    chmod +x /tmp/tile-gpu/bin/tile-run
    timeout ${QUEUED_SECONDS:-300} python3 bench/queued_vs_persistent.py /tmp/tile-gpu/bin/tile-run \
      ${QUEUED_DTYPES:+--dtypes $QUEUED_DTYPES} ${QUEUED_SHAPES:+--shapes $QUEUED_SHAPES} > $o/queued.log 2>&1
    echo "queued rc=$?" ;;
  matmul)
    # MATMUL_SIZES=issue26: issue 26's sweep (square 1024 to 16384, skinny
    # K = 1024, 16384 x 4096 x 4096); bench/matmul_report.py tabulates it.
    [ "${MATMUL_SIZES:-}" = issue26 ] && MATMUL_SIZES="1024,1024,1024 2048,2048,2048 4096,4096,4096 8192,8192,8192 16384,16384,16384 4096,4096,1024 8192,8192,1024 16384,16384,1024 16384,4096,4096"
    # MATMUL_CONFIGS=issue26: run 72's blocks and the small ones with
    # deeper rings that Triton won with at 1024^3 on the H100 (run 114).
    [ "${MATMUL_CONFIGS:-}" = issue26 ] && MATMUL_CONFIGS="128,256,64,8,3 128,256,64,8,4 256,128,64,8,3 128,128,64,8,3 128,128,64,4,3 64,128,64,4,4 64,128,64,4,6 64,256,64,4,4"
    mkdir -p /tmp/tile-gpu/bin
    [ -x /tmp/tile-gpu/bin/tile-run ] || python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('dist/tile-gpu/bin/tile-run.xz'),open('/tmp/tile-gpu/bin/tile-run','wb'))"
    chmod +x /tmp/tile-gpu/bin/tile-run
    TILE_CACHE_DIR=/tmp/tile-gpu/cache timeout ${MATMUL_SECONDS:-300} python3 bench/matmul_bench.py --run /tmp/tile-gpu/bin/tile-run \
      ${MATMUL_DTYPES:+--dtypes $MATMUL_DTYPES} ${MATMUL_SIZES:+--sizes $MATMUL_SIZES} ${MATMUL_CONFIGS:+--configs $MATMUL_CONFIGS} ${MATMUL_TRITON:+--triton} ${MATMUL_TMA:+--tma} ${MATMUL_TMA_ONLY:+--tma-only} ${MATMUL_C_DTYPE:+--c-dtype $MATMUL_C_DTYPE} ${MATMUL_PERSISTENT:+--persistent $MATMUL_PERSISTENT} \
      ${MATMUL_BASELINE:+--baseline-run $MATMUL_BASELINE --baseline-all} \
      $(for v in ${MATMUL_PTX:-}; do echo --ptx $v; done) ${MATMUL_VERIFY:+--verify /dev/shm/matmul-verify} \
      > $o/${MATMUL_NAME:-matmul-bench}.log 2>&1
    echo "matmul rc=$?" ;;
  interleaved)
    TILE_BUNDLE_SRC=$PWD/dist/tile-gpu/src timeout ${I27_SECONDS:-560} python3 bench/issue27_interleaved.py \
      --dtypes ${I27_DTYPES:-f32,f16,bf16} ${I27_SHAPES:+--shapes $I27_SHAPES} ${I27_EXHAUST:+--exhaust $I27_EXHAUST} \
      ${I27_DATABASE:+--database $I27_DATABASE} ${I27_EXPORT:+--export $I27_EXPORT} \
      $([ "${I27_SLOT_CONTROLS:-0}" = 1 ] && echo --slot-controls) \
      --seconds ${I27_START_BEFORE:-480} --work ${I27_WORK:-/tmp/tile-i27} \
      --out $o/${I27_NAME:-interleaved}.jsonl > $o/${I27_NAME:-interleaved}.log 2>&1
    echo "interleaved rc=$?" ;;
  sweep-parallel)
    # The interleaved step for each of $I27_DTYPES at once, the i-th on GPU
    # i of a machine of several (each GPU timing only its own launches), with
    # --exhaust $I27_EXHAUST_<dtype>, into /tmp/o/$I27_NAME-<dtype>.jsonl
    # and its tunes exported to /tmp/o/$I27_NAME-<dtype>-tuned.txt; with
    # SWEEP_SUITE=1, the suite and bench/compare-compilers.sh (OLD_BUNDLE
    # against the bundle) on the next GPU meanwhile (its parts
    # $SUITE_PARTS, $SUITE_DIFFTEST random kernels, within $SUITE_SECONDS).
    gpu=0
    sweep_pids=()
    for dt in ${I27_DTYPES//,/ }; do
      exhaust_var=I27_EXHAUST_$dt
      CUDA_VISIBLE_DEVICES=$gpu TILE_BUNDLE_SRC=$PWD/dist/tile-gpu/src timeout ${I27_SECONDS:-560} \
        python3 bench/issue27_interleaved.py --dtypes $dt ${!exhaust_var:+--exhaust ${!exhaust_var}} \
        --export $o/${I27_NAME:-sweep}-$dt-tuned.txt --seconds ${I27_START_BEFORE:-480} \
        --work /tmp/tile-i27-$dt --out $o/${I27_NAME:-sweep}-$dt.jsonl > $o/${I27_NAME:-sweep}-$dt.log 2>&1 &
      sweep_pids+=($!)
      gpu=$((gpu + 1))
    done
    if [ -n "${SWEEP_SUITE:-}" ]; then
      ( export CUDA_VISIBLE_DEVICES=$gpu
        OUT=$o/suite TILE_DIFFTEST_COUNT=${SUITE_DIFFTEST:-300} TILE_DIFFTEST_SANITIZE=20 \
          timeout ${SUITE_SECONDS:-420} bash dist/tile-gpu/run-gpu-tests.sh ${SUITE_PARTS:-tests sanitizer difftest} \
          > $o/suite-stdout.log 2>&1
        echo "suite rc=$?" >> $o/suite-stdout.log
        [ -n "${OLD_BUNDLE:-}" ] && timeout 120 bash bench/compare-compilers.sh $OLD_BUNDLE dist/tile-gpu \
          dist/tile-gpu/src/examples 3 > $o/compare-compilers.log 2>&1 ) &
      sweep_pids+=($!)
    fi
    # Not a bare `wait`: that waits for the packer's endless loop too (run
    # 54's first call sat in it until the device's limit).
    wait "${sweep_pids[@]}"
    echo "sweep-parallel done" ;;
  wait-file)
    for _ in $(seq ${WAIT_SECONDS:-300}); do [ -e "$WAIT_FILE" ] && break; sleep 1; done
    echo "wait-file: $(ls "$WAIT_FILE" 2>&1)" ;;
  i27-*)
    OUT=$o/i27 bash bench/issue27_gpu_run.sh ${step#i27-} > $o/i27-${step#i27-}.log 2>&1
    echo "$step rc=$?" ;;
  esac
done
kill $packer 2>/dev/null; wait $packer 2>/dev/null; rm -f $OUT/partial.tar.xz.tmp $OUT/partial.tar.xz
tar cJf $OUT/results.tar.xz -C /tmp o
ls -la $OUT
