//===- RemoveLayoutConversions.cpp - Remove needless conversions ----------===//
//
// A layout conversion that crosses threads costs a round trip through shared
// memory and two barriers. Most of those convert_layout ops are not needed:
// the value can be made in the wanted layout in the first place. The patterns
// here push each conversion up towards values that are free to make in any
// layout (ranges, splats, constants) and let the folders cancel
// conversions that meet. A value a loop carries from one iteration to the
// next is carried in the layout its uses convert it to, when it comes back
// in that layout too (tile.dot's accumulator): the conversions then happen
// once, around the loop, rather than twice in every iteration; a value both
// branches of an scf.if yield converted from one layout is yielded in it. A
// tile.store of a converted matrix-product result stores from the result's
// own layout.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <array>

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUREMOVELAYOUTCONVERSIONS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

/// True for values that cost nothing to make in another layout.
static bool isFreeInAnyLayout(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (isa<tile::RangeOp, tile::SplatOp, ConvertLayoutOp>(op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue());
  return false;
}

static RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

/// True for an elementwise op whose tensor operands have wider elements
/// than its result (arith.truncf, tile.cast to a narrower type).
static bool isNarrowing(Operation *op) {
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result || !result.getElementType().isIntOrFloat())
    return false;
  unsigned width = result.getElementType().getIntOrFloatBitWidth();
  return llvm::any_of(op->getOperandTypes(), [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getElementType().isIntOrFloat() &&
           tensor.getElementType().getIntOrFloatBitWidth() > width;
  });
}

namespace {
/// convert(range), convert(splat) -> the same op in the target layout.
struct RematerializeInTargetLayout : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Operation *src = convert.getSrc().getDefiningOp();
    if (auto range = dyn_cast_or_null<tile::RangeOp>(src)) {
      rewriter.replaceOpWithNewOp<tile::RangeOp>(
          convert, convert.getType(), range.getStartAttr(), range.getEndAttr());
      return success();
    }
    if (auto splat = dyn_cast_or_null<tile::SplatOp>(src)) {
      rewriter.replaceOpWithNewOp<tile::SplatOp>(convert, convert.getType(),
                                                 splat.getSrc());
      return success();
    }
    return failure();
  }
};

/// convert(f(x, y)) -> f(convert(x), convert(y)) for an elementwise f, when
/// at most one of the new conversions is not free (none, if f has other
/// uses and must stay): the conversion moves up, towards values made in
/// place.
struct HoistThroughElementwise : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Operation *src = convert.getSrc().getDefiningOp();
    if (!src || src->getNumResults() != 1 ||
        !src->hasTrait<OpTrait::Elementwise>() || src->getNumRegions() != 0)
      return failure();
    Attribute layout = convert.getType().getEncoding();
    // A dot operand's layout depends on the width of its elements (16-bit
    // fragments differ from TF32's): an operation that changes the width
    // (a cast to f16 before a dot) cannot move into it.
    if (isa<DotOperandEncodingAttr>(layout) &&
        llvm::any_of(src->getOperandTypes(), [&](Type type) {
          auto tensor = dyn_cast<RankedTensorType>(type);
          return tensor &&
                 tensor.getElementType().getIntOrFloatBitWidth() !=
                     convert.getType().getElementType().getIntOrFloatBitWidth();
        }))
      return failure();
    unsigned costly = 0;
    for (Value operand : src->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !isFreeInAnyLayout(operand))
        ++costly;
    // With other uses, the op stays and a copy is made in the new layout:
    // worth it only if the copy's operands are all free.
    if (costly > (src->hasOneUse() ? 1 : 0))
      return failure();
    // Above a narrowing op (an f32 accumulator truncated to f16), the
    // conversion would move more bytes than below it.
    if (isNarrowing(src))
      return failure();

    IRMapping mapping;
    rewriter.setInsertionPoint(src);
    for (Value operand : src->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()))
        continue;
      mapping.map(operand, ConvertLayoutOp::create(
                               rewriter, convert.getLoc(),
                               withLayout(operand.getType(), layout), operand));
    }
    Operation *clone = rewriter.clone(*src, mapping);
    clone->getResult(0).setType(convert.getType());
    rewriter.replaceOp(convert, clone->getResults());
    if (src->use_empty())
      rewriter.eraseOp(src);
    return success();
  }
};

/// convert(broadcast(x)) -> broadcast(convert(x)), and
/// convert(expand_dims(x)) -> expand_dims(convert(x)) with x converted to the
/// slice of the target layout: the smaller tile moves, or none at all once
/// the conversion reaches a range or a splat.
struct HoistThroughShapeOps : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Operation *src = convert.getSrc().getDefiningOp();
    Attribute layout = convert.getType().getEncoding();
    if (!isa<BlockedEncodingAttr, MmaEncodingAttr>(layout))
      return failure();
    if (auto broadcast = dyn_cast_or_null<tile::BroadcastOp>(src)) {
      rewriter.setInsertionPoint(broadcast);
      Value moved = ConvertLayoutOp::create(
          rewriter, convert.getLoc(),
          withLayout(broadcast.getSrc().getType(), layout), broadcast.getSrc());
      rewriter.replaceOpWithNewOp<tile::BroadcastOp>(convert, convert.getType(),
                                                     moved);
      return success();
    }
    auto expand = dyn_cast_or_null<tile::ExpandDimsOp>(src);
    if (!expand)
      return failure();
    rewriter.setInsertionPoint(expand);
    auto slice = SliceEncodingAttr::get(getContext(), expand.getAxis(), layout);
    Value moved = ConvertLayoutOp::create(
        rewriter, convert.getLoc(),
        withLayout(expand.getSrc().getType(), slice), expand.getSrc());
    rewriter.replaceOpWithNewOp<tile::ExpandDimsOp>(convert, convert.getType(),
                                                    moved, expand.getAxis());
    return success();
  }
};

/// convert(x) -> x computed again in the target layout, when x is made from
/// values free in any layout (ranges, splats, constants, scalars) by pure
/// operations that work in any layout: elementwise ones, tile.addptr,
/// tile.broadcast and tile.expand_dims (whose source then takes the slice of
/// the target layout). Integer arithmetic on addresses and masks costs a
/// few instructions; the conversion a round trip through shared memory.
class RematerializeSlice : public OpRewritePattern<ConvertLayoutOp> {
public:
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Attribute layout = convert.getType().getEncoding();
    Operation *src = convert.getSrc().getDefiningOp();
    // What the other patterns do in one step is left to them.
    if (!src || isFreeInAnyLayout(convert.getSrc()) ||
        !isa<BlockedEncodingAttr, MmaEncodingAttr, SliceEncodingAttr>(layout))
      return failure();
    unsigned budget = kMaxOps;
    DenseSet<std::pair<Value, Attribute>> seen;
    if (!canRemat(convert.getSrc(), layout, budget, seen))
      return failure();
    DenseMap<std::pair<Value, Attribute>, Value> made;
    rewriter.setInsertionPoint(convert);
    rewriter.replaceOp(convert,
                       remat(rewriter, convert.getSrc(), layout, made));
    return success();
  }

private:
  /// The most operations one conversion is worth.
  static constexpr unsigned kMaxOps = 48;

  /// The layout operand `index` of `op` takes for `op`'s result to be in
  /// `layout`.
  static Attribute operandLayout(Operation *op, Attribute layout) {
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(op))
      return SliceEncodingAttr::get(op->getContext(), expand.getAxis(), layout);
    return layout;
  }

  static bool isRematerializable(Operation *op) {
    if (op->getNumResults() != 1 || op->getNumRegions() ||
        !isMemoryEffectFree(op))
      return false;
    return op->hasTrait<OpTrait::Elementwise>() ||
           isa<tile::AddPtrOp, tile::BroadcastOp, tile::ExpandDimsOp,
               tile::SplatOp, tile::RangeOp, arith::ConstantOp>(op);
  }

  bool canRemat(Value value, Attribute layout, unsigned &budget,
                DenseSet<std::pair<Value, Attribute>> &seen) const {
    if (!isa<RankedTensorType>(value.getType()) ||
        !seen.insert({value, layout}).second)
      return true;
    Operation *op = value.getDefiningOp();
    if (!op || budget == 0)
      return false;
    --budget;
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      return isa<SplatElementsAttr>(constant.getValue());
    if (isa<ConvertLayoutOp>(op))
      return true;
    if (isa<tile::ExpandDimsOp>(op) &&
        !isa<BlockedEncodingAttr, MmaEncodingAttr>(layout))
      return false;
    if (!isRematerializable(op))
      return false;
    Attribute inner = operandLayout(op, layout);
    return llvm::all_of(op->getOperands(), [&](Value operand) {
      return canRemat(operand, inner, budget, seen);
    });
  }

  Value remat(PatternRewriter &rewriter, Value value, Attribute layout,
              DenseMap<std::pair<Value, Attribute>, Value> &made) const {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return value;
    if (type.getEncoding() == layout)
      return value;
    if (Value done = made.lookup({value, layout}))
      return done;
    Operation *op = value.getDefiningOp();
    Value result;
    if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
      result = ConvertLayoutOp::create(
          rewriter, op->getLoc(), withLayout(type, layout), convert.getSrc());
    } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto splat = cast<SplatElementsAttr>(constant.getValue());
      auto newType = withLayout(type, layout);
      result = arith::ConstantOp::create(rewriter, op->getLoc(), newType,
                                         splat.reshape(newType));
    } else {
      Attribute inner = operandLayout(op, layout);
      IRMapping mapping;
      for (Value operand : op->getOperands())
        mapping.map(operand, remat(rewriter, operand, inner, made));
      Operation *clone = rewriter.clone(*op, mapping);
      clone->getResult(0).setType(withLayout(type, layout));
      result = clone->getResult(0);
    }
    made[{value, layout}] = result;
    return result;
  }
};

/// Whether `op` is in `block`, or in branches of scf.if ops in it (no loop
/// in between).
static bool isInBranchesOf(Operation *op, Block *block) {
  for (Block *at = op->getBlock(); at != block;) {
    Operation *parent = at->getParentOp();
    if (!isa_and_nonnull<scf::IfOp>(parent))
      return false;
    at = parent->getBlock();
  }
  return true;
}

/// f(convert(x)) -> convert(f(x)) for an elementwise f that narrows its
/// one operand (truncf of an accumulator before a store): the conversion
/// moves the narrow elements, half or a quarter of the bytes.
struct SinkBelowNarrowing : OpTraitRewritePattern<OpTrait::Elementwise> {
  using OpTraitRewritePattern::OpTraitRewritePattern;
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
        op->getNumRegions() || !isNarrowing(op))
      return failure();
    // Not into a loop the conversion stands outside of (into an scf.if is
    // fine: it then runs only where the branch does, as the store of a
    // tile's last step in a loop over tiles), and not out of a dot
    // operand's layout, whose placement depends on the elements' width.
    auto convert = op->getOperand(0).getDefiningOp<ConvertLayoutOp>();
    if (!convert || !convert->hasOneUse() ||
        !isInBranchesOf(op, convert->getBlock()) ||
        isFreeInAnyLayout(convert.getSrc()) ||
        isa<DotOperandEncodingAttr>(convert.getType().getEncoding()))
      return failure();
    Attribute layout = convert.getSrc().getType().getEncoding();
    rewriter.setInsertionPoint(op);
    IRMapping mapping;
    mapping.map(convert.getResult(), convert.getSrc());
    Operation *clone = rewriter.clone(*op, mapping);
    Type type = op->getResult(0).getType();
    clone->getResult(0).setType(withLayout(type, layout));
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, type, clone->getResult(0));
    rewriter.eraseOp(convert);
    return success();
  }
};

/// tile.store of a value converted from layout L (directly, or through
/// one-operand elementwise ops such as a cast, each used once): stored in L
/// instead, its pointers and mask converted to L. The accumulator of a
/// matrix product is stored straight from the registers of its #mma layout,
/// and the conversions of the pointers move up to where they are free.
/// That is the default for mma.sync's accumulators (`store-from-mma`);
/// wgmma's of 16 or 32 bits keep the conversion after the cast
/// (`store-from-wgmma=false`): in shared memory it turns a thread's pairs of
/// elements, 8 rows apart in a warp, into 16-byte stores of whole rows
/// (run 69 on an H200: 0.97-0.98 of cuBLAS at 4096^3 against 0.89). An
/// 8-bit result is stored from the registers: its conversion would move
/// single bytes.
struct StoreInSourceLayout : OpRewritePattern<tile::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::StoreOp store,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(store.getValue().getType());
    if (!type)
      return failure();
    // The chain from the conversion to the stored value.
    SmallVector<Operation *> chain;
    Value value = store.getValue();
    ConvertLayoutOp convert;
    while (Operation *op = value.getDefiningOp()) {
      if ((convert = dyn_cast<ConvertLayoutOp>(op)))
        break;
      if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
          !op->hasTrait<OpTrait::Elementwise>() || op->getNumRegions() ||
          !op->hasOneUse() || !isa<RankedTensorType>(op->getOperandTypes()[0]))
        return failure();
      chain.push_back(op);
      value = op->getOperand(0);
    }
    if (!convert || !convert->hasOneUse())
      return failure();
    Attribute layout = convert.getSrc().getType().getEncoding();
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(layout);
    if (!mma)
      return failure();
    if (mma.getVersionMajor() == 3
            ? !fromWgmma && type.getElementType().getIntOrFloatBitWidth() >= 16
            : !fromMma)
      return failure();

    rewriter.setInsertionPoint(store);
    Value moved = convert.getSrc();
    for (Operation *op : llvm::reverse(chain)) {
      IRMapping mapping;
      mapping.map(op->getOperand(0), moved);
      Operation *clone = rewriter.clone(*op, mapping);
      clone->getResult(0).setType(
          withLayout(op->getResult(0).getType(), layout));
      moved = clone->getResult(0);
    }
    auto inLayout = [&](Value tile) -> Value {
      if (!tile)
        return tile;
      return ConvertLayoutOp::create(rewriter, store.getLoc(),
                                     withLayout(tile.getType(), layout), tile);
    };
    Value ptr = inLayout(store.getPtr());
    Value mask = inLayout(store.getMask());
    rewriter.modifyOpInPlace(store, [&] {
      store.getPtrMutable().assign(ptr);
      store.getValueMutable().assign(moved);
      if (mask)
        store.getMaskMutable().assign(mask);
    });
    for (Operation *op : chain)
      if (op->use_empty())
        rewriter.eraseOp(op);
    return success();
  }

  bool fromMma = true;
  bool fromWgmma = false;
};

/// Whether `value` is made by an elementwise op (used only there) from
/// conversions out of `layout` and values free in any layout, at least one
/// of them such a conversion: made in `layout` instead, it needs no
/// conversion at all (the reset of an accumulator, select(last, 0,
/// convert(dot)), in a loop over several tiles).
static bool isElementwiseOfConversionsFrom(Value value, Type layoutType) {
  Operation *op = value.getDefiningOp();
  if (!op || !value.hasOneUse() || op->getNumResults() != 1 ||
      !op->hasTrait<OpTrait::Elementwise>() || op->getNumRegions() != 0 ||
      isNarrowing(op))
    return false;
  bool fromLayout = false;
  for (Value operand : op->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()))
      continue;
    if (auto convert = operand.getDefiningOp<ConvertLayoutOp>()) {
      if (convert.getSrc().getType() != layoutType)
        return false;
      fromLayout = true;
      continue;
    }
    if (!isFreeInAnyLayout(operand))
      return false;
  }
  return fromLayout;
}

/// An scf.for iter_arg whose every use in the body converts it to one layout
/// L, and whose yielded value is a conversion from L (or an elementwise op of
/// such conversions and values free in any layout): carried in L, its
/// initial value converted before the loop and its result after it.
struct CarryInConvertedLayout : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || arg.use_empty())
        continue;
      RankedTensorType target;
      bool allConvert = llvm::all_of(arg.getUses(), [&](OpOperand &use) {
        auto convert = dyn_cast<ConvertLayoutOp>(use.getOwner());
        if (!convert || (target && convert.getType() != target))
          return false;
        target = convert.getType();
        return true;
      });
      if (!allConvert)
        continue;
      Value yielded = loop.getYieldedValues()[index];
      Value carried;
      if (auto back = yielded.getDefiningOp<ConvertLayoutOp>();
          back && back.getSrc().getType() == target) {
        carried = back.getSrc();
      } else if (isElementwiseOfConversionsFrom(yielded, target)) {
        // Converted at the end of the body: HoistThroughElementwise then
        // makes the op in L, where the conversions from L cancel.
        rewriter.setInsertionPoint(loop.getBody()->getTerminator());
        carried =
            ConvertLayoutOp::create(rewriter, loop.getLoc(), target, yielded);
      } else {
        continue;
      }

      // Convert the initial value before the loop...
      rewriter.setInsertionPoint(loop);
      OpOperand &init = loop.getInitArgsMutable()[index];
      Value newInit =
          ConvertLayoutOp::create(rewriter, loop.getLoc(), target, init.get());
      // ...and the result after it, for its users.
      Value result = loop.getResult(index);
      rewriter.setInsertionPointAfter(loop);
      auto resultBack =
          ConvertLayoutOp::create(rewriter, loop.getLoc(), type, result);
      rewriter.modifyOpInPlace(loop, [&] {
        init.set(newInit);
        arg.setType(target);
        result.setType(target);
        (*loop.getYieldedValuesMutable())[index].set(carried);
      });
      rewriter.replaceAllUsesExcept(result, resultBack.getResult(), resultBack);
      for (OpOperand &use : llvm::make_early_inc_range(arg.getUses()))
        rewriter.replaceOp(use.getOwner(), arg);
      return success();
    }
    return failure();
  }
};

/// An scf.if result that both branches yield converted from one layout L
/// (the loop of each version that tile-loads-to-descs makes carries its
/// accumulator in #mma): yielded in L, converted after the scf.if for its
/// users, so that the epilogue's store takes L as it does after one loop.
struct YieldInConvertedLayout : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::IfOp branch,
                                PatternRewriter &rewriter) const override {
    if (branch.getElseRegion().empty())
      return failure();
    std::array<scf::YieldOp, 2> yields = {branch.thenYield(),
                                          branch.elseYield()};
    for (auto [index, result] : llvm::enumerate(branch.getResults())) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      auto first = yields[0].getOperand(index).getDefiningOp<ConvertLayoutOp>();
      auto second =
          yields[1].getOperand(index).getDefiningOp<ConvertLayoutOp>();
      // Each the yield's own (a conversion kept for other users would
      // add one more after the scf.if).
      if (!type || !first || !second || first == second ||
          !first->hasOneUse() || !second->hasOneUse() ||
          first.getSrc().getType() != second.getSrc().getType())
        continue;
      rewriter.setInsertionPointAfter(branch);
      auto back =
          ConvertLayoutOp::create(rewriter, branch.getLoc(), type, result);
      rewriter.modifyOpInPlace(
          branch, [&] { result.setType(first.getSrc().getType()); });
      std::array<ConvertLayoutOp, 2> converts = {first, second};
      for (unsigned b = 0; b < 2; ++b)
        rewriter.modifyOpInPlace(yields[b], [&] {
          yields[b]->setOperand(index, converts[b].getSrc());
        });
      rewriter.replaceAllUsesExcept(result, back.getResult(), back);
      for (ConvertLayoutOp convert : converts)
        rewriter.eraseOp(convert);
      return success();
    }
    return failure();
  }
};

struct TileGPURemoveLayoutConversionsPass
    : tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          TileGPURemoveLayoutConversionsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Stores move last, once every other conversion has moved and folded:
    // tilegpu-warpgroup-dot leaves wgmma's accumulator converted to
    // mma.sync's layout after the loop, inside both versions of it; that
    // conversion first leaves the branches, moves below the cast and folds
    // into the store's, so that the store then follows the layout the value
    // is made in.
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeInTargetLayout, HoistThroughElementwise,
                 HoistThroughShapeOps, RematerializeSlice, SinkBelowNarrowing,
                 CarryInConvertedLayout, YieldInConvertedLayout>(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    if (failed(applyPatternsGreedily(getOperation(), frozen)))
      return signalPassFailure();
    RewritePatternSet withStores(&getContext());
    withStores.add<RematerializeInTargetLayout, HoistThroughElementwise,
                   HoistThroughShapeOps, RematerializeSlice, SinkBelowNarrowing,
                   CarryInConvertedLayout, YieldInConvertedLayout>(
        &getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(withStores, &getContext());
    auto store = std::make_unique<StoreInSourceLayout>(&getContext());
    store->fromMma = storeFromMma;
    store->fromWgmma = storeFromWgmma;
    withStores.add(std::move(store));
    if (failed(applyPatternsGreedily(getOperation(), std::move(withStores))))
      return signalPassFailure();
  }
};
} // namespace
