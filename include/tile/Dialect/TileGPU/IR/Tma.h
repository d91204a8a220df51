//===- Tma.h - What TMA asks of the buffer it writes -----------*- C++ -*-===//
//
// The rules a TMA copy (`cp.async.bulk.tensor`, sm_90) sets for the buffer
// it writes, shared by the verifier of tilegpu.tma_load, the pass that
// makes it (tilegpu-pipeline) and its lowering, which also records them in
// the recipe of the kernel's tensor map (KernelABI.h):
//
// - the buffer is contiguous along its last dimension (order [1, 0]), the
//   dimension TMA counts first;
// - its rows are swizzled by one of TMA's patterns: each 16-byte chunk of
//   row r of a span of 32, 64 or 128 bytes moved to chunk (c ^ (r /
//   (128 / span)) % (span / 16)), which is #tilegpu.shared with vec =
//   16 bytes, perPhase = 128 / span and maxPhase = span / 16; or not
//   swizzled (maxPhase = 1), rows of a multiple of 16 bytes;
// - a box's row is at most the swizzle's span and at most 256 elements:
//   longer swizzled rows are cut into blocks of columns (columnsPerBlock),
//   each block its own copy of a box one block wide;
// - each box starts at a multiple of 128 bytes, and a swizzled one at a
//   multiple of 8 of its rows (the pattern's period).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TMA_H
#define TILE_DIALECT_TILEGPU_IR_TMA_H

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include <string>

namespace mlir::tilegpu {

/// How TMA fills a buffer: the box of each copy (outermost first, as a
/// shape is written), how many copies side by side along the row, and the
/// swizzle's span in bytes (0 for none).
struct TmaBox {
  SmallVector<int64_t, 2> box;
  int64_t copies = 1;
  int64_t swizzleBytes = 0;
  /// Bytes one copy moves.
  int64_t getCopyBytes(Type element) const;
};

/// How TMA fills one buffer of `type` (rank 2, not a ring), or why it
/// cannot (a phrase: "its rows are 256 bytes, ...").
FailureOr<TmaBox> getTmaBox(MemDescType type, std::string &why);

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_IR_TMA_H
