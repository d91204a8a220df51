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
  StringRef name = attr.getName().getValue();
  bool isDivisibility = name == getDivisibilityAttrName();
  if (!isDivisibility && name != getMaxValueAttrName())
    return op->emitOpError()
           << "argument " << argIndex << " has unknown attribute '" << name
           << "'; the tile dialect knows '" << getDivisibilityAttrName()
           << "' and '" << getMaxValueAttrName() << "'";

  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  bool fits = value && value.getValue().getSignificantBits() <= 64;
  if (isDivisibility &&
      (!fits || value.getInt() <= 0 || !llvm::isPowerOf2_64(value.getInt())))
    return op->emitOpError()
           << "'" << name << "' of argument " << argIndex
           << " must be a positive power of two, got " << attr.getValue();
  if (!isDivisibility && !fits)
    return op->emitOpError()
           << "'" << name << "' of argument " << argIndex
           << " must be a 64-bit integer, got " << attr.getValue();

  Region &region = op->getRegion(regionIndex);
  if (region.empty())
    return success();
  Type type = region.getArgument(argIndex).getType();
  if (isDivisibility && !isa<PointerType, IntegerType>(type))
    return op->emitOpError()
           << "'" << name << "' of argument " << argIndex
           << " applies to pointers and integers, not " << type;
  if (!isDivisibility && !isa<IntegerType>(type))
    return op->emitOpError() << "'" << name << "' of argument " << argIndex
                             << " applies to integers, not " << type;
  return success();
}

std::string mlir::tile::checkIntegerArgument(FuncOp kernel, unsigned index,
                                             int64_t value) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (auto divisibility = kernel.getArgAttrOfType<IntegerAttr>(
          index, TileDialect::getDivisibilityAttrName());
      divisibility && value % divisibility.getInt() != 0)
    os << "argument " << index << " is " << value
       << ", which breaks its promise '"
       << TileDialect::getDivisibilityAttrName() << " = "
       << divisibility.getInt() << "'";
  else if (auto bound = kernel.getArgAttrOfType<IntegerAttr>(
               index, TileDialect::getMaxValueAttrName());
           bound && value > bound.getInt())
    os << "argument " << index << " is " << value << ", above its bound '"
       << TileDialect::getMaxValueAttrName() << " = " << bound.getInt() << "'";
  return message;
}

/// `tile.persistent`: a unit attribute of a kernel whose programs use ids
/// and counts along x only (a persistent launch is one-dimensional).
static LogicalResult verifyPersistent(Operation *op, Attribute value) {
  StringRef name = TileDialect::getPersistentAttrName();
  if (!isa<FuncOp>(op))
    return op->emitOpError()
           << "'" << name << "' applies to kernels (tile.func)";
  if (!isa<UnitAttr>(value))
    return op->emitOpError()
           << "'" << name << "' is a unit attribute, got " << value;
  WalkResult result = op->walk([&](Operation *inner) {
    std::optional<ProgramAxis> axis;
    if (auto id = dyn_cast<ProgramIdOp>(inner))
      axis = id.getAxis();
    else if (auto count = dyn_cast<NumProgramsOp>(inner))
      axis = count.getAxis();
    if (!axis || *axis == ProgramAxis::x)
      return WalkResult::advance();
    inner->emitOpError() << "along " << stringifyProgramAxis(*axis)
                         << " in a kernel with '" << name
                         << "', whose launch is persistent along x only";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
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
  if (attr.getName() == getClusterSizeAttrName()) {
    if (!isa<FuncOp>(op))
      return op->emitOpError() << "'" << getClusterSizeAttrName()
                               << "' applies to kernels (tile.func)";
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getValue().getSignificantBits() > 64 ||
        !isValidClusterSize(value.getInt()))
      return op->emitOpError()
             << "'" << getClusterSizeAttrName()
             << "' must be a power of two from 1 to " << kMaxClusterSize
             << ", got " << attr.getValue();
    return success();
  }
  if (attr.getName() == getMinBlocksPerSMAttrName()) {
    if (!isa<FuncOp>(op))
      return op->emitOpError() << "'" << getMinBlocksPerSMAttrName()
                               << "' applies to kernels (tile.func)";
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getValue().getSignificantBits() > 64 ||
        value.getInt() < 1 || value.getInt() > kMaxBlocksPerSM)
      return op->emitOpError()
             << "'" << getMinBlocksPerSMAttrName() << "' must be from 1 to "
             << kMaxBlocksPerSM << ", got " << attr.getValue();
    return success();
  }
  if (attr.getName() == getPersistentAttrName())
    return verifyPersistent(op, attr.getValue());
  if (attr.getName() == getFPContractAttrName()) {
    if (!isa<FuncOp>(op))
      return op->emitOpError() << "'" << getFPContractAttrName()
                               << "' applies to kernels (tile.func)";
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << getFPContractAttrName()
             << "' must be true or false, got " << attr.getValue();
    return success();
  }
  if (attr.getName() != getNumWarpsAttrName())
    return op->emitOpError()
           << "has unknown attribute '" << attr.getName().getValue()
           << "'; the tile dialect knows '" << getNumWarpsAttrName() << "', '"
           << getClusterSizeAttrName() << "', '" << getMinBlocksPerSMAttrName()
           << "', '" << getPersistentAttrName() << "' and '"
           << getFPContractAttrName() << "' on kernels and '"
           << getNumStagesAttrName() << "' on loops";
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

unsigned TileDialect::getClusterSize(Operation *kernel) {
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(getClusterSizeAttrName()))
    return attr.getInt();
  return 1;
}

unsigned TileDialect::getMinBlocksPerSM(Operation *kernel) {
  if (auto attr =
          kernel->getAttrOfType<IntegerAttr>(getMinBlocksPerSMAttrName()))
    return attr.getInt();
  return 1;
}

bool TileDialect::allowsFPContract(Operation *kernel) {
  if (auto attr = kernel->getAttrOfType<BoolAttr>(getFPContractAttrName()))
    return attr.getValue();
  return true;
}

unsigned TileDialect::getNumWarps(Operation *kernel, unsigned defaultNumWarps) {
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(getNumWarpsAttrName()))
    return attr.getInt();
  return defaultNumWarps;
}
