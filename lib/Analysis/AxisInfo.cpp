//===- AxisInfo.cpp - Contiguity, divisibility and constancy --------------===//

#include "tile/Analysis/AxisInfo.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> getShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

/// The largest power of two dividing `value`, capped. (Counted on the bits:
/// negating the minimum int64_t, which 2^63 divides, would overflow.)
static int64_t highestPowerOfTwoDivisor(int64_t value) {
  if (value == 0)
    return AxisInfo::kMaxDivisibility;
  unsigned zeros = llvm::countr_zero(static_cast<uint64_t>(value));
  if (zeros >= llvm::Log2_64(AxisInfo::kMaxDivisibility))
    return AxisInfo::kMaxDivisibility;
  return int64_t(1) << zeros;
}

/// What divides the starts of runs `contiguity` long of a value whose own
/// runs along `d` are longer: the divisibility holds at the value's run
/// starts only, and a shorter run may start `k * contiguity` into one, a
/// multiple of gcd(divisibility, contiguity) only (every element, for runs
/// of 1: n - range(8) is no multiple of n's divisibility).
static int64_t getDivisibilityOfRuns(const AxisInfo &info, int64_t d,
                                     int64_t contiguity) {
  if (contiguity >= info.getContiguity(d))
    return info.getDivisibility(d);
  return std::gcd(info.getDivisibility(d), contiguity);
}

AxisInfo AxisInfo::getPessimistic(Type type) {
  size_t rank = getShape(type).size();
  return AxisInfo(SmallVector<int64_t>(rank, 1), SmallVector<int64_t>(rank, 1),
                  SmallVector<int64_t>(rank, 1));
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized())
    return lhs;
  SmallVector<int64_t> contiguity, divisibility, constancy;
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    int64_t contig = std::gcd(lhs.contiguity[d], rhs.contiguity[d]);
    contiguity.push_back(contig);
    divisibility.push_back(std::gcd(getDivisibilityOfRuns(lhs, d, contig),
                                    getDivisibilityOfRuns(rhs, d, contig)));
    constancy.push_back(std::gcd(lhs.constancy[d], rhs.constancy[d]));
  }
  std::optional<int64_t> constant;
  if (lhs.constant == rhs.constant)
    constant = lhs.constant;
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](StringRef name, ArrayRef<int64_t> values) {
    os << name << " = [";
    llvm::interleaveComma(values, os);
    os << "]";
  };
  list("contiguity", contiguity);
  list(", divisibility", divisibility);
  list(", constancy", constancy);
  if (constant)
    os << ", constant = " << *constant;
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

namespace {
/// The facts about an operation's result from the facts about its operands.
class Transfer {
public:
  Transfer(Operation *op, ArrayRef<AxisInfo> operands)
      : op(op), operands(operands) {}

  /// Null when nothing useful is known.
  std::optional<AxisInfo> visit();

private:
  const AxisInfo &in(unsigned i) const { return operands[i]; }
  int64_t rank() const { return getShape(op->getResult(0).getType()).size(); }
  SmallVector<int64_t> shape() const {
    return getShape(op->getResult(0).getType());
  }

  std::optional<AxisInfo> visitConstant(arith::ConstantOp constant);
  std::optional<AxisInfo> visitAdd(bool isSub, int64_t scale);
  std::optional<AxisInfo> visitMul();
  std::optional<AxisInfo> visitCmp();
  std::optional<AxisInfo> visitSelect();
  std::optional<AxisInfo> visitLogic();
  std::optional<AxisInfo> visitMinMax();

  Operation *op;
  ArrayRef<AxisInfo> operands;
};
} // namespace

std::optional<AxisInfo> Transfer::visitConstant(arith::ConstantOp constant) {
  SmallVector<int64_t> shape = this->shape();
  std::optional<int64_t> value;
  if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
    value = integer.getValue().getSExtValue();
  else if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
    if (isa<IntegerType>(splat.getElementType()))
      value = splat.getSplatValue<APInt>().getSExtValue();
  if (!value)
    return std::nullopt;
  bool isTile = isa<RankedTensorType>(constant.getType());
  return AxisInfo(
      SmallVector<int64_t>(shape.size(), 1),
      SmallVector<int64_t>(shape.size(), highestPowerOfTwoDivisor(*value)),
      isTile ? shape : SmallVector<int64_t>{1}, value);
}

/// Constants fold as the integers wrap: in 64 bits, two's complement (the
/// low bits, and so the divisibilities, of narrower integers come out
/// right too). Signed overflow of int64_t itself would be undefined.
static int64_t wrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
static int64_t wrappingSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
static int64_t wrappingMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}

/// a + b, a - b, and pointer + offset (`scale` bytes per offset unit).
std::optional<AxisInfo> Transfer::visitAdd(bool isSub, int64_t scale) {
  const AxisInfo &a = in(0), &b = in(1);
  SmallVector<int64_t> contiguity, divisibility, constancy;
  for (int64_t d = 0; d < rank(); ++d) {
    // Consecutive plus constant is consecutive (not so if subtracted).
    int64_t contig = std::gcd(a.getContiguity(d), b.getConstancy(d));
    if (!isSub)
      contig =
          std::max(contig, std::gcd(a.getConstancy(d), b.getContiguity(d)));
    contiguity.push_back(contig);
    int64_t bDiv = std::min(getDivisibilityOfRuns(b, d, contig) * scale,
                            AxisInfo::kMaxDivisibility);
    divisibility.push_back(std::gcd(getDivisibilityOfRuns(a, d, contig), bDiv));
    constancy.push_back(std::gcd(a.getConstancy(d), b.getConstancy(d)));
  }
  std::optional<int64_t> constant;
  if (scale == 1 && a.getConstant() && b.getConstant())
    constant = isSub ? wrappingSub(*a.getConstant(), *b.getConstant())
                     : wrappingAdd(*a.getConstant(), *b.getConstant());
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

std::optional<AxisInfo> Transfer::visitMul() {
  const AxisInfo &a = in(0), &b = in(1);
  SmallVector<int64_t> contiguity, divisibility, constancy;
  for (int64_t d = 0; d < rank(); ++d) {
    int64_t contig = 1;
    if (b.getConstant() == 1)
      contig = a.getContiguity(d);
    else if (a.getConstant() == 1)
      contig = b.getContiguity(d);
    contiguity.push_back(contig);
    // A run counting up by one keeps its start's divisibility only while it
    // stays a run (times 1); otherwise every element starts one of its own,
    // and [8, 9, ...] times 29 are multiples of nothing.
    auto runStart = [&](const AxisInfo &x, const AxisInfo &y) {
      return x.getContiguity(d) > 1 && contig == 1 ? int64_t(1)
                                                   : x.getDivisibility(d);
    };
    divisibility.push_back(
        std::min(runStart(a, b) * runStart(b, a), AxisInfo::kMaxDivisibility));
    constancy.push_back(std::gcd(a.getConstancy(d), b.getConstancy(d)));
  }
  std::optional<int64_t> constant;
  if (a.getConstant() && b.getConstant())
    constant = wrappingMul(*a.getConstant(), *b.getConstant());
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// A comparison is constant over runs where both sides are constant, and
/// over aligned runs of a consecutive side x compared with a constant side n
/// whose value is a multiple of the run's alignment, when the comparison can
/// only change where x reaches n: `x < n` and `x >= n` (and `n > x`,
/// `n <= x`). `x <= n`, `x > n` change where x reaches n + 1, which is not a
/// multiple of anything known; `x == n` and `x != n` change at both.
std::optional<AxisInfo> Transfer::visitCmp() {
  const AxisInfo &a = in(0), &b = in(1);
  using arith::CmpIPredicate;
  CmpIPredicate predicate = cast<arith::CmpIOp>(op).getPredicate();
  // Whether the comparison changes where the left (right) side reaches the
  // other.
  bool changesAtLeft = false, changesAtRight = false;
  switch (predicate) {
  case CmpIPredicate::slt:
  case CmpIPredicate::ult:
  case CmpIPredicate::sge:
  case CmpIPredicate::uge:
    changesAtLeft = true;
    break;
  case CmpIPredicate::sgt:
  case CmpIPredicate::ugt:
  case CmpIPredicate::sle:
  case CmpIPredicate::ule:
    changesAtRight = true;
    break;
  case CmpIPredicate::eq:
  case CmpIPredicate::ne:
    break;
  }
  SmallVector<int64_t> constancy;
  for (int64_t d = 0; d < rank(); ++d) {
    int64_t c = std::gcd(a.getConstancy(d), b.getConstancy(d));
    auto runOfConsecutive = [&](const AxisInfo &x, const AxisInfo &y) {
      if (y.getConstancy(d) < x.getContiguity(d))
        return int64_t(1);
      return std::gcd(std::gcd(x.getContiguity(d), x.getDivisibility(d)),
                      y.getDivisibility(d));
    };
    if (changesAtLeft)
      c = std::max(c, runOfConsecutive(a, b));
    if (changesAtRight)
      c = std::max(c, runOfConsecutive(b, a));
    constancy.push_back(c);
  }
  return AxisInfo(SmallVector<int64_t>(rank(), 1),
                  SmallVector<int64_t>(rank(), 1), constancy);
}

std::optional<AxisInfo> Transfer::visitSelect() {
  const AxisInfo &c = in(0), &a = in(1), &b = in(2);
  SmallVector<int64_t> contiguity, divisibility, constancy;
  SmallVector<int64_t> shape = this->shape();
  for (int64_t d = 0; d < rank(); ++d) {
    bool uniform = c.getRank() == 1 && c.getConstancy(0) == 1 &&
                   !isa<RankedTensorType>(op->getOperand(0).getType());
    bool wholeDim =
        uniform || (c.getRank() == rank() && c.getConstancy(d) >= shape[d]);
    int64_t contig =
        wholeDim ? std::min(a.getContiguity(d), b.getContiguity(d)) : 1;
    contiguity.push_back(contig);
    divisibility.push_back(std::gcd(getDivisibilityOfRuns(a, d, contig),
                                    getDivisibilityOfRuns(b, d, contig)));
    int64_t cConst = c.getRank() == rank() ? c.getConstancy(d) : shape[d];
    constancy.push_back(
        std::gcd(cConst, std::gcd(a.getConstancy(d), b.getConstancy(d))));
  }
  return AxisInfo(contiguity, divisibility, constancy);
}

std::optional<AxisInfo> Transfer::visitLogic() {
  const AxisInfo &a = in(0), &b = in(1);
  SmallVector<int64_t> constancy;
  for (int64_t d = 0; d < rank(); ++d)
    constancy.push_back(std::gcd(a.getConstancy(d), b.getConstancy(d)));
  return AxisInfo(SmallVector<int64_t>(rank(), 1),
                  SmallVector<int64_t>(rank(), 1), constancy);
}

/// min and max take one of their operands element by element: a multiple
/// of what both are multiples of, constant where both are. Runs are lost
/// (min(x, n) stops counting where x reaches n).
std::optional<AxisInfo> Transfer::visitMinMax() {
  const AxisInfo &a = in(0), &b = in(1);
  SmallVector<int64_t> divisibility, constancy;
  for (int64_t d = 0; d < rank(); ++d) {
    divisibility.push_back(std::gcd(getDivisibilityOfRuns(a, d, 1),
                                    getDivisibilityOfRuns(b, d, 1)));
    constancy.push_back(std::gcd(a.getConstancy(d), b.getConstancy(d)));
  }
  return AxisInfo(SmallVector<int64_t>(rank(), 1), divisibility, constancy);
}

std::optional<AxisInfo> Transfer::visit() {
  return llvm::TypeSwitch<Operation *, std::optional<AxisInfo>>(op)
      .Case([&](arith::ConstantOp constant) { return visitConstant(constant); })
      .Case([&](RangeOp range) -> std::optional<AxisInfo> {
        int64_t start = static_cast<int32_t>(range.getStart());
        int64_t length = static_cast<int32_t>(range.getEnd()) - start;
        return AxisInfo({length}, {highestPowerOfTwoDivisor(start)}, {1});
      })
      .Case([&](SplatOp) -> std::optional<AxisInfo> {
        return AxisInfo(SmallVector<int64_t>(rank(), 1),
                        SmallVector<int64_t>(rank(), in(0).getDivisibility(0)),
                        shape(), in(0).getConstant());
      })
      .Case([&](BroadcastOp broadcast) -> std::optional<AxisInfo> {
        auto srcShape = broadcast.getSrc().getType().getShape();
        SmallVector<int64_t> shape = this->shape();
        SmallVector<int64_t> contiguity, divisibility, constancy;
        for (int64_t d = 0; d < rank(); ++d) {
          bool repeated = srcShape[d] == 1 && shape[d] != 1;
          contiguity.push_back(repeated ? 1 : in(0).getContiguity(d));
          divisibility.push_back(in(0).getDivisibility(d));
          constancy.push_back(repeated ? shape[d] : in(0).getConstancy(d));
        }
        return AxisInfo(contiguity, divisibility, constancy,
                        in(0).getConstant());
      })
      .Case([&](ExpandDimsOp expand) -> std::optional<AxisInfo> {
        const AxisInfo &src = in(0);
        SmallVector<int64_t> contiguity, divisibility, constancy;
        int64_t minDiv = AxisInfo::kMaxDivisibility;
        for (int64_t d = 0; d < src.getRank(); ++d) {
          contiguity.push_back(src.getContiguity(d));
          divisibility.push_back(src.getDivisibility(d));
          constancy.push_back(src.getConstancy(d));
          // Along the new dimension every element starts a run: a multiple
          // of the divisibility only where no dimension counts up by one
          // (random kernels found (pid * 8 + range(8))[:, None] taken for
          // a column of multiples of 8, and a misaligned vector load).
          minDiv = std::min(minDiv, src.getContiguity(d) > 1
                                        ? int64_t(1)
                                        : src.getDivisibility(d));
        }
        int64_t axis = static_cast<int32_t>(expand.getAxis());
        contiguity.insert(contiguity.begin() + axis, 1);
        divisibility.insert(divisibility.begin() + axis, minDiv);
        constancy.insert(constancy.begin() + axis, 1);
        return AxisInfo(contiguity, divisibility, constancy, src.getConstant());
      })
      .Case([&](AddPtrOp addptr) {
        auto ptrType =
            cast<PointerType>(getElementTypeOrSelf(addptr.getType()));
        int64_t bytes = ptrType.getPointeeType().getIntOrFloatBitWidth() / 8;
        return visitAdd(/*isSub=*/false, bytes);
      })
      .Case([&](arith::AddIOp) { return visitAdd(false, 1); })
      .Case([&](arith::SubIOp) { return visitAdd(true, 1); })
      .Case([&](arith::MulIOp) { return visitMul(); })
      .Case([&](arith::CmpIOp) { return visitCmp(); })
      .Case([&](arith::SelectOp) { return visitSelect(); })
      .Case<arith::AndIOp, arith::OrIOp>([&](auto) { return visitLogic(); })
      .Case<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
          [&](auto) { return visitMinMax(); })
      .Case<arith::ExtSIOp, arith::IndexCastOp, tilegpu::ConvertLayoutOp>(
          [&](auto) -> std::optional<AxisInfo> { return in(0); })
      .Case([&](arith::ExtUIOp ext) -> std::optional<AxisInfo> {
        // Constants are held sign-extended from their width (below): the
        // zero extension of i1 true (-1) is 1.
        std::optional<int64_t> value = in(0).getConstant();
        unsigned width =
            getElementTypeOrSelf(ext.getIn().getType()).getIntOrFloatBitWidth();
        if (value && width < 64)
          value = static_cast<int64_t>(static_cast<uint64_t>(*value) &
                                       ((uint64_t(1) << width) - 1));
        return in(0).withConstant(value);
      })
      .Case([&](arith::TruncIOp trunc) -> std::optional<AxisInfo> {
        // To 32 bits or more, as it came: offsets are i32 by the kernels'
        // bounds. Narrower, a run wraps around at 2^width (range(256) to
        // i1 is 0, 1, 0, 1, ...): runs of 1, each element a multiple of
        // what divided it, up to 2^width.
        unsigned width =
            getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth();
        if (width >= 32)
          return in(0);
        SmallVector<int64_t> divisibility, constancy;
        for (int64_t d = 0; d < rank(); ++d) {
          divisibility.push_back(std::min(getDivisibilityOfRuns(in(0), d, 1),
                                          int64_t(1) << width));
          constancy.push_back(in(0).getConstancy(d));
        }
        return AxisInfo(SmallVector<int64_t>(rank(), 1), divisibility,
                        constancy);
      })
      .Default([](Operation *) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const AxisInfoLattice *> operands,
                                 ArrayRef<AxisInfoLattice *> results) {
  SmallVector<AxisInfo> inputs;
  for (const AxisInfoLattice *operand : operands) {
    if (operand->getValue().isUninitialized())
      return success(); // Visited again once the operands are known.
    inputs.push_back(operand->getValue());
  }
  std::optional<AxisInfo> info;
  if (op->getNumResults() == 1)
    info = Transfer(op, inputs).visit();
  // Integers narrower than 64 bits wrap at their width: a constant the
  // rules folded in 64 bits is taken back to the result's width and held
  // sign-extended from it, as arith.constant's are (i1 true is -1). Run
  // 53's review: false - true on i1 folded to +1, and extsi of it taken
  // for 1, made `range * it` look consecutive and its sign test constant.
  if (info && info->getConstant())
    if (auto integer = dyn_cast<IntegerType>(
            getElementTypeOrSelf(op->getResult(0).getType()));
        integer && integer.getWidth() < 64)
      info = info->withConstant(
          llvm::SignExtend64(*info->getConstant(), integer.getWidth()));
  for (auto [result, lattice] : llvm::zip(op->getResults(), results))
    propagateIfChanged(lattice, lattice->join(info ? *info
                                                   : AxisInfo::getPessimistic(
                                                         result.getType())));
  return success();
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<AxisInfoLattice *> argLattices, unsigned firstIndex) {
  // The induction variable of scf.for: lb, lb + step, ...
  // (The body's first argument; the others are the iteration arguments,
  // which the framework joins from the loop's inputs and yields.)
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    if (successor.getSuccessor() == &forOp.getRegion()) {
      ProgramPoint *point = getProgramPointAfter(op);
      const AxisInfo &lb =
          getLatticeElementFor(point, forOp.getLowerBound())->getValue();
      const AxisInfo &step =
          getLatticeElementFor(point, forOp.getStep())->getValue();
      if (!lb.isUninitialized() && !step.isUninitialized()) {
        AxisInfo iv({1},
                    {std::gcd(lb.getDivisibility(0), step.getDivisibility(0))},
                    {1});
        propagateIfChanged(argLattices[0], argLattices[0]->join(iv));
      }
      return;
    }
  }
  SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
      op, successor, argLattices, firstIndex);
}

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  Value value = lattice->getAnchor();
  AxisInfo info = AxisInfo::getPessimistic(value.getType());
  // Kernel arguments may promise a divisibility.
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto func = dyn_cast<FuncOp>(arg.getOwner()->getParentOp())) {
      if (auto hint = func.getArgAttrOfType<IntegerAttr>(
              arg.getArgNumber(), TileDialect::getDivisibilityAttrName()))
        info = AxisInfo({1}, {hint.getInt()}, {1});
    }
  }
  propagateIfChanged(lattice, lattice->join(info));
}

//===----------------------------------------------------------------------===//
// AxisInfoResult
//===----------------------------------------------------------------------===//

AxisInfoResult::AxisInfoResult(Operation *op) {
  dataflow::loadBaselineAnalyses(solver);
  solver.load<AxisInfoAnalysis>();
  status = solver.initializeAndRun(op);
}

AxisInfo AxisInfoResult::get(Value value) const {
  if (const auto *lattice = solver.lookupState<AxisInfoLattice>(value))
    if (!lattice->getValue().isUninitialized())
      return lattice->getValue();
  return AxisInfo::getPessimistic(value.getType());
}

int64_t AxisInfoResult::getAccessWidth(Value ptr, Value mask,
                                       int64_t dim) const {
  auto ptrType = dyn_cast<PointerType>(getElementTypeOrSelf(ptr.getType()));
  if (!ptrType || !isa<RankedTensorType>(ptr.getType()))
    return 1;
  int64_t bytes = ptrType.getPointeeType().getIntOrFloatBitWidth() / 8;
  AxisInfo info = get(ptr);
  int64_t width = std::min(
      {info.getContiguity(dim),
       std::max<int64_t>(1, info.getDivisibility(dim) / bytes), 16 / bytes});
  if (mask)
    width = std::min(width, get(mask).getConstancy(dim));
  return std::max<int64_t>(
      1, static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(width))));
}
