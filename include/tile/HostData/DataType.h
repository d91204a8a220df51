//===- DataType.h - Element types of host buffers and scalars ---*- C++ -*-===//
//
// The one enum of the element types tile's libraries handle: the scalar types
// of the tile dialect (f16, bf16, f32, i1, i32, i64), which host buffers and
// scalar arguments have, the 8-bit floats f8E4M3FN and f8E5M2, which buffers
// and tiles have (not scalar arguments), and pointers, which only kernel
// values have (the interpreter's tiles of pointers, a kernel's pointer
// parameters). Buffers of f16, bf16 and 8-bit floats hold the raw bit
// patterns; the conversions to and from f32 round to nearest, ties to even,
// as the hardware does (to 8 bits, saturating to the largest finite value as
// PTX's cvt.rn.satfinite does).
//
// A new element type is a new enumerator: every switch over DataType has no
// default, so the build (with -Werror=switch) stops wherever it is not
// handled.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOSTDATA_DATATYPE_H
#define TILE_HOSTDATA_DATATYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace llvm {
struct fltSemantics;
} // namespace llvm

namespace mlir {
class Type;
namespace tile {

/// The element type of a host buffer, a scalar argument or a kernel value.
/// (Numbered as the C API's tile_dtype, which mirrors it.)
enum class DataType : uint8_t {
  F16,
  BF16,
  F32,
  I1,
  I32,
  I64,
  F8E4M3FN,
  F8E5M2,
  Ptr
};

/// The dialect's spelling of `type`: "f16", "bf16", "f32", "f8E4M3FN",
/// "f8E5M2", "i1", "i32", "i64"; "ptr" for a pointer.
llvm::StringRef getDataTypeName(DataType type);

/// Parses a spelling returned by getDataTypeName, but for "ptr": the element
/// types of host data.
std::optional<DataType> parseDataType(llvm::StringRef name);

/// The size in bytes of one element as stored on the host (1 for i1); 8 for
/// a pointer (a device address, as a kernel parameter passes it).
unsigned getDataTypeSize(DataType type);

/// True for the types host buffers and scalar arguments can have: all but
/// Ptr.
bool isHostDataType(DataType type);

/// True for f16, bf16, f32 and the 8-bit floats.
bool isFloatDataType(DataType type);

/// True for f8E4M3FN and f8E5M2.
bool isF8DataType(DataType type);

/// APFloat's semantics of a float type.
const llvm::fltSemantics &getFloatSemantics(DataType type);

/// The bit width of an integer type (1, 32 or 64); 0 for floats.
unsigned getIntegerWidth(DataType type);

/// The DataType of a scalar type of the tile dialect (`index` is I64, a
/// `!tile.ptr` is Ptr, f8E4M3FN and f8E5M2 the 8-bit floats), or nullopt
/// for other types.
std::optional<DataType> getDataType(Type type);

/// The same for the element type of a tensor, or for a scalar type.
std::optional<DataType> getElementDataType(Type type);

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

//===----------------------------------------------------------------------===//
// 8-bit floats (`type` F8E4M3FN or F8E5M2). Widening is exact; narrowing
// rounds to nearest, ties to even, and saturates: a finite value beyond the
// largest finite one (448 in f8E4M3FN, 57344 in f8E5M2) and an infinity
// become that value with their sign, as PTX's cvt.rn.satfinite; NaN stays
// NaN.
//===----------------------------------------------------------------------===//

float convertF8ToFloat(DataType type, uint8_t bits);
uint8_t convertFloatToF8(DataType type, float value);
/// Rounds a double straight to the 8-bit format (one rounding, not two).
uint8_t convertDoubleToF8(DataType type, double value);

} // namespace tile
} // namespace mlir

#endif // TILE_HOSTDATA_DATATYPE_H
