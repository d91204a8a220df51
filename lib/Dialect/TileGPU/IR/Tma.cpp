//===- Tma.cpp - What the Tensor Memory Accelerator asks of a tile --------===//
//
// See Tma.h. Also the types and verifiers of the TMA operations.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/Tma.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tilegpu;

int64_t TmaBox::getCopyBytes(Type element) const {
  int64_t elements = 1;
  for (int64_t size : box)
    elements *= size;
  return elements * element.getIntOrFloatBitWidth() / 8;
}

FailureOr<TmaBox> mlir::tilegpu::getTmaBox(MemDescType type, std::string &why) {
  llvm::raw_string_ostream os(why);
  if (type.getRank() != 2) {
    os << "is a ring of buffers (rank " << type.getRank()
       << "), not one buffer";
    return failure();
  }
  auto shared = cast<SharedEncodingAttr>(type.getEncoding());
  if (shared.getOrder()[0] != 1) {
    os << "is contiguous along its first dimension (order [0, 1]); TMA "
          "writes rows along the last";
    return failure();
  }
  int64_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t rows = type.getShape()[0], rowLength = type.getShape()[1];
  int64_t boxLength = shared.getColumnsPerBlock()
                          ? int64_t(shared.getColumnsPerBlock())
                          : rowLength;
  int64_t boxBytes = boxLength * bytes;
  TmaBox result;
  result.box = {rows, boxLength};
  result.copies = rowLength / boxLength;
  if (rows > 256 || boxLength > 256) {
    os << "takes a box of " << rows << " x " << boxLength
       << " elements; TMA moves at most 256 along each dimension";
    return failure();
  }
  if (boxBytes % 16 != 0) {
    os << "has rows of " << boxBytes
       << " bytes; TMA moves rows of a multiple of 16 bytes";
    return failure();
  }
  // TMA writes each box at a 128-byte aligned address; a swizzle follows
  // the address bits of 8 rows, so each box (and each buffer of a ring)
  // starts at a multiple of 8 of its rows.
  if (shared.getMaxPhase() == 1) {
    if (shared.getColumnsPerBlock()) {
      os << "cuts unswizzled rows into blocks of columns";
      return failure();
    }
    if (rows * boxBytes % 128 != 0) {
      os << "takes " << rows * boxBytes
         << " bytes; TMA writes boxes at multiples of 128 bytes";
      return failure();
    }
    return result;
  }
  if (rows % 8 != 0) {
    os << "has " << rows
       << " rows; a swizzled box has a multiple of 8, as the pattern";
    return failure();
  }
  int64_t span = 16 * int64_t(shared.getMaxPhase());
  if (int64_t(shared.getVec()) * bytes != 16 ||
      (span != 32 && span != 64 && span != 128) ||
      int64_t(shared.getPerPhase()) * span != 128 || boxBytes != span) {
    os << "is swizzled as " << shared
       << ", which is not TMA's 32-, 64- or 128-byte swizzle of rows as "
          "wide as it";
    return failure();
  }
  result.swizzleBytes = span;
  return result;
}

//===----------------------------------------------------------------------===//
// Types and operations
//===----------------------------------------------------------------------===//

LogicalResult
MBarriersType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t count) {
  if (count < 1)
    return emitError() << "a row of mbarriers holds at least one, got "
                       << count;
  return success();
}

LogicalResult TmaLoadOp::verify() {
  tile::TensorDescType desc = getDesc().getType();
  MemDescType dst = getDst().getType();
  if (getOffsets().size() != desc.getRank())
    return emitOpError("takes ")
           << desc.getRank() << " offsets for a descriptor of rank "
           << desc.getRank() << ", got " << getOffsets().size();
  if (dst.getShape() != desc.getBlockShape() ||
      dst.getElementType() != desc.getElementType())
    return emitOpError("copies a box of ")
           << desc.getBlockType() << " into a buffer of the same shape and "
           << "element type, not " << dst;
  std::string why;
  if (failed(getTmaBox(dst, why)))
    return emitOpError("cannot write its buffer with TMA: it ") << why;
  return success();
}
