#!/usr/bin/env bash
# Copies the references the build generates from ODS into docs/, then
# refreshes the outputs the pages quote (below).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
cmake --build "$build" --target tile-doc
cp "$build/docs/dialects/TileDialect.md" "$root/docs/dialects/tile.md"
cp "$build/docs/dialects/TileGPUDialect.md" "$root/docs/dialects/tilegpu.md"
cp "$build/docs/passes/TilePasses.md" "$root/docs/passes/tile.md"
cp "$build/docs/passes/TileGPUPasses.md" "$root/docs/passes/tilegpu.md"
cp "$build/docs/passes/TileConversionPasses.md" "$root/docs/passes/conversion.md"
cp "$build/docs/passes/TilePipelinesPasses.md" "$root/docs/passes/pipelines.md"
# Rewrites the outputs that README.md and the pages of docs/ quote where the
# commands they show now print something else (utils/check_docs.py --update;
# abridged quotes and quotes of committed logs are reported for a fix by
# hand). Review the diff before committing it.
/usr/bin/python3 "$root/utils/check_docs.py" --update --bin "$build/bin" --lib "$build/lib" \
  --python /usr/bin/python3 "$root/README.md" "$root"/docs/*.md || true
/usr/bin/python3 "$root/utils/check_docs.py" --bin "$build/bin" --lib "$build/lib" \
  --python /usr/bin/python3 "$root/README.md" "$root"/docs/*.md
