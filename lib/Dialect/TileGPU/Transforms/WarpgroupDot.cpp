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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// A restart of the accumulation: `c = select(p, zeros, x)` (or
/// `select(p, x, zeros)`), `p` one i1 for the whole tile (a scalar or a
/// splat of one). Returns x and the i1 under which x is kept (made after
/// p's definition, so that the product may be issued as early as before).
static std::optional<std::pair<Value, Value>> matchRestart(Value c) {
  auto select = c.getDefiningOp<arith::SelectOp>();
  if (!select)
    return std::nullopt;
  Value condition = select.getCondition();
  if (auto splat = condition.getDefiningOp<tile::SplatOp>())
    condition = splat.getSrc();
  if (isa<ShapedType>(condition.getType()))
    return std::nullopt;
  bool zeroWhenTrue = matchPattern(select.getTrueValue(), m_AnyZeroFloat());
  if (!zeroWhenTrue && !matchPattern(select.getFalseValue(), m_AnyZeroFloat()))
    return std::nullopt;
  if (!zeroWhenTrue)
    return std::make_pair(select.getTrueValue(), condition);
  OpBuilder builder(select);
  builder.setInsertionPointAfterValue(condition);
  Value keep = arith::XOrIOp::create(
      builder, select.getLoc(), condition,
      arith::ConstantIntOp::create(builder, select.getLoc(), 1, 1));
  return std::make_pair(select.getFalseValue(), keep);
}

/// Users of `dot` other than the loop's yield that may wait for the whole
/// product: each lies in a branch of an scf.if after the dot in its block,
/// run on some iterations only (a persistent kernel's store of a finished
/// tile). None if another user reads it in the iteration itself.
static std::optional<SmallVector<OpOperand *>>
getConditionalUses(tile::DotOp dot) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : dot->getUses()) {
    Operation *user = use.getOwner();
    if (isa<scf::YieldOp>(user) && user->getBlock() == dot->getBlock())
      continue;
    Operation *ancestor = dot->getBlock()->findAncestorOpInBlock(*user);
    if (!ancestor || ancestor == user || !isa<scf::IfOp>(ancestor))
      return std::nullopt;
    uses.push_back(&use);
  }
  return uses;
}

/// Moves the side-effect-free ops of `block` that compute `value` up to
/// just after their operands' definitions, so that what needs `value` (a
/// product's scale-d) may be issued early.
static void hoistComputation(Value value, Block *block) {
  Operation *op = value.getDefiningOp();
  if (!op || op->getBlock() != block || op->getNumRegions() ||
      !isMemoryEffectFree(op))
    return;
  Operation *last = nullptr;
  for (Value operand : op->getOperands()) {
    hoistComputation(operand, block);
    Operation *def = operand.getDefiningOp();
    if (def && def->getBlock() == block &&
        (!last || last->isBeforeInBlock(def)))
      last = def;
  }
  if (last)
    op->moveAfter(last);
  else
    op->moveBefore(&block->front());
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

  // A product that restarts the accumulation from zeros on some
  // iterations takes the condition as wgmma's scale-d.
  Value cIn = dot.getC(), accumulate;
  auto select = cIn.getDefiningOp<arith::SelectOp>();
  if (std::optional<std::pair<Value, Value>> restart = matchRestart(cIn))
    std::tie(cIn, accumulate) = *restart;
  else
    select = nullptr;

  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  auto hopperType =
      RankedTensorType::get(dType.getShape(), dType.getElementType(), layout);
  Value c = ConvertLayoutOp::create(builder, loc, hopperType, cIn);
  Value d = WarpgroupDotOp::create(builder, loc, hopperType, aLoad.getSrc(),
                                   bLoad.getSrc(), c, accumulate);
  // Issued as early as its operands and the last wait allow.
  Operation *product = d.getDefiningOp(), *convert = c.getDefiningOp();
  if (accumulate)
    hoistComputation(accumulate, product->getBlock());
  if (Operation *point = getEarliestPoint(product, convert)) {
    convert->moveAfter(point);
    product->moveAfter(convert);
  } else {
    convert->moveBefore(&product->getBlock()->front());
    product->moveAfter(convert);
  }
  // Waited for where the dot stood: the buffers' next copies, and the
  // rest of the iteration, are issued while the tensor cores run. In a
  // pipelined loop whose accumulator goes from one product to the next
  // (through a restart folded into scale-d, or not) and elsewhere only in
  // branches taken on some iterations, the product runs into the next
  // iteration instead: those branches and the loop's result wait for it in
  // full.
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  std::optional<unsigned> carried;
  int64_t distance = 0;
  auto yieldUse = llvm::find_if(dot->getUses(), [&](OpOperand &use) {
    return isa<scf::YieldOp>(use.getOwner()) &&
           use.getOwner()->getBlock() == dot->getBlock();
  });
  std::optional<SmallVector<OpOperand *>> branchUses = getConditionalUses(dot);
  if (loop && yieldUse != dot->getUses().end() && branchUses &&
      llvm::count_if(dot->getUses(), [](OpOperand &use) {
        return isa<scf::YieldOp>(use.getOwner());
      }) == 1) {
    auto attr = loop->getAttrOfType<IntegerAttr>(
        TileGPUDialect::getStageDistanceAttrName());
    unsigned index = yieldUse->getOperandNumber();
    Value iterArg = loop.getRegionIterArg(index);
    bool onlyHere = llvm::all_of(iterArg.getUsers(), [&](Operation *user) {
      return user == dot.getOperation() || user == convert ||
             (select && user == select && select->hasOneUse());
    });
    // With a stage written again the next iteration, the wait for the
    // previous product must come before every copy of the iteration: a copy
    // issued before the product (which tilegpu-pipeline does not make)
    // keeps the product waited for where the dot stood.
    bool copyBefore = false;
    for (Operation *prev = product->getPrevNode(); prev;
         prev = prev->getPrevNode())
      copyBefore |= isa<AsyncCopyOp, TmaLoadOp>(prev);
    if (attr && cIn == iterArg && onlyHere &&
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
  if (carried) {
    // The branches wait for the whole product, once per block.
    DenseMap<Block *, Value> waited;
    for (OpOperand *use : *branchUses) {
      Block *block = use->getOwner()->getBlock();
      Value &full = waited[block];
      if (!full) {
        OpBuilder inBranch = OpBuilder::atBlockBegin(block);
        Value done = WarpgroupWaitOp::create(inBranch, loc, hopperType, ready,
                                             /*pending=*/0);
        full = ConvertLayoutOp::create(inBranch, loc, dType, done);
      }
      use->set(full);
    }
  }
  dot.getD().replaceAllUsesWith(back);
  dot.erase();
  if (select && select->use_empty()) {
    Operation *splat = select.getCondition().getDefiningOp<tile::SplatOp>();
    select.erase();
    if (splat && splat->use_empty())
      splat->erase();
  }
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
