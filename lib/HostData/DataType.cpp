//===- DataType.cpp - Element types of host buffers and scalars -----------===//

#include "tile/HostData/DataType.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>
#include <cstring>

using namespace mlir;
using namespace mlir::tile;

llvm::StringRef mlir::tile::getDataTypeName(DataType type) {
  switch (type) {
  case DataType::F16:
    return "f16";
  case DataType::BF16:
    return "bf16";
  case DataType::F32:
    return "f32";
  case DataType::F8E4M3FN:
    return "f8E4M3FN";
  case DataType::F8E5M2:
    return "f8E5M2";
  case DataType::I1:
    return "i1";
  case DataType::I32:
    return "i32";
  case DataType::I64:
    return "i64";
  case DataType::Ptr:
    return "ptr";
  }
  llvm_unreachable("unknown data type");
}

std::optional<DataType> mlir::tile::parseDataType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DataType>>(name)
      .Case("f16", DataType::F16)
      .Case("bf16", DataType::BF16)
      .Case("f32", DataType::F32)
      .Case("f8E4M3FN", DataType::F8E4M3FN)
      .Case("f8E5M2", DataType::F8E5M2)
      .Case("i1", DataType::I1)
      .Case("i32", DataType::I32)
      .Case("i64", DataType::I64)
      .Default(std::nullopt);
}

unsigned mlir::tile::getDataTypeSize(DataType type) {
  switch (type) {
  case DataType::F16:
  case DataType::BF16:
    return 2;
  case DataType::F32:
  case DataType::I32:
    return 4;
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
  case DataType::I1:
    return 1;
  case DataType::I64:
  case DataType::Ptr:
    return 8;
  }
  llvm_unreachable("unknown data type");
}

bool mlir::tile::isHostDataType(DataType type) {
  switch (type) {
  case DataType::F16:
  case DataType::BF16:
  case DataType::F32:
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
  case DataType::I1:
  case DataType::I32:
  case DataType::I64:
    return true;
  case DataType::Ptr:
    return false;
  }
  llvm_unreachable("unknown data type");
}

bool mlir::tile::isFloatDataType(DataType type) {
  switch (type) {
  case DataType::F16:
  case DataType::BF16:
  case DataType::F32:
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
    return true;
  case DataType::I1:
  case DataType::I32:
  case DataType::I64:
  case DataType::Ptr:
    return false;
  }
  llvm_unreachable("unknown data type");
}

bool mlir::tile::isF8DataType(DataType type) {
  switch (type) {
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
    return true;
  case DataType::F16:
  case DataType::BF16:
  case DataType::F32:
  case DataType::I1:
  case DataType::I32:
  case DataType::I64:
  case DataType::Ptr:
    return false;
  }
  llvm_unreachable("unknown data type");
}

const llvm::fltSemantics &mlir::tile::getFloatSemantics(DataType type) {
  switch (type) {
  case DataType::F16:
    return llvm::APFloat::IEEEhalf();
  case DataType::BF16:
    return llvm::APFloat::BFloat();
  case DataType::F32:
    return llvm::APFloat::IEEEsingle();
  case DataType::F8E4M3FN:
    return llvm::APFloat::Float8E4M3FN();
  case DataType::F8E5M2:
    return llvm::APFloat::Float8E5M2();
  case DataType::I1:
  case DataType::I32:
  case DataType::I64:
  case DataType::Ptr:
    break;
  }
  llvm_unreachable("not a float type");
}

unsigned mlir::tile::getIntegerWidth(DataType type) {
  switch (type) {
  case DataType::I1:
    return 1;
  case DataType::I32:
    return 32;
  case DataType::I64:
    return 64;
  case DataType::F16:
  case DataType::BF16:
  case DataType::F32:
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
  case DataType::Ptr:
    return 0;
  }
  llvm_unreachable("unknown data type");
}

std::optional<DataType> mlir::tile::getDataType(Type type) {
  if (type.isF16())
    return DataType::F16;
  if (type.isBF16())
    return DataType::BF16;
  if (type.isF32())
    return DataType::F32;
  if (isa<Float8E4M3FNType>(type))
    return DataType::F8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return DataType::F8E5M2;
  if (type.isInteger(1))
    return DataType::I1;
  if (type.isInteger(32))
    return DataType::I32;
  if (type.isInteger(64) || type.isIndex())
    return DataType::I64;
  if (isa<PointerType>(type))
    return DataType::Ptr;
  return std::nullopt;
}

std::optional<DataType> mlir::tile::getElementDataType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  return getDataType(type);
}

//===----------------------------------------------------------------------===//
// 16-bit floats.
//===----------------------------------------------------------------------===//

/// Widens with APFloat, which is exact (every f16 is an f32).
static float widenWithAPFloat(const llvm::fltSemantics &semantics,
                              uint16_t bits) {
  llvm::APFloat value(semantics, llvm::APInt(16, bits));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToFloat();
}

float mlir::tile::convertF16ToFloat(uint16_t bits) {
  // Every f16 is looked up in a table built once with APFloat: the
  // interpreter widens each operand of each f16 operation.
  static const std::array<float, 1 << 16> table = [] {
    std::array<float, 1 << 16> result;
    for (unsigned i = 0; i < result.size(); ++i)
      result[i] = widenWithAPFloat(llvm::APFloat::IEEEhalf(), i);
    return result;
  }();
  return table[bits];
}

float mlir::tile::convertBF16ToFloat(uint16_t bits) {
  // bf16 is the upper half of an f32, so widening appends 16 zero bits; this
  // is exactly what APFloat computes, NaN payloads included.
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float result;
  std::memcpy(&result, &wide, sizeof(result));
  return result;
}

template <typename T>
static uint16_t narrow(T value, const llvm::fltSemantics &semantics) {
  llvm::APFloat result(value);
  bool losesInfo;
  result.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(result.bitcastToAPInt().getZExtValue());
}

uint16_t mlir::tile::convertFloatToF16(float value) {
  return narrow(value, llvm::APFloat::IEEEhalf());
}

uint16_t mlir::tile::convertFloatToBF16(float value) {
  return narrow(value, llvm::APFloat::BFloat());
}

uint16_t mlir::tile::convertDoubleToF16(double value) {
  return narrow(value, llvm::APFloat::IEEEhalf());
}

uint16_t mlir::tile::convertDoubleToBF16(double value) {
  return narrow(value, llvm::APFloat::BFloat());
}

//===----------------------------------------------------------------------===//
// 8-bit floats.
//===----------------------------------------------------------------------===//

float mlir::tile::convertF8ToFloat(DataType type, uint8_t bits) {
  // Both formats' 256 values, widened once with APFloat (exactly).
  auto build = [](const llvm::fltSemantics &semantics) {
    std::array<float, 256> result;
    for (unsigned i = 0; i < result.size(); ++i) {
      llvm::APFloat value(semantics, llvm::APInt(8, i));
      bool losesInfo;
      value.convert(llvm::APFloat::IEEEsingle(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      result[i] = value.convertToFloat();
    }
    return result;
  };
  static const std::array<float, 256> e4m3 =
      build(llvm::APFloat::Float8E4M3FN());
  static const std::array<float, 256> e5m2 = build(llvm::APFloat::Float8E5M2());
  return type == DataType::F8E5M2 ? e5m2[bits] : e4m3[bits];
}

/// Rounds to nearest, ties to even, then saturates what overflowed (APFloat
/// gives f8E4M3FN's NaN or f8E5M2's infinity) to the largest finite value.
template <typename T> static uint8_t narrowToF8(DataType type, T value) {
  const llvm::fltSemantics &semantics = getFloatSemantics(type);
  llvm::APFloat source(value);
  // NaN becomes 0x7F in both formats (S.1111.111 in f8E4M3FN, a quiet NaN
  // in f8E5M2), as utils/float8.py writes it.
  if (source.isNaN())
    return 0x7F;
  llvm::APFloat result = source;
  bool losesInfo;
  result.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  if (result.isNaN() || result.isInfinity())
    result = llvm::APFloat::getLargest(semantics, source.isNegative());
  return static_cast<uint8_t>(result.bitcastToAPInt().getZExtValue());
}

uint8_t mlir::tile::convertFloatToF8(DataType type, float value) {
  return narrowToF8(type, value);
}

uint8_t mlir::tile::convertDoubleToF8(DataType type, double value) {
  return narrowToF8(type, value);
}
