#!/usr/bin/env bash
# Copies the references the build generates from ODS into docs/.
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
