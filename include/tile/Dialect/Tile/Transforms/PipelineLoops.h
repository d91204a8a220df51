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

/// What tile-pipeline-loops makes of `loop` at `numWarps` warps and
/// `blocksPerSM` blocks per SM.
struct LoopPipelining {
  /// The loop asks for two stages or more (`tile.num_stages`), and either
  /// it loads operands of a `tile.dot` (which tilegpu-pipeline stages
  /// through shared memory) or the pass loads some of its tiles one
  /// iteration ahead, which it does only where they fit in registers
  /// beside the body's tiles.
  bool pipelined = false;
  /// The registers per thread the tiles loaded ahead take (the register
  /// estimate of each), on top of what the body keeps live; 0 where the
  /// pass loads nothing ahead.
  unsigned prefetchRegisters = 0;
};
LoopPipelining getLoopPipelining(scf::ForOp loop, unsigned numWarps,
                                 unsigned blocksPerSM);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_PIPELINELOOPS_H
