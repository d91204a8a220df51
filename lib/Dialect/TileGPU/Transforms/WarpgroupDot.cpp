//===- WarpgroupDot.cpp - Multiply with wgmma from shared memory ----------===//
//
// After tilegpu-pipeline, a dot whose operands are staged in shared memory
// reads them into registers (ldmatrix) for mma.sync:
//
//   %a = tilegpu.local_load %sa : memdesc<M x K> -> tensor<M x K, #dot_op0>
//   %b = tilegpu.local_load %sb : memdesc<K x N> -> tensor<K x N, #dot_op1>
//   %d = tile.dot %a, %b, %c : ... -> tensor<M x N, #mma>
//
// On sm_90a this pass has wgmma read the buffers itself:
//
//   %c3 = tilegpu.convert_layout %c : #mma -> #mma3
//   %d3 = tilegpu.warpgroup_dot %sa, %sb, %c3
//   %d = tilegpu.convert_layout %d3 : #mma3 -> #mma
//
// and gives the buffers (the allocation, and each stage of a ring) the
// layouts wgmma reads. The conversions cancel around the loop in
// tilegpu-remove-layout-conversions, which then carries the accumulator in
// #mma3.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Wgmma.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUWARPGROUPDOT
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// A buffer a dot reads, and the values that carry it (the allocation and
/// the stages picked from its ring).
struct Buffer {
  LocalLoadOp load;
  SmallVector<Value> values;
  MemDescType wanted;
};
} // namespace

/// The buffer `load` reads, if only copies into it and this load use it.
static std::optional<Buffer> matchBuffer(LocalLoadOp load) {
  if (load.getOffsets() || !load->hasOneUse())
    return std::nullopt;
  Value src = load.getSrc();
  Buffer buffer;
  buffer.load = load;
  Value root = src;
  if (auto index = src.getDefiningOp<MemDescIndexOp>())
    root = index.getSrc();
  if (!root.getDefiningOp<LocalAllocOp>())
    return std::nullopt;
  buffer.values.push_back(root);
  for (Operation *user : root.getUsers()) {
    if (auto index = dyn_cast<MemDescIndexOp>(user)) {
      buffer.values.push_back(index.getResult());
      continue;
    }
    if (user == load || isa<AsyncCopyOp, TmaLoadOp>(user))
      continue;
    return std::nullopt;
  }
  for (Value value : ArrayRef<Value>(buffer.values).drop_front())
    for (Operation *user : value.getUsers())
      if (user != load && !isa<AsyncCopyOp, TmaLoadOp>(user))
        return std::nullopt;
  return buffer;
}

/// `type` with `layout`.
static MemDescType withLayout(MemDescType type, Attribute layout) {
  return MemDescType::get(type.getContext(), type.getShape(),
                          type.getElementType(), layout);
}

/// The earliest point of `op`'s block where `op` may stand: after the ops
/// defining its operands (or `also`'s), after the last wait (which makes
/// the buffers' contents visible: a cp.async group's or a TMA copy's
/// mbarrier) and after any copy into a buffer it reads, whichever comes
/// last. wgmma is asynchronous: issued there, it
/// runs while the rest of the iteration (the next stage's copies and their
/// addresses) is issued. (The copies tilegpu-pipeline starts in the loop go
/// to another stage of the ring than the one the iteration reads.)
static Operation *getEarliestPoint(Operation *op, Operation *also) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isa<AsyncWaitOp, MBarrierWaitOp>(prev))
      return prev;
    if (auto copy = dyn_cast<AsyncCopyOp>(prev))
      if (llvm::is_contained(op->getOperands(), copy.getDst()))
        return prev;
    if (auto copy = dyn_cast<TmaLoadOp>(prev))
      if (llvm::is_contained(op->getOperands(), copy.getDst()))
        return prev;
    for (Operation *user : {op, also})
      for (Value operand : user->getOperands())
        if (operand.getDefiningOp() == prev && prev != also)
          return prev;
  }
  return nullptr;
}

/// Rewrites `dot` into a warpgroup_dot if it can; true if it did.
static bool rewriteDot(tile::DotOp dot, unsigned numWarps) {
  auto dType = dot.getD().getType();
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(dType.getEncoding());
  if (!mma || mma.isHopper())
    return false;
  auto aLoad = dot.getA().getDefiningOp<LocalLoadOp>();
  auto bLoad = dot.getB().getDefiningOp<LocalLoadOp>();
  if (!aLoad || !bLoad)
    return false;
  std::optional<Buffer> a = matchBuffer(aLoad), b = matchBuffer(bLoad);
  if (!a || !b || a->values.front() == b->values.front())
    return false;
  std::optional<SmallVector<unsigned, 2>> warps =
      getWgmmaWarpsPerCTA(dType.getShape(), numWarps);
  if (!warps)
    return false;
  MLIRContext *context = dot.getContext();
  auto layout = MmaEncodingAttr::get(context, *warps, /*versionMajor=*/3);
  std::array<Buffer *, 2> buffers = {&*a, &*b};
  for (Buffer *buffer : buffers) {
    MemDescType type = buffer->load.getSrc().getType();
    auto shared = cast<SharedEncodingAttr>(type.getEncoding());
    SharedEncodingAttr wanted = getWgmmaSharedLayout(
        context, type.getShape(), type.getElementType(), shared.getOrder());
    if (!wanted)
      return false;
    buffer->wanted = withLayout(type, wanted);
  }
  for (auto [index, buffer] : llvm::enumerate(buffers))
    if (!whyNotWgmmaOperand(buffer->wanted, index, layout, dType.getDimSize(1))
             .empty())
      return false;

  // The buffers in wgmma's layouts: the copies into them follow.
  for (Buffer *buffer : buffers)
    for (Value value : buffer->values)
      value.setType(withLayout(cast<MemDescType>(value.getType()),
                               buffer->wanted.getEncoding()));

  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  auto hopperType =
      RankedTensorType::get(dType.getShape(), dType.getElementType(), layout);
  Value c = ConvertLayoutOp::create(builder, loc, hopperType, dot.getC());
  Value d = WarpgroupDotOp::create(builder, loc, hopperType, aLoad.getSrc(),
                                   bLoad.getSrc(), c);
  // Issued as early as its operands and the last wait allow.
  Operation *product = d.getDefiningOp(), *convert = c.getDefiningOp();
  if (Operation *point = getEarliestPoint(product, convert)) {
    convert->moveAfter(point);
    product->moveAfter(convert);
  } else {
    convert->moveBefore(&product->getBlock()->front());
    product->moveAfter(convert);
  }
  // Waited for where the dot stood: the buffers' next copies, and the
  // rest of the iteration, are issued while the tensor cores run. In a
  // pipelined loop whose accumulator goes from one product to the next and
  // nowhere else, the product runs into the next iteration instead: the
  // loop's result is waited for after it.
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  std::optional<unsigned> carried;
  int64_t distance = 0;
  if (loop && dot->hasOneUse() && isa<scf::YieldOp>(*dot->getUsers().begin())) {
    auto attr = loop->getAttrOfType<IntegerAttr>(
        TileGPUDialect::getStageDistanceAttrName());
    unsigned index = dot->getUses().begin()->getOperandNumber();
    Value iterArg = loop.getRegionIterArg(index);
    bool onlyHere = llvm::all_of(iterArg.getUsers(), [&](Operation *user) {
      return user == dot.getOperation() || user == convert;
    });
    // With a stage written again the next iteration, the wait for the
    // previous product must come before every copy of the iteration: a copy
    // issued before the product (which tilegpu-pipeline does not make)
    // keeps the product waited for where the dot stood.
    bool copyBefore = false;
    for (Operation *prev = product->getPrevNode(); prev;
         prev = prev->getPrevNode())
      copyBefore |= isa<AsyncCopyOp, TmaLoadOp>(prev);
    if (attr && dot.getC() == iterArg && onlyHere &&
        (attr.getInt() >= 2 || !copyBefore)) {
      carried = index;
      distance = attr.getInt();
    }
  }
  // A stage written again the iteration after it is read: the previous
  // iteration's product (which read it) is waited for right after this
  // one is issued, by the whole block, before the copies.
  if (carried && distance == 1)
    builder.setInsertionPointAfter(product);
  else
    builder.setInsertionPoint(dot);
  Value ready = WarpgroupWaitOp::create(builder, loc, d.getType(), d,
                                        /*pending=*/carried ? 1 : 0);
  if (carried && distance == 1) {
    auto barrier = BarrierOp::create(builder, loc);
    // tilegpu-pipeline's own barrier, where TMA copies the stages, now
    // follows this one with nothing between.
    if (auto next = dyn_cast_or_null<BarrierOp>(barrier->getNextNode()))
      next.erase();
  }
  builder.setInsertionPoint(dot);
  Value back = ConvertLayoutOp::create(builder, loc, dType, ready);
  dot.getD().replaceAllUsesWith(back);
  dot.erase();
  if (carried) {
    Value result = loop.getResult(*carried);
    builder.setInsertionPointAfter(loop);
    Value wide = ConvertLayoutOp::create(builder, loc, hopperType, result);
    Value done = WarpgroupWaitOp::create(builder, loc, hopperType, wide,
                                         /*pending=*/0);
    Value narrow = ConvertLayoutOp::create(builder, loc, dType, done);
    result.replaceAllUsesExcept(narrow, wide.getDefiningOp());
  }
  aLoad.erase();
  bLoad.erase();
  return true;
}

namespace {
struct TileGPUWarpgroupDotPass
    : tilegpu::impl::TileGPUWarpgroupDotBase<TileGPUWarpgroupDotPass> {
  using TileGPUWarpgroupDotBase::TileGPUWarpgroupDotBase;

  void runOnOperation() override {
    if (chip != "sm_90a")
      return;
    for (tile::FuncOp kernel : getOperation().getOps<tile::FuncOp>()) {
      auto numWarps = kernel->getAttrOfType<IntegerAttr>(
          TileGPUDialect::getNumWarpsAttrName());
      if (!numWarps)
        continue;
      SmallVector<tile::DotOp> dots;
      kernel.walk([&](tile::DotOp dot) { dots.push_back(dot); });
      bool any = false;
      for (tile::DotOp dot : dots)
        any |= rewriteDot(dot, numWarps.getInt());
      if (!any)
        continue;
      // What cp.async wrote (generic proxy), wgmma reads through the async
      // proxy. CUTLASS and Triton leave this fence out; on the H100 it
      // costs nothing measurable (run 30b), so it stays.
      UnitAttr unit = UnitAttr::get(&getContext());
      kernel.walk([&](AsyncWaitOp wait) { wait.setFenceAsyncProxyAttr(unit); });
    }
  }
};
} // namespace
