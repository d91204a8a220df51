//===- ProgramCost.cpp - What one program of a launch does ----------------===//
//
// See tile/Analysis/ProgramCost.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/ProgramCost.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::tile;

namespace {
/// An index tile equal to `start + i` along dimension `dim` (of `length`
/// elements), whatever the other coordinates.
struct Affine {
  unsigned dim = 0;
  int64_t start = 0;
  int64_t length = 1;
};

/// The walk over the kernel: scalars evaluated, index tiles tracked, the
/// counts accumulated.
class Counter {
public:
  Counter(FuncOp kernel, ArrayRef<std::optional<int64_t>> args,
          std::array<int64_t, 3> grid, int64_t program, bool pipelined)
      : kernel(kernel), args(args), grid(grid), program(program),
        cluster(std::max<int64_t>(1, TileDialect::getClusterSize(kernel))),
        pipelined(pipelined) {}

  ProgramCost run() {
    walk(kernel.getBody().front(), /*weight=*/1, /*loop=*/nullptr);
    for (auto &[loop, bytes] : loopLoads)
      cost.bytesInFlight = std::max(cost.bytesInFlight, bytes);
    cost.bytesInFlight = std::max(cost.bytesInFlight, topLevelLoads);
    return cost;
  }

private:
  /// The value of an integer scalar, where it can be evaluated.
  std::optional<int64_t> scalar(Value value);
  /// The tile `value` as `start + range`, where it is one.
  std::optional<Affine> affine(Value value);
  /// The fraction of `mask`'s lanes that are on (1 without a mask).
  double fraction(Value mask);
  /// The bytes of a load's or store's active lanes, in `loop` (or null).
  double bytes(Value pointers, Value mask, Operation *loop);
  /// The fraction of `loop`'s iterations (or null: the one time) in which
  /// `branch` takes its then-region, where its condition can be evaluated at
  /// each of them (stepping the loop's integer iter_args along).
  std::optional<double> takenFraction(scf::IfOp branch, Operation *loop);

  void walk(Block &block, double weight, Operation *loop);
  void visit(Operation &op, double weight, Operation *loop);

  FuncOp kernel;
  ArrayRef<std::optional<int64_t>> args;
  std::array<int64_t, 3> grid;
  /// The program counted (its id along x) and the kernel's cluster size.
  int64_t program, cluster;
  /// Whether loops asking for stages get them (estimateProgramCost).
  bool pipelined;
  ProgramCost cost;
  /// Induction variables taken at another value than their first (while a
  /// load's mask is averaged over its loop's iterations), and a loop's
  /// integer iter_args while takenFraction steps through it.
  llvm::DenseMap<Value, int64_t> inductionValues;
  /// Scalars evaluated so far (with no induction variable moved).
  llvm::DenseMap<Value, std::optional<int64_t>> scalars;
  /// Per loop, the bytes its loads ask for in one iteration (times its
  /// stages); the loads outside any loop, together.
  llvm::DenseMap<Operation *, double> loopLoads;
  double topLevelLoads = 0;
};
} // namespace

std::optional<int64_t> Counter::scalar(Value value) {
  auto it = inductionValues.find(value);
  if (it != inductionValues.end())
    return it->second;
  auto cached = scalars.find(value);
  if (cached != scalars.end())
    return cached->second;
  std::optional<int64_t> result;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    if (owner == kernel.getOperation() && argument.getArgNumber() < args.size())
      result = args[argument.getArgNumber()];
    else if (auto loop = dyn_cast<scf::ForOp>(owner);
             loop && argument == loop.getInductionVar())
      result = scalar(loop.getLowerBound());
  } else {
    Operation *op = value.getDefiningOp();
    APInt constant;
    auto binary = [&](auto fn) -> std::optional<int64_t> {
      std::optional<int64_t> a = scalar(op->getOperand(0));
      std::optional<int64_t> b = scalar(op->getOperand(1));
      if (!a || !b)
        return std::nullopt;
      return fn(*a, *b);
    };
    // Division and remainder where they are defined (not by 0, and not
    // INT64_MIN by -1).
    auto divisible = [](int64_t a, int64_t b) {
      return b != 0 && !(b == -1 && a == std::numeric_limits<int64_t>::min());
    };
    if (matchPattern(value, m_ConstantInt(&constant)))
      result = constant.getSExtValue();
    else if (isa<arith::AddIOp>(op))
      result =
          binary([](int64_t a, int64_t b) { return llvm::checkedAdd(a, b); });
    else if (isa<arith::SubIOp>(op))
      result =
          binary([](int64_t a, int64_t b) { return llvm::checkedSub(a, b); });
    else if (isa<arith::MulIOp>(op))
      result =
          binary([](int64_t a, int64_t b) { return llvm::checkedMul(a, b); });
    else if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(op))
      result = binary([&](int64_t a, int64_t b) -> std::optional<int64_t> {
        if (!divisible(a, b))
          return std::nullopt;
        return a / b;
      });
    else if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(op))
      result = binary([&](int64_t a, int64_t b) -> std::optional<int64_t> {
        if (!divisible(a, b))
          return std::nullopt;
        return a / b + (a % b != 0 && (a < 0) == (b < 0));
      });
    else if (isa<arith::RemSIOp, arith::RemUIOp>(op))
      result = binary([&](int64_t a, int64_t b) -> std::optional<int64_t> {
        if (!divisible(a, b))
          return std::nullopt;
        return a % b;
      });
    else if (isa<arith::MinSIOp, arith::MinUIOp>(op))
      result = binary([](int64_t a, int64_t b) { return std::min(a, b); });
    else if (isa<arith::MaxSIOp, arith::MaxUIOp>(op))
      result = binary([](int64_t a, int64_t b) { return std::max(a, b); });
    else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                 arith::ExtUIOp, arith::TruncIOp>(op))
      result = scalar(op->getOperand(0));
    // Conditions and choices between scalars (a loop's counter that wraps).
    else if (auto cmp = dyn_cast<arith::CmpIOp>(op);
             cmp && isa<IntegerType>(cmp.getLhs().getType()))
      result = binary([&](int64_t a, int64_t b) -> std::optional<int64_t> {
        // At the operands' width, as arith's folder compares them.
        unsigned width = cmp.getLhs().getType().getIntOrFloatBitWidth();
        return arith::applyCmpPredicate(
            cmp.getPredicate(), APInt(width, a, /*isSigned=*/true, true),
            APInt(width, b, /*isSigned=*/true, true));
      });
    else if (auto select = dyn_cast<arith::SelectOp>(op);
             select && isa<IntegerType>(select.getType())) {
      std::optional<int64_t> condition = scalar(select.getCondition());
      if (condition)
        result =
            scalar(*condition ? select.getTrueValue() : select.getFalseValue());
    }
    // Clusters run along x: the program's rank and cluster follow from its
    // id along x.
    else if (isa<ClusterRankOp>(op))
      result = program % cluster;
    else if (auto id = dyn_cast<ProgramIdOp>(op))
      result = id.getAxis() == ProgramAxis::x ? program : 0;
    else if (isa<ClusterIdOp>(op))
      result = program / cluster;
    else if (auto num = dyn_cast<NumProgramsOp>(op))
      result = grid[static_cast<unsigned>(num.getAxis())];
    else if (isa<NumClustersOp>(op))
      result =
          grid[0] / std::max<int64_t>(1, TileDialect::getClusterSize(kernel));
  }
  scalars[value] = result;
  return result;
}

/// The iterations of a loop from `lower` to `upper` by `step`, where they
/// can be counted (a positive step, no overflow).
static std::optional<double> countTrips(std::optional<int64_t> lower,
                                        std::optional<int64_t> upper,
                                        std::optional<int64_t> step) {
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  if (*upper <= *lower)
    return 0.0;
  std::optional<int64_t> span = llvm::checkedSub(*upper, *lower);
  if (!span)
    return std::nullopt;
  return static_cast<double>(*span / *step + (*span % *step != 0));
}

std::optional<Affine> Counter::affine(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto range = dyn_cast<RangeOp>(op))
    return Affine{0, static_cast<int32_t>(range.getStart()),
                  int64_t(static_cast<int32_t>(range.getEnd())) -
                      static_cast<int32_t>(range.getStart())};
  if (auto add = dyn_cast<arith::AddIOp>(op)) {
    for (unsigned i = 0; i < 2; ++i) {
      std::optional<Affine> tile = affine(add->getOperand(i));
      auto splat = add->getOperand(1 - i).getDefiningOp<SplatOp>();
      std::optional<int64_t> offset =
          splat ? scalar(splat.getSrc()) : std::nullopt;
      std::optional<int64_t> start =
          tile && offset ? llvm::checkedAdd(tile->start, *offset)
                         : std::nullopt;
      if (start) {
        tile->start = *start;
        return tile;
      }
    }
    return std::nullopt;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    std::optional<Affine> tile = affine(expand.getSrc());
    if (tile && static_cast<int64_t>(tile->dim) >= expand.getAxis())
      ++tile->dim;
    return tile;
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op))
    return affine(broadcast.getSrc());
  return std::nullopt;
}

double Counter::fraction(Value mask) {
  if (!mask)
    return 1;
  Operation *op = mask.getDefiningOp();
  if (auto andOp = dyn_cast_or_null<arith::AndIOp>(op)) {
    // Masks along different dimensions, as a product; along the same one
    // the smaller (one contains the other in the kernels seen).
    std::optional<Affine> a, b;
    if (auto cmp = andOp.getLhs().getDefiningOp<arith::CmpIOp>())
      a = affine(cmp.getLhs());
    if (auto cmp = andOp.getRhs().getDefiningOp<arith::CmpIOp>())
      b = affine(cmp.getLhs());
    double fa = fraction(andOp.getLhs()), fb = fraction(andOp.getRhs());
    if (a && b && a->dim == b->dim)
      return std::min(fa, fb);
    return fa * fb;
  }
  if (isa_and_nonnull<BroadcastOp, ExpandDimsOp>(op))
    return fraction(op->getOperand(0));
  auto cmp = dyn_cast_or_null<arith::CmpIOp>(op);
  if (!cmp) {
    cost.exact = false;
    return 1;
  }
  // start + i <pred> bound, with the tile on the left (or swapped).
  Value tileSide = cmp.getLhs(), boundSide = cmp.getRhs();
  arith::CmpIPredicate predicate = cmp.getPredicate();
  if (!affine(tileSide)) {
    // bound > start + i is start + i < bound, and so on.
    std::swap(tileSide, boundSide);
    switch (predicate) {
    case arith::CmpIPredicate::sgt:
      predicate = arith::CmpIPredicate::slt;
      break;
    case arith::CmpIPredicate::sge:
      predicate = arith::CmpIPredicate::sle;
      break;
    case arith::CmpIPredicate::ugt:
      predicate = arith::CmpIPredicate::ult;
      break;
    case arith::CmpIPredicate::uge:
      predicate = arith::CmpIPredicate::ule;
      break;
    case arith::CmpIPredicate::eq:
    case arith::CmpIPredicate::ne:
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::sle:
    case arith::CmpIPredicate::ult:
    case arith::CmpIPredicate::ule:
      cost.exact = false;
      return 1;
    }
  }
  std::optional<Affine> tile = affine(tileSide);
  auto splat = boundSide.getDefiningOp<SplatOp>();
  std::optional<int64_t> bound = splat ? scalar(splat.getSrc()) : std::nullopt;
  if (!tile || !bound) {
    cost.exact = false;
    return 1;
  }
  int64_t limit = 0;
  switch (predicate) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    limit = *bound;
    break;
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    limit = *bound == std::numeric_limits<int64_t>::max() ? *bound : *bound + 1;
    break;
  case arith::CmpIPredicate::eq:
  case arith::CmpIPredicate::ne:
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::ugt:
  case arith::CmpIPredicate::uge:
    cost.exact = false;
    return 1;
  }
  std::optional<int64_t> span = llvm::checkedSub(limit, tile->start);
  int64_t on = span ? std::clamp<int64_t>(*span, 0, tile->length)
                    : (limit > tile->start ? tile->length : 0);
  return static_cast<double>(on) / static_cast<double>(tile->length);
}

double Counter::bytes(Value pointers, Value mask, Operation *loop) {
  auto type = dyn_cast<RankedTensorType>(pointers.getType());
  Type pointer = type ? type.getElementType() : pointers.getType();
  Type element = cast<PointerType>(pointer).getPointeeType();
  double size = std::max<unsigned>(1, element.getIntOrFloatBitWidth() / 8);
  double elements = type ? static_cast<double>(type.getNumElements()) : 1;
  // In a loop, the mask's fraction averaged over the loop's iterations (64
  // of them, evenly spread, for a longer loop): the last block of a row is
  // the one partly masked, whichever iteration reaches it.
  auto forOp = dyn_cast_or_null<scf::ForOp>(loop);
  std::optional<int64_t> lower, step;
  double trips = 0;
  if (forOp && mask) {
    lower = scalar(forOp.getLowerBound());
    step = scalar(forOp.getStep());
    trips = countTrips(lower, scalar(forOp.getUpperBound()), step).value_or(0);
  }
  if (trips <= 1)
    return elements * size * fraction(mask);
  int64_t samples = std::min<int64_t>(64, static_cast<int64_t>(trips));
  double sum = 0;
  // The values computed from the induction variable change with it.
  llvm::DenseMap<Value, std::optional<int64_t>> saved = std::move(scalars);
  for (int64_t k = 0; k < samples; ++k) {
    int64_t iteration = static_cast<int64_t>(k * (trips - 1) /
                                             std::max<int64_t>(1, samples - 1));
    scalars.clear();
    std::optional<int64_t> offset = llvm::checkedMul(iteration, *step);
    std::optional<int64_t> value =
        offset ? llvm::checkedAdd(*lower, *offset) : std::nullopt;
    inductionValues[forOp.getInductionVar()] = value.value_or(*lower);
    sum += fraction(mask);
  }
  inductionValues.erase(forOp.getInductionVar());
  scalars = std::move(saved);
  return elements * size * sum / static_cast<double>(samples);
}

/// The most iterations takenFraction steps through.
static constexpr int64_t kMaxSteppedIterations = int64_t(1) << 16;

std::optional<double> Counter::takenFraction(scf::IfOp branch,
                                             Operation *loop) {
  auto forOp = dyn_cast_or_null<scf::ForOp>(loop);
  if (!forOp) {
    std::optional<int64_t> condition = scalar(branch.getCondition());
    if (!condition)
      return std::nullopt;
    return *condition ? 1.0 : 0.0;
  }
  std::optional<int64_t> lower = scalar(forOp.getLowerBound());
  std::optional<int64_t> step = scalar(forOp.getStep());
  std::optional<double> trips =
      countTrips(lower, scalar(forOp.getUpperBound()), step);
  if (!trips || *trips < 1 || *trips > kMaxSteppedIterations)
    return std::nullopt;
  // Every iteration in turn, its integer iter_args from the last one's
  // yield (a persistent matmul's k-step counter, which wraps at each tile).
  SmallVector<std::optional<int64_t>> carried;
  for (Value init : forOp.getInitArgs())
    carried.push_back(isa<IntegerType>(init.getType()) ? scalar(init)
                                                       : std::nullopt);
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  llvm::DenseMap<Value, std::optional<int64_t>> saved = std::move(scalars);
  int64_t count = 0, iterations = static_cast<int64_t>(*trips);
  bool known = true;
  for (int64_t i = 0; i < iterations && known; ++i) {
    scalars.clear();
    inductionValues[forOp.getInductionVar()] = *lower + i * *step;
    for (auto [arg, value] : llvm::zip(forOp.getRegionIterArgs(), carried)) {
      if (value)
        inductionValues[arg] = *value;
      else
        inductionValues.erase(arg);
    }
    std::optional<int64_t> condition = scalar(branch.getCondition());
    known = condition.has_value();
    count += condition.value_or(0) != 0;
    for (auto [j, value] : llvm::enumerate(carried))
      if (value)
        value = scalar(yield.getOperand(j));
  }
  inductionValues.erase(forOp.getInductionVar());
  for (Value arg : forOp.getRegionIterArgs())
    inductionValues.erase(arg);
  scalars = std::move(saved);
  if (!known)
    return std::nullopt;
  return static_cast<double>(count) / static_cast<double>(iterations);
}

void Counter::walk(Block &block, double weight, Operation *loop) {
  for (Operation &op : block)
    visit(op, weight, loop);
}

void Counter::visit(Operation &op, double weight, Operation *loop) {
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    std::optional<double> counted =
        countTrips(scalar(forOp.getLowerBound()), scalar(forOp.getUpperBound()),
                   scalar(forOp.getStep()));
    if (!counted)
      cost.exact = false;
    double trips = counted.value_or(1);
    if (trips == 0)
      return;
    walk(*forOp.getBody(), weight * trips, &op);
    if (auto stages =
            op.getAttrOfType<IntegerAttr>(TileDialect::getNumStagesAttrName());
        stages && pipelined && loopLoads.count(&op))
      loopLoads[&op] *= std::max<int64_t>(1, stages.getInt());
    return;
  }
  if (auto load = dyn_cast<LoadOp>(op)) {
    double moved = bytes(load.getPtr(), load.getMask(), loop);
    cost.bytesLoaded += moved * weight;
    if (loop) {
      loopLoads[loop] += moved;
      cost.steps = std::max(cost.steps, weight);
    } else {
      topLevelLoads += moved;
    }
    return;
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    cost.bytesStored += bytes(store.getPtr(), store.getMask(), loop) * weight;
    return;
  }
  if (auto atomic = dyn_cast<AtomicAddOp>(op)) {
    // Read and written where the memory is (in L2, for a GPU's atomics).
    double moved = bytes(atomic.getPtr(), atomic.getMask(), loop) * weight;
    cost.bytesLoaded += moved;
    cost.bytesStored += moved;
    return;
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    // The tensor cores' work: its accumulator is theirs too.
    auto a = cast<RankedTensorType>(dot.getA().getType());
    auto b = cast<RankedTensorType>(dot.getB().getType());
    cost.dotFlops +=
        2.0 * a.getDimSize(0) * a.getDimSize(1) * b.getDimSize(1) * weight;
    return;
  }
  // A branch counts its then-region at the fraction of its loop's
  // iterations whose condition holds (a persistent matmul's store of C at
  // the last k-step of each tile: 1 / k-steps), its else-region at the
  // rest. Where the condition cannot be evaluated at every iteration, both
  // regions count at the branch's weight (an upper bound), and what the
  // program does is not exact.
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    std::optional<double> taken = takenFraction(branch, loop);
    if (!taken)
      cost.exact = false;
    for (Type type : op.getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && isa<FloatType>(tensor.getElementType()))
        cost.tileElements +=
            static_cast<double>(tensor.getNumElements()) * weight;
    for (Block &block : branch.getThenRegion())
      walk(block, weight * taken.value_or(1), loop);
    for (Block &block : branch.getElseRegion())
      walk(block, weight * (taken ? 1 - *taken : 1), loop);
    return;
  }
  if (isa<ClusterReduceOp>(op))
    cost.clusterReductions += weight;
  if (isa<GridReduceOp>(op))
    cost.gridReductions += weight;
  for (Type type : op.getResultTypes())
    if (auto tensor = dyn_cast<RankedTensorType>(type);
        tensor && isa<FloatType>(tensor.getElementType()))
      cost.tileElements +=
          static_cast<double>(tensor.getNumElements()) * weight;
  for (Region &region : op.getRegions())
    for (Block &block : region)
      walk(block, weight, loop);
}

ProgramCost mlir::tile::estimateProgramCost(
    FuncOp kernel, ArrayRef<std::optional<int64_t>> args,
    std::array<int64_t, 3> grid, int64_t program, bool pipelined) {
  if (kernel.getBody().empty())
    return ProgramCost();
  return Counter(kernel, args, grid, program, pipelined).run();
}
