//===- LoopSlice.h - What a loop body computes from its counter -*- C++ -*-===//
//
// Helpers shared by the passes that issue work of later iterations of an
// scf.for ahead of time (tile-pipeline-loops, tilegpu-pipeline): the part of
// the body that computes some values from the induction variable alone, to
// be cloned at another induction variable, and the test of whether an
// induction variable is still in the loop's range.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_LOOPSLICE_H
#define TILE_DIALECT_TILE_TRANSFORMS_LOOPSLICE_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {

/// Collects into `slice` the operations of `loop`'s body that compute
/// `roots`; false if they depend on anything but the induction variable and
/// values from outside the loop (a value the loop carries, an operation
/// nested deeper), or on an operation that cannot be cloned to run where the
/// body would not: one that is not pure, except a division or remainder
/// whose divisor is known to be at least 1 (a positive constant, a program
/// count, max(x, 1), ...).
bool collectInductionSlice(scf::ForOp loop, ValueRange roots,
                           llvm::SetVector<Operation *> &slice);

/// `iv` < the loop's upper bound, compared as the loop compares (signed or
/// unsigned).
Value createIsInRange(OpBuilder &builder, scf::ForOp loop, Value iv);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_LOOPSLICE_H
