#!/usr/bin/env bash
# Runs on the GPU machine, from the bundle scripts/build-gpu-bundle.sh makes
# (it is copied there as dist/tile-gpu/run-gpu-tests.sh):
#
#   dist/tile-gpu/run-gpu-tests.sh [tests] [bench] [sanitizer] [python] [difftest]
#
# Unpacks the bundle's tile-run, tile-opt, libtile-c.so, tile-capi-test,
# tile-tensor-map-test and tile-smith, then (the first four by default):
#   tests      the lit tests under test/cuda (REQUIRES: cuda), with lit's
#              internal shell: no FileCheck or LLVM is needed there; they
#              include the C API's (capi.test) and the Python package's
#              pytest suite with PyTorch (python.test)
#   bench      tile-run --bench on softmax (M = 4096, N = 8192 and others),
#              and torch.softmax timed the same way where torch is installed
#   sanitizer  the examples under compute-sanitizer, memcheck and racecheck
#   python     examples/python/softmax.py (the seeds' shapes in f32, f16 and
#              bf16 against torch.softmax) and bench/python_bench.py (the
#              package's GB/s against tile-run's on the same kernels; the
#              host time of a launch against Triton's)
#   difftest   random kernels on the GPU against their references and the
#              interpreter ($TILE_DIFFTEST_COUNT, default 1000), then some
#              under compute-sanitizer ($TILE_DIFFTEST_SANITIZE, default 50);
#              $TILE_DIFFTEST_ARGS are added to both (say "--tma --with-tma
#              --seed 5000")
# and writes a log of each into $OUT (default ./gpu-results): env.log,
# gpu-tests.log, bench.log, compute-sanitizer.log, python-example.log,
# python-bench.log (and python-bench.json), difftest.log. Exits non-zero if any part
# failed. Needs python3 (with numpy; torch for the torch comparisons and the
# Python package's tests; triton for the launch comparison).
set -uo pipefail
set -f # the argument specs hold brackets: no globbing
bundle="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$PWD/gpu-results}"
work="${TILE_GPU_WORK:-/tmp/tile-gpu}"
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(tests bench sanitizer python)
mkdir -p "$out" "$work/bin" "$work/lib" "$work/build/test/cuda"
python=$(command -v python3)

# The binaries and the C API's library, each written beside and renamed
# into place: a run cut off by a timeout may leave processes running the old
# one, which could not be written over ("Text file busy").
for binary in bin/tile-run bin/tile-opt bin/tile-smith bin/tile-capi-test bin/tile-tensor-map-test lib/libtile-c.so; do
  [ -f "$bundle/$binary.xz" ] || continue
  "$python" -c 'import lzma, shutil, sys
with lzma.open(sys.argv[1]) as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)' "$bundle/$binary.xz" "$work/$binary.new" || exit 1
  chmod +x "$work/$binary.new"
  mv -f "$work/$binary.new" "$work/$binary"
done
export PATH="$work/bin:$PATH:/usr/local/cuda/bin"
export TILE_CACHE_DIR="$work/cache"
# The C test program finds the library here; the Python package by
# TILE_LIBRARY.
export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILE_LIBRARY="$work/lib/libtile-c.so"

{
  echo "== bundle"
  cat "$bundle/MANIFEST"
  echo "== machine ($(date -u '+%Y-%m-%d %H:%M UTC'))"
  uname -a
  grep PRETTY_NAME /etc/os-release
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  "$python" --version
  "$python" -c 'import numpy; print("numpy", numpy.__version__)'
  "$python" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)' 2>&1 | tail -n 1
  "$python" -c 'import triton; print("triton", triton.__version__)' 2>&1 | tail -n 1
  PYTHONPATH="$bundle/src/python" "$python" -c 'import tile; print("tile package:", tile.version(), tile.library_path(), tile.cuda_device_count(), "GPUs")'
  command -v compute-sanitizer ptxas
  echo "== tile-run"
  ldd "$work/bin/tile-run"
  tile-run --version
  tile-run --list-devices
} > "$out/env.log" 2>&1
cat "$out/env.log"

status=0
want() { [[ " ${parts[*]} " == *" $1 "* ]]; }

if want tests; then
  # A build tree for lit: its site configuration points at the bundle.
  cat > "$work/build/test/lit.site.cfg.py" <<EOF
import sys
config.llvm_tools_dir = "$work/no-llvm-tools"
config.tile_src_root = "$bundle/src"
config.tile_obj_root = "$work/build"
config.tile_tools_dir = "$work/bin"
config.tile_lib_dir = "$work/lib"
config.python_executable = sys.executable
config.tile_test_python = "$python"
config.tile_cuda_runtime = 1
import lit.llvm
lit.llvm.initialize(lit_config, config)
lit_config.load_config(config, "$bundle/src/test/lit.cfg.py")
EOF
  echo "== GPU tests"
  LIT_USE_INTERNAL_SHELL=1 PYTHONPATH="$bundle/lit" timeout "${TILE_LIT_TIMEOUT:-300}" \
    "$python" -c 'import sys; from lit.main import main; sys.exit(main())' \
    -a "$work/build/test/cuda" 2>&1 \
    | tee "$out/gpu-tests.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

# softmax's arguments for an M x N f32 (or f16, bf16 with -D DTYPE)
# run: BLOCK_SIZE, NUM_WARPS, a persistent grid over the rows.
softmax_args() { # KERNEL_FILE TYPE M N BLOCK WARPS
  local dtype=""
  [ "$2" = f32 ] || dtype="-D DTYPE=$2"
  echo "$1 --target=cuda -D BLOCK_SIZE=$5 -D NUM_WARPS=$6 $dtype" \
    "--grid persistent:$3 --arg $2[$3x$4]=zeros --arg $2[$3x$4]=randn:0" \
    "--arg i32=$4 --arg i32=$4 --arg i32=$3 --arg i32=$4"
}

if want bench; then
  echo "== bench" > "$out/bench.log"
  ex="$bundle/src/examples"
  {
    # docs/runner.md's first command.
    echo "\$ tile-run examples/softmax.mlir --target=cuda --check --grid persistent:1823" \
      "--arg 'f32[1823x781]=zeros' --arg 'f32[1823x781]=randn:0' --arg i32=781" \
      "--arg i32=781 --arg i32=1823 --arg i32=781 --out 0=/tmp/y.npy"
    timeout 60 tile-run "$ex/softmax.mlir" --target=cuda --check --grid persistent:1823 \
      --arg 'f32[1823x781]=zeros' --arg 'f32[1823x781]=randn:0' --arg i32=781 \
      --arg i32=781 --arg i32=1823 --arg i32=781 --out 0=/tmp/y.npy || status=1
    echo
    # The README's command.
    echo "\$ tile-run examples/softmax.mlir --target=cuda -D BLOCK_SIZE=8192 -D NUM_WARPS=16" \
      "--grid persistent:4096 --arg 'f32[4096x8192]=zeros' --arg 'f32[4096x8192]=randn:0'" \
      "--arg i32=8192 --arg i32=8192 --arg i32=4096 --arg i32=8192 --check --bench"
    timeout 90 tile-run "$ex/softmax.mlir" --target=cuda -D BLOCK_SIZE=8192 -D NUM_WARPS=16 \
      --grid persistent:4096 --arg 'f32[4096x8192]=zeros' --arg 'f32[4096x8192]=randn:0' \
      --arg i32=8192 --arg i32=8192 --arg i32=4096 --arg i32=8192 --check --bench || status=1
    echo
    for config in \
      "$ex/softmax.mlir f32 4096 8192 8192 8" \
      "$ex/softmax.mlir f32 4096 8192 8192 32" \
      "$ex/softmax.mlir f32 4096 1024 1024 4" \
      "$ex/softmax.mlir f32 4096 4096 4096 16" \
      "$ex/softmax.mlir f32 4096 16384 16384 32" \
      "$ex/online_softmax.mlir f32 4096 8192 4096 16" \
      "$ex/softmax.mlir f16 4096 8192 8192 16" \
      "$ex/softmax.mlir bf16 4096 8192 8192 16"; do
      # shellcheck disable=SC2046
      set -- $config
      echo "\$ tile-run $(softmax_args "$@") --bench --timing"
      # shellcheck disable=SC2046
      timeout 60 tile-run $(softmax_args "$@") --bench --timing || status=1
      echo
    done
    if "$python" -c 'import torch' 2>/dev/null; then
      echo "\$ torch.softmax, timed as tile-run --bench times (CUDA events, L2 flushed before each run)"
      timeout 120 "$python" - <<'EOF' || status=1
import torch
torch.manual_seed(0)
props = torch.cuda.get_device_properties(0)
flush = torch.empty(2 * props.L2_cache_size // 4, dtype=torch.int32, device="cuda")
for dtype, m, n in [(torch.float32, 4096, 8192), (torch.float32, 4096, 1024),
                    (torch.float32, 4096, 16384), (torch.float16, 4096, 8192)]:
    x = torch.randn(m, n, device="cuda", dtype=dtype)
    for _ in range(10):
        torch.softmax(x, dim=1)
    times = []
    for i in range(100):
        flush.fill_(i)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.softmax(x, dim=1)
        end.record()
        times.append((start, end))
    torch.cuda.synchronize()
    ms = sorted(s.elapsed_time(e) for s, e in times)
    median = (ms[49] + ms[50]) / 2
    nbytes = 2 * m * n * x.element_size()
    print(f"torch.softmax {str(dtype).split('.')[-1]} {m}x{n}: median {median:.4f} ms "
          f"(min {ms[0]:.4f}, max {ms[-1]:.4f}) over 100 runs after 10 warm-up runs, "
          f"{nbytes / (median * 1e-3) / 1e9:.1f} GB/s ({nbytes} bytes)")
EOF
    fi
  } >> "$out/bench.log" 2>&1
  cat "$out/bench.log"
fi

if want sanitizer; then
  ex="$bundle/src/examples"
  runs=(
    "$(softmax_args "$ex/softmax.mlir" f32 512 781 1024 4) --check"
    "$(softmax_args "$ex/softmax.mlir" f16 256 781 1024 4) --check"
    "$(softmax_args "$ex/softmax.mlir" bf16 256 781 1024 4) --check"
    "$(softmax_args "$ex/online_softmax.mlir" f32 64 5000 1024 4) --check"
    "$(softmax_args "$ex/online_softmax.mlir" f16 64 5000 1024 4) --check"
    "$ex/softmax_rows.mlir --target=cuda -D ROWS=4 -D BLOCK_SIZE=256 -D NUM_WARPS=4 --grid persistent:250 --arg f32[1000x200]=zeros --arg f32[1000x200]=randn:0 --arg i32=200 --arg i32=200 --arg i32=1000 --arg i32=200 --check"
    "$ex/vector_add.mlir --target=cuda --grid 97 --arg f32[98432]=randn:1 --arg f32[98432]=randn:2 --arg f32[98432]=zeros --arg i32=98432 --check"
    # Clusters: rows split over 4 and 8 programs that reduce through
    # distributed shared memory, odd column counts (the last slices partly
    # or wholly masked), several rows per cluster.
    "$ex/softmax_cluster.mlir --target=cuda -D CLUSTER=4 -D BLOCK_SIZE=1024 -D NUM_WARPS=4 --grid persistent:32 --arg f32[61x4001]=zeros --arg f32[61x4001]=randn:0 --arg i32=4001 --arg i32=4001 --arg i32=61 --arg i32=4001 --check"
    "$ex/softmax_cluster.mlir --target=cuda -D CLUSTER=8 -D BLOCK_SIZE=512 -D NUM_WARPS=4 -D DTYPE=f16 --grid persistent:64 --arg f16[37x3000]=zeros --arg f16[37x3000]=randn:0 --arg i32=3000 --arg i32=3000 --arg i32=37 --arg i32=3000 --check"
    # A grid reduction: 9 programs, launched cooperatively, meeting through
    # global memory twice a row; each walks several blocks of the row.
    "$ex/softmax_grid.mlir --target=cuda -D BLOCK_SIZE=512 -D NUM_WARPS=4 --grid 9 --arg f32[13x10001]=zeros --arg f32[13x10001]=randn:0 --arg i32=10001 --arg i32=10001 --arg i32=13 --arg i32=10001 --check"
    # Matrix products on tensor cores: odd shapes, every edge masked, a
    # column-major A.
    "$ex/matmul.mlir --target=cuda -D DTYPE=f16 --grid 2 --arg f16[77x39]=randn:1 --arg f16[39x45]=randn:2 --arg f16[77x45]=zeros --arg i32=77 --arg i32=45 --arg i32=39 --arg i32=39 --arg i32=1 --arg i32=45 --arg i32=1 --arg i32=45 --arg i32=1 --check --atol 1e-2"
    "$ex/matmul.mlir --target=cuda -D DTYPE=bf16 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=16 -D NUM_WARPS=2 --grid 6 --arg bf16[39x77]=randn:3 --arg bf16[39x45]=randn:4 --arg bf16[77x45]=zeros --arg i32=77 --arg i32=45 --arg i32=39 --arg i32=1 --arg i32=77 --arg i32=45 --arg i32=1 --arg i32=45 --arg i32=1 --check --atol 1e-2"
    # wgmma (sm_90a): a ring of 3 stages read from shared memory by the
    # tensor cores, every edge masked.
    "$ex/matmul.mlir --target=cuda -D DTYPE=f16 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D NUM_STAGES=3 --grid 9 --arg f16[300x200]=randn:11 --arg f16[200x264]=randn:12 --arg f16[300x264]=zeros --arg i32=300 --arg i32=264 --arg i32=200 --arg i32=200 --arg i32=1 --arg i32=264 --arg i32=1 --arg i32=264 --arg i32=1 --check --atol 1e-2"
    # 4 stages: each iteration's product runs into the next.
    "$ex/matmul.mlir --target=cuda -D DTYPE=f16 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D NUM_STAGES=4 --grid 9 --arg f16[300x328]=randn:13 --arg f16[328x264]=randn:14 --arg f16[300x264]=zeros --arg i32=300 --arg i32=264 --arg i32=328 --arg i32=328 --arg i32=1 --arg i32=264 --arg i32=1 --arg i32=264 --arg i32=1 --check --atol 1e-2"
    # The persistent matmul with TMA: 2 programs walking 3 tiles each, the
    # next tile's copies issued while the last one is stored.
    "$bundle/src/examples/matmul_persistent.mlir --target=cuda --tma -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D NUM_STAGES=3 --grid 2 --arg f16[300x136]=randn:15 --arg f16[136x200]=randn:16 --arg f16[300x200]=zeros --arg i32=300 --arg i32=200 --arg i32=136 --arg i32=136 --arg i32=1 --arg i32=200 --arg i32=1 --arg i32=200 --arg i32=1 --check --atol 1e-2"
  )
  {
    echo "== compute-sanitizer ($(compute-sanitizer --version | tail -n 1))"
    for tool in memcheck racecheck synccheck; do
      for run in "${runs[@]}"; do
        # synccheck (barriers in divergent code) on the matrix products only.
        [ "$tool" != synccheck ] || [[ "$run" == *matmul* ]] || continue
        echo "\$ compute-sanitizer --tool $tool --error-exitcode 99 tile-run $run --no-guards"
        # shellcheck disable=SC2086
        timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 99 \
          tile-run $run --no-guards
        code=$?
        echo "exit status $code"
        [ "$code" -eq 0 ] || status=1
        echo
      done
    done
  } > "$out/compute-sanitizer.log" 2>&1
  {
    echo "== compute-sanitizer summaries"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^exit status" \
      "$out/compute-sanitizer.log" | sort | uniq -c
  } >> "$out/compute-sanitizer.log"
  cat "$out/compute-sanitizer.log"
fi

if want python; then
  export PYTHONPATH="$bundle/src/python"
  {
    echo "\$ python3 examples/python/softmax.py"
    timeout 900 "$python" "$bundle/src/examples/python/softmax.py" || status=1
  } > "$out/python-example.log" 2>&1
  cat "$out/python-example.log"
  {
    echo "\$ python3 bench/python_bench.py --tile-run $work/bin/tile-run"
    timeout 1800 "$python" "$bundle/src/bench/python_bench.py" --tile-run "$work/bin/tile-run" \
      --json "$out/python-bench.json" || status=1
  } > "$out/python-bench.log" 2>&1
  cat "$out/python-bench.log"
fi

echo "run-gpu-tests: $([ $status -eq 0 ] && echo passed || echo FAILED); logs in $out"
if want difftest; then
  {
    echo "== difftest ($(date -u '+%Y-%m-%d %H:%M UTC'))"
    TILE_BIN="$work/bin" TILE_PYTHON="$python" "$bundle/src/scripts/difftest.sh" \
      "${TILE_DIFFTEST_COUNT:-1000}" --target=cuda ${TILE_DIFFTEST_ARGS:-} --keep "$work/difftest" || status=1
    echo
    echo "== difftest under compute-sanitizer"
    TILE_BIN="$work/bin" TILE_PYTHON="$python" "$bundle/src/scripts/difftest.sh" \
      "${TILE_DIFFTEST_SANITIZE:-50}" --target=cuda --sanitize ${TILE_DIFFTEST_ARGS:-} \
      --keep "$work/difftest-sanitize" || status=1
  } > "$out/difftest.log" 2>&1
  cat "$out/difftest.log"
fi

exit $status
