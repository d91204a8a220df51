//===- TileToTileGPU.cpp - Give every tile a GPU layout -------------------===//
//
// All tiles of one rank share one blocked layout, made for the largest tile of
// that rank, so that elementwise operations never need to move data between
// threads. Reductions and tile.expand_dims are the places where two ranks
// meet: there the pass inserts layout conversions to and from slice layouts,
// which tilegpu-remove-layout-conversions mostly removes again.
//
// tile.dot is where layouts must change: its result gets the mma layout of
// the tensor cores' accumulator (or, for f32 inputs multiplied in full
// precision and for tiles too small for an instruction, stays blocked, for
// FMAs), and its operands the dot-operand layouts of that result, each
// through a conversion.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
struct ConvertTileToTileGPUPass
    : tile::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPUPass> {
  using ConvertTileToTileGPUBase::ConvertTileToTileGPUBase;

  void runOnOperation() override {
    for (FuncOp func : getOperation().getOps<FuncOp>())
      if (failed(convertKernel(func)))
        return signalPassFailure();
  }

  LogicalResult convertKernel(FuncOp func);
};
} // namespace

/// Calls `fn` on every tensor type of a value in `func`.
static void forEachTensorType(FuncOp func,
                              function_ref<void(RankedTensorType)> fn) {
  func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        fn(tensor);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (auto tensor = dyn_cast<RankedTensorType>(arg.getType()))
            fn(tensor);
  });
}

/// Whether a dot of `a` and `b` runs on tensor cores: f16 and bf16, f32 in
/// TF32, and the 8-bit floats (which only wgmma multiplies so far:
/// convert-tilegpu-to-llvm refuses the others), on tiles that hold whole
/// instruction tiles (M >= 16, N >= 8, and K >= 16, 8 for TF32, 32 for
/// 8-bit floats).
static bool usesTensorCores(DotOp dot) {
  RankedTensorType a = dot.getA().getType(), b = dot.getB().getType();
  Type element = a.getElementType();
  bool tf32 = element.isF32() && dot.getPrecision() == InputPrecision::tf32;
  bool f8 = isa<Float8E4M3FNType, Float8E5M2Type>(element);
  if (!element.isF16() && !element.isBF16() && !tf32 && !f8)
    return false;
  return a.getDimSize(0) >= 16 && b.getDimSize(1) >= 8 &&
         a.getDimSize(1) >= (tf32 ? 8
                             : f8 ? 32
                                  : 16);
}

/// Gives `dot` its result's layout (mma, or for the FMA path the blocked
/// layout fitted to the result's shape) and its operands the matching
/// dot-operand layouts, converting operands into them and the result back to
/// its blocked layout.
static void assignDotLayouts(DotOp dot, unsigned numWarps) {
  MLIRContext *context = dot.getContext();
  RankedTensorType dType = dot.getD().getType();
  Attribute blocked = dType.getEncoding();
  // The FMA path's thread holds whole rows of A and columns of B for the
  // elements of D it holds: D's layout is the one fitted to D's own shape
  // (the fewest elements per thread), not the rank's, which a larger tile
  // of the kernel chose and which may give a thread many rows (seed 14540:
  // a 32x8 result on 8 warps in the layout of a 32x64 tile held 8 rows of
  // a 32x64 A, 512 registers).
  Attribute parent =
      usesTensorCores(dot)
          ? Attribute(MmaEncodingAttr::get(
                context, getMmaWarpsPerCTA(dType.getShape(), numWarps),
                /*versionMajor=*/2))
          : getDefaultBlockedLayout(context, dType.getShape(), numWarps);
  OpBuilder builder(dot);
  auto convert = [&](Value value, Attribute layout) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getEncoding() == layout)
      return value;
    return ConvertLayoutOp::create(builder, dot.getLoc(),
                                   RankedTensorType::get(type.getShape(),
                                                         type.getElementType(),
                                                         layout),
                                   value)
        .getResult();
  };
  dot.getAMutable().assign(
      convert(dot.getA(), DotOperandEncodingAttr::get(context, 0, parent)));
  dot.getBMutable().assign(
      convert(dot.getB(), DotOperandEncodingAttr::get(context, 1, parent)));
  dot.getCMutable().assign(convert(dot.getC(), parent));
  if (parent == blocked)
    return;
  dot.getD().setType(
      RankedTensorType::get(dType.getShape(), dType.getElementType(), parent));
  builder.setInsertionPointAfter(dot);
  auto back = ConvertLayoutOp::create(builder, dot.getLoc(), dType, dot.getD());
  dot.getD().replaceAllUsesExcept(back.getResult(), back);
}

LogicalResult ConvertTileToTileGPUPass::convertKernel(FuncOp func) {
  MLIRContext *context = &getContext();
  // Casts become arith ops, which the LLVM lowering knows (canonicalization
  // does this too, but the pass must not depend on it).
  SmallVector<CastOp> casts;
  func.walk([&](CastOp cast) { casts.push_back(cast); });
  IRRewriter rewriter(context);
  for (CastOp cast : casts)
    expandCastOp(cast, rewriter);

  unsigned warps = TileDialect::getNumWarps(func, numWarps);
  if (!TileDialect::isValidNumWarps(warps))
    return func.emitError("num-warps must be a power of two from 1 to 32, "
                          "got ")
           << warps;

  // The largest tile of each rank decides the rank's layout.
  DenseMap<int64_t, SmallVector<int64_t>> largest;
  bool hasEncoding = false;
  forEachTensorType(func, [&](RankedTensorType type) {
    hasEncoding |= static_cast<bool>(type.getEncoding());
    auto [it, inserted] = largest.try_emplace(type.getRank(), type.getShape());
    int64_t size = type.getNumElements();
    if (!inserted &&
        size > RankedTensorType::get(it->second, type.getElementType())
                   .getNumElements())
      it->second.assign(type.getShape().begin(), type.getShape().end());
  });
  if (hasEncoding)
    return func.emitError("kernel '")
           << func.getSymName() << "' already has layouts";
  for (auto &[rank, shape] : largest)
    for (int64_t size : shape)
      if (!llvm::isPowerOf2_64(size))
        return func.emitError("kernel '")
               << func.getSymName() << "' has a tile of shape "
               << RankedTensorType::get(shape, Float32Type::get(context))
               << "; the GPU lowering needs dimensions that are powers of two";

  DenseMap<int64_t, Attribute> layouts;
  for (auto &[rank, shape] : largest)
    layouts[rank] = getDefaultBlockedLayout(context, shape, warps);

  AttrTypeReplacer replacer;
  replacer.addReplacement([&](RankedTensorType type) -> std::optional<Type> {
    if (type.getEncoding())
      return std::nullopt;
    auto it = layouts.find(type.getRank());
    if (it == layouts.end())
      return std::nullopt;
    return RankedTensorType::get(type.getShape(), type.getElementType(),
                                 it->second);
  });
  replacer.recursivelyReplaceElementsIn(func, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);

  // Constants hold their value as a property, which the replacer does not
  // visit: give the value the new type.
  func.walk([&](arith::ConstantOp constant) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (dense && dense.getType() != constant.getType())
      constant.setValueAttr(
          dense.reshape(cast<ShapedType>(constant.getType())));
  });

  // A reduction to a tile produces the slice of its source's layout...
  OpBuilder builder(context);
  func.walk([&](ReduceOp reduce) {
    auto resultType = dyn_cast<RankedTensorType>(reduce.getType());
    if (!resultType)
      return;
    auto parent =
        cast<BlockedEncodingAttr>(reduce.getSrc().getType().getEncoding());
    auto sliceType = RankedTensorType::get(
        resultType.getShape(), resultType.getElementType(),
        SliceEncodingAttr::get(context, reduce.getAxis(), parent));
    reduce.getResult().setType(sliceType);
    builder.setInsertionPointAfter(reduce);
    auto convert = ConvertLayoutOp::create(builder, reduce.getLoc(), resultType,
                                           reduce.getResult());
    reduce.getResult().replaceAllUsesExcept(convert.getResult(), convert);
  });
  // ...and expand_dims turns the slice of its result's layout into it.
  func.walk([&](ExpandDimsOp expand) {
    auto parent = cast<BlockedEncodingAttr>(expand.getType().getEncoding());
    RankedTensorType srcType = expand.getSrc().getType();
    auto sliceType = RankedTensorType::get(
        srcType.getShape(), srcType.getElementType(),
        SliceEncodingAttr::get(context, expand.getAxis(), parent));
    builder.setInsertionPoint(expand);
    auto convert = ConvertLayoutOp::create(builder, expand.getLoc(), sliceType,
                                           expand.getSrc());
    expand.getSrcMutable().assign(convert.getResult());
  });

  func.walk([&](DotOp dot) { assignDotLayouts(dot, warps); });

  func->setAttr(TileGPUDialect::getNumWarpsAttrName(),
                builder.getI32IntegerAttr(warps));
  return success();
}
