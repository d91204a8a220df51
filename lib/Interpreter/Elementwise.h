//===- Elementwise.h - Helpers for elementwise ops --------------*- C++ -*-===//
//
// Elementwise ops compute on whole tiles (a scalar is a tile of one
// element). Floats are computed in f32: an f16, bf16 or 8-bit operand is
// widened exactly, and the f32 result is rounded to nearest, ties to even,
// to the result's type, as IEEE f16/bf16 arithmetic and the GPU lowering do
// (to 8 bits, saturating as cvt.rn.satfinite does).
// Integers are computed on 64-bit sign-extended values and truncated to the
// result's width, so they wrap (two's complement) at that width.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_INTERPRETER_ELEMENTWISE_H
#define LIB_INTERPRETER_ELEMENTWISE_H

#include "Executor.h"
#include "RuntimeValue.h"

#include "tile/HostData/DataType.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <vector>

namespace mlir::tile::interpreter {

/// The elements of a float value as f32: the storage itself for f32, a
/// widened copy for f16 and bf16.
class FloatView {
public:
  explicit FloatView(const RuntimeValue &value) {
    int64_t size = value.getNumElements();
    switch (value.getDataType()) {
    case DataType::F32:
      elements = value.getData<float>();
      return;
    case DataType::F16:
    case DataType::BF16: {
      copy.resize(size);
      const uint16_t *bits = value.getData<uint16_t>();
      if (value.getDataType() == DataType::F16)
        for (int64_t i = 0; i < size; ++i)
          copy[i] = convertF16ToFloat(bits[i]);
      else
        for (int64_t i = 0; i < size; ++i)
          copy[i] = convertBF16ToFloat(bits[i]);
      elements = copy.data();
      return;
    }
    case DataType::F8E4M3FN:
    case DataType::F8E5M2: {
      copy.resize(size);
      const uint8_t *bits = value.getData<uint8_t>();
      for (int64_t i = 0; i < size; ++i)
        copy[i] = convertF8ToFloat(value.getDataType(), bits[i]);
      elements = copy.data();
      return;
    }
    case DataType::I1:
    case DataType::I32:
    case DataType::I64:
    case DataType::Ptr:
      break;
    }
    llvm_unreachable("not a float value");
  }
  float operator[](int64_t i) const { return elements[i]; }

private:
  const float *elements = nullptr;
  std::vector<float> copy;
};

/// The elements of an integer value, sign-extended to 64 bits.
class IntView {
public:
  explicit IntView(const RuntimeValue &value)
      : width(getIntegerWidth(value.getDataType())) {
    int64_t size = value.getNumElements();
    switch (value.getDataType()) {
    case DataType::I64:
      elements = value.getData<int64_t>();
      return;
    case DataType::I32: {
      copy.resize(size);
      const int32_t *data = value.getData<int32_t>();
      for (int64_t i = 0; i < size; ++i)
        copy[i] = data[i];
      elements = copy.data();
      return;
    }
    case DataType::I1: {
      copy.resize(size);
      const uint8_t *data = value.getData<uint8_t>();
      for (int64_t i = 0; i < size; ++i)
        copy[i] = data[i] ? -1 : 0;
      elements = copy.data();
      return;
    }
    case DataType::F16:
    case DataType::BF16:
    case DataType::F32:
    case DataType::F8E4M3FN:
    case DataType::F8E5M2:
    case DataType::Ptr:
      break;
    }
    llvm_unreachable("not an integer value");
  }
  /// The signed value of element `i`.
  int64_t operator[](int64_t i) const { return elements[i]; }
  /// The unsigned value of element `i`.
  uint64_t getUnsigned(int64_t i) const {
    return toUnsigned(elements[i], width);
  }
  unsigned getWidth() const { return width; }

  static uint64_t toUnsigned(int64_t value, unsigned width) {
    uint64_t bits = static_cast<uint64_t>(value);
    return width == 64 ? bits : bits & llvm::maskTrailingOnes<uint64_t>(width);
  }

private:
  unsigned width;
  const int64_t *elements = nullptr;
  std::vector<int64_t> copy;
};

/// Makes a float value of `kind` and `shape` whose element i is `f(i)`, an
/// f32 rounded to `kind`.
template <typename F>
RuntimeValue makeFloats(DataType kind, ArrayRef<int64_t> shape, F f) {
  RuntimeValue result = RuntimeValue::allocate(kind, shape);
  int64_t size = result.getNumElements();
  switch (kind) {
  case DataType::F32: {
    float *data = result.getData<float>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = f(i);
    break;
  }
  case DataType::F16: {
    uint16_t *data = result.getData<uint16_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = convertFloatToF16(f(i));
    break;
  }
  case DataType::BF16: {
    uint16_t *data = result.getData<uint16_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = convertFloatToBF16(f(i));
    break;
  }
  case DataType::F8E4M3FN:
  case DataType::F8E5M2: {
    uint8_t *data = result.getData<uint8_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = convertFloatToF8(kind, f(i));
    break;
  }
  case DataType::I1:
  case DataType::I32:
  case DataType::I64:
  case DataType::Ptr:
    llvm_unreachable("not a float kind");
  }
  return result;
}

/// Makes an integer value of `kind` and `shape` whose element i is `f(i)`
/// truncated to the kind's width.
template <typename F>
RuntimeValue makeIntegers(DataType kind, ArrayRef<int64_t> shape, F f) {
  RuntimeValue result = RuntimeValue::allocate(kind, shape);
  int64_t size = result.getNumElements();
  switch (kind) {
  case DataType::I1: {
    uint8_t *data = result.getData<uint8_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = static_cast<uint8_t>(f(i) & 1);
    break;
  }
  case DataType::I32: {
    int32_t *data = result.getData<int32_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = static_cast<int32_t>(static_cast<uint32_t>(f(i)));
    break;
  }
  case DataType::I64: {
    int64_t *data = result.getData<int64_t>();
    for (int64_t i = 0; i < size; ++i)
      data[i] = static_cast<int64_t>(f(i));
    break;
  }
  case DataType::F16:
  case DataType::BF16:
  case DataType::F32:
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
  case DataType::Ptr:
    llvm_unreachable("not an integer kind");
  }
  return result;
}

/// Makes an i1 value whose element i is `f(i)`.
template <typename F> RuntimeValue makeBools(ArrayRef<int64_t> shape, F f) {
  RuntimeValue result = RuntimeValue::allocate(DataType::I1, shape);
  uint8_t *data = result.getData<uint8_t>();
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i)
    data[i] = f(i) ? 1 : 0;
  return result;
}

/// arith.maximumf: NaN if either is NaN; +0 is greater than -0.
inline float maximumF(float a, float b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

/// arith.minimumf: NaN if either is NaN; -0 is less than +0.
inline float minimumF(float a, float b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

//===----------------------------------------------------------------------===//
// Handlers of float ops, shared by the arith and math handlers
//===----------------------------------------------------------------------===//

/// A float op of one operand computed by `f(float) -> float`.
template <typename OpTy, typename F>
void addFloatUnary(HandlerTable &table, F f) {
  table.add<OpTy>([f](Executor &executor, Operation *op) -> LogicalResult {
    const RuntimeValue &source = executor.lookup(op->getOperand(0));
    FloatView a(source);
    executor.bind(op->getResult(0),
                  makeFloats(source.getDataType(), source.getShape(),
                             [&](int64_t i) { return f(a[i]); }));
    return success();
  });
}

/// A float op of two operands computed by `f(float, float) -> float`.
template <typename OpTy, typename F>
void addFloatBinary(HandlerTable &table, F f) {
  table.add<OpTy>([f](Executor &executor, Operation *op) -> LogicalResult {
    const RuntimeValue &lhs = executor.lookup(op->getOperand(0));
    FloatView a(lhs), b(executor.lookup(op->getOperand(1)));
    executor.bind(op->getResult(0),
                  makeFloats(lhs.getDataType(), lhs.getShape(),
                             [&](int64_t i) { return f(a[i], b[i]); }));
    return success();
  });
}

} // namespace mlir::tile::interpreter

#endif // LIB_INTERPRETER_ELEMENTWISE_H
