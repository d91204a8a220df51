//===- GenerateValues.cpp - Types, ranges, constants and operands ---------===//
//
// What the generator's operations are built from: random element types,
// the style of a cast and the range of its result, integer ranges (the
// whole type where a value may wrap), nice constants inside a range,
// adding an operation with its range, and the operands and conditions an
// operation asks for: an earlier value, one widened or cast from another,
// or a constant; a comparison, a condition of the indices, or the logic of
// two conditions.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace mlir::tile;
using namespace mlir::tile::smith;

double smith::roundToBits(double value, int bits) {
  if (value == 0 || !std::isfinite(value))
    return value;
  int exponent;
  double mantissa = std::frexp(value, &exponent);
  return std::ldexp(std::nearbyint(std::ldexp(mantissa, bits)),
                    exponent - bits);
}

//===----------------------------------------------------------------------===//
// Types and ranges
//===----------------------------------------------------------------------===//

ElementType Generator::randomType(bool integers) {
  if (integers && rng.chance(0.25))
    return rng.chance(0.6) ? ElementType::I32 : ElementType::I64;
  return std::array<ElementType, 3>{ElementType::F32, ElementType::F16,
                                    ElementType::BF16}[rng.weighted({4, 3, 3})];
}

CastStyle Generator::castStyle(ElementType from, ElementType to) {
  if (!isInteger(from) && !isInteger(to)) {
    bool arith = from == ElementType::F32 || to == ElementType::F32;
    return arith && rng.chance(0.5) ? CastStyle::Arith : CastStyle::TileCast;
  }
  return rng.chance(0.7) ? CastStyle::Signed : CastStyle::Unsigned;
}

Range Generator::castRange(const Range &in, ElementType from, ElementType to,
                           CastStyle style) {
  Range out = in;
  ++out.depth;
  bool isUnsigned = style == CastStyle::Unsigned;
  if (isInteger(to)) {
    out.exact = in.exact || isInteger(from);
    if (!isInteger(from)) {
      // fptosi, fptoui: toward zero, saturated; NaN is 0 and an infinity
      // an extreme, so inputs with them may give anything.
      if (program.specials)
        return fullRange(to, out.depth);
      double lo = std::trunc(in.lo), hi = std::trunc(in.hi);
      if (isUnsigned) {
        // Above the signed maximum, the bits read as a negative integer.
        if (hi > getMaxValue(to))
          return fullRange(to, out.depth);
        out.lo = std::max(lo, 0.0), out.hi = std::max(hi, 0.0);
        return out;
      }
      out.lo = std::max(lo, getMinValue(to));
      out.hi = std::min(hi, getMaxValue(to));
      return out;
    }
    // extsi, extui, trunci: the same integers where they fit (and, read as
    // unsigned, are not negative); otherwise anything.
    if (in.lo < getMinValue(to) || in.hi > getMaxValue(to) ||
        (isUnsigned && in.lo < 0))
      return fullRange(to, out.depth);
    return out;
  }
  // sitofp, uitofp: a negative integer read as unsigned is 2^width more.
  if (isInteger(from) && isUnsigned && in.lo < 0)
    out.lo = 0, out.hi = 2 * getMaxValue(from) + 1;
  return out;
}

Range Generator::fullRange(ElementType type, int depth) {
  return Range{getMinValue(type), getMaxValue(type), true, depth};
}

Range Generator::intRange(double lo, double hi, ElementType type, int depth) {
  if (!(lo >= getMinValue(type) && hi <= getMaxValue(type)))
    return fullRange(type, depth); // wraps
  return Range{lo, hi, true, depth};
}

double Generator::niceConstant(double lo, double hi, ElementType type) {
  if (lo <= 0 && hi >= 0 && rng.chance(0.2))
    return 0;
  if (isInteger(type)) {
    // A small integer of the range where it has some, else any.
    lo = std::max(std::ceil(lo), getMinValue(type));
    hi = std::min(std::floor(hi), getMaxValue(type));
    if (hi < lo)
      return 0;
    double small = std::min(hi, lo + 200);
    double value = std::floor(lo + (small - lo + 1) * rng.uniform());
    if (rng.chance(0.2))
      value = std::floor(lo + (hi - lo) * rng.uniform());
    value = std::min(std::max(value, lo), hi);
    return isRepresentable(value, type) ? value : 0;
  }
  double value = lo + (hi - lo) * rng.uniform();
  double nice = std::nearbyint(value * 8) / 8;
  if (nice < lo || nice > hi)
    nice = value;
  nice = roundToBits(nice, getPrecision(type));
  if (!isRepresentable(nice, type) || nice < lo || nice > hi) {
    // The ends of a range that came out of exp or tanh need not be
    // representable; a value inside it is, after rounding toward the middle.
    nice = roundToBits((lo + hi) / 2, getPrecision(type));
    if (!isRepresentable(nice, type))
      nice = 0;
  }
  return nice;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

int Generator::add(Op op, Range range) {
  op.phase = phase;
  program.ops.push_back(std::move(op));
  ranges.push_back(range);
  return static_cast<int>(program.ops.size() - 1);
}

int Generator::makeConstant(Shape shape, ElementType type, double lo,
                            double hi) {
  Op op;
  op.kind = OpKind::Constant;
  op.shape = shape;
  op.type = type;
  op.value = niceConstant(lo, hi, type);
  return add(op, Range{op.value, op.value, true, 0});
}

int Generator::makeOperand(Shape shape, ElementType type) {
  int same = pickValue([&](int i) {
    return program.ops[i].shape == shape && program.ops[i].type == type;
  });
  if (same >= 0 && rng.chance(0.7))
    return same;
  // Widen a smaller value.
  int smaller = pickValue([&](int i) {
    const Op &op = program.ops[i];
    if (op.type != type || op.shape == shape)
      return false;
    if (op.shape == Shape::Scalar)
      return true;
    return shape == Shape::Tile && op.shape != Shape::Tile;
  });
  if (smaller >= 0 && rng.chance(0.7)) {
    Op op;
    op.kind = OpKind::Expand;
    op.shape = shape;
    op.type = type;
    op.operands = {smaller};
    if (program.ops[smaller].shape == Shape::Scalar && shape == Shape::Tile &&
        program.rank == 2 && rng.chance(0.3))
      op.expand = ExpandStyle::ViaVector;
    Range range = ranges[smaller];
    ++range.depth;
    return add(op, range);
  }
  // Cast one of another type.
  int other = pickValue([&](int i) {
    return program.ops[i].shape == shape && program.ops[i].type != type;
  });
  if (other >= 0 && rng.chance(0.6)) {
    Op op;
    op.kind = OpKind::Cast;
    op.shape = shape;
    op.type = type;
    op.operands = {other};
    ElementType from = program.ops[other].type;
    op.cast = castStyle(from, type);
    return add(op, castRange(ranges[other], from, type, op.cast));
  }
  if (same >= 0)
    return same;
  return makeConstant(shape, type, isInteger(type) ? -100 : -2,
                      isInteger(type) ? 100 : 2);
}

int Generator::makeCondition(Shape shape, int depth) {
  if (depth == 0 && rng.chance(0.15)) {
    int lhs = makeCondition(shape, depth + 1);
    int rhs = makeCondition(shape, depth + 1);
    if (lhs < 0 || rhs < 0)
      return -1;
    Op op;
    op.kind = OpKind::Logic;
    op.shape = shape;
    op.logic = rng.pick<LogicFn>({LogicFn::And, LogicFn::Or, LogicFn::Xor});
    op.operands = {lhs, rhs};
    return add(op, Range{});
  }
  std::vector<IndexCond> conds;
  if (shape == Shape::Tile && program.rank == 2)
    conds = {IndexCond::ColBelowRow, IndexCond::OddCol, IndexCond::OddRow};
  else if (shape == Shape::Tile || shape == Shape::Cols)
    conds = {IndexCond::OddCol};
  else if (shape == Shape::Rows)
    conds = {IndexCond::OddRow};
  // Compare a value, exact ones preferably: their outcome does not depend
  // on rounding.
  int value = pickValue(
      [&](int i) { return program.ops[i].shape == shape && ranges[i].exact; });
  if (value < 0 || rng.chance(0.2))
    value = pickValue([&](int i) { return program.ops[i].shape == shape; });
  if (value >= 0 && (conds.empty() || rng.chance(0.7))) {
    Op op;
    op.kind = OpKind::Compare;
    op.shape = shape;
    op.intPredicate = rng.pick<IntPredicate>(
        {IntPredicate::EQ, IntPredicate::NE, IntPredicate::SLT,
         IntPredicate::SLE, IntPredicate::SGT, IntPredicate::SGE,
         IntPredicate::ULT, IntPredicate::ULE, IntPredicate::UGT,
         IntPredicate::UGE});
    op.predicate =
        rng.pick<Predicate>({Predicate::OLT, Predicate::OLE, Predicate::OGT,
                             Predicate::OGE, Predicate::UNE, Predicate::ULT});
    op.operands = {value};
    if (rng.chance(0.25)) {
      // Against another value: lanes where the two are close may go either
      // way (the reference leaves them unchecked).
      int other = makeOperand(shape, program.ops[value].type);
      op.operands.push_back(other);
    } else {
      op.value = niceConstant(ranges[value].lo, ranges[value].hi,
                              program.ops[value].type);
    }
    return add(op, Range{});
  }
  if (conds.empty())
    return -1;
  Op op;
  op.kind = OpKind::Index;
  op.shape = shape;
  op.index = rng.pick<IndexCond>(conds);
  return add(op, Range{});
}
