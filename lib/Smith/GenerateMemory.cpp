//===- GenerateMemory.cpp - Geometry, buffers, masks, loads, stores -------===//
//
// The parts of a random program that decide where data lives and how it
// is reached: the geometry (rank, block and data sizes, grid, warps, a
// column loop or not), each buffer's layout and values, the masks of
// accesses, and the loads of the inputs and the stores of the outputs
// (cast first where the output's type differs from its value's).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <tuple>

using namespace mlir::tile;
using namespace mlir::tile::smith;

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
  bool exact =
      (p.rows % p.blockRows == 0 || shape == Shape::Cols ||
       shape == Shape::Rhs) &&
      (cols % p.blockCols == 0 || shape == Shape::Rows || isDotOperand(shape));
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
  // A dot's operands: along K, the column block's slice (Program.h).
  if (shape == Shape::Lhs) {
    rowExtent = p.rows, rowStep = p.blockRows;
    colExtent = colBlocks * p.dotK, colStep = p.dotK;
  } else if (shape == Shape::Rhs) {
    rowExtent = colBlocks * p.dotK, rowStep = p.dotK;
    colExtent = colStep = p.blockCols;
  }
  Mask mask;
  // A scalar's mask, and an rhs's (which has no data bounds), is its cut.
  if (shape == Shape::Scalar || shape == Shape::Rhs || rng.chance(0.5)) {
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
      if (again.addressing == Addressing::Descriptor)
        again.addressing = Addressing::Global;
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

Storage Generator::randomStorage(ElementType type) {
  if (isInteger(type) || !float8Rng.chance(0.06))
    return Storage::Element;
  return float8Rng.chance(0.6) ? Storage::F8E4M3FN : Storage::F8E5M2;
}

int Generator::addLoad(Shape shape) {
  return loadBuffer(randomLayout(shape, randomType(true), /*isOutput=*/false));
}

int Generator::loadBuffer(Buffer buffer) {
  Shape shape = buffer.shape;
  // 8-bit elements, whose values (widened) are the buffer's type: its
  // interval's ends in the 8-bit format's precision (the values lie
  // within its range).
  buffer.storage = randomStorage(buffer.type);
  int precision = getPrecision(buffer.type);
  if (buffer.storage != Storage::Element)
    precision = buffer.storage == Storage::F8E4M3FN ? 4 : 3;
  buffer.lo = roundToBits(buffer.lo, precision);
  buffer.hi = roundToBits(buffer.hi, precision);
  // Some loads of the block's tile, and of dot operands, go through a
  // tensor descriptor, from the buffer laid out as TMA takes it (not of
  // 8-bit buffers, whose loads are widened).
  bool descriptor = false;
  bool wantsDescriptor =
      shape == Shape::Tile
          ? descriptorRng.chance(0.25)
          : isDotOperand(shape) && dotDescriptorRng.chance(0.35);
  if (wantsDescriptor && buffer.storage == Storage::Element) {
    Buffer aligned = buffer;
    aligned.offset = 0;
    aligned.columnMajor = false;
    aligned.innerStride = 1;
    aligned.alignRows = true;
    if (fitsDescriptor(program, aligned)) {
      buffer = aligned;
      descriptor = true;
    }
  }
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
    // (An 8-bit load's masked lanes read 0: its 'other' would be 8-bit.)
    op.hasOther = rng.chance(0.75) && buffer.storage == Storage::Element;
    op.value =
        op.hasOther ? niceConstant(buffer.lo, buffer.hi, buffer.type) : 0;
    range.lo = std::min(range.lo, op.value);
    range.hi = std::max(range.hi, op.value);
  }
  if (descriptor && shape == Shape::Rhs) {
    // An rhs has no data bounds (Program.h): read whole, unmasked.
    op.addressing = Addressing::Descriptor;
    op.mask = -1;
    op.hasOther = false;
    op.value = 0;
    range = Range{buffer.lo, buffer.hi, true, 0};
  } else if (descriptor) {
    // The load masked to the data, with 'other' 0: the mask without a cut.
    op.addressing = Addressing::Descriptor;
    op.mask = -1;
    for (auto [index, mask] : llvm::enumerate(program.masks))
      if (mask.cut == CutKind::None)
        op.mask = static_cast<int>(index);
    if (op.mask < 0) {
      program.masks.push_back(Mask{});
      op.mask = static_cast<int>(program.masks.size() - 1);
    }
    op.hasOther = true;
    op.value = 0;
    range = Range{std::min(buffer.lo, 0.0), std::max(buffer.hi, 0.0), true, 0};
  }
  return add(op, range);
}

void Generator::chooseOutputs(int least, int most,
                              llvm::ArrayRef<int> exclude) {
  std::vector<int> values;
  for (int value : sinks())
    if (!llvm::is_contained(exclude, value))
      values.push_back(value);
  preferDots(values);
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
    program.buffers.back().storage = randomStorage(type);
    Op store;
    store.kind = OpKind::Store;
    store.shape = shape;
    store.type = type;
    store.operands = {value};
    store.buffer = static_cast<int>(program.buffers.size() - 1);
    store.mask = chooseMask(shape);
    store.atomic = (type == ElementType::F32 || type == ElementType::I32) &&
                   atomicRng.chance(0.3) &&
                   program.buffers.back().storage == Storage::Element;
    store.addressing = std::array<Addressing, 3>{
        Addressing::Global, Addressing::Global64,
        Addressing::BlockBase}[rng.weighted({4, 1, 3})];
    add(store, Range{});
  }
}
