#!/usr/bin/env bash
# Unpacks the GPU bundle's tile-run (dist/tile-gpu/bin/tile-run.xz, or
# $TILE_BUNDLE's) into $TILE_GPU_WORK/bin (default /tmp/tile-gpu/bin) once,
# and prints its path. For the bench scripts run on the GPU machine:
#
#   run="$(bench/unpack-tile-run.sh)" || exit 1
set -euo pipefail
bundle="${TILE_BUNDLE:-dist/tile-gpu}"
run="${TILE_GPU_WORK:-/tmp/tile-gpu}/bin/tile-run"
if [ ! -x "$run" ]; then
  mkdir -p "$(dirname "$run")"
  python3 -c 'import lzma, shutil, sys
with lzma.open(sys.argv[1]) as s, open(sys.argv[2], "wb") as d: shutil.copyfileobj(s, d)' \
    "$bundle/bin/tile-run.xz" "$run"
  chmod +x "$run"
fi
echo "$run"
