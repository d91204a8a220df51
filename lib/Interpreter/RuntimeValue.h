//===- RuntimeValue.h - Values of the interpreter ---------------*- C++ -*-===//
//
// The interpreter's representation of an SSA value: a scalar or a whole
// tile, stored as a flat array in C order. Values are immutable once made,
// so they share their storage freely (expand_dims, scf iter_args).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_INTERPRETER_RUNTIMEVALUE_H
#define LIB_INTERPRETER_RUNTIMEVALUE_H

#include "tile/HostData/DataType.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir::tile::interpreter {

/// The element types of runtime values (tile/HostData/DataType.h) and their
/// storage:
///   F16, BF16: uint16_t (bits)   F32: float   I1: uint8_t (0 or 1)
///   F8E4M3FN, F8E5M2: uint8_t (bits)
///   I32: int32_t   I64: int64_t (also `index`)   Ptr: Pointer

/// A pointer with provenance: the kernel argument whose buffer it was
/// derived from, and an offset in elements of the pointee type.
struct Pointer {
  int64_t offset;
  int64_t buffer;
};

/// The bytes one element of `type` takes in a runtime value: as on the host,
/// but sizeof(Pointer) for a pointer.
unsigned getStorageSize(DataType type);

/// A scalar (rank 0) or a tile.
class RuntimeValue {
public:
  RuntimeValue() = default;

  /// A new zero-filled value.
  static RuntimeValue allocate(DataType kind, ArrayRef<int64_t> shape);

  DataType getDataType() const { return kind; }
  ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const { return numElements; }
  bool isScalar() const { return shape.empty(); }

  template <typename T> T *getData() const {
    return reinterpret_cast<T *>(storage.get());
  }
  uint8_t *getBytes() const { return storage.get(); }

  /// The same elements under another shape of the same size.
  RuntimeValue reshape(ArrayRef<int64_t> newShape) const;
  /// The same bytes as another kind of the same size.
  RuntimeValue reinterpret(DataType newKind) const;

  /// The value of an integer scalar, sign-extended (i1 true is -1).
  int64_t getInteger() const;
  /// The value of an i1 scalar.
  bool getBool() const { return getData<uint8_t>()[0] != 0; }

private:
  DataType kind = DataType::I32;
  SmallVector<int64_t, 2> shape;
  int64_t numElements = 0;
  std::shared_ptr<uint8_t[]> storage;
};

/// "lane 3" for a rank-1 tile, "lane (1, 3)" for higher ranks, and
/// `scalarName` for a scalar: how messages name element `index` of a value.
std::string describeLane(ArrayRef<int64_t> shape, int64_t index,
                         llvm::StringRef scalarName);

/// Calls `f` with a value of an unsigned integer type (or Pointer) of `size`
/// bytes, for code that moves elements without looking at them.
template <typename F> void dispatchBySize(unsigned size, F &&f) {
  switch (size) {
  case 1:
    return f(uint8_t());
  case 2:
    return f(uint16_t());
  case 4:
    return f(uint32_t());
  case 8:
    return f(uint64_t());
  default:
    return f(Pointer());
  }
}

} // namespace mlir::tile::interpreter

#endif // LIB_INTERPRETER_RUNTIMEVALUE_H
