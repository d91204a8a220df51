//===- TensorDescOps.cpp - tile.make_tensor_desc and tile.desc_load -------===//
//
// Verifiers of the tensor-descriptor operations declared in TileOps.td.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;

bool mlir::tile::isKnownBeforeLaunch(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value))
    return isa<FuncOp>(argument.getOwner()->getParentOp());
  llvm::APInt constant;
  return matchPattern(value, m_ConstantInt(&constant));
}

LogicalResult MakeTensorDescOp::verify() {
  TensorDescType desc = getType();
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != desc.getElementType())
    return emitOpError("the base points to ")
           << base.getPointeeType() << " but the descriptor holds "
           << desc.getElementType();
  unsigned rank = desc.getRank();
  if (getShape().size() != rank || getStrides().size() != rank)
    return emitOpError("expected ")
           << rank << " sizes and " << rank
           << " strides, one per dimension of the box; got "
           << getShape().size() << " and " << getStrides().size();
  if (!matchPattern(getStrides().back(), m_One()))
    return emitOpError("the innermost stride must be the constant 1");
  // (The GPU lowering's TMA copies, tilegpu.tma_load, read it too; the tile
  // dialect does not depend on tilegpu, so they are known by namespace.)
  for (Operation *user : getResult().getUsers())
    if (!isa<DescLoadOp>(user) &&
        user->getName().getDialectNamespace() != "tilegpu")
      return emitOpError("is used by '")
             << user->getName()
             << "'; a descriptor is only read by tile.desc_load, not carried "
                "through loops, branches or selects";
  if (!isKnownBeforeLaunch(getBase()))
    return emitOpError("the base must be an argument of the kernel: the "
                       "runtime makes the descriptor before the launch");
  for (auto [kind, values] :
       {std::pair<StringRef, OperandRange>{"size", getShape()},
        {"stride", getStrides()}})
    for (auto [index, value] : llvm::enumerate(values))
      if (!isKnownBeforeLaunch(value))
        return emitOpError()
               << kind << " " << index
               << " must be an argument of the kernel or a constant: the "
                  "runtime makes the descriptor before the launch";
  return success();
}

LogicalResult DescLoadOp::verify() {
  TensorDescType desc = getDesc().getType();
  if (!getDesc().getDefiningOp<MakeTensorDescOp>())
    return emitOpError("the descriptor must be a tile.make_tensor_desc of "
                       "this kernel, not a value carried through a loop or "
                       "a region's argument");
  if (getOffsets().size() != desc.getRank())
    return emitOpError("expected ")
           << desc.getRank() << " offsets, one per dimension of the box; got "
           << getOffsets().size();
  // (After convert-tile-to-tilegpu, the result has a GPU layout too.)
  auto type = cast<RankedTensorType>(getType());
  if (type.getShape() != desc.getBlockShape() ||
      type.getElementType() != desc.getElementType())
    return emitOpError("result type ")
           << getType() << " is not the descriptor's box, "
           << desc.getBlockType();
  return success();
}

std::string mlir::tile::checkTensorDescValues(
    MakeTensorDescOp desc,
    llvm::function_ref<std::optional<int64_t>(Value)> valueOf) {
  TensorDescType type = desc.getType();
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  std::string message;
  llvm::raw_string_ostream os(message);
  for (auto [index, size] : llvm::enumerate(desc.getShape()))
    if (std::optional<int64_t> value = valueOf(size); value && *value < 1) {
      os << "size " << index << " is " << *value << "; expected at least 1";
      return message;
    }
  for (auto [index, stride] : llvm::enumerate(desc.getStrides().drop_back()))
    if (std::optional<int64_t> value = valueOf(stride);
        value && (*value < 1 || *value * elementBytes % 16 != 0)) {
      os << "stride " << index << " is " << *value << " elements ("
         << *value * elementBytes
         << " bytes); expected a positive multiple of 16 bytes";
      return message;
    }
  // Descriptor loads address their elements with 32-bit offsets from the
  // base (tile-expand-tensor-descs): the last element must be within reach.
  // Sizes and strides are i32 and positive here, so the sum fits in 64 bits.
  int64_t last = 0;
  for (auto [size, stride] : llvm::zip(desc.getShape(), desc.getStrides())) {
    std::optional<int64_t> sizeValue = valueOf(size);
    std::optional<int64_t> strideValue = valueOf(stride);
    if (!sizeValue || !strideValue)
      return message;
    last += (*sizeValue - 1) * *strideValue;
  }
  if (last > std::numeric_limits<int32_t>::max())
    os << "the tensor's last element is " << last
       << " elements past its base; descriptor loads reach at most 2^31 - 1 "
          "(32-bit offsets)";
  return message;
}
