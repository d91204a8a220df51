//===- KernelArg.h - The arguments of a kernel launch -----------*- C++ -*-===//
//
// A kernel takes pointers and scalars. On the host, a pointer argument is a
// HostBuffer (the memory it points to, from its first element) and a scalar
// argument is a Scalar. Both runners (the CPU interpreter, a GPU runtime)
// take a list of KernelArgs in the kernel's parameter order.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOSTDATA_KERNELARG_H
#define TILE_HOSTDATA_KERNELARG_H

#include "tile/HostData/DataType.h"
#include "tile/HostData/HostBuffer.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <variant>

namespace mlir {
class Type;
namespace tile {

/// A scalar argument: a type and its bits. f16 and bf16 hold their 16-bit
/// pattern, f32 the bits of the float; integers hold the two's complement
/// value truncated to their width (i1 is 0 or 1).
struct Scalar {
  DataType type;
  uint64_t bits;

  /// The integer value, sign-extended from its width (i1 true is -1).
  int64_t getSExtValue() const;
  /// The float value widened to f32 (exact for f16 and bf16).
  float getFloatValue() const;
  /// The value in the syntax of argument specs, for messages: "i32=781".
  std::string getDescription() const;

  static Scalar getInteger(DataType type, int64_t value);
  static Scalar getFloat(float value);
};

/// One argument of a kernel launch: a buffer (for a pointer parameter) or a
/// scalar.
class KernelArg {
public:
  KernelArg(HostBuffer buffer) : value(std::move(buffer)) {}
  KernelArg(Scalar scalar) : value(scalar) {}

  bool isBuffer() const { return std::holds_alternative<HostBuffer>(value); }
  HostBuffer &getBuffer() { return std::get<HostBuffer>(value); }
  const HostBuffer &getBuffer() const { return std::get<HostBuffer>(value); }
  const Scalar &getScalar() const { return std::get<Scalar>(value); }

  /// The element type of the buffer, or the type of the scalar.
  DataType getDataType() const;

private:
  std::variant<HostBuffer, Scalar> value;
};

/// Checks that an argument of element type `type` (a buffer if `isBuffer`,
/// else a scalar) fits a kernel parameter of type `paramType`: a buffer of
/// the pointee type for a `!tile.ptr<T>`, a scalar of the same type
/// otherwise. The error says what the parameter needs.
llvm::Error checkArgumentType(Type paramType, DataType type, bool isBuffer);

} // namespace tile
} // namespace mlir

#endif // TILE_HOSTDATA_KERNELARG_H
