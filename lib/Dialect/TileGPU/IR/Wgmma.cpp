//===- Wgmma.cpp - What Hopper's warpgroup MMA asks of its tiles ----------===//

#include "tile/Dialect/TileGPU/IR/Wgmma.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

SharedEncodingAttr
mlir::tilegpu::getWgmmaSharedLayout(MLIRContext *context,
                                    ArrayRef<int64_t> shape, Type element,
                                    ArrayRef<unsigned> order) {
  if (!isWgmmaElementType(element) || shape.size() != 2)
    return {};
  int64_t bytes = element.getIntOrFloatBitWidth() / 8,
          rowLength = shape[order[0]];
  int64_t rowBytes = std::min<int64_t>(128, rowLength * bytes);
  if (rowBytes < 32)
    return {};
  int64_t columns = rowBytes / bytes;
  return SharedEncodingAttr::get(
      context, /*vec=*/16 / bytes, /*perPhase=*/128 / rowBytes,
      /*maxPhase=*/rowBytes / 16, order,
      /*columnsPerBlock=*/columns < rowLength ? columns : 0);
}

bool mlir::tilegpu::isWgmmaElementType(Type element) {
  return element.isF16() || element.isBF16() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(element);
}

int64_t mlir::tilegpu::getWgmmaInstrK(Type element) {
  return 256 / element.getIntOrFloatBitWidth();
}

int64_t mlir::tilegpu::getWgmmaSwizzleBytes(MemDescType type) {
  auto shared = cast<SharedEncodingAttr>(type.getEncoding());
  return 16 * shared.getMaxPhase();
}

std::optional<SmallVector<unsigned, 2>>
mlir::tilegpu::getWgmmaWarpsPerCTA(ArrayRef<int64_t> shape, unsigned numWarps) {
  if (shape.size() != 2 || numWarps % 4 != 0 || shape[0] % 64 != 0)
    return std::nullopt;
  unsigned groups = numWarps / 4;
  unsigned alongM = std::min<int64_t>(groups, shape[0] / 64);
  unsigned alongN = groups / alongM;
  if (alongM * alongN != groups || shape[1] % (8 * alongN) != 0)
    return std::nullopt;
  return SmallVector<unsigned, 2>{4 * alongM, alongN};
}

int64_t mlir::tilegpu::getWgmmaInstrN(int64_t n, unsigned warpsAlongN) {
  return std::min<int64_t>(256, n / warpsAlongN);
}

std::string mlir::tilegpu::whyNotWgmmaOperand(MemDescType type, unsigned opIdx,
                                              MmaEncodingAttr layout,
                                              int64_t n) {
  std::string why;
  llvm::raw_string_ostream os(why);
  Type element = type.getElementType();
  if (type.getRank() != 2) {
    os << "is a ring of buffers (rank " << type.getRank()
       << "), not one buffer";
    return why;
  }
  if (!isWgmmaElementType(element)) {
    os << "holds " << element
       << "; wgmma reads f16, bf16, f8E4M3FN or f8E5M2 here";
    return why;
  }
  auto shared = cast<SharedEncodingAttr>(type.getEncoding());
  SharedEncodingAttr wanted = getWgmmaSharedLayout(
      type.getContext(), type.getShape(), element, shared.getOrder());
  if (!wanted) {
    os << "has rows of " << type.getShape()[shared.getOrder()[0]]
       << " elements; wgmma's layouts have rows of at least 32 bytes";
    return why;
  }
  if (shared != wanted) {
    os << "is laid out as " << shared << "; wgmma reads it as " << wanted;
    return why;
  }
  // Along K, each instruction reads 32 bytes of a row: 16 elements of 16
  // bits, 32 of 8.
  unsigned kDim = opIdx == 0 ? 1 : 0;
  int64_t instrK = getWgmmaInstrK(element);
  if (type.getShape()[kDim] % instrK != 0) {
    os << "has K = " << type.getShape()[kDim] << "; wgmma steps through K "
       << instrK << " at a time";
    return why;
  }
  // wgmma transposes 16-bit operands only: 8-bit ones are read K-major.
  if (element.getIntOrFloatBitWidth() == 8 && shared.getOrder()[0] != kDim) {
    os << "is contiguous along " << (opIdx == 0 ? "M" : "N")
       << "; wgmma reads 8-bit operands contiguous along K only (give "
       << (opIdx == 0 ? "A row-major" : "B column-major, as N x K") << ")";
    return why;
  }
  // Contiguous along M or N, a warpgroup's instruction starts at the start
  // of a block of columns (a 64-element swizzle row, or the whole row).
  if (shared.getOrder()[0] != kDim && opIdx == 1) {
    int64_t share = n / layout.getWarpsPerCTA()[1];
    int64_t block = std::min<int64_t>(64, n);
    if (share % block != 0)
      os << "is contiguous along N in rows of " << block
         << " elements, which the " << share
         << " columns of each warpgroup would start inside of";
  }
  return why;
}

LogicalResult WarpgroupDotOp::verify() {
  MemDescType a = getA().getType(), b = getB().getType();
  auto c = cast<RankedTensorType>(getC().getType());
  auto layout = dyn_cast_or_null<MmaEncodingAttr>(c.getEncoding());
  if (!layout || !layout.isHopper())
    return emitOpError("accumulates in a version 3 #tilegpu.mma layout, not ")
           << c;
  if (!c.getElementType().isF32())
    return emitOpError("accumulates in f32, not ") << c.getElementType();
  if (a.getRank() != 2 || b.getRank() != 2 ||
      a.getShape()[1] != b.getShape()[0] ||
      a.getShape()[0] != c.getShape()[0] || b.getShape()[1] != c.getShape()[1])
    return emitOpError("multiplies ") << a << " by " << b << " into " << c
                                      << "; expected M x K by K x N into M x N";
  if (a.getElementType() != b.getElementType())
    return emitOpError("multiplies ")
           << a.getElementType() << " by " << b.getElementType()
           << "; expected one element type";
  std::array<MemDescType, 2> operands = {a, b};
  for (auto [index, type] : llvm::enumerate(operands)) {
    std::string why = whyNotWgmmaOperand(type, index, layout, c.getShape()[1]);
    if (!why.empty())
      return emitOpError("operand ") << (index == 0 ? "A" : "B") << " " << why;
  }
  return success();
}
