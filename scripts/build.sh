#!/usr/bin/env bash
# Installs what is missing (Debian packages), configures and builds tile into
# build/ (binaries in build/bin). Extra arguments go to cmake's configure step.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/install-deps.sh

build="${TILE_BUILD_DIR:-$root/build}"
linker=()
if command -v ld.lld >/dev/null 2>&1; then
  linker=(-DLLVM_USE_LINKER=lld)
fi
if [ ! -f "$build/build.ninja" ] || [ $# -gt 0 ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    "${linker[@]}" "$@"
fi
cmake --build "$build"
