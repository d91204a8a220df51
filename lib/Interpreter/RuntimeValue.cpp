//===- RuntimeValue.cpp - Values of the interpreter -----------------------===//

#include "RuntimeValue.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interpreter;

std::optional<Kind> interpreter::getKind(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  if (type.isF16())
    return Kind::F16;
  if (type.isBF16())
    return Kind::BF16;
  if (type.isF32())
    return Kind::F32;
  if (type.isInteger(1))
    return Kind::I1;
  if (type.isInteger(32))
    return Kind::I32;
  if (type.isInteger(64) || type.isIndex())
    return Kind::I64;
  if (isa<PointerType>(type))
    return Kind::Ptr;
  return std::nullopt;
}

unsigned interpreter::getKindSize(Kind kind) {
  switch (kind) {
  case Kind::F16:
  case Kind::BF16:
    return 2;
  case Kind::F32:
  case Kind::I32:
    return 4;
  case Kind::I1:
    return 1;
  case Kind::I64:
    return 8;
  case Kind::Ptr:
    return sizeof(Pointer);
  }
  llvm_unreachable("unknown kind");
}

unsigned interpreter::getIntegerWidth(Kind kind) {
  switch (kind) {
  case Kind::I1:
    return 1;
  case Kind::I32:
    return 32;
  case Kind::I64:
    return 64;
  default:
    return 0;
  }
}

RuntimeValue RuntimeValue::allocate(Kind kind, ArrayRef<int64_t> shape) {
  RuntimeValue value;
  value.kind = kind;
  value.shape.assign(shape.begin(), shape.end());
  value.numElements = 1;
  for (int64_t dim : shape)
    value.numElements *= dim;
  size_t bytes = std::max<size_t>(value.numElements * getKindSize(kind), 1);
  value.storage = std::shared_ptr<uint8_t[]>(new uint8_t[bytes]());
  return value;
}

RuntimeValue RuntimeValue::reshape(ArrayRef<int64_t> newShape) const {
  RuntimeValue value = *this;
  value.shape.assign(newShape.begin(), newShape.end());
  return value;
}

RuntimeValue RuntimeValue::reinterpret(Kind newKind) const {
  RuntimeValue value = *this;
  value.kind = newKind;
  return value;
}

int64_t RuntimeValue::getInteger() const {
  switch (kind) {
  case Kind::I1:
    return getData<uint8_t>()[0] ? -1 : 0;
  case Kind::I32:
    return getData<int32_t>()[0];
  case Kind::I64:
    return getData<int64_t>()[0];
  default:
    llvm_unreachable("not an integer");
  }
}

std::string interpreter::describeLane(ArrayRef<int64_t> shape, int64_t index,
                                      llvm::StringRef scalarName) {
  if (shape.empty())
    return scalarName.str();
  if (shape.size() == 1)
    return "lane " + llvm::itostr(index);
  SmallVector<int64_t, 4> position(shape.size());
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    position[dim] = index % shape[dim];
    index /= shape[dim];
  }
  return "lane (" +
         llvm::join(llvm::map_range(position,
                                    [](int64_t i) { return llvm::itostr(i); }),
                    ", ") +
         ")";
}
