//===- TileTypes.cpp - Types and enums of the tile dialect ----------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

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
      pointeeType.isInteger(32) || pointeeType.isInteger(64))
    return success();
  return emitError() << "pointee type " << pointeeType
                     << " is not supported; expected f16, bf16, f32, i32 or "
                        "i64";
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
