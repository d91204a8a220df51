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
// once, around the loop, rather than twice in every iteration.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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
    unsigned costly = 0;
    for (Value operand : src->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !isFreeInAnyLayout(operand))
        ++costly;
    // With other uses, the op stays and a copy is made in the new layout:
    // worth it only if the copy's operands are all free.
    if (costly > (src->hasOneUse() ? 1 : 0))
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

/// An scf.for iter_arg whose every use in the body converts it to one layout
/// L, and whose yielded value is a conversion from L: carried in L, its
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
      Value yielded = loop.getYieldedValues()[index];
      auto back = yielded.getDefiningOp<ConvertLayoutOp>();
      if (!allConvert || !back || back.getSrc().getType() != target)
        continue;

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
        (*loop.getYieldedValuesMutable())[index].set(back.getSrc());
      });
      rewriter.replaceAllUsesExcept(result, resultBack.getResult(), resultBack);
      for (OpOperand &use : llvm::make_early_inc_range(arg.getUses()))
        rewriter.replaceOp(use.getOwner(), arg);
      return success();
    }
    return failure();
  }
};

struct TileGPURemoveLayoutConversionsPass
    : tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          TileGPURemoveLayoutConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeInTargetLayout, HoistThroughElementwise,
                 CarryInConvertedLayout>(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
