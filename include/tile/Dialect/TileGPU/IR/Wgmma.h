//===- Wgmma.h - What Hopper's warpgroup MMA asks of its tiles --*- C++ -*-===//
//
// The rules `wgmma.mma_async` (sm_90a) sets for the tiles of a matrix
// product, shared by the pass that chooses it (tilegpu-warpgroup-dot), the
// verifier of tilegpu.warpgroup_dot and its lowering:
//
// - the accumulator: M x N in f32 over warps [wm, wn], wm a multiple of 4
//   (whole warpgroups stacked along M), each warpgroup 64 rows at a time by
//   N / wn columns, at most 256 columns per instruction;
// - the operands: 16-bit elements (f16, bf16) or 8-bit ones (f8E4M3FN,
//   f8E5M2, contiguous along K only: wgmma transposes 16-bit operands
//   alone) in shared memory, in the canonical layouts a matrix descriptor
//   describes: rows of 32, 64 or 128 bytes swizzled by the matching pattern
//   (#tilegpu.shared with vec = 16 bytes and perPhase x maxPhase = 8),
//   longer rows cut into blocks of 128 bytes (columnsPerBlock); an
//   instruction reads 32 bytes of K (16 elements of 16 bits, 32 of 8).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_WGMMA_H
#define TILE_DIALECT_TILEGPU_IR_WGMMA_H

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include <optional>

namespace mlir::tilegpu {

/// The layout wgmma reads a tile of `shape` and `element` from when it is
/// contiguous along `order[0]`; none when it cannot (not an element type
/// wgmma reads, or rows shorter than 32 bytes).
SharedEncodingAttr getWgmmaSharedLayout(MLIRContext *context,
                                        ArrayRef<int64_t> shape, Type element,
                                        ArrayRef<unsigned> order);

/// Whether wgmma multiplies operands of `element`: f16, bf16, f8E4M3FN,
/// f8E5M2.
bool isWgmmaElementType(Type element);

/// The K of one wgmma instruction on operands of `element`: 16 for 16-bit
/// elements, 32 for 8-bit ones.
int64_t getWgmmaInstrK(Type element);

/// The bytes of one swizzled row of a buffer in a wgmma layout (32, 64 or
/// 128): the descriptor's swizzle mode.
int64_t getWgmmaSwizzleBytes(MemDescType type);

/// The warps [wm, wn] of the wgmma accumulator of an M x N product on
/// `numWarps` warps: warpgroups along M while M has 64 rows for each, the
/// rest along N; none when the product does not fit (warps not a multiple
/// of 4, M not a multiple of 64, N too narrow for the warpgroups or not a
/// multiple of 8 for each).
std::optional<SmallVector<unsigned, 2>>
getWgmmaWarpsPerCTA(ArrayRef<int64_t> shape, unsigned numWarps);

/// The N of each wgmma instruction for an accumulator of `n` columns over
/// `warpsAlongN` warpgroups: the columns of one, at most 256.
int64_t getWgmmaInstrN(int64_t n, unsigned warpsAlongN);

/// Why operand `opIdx` (0: A, M x K; 1: B, K x N) of a warpgroup product
/// whose accumulator of `n` columns has `layout` cannot be read from
/// `type`; empty when it can.
std::string whyNotWgmmaOperand(MemDescType type, unsigned opIdx,
                               MmaEncodingAttr layout, int64_t n);

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_IR_WGMMA_H
