//===- Generate.cpp - Random programs for differential testing ------------===//
//
// A program is made in steps: the geometry (rank, block and data sizes,
// grid, warps, a column loop or not), the inputs and their loads, a random
// sequence of operations on the values made so far, then the outputs: the
// values nothing uses yet, cast where the buffer's type differs, stored
// under masks. With a column loop, some values are accumulated over the
// column blocks, and a second, shorter sequence computes on the row block
// after the loop, with outputs of its own. Every step draws from one
// Random, so a seed gives one program.
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Generate.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace mlir::tile;
using namespace mlir::tile::smith;

namespace {

/// Draws from std::mt19937_64 with arithmetic of its own, so that a seed
/// gives the same numbers with every C++ library.
class Random {
public:
  explicit Random(uint64_t seed) : engine(seed) {}

  /// Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(engine() % span);
  }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(engine() >> 11) * 0x1p-53; }
  bool chance(double p) { return uniform() < p; }
  /// An index drawn with the given weights.
  size_t weighted(llvm::ArrayRef<unsigned> weights) {
    unsigned total = 0;
    for (unsigned weight : weights)
      total += weight;
    int64_t draw = range(0, total - 1);
    for (auto [index, weight] : llvm::enumerate(weights)) {
      if (draw < weight)
        return index;
      draw -= weight;
    }
    return weights.size() - 1;
  }
  template <typename T> T pick(llvm::ArrayRef<T> values) {
    return values[range(0, values.size() - 1)];
  }

private:
  std::mt19937_64 engine;
};

/// What the generator knows of a value: bounds of every lane (the exact
/// values, before any rounding), whether the value is computed without
/// rounding, and the length of the longest chain of operations behind it.
struct Range {
  double lo = 0, hi = 0;
  bool exact = false;
  int depth = 0;
};

/// Magnitudes stay below this: far from f16's 65504.
constexpr double kLimit = 4096;

/// `value` rounded to `bits` significant bits.
double roundToBits(double value, int bits) {
  if (value == 0 || !std::isfinite(value))
    return value;
  int exponent;
  double mantissa = std::frexp(value, &exponent);
  return std::ldexp(std::nearbyint(std::ldexp(mantissa, bits)),
                    exponent - bits);
}

class Generator {
public:
  explicit Generator(uint64_t seed) : rng(seed) { program.seed = seed; }
  Program generate();

private:
  void chooseGeometry();
  void chooseInputs();
  /// Stores some of the values nothing uses yet (`exclude` aside).
  void chooseOutputs(int least, int most, llvm::ArrayRef<int> exclude = {});
  void addRandomOps(int steps);
  bool addRandomOp();
  /// The values of this phase that nothing uses, deepest first.
  std::vector<int> sinks();
  void addAccumulator(int source);
  /// A load from a new input buffer of `shape`.
  int addLoad(Shape shape);

  /// A random element type; integers only where `integers`.
  ElementType randomType(bool integers = false);
  CastStyle castStyle(ElementType from, ElementType to);
  /// The range of a cast's result; integer ranges that may wrap are the
  /// type's whole range.
  Range castRange(const Range &in, ElementType from, ElementType to,
                  CastStyle style);
  Range fullRange(ElementType type, int depth);
  Range intRange(double lo, double hi, ElementType type, int depth);
  bool makeIntUnary(int x);
  bool makeIntBinary(int a);
  Buffer randomLayout(Shape shape, ElementType type, bool isOutput);
  int chooseMask(Shape shape);
  double niceConstant(double lo, double hi, ElementType type);

  int add(Op op, Range range);
  /// A float value satisfying `filter`, preferring recent ones; -1 if none.
  template <typename F> int pickValue(F filter);
  /// A value of `shape` and `type`: made earlier, widened from a smaller
  /// shape, cast, or a new constant.
  int makeOperand(Shape shape, ElementType type);
  int makeConstant(Shape shape, ElementType type, double lo, double hi);
  int makeCondition(Shape shape, int depth = 0);

  bool makeUnary();
  bool makeBinary();
  bool makeFma();
  bool makeSelect();
  bool makeCast();
  bool makeReduce();
  bool makeExpand();
  bool makeSoftmax();

  bool fits(double lo, double hi) const {
    return std::isfinite(lo) && std::isfinite(hi) && std::fabs(lo) <= kLimit &&
           std::fabs(hi) <= kLimit;
  }
  int64_t lengthAlong(Shape from, int axis) const;
  bool isFloatValue(int index) const {
    return program.ops[index].hasResult() && !program.ops[index].isCondition();
  }

  Random rng;
  Program program;
  std::vector<Range> ranges;
  /// The phase operations are made in (Program.h: column loops).
  int phase = 0;
};

} // namespace

Program Generator::generate() {
  chooseGeometry();
  chooseInputs();
  addRandomOps(static_cast<int>(rng.range(2, rng.chance(0.3) ? 28 : 14)));
  if (!program.columnLoop) {
    chooseOutputs(1, 3);
  } else {
    // Values summed or maxed over the column blocks; a block's own values
    // may be stored too. Then, after the loop, the accumulators (and loads
    // of the row block) feed operations and stores of their own.
    std::vector<int> sources = sinks();
    if (sources.empty())
      sources.push_back(pickValue([](int) { return true; }));
    sources.resize(std::min<size_t>(sources.size(), rng.range(1, 3)));
    chooseOutputs(0, 1, sources);
    phase = 1;
    for (int source : sources)
      if (source >= 0)
        addAccumulator(source);
    if (rng.chance(0.4))
      addLoad(Shape::Tile);
    addRandomOps(static_cast<int>(rng.range(0, 8)));
    chooseOutputs(1, 2);
  }
  removeDeadOps(program);
  return program;
}

void Generator::addRandomOps(int steps) {
  for (int step = 0, attempts = 0; step < steps && attempts < 200; ++attempts)
    if (addRandomOp())
      ++step;
}

std::vector<int> Generator::sinks() {
  std::vector<bool> used(program.ops.size(), false);
  for (const Op &op : program.ops)
    for (int operand : op.operands)
      used[operand] = true;
  std::vector<int> result;
  for (size_t i = 0; i < program.ops.size(); ++i)
    if (!used[i] && isFloatValue(i) && program.ops[i].phase == phase &&
        program.ops[i].kind != OpKind::Param &&
        program.ops[i].kind != OpKind::Constant)
      result.push_back(static_cast<int>(i));
  std::stable_sort(result.begin(), result.end(), [&](int a, int b) {
    return ranges[a].depth > ranges[b].depth;
  });
  return result;
}

void Generator::addAccumulator(int source) {
  const Op &x = program.ops[source];
  Range in = ranges[source];
  Op op;
  op.kind = OpKind::Accumulate;
  op.shape = x.shape;
  op.type = x.type;
  op.operands = {source};
  op.reduce = rng.chance(0.6) ? ReduceFn::Sum : ReduceFn::Max;
  double blocks = static_cast<double>(program.getColBlocks());
  Range out{0, 0, false, in.depth + 1};
  bool integer = isInteger(x.type);
  if (op.reduce == ReduceFn::Sum) {
    op.value = rng.chance(0.7) ? 0 : niceConstant(-2, 2, x.type);
    out.lo = op.value + std::min(in.lo * blocks, in.lo);
    out.hi = op.value + std::max(in.hi * blocks, in.hi);
    if (integer)
      out = intRange(out.lo, out.hi, x.type, out.depth);
    else if (!fits(out.lo, out.hi))
      op.reduce = ReduceFn::Max;
  }
  if (op.reduce == ReduceFn::Max) {
    // Start from the lowest value: -inf, or the integer type's minimum.
    double lowest = integer ? getMinValue(x.type)
                            : -std::numeric_limits<double>::infinity();
    op.value = rng.chance(0.5) ? lowest : niceConstant(-2, 2, x.type);
    out = {std::max(op.value, in.lo), std::max(op.value, in.hi), in.exact,
           in.depth + 1};
  }
  add(op, out);
}

//===----------------------------------------------------------------------===//
// Geometry, inputs, outputs
//===----------------------------------------------------------------------===//

void Generator::chooseGeometry() {
  Program &p = program;
  p.rank = rng.chance(0.45) ? 1 : 2;
  int64_t rowBlocks = 1, colBlocks;
  if (p.rank == 1) {
    static const unsigned logWeights[] = {1, 1, 2, 2, 3, 3, 4,
                                          4, 4, 3, 2, 1, 1, 1};
    p.blockRows = 1;
    p.blockCols = int64_t(1) << rng.weighted(logWeights);
    colBlocks = rng.range(1, 6);
  } else {
    do {
      p.blockRows = int64_t(1) << rng.range(0, 6);
      p.blockCols = int64_t(1) << rng.range(0, 9);
    } while (p.blockRows * p.blockCols > (rng.chance(0.2) ? 8192 : 4096) ||
             (p.blockRows * p.blockCols < 4 && !rng.chance(0.2)));
    rowBlocks = rng.range(1, 4);
    colBlocks = rng.range(1, 3);
  }
  p.columnLoop = rng.chance(0.25);
  if (p.columnLoop && p.rank == 2)
    colBlocks = rng.range(1, 4);
  auto extent = [&](int64_t blocks, int64_t size) {
    if (rng.chance(0.3))
      return blocks * size;
    return rng.range((blocks - 1) * size + 1, blocks * size);
  };
  p.cols = extent(colBlocks, p.blockCols);
  p.rows = p.rank == 2 ? extent(rowBlocks, p.blockRows) : 1;

  if (p.rank == 1 || p.columnLoop)
    p.grid = rng.chance(0.5) ? GridKind::Blocks : GridKind::Persistent;
  else
    p.grid =
        std::array<GridKind, 3>{GridKind::Blocks, GridKind::Blocks2D,
                                GridKind::Persistent}[rng.weighted({3, 3, 4})];
  p.programs = rng.range(1, p.getNumWorkItems() + 2);
  p.numStages = std::array<int64_t, 4>{0, 1, 2, 3}[rng.weighted({1, 1, 3, 1})];
  if (p.columnLoop)
    p.innerStages =
        std::array<int64_t, 4>{0, 1, 2, 3}[rng.weighted({1, 1, 3, 1})];
  p.numWarps = int64_t(1) << rng.weighted({4, 4, 8, 4, 2, 1});
  // Few elements of a tile per thread, as real kernels have: more warps for
  // larger tiles (a tile per thread is a register each, and ptxas takes
  // long on kernels that spill).
  int64_t perThread = rng.chance(0.1) ? 64 : 32;
  while (p.blockRows * p.blockCols > 32 * p.numWarps * perThread &&
         p.numWarps < 32)
    p.numWarps *= 2;
  p.sizesAreArgs = rng.chance(0.7);
  p.specials = rng.chance(0.12);
}

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

Buffer Generator::randomLayout(Shape shape, ElementType type, bool isOutput) {
  Buffer buffer;
  buffer.isOutput = isOutput;
  buffer.type = type;
  buffer.shape = shape;
  buffer.phase = phase;
  switch (rng.weighted({4, 2, 4})) {
  case 0:
    buffer.offset = 0;
    break;
  case 1:
    buffer.offset = 16 * rng.range(1, 4);
    break;
  default:
    buffer.offset = rng.range(1, 40);
    break;
  }
  buffer.columnMajor = program.rank == 2 && rng.chance(0.15);
  buffer.innerStride = rng.chance(0.85) ? 1 : rng.range(2, 3);
  buffer.rowPad = rng.chance(0.5) ? 0 : rng.range(1, 20);
  buffer.alignRows = rng.chance(0.35);
  buffer.tailPad = rng.range(0, 8);
  buffer.layoutIsArgs = rng.chance(0.5);
  buffer.pointerHint = rng.chance(0.6);
  static const std::pair<double, double> intervals[] = {
      {-1, 1}, {-2, 2}, {-4, 4},     {0, 1},    {0.5, 2},
      {1, 4},  {-8, 8}, {-0.5, 0.5}, {0.25, 4}, {-3, 1}};
  auto [lo, hi] = intervals[rng.range(0, std::size(intervals) - 1)];
  if (isInteger(type)) {
    static const std::pair<double, double> integers[] = {
        {-100, 100}, {0, 1000}, {1, 64}, {-1048576, 1048576}, {-8, 8}};
    std::tie(lo, hi) = integers[rng.range(0, std::size(integers) - 1)];
    if (rng.chance(0.25))
      lo = getMinValue(type), hi = getMaxValue(type);
  }
  buffer.lo = lo;
  buffer.hi = hi;
  return buffer;
}

int Generator::chooseMask(Shape shape) {
  Program &p = program;
  // After the column loop, accesses see the row block's first column block.
  int64_t cols = phase == 1 ? std::min(p.cols, p.blockCols) : p.cols;
  int64_t colBlocks = phase == 1 ? 1 : p.getColBlocks();
  bool exact = (p.rows % p.blockRows == 0 || shape == Shape::Cols) &&
               (cols % p.blockCols == 0 || shape == Shape::Rows);
  if (shape == Shape::Scalar ? rng.chance(0.6) : exact && rng.chance(0.35))
    return -1;
  // The indices a cut compares: the data's rows and columns, or the row
  // and column blocks for shapes without them.
  bool elementRows = shape == Shape::Tile || shape == Shape::Rows;
  bool elementCols = shape == Shape::Tile || shape == Shape::Cols;
  int64_t rowExtent = elementRows ? p.rows : p.getRowBlocks();
  int64_t colExtent = elementCols ? cols : colBlocks;
  int64_t rowStep = elementRows ? p.blockRows : 1;
  int64_t colStep = elementCols ? p.blockCols : 1;
  Mask mask;
  if (shape == Shape::Scalar || rng.chance(0.5)) {
    std::vector<CutKind> cuts = {CutKind::ColsBelow, CutKind::ColsFrom};
    if (p.rank == 2)
      cuts.insert(cuts.end(), {CutKind::RowsBelow, CutKind::Diagonal});
    mask.cut = rng.pick<CutKind>(cuts);
    switch (mask.cut) {
    case CutKind::None:
      break;
    case CutKind::ColsBelow:
      mask.bound = std::max<int64_t>(1, colExtent - rng.range(0, colStep));
      break;
    case CutKind::RowsBelow:
      mask.bound = std::max<int64_t>(1, rowExtent - rng.range(0, rowStep));
      break;
    case CutKind::ColsFrom:
      mask.bound = rng.range(0, colExtent - 1);
      break;
    case CutKind::Diagonal:
      mask.bound = rng.range(1 - rowExtent, colStep);
      break;
    }
    mask.boundIsArg = rng.chance(0.5);
  }
  if (mask.cut == CutKind::None) {
    for (auto [index, existing] : llvm::enumerate(p.masks))
      if (existing.cut == CutKind::None)
        return static_cast<int>(index);
  }
  p.masks.push_back(mask);
  return static_cast<int>(p.masks.size() - 1);
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

void Generator::chooseInputs() {
  int inputs = static_cast<int>(rng.range(1, 3));
  for (int i = 0; i < inputs; ++i) {
    Shape shape = Shape::Tile;
    if (program.rank == 2)
      shape = std::array<Shape, 4>{Shape::Tile, Shape::Rows, Shape::Cols,
                                   Shape::Scalar}[rng.weighted({14, 2, 2, 2})];
    else if (rng.chance(0.15))
      shape = Shape::Scalar;
    int load = addLoad(shape);
    if (rng.chance(0.2)) {
      // A second load of the buffer, masked differently.
      Op again = program.ops[load];
      again.mask = chooseMask(shape);
      again.hasOther = again.mask >= 0 && again.hasOther;
      Range range = ranges[load];
      if (again.mask < 0)
        again.value = 0;
      add(again, range);
    }
  }
  int params = static_cast<int>(rng.weighted({5, 3, 1}));
  for (int i = 0; i < params; ++i) {
    Op op;
    op.kind = OpKind::Param;
    op.shape = Shape::Scalar;
    op.type = randomType(true);
    op.value = niceConstant(-2, 2, op.type);
    add(op, Range{op.value, op.value, true, 0});
  }
}

int Generator::addLoad(Shape shape) {
  Buffer buffer = randomLayout(shape, randomType(true), /*isOutput=*/false);
  buffer.lo = roundToBits(buffer.lo, getPrecision(buffer.type));
  buffer.hi = roundToBits(buffer.hi, getPrecision(buffer.type));
  program.buffers.push_back(buffer);
  Op op;
  op.kind = OpKind::Load;
  op.shape = shape;
  op.type = buffer.type;
  op.buffer = static_cast<int>(program.buffers.size() - 1);
  op.mask = chooseMask(shape);
  op.addressing =
      std::array<Addressing, 3>{Addressing::Global, Addressing::Global64,
                                Addressing::BlockBase}[rng.weighted({4, 1, 3})];
  Range range{buffer.lo, buffer.hi, true, 0};
  if (op.mask >= 0) {
    op.hasOther = rng.chance(0.75);
    op.value =
        op.hasOther ? niceConstant(buffer.lo, buffer.hi, buffer.type) : 0;
    range.lo = std::min(range.lo, op.value);
    range.hi = std::max(range.hi, op.value);
  }
  return add(op, range);
}

void Generator::chooseOutputs(int least, int most,
                              llvm::ArrayRef<int> exclude) {
  std::vector<int> values;
  for (int value : sinks())
    if (!llvm::is_contained(exclude, value))
      values.push_back(value);
  int outputs = static_cast<int>(rng.range(least, most));
  if (values.empty() && outputs > 0) {
    int any = pickValue([&](int i) { return !llvm::is_contained(exclude, i); });
    if (any >= 0)
      values.push_back(any);
  }
  if (static_cast<int>(values.size()) > outputs)
    values.resize(outputs);
  for (int value : values) {
    ElementType type =
        rng.chance(0.6) ? program.ops[value].type : randomType(true);
    Shape shape = program.ops[value].shape;
    if (type != program.ops[value].type) {
      Op cast;
      cast.kind = OpKind::Cast;
      cast.shape = shape;
      cast.type = type;
      cast.operands = {value};
      ElementType from = program.ops[value].type;
      cast.cast = castStyle(from, type);
      value = add(cast, castRange(ranges[value], from, type, cast.cast));
    }
    program.buffers.push_back(randomLayout(shape, type, /*isOutput=*/true));
    Op store;
    store.kind = OpKind::Store;
    store.shape = shape;
    store.type = type;
    store.operands = {value};
    store.buffer = static_cast<int>(program.buffers.size() - 1);
    store.mask = chooseMask(shape);
    store.addressing = std::array<Addressing, 3>{
        Addressing::Global, Addressing::Global64,
        Addressing::BlockBase}[rng.weighted({4, 1, 3})];
    add(store, Range{});
  }
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

template <typename F> int Generator::pickValue(F filter) {
  std::vector<int> candidates;
  for (size_t i = 0; i < program.ops.size(); ++i)
    if (isFloatValue(i) && program.ops[i].phase == phase &&
        filter(static_cast<int>(i)))
      candidates.push_back(static_cast<int>(i));
  if (candidates.empty())
    return -1;
  if (candidates.size() > 3 && rng.chance(0.6))
    return candidates[rng.range(candidates.size() - 3, candidates.size() - 1)];
  return rng.pick<int>(candidates);
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
  }
  llvm_unreachable("unknown shape");
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

bool Generator::addRandomOp() {
  switch (rng.weighted({25, 30, 3, 7, 6, 10, 5, 2, 3})) {
  case 0:
    return makeUnary();
  case 1:
    return makeBinary();
  case 2:
    return makeFma();
  case 3:
    return makeSelect();
  case 4:
    return makeCast();
  case 5:
    return makeReduce();
  case 6:
    return makeExpand();
  case 7: {
    Shape shape = program.rank == 2
                      ? rng.pick<Shape>({Shape::Tile, Shape::Rows, Shape::Cols,
                                         Shape::Scalar})
                      : rng.pick<Shape>({Shape::Tile, Shape::Scalar});
    ElementType type = randomType(true);
    makeConstant(shape, type, isInteger(type) ? -1000 : -4,
                 isInteger(type) ? 1000 : 4);
    return true;
  }
  default:
    return makeSoftmax();
  }
}

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
      b = makeConstant(shape, type, rng.chance(0.3) ? -magnitude : magnitude,
                       rng.chance(0.3) ? -magnitude : magnitude);
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

bool Generator::makeReduce() {
  int x =
      pickValue([&](int i) { return program.ops[i].shape != Shape::Scalar; });
  if (x < 0)
    return false;
  Op op;
  op.kind = OpKind::Reduce;
  op.type = program.ops[x].type;
  op.operands = {x};
  op.reduce = rng.chance(0.55) ? ReduceFn::Sum : ReduceFn::Max;
  Shape from = program.ops[x].shape;
  if (from == Shape::Tile && program.rank == 2) {
    op.axis = rng.chance(0.6) ? 1 : 0;
    op.shape = op.axis == 1 ? Shape::Rows : Shape::Cols;
  } else {
    op.axis = 0;
    op.shape = Shape::Scalar;
  }
  Range in = ranges[x];
  Range out{in.lo, in.hi, in.exact, in.depth + 1};
  if (op.reduce == ReduceFn::Sum) {
    double n = static_cast<double>(lengthAlong(from, op.axis));
    out = {std::min(in.lo * n, in.lo), std::max(in.hi * n, in.hi), false,
           in.depth + 1};
    if (isInteger(op.type))
      out = intRange(out.lo, out.hi, op.type, out.depth);
  }
  if (!fits(out.lo, out.hi))
    return false;
  add(op, out);
  return true;
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
      if (!b.isOutput && b.shape == Shape::Tile && b.phase == phase &&
          !isInteger(b.type))
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

Program smith::generateProgram(uint64_t seed) {
  return Generator(seed).generate();
}
