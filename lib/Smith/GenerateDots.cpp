//===- GenerateDots.cpp - Matrix products and their operands --------------===//
//
// tile.dot in random programs (rank 2 only). A program has dots or not as
// a second random stream decides (dotRng), so that a program without them
// is drawn exactly as before dots were generated; one with them then takes
// everything else from the main stream. Half of them get tiles for the
// tensor cores (M >= 16, N >= 8, K >= 16), the others keep the geometry
// they were given, mostly too small for them (the GPU uses FMAs there);
// K is the program's (Program.h).
//
// A dot's operands are an Lhs (BM x K) and an Rhs (K x BN) of f16, bf16 or
// f32 (multiplied in TF32, the default, or in full precision): each loaded
// from a buffer of its own, row- or column-major (a transposed operand),
// masked along K or not; or loaded as another type and cast; or computed
// from a load (a function of it, or a sum, difference, product, maximum
// or minimum with a second value); or the same value everywhere; or shared
// with an earlier dot. Its accumulator is zero, a constant, an f32 tile
// made earlier (an earlier dot's result, say) or a new load; its result is
// an f32 tile like any other, for the operations after it and the stores.
// With a column loop, a dot may also accumulate over the loop, tile.dot
// onto an iter_arg, as a matrix multiply's K loop does; a second stream
// (dotRng again) makes some of those the shape of a matmul on Hopper: 64 x
// 32 tiles on 4 warps (a warpgroup), f16 or bf16 operands each loaded whole
// in the loop, which tilegpu-pipeline stages in shared memory and
// tilegpu-warpgroup-dot multiplies with wgmma on sm_90a. Some of the loop's
// dots restart from zeros every few column blocks (a select before the dot,
// which tilegpu-warpgroup-dot makes wgmma's scale-d).
//
// Operand values are small (at most 2 in magnitude where loaded), and a
// dot is made only where K products of them stay well inside the ranges
// the generator keeps (Generate.h). The tiles, warps and types keep within
// what the GPU compiler can lower: registers for the FMA path's operands,
// shared memory for the layout conversions around each dot.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <tuple>

using namespace mlir::tile;
using namespace mlir::tile::smith;

void Generator::chooseDots() {
  Program &p = program;
  // Only dotRng decides whether; a program without dots draws nothing from
  // rng here.
  if (p.rank != 2 || !dotRng.chance(0.75) || !dots)
    return;
  bool tensorCores = rng.chance(0.5);
  // Drawn from dotRng, so that the programs that do not take it are drawn
  // as before.
  warpgroupDots =
      tensorCores && p.columnLoop && p.numWarps <= 4 && dotRng.chance(0.8);
  if (tensorCores) {
    // Tiles for the tensor cores, over as many blocks as before: of at most
    // 2048 elements, whose conversions to and from #mma leave shared memory
    // for the operands' (randomDotType).
    int64_t rows = std::max(p.blockRows, int64_t(16) << rng.range(0, 2));
    int64_t cols = std::max(p.blockCols, int64_t(8) << rng.range(0, 3));
    while (rows * cols > 2048) {
      if (cols > 32 || rows == 16)
        cols /= 2;
      else
        rows /= 2;
    }
    if (warpgroupDots) {
      rows = 64;
      cols = 32;
      p.numWarps = 4;
    }
    if (rows != p.blockRows || cols != p.blockCols) {
      int64_t rowBlocks = p.getRowBlocks(), colBlocks = p.getColBlocks();
      p.blockRows = rows;
      p.blockCols = cols;
      auto extent = [&](int64_t blocks, int64_t size) {
        if (rng.chance(0.3))
          return blocks * size;
        return rng.range((blocks - 1) * size + 1, blocks * size);
      };
      p.rows = extent(rowBlocks, p.blockRows);
      p.cols = extent(colBlocks, p.blockCols);
    }
  }
  p.dotK = tensorCores ? int64_t(16) << rng.weighted({3, 3, 1})
                       : int64_t(1) << rng.weighted({1, 2, 2, 2, 2, 1});
  while (p.dotK > 1 &&
         (p.blockRows * p.dotK > 4096 || p.dotK * p.blockCols > 4096))
    p.dotK /= 2;
  // A K x 32 operand of at least 1024 elements, so that its copy gives
  // each of the 128 threads 8 of its own (tilegpu-pipeline stages it).
  if (warpgroupDots)
    p.dotK = std::max<int64_t>(p.dotK, 32);
  // More warps for large tiles (enlarged blocks, operands), as
  // chooseGeometry gives large blocks, and for dots with many FMAs per
  // thread (where the GPU does not use the tensor cores).
  int64_t tiles = std::max(
      {p.blockRows * p.blockCols, p.blockRows * p.dotK, p.dotK * p.blockCols});
  while ((tiles > 32 * 32 * p.numWarps ||
          p.blockRows * p.blockCols * p.dotK > 32 * 4096 * p.numWarps) &&
         p.numWarps < 32)
    p.numWarps *= 2;
  // Off the tensor cores, each thread holds whole rows of the lhs along K
  // for the rows of the result it holds, and whole columns of the rhs for
  // its columns: at most BM (BN) / warps of them, as the compiler spreads
  // warps over the result's rows (its columns, in a column-major layout),
  // within the compiler's 256 registers. Where no dot of these tiles can
  // use the tensor cores, more warps; otherwise only dots that do, if it
  // takes more.
  auto operandRegisters = [&] {
    return p.dotK * std::max<int64_t>(1, std::max(p.blockRows, p.blockCols) /
                                             p.numWarps);
  };
  if (!onTensorCores(ElementType::F32, DotPrecision::Default))
    while (operandRegisters() > 256 && p.numWarps < 32)
      p.numWarps *= 2;
  fmaFits = operandRegisters() <= 256;

  if (!p.columnLoop) {
    dotsPerPhase[0] = 1 + static_cast<int>(rng.weighted({6, 3, 1}));
    return;
  }
  wantLoopDot = rng.chance(0.7) || warpgroupDots;
  dotsPerPhase[0] =
      static_cast<int>(rng.weighted({wantLoopDot ? 4u : 0u, 4, 1}));
  dotsPerPhase[1] = rng.chance(0.3) ? 1 : 0;
}

void Generator::makeDotsAt(int step, int steps) {
  for (size_t i = 0; i < dotSteps.size();) {
    if (dotSteps[i] != step && step != steps) {
      ++i;
      continue;
    }
    dotSteps.erase(dotSteps.begin() + i);
    // What a failed try made is dead, and removed in the end.
    for (int tries = 0; tries < 3 && !makeDot(); ++tries)
      ;
  }
}

bool Generator::onTensorCores(ElementType type, DotPrecision precision) const {
  // As convert-tile-to-tilegpu decides: whole m16n8k16 instructions (k8
  // for TF32).
  bool tf32 = type == ElementType::F32 && precision != DotPrecision::IEEE;
  if (type == ElementType::F32 && !tf32)
    return false;
  return program.blockRows >= 16 && program.blockCols >= 8 &&
         program.dotK >= (tf32 ? 8 : 16);
}

int64_t Generator::dotScratch(ElementType type, DotPrecision precision,
                              bool constantAcc, int64_t lhsBytes,
                              int64_t rhsBytes) const {
  // As the compiler counts it (getSharedMemoryBytes), each conversion
  // apart: the operands to their dot-operand layouts; on the tensor cores,
  // the accumulator to #mma (not a constant, which is made there) and the
  // result back.
  int64_t bytes = lhsBytes + rhsBytes;
  if (onTensorCores(type, precision))
    bytes += conversionScratch(program.blockRows, program.blockCols, 4) *
             (constantAcc ? 1 : 2);
  return bytes;
}

int64_t Generator::conversionScratch(int64_t rows, int64_t cols, int64_t size) {
  // Rows padded by 16 bytes where they are a multiple of 64
  // (getConversionScratchStrides).
  int64_t row = cols * size;
  return rows * (row % 64 == 0 ? row + 16 : row);
}

int64_t Generator::operandScratch(int operand) const {
  const Op &op = program.ops[operand];
  std::vector<int64_t> dims =
      op.shape == Shape::Lhs
          ? std::vector<int64_t>{program.blockRows, program.dotK}
          : std::vector<int64_t>{program.dotK, program.blockCols};
  int64_t size = op.type == ElementType::F32 ? 4 : 2;
  switch (op.kind) {
  case OpKind::Constant:
  case OpKind::Expand:
    return 0;
  case OpKind::Cast:
    return conversionScratch(dims[0], dims[1], 4);
  case OpKind::Binary:
    return 2 * conversionScratch(dims[0], dims[1], size);
  default:
    return conversionScratch(dims[0], dims[1], size);
  }
}

bool Generator::reserveScratch(int64_t bytes) {
  if (!program.dotK)
    return true;
  if (scratchUsed + bytes > kScratch)
    return false;
  scratchUsed += bytes;
  return true;
}

int64_t Generator::reduceScratch(Shape from, int axis, ElementType type) const {
  // The partials of every thread (32 per warp), one for each element of
  // the source it holds along the kept dimension, counting what a thread
  // holds again (replicated): rows spread over the warps and columns over
  // the lanes, or the other way round (a column-major layout). A guess on
  // the safe side of the compiler's count.
  const Program &p = program;
  int64_t size = type == ElementType::I64 ? 8 : 4;
  int64_t warps = p.numWarps, threads = 32 * warps;
  auto spread = [](int64_t length, int64_t over) {
    return std::max<int64_t>(1, length / over);
  };
  if (from != Shape::Tile || p.rank != 2)
    return threads * spread(lengthAlong(from, axis), 32) * size;
  return threads * size *
         std::max(spread(p.blockRows, warps) * spread(p.blockCols, 32),
                  spread(p.blockCols, warps) * spread(p.blockRows, 32));
}

bool Generator::randomDotType(ElementType &type, DotPrecision &precision,
                              bool constantAcc) {
  // Where FMAs would take too many registers, the tensor cores can (TF32
  // at least: chooseDots saw to it).
  for (int tries = 0; tries < 20; ++tries) {
    precision = DotPrecision::Default;
    switch (warpgroupDots ? rng.range(0, 1) : rng.weighted({3, 3, 3, 2})) {
    case 0:
      type = ElementType::F16;
      break;
    case 1:
      type = ElementType::BF16;
      break;
    case 2:
      type = ElementType::F32;
      if (rng.chance(0.3))
        precision = DotPrecision::TF32;
      break;
    default:
      type = ElementType::F32;
      precision = DotPrecision::IEEE;
      break;
    }
    int64_t size = type == ElementType::F32 ? 4 : 2;
    int64_t least = dotScratch(type, precision, constantAcc,
                               program.blockRows * program.dotK * size,
                               program.dotK * program.blockCols * size);
    if ((fmaFits || onTensorCores(type, precision)) &&
        scratchUsed + least <= kScratch)
      return true;
  }
  return false;
}

Range Generator::productRange(int lhs, int rhs) const {
  const Range &a = ranges[lhs], &b = ranges[rhs];
  std::array<double, 4> products = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo,
                                    a.hi * b.hi};
  double lo = *std::min_element(products.begin(), products.end());
  double hi = *std::max_element(products.begin(), products.end());
  double k = static_cast<double>(program.dotK);
  // TF32 moves each input by up to 2^-11 of it.
  double slack = k * std::max(std::fabs(lo), std::fabs(hi)) * 0x1p-9;
  return Range{k * lo - slack, k * hi + slack, false,
               std::max(a.depth, b.depth) + 1};
}

bool Generator::makeDot() {
  size_t accKind = rng.weighted({4, 1, 3, 2});
  ElementType type;
  DotPrecision precision;
  if (!randomDotType(type, precision, /*constantAcc=*/accKind < 2))
    return false;
  int lhs, rhs;
  if (!makeDotOperands(type, lhs, rhs) ||
      !reserveScratch(dotScratch(type, precision, accKind < 2,
                                 operandScratch(lhs), operandScratch(rhs))))
    return false;
  int acc;
  switch (accKind) {
  case 0: {
    Op zero;
    zero.kind = OpKind::Constant;
    zero.shape = Shape::Tile;
    zero.type = ElementType::F32;
    acc = add(zero, Range{0, 0, true, 0});
    break;
  }
  case 1:
    acc = makeConstant(Shape::Tile, ElementType::F32, -2, 2);
    break;
  case 2:
    acc = makeOperand(Shape::Tile, ElementType::F32);
    break;
  default:
    acc = loadBuffer(
        randomLayout(Shape::Tile, ElementType::F32, /*isOutput=*/false));
    break;
  }
  Range products = productRange(lhs, rhs), c = ranges[acc];
  Range out{c.lo + products.lo, c.hi + products.hi, false,
            std::max(c.depth, products.depth) + 1};
  if (!fits(out.lo, out.hi))
    return false;
  Op op;
  op.kind = OpKind::Dot;
  op.shape = Shape::Tile;
  op.type = ElementType::F32;
  op.operands = {lhs, rhs, acc};
  op.precision = precision;
  add(op, out);
  return true;
}

bool Generator::makeDotOperands(ElementType type, int &lhs, int &rhs) {
  lhs = makeDotOperand(Shape::Lhs, type);
  rhs = makeDotOperand(Shape::Rhs, type);
  Range products = productRange(lhs, rhs);
  // Room for the accumulator, and for a few column blocks of a loop.
  return std::max(std::fabs(products.lo), std::fabs(products.hi)) <= kLimit / 8;
}

int Generator::loadDotOperand(Shape shape, ElementType type) {
  Buffer buffer = randomLayout(shape, type, /*isOutput=*/false);
  // Row- or column-major (the operand transposed) as often.
  buffer.columnMajor = rng.chance(0.5);
  static const std::pair<double, double> intervals[] = {
      {-1, 1}, {-2, 2}, {0, 1}, {-0.5, 0.5}, {0.5, 2}, {-2, 1}, {0.25, 1}};
  std::tie(buffer.lo, buffer.hi) =
      intervals[rng.range(0, std::size(intervals) - 1)];
  return loadBuffer(buffer);
}

int Generator::makeDotOperand(Shape shape, ElementType type) {
  std::vector<int> earlier;
  for (size_t i = 0; i < program.ops.size(); ++i)
    if (program.ops[i].shape == shape && program.ops[i].type == type &&
        program.ops[i].phase == phase && isFloatValue(i))
      earlier.push_back(static_cast<int>(i));
  if (warpgroupDots)
    return loadDotOperand(shape, type);
  if (!earlier.empty() && rng.chance(0.2))
    return rng.pick<int>(earlier);
  auto make = [&](OpKind kind, std::vector<int> operands) {
    Op op;
    op.kind = kind;
    op.shape = shape;
    op.type = type;
    op.operands = std::move(operands);
    return op;
  };
  switch (rng.weighted({6, 2, 3, 1})) {
  case 0:
    return loadDotOperand(shape, type);
  case 1: {
    // Loaded as another float type, then cast.
    std::vector<ElementType> others;
    for (ElementType t :
         {ElementType::F32, ElementType::F16, ElementType::BF16})
      if (t != type)
        others.push_back(t);
    ElementType from = rng.pick<ElementType>(others);
    int x = loadDotOperand(shape, from);
    Op op = make(OpKind::Cast, {x});
    op.cast = castStyle(from, type);
    return add(op, castRange(ranges[x], from, type, op.cast));
  }
  case 2: {
    int x = loadDotOperand(shape, type);
    Range in = ranges[x];
    if (rng.chance(0.4)) {
      // A function of it.
      std::vector<UnaryFn> fns = {UnaryFn::Neg, UnaryFn::Abs, UnaryFn::Tanh,
                                  UnaryFn::Sin, UnaryFn::Cos};
      if (in.hi <= 1)
        fns.push_back(UnaryFn::Exp);
      Op op = make(OpKind::Unary, {x});
      op.unary = rng.pick<UnaryFn>(fns);
      Range out{-1, 1, false, in.depth + 1};
      switch (op.unary) {
      case UnaryFn::Neg:
        out = {-in.hi, -in.lo, in.exact, in.depth + 1};
        break;
      case UnaryFn::Abs:
        out = {in.lo >= 0 ? in.lo : 0, std::max(-in.lo, in.hi), in.exact,
               in.depth + 1};
        break;
      case UnaryFn::Tanh:
        out.lo = std::tanh(in.lo), out.hi = std::tanh(in.hi);
        break;
      case UnaryFn::Exp:
        out.lo = std::exp(in.lo), out.hi = std::exp(in.hi);
        break;
      default:
        break;
      }
      return add(op, out);
    }
    // With a second value: another load, a constant, or a scalar's splat.
    int y = -1;
    switch (rng.weighted({2, 1, 1})) {
    case 0:
      y = loadDotOperand(shape, type);
      break;
    case 1:
      y = makeConstant(shape, type, -2, 2);
      break;
    default: {
      int scalar = pickValue([&](int i) {
        return program.ops[i].shape == Shape::Scalar &&
               program.ops[i].type == type && ranges[i].lo >= -2 &&
               ranges[i].hi <= 2;
      });
      y = scalar >= 0 ? add(make(OpKind::Expand, {scalar}), ranges[scalar])
                      : makeConstant(shape, type, -2, 2);
      break;
    }
    }
    Op op = make(OpKind::Binary, {x, y});
    op.binary = rng.pick<BinaryFn>({BinaryFn::Add, BinaryFn::Sub, BinaryFn::Mul,
                                    BinaryFn::Maximum, BinaryFn::Minimum});
    const Range &a = ranges[x], &b = ranges[y];
    Range out{0, 0, false, std::max(a.depth, b.depth) + 1};
    switch (op.binary) {
    case BinaryFn::Add:
      out.lo = a.lo + b.lo, out.hi = a.hi + b.hi;
      break;
    case BinaryFn::Sub:
      out.lo = a.lo - b.hi, out.hi = a.hi - b.lo;
      break;
    case BinaryFn::Mul: {
      std::array<double, 4> p = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo,
                                 a.hi * b.hi};
      out.lo = *std::min_element(p.begin(), p.end());
      out.hi = *std::max_element(p.begin(), p.end());
      break;
    }
    case BinaryFn::Maximum:
      out = {std::max(a.lo, b.lo), std::max(a.hi, b.hi), a.exact && b.exact,
             out.depth};
      break;
    default:
      out = {std::min(a.lo, b.lo), std::min(a.hi, b.hi), a.exact && b.exact,
             out.depth};
      break;
    }
    return add(op, out);
  }
  default:
    // The same value everywhere.
    return makeConstant(shape, type, -2, 2);
  }
}

void Generator::prepareLoopDot() {
  // Its accumulator starts as a constant, made in #mma.
  if (!wantLoopDot ||
      !randomDotType(loopDotType, loopDotPrecision, /*constantAcc=*/true))
    return;
  double blocks = static_cast<double>(program.getColBlocks());
  for (int tries = 0; tries < 3; ++tries) {
    int lhs, rhs;
    if (!makeDotOperands(loopDotType, lhs, rhs))
      continue;
    Range products = productRange(lhs, rhs);
    if (!fits(2 + blocks * products.lo, 2 + blocks * products.hi) ||
        !fits(blocks * products.lo - 2, blocks * products.hi - 2) ||
        !reserveScratch(dotScratch(loopDotType, loopDotPrecision,
                                   /*constantAcc=*/true, operandScratch(lhs),
                                   operandScratch(rhs))))
      continue;
    loopDotLhs = lhs;
    loopDotRhs = rhs;
    return;
  }
}

void Generator::addLoopDot() {
  if (loopDotLhs < 0)
    return;
  Op op;
  op.kind = OpKind::Accumulate;
  op.shape = Shape::Tile;
  op.type = ElementType::F32;
  op.operands = {loopDotLhs, loopDotRhs};
  op.reduce = ReduceFn::Dot;
  op.precision = loopDotPrecision;
  op.value = rng.chance(0.7) ? 0 : niceConstant(-2, 2, ElementType::F32);
  // Some restart from zeros every 1 to 3 column blocks, at least once past
  // the first (drawn from dotRng, after everything else, so that the rest
  // of the program is drawn as before).
  int64_t colBlocks = program.getColBlocks();
  if (colBlocks > 1 && dotRng.chance(0.3)) {
    op.value = 0;
    op.restart =
        static_cast<int>(dotRng.range(1, std::min<int64_t>(3, colBlocks - 1)));
  }
  // Each column block adds K products.
  Range products = productRange(loopDotLhs, loopDotRhs);
  double blocks = static_cast<double>(program.getColBlocks());
  add(op, Range{op.value + blocks * products.lo,
                op.value + blocks * products.hi, false, products.depth + 1});
}

void Generator::preferDots(std::vector<int> &values) const {
  std::vector<bool> dot(program.ops.size(), false);
  bool any = false;
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const Op &op = program.ops[i];
    dot[i] = op.kind == OpKind::Dot ||
             (op.kind == OpKind::Accumulate && op.reduce == ReduceFn::Dot);
    for (int operand : op.operands)
      dot[i] = dot[i] || dot[operand];
    any = any || dot[i];
  }
  if (any)
    std::stable_partition(values.begin(), values.end(),
                          [&](int value) { return value >= 0 && dot[value]; });
}
