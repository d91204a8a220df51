//===- RegisterEstimate.h - Registers a kernel's tiles need -----*- C++ -*-===//
//
// A count, before any lowering, of the 32-bit registers per thread that the
// tiles of a tile-dialect kernel keep live, for decisions that must not make
// a kernel spill: how deep to pipeline a loop (tile-pipeline-loops), which
// configurations a tuner may skip.
//
// A tile of N elements spread over the T threads of a block holds
// ceil(N / T) elements per thread (at least one: a small tile is
// replicated); an f32 element takes one register, an f16 or bf16 element
// half of one (two are packed per register), an i64 two. Only floating-point
// tiles are counted: index tiles (tile.range and arithmetic on it), pointer
// tiles and masks are folded into addresses, immediate offsets and
// predicates by the lowering and take few registers of their own; the
// scalars of addressing and loop control are covered by a fixed reserve.
// Constants (immediates), splats and broadcasts (a value held once per row)
// and expand_dims (a reshape) take none of their own either.
//
// The peak of a block of operations is found by a linear scan: a value is
// live from its definition to its last use in the block (a use inside a
// nested region counts at the operation holding it), and an operation's
// results take the place of operands whose last use it is. The budget is
// what one block per SM may use: 65536 registers per SM shared by the
// block's threads, at most 255 per thread.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_REGISTERESTIMATE_H
#define TILE_ANALYSIS_REGISTERESTIMATE_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Types.h"

namespace mlir::tile {

/// Registers per thread kept for scalars: addresses, loop counters, the
/// row's offsets and the reductions' partial results.
inline constexpr unsigned kReservedRegisters = 32;

/// The registers per thread a block of `numWarps` warps may use when
/// `blocksPerSM` blocks run per SM (tile.min_blocks_per_sm): min(255, 65536
/// / (threads x blocksPerSM)).
unsigned getRegisterBudget(unsigned numWarps, unsigned blocksPerSM = 1);

/// The registers per thread one value of `type` takes over `numWarps` warps:
/// 0 for scalars and for tiles that are not floating point.
unsigned estimateRegisters(Type type, unsigned numWarps);

/// The most registers per thread the floating-point tiles of `block` keep
/// live at once, values defined outside the block not counted.
unsigned estimatePeakRegisters(Block &block, unsigned numWarps);

} // namespace mlir::tile

#endif // TILE_ANALYSIS_REGISTERESTIMATE_H
