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
// In rank 2, most programs also have dots (tile.dot), made at random steps
// of the sequences, and one may accumulate over the column loop.
//
// This file holds the driver that takes those steps (and the column
// loop's: its accumulators, its second phase) and the mix of random
// operations; the steps themselves are in GenerateMemory.cpp,
// GenerateValues.cpp, GenerateElementwise.cpp, GenerateReductions.cpp and
// GenerateDots.cpp (Generator.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Generate.h"

#include "Generator.h"

#include <algorithm>
#include <limits>

using namespace mlir::tile;
using namespace mlir::tile::smith;

Program Generator::generate() {
  chooseGeometry();
  chooseDots();
  // A column loop whose row block a cluster of programs splits (sm_90's
  // thread-block clusters): only scalars are combined across a cluster, so
  // no dot accumulates over the loop.
  if (program.columnLoop && program.grid != GridKind::Blocks2D &&
      !program.dotK && clusterRng.chance(0.3)) {
    program.clusterSize = clusterRng.pick<int64_t>({2, 4, 8});
    if (program.grid == GridKind::Persistent)
      program.programs =
          program.clusterSize * std::max<int64_t>(1, program.programs / 2);
  }
  // Or over the whole grid (tile.grid_reduce), on a persistent grid.
  if (program.columnLoop && program.grid == GridKind::Persistent &&
      program.clusterSize == 1 && !program.dotK && program.programs <= 64 &&
      gridRng.chance(0.3)) {
    program.gridReduce = true;
    program.gridLogSumExp = gridRng.chance(0.5);
  }
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
    preferDots(sources);
    sources.resize(std::min<size_t>(sources.size(), rng.range(1, 3)));
    if (program.splitsRows())
      for (int &source : sources)
        source = reduceToScalar(source);
    chooseOutputs(0, 1, sources);
    prepareLoopDot();
    phase = 1;
    for (int source : sources)
      if (source >= 0)
        addAccumulator(source);
    addLoopDot();
    if (rng.chance(0.4))
      addLoad(Shape::Tile);
    addRandomOps(static_cast<int>(rng.range(0, 8)));
    chooseOutputs(1, 2);
  }
  removeDeadOps(program);
  program.fpContract = !contractRng.chance(0.2);
  return program;
}

void Generator::addRandomOps(int steps) {
  // Dots come at random steps (a program without them draws nothing).
  dotSteps.clear();
  for (int i = 0; i < dotsPerPhase[phase]; ++i)
    dotSteps.push_back(static_cast<int>(rng.range(0, steps)));
  int step = 0;
  for (int attempts = 0; step < steps && attempts < 200; ++attempts) {
    makeDotsAt(step, steps);
    if (addRandomOp())
      ++step;
  }
  makeDotsAt(steps, steps);
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
        program.ops[i].kind != OpKind::Constant &&
        !isDotOperand(program.ops[i].shape))
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
// The mix of operations
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

Program smith::generateProgram(uint64_t seed) {
  Program program = Generator(seed).generate();
  // A program that was to have dots but kept none (none fitted, or none
  // was stored) is the one drawn without them.
  if (program.dotK && llvm::none_of(program.ops, [](const Op &op) {
        return op.kind == OpKind::Dot ||
               (op.kind == OpKind::Accumulate && op.reduce == ReduceFn::Dot);
      }))
    program = Generator(seed, /*dots=*/false).generate();
  return program;
}
