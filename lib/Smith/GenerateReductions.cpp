//===- GenerateReductions.cpp - Reductions, widenings, softmax ------------===//
//
// The operations of a random program that change a value's shape:
// tile.reduce along an axis (a tile to rows or columns, a vector to a
// scalar), the widening of a scalar, a row or a column to a larger shape
// (splat, expand_dims and broadcast), and softmax along an axis, which
// chains both with elementwise operations as the examples do.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <cmath>
#include <limits>

using namespace mlir::tile;
using namespace mlir::tile::smith;

int64_t Generator::lengthAlong(Shape from, int axis) const {
  switch (from) {
  case Shape::Tile:
    return program.rank == 2 && axis == 0 ? program.blockRows
                                          : program.blockCols;
  case Shape::Rows:
    return program.blockRows;
  case Shape::Cols:
    return program.blockCols;
  case Shape::Scalar:
    return 1;
  case Shape::Lhs:
    return axis == 0 ? program.blockRows : program.dotK;
  case Shape::Rhs:
    return axis == 0 ? program.dotK : program.blockCols;
  }
  llvm_unreachable("unknown shape");
}

int Generator::addReduce(int x, ReduceFn kind, int axis, Shape shape) {
  Op op;
  op.kind = OpKind::Reduce;
  op.type = program.ops[x].type;
  op.operands = {x};
  op.reduce = kind;
  op.axis = axis;
  op.shape = shape;
  Shape from = program.ops[x].shape;
  Range in = ranges[x];
  Range out{in.lo, in.hi, in.exact, in.depth + 1};
  if (kind == ReduceFn::Sum) {
    double n = static_cast<double>(lengthAlong(from, axis));
    out = {std::min(in.lo * n, in.lo), std::max(in.hi * n, in.hi), false,
           in.depth + 1};
    if (isInteger(op.type))
      out = intRange(out.lo, out.hi, op.type, out.depth);
  }
  if (!fits(out.lo, out.hi) ||
      !reserveScratch(reduceScratch(from, axis, op.type)))
    return -1;
  return add(op, out);
}

bool Generator::makeReduce() {
  int x =
      pickValue([&](int i) { return program.ops[i].shape != Shape::Scalar; });
  if (x < 0)
    return false;
  ReduceFn kind = rng.chance(0.55) ? ReduceFn::Sum : ReduceFn::Max;
  Shape from = program.ops[x].shape;
  int axis = 0;
  Shape shape = Shape::Scalar;
  if (from == Shape::Tile && program.rank == 2) {
    axis = rng.chance(0.6) ? 1 : 0;
    shape = axis == 1 ? Shape::Rows : Shape::Cols;
  }
  return addReduce(x, kind, axis, shape) >= 0;
}

int Generator::reduceToScalar(int source) {
  // A rank-2 tile to its rows, then anything to a scalar: sums where they
  // fit, else maxima.
  while (source >= 0 && program.ops[source].shape != Shape::Scalar) {
    bool rows = program.ops[source].shape == Shape::Tile && program.rank == 2;
    int axis = rows ? 1 : 0;
    Shape shape = rows ? Shape::Rows : Shape::Scalar;
    int sum = addReduce(source, ReduceFn::Sum, axis, shape);
    source = sum >= 0 ? sum : addReduce(source, ReduceFn::Max, axis, shape);
  }
  return source;
}

bool Generator::makeExpand() {
  int x = pickValue([&](int i) { return program.ops[i].shape != Shape::Tile; });
  if (x < 0)
    return false;
  Shape from = program.ops[x].shape;
  Op op;
  op.kind = OpKind::Expand;
  op.type = program.ops[x].type;
  op.operands = {x};
  if (from == Shape::Scalar) {
    op.shape = program.rank == 2 ? rng.pick<Shape>({Shape::Tile, Shape::Tile,
                                                    Shape::Rows, Shape::Cols})
                                 : Shape::Tile;
    if (op.shape == Shape::Tile && program.rank == 2 && rng.chance(0.3))
      op.expand = ExpandStyle::ViaVector;
  } else {
    op.shape = Shape::Tile;
  }
  Range out = ranges[x];
  ++out.depth;
  add(op, out);
  return true;
}

/// Softmax along an axis, as the examples compute it: the maximum, the
/// exponentials of the differences, their sum, and the quotient. Its input
/// is a tile made earlier, or a new load whose masked lanes are -inf (so
/// that they never win the maximum and add exp(-inf) = 0 to the sum).
bool Generator::makeSoftmax() {
  int x = -1;
  if (rng.chance(0.4)) {
    int buffer = -1;
    for (auto [index, b] : llvm::enumerate(program.buffers))
      // (Not an 8-bit buffer: its loads read 0 where masked, not -inf.)
      if (!b.isOutput && b.shape == Shape::Tile && b.phase == phase &&
          !isInteger(b.type) && b.storage == Storage::Element)
        buffer = static_cast<int>(index);
    if (buffer >= 0) {
      const Buffer &b = program.buffers[buffer];
      Op load;
      load.kind = OpKind::Load;
      load.shape = Shape::Tile;
      load.type = b.type;
      load.buffer = buffer;
      load.mask = chooseMask(Shape::Tile);
      if (load.mask < 0) {
        program.masks.push_back(Mask{});
        load.mask = static_cast<int>(program.masks.size() - 1);
      }
      load.hasOther = true;
      load.value = -std::numeric_limits<double>::infinity();
      load.addressing = rng.pick<Addressing>(
          {Addressing::Global, Addressing::Global64, Addressing::BlockBase});
      x = add(load, Range{load.value, b.hi, false, 0});
    }
  }
  if (x < 0)
    x = pickValue([&](int i) {
      return program.ops[i].shape == Shape::Tile &&
             !isInteger(program.ops[i].type) &&
             fits(ranges[i].lo, ranges[i].hi);
    });
  if (x < 0)
    return false;
  ElementType type = program.ops[x].type;
  Range in = ranges[x];
  int axis = program.rank == 2 && rng.chance(0.3) ? 0 : program.rank - 1;
  Shape reduced = program.rank == 1 ? Shape::Scalar
                                    : (axis == 1 ? Shape::Rows : Shape::Cols);
  double n = static_cast<double>(lengthAlong(Shape::Tile, axis));
  // Its maximum and its sum (a program with dots keeps count).
  if (!reserveScratch(2 * reduceScratch(Shape::Tile, axis, type)))
    return false;
  auto op = [&](OpKind kind, Shape shape, std::vector<int> operands) {
    Op o;
    o.kind = kind;
    o.shape = shape;
    o.type = type;
    o.operands = std::move(operands);
    o.axis = axis;
    return o;
  };
  auto widen = [&](int value) {
    return add(op(OpKind::Expand, Shape::Tile, {value}), ranges[value]);
  };
  Op max = op(OpKind::Reduce, reduced, {x});
  max.reduce = ReduceFn::Max;
  int m = add(max, Range{in.lo, in.hi, false, in.depth + 1});
  Op sub = op(OpKind::Binary, Shape::Tile, {x, widen(m)});
  sub.binary = BinaryFn::Sub;
  int s = add(sub, Range{in.lo - in.hi, 0, false, in.depth + 2});
  Op exp = op(OpKind::Unary, Shape::Tile, {s});
  exp.unary = UnaryFn::Exp;
  int e = add(exp, Range{std::exp(in.lo - in.hi), 1, false, in.depth + 3});
  Op sum = op(OpKind::Reduce, reduced, {e});
  sum.reduce = ReduceFn::Sum;
  // The maximum's lane adds exp(0) = 1.
  int d = add(sum, Range{1, n, false, in.depth + 4});
  Op quotient = op(OpKind::Binary, Shape::Tile, {e, widen(d)});
  quotient.binary = BinaryFn::Div;
  if (rng.chance(0.5)) {
    // One division per row, then a multiplication per element.
    int one = makeConstant(reduced, type, 1, 1);
    Op inverse = op(OpKind::Binary, reduced, {one, d});
    inverse.binary = BinaryFn::Div;
    int inv = add(inverse, Range{1 / n, 1, false, in.depth + 5});
    quotient.binary = BinaryFn::Mul;
    quotient.operands = {e, widen(inv)};
  }
  add(quotient, Range{0, 1, false, in.depth + 6});
  return true;
}
