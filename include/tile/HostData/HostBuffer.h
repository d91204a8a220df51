//===- HostBuffer.h - Typed, shaped arrays in host memory -------*- C++ -*-===//
//
// A buffer argument of a kernel as the host holds it: an element type, a
// shape and the elements in C (row-major) order. The CPU interpreter runs
// kernels on such buffers directly; a GPU runtime copies them to the device
// and back.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOSTDATA_HOSTBUFFER_H
#define TILE_HOSTDATA_HOSTBUFFER_H

#include "tile/HostData/DataType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tile {

/// A typed, shaped array in host memory, in C order.
class HostBuffer {
public:
  /// The largest buffer `create` accepts, in bytes (4 GiB).
  static constexpr uint64_t kMaxSizeInBytes = uint64_t(1) << 32;

  /// Returns a zero-filled buffer of `type` and `shape`, or an error when a
  /// dimension is negative or the buffer would exceed kMaxSizeInBytes.
  static llvm::Expected<HostBuffer> create(DataType type,
                                           llvm::ArrayRef<int64_t> shape);

  DataType getDataType() const { return type; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const { return numElements; }
  size_t getSizeInBytes() const { return bytes.size(); }

  uint8_t *getData() { return bytes.data(); }
  const uint8_t *getData() const { return bytes.data(); }

  /// The elements as `T`, which must have the size of the element type
  /// (uint16_t for f16 and bf16, uint8_t for i1).
  template <typename T> T *getDataAs() {
    return reinterpret_cast<T *>(bytes.data());
  }
  template <typename T> const T *getDataAs() const {
    return reinterpret_cast<const T *>(bytes.data());
  }

  /// The type and shape in the syntax of argument specs: "f32[1823x781]"
  /// ("f32[]" for a rank-0 buffer).
  std::string getDescription() const;

  /// Element `index` as a double: exact for every type but i64 beyond 2^53.
  double getElementAsDouble(int64_t index) const;

private:
  HostBuffer(DataType type, llvm::ArrayRef<int64_t> shape, int64_t numElements)
      : type(type), shape(shape), numElements(numElements),
        bytes(numElements * getDataTypeSize(type)) {}

  DataType type;
  llvm::SmallVector<int64_t, 4> shape;
  int64_t numElements;
  std::vector<uint8_t> bytes;
};

/// Formats a shape as "1823x781" (empty for rank 0).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace mlir::tile

#endif // TILE_HOSTDATA_HOSTBUFFER_H
