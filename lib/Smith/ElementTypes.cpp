//===- ElementTypes.cpp - What element types and functions hold -----------===//
//
// The numbers of the program model (Program.h): each element type's
// limits and precision, which functions compute on integers, and which
// values a type represents exactly. The generator bounds its ranges with
// them, the verifier checks constants with them.
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Program.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>

using namespace mlir::tile;
using namespace mlir::tile::smith;

double smith::getMaxValue(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return 3.4028234663852886e38;
  case ElementType::F16:
    return 65504.0;
  case ElementType::BF16:
    return 3.3895313892515355e38;
  case ElementType::I32:
    return 2147483647.0;
  case ElementType::I64:
    // 2^63 - 1 is no double; the one below it is.
    return 9223372036854774784.0;
  }
  llvm_unreachable("unknown element type");
}

double smith::getMinValue(ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::F16:
  case ElementType::BF16:
    return -getMaxValue(type);
  case ElementType::I32:
    return -2147483648.0;
  case ElementType::I64:
    return -9223372036854775808.0;
  }
  llvm_unreachable("unknown element type");
}

double smith::getMinNormal(ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::BF16:
    return std::ldexp(1.0, -126);
  case ElementType::F16:
    return std::ldexp(1.0, -14);
  case ElementType::I32:
  case ElementType::I64:
    return 1;
  }
  llvm_unreachable("unknown element type");
}

int smith::getPrecision(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return 24;
  case ElementType::F16:
    return 11;
  case ElementType::BF16:
    return 8;
  case ElementType::I32:
    return 32;
  case ElementType::I64:
    return 64;
  }
  llvm_unreachable("unknown element type");
}

bool smith::isIntegerFn(UnaryFn fn) {
  switch (fn) {
  case UnaryFn::AbsI:
  case UnaryFn::Ctlz:
  case UnaryFn::Cttz:
  case UnaryFn::Ctpop:
    return true;
  case UnaryFn::Neg:
  case UnaryFn::Abs:
  case UnaryFn::Exp:
  case UnaryFn::MathExp:
  case UnaryFn::Exp2:
  case UnaryFn::Log:
  case UnaryFn::Log2:
  case UnaryFn::Log1p:
  case UnaryFn::Expm1:
  case UnaryFn::Sqrt:
  case UnaryFn::Rsqrt:
  case UnaryFn::Tanh:
  case UnaryFn::Sin:
  case UnaryFn::Cos:
  case UnaryFn::Erf:
  case UnaryFn::Atan:
  case UnaryFn::Floor:
  case UnaryFn::Ceil:
    return false;
  }
  llvm_unreachable("unknown unary function");
}

bool smith::isIntegerFn(BinaryFn fn) {
  switch (fn) {
  case BinaryFn::Add:
  case BinaryFn::Sub:
  case BinaryFn::Mul:
  case BinaryFn::Div:
  case BinaryFn::Maximum:
  case BinaryFn::Minimum:
  case BinaryFn::MaxNum:
  case BinaryFn::MinNum:
  case BinaryFn::Rem:
  case BinaryFn::Copysign:
    return false;
  case BinaryFn::AddI:
  case BinaryFn::SubI:
  case BinaryFn::MulI:
  case BinaryFn::DivSI:
  case BinaryFn::RemSI:
  case BinaryFn::DivUI:
  case BinaryFn::RemUI:
  case BinaryFn::CeilDivSI:
  case BinaryFn::FloorDivSI:
  case BinaryFn::AndI:
  case BinaryFn::OrI:
  case BinaryFn::XorI:
  case BinaryFn::ShLI:
  case BinaryFn::ShRSI:
  case BinaryFn::ShRUI:
  case BinaryFn::MaxSI:
  case BinaryFn::MinSI:
  case BinaryFn::MaxUI:
  case BinaryFn::MinUI:
    return true;
  }
  llvm_unreachable("unknown binary function");
}

bool smith::isRepresentable(double value, ElementType type) {
  if (!std::isfinite(value))
    return false;
  if (isInteger(type))
    return value == std::floor(value) && value <= getMaxValue(type) &&
           value >= getMinValue(type);
  if (value == 0)
    return true;
  if (std::fabs(value) > getMaxValue(type) ||
      std::fabs(value) < getMinNormal(type))
    return false;
  // value = m * 2^e with m in [0.5, 1): representable when m has at most
  // `precision` significant bits.
  int exponent;
  double mantissa = std::frexp(std::fabs(value), &exponent);
  double scaled = std::ldexp(mantissa, getPrecision(type));
  return scaled == std::floor(scaled);
}
