//===- StrengthReduceDivisions.cpp - Divide by loop invariants fast -------===//
//
// An i32 division by a run-time value inside a loop whose divisor does not
// change becomes a high multiply by a magic number computed once before the
// loop (Granlund and Montgomery, PLDI 1994, figure 4.1; the pass's
// description in Passes.td has the formulas). Signed divisions divide the
// magnitudes, as unsigned numbers (|INT_MIN| is 2^31), and give the
// quotient the sign of n xor d; where MLIR's integer range analysis proves
// n >= 0 and d >= 1 (a loop's step from 0, tile.num_programs, max(x, 1)),
// they divide as unsigned ones, without the magnitudes and the sign.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESTRENGTHREDUCEDIVISIONS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
/// What dividing by one divisor takes, computed before a loop.
struct Magic {
  Value multiplier; // m, i32
  Value shift1;     // min(l, 1)
  Value shift2;     // max(l - 1, 0)
};

/// The division's kind.
enum class DivisionKind {
  SignedQuotient,
  SignedRemainder,
  Quotient,
  Remainder
};
} // namespace

static Value constantI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

/// |x| as an unsigned i32 (x for unsigned divisions).
static Value magnitude(OpBuilder &b, Location loc, Value x, bool isSigned) {
  if (!isSigned)
    return x;
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x,
                                         constantI32(b, loc, 0));
  Value negated = arith::SubIOp::create(b, loc, constantI32(b, loc, 0), x);
  return arith::SelectOp::create(b, loc, negative, negated, x);
}

/// The magic of divisor `d` (|d| for signed divisions), at `b`'s point.
static Magic computeMagic(OpBuilder &b, Location loc, Value d, bool isSigned) {
  Value one = constantI32(b, loc, 1);
  // max(|d|, 1): computed before the loop even when the loop never
  // divides, so never a division by zero here.
  Value divisor =
      arith::MaxUIOp::create(b, loc, magnitude(b, loc, d, isSigned), one);
  // l = ceil(log2 divisor) = 32 - ctlz(divisor - 1), in [0, 32].
  Value below = arith::SubIOp::create(b, loc, divisor, one);
  Value zeros = math::CountLeadingZerosOp::create(b, loc, below);
  Value l = arith::SubIOp::create(b, loc, constantI32(b, loc, 32), zeros);
  // m = ((2^l - divisor) << 32) / divisor + 1, in 64 bits: 2^l - divisor
  // is below divisor, so the quotient fits in 32 bits.
  Type i64 = b.getI64Type();
  Value l64 = arith::ExtUIOp::create(b, loc, i64, l);
  Value divisor64 = arith::ExtUIOp::create(b, loc, i64, divisor);
  Value power = arith::ShLIOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, 1, 64), l64);
  Value excess = arith::SubIOp::create(b, loc, power, divisor64);
  Value scaled = arith::ShLIOp::create(
      b, loc, excess, arith::ConstantIntOp::create(b, loc, 32, 64));
  Value quotient = arith::DivUIOp::create(b, loc, scaled, divisor64);
  Value m = arith::AddIOp::create(
      b, loc, arith::TruncIOp::create(b, loc, b.getI32Type(), quotient), one);
  Value shift1 = arith::MinUIOp::create(b, loc, l, one);
  Value shift2 = arith::SubIOp::create(b, loc, l, shift1);
  return {m, shift1, shift2};
}

/// The outermost loop around `op` that `value` is defined outside of.
static LoopLikeOpInterface getHoistingLoop(Operation *op, Value value) {
  LoopLikeOpInterface outermost;
  for (auto loop = op->getParentOfType<LoopLikeOpInterface>(); loop;
       loop = loop->getParentOfType<LoopLikeOpInterface>()) {
    if (!loop.isDefinedOutsideOfLoop(value))
      break;
    outermost = loop;
  }
  return outermost;
}

/// Replaces `op` (n op d) by the multiply and shifts of `magic`.
static void rewrite(Operation *op, DivisionKind kind, const Magic &magic) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value n = op->getOperand(0), d = op->getOperand(1);
  bool isSigned = kind == DivisionKind::SignedQuotient ||
                  kind == DivisionKind::SignedRemainder;
  Value dividend = magnitude(b, loc, n, isSigned);
  Value high =
      arith::MulUIExtendedOp::create(b, loc, magic.multiplier, dividend)
          .getHigh();
  Value difference = arith::SubIOp::create(b, loc, dividend, high);
  Value halved = arith::ShRUIOp::create(b, loc, difference, magic.shift1);
  Value sum = arith::AddIOp::create(b, loc, high, halved);
  Value q = arith::ShRUIOp::create(b, loc, sum, magic.shift2);
  if (isSigned) {
    Value signs = arith::XOrIOp::create(b, loc, n, d);
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           signs, constantI32(b, loc, 0));
    Value negated = arith::SubIOp::create(b, loc, constantI32(b, loc, 0), q);
    q = arith::SelectOp::create(b, loc, negative, negated, q);
  }
  Value result = q;
  switch (kind) {
  case DivisionKind::SignedQuotient:
  case DivisionKind::Quotient:
    break;
  case DivisionKind::SignedRemainder:
  case DivisionKind::Remainder:
    result =
        arith::SubIOp::create(b, loc, n, arith::MulIOp::create(b, loc, q, d));
    break;
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

namespace {
struct TileStrengthReduceDivisionsPass
    : tile::impl::TileStrengthReduceDivisionsBase<
          TileStrengthReduceDivisionsPass> {
  void runOnOperation() override {
    DataFlowSolver solver;
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<dataflow::IntegerRangeAnalysis>();
    if (failed(solver.initializeAndRun(getOperation())))
      return signalPassFailure();
    // The smallest signed value `value` may take, if the analysis knows.
    auto signedMin = [&](Value value) -> std::optional<APInt> {
      auto *lattice =
          solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
      if (!lattice || lattice->getValue().isUninitialized())
        return std::nullopt;
      return lattice->getValue().getValue().smin();
    };
    auto isAtLeast = [&](Value value, int64_t bound) {
      std::optional<APInt> min = signedMin(value);
      return min && min->sge(bound);
    };
    SmallVector<std::pair<Operation *, DivisionKind>> divisions;
    getOperation().walk([&](Operation *op) {
      std::optional<DivisionKind> kind =
          TypeSwitch<Operation *, std::optional<DivisionKind>>(op)
              .Case([](arith::DivSIOp) { return DivisionKind::SignedQuotient; })
              .Case(
                  [](arith::RemSIOp) { return DivisionKind::SignedRemainder; })
              .Case([](arith::DivUIOp) { return DivisionKind::Quotient; })
              .Case([](arith::RemUIOp) { return DivisionKind::Remainder; })
              .Default([](Operation *) { return std::nullopt; });
      if (!kind || !op->getResult(0).getType().isInteger(32) ||
          matchPattern(op->getOperand(1), m_Constant()))
        return;
      divisions.emplace_back(op, *kind);
    });
    // One magic per divisor and loop, signed ones (of |d|) and unsigned.
    std::array<DenseMap<std::pair<Value, Operation *>, Magic>, 2> magics;
    for (auto [op, kind] : divisions) {
      Value d = op->getOperand(1);
      LoopLikeOpInterface loop = getHoistingLoop(op, d);
      if (!loop)
        continue;
      // Known non-negative and positive: the same as unsigned.
      if (isAtLeast(op->getOperand(0), 0) && isAtLeast(d, 1)) {
        switch (kind) {
        case DivisionKind::SignedQuotient:
          kind = DivisionKind::Quotient;
          break;
        case DivisionKind::SignedRemainder:
          kind = DivisionKind::Remainder;
          break;
        case DivisionKind::Quotient:
        case DivisionKind::Remainder:
          break;
        }
      }
      bool isSigned = kind == DivisionKind::SignedQuotient ||
                      kind == DivisionKind::SignedRemainder;
      auto &cache = magics[isSigned];
      auto key = std::make_pair(d, loop.getOperation());
      auto it = cache.find(key);
      if (it == cache.end()) {
        OpBuilder b(loop);
        it = cache.try_emplace(key, computeMagic(b, op->getLoc(), d, isSigned))
                 .first;
      }
      rewrite(op, kind, it->second);
    }
  }
};
} // namespace
