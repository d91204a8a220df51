//===- TileDialect.cpp - The tile dialect ---------------------------------===//
//
// Registration of the dialect's types, attributes and operations, constant
// materialization, and the verifier of kernel argument attributes.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileDialect.cpp.inc"

void TileDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  if (attr.getName() != getDivisibilityAttrName())
    return op->emitOpError()
           << "argument " << argIndex << " has unknown attribute '"
           << attr.getName().getValue() << "'; the tile dialect knows '"
           << getDivisibilityAttrName() << "'";

  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getValue().getSignificantBits() > 64 ||
      value.getInt() <= 0 || !llvm::isPowerOf2_64(value.getInt()))
    return op->emitOpError()
           << "'" << getDivisibilityAttrName() << "' of argument " << argIndex
           << " must be a positive power of two, got " << attr.getValue();

  Region &region = op->getRegion(regionIndex);
  if (region.empty())
    return success();
  Type type = region.getArgument(argIndex).getType();
  if (!isa<PointerType, IntegerType>(type))
    return op->emitOpError()
           << "'" << getDivisibilityAttrName() << "' of argument " << argIndex
           << " applies to pointers and integers, not " << type;
  return success();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == getNumStagesAttrName()) {
    if (!isa<scf::ForOp>(op))
      return op->emitOpError()
             << "'" << getNumStagesAttrName() << "' applies to scf.for loops";
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getValue().getSignificantBits() > 64 ||
        value.getInt() < 1)
      return op->emitOpError()
             << "'" << getNumStagesAttrName()
             << "' must be a positive integer, got " << attr.getValue();
    return success();
  }
  if (attr.getName() != getNumWarpsAttrName())
    return op->emitOpError()
           << "has unknown attribute '" << attr.getName().getValue()
           << "'; the tile dialect knows '" << getNumWarpsAttrName()
           << "' on kernels and '" << getNumStagesAttrName() << "' on loops";
  if (!isa<FuncOp>(op))
    return op->emitOpError() << "'" << getNumWarpsAttrName()
                             << "' applies to kernels (tile.func)";
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getValue().getSignificantBits() > 64 ||
      !isValidNumWarps(value.getInt()))
    return op->emitOpError()
           << "'" << getNumWarpsAttrName()
           << "' must be a power of two from 1 to 32, got " << attr.getValue();
  return success();
}

unsigned TileDialect::getNumWarps(Operation *kernel, unsigned defaultNumWarps) {
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(getNumWarpsAttrName()))
    return attr.getInt();
  return defaultNumWarps;
}
