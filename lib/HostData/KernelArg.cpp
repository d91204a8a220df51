//===- KernelArg.cpp - The arguments of a kernel launch -------------------===//

#include "tile/HostData/KernelArg.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;

int64_t Scalar::getSExtValue() const {
  unsigned width = getIntegerWidth(type);
  if (width == 0 || width == 64)
    return static_cast<int64_t>(bits);
  return llvm::SignExtend64(bits, width);
}

float Scalar::getFloatValue() const {
  switch (type) {
  case DataType::F16:
    return convertF16ToFloat(static_cast<uint16_t>(bits));
  case DataType::BF16:
    return convertBF16ToFloat(static_cast<uint16_t>(bits));
  case DataType::F32: {
    uint32_t word = static_cast<uint32_t>(bits);
    float result;
    std::memcpy(&result, &word, sizeof(result));
    return result;
  }
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
    return convertF8ToFloat(type, static_cast<uint8_t>(bits));
  case DataType::I1:
  case DataType::I32:
  case DataType::I64:
  case DataType::Ptr:
    break;
  }
  return static_cast<float>(getSExtValue());
}

std::string Scalar::getDescription() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << getDataTypeName(type) << "=";
  if (isFloatDataType(type))
    os << llvm::format("%.9g", static_cast<double>(getFloatValue()));
  else if (type == DataType::I1)
    os << (bits & 1);
  else
    os << getSExtValue();
  return result;
}

Scalar Scalar::getInteger(DataType type, int64_t value) {
  unsigned width = getIntegerWidth(type);
  uint64_t bits = static_cast<uint64_t>(value);
  if (width < 64)
    bits &= llvm::maskTrailingOnes<uint64_t>(width);
  return Scalar{type, bits};
}

Scalar Scalar::getFloat(float value) {
  uint32_t word;
  std::memcpy(&word, &value, sizeof(word));
  return Scalar{DataType::F32, word};
}

DataType KernelArg::getDataType() const {
  return isBuffer() ? getBuffer().getDataType() : getScalar().type;
}

llvm::Error mlir::tile::checkArgumentType(Type paramType, DataType type,
                                          bool isBuffer) {
  std::string param;
  llvm::raw_string_ostream(param) << paramType;
  StringRef name = getDataTypeName(type);
  if (auto pointer = dyn_cast<PointerType>(paramType)) {
    std::string pointee;
    llvm::raw_string_ostream(pointee) << pointer.getPointeeType();
    if (!isBuffer)
      return llvm::createStringError(
          "the parameter is '%s', which takes a buffer of %s (such as "
          "%s[1024]=zeros), not a scalar",
          param.c_str(), pointee.c_str(), pointee.c_str());
    if (getDataType(pointer.getPointeeType()) != type)
      return llvm::createStringError(
          "the parameter is '%s', which takes a buffer of %s, not of %s",
          param.c_str(), pointee.c_str(), name.str().c_str());
    return llvm::Error::success();
  }
  if (isBuffer)
    return llvm::createStringError(
        "the parameter is a scalar of type '%s' (such as %s=1), not a buffer",
        param.c_str(), param.c_str());
  if (getDataType(paramType) != type)
    return llvm::createStringError(
        "the parameter is a scalar of type '%s', not %s", param.c_str(),
        name.str().c_str());
  return llvm::Error::success();
}
