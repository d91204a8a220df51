//===- PipelineLoops.cpp - Load the next iteration's tiles ahead ----------===//
//
// For an scf.for marked tile.num_stages >= 2, each pipelinable tile.load L
// (its operands computed in the loop body from the induction variable and
// loop-invariant values only, the induction variable among them) becomes:
//
//   %first = <L at iv = lb, masked by lb < ub>
//   scf.for %iv = %lb to %ub step %s iter_args(..., %cur = %first) {
//     %next = <L at iv + s, masked by iv + s < ub>   // issued first
//     ... uses of L read %cur ...
//     scf.yield ..., %next
//   }
//
// A loop whose prefetched tiles would not fit in registers beside what its
// body keeps live is left as it is (see the pass's description).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/PipelineLoops.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "tile/Analysis/RegisterEstimate.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/LoopSlice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Clones `load` and the operations computing its operands with the
/// induction variable replaced by `iv`, and its mask restricted to `valid`.
static Value cloneLoadAt(OpBuilder &builder, scf::ForOp loop, LoadOp load,
                         const llvm::SetVector<Operation *> &slice, Value iv,
                         Value valid) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  // In body order, so that every operand is cloned before its users.
  for (Operation &op : loop.getBody()->without_terminator())
    if (slice.contains(&op))
      builder.clone(op, mapping);
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  Value mask =
      SplatOp::create(builder, loc, type.clone(builder.getI1Type()), valid);
  if (load.getMask())
    mask = arith::AndIOp::create(builder, loc,
                                 mapping.lookupOrDefault(load.getMask()), mask);
  Value other =
      load.getOther() ? mapping.lookupOrDefault(load.getOther()) : Value();
  return LoadOp::create(builder, loc, mapping.lookupOrDefault(load.getPtr()),
                        mask, other)
      .getResult();
}

/// Whether `load` or the operations of its slice read the induction
/// variable. A load that does not loads the same tile every iteration:
/// carrying it one iteration ahead would only hold a second copy in
/// registers (a norm's weight loaded with each row took 83 more registers
/// per thread in f32 that way).
static bool usesInductionVar(scf::ForOp loop, LoadOp load,
                             const llvm::SetVector<Operation *> &slice) {
  Value iv = loop.getInductionVar();
  if (llvm::is_contained(load->getOperands(), iv))
    return true;
  return llvm::any_of(slice, [&](Operation *op) {
    return llvm::is_contained(op->getOperands(), iv);
  });
}

/// Whether `loads`, carried one iteration ahead, fit in registers beside the
/// tiles the body of `loop` keeps live, with room for `blocksPerSM` blocks.
static bool fitsInRegisters(scf::ForOp loop, ArrayRef<LoadOp> loads,
                            unsigned numWarps, unsigned blocksPerSM) {
  unsigned prefetched = 0;
  for (LoadOp load : loads)
    prefetched += estimateRegisters(load.getType(), numWarps);
  unsigned body = estimatePeakRegisters(*loop.getBody(), numWarps);
  return body + prefetched + kReservedRegisters <=
         getRegisterBudget(numWarps, blocksPerSM);
}

/// Whether `load` only feeds tile.dot operands: those are staged through
/// shared memory by tilegpu-pipeline, as many stages deep as the loop asks.
static bool feedsDot(Operation *load) {
  return !load->use_empty() &&
         llvm::all_of(load->getUses(), [](OpOperand &use) {
           return isa<DotOp>(use.getOwner()) && use.getOperandNumber() < 2;
         });
}

namespace {
/// The loads tile-pipeline-loops would issue one iteration ahead in a loop,
/// with their slices, and whether the loop loads operands of a dot.
struct PrefetchPlan {
  SmallVector<LoadOp> loads;
  SmallVector<llvm::SetVector<Operation *>> slices;
  bool dotLoads = false;
};
} // namespace

static PrefetchPlan planPrefetch(scf::ForOp loop) {
  PrefetchPlan plan;
  for (Operation &op : loop.getBody()->without_terminator()) {
    // A descriptor load kept for TMA (tile-expand-tensor-descs) is a dot's
    // operand too.
    if (isa<DescLoadOp>(op) && feedsDot(&op)) {
      plan.dotLoads = true;
      continue;
    }
    auto load = dyn_cast<LoadOp>(op);
    if (!load || !isa<RankedTensorType>(load.getType()))
      continue;
    if (feedsDot(load)) {
      plan.dotLoads = true;
      continue;
    }
    llvm::SetVector<Operation *> slice;
    if (!collectInductionSlice(loop, load->getOperands(), slice) ||
        !usesInductionVar(loop, load, slice))
      continue;
    plan.loads.push_back(load);
    plan.slices.push_back(std::move(slice));
  }
  return plan;
}

LoopPipelining mlir::tile::getLoopPipelining(scf::ForOp loop, unsigned numWarps,
                                             unsigned blocksPerSM) {
  LoopPipelining result;
  auto stages =
      loop->getAttrOfType<IntegerAttr>(TileDialect::getNumStagesAttrName());
  if (!stages || stages.getInt() < 2)
    return result;
  PrefetchPlan plan = planPrefetch(loop);
  if (!plan.loads.empty() &&
      fitsInRegisters(loop, plan.loads, numWarps, blocksPerSM))
    for (LoadOp load : plan.loads)
      result.prefetchRegisters += estimateRegisters(load.getType(), numWarps);
  result.pipelined = plan.dotLoads || result.prefetchRegisters > 0;
  return result;
}

static LogicalResult pipeline(scf::ForOp loop, unsigned numWarps,
                              unsigned blocksPerSM) {
  PrefetchPlan plan = planPrefetch(loop);
  SmallVector<LoadOp> &loads = plan.loads;
  SmallVector<llvm::SetVector<Operation *>> &slices = plan.slices;
  bool dotLoads = plan.dotLoads;
  if (loads.empty() || !fitsInRegisters(loop, loads, numWarps, blocksPerSM)) {
    // Dealt with: nothing to load ahead, or no room for it; the stages of
    // the loads feeding dots are tilegpu-pipeline's.
    if (!dotLoads)
      loop->removeAttr(TileDialect::getNumStagesAttrName());
    return success();
  }

  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Value firstValid = createIsInRange(rewriter, loop, loop.getLowerBound());
  SmallVector<Value> first;
  for (auto [load, slice] : llvm::zip(loads, slices))
    first.push_back(cloneLoadAt(rewriter, loop, load, slice,
                                loop.getLowerBound(), firstValid));

  unsigned numOld = loop.getRegionIterArgs().size();
  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, first, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &builder, Location loc,
          ArrayRef<BlockArgument>) -> SmallVector<Value> {
        builder.setInsertionPointToStart(loop.getBody());
        Value next = arith::AddIOp::create(builder, loc, loop.getInductionVar(),
                                           loop.getStep());
        Value valid = createIsInRange(builder, loop, next);
        SmallVector<Value> prefetched;
        for (auto [load, slice] : llvm::zip(loads, slices))
          prefetched.push_back(
              cloneLoadAt(builder, loop, load, slice, next, valid));
        return prefetched;
      }));
  for (auto [i, load] : llvm::enumerate(loads)) {
    rewriter.replaceAllUsesWith(load.getResult(),
                                newLoop.getRegionIterArgs()[numOld + i]);
    rewriter.eraseOp(load);
  }
  if (!dotLoads)
    newLoop->removeAttr(TileDialect::getNumStagesAttrName());
  return success();
}

namespace {
struct TilePipelineLoopsPass
    : tile::impl::TilePipelineLoopsBase<TilePipelineLoopsPass> {
  using TilePipelineLoopsBase::TilePipelineLoopsBase;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (auto stages = loop->getAttrOfType<IntegerAttr>(
              TileDialect::getNumStagesAttrName());
          stages && stages.getInt() >= 2)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      Operation *kernel = loop->getParentOfType<FuncOp>();
      unsigned warps =
          kernel ? TileDialect::getNumWarps(kernel, numWarps) : numWarps;
      unsigned blocks = kernel ? TileDialect::getMinBlocksPerSM(kernel) : 1;
      if (failed(pipeline(loop, warps, blocks)))
        return signalPassFailure();
    }
  }
};
} // namespace
