#!/usr/bin/env bash
# Builds the GPU bundle: tile-run, tile-opt and tile-smith linked statically
# against LLVM's archives (TILE_STATIC_LLVM=ON, in build-static/), stripped
# and compressed with xz, together with what the GPU test suite needs (its
# lit tests, the examples, utils/reference.py, a copy of lit), the random
# testing driver (scripts/difftest.sh, utils/difftest.py,
# utils/tile_smith_ref.py) and scripts/run-gpu-tests.sh, in dist/tile-gpu/
# (ignored by git).
#
# The binaries need no LLVM: only libc, libm, zlib and zstd (libstdc++ and
# libgcc are linked in), checked with ldd. Copy dist/tile-gpu to a machine
# with an NVIDIA driver and run dist/tile-gpu/run-gpu-tests.sh there.
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
cmake --build "$build" --target tile-run tile-opt tile-smith -- "${jobs[@]}"

# Only system libraries every Linux has.
allowed='^(linux-vdso\.so|libc\.so|libm\.so|ld-linux-x86-64\.so|libz\.so|libzstd\.so|libdl\.so|libpthread\.so|librt\.so)'
for tool in tile-run tile-opt tile-smith; do
  bad=$(ldd "$build/bin/$tool" | awk '{print $1}' | xargs -n1 basename | grep -Ev "$allowed" || true)
  if [ -n "$bad" ]; then
    echo "build-gpu-bundle: $tool needs libraries a GPU machine may lack:" >&2
    echo "$bad" >&2
    exit 1
  fi
done

rm -rf "$dist"
mkdir -p "$dist/bin" "$dist/src/test" "$dist/src/utils" "$dist/src/scripts" "$dist/lit"
for tool in tile-run tile-opt tile-smith; do
  strip -o "$dist/bin/$tool" "$build/bin/$tool"
  xz -9e -T1 "$dist/bin/$tool"
done
cp -r "$root/examples" "$dist/src/"
cp "$root/test/lit.cfg.py" "$dist/src/test/"
cp -r "$root/test/cuda" "$dist/src/test/"
cp "$root/utils/reference.py" "$root/utils/difftest.py" \
  "$root/utils/tile_smith_ref.py" "$dist/src/utils/"
cp "$root/scripts/difftest.sh" "$dist/src/scripts/"
cp "$root/scripts/run-gpu-tests.sh" "$dist/"
cp -r "$lit_dir/lit" "$dist/lit/"
find "$dist" -name __pycache__ -prune -exec rm -rf {} +
rm -rf "$dist/lit/lit/ExampleTests.ObjDir"

{
  echo "tile GPU bundle"
  echo "commit: $(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD -- . ':!dist' || echo ' (with uncommitted changes)')"
  echo "built: $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -srm)"
  echo "version: $("$build/bin/tile-run" --version | sed -n "s/^ *tile: //p")"
  for tool in tile-run tile-opt tile-smith; do
    echo "$tool: $(stat -c %s "$build/bin/$tool") bytes built," \
      "$(stat -c %s "$dist/bin/$tool.xz") compressed; needs" \
      "$(ldd "$build/bin/$tool" | awk '{print $1}' | tr '\n' ' ')"
  done
} > "$dist/MANIFEST"
cat "$dist/MANIFEST"
echo "build-gpu-bundle: $(du -sh "$dist" | cut -f1) in $dist"
