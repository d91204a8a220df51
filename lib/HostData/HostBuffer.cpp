//===- HostBuffer.cpp - Typed, shaped arrays in host memory ---------------===//

#include "tile/HostData/HostBuffer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::formatShape(llvm::ArrayRef<int64_t> shape) {
  return llvm::join(
      llvm::map_range(shape, [](int64_t dim) { return llvm::itostr(dim); }),
      "x");
}

llvm::Expected<HostBuffer> HostBuffer::create(DataType type,
                                              llvm::ArrayRef<int64_t> shape) {
  auto describe = [&] {
    return (getDataTypeName(type) + "[" + formatShape(shape) + "]").str();
  };
  if (!isHostDataType(type))
    return llvm::createStringError("a host buffer cannot hold %s elements",
                                   getDataTypeName(type).str().c_str());
  int64_t numElements = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return llvm::createStringError("buffer %s has a negative dimension",
                                     describe().c_str());
    int64_t product;
    if (llvm::MulOverflow(numElements, dim, product) ||
        static_cast<uint64_t>(product) >
            kMaxSizeInBytes / getDataTypeSize(type))
      return llvm::createStringError(
          "buffer %s is larger than the limit of %llu bytes",
          describe().c_str(), static_cast<unsigned long long>(kMaxSizeInBytes));
    numElements = product;
  }
  return HostBuffer(type, shape, numElements);
}

std::string HostBuffer::getDescription() const {
  return (getDataTypeName(type) + "[" + formatShape(shape) + "]").str();
}

double HostBuffer::getElementAsDouble(int64_t index) const {
  switch (type) {
  case DataType::F16:
    return convertF16ToFloat(getDataAs<uint16_t>()[index]);
  case DataType::BF16:
    return convertBF16ToFloat(getDataAs<uint16_t>()[index]);
  case DataType::F32:
    return getDataAs<float>()[index];
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
    return convertF8ToFloat(type, getDataAs<uint8_t>()[index]);
  case DataType::I1:
    return getDataAs<uint8_t>()[index] ? 1 : 0;
  case DataType::I32:
    return getDataAs<int32_t>()[index];
  case DataType::I64:
    return static_cast<double>(getDataAs<int64_t>()[index]);
  case DataType::Ptr:
    break;
  }
  llvm_unreachable("a host buffer holds no pointers");
}
