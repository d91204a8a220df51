//===- SharedPlacement.h - Where an element lives in a buffer ---*- C++ -*-===//
//
// The offset of each element of a !tilegpu.memdesc from its first byte, by
// its #tilegpu.shared layout: linear in the bits of the coordinates over
// XOR, so that the lowering computes a thread's part once and adds each
// register's part as a constant.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_TILEGPUTOLLVM_SHAREDPLACEMENT_H
#define LIB_CONVERSION_TILEGPUTOLLVM_SHAREDPLACEMENT_H

#include "PatternTileGPUToLLVM.h"

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tilegpu {

/// The placement of a rank-2 tile in a shared buffer.
struct SharedPlacement {
  SharedEncodingAttr layout;
  int64_t rowLength; // elements along order[0], in one block of columns
  int64_t blockSize; // elements of one block of columns (all rows)
  unsigned fast, slow;

  SharedPlacement(MemDescType type)
      : layout(cast<SharedEncodingAttr>(type.getEncoding())) {
    fast = layout.getOrder()[0];
    slow = layout.getOrder()[1];
    ArrayRef<int64_t> shape = type.getShape().take_back(2);
    rowLength = shape[fast];
    if (int64_t block = layout.getColumnsPerBlock())
      rowLength = std::min(rowLength, block);
    blockSize = rowLength * shape[slow];
  }

  /// The element offset of constant coordinates.
  int64_t offset(ArrayRef<int64_t> coords) const {
    int64_t row = coords[slow], col = coords[fast] % rowLength;
    int64_t block = coords[fast] / rowLength;
    int64_t phase = (row / layout.getPerPhase()) % layout.getMaxPhase();
    int64_t vec = layout.getVec();
    return block * blockSize + row * rowLength + (((col / vec) ^ phase) * vec) +
           col % vec;
  }

  /// The offset bits that coordinate bits `coordBits` can set: any XOR of
  /// their offsets stays within these bits.
  int64_t getOffsetBits(ArrayRef<LayoutBit> coordBits) const {
    int64_t mask = 0;
    for (LayoutBit bit : coordBits) {
      if (bit.isFree())
        continue;
      SmallVector<int64_t> coords(2, 0);
      coords[bit.dim] = int64_t(1) << bit.bit;
      mask |= offset(coords);
    }
    return mask;
  }

  /// The element offset of coordinates computed at run time (i32).
  Value offset(OpBuilder &b, Location loc, ArrayRef<Value> coords) const {
    auto i32 = [&](int64_t v) { return createI32(b, loc, v); };
    Value row = coords[slow], col = coords[fast], blockStart;
    if (int64_t(layout.getColumnsPerBlock()) == rowLength) {
      // (col / rowLength) * blockSize: powers of two, a shift.
      Value block =
          LLVM::LShrOp::create(b, loc, col, i32(llvm::Log2_64(rowLength)));
      blockStart =
          LLVM::ShlOp::create(b, loc, block, i32(llvm::Log2_64(blockSize)));
      col = LLVM::AndOp::create(b, loc, col, i32(rowLength - 1));
    }
    Value phase = LLVM::AndOp::create(
        b, loc,
        LLVM::LShrOp::create(b, loc, row,
                             i32(llvm::Log2_32(layout.getPerPhase()))),
        i32(layout.getMaxPhase() - 1));
    unsigned logVec = llvm::Log2_32(layout.getVec());
    Value chunk = LLVM::XOrOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, col, i32(logVec)), phase);
    Value within = LLVM::AndOp::create(b, loc, col, i32(layout.getVec() - 1));
    Value inRow = LLVM::OrOp::create(
        b, loc, LLVM::ShlOp::create(b, loc, chunk, i32(logVec)), within);
    Value rowStart = LLVM::MulOp::create(b, loc, row, i32(rowLength));
    Value result = LLVM::AddOp::create(b, loc, rowStart, inRow);
    if (blockStart)
      result = LLVM::AddOp::create(b, loc, blockStart, result);
    return result;
  }
};

} // namespace mlir::tilegpu

#endif // LIB_CONVERSION_TILEGPUTOLLVM_SHAREDPLACEMENT_H
