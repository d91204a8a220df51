//===- Coalesce.cpp - Pick layouts with 128-bit global accesses -----------===//
//
// A warp's load is coalesced when its 32 threads read neighbouring addresses;
// it is also wide when each thread reads 16 consecutive bytes with one
// instruction. Both follow from the layout: a thread holds sizePerThread
// consecutive elements along the fastest dimension. This pass runs the axis
// analysis on the pointers and masks of the kernel's loads and stores and
// widens, rank by rank, the layout that convert-tile-to-tilegpu gave all tiles
// of that rank. A dot off the tensor cores whose layout is the rank's keeps it
// where the widened one would not fit its operands in registers.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUCOALESCE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The layout a memory access asks for, and how much it weighs.
struct Candidate {
  int64_t elements = 0;
  int64_t perThread = 0;
  Attribute layout;
};

struct TileGPUCoalescePass
    : tilegpu::impl::TileGPUCoalesceBase<TileGPUCoalescePass> {
  void runOnOperation() override {
    for (tile::FuncOp func : getOperation().getOps<tile::FuncOp>())
      if (failed(coalesce(func)))
        return signalPassFailure();
  }

  LogicalResult coalesce(tile::FuncOp func);
};
} // namespace

LogicalResult TileGPUCoalescePass::coalesce(tile::FuncOp func) {
  auto numWarpsAttr =
      func->getAttrOfType<IntegerAttr>(TileGPUDialect::getNumWarpsAttrName());
  if (!numWarpsAttr)
    return func.emitError("kernel '")
           << func.getSymName()
           << "' has no layouts yet; run convert-tile-to-tilegpu first";
  int64_t numThreads = numWarpsAttr.getInt() * TileGPUDialect::kThreadsPerWarp;

  tile::AxisInfoResult axisInfo(func);
  if (failed(axisInfo.getStatus()))
    return func.emitError("axis analysis failed");

  DenseMap<Attribute, Candidate> choices;
  auto consider = [&](Value ptr, Value mask) {
    auto type = dyn_cast<RankedTensorType>(ptr.getType());
    if (!type)
      return;
    auto layout = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
    if (!layout)
      return;
    // The dimension with the longest runs of consecutive addresses goes
    // first; on ties, the later dimension (row-major).
    tile::AxisInfo info = axisInfo.get(ptr);
    SmallVector<unsigned> order;
    for (unsigned d = type.getRank(); d-- > 0;)
      order.push_back(d);
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return info.getContiguity(a) > info.getContiguity(b);
    });
    int64_t width = axisInfo.getAccessWidth(ptr, mask, order[0]);
    int64_t perThread = std::min(
        width, std::max<int64_t>(1, type.getNumElements() / numThreads));
    Candidate candidate{type.getNumElements(), perThread,
                        getDefaultBlockedLayout(&getContext(), type.getShape(),
                                                numWarpsAttr.getInt(),
                                                perThread, order)};
    Candidate &best = choices[layout];
    if (candidate.elements > best.elements ||
        (candidate.elements == best.elements &&
         candidate.perThread > best.perThread))
      best = candidate;
  };
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<tile::LoadOp>(op))
      consider(load.getPtr(), load.getMask());
    else if (auto store = dyn_cast<tile::StoreOp>(op))
      consider(store.getPtr(), store.getMask());
    else if (auto atomic = dyn_cast<tile::AtomicAddOp>(op))
      consider(atomic.getPtr(), atomic.getMask());
  });

  // A dot off the tensor cores (its result blocked) has its operands in the
  // dot-operand layouts of its result's layout, a thread holding whole rows
  // of A and columns of B along K for the elements of the result it holds.
  // Where that layout is the rank's, widening it multiplies those: such a
  // dot keeps its layout, with conversions around it, where the widened one
  // would need more registers than a thread has (tile-smith's seed 2769: a
  // 64 x 32 result on 16 warps, 8 columns a thread, 512 elements of B).
  struct KeptDot {
    tile::DotOp dot;
    SmallVector<Type, 4> types;
  };
  SmallVector<KeptDot> keptDots;
  func.walk([&](tile::DotOp dot) {
    auto layout = dyn_cast_or_null<BlockedEncodingAttr>(
        dot.getD().getType().getEncoding());
    auto it = layout ? choices.find(layout) : choices.end();
    if (it == choices.end())
      return;
    auto fits = [&](Value operand, unsigned index) {
      auto type = cast<RankedTensorType>(operand.getType());
      return getElementsPerThread(RankedTensorType::get(
                 type.getShape(), type.getElementType(),
                 DotOperandEncodingAttr::get(&getContext(), index,
                                             it->second.layout))) <=
             kMaxElementsPerThread;
    };
    if (fits(dot.getA(), 0) && fits(dot.getB(), 1))
      return;
    keptDots.push_back({dot,
                        {dot.getA().getType(), dot.getB().getType(),
                         dot.getC().getType(), dot.getD().getType()}});
  });

  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](BlockedEncodingAttr layout) -> std::optional<Attribute> {
        auto it = choices.find(layout);
        if (it == choices.end())
          return std::nullopt;
        return it->second.layout;
      });
  replacer.recursivelyReplaceElementsIn(func, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  // Constants keep their value in a property the replacer does not visit.
  func.walk([&](arith::ConstantOp constant) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (dense && dense.getType() != constant.getType())
      constant.setValueAttr(
          dense.reshape(cast<ShapedType>(constant.getType())));
  });

  for (KeptDot &kept : keptDots) {
    tile::DotOp dot = kept.dot;
    OpBuilder builder(dot);
    Location loc = dot.getLoc();
    auto keep = [&](OpOperand &operand, Type type) {
      if (operand.get().getType() == type)
        return;
      operand.set(ConvertLayoutOp::create(builder, loc, type, operand.get()));
    };
    keep(dot.getAMutable(), kept.types[0]);
    keep(dot.getBMutable(), kept.types[1]);
    keep(dot.getCMutable(), kept.types[2]);
    Type widened = dot.getD().getType();
    if (widened == kept.types[3])
      continue;
    dot.getD().setType(cast<RankedTensorType>(kept.types[3]));
    builder.setInsertionPointAfter(dot);
    auto back = ConvertLayoutOp::create(builder, loc, widened, dot.getD());
    dot.getD().replaceAllUsesExcept(back.getResult(), back);
  }
  return success();
}
