#!/usr/bin/env bash
# Builds the project with clang 22, AddressSanitizer, UndefinedBehaviorSanitizer
# and libFuzzer's coverage instrumentation in build-fuzz/ (or
# $TILE_FUZZ_BUILD_DIR): the tools and tests of the sanitized suite
# (scripts/test-sanitized.sh) and the fuzz target (scripts/fuzz.sh).
#
#   scripts/build-sanitized.sh [TARGET...]     # default: everything
#
# LLVM's and MLIR's libraries are Debian's, uninstrumented; the project's own
# code is. Run the binaries with $TILE_ASAN_OPTIONS (printed by
# `scripts/build-sanitized.sh --asan-options`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Leaks: a tool's MLIRContext lives for the process. User poisoning: LLVM's
# BumpPtrAllocator poisons the memory it hands out when compiled with ASan,
# as the project's code instantiates it, but not in Debian's uninstrumented
# libLLVM, which then reads its own memory as poisoned; with user poisoning
# off, ASan keeps its own checks.
asan_options="detect_leaks=0:allow_user_poisoning=0"
if [ "${1:-}" = "--asan-options" ]; then
  echo "$asan_options"
  exit 0
fi
cd "$root"
scripts/install-deps.sh
build="${TILE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_USE_LINKER=lld -DTILE_ENABLE_FUZZER=ON >/dev/null
fi
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$build" "${targets[@]}"
