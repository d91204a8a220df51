#!/usr/bin/env bash
# Fuzzes the compiler and the host side's readers with libFuzzer:
#
#   scripts/fuzz.sh SECONDS [TARGET...] [-- LIBFUZZER_FLAG...]
#
# TARGETs (default: all of them, one after the other, SECONDS each):
#   compiler       tools/tile-fuzz: a kernel file preprocessed, parsed,
#                  verified and compiled up to LLVM and NVVM (TILE_FUZZ_PTX=1:
#                  to PTX, slower); seeded with every kernel file in the tree
#   npy            tools/tile-fuzz-npy: .npy files (parse, write, parse again)
#   args           tools/tile-fuzz-args: --arg, --out and --waves specs
#   grid           tools/tile-fuzz-grid: --grid specs and their expressions
#   preprocessor   tools/tile-fuzz-preprocessor: -D arguments and parameter
#                  declarations
#   compile-cache  tools/tile-fuzz-compile-cache: compile-cache entries
#   tuning-cache   tools/tile-fuzz-tuning-cache: tuning-cache entries
#   tuning-database tools/tile-fuzz-tuning-database: tuning databases
#                  (--tune-import, the shipped ones)
#   tensor-maps     tools/tile-fuzz-tensor-maps: the tensor map recipes of
#                  a loaded kernel (<kernel>_tensor_maps), and getPtxGlobals
# The host side's targets are seeded from tools/tile-fuzz-NAME/corpus.
#
# Builds the targets with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# in build-fuzz/ (TILE_ENABLE_FUZZER=ON) and runs each on one core, with
# leak detection for the host side's targets (the compiler's MLIRContext
# lives for the process). SECONDS 0 runs until another flag stops it
# (-- -runs=1000000). New inputs that reach new code collect in
# build-fuzz/corpus-NAME; a crash leaves crash-* (a leak leak-*, a hang
# timeout-*) in build-fuzz/, and makes the script fail. Per target, the log
# is build-fuzz/fuzz-NAME.log, and the line printed is libFuzzer's "Done N
# runs in S second(s)".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
all=(compiler npy args grid preprocessor compile-cache tuning-cache tuning-database tensor-maps)
usage() {
  echo "usage: scripts/fuzz.sh SECONDS [TARGET...] [-- LIBFUZZER_FLAG...]" >&2
  echo "targets: ${all[*]}" >&2
  exit 2
}
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  usage
fi
seconds=$1
shift
targets=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  [[ " ${all[*]} " == *" $1 "* ]] || usage
  targets+=("$1")
  shift
done
[ $# -gt 0 ] && shift # the --
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

binary() {
  if [ "$1" = compiler ]; then echo tile-fuzz; else echo "tile-fuzz-$1"; fi
}
binaries=()
for target in "${targets[@]}"; do binaries+=("$(binary "$target")"); done
scripts/build-sanitized.sh "${binaries[@]}" >/dev/null
build="${TILE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
asan_options="$(scripts/build-sanitized.sh --asan-options)"

status=0
for target in "${targets[@]}"; do
  name="$(binary "$target")"
  seeds="$build/seeds-$target"
  rm -rf "$seeds"
  mkdir -p "$seeds" "$build/corpus-$target"
  if [ "$target" = compiler ]; then
    find examples test -name '*.mlir' | while read -r file; do
      cp "$file" "$seeds/$(echo "$file" | tr '/' '_')"
    done
    options="$asan_options"
  else
    cp "tools/$name/corpus/"* "$seeds/"
    options="${asan_options/detect_leaks=0/detect_leaks=1}"
  fi
  log="$build/fuzz-$target.log"
  result=0
  (cd "$build" && ASAN_OPTIONS="$options" "$build/bin/$name" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 "$@" "corpus-$target" "$seeds") >"$log" 2>&1 ||
    result=$?
  echo "== $target ($name)"
  grep -E "^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" "$log" || true
  grep -E "^Done [0-9]+ runs" "$log" || tail -n 20 "$log"
  [ $result -eq 0 ] || status=1
done
exit $status
