//===- TileTypes.cpp - Types and enums of the tile dialect ----------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType) {
  if (pointeeType.isF16() || pointeeType.isBF16() || pointeeType.isF32() ||
      isa<Float8E4M3FNType, Float8E5M2Type>(pointeeType) ||
      pointeeType.isInteger(32) || pointeeType.isInteger(64))
    return success();
  return emitError() << "pointee type " << pointeeType
                     << " is not supported; expected f16, bf16, f32, "
                        "f8E4M3FN, f8E5M2, i32 or i64";
}

//===----------------------------------------------------------------------===//
// TensorDescType
//===----------------------------------------------------------------------===//

/// `<64x32xf16>`: the box's shape and the element type.
Type TensorDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type element;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(element) || parser.parseGreater())
    return {};
  return parser.getChecked<TensorDescType>(loc, parser.getContext(), shape,
                                           element);
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t size : getBlockShape())
    printer << size << "x";
  printer << getElementType() << ">";
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> blockShape, Type elementType) {
  if (failed(PointerType::verify(emitError, elementType)))
    return failure();
  if (blockShape.empty() || blockShape.size() > 2)
    return emitError() << "a tensor descriptor's box has 1 or 2 dimensions, "
                          "not "
                       << blockShape.size();
  for (auto [index, size] : llvm::enumerate(blockShape))
    if (size < 1 || size > 256 || !llvm::isPowerOf2_64(size))
      return emitError() << "box dimension " << index << " is " << size
                         << "; expected a power of two of at most 256 (TMA's "
                            "limit)";
  int64_t innerBytes =
      blockShape.back() * elementType.getIntOrFloatBitWidth() / 8;
  if (innerBytes < 16)
    return emitError() << "the box's innermost dimension is " << innerBytes
                       << " bytes; expected at least 16 (TMA's limit)";
  return success();
}

Type mlir::tile::getSameShape(Type type, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(element);
  return element;
}

Type mlir::tile::getPointeeShape(Type ptrLike) {
  auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(ptrLike));
  if (!ptr)
    return {};
  return getSameShape(ptrLike, ptr.getPointeeType());
}
