//===- Reduce.h - Simplifications of a program ------------------*- C++ -*-===//
//
// The reducer of scripts/difftest.sh works on programs, not on kernel text:
// getSimplification(program, k) is the k-th of the program's one-step
// simplifications (remove a store, replace an operation by a value it
// depends on or by a constant, drop a block, halve the block, the warps or the
// grid, drop a mask's cut, an offset, a stride, a pad, an argument...),
// biggest first, each one valid. The driver keeps a simplification while
// the failure it reduces still happens, and stops when none does. Every
// simplification makes the program strictly smaller in one respect and
// larger in none, so the driver's loop ends.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SMITH_REDUCE_H
#define TILE_SMITH_REDUCE_H

#include "tile/Smith/Program.h"

#include <optional>

namespace mlir::tile::smith {

/// The k-th valid one-step simplification of `program` (k from 0), or none
/// when it has k or fewer.
std::optional<Program> getSimplification(const Program &program, unsigned k);

} // namespace mlir::tile::smith

#endif // TILE_SMITH_REDUCE_H
