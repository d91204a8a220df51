//===- DataType.h - Element types of host buffers and scalars ---*- C++ -*-===//
//
// The element types a kernel argument can have on the host: the scalar types
// of the tile dialect (f16, bf16, f32, i1, i32, i64). Buffers of f16 and bf16
// hold the raw 16-bit patterns; the conversions to and from f32 round to
// nearest, ties to even, as the hardware does.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_DATATYPE_H
#define TILE_RUNNER_DATATYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
class Type;
namespace tile {

/// The element type of a host buffer or of a scalar argument.
enum class DataType : uint8_t { F16, BF16, F32, I1, I32, I64 };

/// The dialect's spelling of `type`: "f16", "bf16", "f32", "i1", "i32", "i64".
llvm::StringRef getDataTypeName(DataType type);

/// Parses a spelling returned by getDataTypeName.
std::optional<DataType> parseDataType(llvm::StringRef name);

/// The size in bytes of one element as stored on the host (1 for i1).
unsigned getDataTypeSize(DataType type);

/// True for f16, bf16 and f32.
bool isFloatDataType(DataType type);

/// The bit width of an integer type (1, 32 or 64); 0 for floats.
unsigned getIntegerWidth(DataType type);

/// The DataType of a builtin scalar type, or nullopt when the tile dialect
/// has no host representation for it.
std::optional<DataType> getDataType(Type type);

//===----------------------------------------------------------------------===//
// 16-bit floats. Widening is exact; narrowing rounds to nearest, ties to
// even, overflows to infinity and keeps NaNs quiet (llvm::APFloat semantics).
//===----------------------------------------------------------------------===//

float convertF16ToFloat(uint16_t bits);
float convertBF16ToFloat(uint16_t bits);
uint16_t convertFloatToF16(float value);
uint16_t convertFloatToBF16(float value);
/// Rounds a double straight to the 16-bit format (one rounding, not two).
uint16_t convertDoubleToF16(double value);
uint16_t convertDoubleToBF16(double value);

} // namespace tile
} // namespace mlir

#endif // TILE_RUNNER_DATATYPE_H
