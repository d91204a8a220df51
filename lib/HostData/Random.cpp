//===- Random.cpp - Reproducible random data for kernel arguments ---------===//

#include "tile/HostData/Random.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;

double RandomStream::nextUniform() {
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

double RandomStream::nextNormal() {
  if (pendingNormal) {
    double result = *pendingNormal;
    pendingNormal.reset();
    return result;
  }
  constexpr double twoPi = 6.283185307179586476925286766559;
  double u1 = nextUniform(), u2 = nextUniform();
  // 1 - u1 is in (0, 1], so the logarithm is finite.
  double radius = std::sqrt(-2.0 * std::log(1.0 - u1));
  pendingNormal = radius * std::sin(twoPi * u2);
  return radius * std::cos(twoPi * u2);
}

llvm::Error mlir::tile::fillRandom(HostBuffer &buffer, uint64_t seed,
                                   bool normal) {
  DataType type = buffer.getDataType();
  if (!isFloatDataType(type))
    return llvm::createStringError(
        llvm::Twine(normal ? "randn" : "uniform") + " makes floats, not " +
        getDataTypeName(type) +
        "; integer buffers take zeros, fill:VALUE or "
        "@FILE.npy");
  RandomStream stream(seed);
  auto next = [&] {
    return normal ? stream.nextNormal() : stream.nextUniform();
  };
  int64_t size = buffer.getNumElements();
  switch (type) {
  case DataType::F32: {
    float *data = buffer.getDataAs<float>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = static_cast<float>(next());
    break;
  }
  case DataType::F16: {
    uint16_t *data = buffer.getDataAs<uint16_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = convertDoubleToF16(next());
    break;
  }
  case DataType::BF16: {
    uint16_t *data = buffer.getDataAs<uint16_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = convertDoubleToBF16(next());
    break;
  }
  case DataType::F8E4M3FN:
  case DataType::F8E5M2: {
    uint8_t *data = buffer.getDataAs<uint8_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = convertDoubleToF8(type, next());
    break;
  }
  case DataType::I1:
  case DataType::I32:
  case DataType::I64:
  case DataType::Ptr:
    llvm_unreachable("checked above");
  }
  return llvm::Error::success();
}
