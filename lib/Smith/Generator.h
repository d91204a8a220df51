//===- Generator.h - tile-smith's random program generator ------*- C++ -*-===//
//
// The generator's private declarations, shared by the Generate*.cpp files:
// the random source, what the generator knows of each value's range, and
// the Generator class. generateProgram (tile/Smith/Generate.h) is its only
// entry point.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_SMITH_GENERATOR_H
#define LIB_SMITH_GENERATOR_H

#include "tile/Smith/Program.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace mlir::tile::smith {

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
double roundToBits(double value, int bits);

/// Makes one program from a seed. Its members are defined by what they
/// generate: the driver, the column loop and the mix of operations in
/// Generate.cpp; the geometry, buffers, masks, loads and stores in
/// GenerateMemory.cpp; types, ranges, constants, operands and conditions in
/// GenerateValues.cpp; elementwise operations in GenerateElementwise.cpp;
/// reductions, widenings and softmax in GenerateReductions.cpp; dots and
/// their operands in GenerateDots.cpp.
class Generator {
public:
  /// Without `dots`, the program is drawn as if dotRng said no.
  explicit Generator(uint64_t seed, bool dots = true)
      : rng(seed), dotRng(seed ^ 0x9e3779b97f4a7c15),
        atomicRng(seed ^ 0xbf58476d1ce4e5b9),
        descriptorRng(seed ^ 0x94d049bb133111eb),
        dotDescriptorRng(seed ^ 0xd6e8feb86659fd93),
        float8Rng(seed ^ 0x2545f4914f6cdd1d),
        contractRng(seed ^ 0x4cf5ad432745937f),
        clusterRng(seed ^ 0x7fb5d329728ea185),
        gridRng(seed ^ 0x5851f42d4c957f2d), dots(dots) {
    program.seed = seed;
  }
  Program generate();

private:
  /// An 8-bit storage for a float buffer of `type`, now and then.
  Storage randomStorage(ElementType type);
  void chooseGeometry();
  void chooseInputs();
  /// Stores some of the values nothing uses yet (`exclude` aside).
  void chooseOutputs(int least, int most, llvm::ArrayRef<int> exclude = {});
  void addRandomOps(int steps);
  bool addRandomOp();
  /// The values of this phase that nothing uses, deepest first.
  std::vector<int> sinks();
  void addAccumulator(int source);
  /// Reductions of `source` down to a scalar (sums where they fit, else
  /// maxima); -1 where one does not fit the scratch.
  int reduceToScalar(int source);
  /// A tile.reduce of `x` by `kind` along `axis` to `shape`; -1 where its
  /// range or its scratch does not fit.
  int addReduce(int x, ReduceFn kind, int axis, Shape shape);
  /// A load from a new input buffer of `shape`.
  int addLoad(Shape shape);
  /// A load from `buffer`, a new input buffer.
  int loadBuffer(Buffer buffer);

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

  // Dots.
  /// Whether the program has dots (drawn from dotRng, so that a program
  /// without them is what it was before dots), then K, the tiles, and how
  /// many dots each phase makes.
  void chooseDots();
  /// Makes the dots due at `step` of addRandomOps (at `steps`, the rest).
  void makeDotsAt(int step, int steps);
  bool makeDot();
  /// The operands of a dot: an Lhs and an Rhs of one float type; false if
  /// their products may grow too large.
  bool makeDotOperands(ElementType type, int &lhs, int &rhs);
  int makeDotOperand(Shape shape, ElementType type);
  int loadDotOperand(Shape shape, ElementType type);
  /// The column loop's dot accumulator: operands in phase 0 (call it there),
  /// the Accumulate once in phase 1.
  void prepareLoopDot();
  void addLoopDot();
  /// A dot's element type and precision, one the GPU can compile with
  /// these tiles and (its operands loaded as they are) the shared memory
  /// left; false if none is found.
  bool randomDotType(ElementType &type, DotPrecision &precision,
                     bool constantAcc);
  /// The bytes of shared memory the GPU's layout conversions around a dot
  /// take, on operands of `lhsBytes` and `rhsBytes` (operandScratch).
  int64_t dotScratch(ElementType type, DotPrecision precision, bool constantAcc,
                     int64_t lhsBytes, int64_t rhsBytes) const;
  /// What converting an operand to its dot-operand layout takes: the
  /// compiler may convert what it is computed from instead (a cast's f32
  /// source, both operands of a sum); nothing for a constant.
  int64_t operandScratch(int operand) const;
  /// The scratch of one conversion of a rows x cols tile of `size`-byte
  /// elements through shared memory, as the compiler lays it out.
  static int64_t conversionScratch(int64_t rows, int64_t cols, int64_t size);
  /// In a program with dots, takes `bytes` of the shared memory the GPU's
  /// reductions and layout conversions may have (48 KiB in all, each its
  /// own) if they are left; a program without dots takes nothing (and
  /// draws as before).
  bool reserveScratch(int64_t bytes);
  /// What a reduction from `from` along `axis` takes, about.
  int64_t reduceScratch(Shape from, int axis, ElementType type) const;
  /// Whether the GPU runs a dot of these tiles on the tensor cores.
  bool onTensorCores(ElementType type, DotPrecision precision) const;
  /// The range of K products of `lhs` and `rhs` (widened for TF32's
  /// rounding).
  Range productRange(int lhs, int rhs) const;
  /// Moves the values that depend on a dot to the front, keeping the order
  /// otherwise.
  void preferDots(std::vector<int> &values) const;

  bool fits(double lo, double hi) const {
    return std::isfinite(lo) && std::isfinite(hi) && std::fabs(lo) <= kLimit &&
           std::fabs(hi) <= kLimit;
  }
  int64_t lengthAlong(Shape from, int axis) const;
  bool isFloatValue(int index) const {
    return program.ops[index].hasResult() && !program.ops[index].isCondition();
  }

  Random rng;
  /// Decides only whether a program has dots; everything else but the
  /// atomic additions (atomicRng, below), rng.
  Random dotRng;
  /// Whether a store of f32 or i32 adds atomically instead: a stream of its
  /// own, so that the rest of a seed's program is what it was before
  /// tile.atomic_add.
  Random atomicRng;
  /// Whether a load of the block's tile goes through a tensor descriptor:
  /// likewise a stream of its own (tile.make_tensor_desc came later still).
  Random descriptorRng;
  /// Whether a dot operand's load goes through one (what sm_90a's TMA
  /// copies serve): another stream, so that the tiles' choices stay.
  Random dotDescriptorRng;
  /// Whether a float buffer holds 8-bit floats (Storage): a stream of its
  /// own, as the others.
  Random float8Rng;
  /// Whether the kernel keeps every float operation rounded on its own
  /// (tile.fp_contract = false): a stream of its own too.
  Random contractRng;
  /// Whether a column loop's row block is split over a cluster of programs
  /// (Program::clusterSize): a stream of its own too.
  Random clusterRng;
  /// Whether a persistent column loop is split over the whole grid
  /// (tile.grid_reduce): a stream of its own, so that other seeds'
  /// kernels stay as they were.
  Random gridRng;
  bool dots;
  Program program;
  std::vector<Range> ranges;
  /// The phase operations are made in (Program.h: column loops).
  int phase = 0;
  /// Dots: how many addRandomOps makes in each phase, and at which steps;
  /// the column loop's dot (its operands; -1: none, or not yet).
  int dotsPerPhase[2] = {0, 0};
  std::vector<int> dotSteps;
  bool wantLoopDot = false;
  /// Dots shaped as a matrix multiply's K loop for Hopper's wgmma: a
  /// warpgroup's 64 rows, 4 warps, f16 or bf16 operands loaded whole in
  /// the column loop (which tilegpu-pipeline stages in shared memory).
  bool warpgroupDots = false;
  /// Whether a dot off the tensor cores fits the GPU's registers.
  bool fmaFits = true;
  /// The shared memory the dots' layout conversions and the reductions
  /// take (reserveScratch), of the most they may: the compiler gives each
  /// scratch of its own, 48 KiB in all, and other conversions need some.
  int64_t scratchUsed = 0;
  static constexpr int64_t kScratch = 36 * 1024;
  int loopDotLhs = -1, loopDotRhs = -1;
  ElementType loopDotType = ElementType::F32;
  DotPrecision loopDotPrecision = DotPrecision::Default;
};

template <typename F> int Generator::pickValue(F filter) {
  std::vector<int> candidates;
  // A dot's operands are for dots only (GenerateDots.cpp).
  for (size_t i = 0; i < program.ops.size(); ++i)
    if (isFloatValue(i) && program.ops[i].phase == phase &&
        !isDotOperand(program.ops[i].shape) && filter(static_cast<int>(i)))
      candidates.push_back(static_cast<int>(i));
  if (candidates.empty())
    return -1;
  if (candidates.size() > 3 && rng.chance(0.6))
    return candidates[rng.range(candidates.size() - 3, candidates.size() - 1)];
  return rng.pick<int>(candidates);
}

} // namespace mlir::tile::smith

#endif // LIB_SMITH_GENERATOR_H
