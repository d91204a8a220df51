//===- GenerateElementwise.cpp - Elementwise operations -------------------===//
//
// The elementwise operations of a random program and the ranges of their
// results: unary and binary float functions (only where the operands'
// ranges keep the result finite and away from the edges of the
// function's domain), their integer counterparts (which wrap, but keep
// away from what arith leaves undefined), fma, select and cast.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

using namespace mlir::tile;
using namespace mlir::tile::smith;

//===----------------------------------------------------------------------===//
// Float functions
//===----------------------------------------------------------------------===//

bool Generator::makeUnary() {
  int x = pickValue([](int) { return true; });
  if (x < 0)
    return false;
  if (isInteger(program.ops[x].type))
    return makeIntUnary(x);
  Range in = ranges[x];
  double lo = in.lo, hi = in.hi;
  std::vector<UnaryFn> fns = {UnaryFn::Neg, UnaryFn::Abs, UnaryFn::Tanh,
                              UnaryFn::Sin, UnaryFn::Cos, UnaryFn::Erf,
                              UnaryFn::Atan};
  if (hi <= 8)
    fns.insert(fns.end(), {UnaryFn::Exp, UnaryFn::Exp, UnaryFn::Exp,
                           UnaryFn::MathExp, UnaryFn::Expm1});
  if (hi <= 11)
    fns.push_back(UnaryFn::Exp2);
  if (lo >= 0.125)
    fns.insert(fns.end(), {UnaryFn::Log, UnaryFn::Log2, UnaryFn::Rsqrt});
  if (lo >= -0.75)
    fns.push_back(UnaryFn::Log1p);
  if (lo >= 0)
    fns.push_back(UnaryFn::Sqrt);
  if (in.exact)
    fns.insert(fns.end(), {UnaryFn::Floor, UnaryFn::Ceil});
  Op op;
  op.kind = OpKind::Unary;
  op.shape = program.ops[x].shape;
  op.type = program.ops[x].type;
  op.operands = {x};
  op.unary = rng.pick<UnaryFn>(fns);
  Range out{lo, hi, false, in.depth + 1};
  switch (op.unary) {
  case UnaryFn::Neg:
    out = {-hi, -lo, in.exact, in.depth + 1};
    break;
  case UnaryFn::Abs:
    out.exact = in.exact;
    if (lo >= 0)
      out.lo = lo, out.hi = hi;
    else if (hi <= 0)
      out.lo = -hi, out.hi = -lo;
    else
      out.lo = 0, out.hi = std::max(-lo, hi);
    break;
  case UnaryFn::Exp:
  case UnaryFn::MathExp:
    out.lo = std::exp(lo), out.hi = std::exp(hi);
    break;
  case UnaryFn::Exp2:
    out.lo = std::exp2(lo), out.hi = std::exp2(hi);
    break;
  case UnaryFn::Expm1:
    out.lo = std::expm1(lo), out.hi = std::expm1(hi);
    break;
  case UnaryFn::Log:
    out.lo = std::log(lo), out.hi = std::log(hi);
    break;
  case UnaryFn::Log2:
    out.lo = std::log2(lo), out.hi = std::log2(hi);
    break;
  case UnaryFn::Log1p:
    out.lo = std::log1p(lo), out.hi = std::log1p(hi);
    break;
  case UnaryFn::Sqrt:
    out.lo = std::sqrt(lo), out.hi = std::sqrt(hi);
    break;
  case UnaryFn::Rsqrt:
    out.lo = 1 / std::sqrt(hi), out.hi = 1 / std::sqrt(lo);
    break;
  case UnaryFn::Tanh:
    out.lo = std::tanh(lo), out.hi = std::tanh(hi);
    break;
  case UnaryFn::Erf:
    out.lo = std::erf(lo), out.hi = std::erf(hi);
    break;
  case UnaryFn::Atan:
    out.lo = std::atan(lo), out.hi = std::atan(hi);
    break;
  case UnaryFn::Sin:
  case UnaryFn::Cos:
    out.lo = -1, out.hi = 1;
    break;
  case UnaryFn::Floor:
    out = {std::floor(lo), std::floor(hi), true, in.depth + 1};
    break;
  case UnaryFn::Ceil:
    out = {std::ceil(lo), std::ceil(hi), true, in.depth + 1};
    break;
  case UnaryFn::AbsI:
  case UnaryFn::Ctlz:
  case UnaryFn::Cttz:
  case UnaryFn::Ctpop:
    llvm_unreachable("integer functions are made by makeIntUnary");
  }
  if (!fits(out.lo, out.hi))
    return false;
  add(op, out);
  return true;
}

bool Generator::makeBinary() {
  int a = pickValue([](int) { return true; });
  if (a < 0)
    return false;
  if (isInteger(program.ops[a].type))
    return makeIntBinary(a);
  Shape shape = program.ops[a].shape;
  ElementType type = program.ops[a].type;
  int b = makeOperand(shape, type);
  if (rng.chance(0.3))
    std::swap(a, b);
  Range ra = ranges[a], rb = ranges[b];
  std::vector<BinaryFn> fns = {
      BinaryFn::Add,    BinaryFn::Add,   BinaryFn::Sub,     BinaryFn::Sub,
      BinaryFn::Mul,    BinaryFn::Mul,   BinaryFn::Maximum, BinaryFn::Minimum,
      BinaryFn::MaxNum, BinaryFn::MinNum};
  bool divisorAway = rb.lo >= 0.25 || rb.hi <= -0.25;
  if (divisorAway)
    fns.insert(fns.end(), {BinaryFn::Div, BinaryFn::Div});
  if (ra.exact && rb.exact && (rb.lo >= 0.5 || rb.hi <= -0.5))
    fns.push_back(BinaryFn::Rem);
  if (!program.specials && (rb.lo > 0 || rb.hi < 0))
    fns.push_back(BinaryFn::Copysign);
  Op op;
  op.kind = OpKind::Binary;
  op.shape = shape;
  op.type = type;
  op.operands = {a, b};
  op.binary = rng.pick<BinaryFn>(fns);
  Range out{0, 0, false, std::max(ra.depth, rb.depth) + 1};
  auto products = [](double a0, double a1, double b0, double b1) {
    double p[] = {a0 * b0, a0 * b1, a1 * b0, a1 * b1};
    return std::make_pair(*std::min_element(p, p + 4),
                          *std::max_element(p, p + 4));
  };
  switch (op.binary) {
  case BinaryFn::Add:
    out.lo = ra.lo + rb.lo, out.hi = ra.hi + rb.hi;
    break;
  case BinaryFn::Sub:
    out.lo = ra.lo - rb.hi, out.hi = ra.hi - rb.lo;
    break;
  case BinaryFn::Mul:
    std::tie(out.lo, out.hi) = products(ra.lo, ra.hi, rb.lo, rb.hi);
    break;
  case BinaryFn::Div:
    std::tie(out.lo, out.hi) = products(ra.lo, ra.hi, 1 / rb.hi, 1 / rb.lo);
    break;
  case BinaryFn::Maximum:
  case BinaryFn::MaxNum:
    out = {std::max(ra.lo, rb.lo), std::max(ra.hi, rb.hi), ra.exact && rb.exact,
           out.depth};
    break;
  case BinaryFn::Minimum:
  case BinaryFn::MinNum:
    out = {std::min(ra.lo, rb.lo), std::min(ra.hi, rb.hi), ra.exact && rb.exact,
           out.depth};
    break;
  case BinaryFn::Rem: {
    double bound = std::min(std::max(std::fabs(ra.lo), std::fabs(ra.hi)),
                            std::max(std::fabs(rb.lo), std::fabs(rb.hi)));
    out = {ra.lo < 0 ? -bound : 0, ra.hi > 0 ? bound : 0, true, out.depth};
    break;
  }
  case BinaryFn::Copysign: {
    double bound = std::max(std::fabs(ra.lo), std::fabs(ra.hi));
    out = {-bound, bound, ra.exact && rb.exact, out.depth};
    break;
  }
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
    llvm_unreachable("integer functions are made by makeIntBinary");
  }
  if (!fits(out.lo, out.hi))
    return false;
  add(op, out);
  return true;
}

//===----------------------------------------------------------------------===//
// Integer functions
//===----------------------------------------------------------------------===//

bool Generator::makeIntUnary(int x) {
  const Op &in = program.ops[x];
  Range r = ranges[x];
  Op op;
  op.kind = OpKind::Unary;
  op.shape = in.shape;
  op.type = in.type;
  op.operands = {x};
  op.unary = rng.pick<UnaryFn>({UnaryFn::AbsI, UnaryFn::AbsI, UnaryFn::Ctlz,
                                UnaryFn::Cttz, UnaryFn::Ctpop});
  double width = getPrecision(in.type);
  Range out{0, width, true, r.depth + 1};
  if (op.unary == UnaryFn::AbsI)
    out = r.lo >= 0 ? Range{r.lo, r.hi, true, r.depth + 1}
          : r.hi <= 0
              ? intRange(-r.hi, -r.lo, in.type, r.depth + 1)
              : intRange(0, std::max(-r.lo, r.hi), in.type, r.depth + 1);
  add(op, out);
  return true;
}

/// Integer operations wrap at the type's width; the generator keeps away
/// only from what arith leaves undefined (and the interpreter reports): a
/// division by zero, the minimum divided by -1, a shift by the width or
/// more.
bool Generator::makeIntBinary(int a) {
  const Op &x = program.ops[a];
  Shape shape = x.shape;
  ElementType type = x.type;
  double width = getPrecision(type);
  double min = getMinValue(type);
  Range ra = ranges[a];
  std::vector<BinaryFn> fns = {
      BinaryFn::AddI,      BinaryFn::AddI,       BinaryFn::SubI,
      BinaryFn::MulI,      BinaryFn::AndI,       BinaryFn::OrI,
      BinaryFn::XorI,      BinaryFn::MaxSI,      BinaryFn::MinSI,
      BinaryFn::MaxUI,     BinaryFn::MinUI,      BinaryFn::DivSI,
      BinaryFn::RemSI,     BinaryFn::DivUI,      BinaryFn::RemUI,
      BinaryFn::CeilDivSI, BinaryFn::FloorDivSI, BinaryFn::ShLI,
      BinaryFn::ShRSI,     BinaryFn::ShRUI};
  BinaryFn fn = rng.pick<BinaryFn>(fns);
  bool shift =
      fn == BinaryFn::ShLI || fn == BinaryFn::ShRSI || fn == BinaryFn::ShRUI;
  bool division = fn == BinaryFn::DivSI || fn == BinaryFn::RemSI ||
                  fn == BinaryFn::DivUI || fn == BinaryFn::RemUI ||
                  fn == BinaryFn::CeilDivSI || fn == BinaryFn::FloorDivSI;
  int b;
  if (shift) {
    // A shift amount below the width: a value known to be, or a constant.
    b = pickValue([&](int i) {
      return program.ops[i].shape == shape && program.ops[i].type == type &&
             ranges[i].lo >= 0 && ranges[i].hi < width;
    });
    if (b < 0 || rng.chance(0.5))
      b = makeConstant(shape, type, 0, width - 1);
  } else {
    b = makeOperand(shape, type);
  }
  Range rb = ranges[b];
  if (division) {
    bool nonzero = rb.lo > 0 || rb.hi < 0;
    bool overflow = ra.lo <= min && rb.lo <= -1 && rb.hi >= -1;
    if (!nonzero || overflow) {
      // A divisor of its own: a nonzero constant.
      double magnitude = niceConstant(1, 100, type);
      // The two draws in order (as arguments, their order would be the
      // compiler's: GCC and Clang drew different kernels for one seed).
      double lo = rng.chance(0.3) ? -magnitude : magnitude;
      double hi = rng.chance(0.3) ? -magnitude : magnitude;
      b = makeConstant(shape, type, lo, hi);
      if (program.ops[b].value == 0 ||
          (program.ops[b].value == -1 && ra.lo <= min))
        return false;
      rb = ranges[b];
    }
  }
  Op op;
  op.kind = OpKind::Binary;
  op.shape = shape;
  op.type = type;
  op.operands = {a, b};
  op.binary = fn;
  int depth = std::max(ra.depth, rb.depth) + 1;
  bool nonnegative = ra.lo >= 0 && rb.lo >= 0;
  double magnitudeA = std::max(std::fabs(ra.lo), std::fabs(ra.hi));
  double magnitudeB = std::max(std::fabs(rb.lo), std::fabs(rb.hi));
  Range out = fullRange(type, depth);
  switch (fn) {
  case BinaryFn::AddI:
    out = intRange(ra.lo + rb.lo, ra.hi + rb.hi, type, depth);
    break;
  case BinaryFn::SubI:
    out = intRange(ra.lo - rb.hi, ra.hi - rb.lo, type, depth);
    break;
  case BinaryFn::MulI: {
    double p[] = {ra.lo * rb.lo, ra.lo * rb.hi, ra.hi * rb.lo, ra.hi * rb.hi};
    out = intRange(*std::min_element(p, p + 4), *std::max_element(p, p + 4),
                   type, depth);
    break;
  }
  case BinaryFn::DivSI:
  case BinaryFn::CeilDivSI:
  case BinaryFn::FloorDivSI:
    out = intRange(-magnitudeA - 1, magnitudeA + 1, type, depth);
    break;
  case BinaryFn::RemSI:
    out = intRange(-magnitudeB, magnitudeB, type, depth);
    break;
  case BinaryFn::DivUI:
    if (nonnegative)
      out = Range{0, ra.hi, true, depth};
    break;
  case BinaryFn::RemUI:
    if (nonnegative)
      out = Range{0, rb.hi, true, depth};
    break;
  case BinaryFn::AndI:
    if (nonnegative)
      out = Range{0, std::min(ra.hi, rb.hi), true, depth};
    break;
  case BinaryFn::OrI:
  case BinaryFn::XorI:
    if (nonnegative)
      out = Range{
          0, std::exp2(std::ceil(std::log2(std::max(ra.hi, rb.hi) + 1))) - 1,
          true, depth};
    break;
  case BinaryFn::ShLI:
    out = intRange(std::min(ra.lo * std::exp2(rb.hi), ra.lo),
                   std::max(ra.hi * std::exp2(rb.hi), ra.hi), type, depth);
    break;
  case BinaryFn::ShRSI:
    out = Range{std::min(ra.lo, 0.0), std::max(ra.hi, 0.0), true, depth};
    break;
  case BinaryFn::ShRUI:
    if (ra.lo >= 0)
      out = Range{0, ra.hi, true, depth};
    break;
  case BinaryFn::MaxSI:
    out = Range{std::max(ra.lo, rb.lo), std::max(ra.hi, rb.hi), true, depth};
    break;
  case BinaryFn::MinSI:
    out = Range{std::min(ra.lo, rb.lo), std::min(ra.hi, rb.hi), true, depth};
    break;
  case BinaryFn::MaxUI:
  case BinaryFn::MinUI:
    if (nonnegative)
      out = Range{std::min(ra.lo, rb.lo), std::max(ra.hi, rb.hi), true, depth};
    break;
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
    llvm_unreachable("float functions are made by makeBinary");
  }
  add(op, out);
  return true;
}

//===----------------------------------------------------------------------===//
// Fma, select, cast
//===----------------------------------------------------------------------===//

bool Generator::makeFma() {
  int a = pickValue([&](int i) { return !isInteger(program.ops[i].type); });
  if (a < 0)
    return false;
  Shape shape = program.ops[a].shape;
  ElementType type = program.ops[a].type;
  int b = makeOperand(shape, type);
  int c = makeOperand(shape, type);
  Range ra = ranges[a], rb = ranges[b], rc = ranges[c];
  double p[] = {ra.lo * rb.lo, ra.lo * rb.hi, ra.hi * rb.lo, ra.hi * rb.hi};
  Range out{*std::min_element(p, p + 4) + rc.lo,
            *std::max_element(p, p + 4) + rc.hi, false,
            std::max({ra.depth, rb.depth, rc.depth}) + 1};
  if (!fits(out.lo, out.hi))
    return false;
  Op op;
  op.kind = OpKind::Fma;
  op.shape = shape;
  op.type = type;
  op.operands = {a, b, c};
  add(op, out);
  return true;
}

bool Generator::makeSelect() {
  int a = pickValue([](int) { return true; });
  if (a < 0)
    return false;
  Shape shape = program.ops[a].shape;
  ElementType type = program.ops[a].type;
  int cond = makeCondition(shape);
  if (cond < 0)
    return false;
  int b = makeOperand(shape, type);
  if (rng.chance(0.5))
    std::swap(a, b);
  Range ra = ranges[a], rb = ranges[b];
  Op op;
  op.kind = OpKind::Select;
  op.shape = shape;
  op.type = type;
  op.operands = {cond, a, b};
  add(op, Range{std::min(ra.lo, rb.lo), std::max(ra.hi, rb.hi),
                ra.exact && rb.exact, std::max(ra.depth, rb.depth) + 1});
  return true;
}

bool Generator::makeCast() {
  int x = pickValue([](int) { return true; });
  if (x < 0)
    return false;
  ElementType from = program.ops[x].type;
  ElementType to;
  do
    to = randomType(true);
  while (to == from);
  Op op;
  op.kind = OpKind::Cast;
  op.shape = program.ops[x].shape;
  op.type = to;
  op.operands = {x};
  op.cast = castStyle(from, to);
  add(op, castRange(ranges[x], from, to, op.cast));
  return true;
}
