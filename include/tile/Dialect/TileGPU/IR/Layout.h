//===- Layout.h - Where each element of a tile lives ------------*- C++ -*-===//
//
// The model behind every layout of the tilegpu dialect. The dimensions of a
// tile are powers of two, so an element's coordinates are bit strings, and so
// are a thread's register index, lane id and warp id. A layout maps each bit
// of those three ids to one bit of one coordinate, or to nothing: the bit is
// then *free*, and the threads (lanes, warps) that differ only in it hold the
// same elements. Registers have no free bits: a thread never holds the same
// element twice.
//
// The coordinate of the element that register `r` of lane `l` in warp `w`
// holds is the OR, over the set bits of r, l and w, of the coordinate bits
// they map to. The lowering to LLVM computes addresses, reductions and layout
// conversions from this map alone.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_LAYOUT_H
#define TILE_DIALECT_TILEGPU_IR_LAYOUT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tilegpu {

/// The target of one bit of a register index, lane id or warp id.
struct LayoutBit {
  /// The tile dimension, or -1 for a free bit.
  int dim = -1;
  /// The bit of the coordinate along `dim`.
  int bit = 0;

  bool isFree() const { return dim < 0; }
  bool operator==(const LayoutBit &other) const {
    return dim == other.dim && bit == other.bit;
  }
};

/// A layout applied to one tile shape.
struct LayoutBits {
  SmallVector<int64_t> shape;
  /// Bit i of a thread's register index, lane id and warp id.
  SmallVector<LayoutBit> reg, lane, warp;

  int64_t getNumRegisters() const { return int64_t(1) << reg.size(); }

  /// The coordinates that register `r` contributes (lane 0 of warp 0).
  SmallVector<int64_t> getRegisterCoords(int64_t r) const;

  /// The register holding the element at `coords` minus the lane and warp
  /// contributions, if the register bits can produce `coords`.
  std::optional<int64_t> getRegisterAt(ArrayRef<int64_t> coords) const;

  /// Mask of the free lane (warp) bits: threads differing only there hold
  /// the same elements.
  unsigned getFreeLaneMask() const;
  unsigned getFreeWarpMask() const;

  /// Number of low register bits that map, in order, onto the low
  /// coordinate bits of `dim`: runs of that many registers hold consecutive
  /// elements along `dim`.
  int64_t getContiguousRegisters(int dim) const;

  bool operator==(const LayoutBits &other) const {
    return shape == other.shape && reg == other.reg && lane == other.lane &&
           warp == other.warp;
  }
};

/// Computes the bits of the layout of `type`, a tensor whose encoding is a
/// tilegpu layout and whose dimensions are powers of two; failure otherwise.
FailureOr<LayoutBits> getLayoutBits(RankedTensorType type);

/// The warps a layout spreads a tile over (a slice's or a dot operand's: its
/// parent's); none for an attribute that is not a tilegpu layout.
std::optional<unsigned> getLayoutNumWarps(Attribute layout);

/// The warps along M and N of the mma layout of an M x N accumulator on
/// `numWarps` warps: each warp's share of instruction tiles (16 x 8) kept
/// about square, so that A and B fragments are reused across it (Triton's
/// choice for mma.sync).
SmallVector<unsigned, 2> getMmaWarpsPerCTA(ArrayRef<int64_t> shape,
                                           unsigned numWarps);

/// Number of elements each thread holds for `type`: 1 for a scalar.
int64_t getElementsPerThread(Type type);

/// A thread has 255 registers; a tile needing more elements per thread than
/// this cannot live in registers (convert-tilegpu-to-llvm refuses it).
inline constexpr int64_t kMaxElementsPerThread = 256;

/// A blocked layout for tiles of `shape` on `numWarps` warps: a thread holds
/// `sizePerThreadFastest` consecutive elements along the fastest dimension
/// (capped by the shape); lanes spread over the dimensions in `order`
/// (fastest first; by default the last dimension first), warps over the
/// dimensions in the reverse order (so that reductions along the fastest
/// dimension stay within a warp).
Attribute getDefaultBlockedLayout(MLIRContext *context, ArrayRef<int64_t> shape,
                                  unsigned numWarps,
                                  unsigned sizePerThreadFastest = 1,
                                  ArrayRef<unsigned> order = {});

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_IR_LAYOUT_H
