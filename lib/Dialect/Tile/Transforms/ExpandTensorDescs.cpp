//===- ExpandTensorDescs.cpp - Descriptor loads as masked loads ----------===//
//
// The portable lowering of tile.desc_load: the pointers and the mask a
// kernel would write by hand for the same box, and a tile.load of them.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEEXPANDTENSORDESCS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Builds the tiles of one box: each dimension's coordinates as a tile of
/// the box's shape.
struct BoxBuilder {
  RewriterBase &rewriter;
  Location loc;
  ArrayRef<int64_t> box;

  Value splat(Value scalar, Type element) {
    return SplatOp::create(rewriter, loc, RankedTensorType::get(box, element),
                           scalar);
  }

  /// A tile of dimension `d` only (size box[d]) repeated over the others.
  Value spread(Value line, unsigned d) {
    auto lineType = cast<RankedTensorType>(line.getType());
    if (box.size() == 1)
      return line;
    SmallVector<int64_t, 2> shape(box.size(), 1);
    shape[d] = box[d];
    Value expanded = ExpandDimsOp::create(
        rewriter, loc, RankedTensorType::get(shape, lineType.getElementType()),
        line, d == 0 ? 1 : 0);
    return BroadcastOp::create(
        rewriter, loc, RankedTensorType::get(box, lineType.getElementType()),
        expanded);
  }
};
} // namespace

/// Replaces `load` by a masked tile.load of the same box.
static void expandDescLoad(DescLoadOp load, MakeTensorDescOp desc,
                           RewriterBase &rewriter) {
  rewriter.setInsertionPoint(load);
  Location loc = load.getLoc();
  TensorDescType type = desc.getType();
  ArrayRef<int64_t> box = type.getBlockShape();
  BoxBuilder build{rewriter, loc, box};
  Type i32 = rewriter.getI32Type();
  // The constants at the kernel's start, outside any loop.
  auto kernel = load->getParentOfType<FuncOp>();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  Value zero32 = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
  auto resultType = type.getBlockType();
  Value zeros = arith::ConstantOp::create(rewriter, loc, resultType,
                                          rewriter.getZeroAttr(resultType));
  rewriter.setInsertionPoint(load);

  Value offsets, mask;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    auto lineType = RankedTensorType::get({box[d]}, i32);
    Value range = RangeOp::create(rewriter, loc, lineType, 0,
                                  static_cast<int32_t>(box[d]));
    Value start =
        SplatOp::create(rewriter, loc, lineType, load.getOffsets()[d]);
    Value coordinate = arith::AddIOp::create(rewriter, loc, range, start);
    // Inside the tensor along d: 0 <= coordinate < size.
    Value low = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge, coordinate,
        SplatOp::create(rewriter, loc, lineType, zero32));
    Value high = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, coordinate,
        SplatOp::create(rewriter, loc, lineType, desc.getShape()[d]));
    Value inside =
        build.spread(arith::AndIOp::create(rewriter, loc, low, high), d);
    Value stride = desc.getStrides()[d];
    Value scaled = matchPattern(stride, m_One())
                       ? coordinate
                       : arith::MulIOp::create(
                             rewriter, loc, coordinate,
                             SplatOp::create(rewriter, loc, lineType, stride))
                             .getResult();
    Value offset = build.spread(scaled, d);
    offsets =
        offsets
            ? arith::AddIOp::create(rewriter, loc, offsets, offset).getResult()
            : offset;
    mask = mask ? arith::AndIOp::create(rewriter, loc, mask, inside).getResult()
                : inside;
  }

  Value base = build.splat(desc.getBase(), desc.getBase().getType());
  Value pointers =
      AddPtrOp::create(rewriter, loc, base.getType(), base, offsets);
  rewriter.replaceOpWithNewOp<LoadOp>(load, pointers, mask, zeros);
}

/// Whether wgmma computes `dot` on `numWarps` warps: the shapes its
/// warpgroups take (tile/Dialect/TileGPU/IR/Wgmma.h) and K a multiple of
/// its instruction's (16, or 32 for 8-bit floats). The staging TMA copies
/// into is wgmma's own.
static bool isWarpgroupDot(DotOp dot, unsigned numWarps) {
  RankedTensorType a = dot.getA().getType(), d = dot.getD().getType();
  return a.getDimSize(1) % tilegpu::getWgmmaInstrK(a.getElementType()) == 0 &&
         tilegpu::getWgmmaWarpsPerCTA(d.getShape(), numWarps).has_value();
}

/// Whether a TMA copy serves `load` (see the pass's description): its tile
/// only an operand of dots wgmma computes, 16-bit (or 8-bit, as the dots'
/// A only: wgmma reads 8-bit operands contiguous along K, and a box's rows
/// are contiguous along B's N), a box of two dimensions with rows of at
/// least 32 bytes (the narrowest swizzle) and a multiple of 8 rows (a
/// swizzle's period), in a loop of more than one iteration (one of at most
/// one, which canonicalization then inlines, would leave the load outside
/// any loop, where tilegpu-pipeline cannot stage it: tile-smith's seed
/// 3158), and of one dot only (tilegpu-pipeline stages a load whose one use
/// is the layout conversion to a dot's operand: a tile two dots read, each
/// converting it, stayed unstaged; seed 3613).
static bool servedByTma(DescLoadOp load, unsigned numWarps) {
  TensorDescType type = load.getDesc().getType();
  Type element = type.getElementType();
  bool is8Bit = isa<Float8E4M3FNType, Float8E5M2Type>(element);
  if (type.getRank() != 2 || !(element.isF16() || element.isBF16() || is8Bit))
    return false;
  ArrayRef<int64_t> box = type.getBlockShape();
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  if (box[1] * bytes < 32 || box[0] % 8 != 0)
    return false;
  if (is8Bit && llvm::any_of(load->getUses(), [](OpOperand &use) {
        return use.getOperandNumber() != 0;
      }))
    return false;
  auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
  if (!loop || !load->hasOneUse())
    return false;
  if (std::optional<APInt> trips = loop.getStaticTripCount();
      trips && trips->ule(1))
    return false;
  return llvm::all_of(load->getUses(), [&](OpOperand &use) {
    auto dot = dyn_cast<DotOp>(use.getOwner());
    return dot && use.getOperandNumber() < 2 && isWarpgroupDot(dot, numWarps);
  });
}

namespace {
struct TileExpandTensorDescsPass
    : tile::impl::TileExpandTensorDescsBase<TileExpandTensorDescsPass> {
  using TileExpandTensorDescsBase::TileExpandTensorDescsBase;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<DescLoadOp> loads;
    getOperation().walk([&](DescLoadOp load) {
      auto kernel = load->getParentOfType<FuncOp>();
      unsigned warps =
          kernel ? TileDialect::getNumWarps(kernel, numWarps) : numWarps;
      if (!(tma && servedByTma(load, warps)))
        loads.push_back(load);
    });
    for (DescLoadOp load : loads)
      expandDescLoad(load, load.getDesc().getDefiningOp<MakeTensorDescOp>(),
                     rewriter);
    getOperation().walk([&](MakeTensorDescOp desc) {
      if (desc->use_empty())
        rewriter.eraseOp(desc);
    });
  }
};
} // namespace
