//===- SplitDot.cpp - One tensor-core dot per step of K -------------------===//
//
// A tile.dot on tensor cores whose operands come from shared memory
//
//   %a = tilegpu.local_load %sa : memdesc<M x K> -> tensor<M x K, #dot_op0>
//   %b = tilegpu.local_load %sb : memdesc<K x N> -> tensor<K x N, #dot_op1>
//   ...
//   %d = tile.dot %a, %b, %c
//
// becomes one dot per step s of the MMA instruction's K (16, or 8 for
// TF32), each loading its slices just before it:
//
//   %a0 = tilegpu.local_load %sa offsets [0, 0]  -> tensor<M x 16, ...>
//   %b0 = tilegpu.local_load %sb offsets [0, 0]  -> tensor<16 x N, ...>
//   %d0 = tile.dot %a0, %b0, %c
//   %a1 = tilegpu.local_load %sa offsets [0, 16] ...
//   ...
//
// The products are added in the same order as before (the lowering of a
// dot walks K outermost), so the result is bit for bit the same; what
// changes is that a thread holds one step's fragments at a time instead of
// all of K's, which leaves registers for more blocks per SM or larger K
// tiles, and lets ptxas overlap the next step's ldmatrix with this step's
// mma.sync.
//
// All the steps stand where the dot stood. (Putting the first step where
// the whole loads were, before the next stage's copies, measured 7% slower
// at 4096^3 on an H100: bench/results/2026-11-25-h100-run16-*.)
//
// The slices are loaded where the dot stands, later than the whole loads
// were. Between the two, the loop may have started asynchronous copies into
// shared memory (tilegpu-pipeline puts the next stage's copies there); a
// copy into the buffer being read there would already race with the other
// threads' reads, which no barrier separates from it, so moving the reads
// past it is sound; so is moving them past operations that only read.
// Any other operation that may write memory, or waits and synchronizes
// (tilegpu.async_wait), leaves the dot whole.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUSPLITDOT
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

/// The whole-tile load from shared memory feeding only `operand`.
static LocalLoadOp getSplittableLoad(Value operand, tile::DotOp dot) {
  auto load = operand.getDefiningOp<LocalLoadOp>();
  if (!load || load.getOffsets() || !load->hasOneUse() ||
      load->getBlock() != dot->getBlock())
    return {};
  // Nothing between the load and the dot may write shared memory
  // synchronously or wait (see the file comment).
  for (Operation *op = load->getNextNode(); op != dot; op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    bool onlyReads = effects && op->getNumRegions() == 0 &&
                     effects.onlyHasEffect<MemoryEffects::Read>();
    if (!isa<AsyncCopyOp, AsyncCommitGroupOp>(op) && !onlyReads &&
        !isMemoryEffectFree(op))
      return {};
  }
  return load;
}

/// The K of one mma.sync instruction for operands of `element`.
static int64_t getInstructionK(Type element) {
  return element.getIntOrFloatBitWidth() == 16 ? 16 : 8;
}

namespace {
struct TileGPUSplitDot : tilegpu::impl::TileGPUSplitDotBase<TileGPUSplitDot> {
  void runOnOperation() override {
    SmallVector<tile::DotOp> dots;
    getOperation().walk([&](tile::DotOp dot) {
      if (isa_and_nonnull<MmaEncodingAttr>(dot.getD().getType().getEncoding()))
        dots.push_back(dot);
    });
    for (tile::DotOp dot : dots)
      split(dot);
  }

  void split(tile::DotOp dot) {
    LocalLoadOp loadA = getSplittableLoad(dot.getA(), dot);
    LocalLoadOp loadB = getSplittableLoad(dot.getB(), dot);
    if (!loadA || !loadB)
      return;
    auto typeA = cast<RankedTensorType>(dot.getA().getType());
    auto typeB = cast<RankedTensorType>(dot.getB().getType());
    int64_t m = typeA.getDimSize(0), k = typeA.getDimSize(1);
    int64_t n = typeB.getDimSize(1);
    int64_t step = getInstructionK(typeA.getElementType());
    if (k <= step || k % step != 0)
      return;

    OpBuilder b(dot);
    Location loc = dot.getLoc();
    auto sliceA = RankedTensorType::get({m, step}, typeA.getElementType(),
                                        typeA.getEncoding());
    auto sliceB = RankedTensorType::get({step, n}, typeB.getElementType(),
                                        typeB.getEncoding());
    Value acc = dot.getC();
    for (int64_t k0 = 0; k0 < k; k0 += step) {
      Value a = LocalLoadOp::create(b, loadA.getLoc(), sliceA, loadA.getSrc(),
                                    b.getDenseI64ArrayAttr({0, k0}));
      Value bSlice =
          LocalLoadOp::create(b, loadB.getLoc(), sliceB, loadB.getSrc(),
                              b.getDenseI64ArrayAttr({k0, 0}));
      acc = tile::DotOp::create(b, loc, dot.getType(), a, bSlice, acc,
                                dot.getInputPrecisionAttr());
    }
    dot.replaceAllUsesWith(acc);
    dot.erase();
    loadA.erase();
    loadB.erase();
  }
};
} // namespace
