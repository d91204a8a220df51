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

scripts/build-sanitized.sh tile-fuzz >/dev/null
build="${TILE_FUZZ_BUILD_DIR:-$root/build-fuzz}"

# The seeds: every kernel file in the tree.
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build/corpus"
find examples test -name '*.mlir' | while read -r file; do
  cp "$file" "$seeds/$(echo "$file" | tr '/' '_')"
done

cd "$build"
log="$build/fuzz.log"
status=0
ASAN_OPTIONS="$("$root/scripts/build-sanitized.sh" --asan-options)" \
  "$build/bin/tile-fuzz" -max_total_time="$seconds" \
  -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 "$@" \
  corpus "$seeds" >"$log" 2>&1 || status=$?
grep -E "^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" "$log" || true
grep -E "^Done [0-9]+ runs" "$log" || tail -n 20 "$log"
exit $status
