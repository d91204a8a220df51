//===- ArithOps.cpp - Interpreting the arith dialect ----------------------===//
//
// Every arith op with one result on the dialect's element types. Floats
// compute in f32 (f16 and bf16 round each result); integers wrap at their
// width. Where arith leaves a result undefined (poison), the interpreter
// reports an error (division by zero, signed division overflow, a shift by
// the bit width or more) rather than pick a value; float-to-integer
// conversions saturate, NaN giving 0, as the GPU's cvt instructions do.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "Executor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interpreter;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// Writes the low bits of `bits` as element `index` of `value`.
static void storeBits(RuntimeValue &value, int64_t index, uint64_t bits) {
  uint8_t *element =
      value.getBytes() + index * getStorageSize(value.getDataType());
  if (value.getDataType() == DataType::I1)
    bits &= 1;
  std::memcpy(element, &bits, getStorageSize(value.getDataType()));
}

static uint64_t getBits(const APInt &value) {
  return value.getBitWidth() > 64 ? value.trunc(64).getZExtValue()
                                  : value.getZExtValue();
}

static FailureOr<RuntimeValue> makeConstant(Attribute attr) {
  auto typed = dyn_cast<TypedAttr>(attr);
  if (!typed)
    return failure();
  std::optional<DataType> kind = getElementDataType(typed.getType());
  if (!kind || *kind == DataType::Ptr)
    return failure();
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    RuntimeValue value = RuntimeValue::allocate(*kind, {});
    storeBits(value, 0, getBits(integer.getValue()));
    return value;
  }
  if (auto real = dyn_cast<FloatAttr>(attr)) {
    RuntimeValue value = RuntimeValue::allocate(*kind, {});
    storeBits(value, 0, getBits(real.getValue().bitcastToAPInt()));
    return value;
  }
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(attr);
  if (!dense)
    return failure();
  RuntimeValue value =
      RuntimeValue::allocate(*kind, dense.getType().getShape());
  int64_t size = value.getNumElements();
  bool isFloat = isa<FloatType>(dense.getElementType());
  if (dense.isSplat()) {
    uint64_t bits =
        isFloat ? getBits(dense.getSplatValue<APFloat>().bitcastToAPInt())
                : getBits(dense.getSplatValue<APInt>());
    for (int64_t i = 0; i < size; ++i)
      storeBits(value, i, bits);
    return value;
  }
  int64_t index = 0;
  if (isFloat) {
    for (const APFloat &element : dense.getValues<APFloat>())
      storeBits(value, index++, getBits(element.bitcastToAPInt()));
  } else {
    for (const APInt &element : dense.getValues<APInt>())
      storeBits(value, index++, getBits(element));
  }
  return value;
}

//===----------------------------------------------------------------------===//
// Helpers to register elementwise handlers
//===----------------------------------------------------------------------===//

/// An integer op of two operands computed by `f(a, b, width) -> bits` on
/// sign-extended values; the result is truncated to the width.
template <typename OpTy, typename F>
static void addIntBinary(HandlerTable &table, F f) {
  table.add<OpTy>([f](Executor &executor, Operation *op) -> LogicalResult {
    const RuntimeValue &lhs = executor.lookup(op->getOperand(0));
    IntView a(lhs), b(executor.lookup(op->getOperand(1)));
    unsigned width = a.getWidth();
    executor.bind(
        op->getResult(0),
        makeIntegers(lhs.getDataType(), lhs.getShape(),
                     [&](int64_t i) { return f(a[i], b[i], width); }));
    return success();
  });
}

/// " at lane 3" (or " at lane (1, 3)") for a tile, nothing for a scalar.
static std::string atLane(ArrayRef<int64_t> shape, int64_t index) {
  return shape.empty() ? std::string()
                       : " at " + describeLane(shape, index, "");
}

static int64_t getSignedMin(unsigned width) {
  return width == 64 ? std::numeric_limits<int64_t>::min()
                     : -(int64_t(1) << (width - 1));
}

/// A division or remainder: like addIntBinary, after checking every lane
/// for a zero divisor and, for signed ops, for the overflow of MIN / -1.
template <typename OpTy, typename F>
static void addIntDivision(HandlerTable &table, bool isSigned, F f) {
  table.add<OpTy>(
      [f, isSigned](Executor &executor, Operation *op) -> LogicalResult {
        const RuntimeValue &lhs = executor.lookup(op->getOperand(0));
        IntView a(lhs), b(executor.lookup(op->getOperand(1)));
        unsigned width = a.getWidth();
        for (int64_t i = 0, e = lhs.getNumElements(); i < e; ++i) {
          if (b[i] == 0)
            return executor.emitError(op)
                   << "division by zero in '" << op->getName() << "'"
                   << atLane(lhs.getShape(), i);
          if (isSigned && b[i] == -1 && a[i] == getSignedMin(width))
            return executor.emitError(op)
                   << "signed overflow in '" << op->getName() << "'"
                   << atLane(lhs.getShape(), i) << ": " << a[i]
                   << " / -1 does not fit in i" << width;
        }
        executor.bind(
            op->getResult(0),
            makeIntegers(lhs.getDataType(), lhs.getShape(),
                         [&](int64_t i) { return f(a[i], b[i], width); }));
        return success();
      });
}

/// A shift: like addIntBinary, after checking that every shift amount is
/// less than the bit width.
template <typename OpTy, typename F>
static void addShift(HandlerTable &table, F f) {
  table.add<OpTy>([f](Executor &executor, Operation *op) -> LogicalResult {
    const RuntimeValue &lhs = executor.lookup(op->getOperand(0));
    IntView a(lhs), b(executor.lookup(op->getOperand(1)));
    unsigned width = a.getWidth();
    for (int64_t i = 0, e = lhs.getNumElements(); i < e; ++i)
      if (b.getUnsigned(i) >= width)
        return executor.emitError(op)
               << "shift amount " << b.getUnsigned(i) << " in '"
               << op->getName() << "'" << atLane(lhs.getShape(), i)
               << " is not less than the bit width " << width;
    executor.bind(
        op->getResult(0),
        makeIntegers(lhs.getDataType(), lhs.getShape(), [&](int64_t i) {
          return f(a[i], b.getUnsigned(i), width);
        }));
    return success();
  });
}

static uint64_t toUnsigned(int64_t value, unsigned width) {
  return IntView::toUnsigned(value, width);
}

/// IEEE maxNum: the number when one operand is NaN; +0 over -0.
static float maxNumF(float a, float b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return maximumF(a, b);
}

static float minNumF(float a, float b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return minimumF(a, b);
}

static bool compareFloats(arith::CmpFPredicate predicate, float a, float b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (predicate) {
  case arith::CmpFPredicate::AlwaysFalse:
    return false;
  case arith::CmpFPredicate::OEQ:
    return !unordered && a == b;
  case arith::CmpFPredicate::OGT:
    return !unordered && a > b;
  case arith::CmpFPredicate::OGE:
    return !unordered && a >= b;
  case arith::CmpFPredicate::OLT:
    return !unordered && a < b;
  case arith::CmpFPredicate::OLE:
    return !unordered && a <= b;
  case arith::CmpFPredicate::ONE:
    return !unordered && a != b;
  case arith::CmpFPredicate::ORD:
    return !unordered;
  case arith::CmpFPredicate::UEQ:
    return unordered || a == b;
  case arith::CmpFPredicate::UGT:
    return unordered || a > b;
  case arith::CmpFPredicate::UGE:
    return unordered || a >= b;
  case arith::CmpFPredicate::ULT:
    return unordered || a < b;
  case arith::CmpFPredicate::ULE:
    return unordered || a <= b;
  case arith::CmpFPredicate::UNE:
    return unordered || a != b;
  case arith::CmpFPredicate::UNO:
    return unordered;
  case arith::CmpFPredicate::AlwaysTrue:
    return true;
  }
  llvm_unreachable("unknown predicate");
}

static bool compareInts(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                        unsigned width) {
  uint64_t ua = toUnsigned(a, width), ub = toUnsigned(b, width);
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return a < b;
  case arith::CmpIPredicate::sle:
    return a <= b;
  case arith::CmpIPredicate::sgt:
    return a > b;
  case arith::CmpIPredicate::sge:
    return a >= b;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  llvm_unreachable("unknown predicate");
}

/// An integer to a float of `kind`, rounded once to nearest, ties to even.
static RuntimeValue convertIntsToFloats(const RuntimeValue &source,
                                        DataType kind, bool isSigned) {
  IntView a(source);
  if (kind == DataType::F32)
    return makeFloats(kind, source.getShape(), [&](int64_t i) {
      return isSigned ? static_cast<float>(a[i])
                      : static_cast<float>(a.getUnsigned(i));
    });
  RuntimeValue result = RuntimeValue::allocate(kind, source.getShape());
  uint16_t *data = result.getData<uint16_t>();
  for (int64_t i = 0, e = source.getNumElements(); i < e; ++i) {
    // The operand at 64 bits: sign-extended, or zero-extended from its own
    // width for uitofp (a negative i32 is 2^32 plus it, not 2^64 plus it).
    uint64_t bits = isSigned ? static_cast<uint64_t>(a[i]) : a.getUnsigned(i);
    llvm::APFloat value(getFloatSemantics(kind));
    value.convertFromAPInt(llvm::APInt(64, bits), isSigned,
                           llvm::APFloat::rmNearestTiesToEven);
    data[i] = static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
  }
  return result;
}

/// A float to an integer of `kind`: rounded toward zero, saturated to the
/// integer's range, NaN giving 0 (the semantics of PTX's cvt.rzi).
static RuntimeValue convertFloatsToInts(const RuntimeValue &source,
                                        DataType kind, bool isSigned) {
  FloatView a(source);
  unsigned width = getIntegerWidth(kind);
  double low = isSigned ? -std::ldexp(1.0, width - 1) : 0.0;
  double high = std::ldexp(1.0, isSigned ? width - 1 : width);
  int64_t lowValue = isSigned ? getSignedMin(width) : 0;
  uint64_t highValue =
      isSigned ? static_cast<uint64_t>(-(getSignedMin(width) + 1))
               : (width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1);
  return makeIntegers(kind, source.getShape(), [&](int64_t i) -> int64_t {
    double value = std::trunc(static_cast<double>(a[i]));
    if (std::isnan(value))
      return 0;
    if (value < low)
      return lowValue;
    if (value >= high)
      return static_cast<int64_t>(highValue);
    return isSigned ? static_cast<int64_t>(value)
                    : static_cast<int64_t>(static_cast<uint64_t>(value));
  });
}

static llvm::RoundingMode getRoundingMode(arith::RoundingMode mode) {
  switch (mode) {
  case arith::RoundingMode::to_nearest_even:
    return llvm::RoundingMode::NearestTiesToEven;
  case arith::RoundingMode::downward:
    return llvm::RoundingMode::TowardNegative;
  case arith::RoundingMode::upward:
    return llvm::RoundingMode::TowardPositive;
  case arith::RoundingMode::toward_zero:
    return llvm::RoundingMode::TowardZero;
  case arith::RoundingMode::to_nearest_away:
    return llvm::RoundingMode::NearestTiesToAway;
  }
  llvm_unreachable("unknown rounding mode");
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void interpreter::registerArithHandlers(HandlerTable &table) {
  table.add<arith::ConstantOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        if (RuntimeValue *cached = executor.lookupConstant(op)) {
          executor.bind(op->getResult(0), *cached);
          return success();
        }
        Attribute attr = cast<arith::ConstantOp>(op).getValue();
        FailureOr<RuntimeValue> value = makeConstant(attr);
        if (failed(value))
          return executor.emitError(op)
                 << "the interpreter does not support the constant " << attr;
        executor.cacheConstant(op, *value);
        executor.bind(op->getResult(0), *value);
        return success();
      });

  // Floats.
  addFloatBinary<arith::AddFOp>(table, [](float a, float b) { return a + b; });
  addFloatBinary<arith::SubFOp>(table, [](float a, float b) { return a - b; });
  addFloatBinary<arith::MulFOp>(table, [](float a, float b) { return a * b; });
  addFloatBinary<arith::DivFOp>(table, [](float a, float b) { return a / b; });
  addFloatBinary<arith::RemFOp>(
      table, [](float a, float b) { return std::fmod(a, b); });
  addFloatBinary<arith::MaximumFOp>(table, maximumF);
  addFloatBinary<arith::MinimumFOp>(table, minimumF);
  addFloatBinary<arith::MaxNumFOp>(table, maxNumF);
  addFloatBinary<arith::MinNumFOp>(table, minNumF);
  table.add<arith::NegFOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        const RuntimeValue &source = executor.lookup(op->getOperand(0));
        FloatView a(source);
        executor.bind(op->getResult(0),
                      makeFloats(source.getDataType(), source.getShape(),
                                 [&](int64_t i) { return -a[i]; }));
        return success();
      });

  // Integers. Operands are sign-extended; results are truncated.
  auto wrap = [](uint64_t bits) { return static_cast<int64_t>(bits); };
  addIntBinary<arith::AddIOp>(table, [wrap](int64_t a, int64_t b, unsigned) {
    return wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  });
  addIntBinary<arith::SubIOp>(table, [wrap](int64_t a, int64_t b, unsigned) {
    return wrap(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  });
  addIntBinary<arith::MulIOp>(table, [wrap](int64_t a, int64_t b, unsigned) {
    return wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  });
  addIntBinary<arith::AndIOp>(
      table, [](int64_t a, int64_t b, unsigned) { return a & b; });
  addIntBinary<arith::OrIOp>(
      table, [](int64_t a, int64_t b, unsigned) { return a | b; });
  addIntBinary<arith::XOrIOp>(
      table, [](int64_t a, int64_t b, unsigned) { return a ^ b; });
  addIntBinary<arith::MaxSIOp>(
      table, [](int64_t a, int64_t b, unsigned) { return std::max(a, b); });
  addIntBinary<arith::MinSIOp>(
      table, [](int64_t a, int64_t b, unsigned) { return std::min(a, b); });
  addIntBinary<arith::MaxUIOp>(table, [](int64_t a, int64_t b, unsigned w) {
    return toUnsigned(a, w) >= toUnsigned(b, w) ? a : b;
  });
  addIntBinary<arith::MinUIOp>(table, [](int64_t a, int64_t b, unsigned w) {
    return toUnsigned(a, w) <= toUnsigned(b, w) ? a : b;
  });

  // Divisions: zero divisors and MIN / -1 are errors, checked before.
  addIntDivision<arith::DivSIOp>(
      table, /*isSigned=*/true,
      [](int64_t a, int64_t b, unsigned) { return b == -1 ? -a : a / b; });
  addIntDivision<arith::DivUIOp>(
      table, /*isSigned=*/false, [](int64_t a, int64_t b, unsigned w) {
        return static_cast<int64_t>(toUnsigned(a, w) / toUnsigned(b, w));
      });
  addIntDivision<arith::RemSIOp>(
      table, /*isSigned=*/true,
      [](int64_t a, int64_t b, unsigned) { return b == -1 ? 0 : a % b; });
  addIntDivision<arith::RemUIOp>(
      table, /*isSigned=*/false, [](int64_t a, int64_t b, unsigned w) {
        return static_cast<int64_t>(toUnsigned(a, w) % toUnsigned(b, w));
      });
  addIntDivision<arith::CeilDivSIOp>(
      table, /*isSigned=*/true, [](int64_t a, int64_t b, unsigned) {
        if (b == -1)
          return -a;
        int64_t quotient = a / b;
        return a % b != 0 && (a < 0) == (b < 0) ? quotient + 1 : quotient;
      });
  addIntDivision<arith::FloorDivSIOp>(
      table, /*isSigned=*/true, [](int64_t a, int64_t b, unsigned) {
        if (b == -1)
          return -a;
        int64_t quotient = a / b;
        return a % b != 0 && (a < 0) != (b < 0) ? quotient - 1 : quotient;
      });
  addIntDivision<arith::CeilDivUIOp>(
      table, /*isSigned=*/false, [](int64_t a, int64_t b, unsigned w) {
        uint64_t ua = toUnsigned(a, w), ub = toUnsigned(b, w);
        return static_cast<int64_t>(ua / ub + (ua % ub != 0));
      });

  // Shifts: an amount of the bit width or more is an error, checked before.
  addShift<arith::ShLIOp>(table, [](int64_t a, uint64_t b, unsigned) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  });
  addShift<arith::ShRSIOp>(
      table, [](int64_t a, uint64_t b, unsigned) { return a >> b; });
  addShift<arith::ShRUIOp>(table, [](int64_t a, uint64_t b, unsigned w) {
    return static_cast<int64_t>(toUnsigned(a, w) >> b);
  });

  // Comparisons and select.
  table.add<arith::CmpFOp>([](Executor &executor,
                              Operation *op) -> LogicalResult {
    arith::CmpFPredicate predicate = cast<arith::CmpFOp>(op).getPredicate();
    const RuntimeValue &lhs = executor.lookup(op->getOperand(0));
    FloatView a(lhs), b(executor.lookup(op->getOperand(1)));
    executor.bind(op->getResult(0), makeBools(lhs.getShape(), [&](int64_t i) {
                    return compareFloats(predicate, a[i], b[i]);
                  }));
    return success();
  });
  table.add<arith::CmpIOp>([](Executor &executor,
                              Operation *op) -> LogicalResult {
    arith::CmpIPredicate predicate = cast<arith::CmpIOp>(op).getPredicate();
    const RuntimeValue &lhs = executor.lookup(op->getOperand(0));
    IntView a(lhs), b(executor.lookup(op->getOperand(1)));
    unsigned width = a.getWidth();
    executor.bind(op->getResult(0), makeBools(lhs.getShape(), [&](int64_t i) {
                    return compareInts(predicate, a[i], b[i], width);
                  }));
    return success();
  });
  table.add<arith::SelectOp>([](Executor &executor,
                                Operation *op) -> LogicalResult {
    const RuntimeValue &condition = executor.lookup(op->getOperand(0));
    const RuntimeValue &onTrue = executor.lookup(op->getOperand(1));
    const RuntimeValue &onFalse = executor.lookup(op->getOperand(2));
    if (condition.isScalar()) {
      executor.bind(op->getResult(0), condition.getBool() ? onTrue : onFalse);
      return success();
    }
    RuntimeValue result =
        RuntimeValue::allocate(onTrue.getDataType(), onTrue.getShape());
    const uint8_t *select = condition.getData<uint8_t>();
    dispatchBySize(getStorageSize(onTrue.getDataType()), [&](auto tag) {
      using T = decltype(tag);
      const T *a = onTrue.getData<T>(), *b = onFalse.getData<T>();
      T *out = result.getData<T>();
      for (int64_t i = 0, e = result.getNumElements(); i < e; ++i)
        out[i] = select[i] ? a[i] : b[i];
    });
    executor.bind(op->getResult(0), result);
    return success();
  });

  // Casts between integers: sign-extend, zero-extend or truncate.
  auto addIntCast = [&](auto opTag, bool isSigned) {
    using OpTy = decltype(opTag);
    table.add<OpTy>([isSigned](Executor &executor,
                               Operation *op) -> LogicalResult {
      const RuntimeValue &source = executor.lookup(op->getOperand(0));
      IntView a(source);
      DataType kind = *getElementDataType(op->getResult(0).getType());
      executor.bind(op->getResult(0),
                    makeIntegers(kind, source.getShape(), [&](int64_t i) {
                      return isSigned ? a[i]
                                      : static_cast<int64_t>(a.getUnsigned(i));
                    }));
      return success();
    });
  };
  addIntCast(arith::ExtSIOp(), /*isSigned=*/true);
  addIntCast(arith::TruncIOp(), /*isSigned=*/true);
  addIntCast(arith::IndexCastOp(), /*isSigned=*/true);
  addIntCast(arith::ExtUIOp(), /*isSigned=*/false);
  addIntCast(arith::IndexCastUIOp(), /*isSigned=*/false);

  // Casts between integers and floats.
  auto addIntToFloat = [&](auto opTag, bool isSigned) {
    using OpTy = decltype(opTag);
    table.add<OpTy>([isSigned](Executor &executor,
                               Operation *op) -> LogicalResult {
      executor.bind(
          op->getResult(0),
          convertIntsToFloats(executor.lookup(op->getOperand(0)),
                              *getElementDataType(op->getResult(0).getType()),
                              isSigned));
      return success();
    });
  };
  addIntToFloat(arith::SIToFPOp(), /*isSigned=*/true);
  addIntToFloat(arith::UIToFPOp(), /*isSigned=*/false);
  auto addFloatToInt = [&](auto opTag, bool isSigned) {
    using OpTy = decltype(opTag);
    table.add<OpTy>([isSigned](Executor &executor,
                               Operation *op) -> LogicalResult {
      executor.bind(
          op->getResult(0),
          convertFloatsToInts(executor.lookup(op->getOperand(0)),
                              *getElementDataType(op->getResult(0).getType()),
                              isSigned));
      return success();
    });
  };
  addFloatToInt(arith::FPToSIOp(), /*isSigned=*/true);
  addFloatToInt(arith::FPToUIOp(), /*isSigned=*/false);

  // Casts between floats.
  table.add<arith::ExtFOp>([](Executor &executor,
                              Operation *op) -> LogicalResult {
    const RuntimeValue &source = executor.lookup(op->getOperand(0));
    FloatView a(source);
    executor.bind(op->getResult(0),
                  makeFloats(*getElementDataType(op->getResult(0).getType()),
                             source.getShape(),
                             [&](int64_t i) { return a[i]; }));
    return success();
  });
  table.add<arith::TruncFOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        auto truncOp = cast<arith::TruncFOp>(op);
        const RuntimeValue &source = executor.lookup(truncOp.getIn());
        DataType kind = *getElementDataType(truncOp.getType());
        FloatView a(source);
        std::optional<arith::RoundingMode> mode = truncOp.getRoundingmode();
        if (!mode || *mode == arith::RoundingMode::to_nearest_even) {
          executor.bind(op->getResult(0),
                        makeFloats(kind, source.getShape(),
                                   [&](int64_t i) { return a[i]; }));
          return success();
        }
        RuntimeValue result = RuntimeValue::allocate(kind, source.getShape());
        for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
          llvm::APFloat value(a[i]);
          bool losesInfo;
          value.convert(getFloatSemantics(kind), getRoundingMode(*mode),
                        &losesInfo);
          storeBits(result, i, value.bitcastToAPInt().getZExtValue());
        }
        executor.bind(op->getResult(0), result);
        return success();
      });
  table.add<arith::BitcastOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        executor.bind(op->getResult(0), executor.lookup(op->getOperand(0))
                                            .reinterpret(*getElementDataType(
                                                op->getResult(0).getType())));
        return success();
      });
}
