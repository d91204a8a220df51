#!/usr/bin/env bash
# The whole lit suite on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (scripts/build-sanitized.sh): any report fails
# its test. Like scripts/test.sh, the last line is "N passed, N failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/build-sanitized.sh" >/dev/null || {
  echo "0 passed, 1 failed"
  exit 1
}
build="${TILE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
ASAN_OPTIONS="$("$root/scripts/build-sanitized.sh" --asan-options)" \
  UBSAN_OPTIONS=print_stacktrace=1 \
  /usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -n 1; }
passed=$(( $(count Passed || true) + 0 ))
failed=0
for kind in Failed Unresolved "Timed Out" "Unexpectedly Passed"; do
  failed=$(( failed + $(count "$kind" || true) + 0 ))
done
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1
fi
echo "$passed passed, $failed failed"
exit "$status"
