//===- TileGPUDialect.cpp - The tilegpu dialect ---------------------------===//
//
// Registration, the verifiers of the layout attributes, and the layout
// conversion operation.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"

namespace {
/// Prints layouts as aliases (#blocked, #blocked1, #slice, ...) at the top of
/// the file instead of in full at every use.
struct TileGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandEncodingAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileGPUDialect::initialize() {
  registerAttributes();
  registerTypes();
  addInterfaces<TileGPUOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
}

Operation *TileGPUDialect::materializeConstant(OpBuilder &builder,
                                               Attribute value, Type type,
                                               Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

void TileGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// BlockedEncodingAttr
//===----------------------------------------------------------------------===//

static int64_t product(ArrayRef<unsigned> values) {
  int64_t result = 1;
  for (unsigned v : values)
    result *= v;
  return result;
}

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and "
                          "order must all have the layout's rank ("
                       << rank << ")";
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[d] = true;
  }
  for (auto [name, values] : {std::pair<StringRef, ArrayRef<unsigned>>{
                                  "sizePerThread", sizePerThread},
                              {"threadsPerWarp", threadsPerWarp},
                              {"warpsPerCTA", warpsPerCTA}})
    for (unsigned v : values)
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << name << " must hold powers of two, got " << v;
  if (product(threadsPerWarp) != TileGPUDialect::kThreadsPerWarp)
    return emitError() << "threadsPerWarp must multiply to "
                       << TileGPUDialect::kThreadsPerWarp << " (a warp), got "
                       << product(threadsPerWarp);
  return success();
}

unsigned BlockedEncodingAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}

/// A layout needs power-of-two dimensions: it maps bits to bits.
static LogicalResult
verifyPowerOfTwoShape(ArrayRef<int64_t> shape,
                      function_ref<InFlightDiagnostic()> emitError) {
  for (int64_t size : shape)
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return emitError() << "a tile with a layout needs dimensions that are "
                            "powers of two, got "
                         << size;
  return success();
}

LogicalResult BlockedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getRank())
    return emitError() << "a rank-" << getRank()
                       << " blocked layout cannot lay out a rank-"
                       << shape.size() << " tile";
  return verifyPowerOfTwoShape(shape, emitError);
}

//===----------------------------------------------------------------------===//
// SliceEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  unsigned rank;
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(parent))
    rank = blocked.getRank();
  else if (isa<MmaEncodingAttr>(parent))
    rank = 2;
  else
    return emitError() << "a slice's parent is a blocked or an mma layout, "
                          "not "
                       << parent;
  if (dim >= rank)
    return emitError() << "slice dimension " << dim
                       << " is out of range for a rank-" << rank << " parent";
  return success();
}

unsigned SliceEncodingAttr::getParentRank() const {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(getParent()))
    return blocked.getRank();
  return 2;
}

LogicalResult SliceEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() + 1 != getParentRank())
    return emitError() << "a slice of a rank-" << getParentRank()
                       << " layout lays out rank-" << getParentRank() - 1
                       << " tiles, not rank-" << shape.size();
  return verifyPowerOfTwoShape(shape, emitError);
}

//===----------------------------------------------------------------------===//
// MmaEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<unsigned> warpsPerCTA, unsigned versionMajor) {
  if (warpsPerCTA.size() != 2)
    return emitError() << "an mma layout has two warp counts (along M and N), "
                          "got "
                       << warpsPerCTA.size();
  for (unsigned v : warpsPerCTA)
    if (v == 0 || !llvm::isPowerOf2_32(v))
      return emitError() << "warpsPerCTA must hold powers of two, got " << v;
  if (versionMajor != 2 && versionMajor != 3)
    return emitError() << "an mma layout is version 2 (mma.sync) or 3 "
                          "(wgmma), not "
                       << versionMajor;
  if (versionMajor == 3 && warpsPerCTA[0] % 4 != 0)
    return emitError() << "a version 3 mma layout stacks whole warpgroups "
                          "along M: warpsPerCTA[0] is a multiple of 4, got "
                       << warpsPerCTA[0];
  return success();
}

unsigned MmaEncodingAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}

LogicalResult MmaEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "an mma layout lays out rank-2 tiles, not rank-"
                       << shape.size();
  if (isHopper()) {
    // Every warpgroup holds 64 rows and at least 8 columns.
    int64_t rows = 16 * int64_t(getWarpsPerCTA()[0]),
            columns = 8 * int64_t(getWarpsPerCTA()[1]);
    if (shape[0] % rows != 0 || shape[1] % columns != 0)
      return emitError() << "a version 3 mma layout over warps "
                         << getWarpsPerCTA()[0] << " x " << getWarpsPerCTA()[1]
                         << " lays out tiles of a multiple of " << rows << " x "
                         << columns << " elements, not " << shape[0] << " x "
                         << shape[1];
  }
  return verifyPowerOfTwoShape(shape, emitError);
}

//===----------------------------------------------------------------------===//
// DotOperandEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent) {
  if (opIdx > 1)
    return emitError() << "opIdx is 0 (A) or 1 (B), got " << opIdx;
  auto blocked = dyn_cast<BlockedEncodingAttr>(parent);
  if (!isa<MmaEncodingAttr>(parent) && !(blocked && blocked.getRank() == 2))
    return emitError() << "the parent of a dot operand is an mma layout or a "
                          "rank-2 blocked layout, got "
                       << parent;
  if (auto mma = dyn_cast<MmaEncodingAttr>(parent); mma && mma.isHopper())
    return emitError() << "a version 3 (wgmma) product reads its operands "
                          "from shared memory (tilegpu.warpgroup_dot); they "
                          "have no register layout";
  return success();
}

LogicalResult DotOperandEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "a dot operand is a rank-2 tile, not rank-"
                       << shape.size();
  // MLIR's parser verifies the encoding of `tensor<...x!bad, #enc>` too,
  // with no element type, after reporting the bad one.
  if (!elementType)
    return failure();
  if (isa<MmaEncodingAttr>(getParent()) &&
      !(elementType.isF16() || elementType.isBF16() || elementType.isF32() ||
        isa<Float8E4M3FNType, Float8E5M2Type>(elementType)))
    return emitError() << "an mma operand holds f16, bf16, f32 (TF32), "
                          "f8E4M3FN or f8E5M2, not "
                       << elementType;
  return verifyPowerOfTwoShape(shape, emitError);
}

//===----------------------------------------------------------------------===//
// The num_warps attribute
//===----------------------------------------------------------------------===//

LogicalResult TileGPUDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  if (attr.getName() == getStageDistanceAttrName()) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getValue().getSignificantBits() > 32 ||
        value.getInt() < 1)
      return op->emitError()
             << "'" << getStageDistanceAttrName()
             << "' is a positive number of iterations, got " << attr.getValue();
    return success();
  }
  if (attr.getName() != getNumWarpsAttrName())
    return op->emitError() << "unknown tilegpu attribute '"
                           << attr.getName().getValue() << "'";
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getValue().getSignificantBits() > 64 ||
      !tile::TileDialect::isValidNumWarps(value.getInt()))
    return op->emitError() << "'" << getNumWarpsAttrName()
                           << "' must be a power of two from 1 to 32, got "
                           << attr.getValue();
  // Every layout in the kernel spreads the tile over exactly this many warps.
  int64_t numWarps = value.getInt();
  WalkResult result = op->walk([&](Operation *inner) {
    for (Type type : inner->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.getEncoding())
        continue;
      std::optional<unsigned> warps = getLayoutNumWarps(tensor.getEncoding());
      if (warps && *warps != numWarps) {
        inner->emitOpError("has a layout over ")
            << *warps << " warps in a kernel of " << numWarps << " warps";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  RankedTensorType srcType = getSrc().getType(), resultType = getType();
  if (srcType.getShape() != resultType.getShape() ||
      srcType.getElementType() != resultType.getElementType())
    return emitOpError("changes the tile ") << srcType << " into " << resultType
                                            << "; only the layout may change";
  if (!srcType.getEncoding() || !resultType.getEncoding())
    return emitOpError("converts between layouts; both types need one");
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // convert(convert(x)) -> convert(x)
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  // A constant splat is the same in every layout.
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getSrc()))
    return splat.reshape(getType());
  return {};
}

#define GET_OP_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
