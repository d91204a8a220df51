#!/usr/bin/env bash
# Builds tile (see build.sh) and runs the whole lit test suite. The last line
# printed is the count of tests, in the form "N passed, N failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

"$root/scripts/build.sh" || { echo "0 passed, 1 failed"; exit 1; }

build="${TILE_BUILD_DIR:-$root/build}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -n 1; }
passed=$(( $(count Passed || true) + 0 ))
failed=0
for kind in Failed Unresolved "Timed Out" "Unexpectedly Passed"; do
  failed=$(( failed + $(count "$kind" || true) + 0 ))
done
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # lit itself failed (no tests found, a broken config, ...)
fi
echo "$passed passed, $failed failed"
exit "$status"
