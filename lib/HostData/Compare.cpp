//===- Compare.cpp - Comparing a result with a reference ------------------===//

#include "tile/HostData/Compare.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::tile;

Tolerance mlir::tile::getDefaultTolerance(DataType type) {
  switch (type) {
  case DataType::F32:
    return {1e-5, 1e-7};
  case DataType::F16:
    return {2e-3, 1e-6};
  case DataType::BF16:
    return {1.6e-2, 1e-6};
  // A unit in the last place of 3 and 2 mantissa bits, relative to the
  // bottom of a binade, and the smallest subnormal (2^-9, 2^-16): results
  // rounded the other way from a sum computed in another order (wgmma's, or
  // the interpreter's), near zero too.
  case DataType::F8E4M3FN:
    return {1.25e-1, 0x1p-9};
  case DataType::F8E5M2:
    return {2.5e-1, 0x1p-16};
  case DataType::I1:
  case DataType::I32:
  case DataType::I64:
  case DataType::Ptr:
    return {0, 0};
  }
  llvm_unreachable("unknown data type");
}

std::string mlir::tile::formatIndex(llvm::ArrayRef<int64_t> shape,
                                    int64_t index) {
  llvm::SmallVector<int64_t, 4> position(shape.size());
  for (size_t dim = shape.size(); dim-- > 0;) {
    int64_t size = std::max<int64_t>(shape[dim], 1);
    position[dim] = index % size;
    index /= size;
  }
  return "[" +
         llvm::join(llvm::map_range(position,
                                    [](int64_t i) { return llvm::itostr(i); }),
                    ", ") +
         "]";
}

llvm::Expected<BufferComparison>
mlir::tile::compareBuffers(const HostBuffer &actual, const HostBuffer &expected,
                           Tolerance tolerance, const llvm::BitVector *only) {
  if (actual.getDataType() != expected.getDataType() ||
      actual.getShape() != expected.getShape())
    return llvm::createStringError("cannot compare " + actual.getDescription() +
                                   " with " + expected.getDescription());
  if (only && static_cast<int64_t>(only->size()) != actual.getNumElements())
    return llvm::createStringError("a mask of " + llvm::Twine(only->size()) +
                                   " elements cannot select from " +
                                   actual.getDescription());
  BufferComparison result;
  result.elements = only ? only->count() : actual.getNumElements();
  if (only) {
    size_t size = getDataTypeSize(actual.getDataType());
    result.identical = llvm::all_of(only->set_bits(), [&](unsigned i) {
      return std::memcmp(actual.getData() + i * size,
                         expected.getData() + i * size, size) == 0;
    });
  } else {
    result.identical = actual.getSizeInBytes() == expected.getSizeInBytes() &&
                       std::memcmp(actual.getData(), expected.getData(),
                                   actual.getSizeInBytes()) == 0;
  }
  if (result.identical)
    return result;

  const double inf = std::numeric_limits<double>::infinity();
  bool isI64 = actual.getDataType() == DataType::I64;
  double worstRatio = 0;
  for (int64_t i = 0, n = actual.getNumElements(); i < n; ++i) {
    if (only && !only->test(i))
      continue;
    double a = actual.getElementAsDouble(i);
    double e = expected.getElementAsDouble(i);
    double error, allowed;
    if (isI64) {
      int64_t ai = actual.getDataAs<int64_t>()[i];
      int64_t ei = expected.getDataAs<int64_t>()[i];
      error = ai == ei ? 0 : std::fabs(a - e) > 0 ? std::fabs(a - e) : 1;
      allowed = 0;
    } else if (std::isnan(a) && std::isnan(e)) {
      continue;
    } else if (std::isnan(a) || std::isnan(e) || std::isinf(a) ||
               std::isinf(e)) {
      error = a == e ? 0 : inf;
      allowed = 0;
    } else {
      error = std::fabs(a - e);
      allowed = tolerance.atol + tolerance.rtol * std::fabs(e);
    }
    if (error == 0)
      continue;
    result.maxAbsError = std::max(result.maxAbsError, error);
    if (e != 0 && !std::isnan(e))
      result.maxRelError = std::max(result.maxRelError, error / std::fabs(e));
    if (error <= allowed)
      continue;
    ++result.mismatches;
    double ratio = allowed > 0 ? error / allowed : inf;
    if (result.worstIndex < 0 || ratio > worstRatio) {
      worstRatio = ratio;
      result.worstIndex = i;
      result.worstActual = a;
      result.worstExpected = e;
    }
  }
  return result;
}
