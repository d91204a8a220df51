//===- LoadsToDescs.cpp - Loads of dot operands as descriptor loads -------===//
//
// Proves a tile.load of a dot's operand to read a box of a strided tensor,
// masked to the tensor's bounds, and rewrites it as a tile.desc_load of a
// descriptor made before its loop (the pass's description says when). The
// proof reads the load's pointer and mask tiles as sums of per-dimension
// coordinates: each `(start + tile.range)` spread over the tile by
// tile.expand_dims and tile.broadcast, times a stride. A box's starts must
// not be negative: those it cannot prove so are tested once before the loop,
// which is versioned (the descriptor loads where the test holds, the loop
// as it was where it does not).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>

namespace mlir::tile {
#define GEN_PASS_DEF_TILELOADSTODESCS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// One dimension's coordinates in a 2-D tile: `start + tile.range 0, n`
/// along `dim` (start null: 0), the same along the other dimension.
struct Index {
  unsigned dim = 0;
  Value start;
};

/// A 2-D tile of offsets: per dimension an index times a stride (null: the
/// constant 1), plus scalar offsets.
struct Offsets {
  std::array<std::optional<Index>, 2> index;
  std::array<Value, 2> stride;
  SmallVector<Value> scalars;
};
} // namespace

static bool isOne(Value value) {
  return !value || matchPattern(value, m_One());
}

/// `start + range` (either order) or `range`, of rank 1.
static std::optional<Value> matchLine(Value value) {
  if (auto range = value.getDefiningOp<RangeOp>())
    return range.getStart() == 0 ? std::optional<Value>(Value()) : std::nullopt;
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [line, start] : {std::pair(add.getLhs(), add.getRhs()),
                             std::pair(add.getRhs(), add.getLhs())}) {
    auto range = line.getDefiningOp<RangeOp>();
    auto splat = start.getDefiningOp<SplatOp>();
    if (range && range.getStart() == 0 && splat)
      return splat.getSrc();
  }
  return std::nullopt;
}

/// A rank-1 line spread over a 2-D tile.
static std::optional<Index> matchIndex(Value value) {
  auto broadcast = value.getDefiningOp<BroadcastOp>();
  Value expanded = broadcast ? broadcast.getSrc() : value;
  auto expand = expanded.getDefiningOp<ExpandDimsOp>();
  if (!expand)
    return std::nullopt;
  std::optional<Value> start = matchLine(expand.getSrc());
  if (!start)
    return std::nullopt;
  // expand_dims along axis 1 keeps the line along dimension 0.
  return Index{expand.getAxis() == 1 ? 0u : 1u, *start};
}

/// Adds the terms of `value` to `offsets`: false where it is not a sum of
/// indices times scalar strides and splat scalars.
static bool addTerms(Value value, Offsets &offsets) {
  if (auto add = value.getDefiningOp<arith::AddIOp>())
    if (!matchLine(value))
      return addTerms(add.getLhs(), offsets) && addTerms(add.getRhs(), offsets);
  if (auto splat = value.getDefiningOp<SplatOp>()) {
    offsets.scalars.push_back(splat.getSrc());
    return true;
  }
  Value stride;
  std::optional<Index> index = matchIndex(value);
  if (auto mul = value.getDefiningOp<arith::MulIOp>(); mul && !index) {
    for (auto [term, factor] : {std::pair(mul.getLhs(), mul.getRhs()),
                                std::pair(mul.getRhs(), mul.getLhs())}) {
      auto splat = factor.getDefiningOp<SplatOp>();
      if (!splat)
        continue;
      if ((index = matchIndex(term))) {
        stride = splat.getSrc();
        break;
      }
    }
  }
  if (!index || offsets.index[index->dim])
    return false;
  offsets.index[index->dim] = index;
  offsets.stride[index->dim] = stride;
  return true;
}

/// The kernel argument a pointer is, plus its scalar offsets.
static Value matchBase(Value pointer, SmallVectorImpl<Value> &scalars) {
  while (auto add = pointer.getDefiningOp<AddPtrOp>()) {
    if (isa<RankedTensorType>(add.getType()))
      return nullptr;
    scalars.push_back(add.getOffset());
    pointer = add.getPtr();
  }
  return isKnownBeforeLaunch(pointer) ? pointer : nullptr;
}

/// Whether `other` is absent or a tile of zeros (as a constant, or a cast
/// of one).
static bool isZeroTile(Value other) {
  if (auto cast = other.getDefiningOp<CastOp>())
    other = cast.getX();
  return matchPattern(other, m_AnyZeroFloat()) || matchPattern(other, m_Zero());
}

/// The comparisons `index < bound` of a mask, by dimension.
static bool matchMask(Value mask, std::array<std::optional<Index>, 2> &index,
                      std::array<Value, 2> &bound) {
  if (auto both = mask.getDefiningOp<arith::AndIOp>())
    return matchMask(both.getLhs(), index, bound) &&
           matchMask(both.getRhs(), index, bound);
  auto compare = mask.getDefiningOp<arith::CmpIOp>();
  if (!compare || compare.getPredicate() != arith::CmpIPredicate::slt)
    return false;
  std::optional<Index> found = matchIndex(compare.getLhs());
  auto splat = compare.getRhs().getDefiningOp<SplatOp>();
  if (!found || !splat || index[found->dim])
    return false;
  index[found->dim] = found;
  bound[found->dim] = splat.getSrc();
  return true;
}

/// Whether `value`, the descriptor's base pointer or its outer stride (in
/// elements of `elementBytes`), is a multiple of 16 bytes, as a tensor map
/// must be: a constant, or an argument the runtime specialized with a
/// tile.divisibility that says so (a pointer's counts bytes, an integer's
/// elements). A launch that is not keeps its pointer loads, rather than
/// failing to make a descriptor it did not ask for.
static bool isMultipleOf16Bytes(Value value, int64_t elementBytes) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue() * elementBytes % 16 == 0;
  auto argument = dyn_cast<BlockArgument>(value);
  auto func =
      argument ? dyn_cast<FuncOp>(argument.getOwner()->getParentOp()) : nullptr;
  if (!func)
    return false;
  auto divisibility = func.getArgAttrOfType<IntegerAttr>(
      argument.getArgNumber(), TileDialect::getDivisibilityAttrName());
  int64_t unit = isa<PointerType>(value.getType()) ? 1 : elementBytes;
  return divisibility && divisibility.getInt() * unit % 16 == 0;
}

namespace {
/// What a load becomes: the descriptor's operands and the box's starts (each
/// a sum of values, none: 0).
struct Rewrite {
  LoadOp load;
  Value base;
  std::array<Value, 2> size, stride;
  std::array<SmallVector<Value>, 2> start;
  /// The terms of the starts not proven non-negative: each is defined
  /// before the loop, which tests them.
  SmallVector<Value> checks;
};
} // namespace

/// Whether `value`, an integer, is proven not negative: a constant, a
/// program or cluster id or count, an induction variable from a lower bound
/// that is (scf.for's step is positive), or sums, products, quotients,
/// minima and remainders of such. Sums and products are taken not to wrap:
/// where they would, the pointer offsets they make wrap as well, and a
/// kernel that reads there was already reading outside its buffers.
static bool isNonNegative(Value value, unsigned depth = 0) {
  if (depth > 16)
    return false;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return !constant.isNegative();
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    // (A loop that compares unsigned may count past the largest signed
    // value.)
    return loop && argument == loop.getInductionVar() &&
           !loop.getUnsignedCmp() &&
           isNonNegative(loop.getLowerBound(), depth + 1);
  }
  auto both = [&](Operation *op) {
    return isNonNegative(op->getOperand(0), depth + 1) &&
           isNonNegative(op->getOperand(1), depth + 1);
  };
  auto either = [&](Operation *op) {
    return isNonNegative(op->getOperand(0), depth + 1) ||
           isNonNegative(op->getOperand(1), depth + 1);
  };
  return llvm::TypeSwitch<Operation *, bool>(value.getDefiningOp())
      .Case<ProgramIdOp, NumProgramsOp, ClusterRankOp, ClusterIdOp,
            NumClustersOp, arith::ExtUIOp>([](auto) { return true; })
      .Case<arith::AddIOp, arith::MulIOp, arith::DivSIOp, arith::DivUIOp,
            arith::CeilDivSIOp, arith::FloorDivSIOp, arith::MinSIOp,
            arith::RemUIOp>(both)
      .Case<arith::MaxSIOp, arith::AndIOp>(either)
      .Case<arith::RemSIOp, arith::ExtSIOp>([&](Operation *op) {
        // A signed remainder has its dividend's sign.
        return isNonNegative(op->getOperand(0), depth + 1);
      })
      .Case<arith::IndexCastOp>([&](arith::IndexCastOp cast) {
        // A cast to fewer bits may wrap: only a widening one keeps the sign.
        unsigned from = cast.getIn().getType().isIndex()
                            ? 64
                            : cast.getIn().getType().getIntOrFloatBitWidth();
        unsigned to = cast.getType().isIndex()
                          ? 64
                          : cast.getType().getIntOrFloatBitWidth();
        return to >= from && isNonNegative(cast.getIn(), depth + 1);
      })
      .Case<arith::SelectOp>([&](arith::SelectOp select) {
        return isNonNegative(select.getTrueValue(), depth + 1) &&
               isNonNegative(select.getFalseValue(), depth + 1);
      })
      .Default([](Operation *) { return false; });
}

/// The rewrite of `load`, where it is one (see the pass's description).
static std::optional<Rewrite> matchLoad(LoadOp load, DominanceInfo &dominance) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
  Type element = type ? type.getElementType() : Type();
  // 8-bit floats as the dots' A only: their B's rows (along N) are not the
  // K-contiguous rows wgmma reads 8-bit operands in.
  bool is8Bit = element && isa<Float8E4M3FNType, Float8E5M2Type>(element);
  if (!type || type.getRank() != 2 || !loop || !load.getMask() ||
      !(element.isF16() || element.isBF16() || is8Bit))
    return std::nullopt;
  if (load->use_empty() || !llvm::all_of(load->getUses(), [&](OpOperand &use) {
        return isa<DotOp>(use.getOwner()) &&
               use.getOperandNumber() < (is8Bit ? 1u : 2u);
      }))
    return std::nullopt;
  if (load.getOther() && !isZeroTile(load.getOther()))
    return std::nullopt;

  auto pointers = load.getPtr().getDefiningOp<AddPtrOp>();
  if (!pointers)
    return std::nullopt;
  auto splat = pointers.getPtr().getDefiningOp<SplatOp>();
  Offsets offsets;
  if (!splat || !addTerms(pointers.getOffset(), offsets) || !offsets.index[0] ||
      !offsets.index[1])
    return std::nullopt;
  Rewrite rewrite;
  rewrite.load = load;
  SmallVector<Value> scalars;
  rewrite.base = matchBase(splat.getSrc(), scalars);
  if (!rewrite.base)
    return std::nullopt;
  llvm::append_range(scalars, offsets.scalars);

  // Row-major: the innermost dimension's stride is 1.
  if (!isOne(offsets.stride[1]) || isOne(offsets.stride[0]) ||
      !isKnownBeforeLaunch(offsets.stride[0]))
    return std::nullopt;
  rewrite.stride = {offsets.stride[0], offsets.stride[1]};
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  if (!isMultipleOf16Bytes(rewrite.base, elementBytes) ||
      !isMultipleOf16Bytes(rewrite.stride[0], elementBytes))
    return std::nullopt;
  for (unsigned d = 0; d < 2; ++d)
    if (Value start = offsets.index[d]->start)
      rewrite.start[d].push_back(start);
  // A scalar offset `x * stride` moves dimension 0's start by x; any other,
  // the innermost's (of stride 1).
  std::array<SmallVector<Value>, 2> moved;
  for (Value scalar : scalars) {
    auto mul = scalar.getDefiningOp<arith::MulIOp>();
    if (mul && (mul.getLhs() == rewrite.stride[0] ||
                mul.getRhs() == rewrite.stride[0])) {
      moved[0].push_back(mul.getLhs() == rewrite.stride[0] ? mul.getRhs()
                                                           : mul.getLhs());
      continue;
    }
    moved[1].push_back(scalar);
  }

  std::array<std::optional<Index>, 2> maskIndex;
  std::array<Value, 2> bound;
  if (!matchMask(load.getMask(), maskIndex, bound) || !maskIndex[0] ||
      !maskIndex[1])
    return std::nullopt;
  for (unsigned d = 0; d < 2; ++d) {
    Value start = offsets.index[d]->start;
    // The mask's index is the pointers' (the same start, no scalar offset
    // along d): `start + range < bound`.
    if (maskIndex[d]->start == start && moved[d].empty()) {
      rewrite.size[d] = bound[d];
    } else if (!maskIndex[d]->start && !start && moved[d].size() == 1) {
      // `range < X - offset`, the pointers moved by offset along d:
      // `offset + range < X`.
      auto sub = bound[d].getDefiningOp<arith::SubIOp>();
      if (!sub || sub.getRhs() != moved[d].front())
        return std::nullopt;
      rewrite.size[d] = sub.getLhs();
    } else {
      return std::nullopt;
    }
    if (!isKnownBeforeLaunch(rewrite.size[d]))
      return std::nullopt;
    llvm::append_range(rewrite.start[d], moved[d]);
  }
  // The descriptor is made before the loop, of i32 sizes and strides, and
  // loaded at i32 offsets (i64 offsets, as a kernel that widens them has,
  // stay pointer loads).
  for (Value value :
       {rewrite.base, rewrite.size[0], rewrite.size[1], rewrite.stride[0]})
    if (!dominance.properlyDominates(value, loop))
      return std::nullopt;
  auto isI32 = [](Value value) { return value.getType().isInteger(32); };
  if (!isI32(rewrite.size[0]) || !isI32(rewrite.size[1]) ||
      !isI32(rewrite.stride[0]) || !llvm::all_of(rewrite.start[0], isI32) ||
      !llvm::all_of(rewrite.start[1], isI32))
    return std::nullopt;
  // A start the loop computes must be proven not negative; one made before
  // it may be tested there instead.
  // Not where the versions could differ between a cluster's programs (their
  // cluster exchanges would not meet), nor in a loop inside another loop
  // (the two versions' shared memory would add up: each block reaches the
  // other through the outer loop).
  bool mayVersion =
      TileDialect::getClusterSize(load->getParentOfType<FuncOp>()) <= 1 &&
      !loop->getParentOfType<LoopLikeOpInterface>();
  for (SmallVector<Value> &terms : rewrite.start)
    for (Value term : terms) {
      if (isNonNegative(term))
        continue;
      if (!mayVersion || !dominance.properlyDominates(term, loop))
        return std::nullopt;
      rewrite.checks.push_back(term);
    }
  return rewrite;
}

static void applyRewrite(Rewrite &rewrite, OpBuilder &builder) {
  LoadOp load = rewrite.load;
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  builder.setInsertionPoint(load->getParentOp());
  Value one = arith::ConstantIntOp::create(builder, loc, 1, 32);
  auto descType = TensorDescType::get(builder.getContext(), type.getShape(),
                                      type.getElementType());
  Value desc =
      MakeTensorDescOp::create(builder, loc, descType, rewrite.base,
                               ValueRange{rewrite.size[0], rewrite.size[1]},
                               ValueRange{rewrite.stride[0], one});
  builder.setInsertionPoint(load);
  SmallVector<Value, 2> starts;
  for (SmallVector<Value> &terms : rewrite.start) {
    Value sum;
    for (Value term : terms)
      sum = sum ? arith::AddIOp::create(builder, loc, sum, term).getResult()
                : term;
    starts.push_back(
        sum ? sum
            : arith::ConstantIntOp::create(builder, loc, 0, 32).getResult());
  }
  Value replacement = DescLoadOp::create(builder, loc, type, desc, starts);
  load.getResult().replaceAllUsesWith(replacement);
  load->erase();
}

/// Puts `loop` in the then-branch of an `scf.if` on `checks` all being
/// non-negative, and a copy of it in the else-branch, which keeps its
/// pointer loads.
static void versionLoop(scf::ForOp loop, ArrayRef<Value> checks,
                        OpBuilder &builder) {
  Location loc = loop.getLoc();
  builder.setInsertionPoint(loop);
  Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
  Value all;
  for (Value check : checks) {
    Value holds = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                        check, zero);
    all = all ? arith::AndIOp::create(builder, loc, all, holds).getResult()
              : holds;
  }
  // Blocks without terminators, whatever the loop yields (a loop that
  // yields nothing would otherwise get its yield before it).
  auto branch = scf::IfOp::create(builder, loc, loop.getResultTypes(), all,
                                  /*addThenBlock=*/true, /*addElseBlock=*/true);
  loop->replaceAllUsesWith(branch.getResults());
  Block *thenBlock = &branch.getThenRegion().front();
  loop->moveBefore(thenBlock, thenBlock->end());
  builder.setInsertionPointToEnd(thenBlock);
  scf::YieldOp::create(builder, loc, loop.getResults());
  Block *elseBlock = &branch.getElseRegion().front();
  builder.setInsertionPointToEnd(elseBlock);
  Operation *copy = builder.clone(*loop);
  scf::YieldOp::create(builder, loc, copy->getResults());
}

namespace {
struct TileLoadsToDescsPass
    : tile::impl::TileLoadsToDescsBase<TileLoadsToDescsPass> {
  void runOnOperation() override {
    DominanceInfo dominance(getOperation());
    llvm::MapVector<Operation *, SmallVector<Rewrite>> byLoop;
    getOperation().walk([&](LoadOp load) {
      if (std::optional<Rewrite> rewrite = matchLoad(load, dominance))
        byLoop[load->getParentOp()].push_back(*rewrite);
    });
    OpBuilder builder(&getContext());
    for (auto &[loop, rewrites] : byLoop) {
      llvm::SetVector<Value> checks;
      for (Rewrite &rewrite : rewrites)
        checks.insert_range(rewrite.checks);
      if (!checks.empty())
        versionLoop(cast<scf::ForOp>(loop), checks.getArrayRef(), builder);
      for (Rewrite &rewrite : rewrites)
        applyRewrite(rewrite, builder);
    }
  }
};
} // namespace
