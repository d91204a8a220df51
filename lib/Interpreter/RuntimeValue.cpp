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

unsigned interpreter::getStorageSize(DataType type) {
  return type == DataType::Ptr ? sizeof(Pointer) : getDataTypeSize(type);
}

RuntimeValue RuntimeValue::allocate(DataType kind, ArrayRef<int64_t> shape) {
  RuntimeValue value;
  value.kind = kind;
  value.shape.assign(shape.begin(), shape.end());
  value.numElements = 1;
  for (int64_t dim : shape)
    value.numElements *= dim;
  size_t bytes = std::max<size_t>(value.numElements * getStorageSize(kind), 1);
  value.storage = std::shared_ptr<uint8_t[]>(new uint8_t[bytes]());
  return value;
}

RuntimeValue RuntimeValue::reshape(ArrayRef<int64_t> newShape) const {
  RuntimeValue value = *this;
  value.shape.assign(newShape.begin(), newShape.end());
  return value;
}

RuntimeValue RuntimeValue::reinterpret(DataType newKind) const {
  RuntimeValue value = *this;
  value.kind = newKind;
  return value;
}

int64_t RuntimeValue::getInteger() const {
  switch (kind) {
  case DataType::I1:
    return getData<uint8_t>()[0] ? -1 : 0;
  case DataType::I32:
    return getData<int32_t>()[0];
  case DataType::I64:
    return getData<int64_t>()[0];
  case DataType::F16:
  case DataType::BF16:
  case DataType::F32:
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
  case DataType::Ptr:
    break;
  }
  llvm_unreachable("not an integer");
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
