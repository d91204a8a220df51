//===- PipelineLoops.h - What tile-pipeline-loops does ---------*- C++ -*-===//
//
// The pass's decision, for those who must know it before the pass runs:
// the cost model (tile/Runtime/CostModel.h) credits a pipelined loop's
// loads with overlapping its computation, and must not credit a loop the
// pass leaves alone because its prefetched tiles would not fit in
// registers.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PIPELINELOOPS_H
#define TILE_DIALECT_TILE_TRANSFORMS_PIPELINELOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tile {

class AxisInfoResult;
class LoadOp;

/// What tile-pipeline-loops makes of `loop` at `numWarps` warps and
/// `blocksPerSM` blocks per SM.
struct LoopPipelining {
  /// The loop asks for two stages or more (`tile.num_stages`), and either
  /// it loads operands of a `tile.dot` or loads that
  /// isStagedInSharedMemory leaves to tilegpu-pipeline (which stages both
  /// through shared memory), or the pass loads some of its tiles one
  /// iteration ahead, which it does only where they fit in registers
  /// beside the body's tiles.
  bool pipelined = false;
  /// The registers per thread the tiles loaded ahead take (the register
  /// estimate of each), on top of what the body keeps live; 0 where the
  /// pass loads nothing ahead.
  unsigned prefetchRegisters = 0;
  /// The shared memory per block of the loads staged there (not the dots'
  /// operands): `tile.num_stages` tiles of each.
  int64_t stagedSharedBytes = 0;
};
LoopPipelining getLoopPipelining(scf::ForOp loop, unsigned numWarps,
                                 unsigned blocksPerSM);

/// Whether `load`, in the body of `loop`, is left by tile-pipeline-loops to
/// tilegpu-pipeline, which stages it through shared memory
/// `tile.num_stages` deep with cp.async instead of carrying it one
/// iteration ahead in registers: the loop asks for three stages or more
/// and has no tile.dot inside; the load's pointers and mask depend only
/// on the induction variable (which they use) and values from outside the
/// loop; its tile is rank-2, of 8- to 64-bit elements, at least one per
/// thread of `numWarps` warps; its masked lanes are 0 (no `other`, or a
/// zero of the element type: cp.async zero-fills them); and by `axisInfo`
/// (of the kernel) its addresses and mask allow accesses of 4 bytes or
/// more, the least cp.async copies (rows of 4095 bf16 elements do not:
/// they are carried in registers).
bool isStagedInSharedMemory(scf::ForOp loop, LoadOp load, unsigned numWarps,
                            const AxisInfoResult &axisInfo);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_PIPELINELOOPS_H
