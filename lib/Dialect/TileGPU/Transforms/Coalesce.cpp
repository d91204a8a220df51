//===- Coalesce.cpp - Pick layouts with 128-bit global accesses -----------===//
//
// A warp's load is coalesced when its 32 threads read neighbouring addresses;
// it is also wide when each thread reads 16 consecutive bytes with one
// instruction. Both follow from the layout: a thread holds sizePerThread
// consecutive elements along the fastest dimension. This pass runs the axis
// analysis on the pointers and masks of the kernel's loads and stores and
// widens, rank by rank, the layout that convert-tile-to-tilegpu gave all tiles
// of that rank.
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
  return success();
}
