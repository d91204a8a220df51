//===- MathOps.cpp - Interpreting the math dialect ------------------------===//
//
// Float functions are computed in f32 with the C library's float functions
// (f16 and bf16 operands widened, results rounded). The GPU computes some of
// them with approximations; results may differ by a few ulps (see
// docs/interpreter.md).
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "Executor.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interpreter;

template <typename OpTy, typename F>
static void addFloatPredicate(HandlerTable &table, F f) {
  table.add<OpTy>([f](Executor &executor, Operation *op) -> LogicalResult {
    const RuntimeValue &source = executor.lookup(op->getOperand(0));
    FloatView a(source);
    executor.bind(
        op->getResult(0),
        makeBools(source.getShape(), [&](int64_t i) { return f(a[i]); }));
    return success();
  });
}

/// An integer function of the operand's bits (zero-extended) and width.
template <typename OpTy, typename F>
static void addIntUnary(HandlerTable &table, F f) {
  table.add<OpTy>([f](Executor &executor, Operation *op) -> LogicalResult {
    const RuntimeValue &source = executor.lookup(op->getOperand(0));
    IntView a(source);
    unsigned width = a.getWidth();
    executor.bind(
        op->getResult(0),
        makeIntegers(source.getDataType(), source.getShape(), [&](int64_t i) {
          return f(a[i], a.getUnsigned(i), width);
        }));
    return success();
  });
}

void interpreter::registerMathHandlers(HandlerTable &table) {
  addFloatUnary<math::AbsFOp>(table, [](float x) { return std::fabs(x); });
  addFloatUnary<math::CeilOp>(table, [](float x) { return std::ceil(x); });
  addFloatUnary<math::FloorOp>(table, [](float x) { return std::floor(x); });
  addFloatUnary<math::TruncOp>(table, [](float x) { return std::trunc(x); });
  addFloatUnary<math::RoundOp>(table, [](float x) { return std::round(x); });
  // nearbyint rounds in the default mode, to nearest, ties to even.
  addFloatUnary<math::RoundEvenOp>(table,
                                   [](float x) { return std::nearbyint(x); });
  addFloatUnary<math::SqrtOp>(table, [](float x) { return std::sqrt(x); });
  addFloatUnary<math::RsqrtOp>(table,
                               [](float x) { return 1.0f / std::sqrt(x); });
  addFloatUnary<math::CbrtOp>(table, [](float x) { return std::cbrt(x); });
  addFloatUnary<math::ExpOp>(table, [](float x) { return std::exp(x); });
  addFloatUnary<math::Exp2Op>(table, [](float x) { return std::exp2(x); });
  addFloatUnary<math::ExpM1Op>(table, [](float x) { return std::expm1(x); });
  addFloatUnary<math::LogOp>(table, [](float x) { return std::log(x); });
  addFloatUnary<math::Log2Op>(table, [](float x) { return std::log2(x); });
  addFloatUnary<math::Log10Op>(table, [](float x) { return std::log10(x); });
  addFloatUnary<math::Log1pOp>(table, [](float x) { return std::log1p(x); });
  addFloatUnary<math::SinOp>(table, [](float x) { return std::sin(x); });
  addFloatUnary<math::CosOp>(table, [](float x) { return std::cos(x); });
  addFloatUnary<math::TanOp>(table, [](float x) { return std::tan(x); });
  addFloatUnary<math::AsinOp>(table, [](float x) { return std::asin(x); });
  addFloatUnary<math::AcosOp>(table, [](float x) { return std::acos(x); });
  addFloatUnary<math::AtanOp>(table, [](float x) { return std::atan(x); });
  addFloatUnary<math::SinhOp>(table, [](float x) { return std::sinh(x); });
  addFloatUnary<math::CoshOp>(table, [](float x) { return std::cosh(x); });
  addFloatUnary<math::TanhOp>(table, [](float x) { return std::tanh(x); });
  addFloatUnary<math::AsinhOp>(table, [](float x) { return std::asinh(x); });
  addFloatUnary<math::AcoshOp>(table, [](float x) { return std::acosh(x); });
  addFloatUnary<math::AtanhOp>(table, [](float x) { return std::atanh(x); });
  addFloatUnary<math::ErfOp>(table, [](float x) { return std::erf(x); });
  addFloatUnary<math::ErfcOp>(table, [](float x) { return std::erfc(x); });

  addFloatBinary<math::PowFOp>(table,
                               [](float x, float y) { return std::pow(x, y); });
  addFloatBinary<math::Atan2Op>(
      table, [](float y, float x) { return std::atan2(y, x); });
  // A NaN's sign is unspecified (IEEE 754): x86 makes invalid operations'
  // NaN negative, the GPU's are the canonical positive NaN. A NaN sign
  // operand counts as positive, as the GPU's do.
  addFloatBinary<math::CopySignOp>(table, [](float x, float y) {
    return std::copysign(x, std::isnan(y) ? 1.0f : y);
  });

  table.add<math::FmaOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        const RuntimeValue &source = executor.lookup(op->getOperand(0));
        FloatView a(source), b(executor.lookup(op->getOperand(1))),
            c(executor.lookup(op->getOperand(2)));
        executor.bind(
            op->getResult(0),
            makeFloats(source.getDataType(), source.getShape(),
                       [&](int64_t i) { return std::fma(a[i], b[i], c[i]); }));
        return success();
      });

  addFloatPredicate<math::IsNaNOp>(table,
                                   [](float x) { return std::isnan(x); });
  addFloatPredicate<math::IsInfOp>(table,
                                   [](float x) { return std::isinf(x); });
  addFloatPredicate<math::IsFiniteOp>(table,
                                      [](float x) { return std::isfinite(x); });
  addFloatPredicate<math::IsNormalOp>(table,
                                      [](float x) { return std::isnormal(x); });

  // Integers: absi wraps (the minimum stays the minimum).
  addIntUnary<math::AbsIOp>(table, [](int64_t a, uint64_t, unsigned) {
    return a < 0 ? static_cast<int64_t>(-static_cast<uint64_t>(a)) : a;
  });
  addIntUnary<math::CountLeadingZerosOp>(
      table, [](int64_t, uint64_t bits, unsigned width) {
        return static_cast<int64_t>(llvm::countl_zero(bits) - (64 - width));
      });
  addIntUnary<math::CountTrailingZerosOp>(
      table, [](int64_t, uint64_t bits, unsigned width) {
        return bits == 0 ? static_cast<int64_t>(width)
                         : static_cast<int64_t>(llvm::countr_zero(bits));
      });
  addIntUnary<math::CtPopOp>(table, [](int64_t, uint64_t bits, unsigned) {
    return static_cast<int64_t>(llvm::popcount(bits));
  });
}
