//===- Prefetch.cpp - Load the next iteration's first K step early --------===//
//
// After tilegpu-pipeline and tilegpu-split-dot, an iteration of a pipelined
// loop waits for its stage, then loads and multiplies one K step at a time:
//
//   scf.for ... iter_args(%acc = ..., %read = 0, ...) {
//     tilegpu.async_wait {pending = N - 2}       // cp.async.wait; barrier
//     ... copies of a later stage ...
//     %a0 = local_load %sa[%read] offsets [0, 0]   // ldmatrix
//     %b0 = local_load %sb[%read] offsets [0, 0]
//     %d0 = tile.dot %a0, %b0, %acc                // mma.sync
//     ...
//     %aL = local_load %sa[%read] offsets [0, K - 16]
//     %bL = ...
//     %dL = tile.dot %aL, %bL, ...
//     yield %dL, %next, ...
//   }
//
// so every iteration starts with a barrier followed by ldmatrix, and its
// first mma.sync waits for both: ptxas cannot move a load above a barrier,
// nor into the previous iteration. This pass rotates the loop by one step,
// as CUTLASS's sm80 main loop and Triton's tritongpu-prefetch do: the wait
// moves to just before the last step's dot, followed by the loads of the
// next iteration's first step (from the buffer the next iteration reads),
// which the loop carries; the first step's loads before the first
// iteration come after a wait of their own before the loop:
//
//   async_wait {pending = N - 2}
//   %a0i = local_load %sa[%read0] offsets [0, 0]   // and %b0i
//   scf.for ... iter_args(%acc, %read, ..., %a0 = %a0i, %b0 = %b0i) {
//     ... copies ...
//     %d0 = tile.dot %a0, %b0, %acc           // operands in registers
//     ...
//     %aL = ..., %bL = ...                    // the last reads of %read
//     async_wait {pending = N - 2}            // the next stage; barrier
//     %a0n = local_load %sa[%next] offsets [0, 0]   // and %b0n
//     %dL = tile.dot %aL, %bL, ...            // hides ldmatrix's latency
//     yield %dL, %next, ..., %a0n, %b0n
//   }
//
// The wait moves from the top of iteration i + 1 to the end of iteration
// i, past operations that touch no memory only (the last dot and the
// index arithmetic), so the barrier still separates every read of a
// buffer from the copies into it that the next iteration starts (all reads
// of %read come before it), and the group count is unchanged: the same
// groups have been committed at both places. The last iteration loads a
// step it does not use (from a buffer of the ring, so in bounds).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPREFETCH
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// What rotating one loop takes.
struct Plan {
  scf::ForOp loop;
  AsyncWaitOp wait;
  /// The loads feeding the first dot, all from buffers indexed by
  /// `readArg`.
  SmallVector<LocalLoadOp> first;
  /// The operation the wait and the next loads go before: the one after
  /// the last read of the ring.
  Operation *anchor = nullptr;
  /// The loop-carried buffer index, and the value it is yielded.
  BlockArgument readArg;
  Value nextRead;
};
} // namespace

/// The buffer index `load` reads at, if it reads one stage of a ring
/// allocated outside `loop` at an index the loop carries.
static BlockArgument getRingIndex(LocalLoadOp load, scf::ForOp loop) {
  auto index = load.getSrc().getDefiningOp<MemDescIndexOp>();
  if (!index ||
      !index.getSrc().getParentRegion()->isProperAncestor(&loop.getRegion()))
    return {};
  auto arg = dyn_cast<BlockArgument>(index.getIndex());
  if (!arg || arg.getOwner() != loop.getBody() || arg == loop.getInductionVar())
    return {};
  return arg;
}

static std::optional<Plan> planLoop(scf::ForOp loop, DominanceInfo &dom) {
  Block *body = loop.getBody();
  Plan plan;
  plan.loop = loop;
  plan.wait = dyn_cast<AsyncWaitOp>(&body->front());
  if (!plan.wait)
    return std::nullopt;
  // The ring reads, all at one carried index.
  Operation *lastRead = nullptr;
  tile::DotOp firstDot;
  for (Operation &op : body->without_terminator()) {
    if (isa<AsyncWaitOp>(op) && &op != plan.wait)
      return std::nullopt;
    if (auto dot = dyn_cast<tile::DotOp>(op);
        dot && !firstDot && isa<MmaEncodingAttr>(dot.getType().getEncoding()))
      firstDot = dot;
    auto load = dyn_cast<LocalLoadOp>(op);
    if (!load)
      continue;
    BlockArgument arg = getRingIndex(load, loop);
    if (!arg || (plan.readArg && arg != plan.readArg))
      return std::nullopt;
    plan.readArg = arg;
    lastRead = load;
  }
  if (!firstDot || !lastRead)
    return std::nullopt;
  for (Value operand : {firstDot.getA(), firstDot.getB()}) {
    auto load = operand.getDefiningOp<LocalLoadOp>();
    if (!load || load->getBlock() != body || !load->hasOneUse())
      return std::nullopt;
    plan.first.push_back(load);
  }
  // Past the last read, nothing but operations free of memory effects (the
  // last dot, index arithmetic) and nothing asynchronous.
  plan.anchor = lastRead->getNextNode();
  for (Operation *op = plan.anchor; op != body->getTerminator();
       op = op->getNextNode())
    if (!isMemoryEffectFree(op))
      return std::nullopt;
  // The next index must be known there.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  plan.nextRead = yield.getOperand(plan.readArg.getArgNumber() - 1);
  if (!dom.properlyDominates(plan.nextRead, plan.anchor))
    return std::nullopt;
  return plan;
}

/// A copy of `load` reading the same slice of the stage `index` of its
/// ring.
static Value loadAt(OpBuilder &b, LocalLoadOp load, Value index) {
  auto stage = cast<MemDescIndexOp>(load.getSrc().getDefiningOp());
  Value buffer = MemDescIndexOp::create(b, stage.getLoc(), stage.getType(),
                                        stage.getSrc(), index);
  return LocalLoadOp::create(b, load.getLoc(), load.getType(), buffer,
                             load.getOffsetsAttr());
}

static void rotate(Plan &plan) {
  IRRewriter rewriter(plan.loop.getContext());
  Location loc = plan.wait.getLoc();
  int32_t pending = plan.wait.getPending();

  // Before the loop: wait for the first stage, load its first step.
  rewriter.setInsertionPoint(plan.loop);
  AsyncWaitOp::create(rewriter, loc, pending);
  Value readInit = plan.loop.getInitArgs()[plan.readArg.getArgNumber() - 1];
  SmallVector<Value> inits;
  for (LocalLoadOp load : plan.first)
    inits.push_back(loadAt(rewriter, load, readInit));

  Operation *anchor = plan.anchor;
  Value nextRead = plan.nextRead;
  SmallVector<LocalLoadOp> first = plan.first;
  (void)plan.loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location,
          ArrayRef<BlockArgument> args) -> SmallVector<Value> {
        // The first step reads what the previous iteration loaded.
        for (auto [load, arg] : llvm::zip(first, args))
          load.getResult().replaceAllUsesWith(arg);
        b.setInsertionPoint(anchor);
        AsyncWaitOp::create(b, loc, pending);
        SmallVector<Value> next;
        for (LocalLoadOp load : first)
          next.push_back(loadAt(b, load, nextRead));
        return next;
      });
  for (LocalLoadOp load : plan.first) {
    Operation *stage = load.getSrc().getDefiningOp();
    load.erase();
    if (stage->use_empty())
      stage->erase();
  }
  plan.wait.erase();
}

namespace {
struct TileGPUPrefetch : tilegpu::impl::TileGPUPrefetchBase<TileGPUPrefetch> {
  void runOnOperation() override {
    DominanceInfo dom(getOperation());
    SmallVector<Plan> plans;
    getOperation().walk([&](scf::ForOp loop) {
      if (std::optional<Plan> plan = planLoop(loop, dom))
        plans.push_back(*plan);
    });
    for (Plan &plan : plans)
      rotate(plan);
  }
};
} // namespace
