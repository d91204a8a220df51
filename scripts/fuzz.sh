#!/usr/bin/env bash
# Fuzzes the compiler for SECONDS seconds with libFuzzer:
#
#   scripts/fuzz.sh SECONDS [LIBFUZZER_FLAG...]
#
# Builds tools/tile-fuzz with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz/ (TILE_ENABLE_FUZZER=ON), seeds it
# with every kernel file in the tree (examples/ and test/), and runs it on one
# core: each input is preprocessed, parsed, verified and compiled up to LLVM
# and NVVM (TILE_FUZZ_PTX=1: to PTX, slower). New inputs that reach new code
# collect in build-fuzz/corpus; a crash leaves crash-* in build-fuzz/ and
# makes the script fail. The last line is libFuzzer's "Done N runs in S
# second(s)".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh SECONDS [LIBFUZZER_FLAG...]" >&2
  exit 2
fi
seconds=$1
shift

scripts/install-deps.sh
build="${TILE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_USE_LINKER=lld -DTILE_ENABLE_FUZZER=ON >/dev/null
fi
cmake --build "$build" --target tile-fuzz >/dev/null

# The seeds: every kernel file in the tree.
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build/corpus"
find examples test -name '*.mlir' | while read -r file; do
  cp "$file" "$seeds/$(echo "$file" | tr '/' '_')"
done

cd "$build"
log="$build/fuzz.log"
# Leaks: the fuzzer's one MLIRContext lives for the process. User
# poisoning: LLVM's BumpPtrAllocator poisons the memory it hands out when
# compiled with ASan, as the project's code instantiates it, but not in
# Debian's uninstrumented libLLVM, which then reads its own memory as
# poisoned; with user poisoning off, ASan keeps its own checks only.
status=0
ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 "$build/bin/tile-fuzz" -max_total_time="$seconds" \
  -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 "$@" \
  corpus "$seeds" >"$log" 2>&1 || status=$?
grep -E "^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" "$log" || true
grep -E "^Done [0-9]+ runs" "$log" || tail -n 20 "$log"
exit $status
