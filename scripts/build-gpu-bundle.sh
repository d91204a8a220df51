#!/usr/bin/env bash
# Builds the GPU bundle: tile-run and tile-opt linked statically against
# LLVM's archives (TILE_STATIC_LLVM=ON, in build-static/), and the C API's
# shared library libtile-c.so (which the Python package loads) and its C test
# program, and tile-tensor-map-test (TMA tensor maps), likewise; stripped and compressed with xz, together with what the
# GPU test suite needs (its lit tests, the examples, utils/reference.py, a
# copy of lit), the Python package and its tests (python/), the Python
# benchmark, the random testing driver (tile-smith, scripts/difftest.sh,
# utils/difftest.py, utils/tile_smith_ref.py, utils/tile_smith_dot.py,
# utils/tile_smith_types.py and utils/float8.py, which they import) and
# scripts/run-gpu-tests.sh, in dist/tile-gpu/ (ignored by git).
#
# The binaries and the library need no LLVM: only libc, libm, zlib and zstd
# (libstdc++ and libgcc are linked in), checked with ldd; the library exports
# the C API's functions only, so one build loads into any Python (3.11 here,
# 3.12 on the GPU machine). Copy dist/tile-gpu to a machine with an NVIDIA
# driver and run dist/tile-gpu/run-gpu-tests.sh there.
#
# Environment: TILE_STATIC_BUILD_DIR (default build-static), TILE_DIST_DIR
# (default dist/tile-gpu), TILE_BUILD_JOBS (ninja -j), TILE_LIT_DIR (lit's
# Python package, default Debian's /usr/lib/llvm-22/utils/lit).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/install-deps.sh

build="${TILE_STATIC_BUILD_DIR:-$root/build-static}"
dist="${TILE_DIST_DIR:-$root/dist/tile-gpu}"
lit_dir="${TILE_LIT_DIR:-/usr/lib/llvm-22/utils/lit}"

linker=()
if command -v ld.lld >/dev/null 2>&1; then
  linker=(-DLLVM_USE_LINKER=lld)
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DTILE_STATIC_LLVM=ON "${linker[@]}"
fi
jobs=()
if [ -n "${TILE_BUILD_JOBS:-}" ]; then
  jobs=(-j "$TILE_BUILD_JOBS")
fi
cmake --build "$build" --target tile-run tile-opt tile-smith tile-c tile-capi-test tile-tensor-map-test -- "${jobs[@]}"

# Only system libraries every Linux has (and, for the C test program, the
# C API's library, which the bundle carries).
allowed='^(linux-vdso\.so|libc\.so|libm\.so|ld-linux-x86-64\.so|libz\.so|libzstd\.so|libdl\.so|libpthread\.so|librt\.so|libtile-c\.so)'
binaries=("bin/tile-run" "bin/tile-opt" "bin/tile-smith" "bin/tile-capi-test" "bin/tile-tensor-map-test" "lib/libtile-c.so")
for binary in "${binaries[@]}"; do
  bad=$(LD_LIBRARY_PATH="$build/lib" ldd "$build/$binary" | awk '{print $1}' | xargs -n1 basename | grep -Ev "$allowed" || true)
  if [ -n "$bad" ]; then
    echo "build-gpu-bundle: $binary needs libraries a GPU machine may lack:" >&2
    echo "$bad" >&2
    exit 1
  fi
done
# The library exports the C API and nothing else.
exported=$(nm -D --defined-only "$build/lib/libtile-c.so" | awk '{print $3}' | grep -v '^tile_' || true)
if [ -n "$exported" ]; then
  echo "build-gpu-bundle: libtile-c.so exports more than the C API:" >&2
  echo "$exported" | head >&2
  exit 1
fi

rm -rf "$dist"
mkdir -p "$dist/bin" "$dist/lib" "$dist/src/test" "$dist/src/utils" "$dist/src/bench" "$dist/src/scripts" "$dist/lit"
for binary in "${binaries[@]}"; do
  strip --strip-unneeded -o "$dist/$binary" "$build/$binary"
  xz -9e -T1 "$dist/$binary"
done
cp -r "$root/examples" "$dist/src/"
cp "$root/test/lit.cfg.py" "$dist/src/test/"
cp -r "$root/test/cuda" "$dist/src/test/"
# The kernels some GPU tests share with the interpreter's (atomic-add.test)
# and the pipeline's (tensor-desc.test).
cp -r "$root/test/Interpreter" "$dist/src/test/"
mkdir -p "$dist/src/test/Pipelines"
cp -r "$root/test/Pipelines/Inputs" "$dist/src/test/Pipelines/"
cp "$root/utils/reference.py" "$root/utils/difftest.py" \
  "$root/utils/tile_smith_ref.py" "$root/utils/tile_smith_dot.py" \
  "$root/utils/tile_smith_types.py" "$root/utils/float8.py" \
  "$dist/src/utils/"
cp "$root/scripts/difftest.sh" "$dist/src/scripts/"
cp -r "$root/python" "$dist/src/"
cp "$root/bench/python_bench.py" "$root/bench/triton_softmax.py" "$dist/src/bench/"
cp "$root/scripts/run-gpu-tests.sh" "$dist/"
cp -r "$lit_dir/lit" "$dist/lit/"
find "$dist" -name __pycache__ -prune -exec rm -rf {} +
rm -rf "$dist/lit/lit/ExampleTests.ObjDir"

{
  echo "tile GPU bundle"
  echo "commit: $(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD -- . ':!dist' || echo ' (with uncommitted changes)')"
  echo "built: $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -srm)"
  echo "version: $("$build/bin/tile-run" --version | sed -n "s/^ *tile: //p")"
  for binary in "${binaries[@]}"; do
    echo "$(basename "$binary"): $(stat -c %s "$build/$binary") bytes built," \
      "$(stat -c %s "$dist/$binary.xz") compressed; needs" \
      "$(LD_LIBRARY_PATH="$build/lib" ldd "$build/$binary" | awk '{print $1}' | tr '\n' ' ')"
  done
} > "$dist/MANIFEST"
cat "$dist/MANIFEST"
echo "build-gpu-bundle: $(du -sh "$dist" | cut -f1) in $dist"
