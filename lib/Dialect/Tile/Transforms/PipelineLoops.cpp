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

#include "tile/Analysis/AxisInfo.h"
#include "tile/Analysis/RegisterEstimate.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/LoopSlice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
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

/// Whether the loop loads an operand of a dot (a descriptor load kept for
/// TMA by tile-expand-tensor-descs is one too).
static bool loadsDotOperands(scf::ForOp loop) {
  return llvm::any_of(loop.getBody()->without_terminator(), [](Operation &op) {
    return isa<DescLoadOp, LoadOp>(op) && feedsDot(&op);
  });
}

/// Whether a tile.dot is anywhere in `loop`. Asked the same way before and
/// after the tiles get layouts (where a dot's operands come through layout
/// conversions), so that both passes decide alike.
static bool containsDot(scf::ForOp loop) {
  return loop.walk([](DotOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Whether `value` is a zero of its element type that cp.async's zero fill
/// writes: an integer 0, or a +0.0 (not -0.0).
static bool isZeroFill(Value value) {
  return matchPattern(value, m_PosZeroFloat()) || matchPattern(value, m_Zero());
}

/// The stages `loop` asks for (`tile.num_stages`), 1 without.
static int64_t getNumStages(scf::ForOp loop) {
  auto stages =
      loop->getAttrOfType<IntegerAttr>(TileDialect::getNumStagesAttrName());
  return stages ? stages.getInt() : 1;
}

/// The part of isStagedInSharedMemory about the load itself, its slice
/// already collected.
static bool isStageableLoad(LoadOp load, unsigned numWarps,
                            const AxisInfoResult &axisInfo) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2)
    return false;
  unsigned bits = type.getElementTypeBitWidth();
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return false;
  if (type.getNumElements() < 32 * static_cast<int64_t>(numWarps))
    return false;
  if (load.getOther() && !isZeroFill(load.getOther()))
    return false;
  // Pieces under 4 bytes would be loaded and stored by the thread at once
  // (tilegpu.async_copy), slower than carrying them in registers.
  int64_t width =
      std::max(axisInfo.getAccessWidth(load.getPtr(), load.getMask(), 0),
               axisInfo.getAccessWidth(load.getPtr(), load.getMask(), 1));
  return width * bits >= 32;
}

bool mlir::tile::isStagedInSharedMemory(scf::ForOp loop, LoadOp load,
                                        unsigned numWarps,
                                        const AxisInfoResult &axisInfo) {
  if (load->getParentOp() != loop.getOperation() || getNumStages(loop) < 3 ||
      containsDot(loop) || !isStageableLoad(load, numWarps, axisInfo))
    return false;
  llvm::SetVector<Operation *> slice;
  return collectInductionSlice(loop, load->getOperands(), slice) &&
         usesInductionVar(loop, load, slice);
}

namespace {
/// The loads tile-pipeline-loops would issue one iteration ahead in a loop,
/// with their slices; those it leaves to tilegpu-pipeline to stage through
/// shared memory; and whether the loop loads operands of a dot.
struct PrefetchPlan {
  SmallVector<LoadOp> loads;
  SmallVector<llvm::SetVector<Operation *>> slices;
  SmallVector<LoadOp> staged;
  bool dotLoads = false;
};
} // namespace

static PrefetchPlan planPrefetch(scf::ForOp loop, unsigned numWarps,
                                 const AxisInfoResult &axisInfo) {
  PrefetchPlan plan;
  plan.dotLoads = loadsDotOperands(loop);
  bool stages = getNumStages(loop) >= 3 && !containsDot(loop);
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load || !isa<RankedTensorType>(load.getType()) || feedsDot(load))
      continue;
    llvm::SetVector<Operation *> slice;
    if (!collectInductionSlice(loop, load->getOperands(), slice) ||
        !usesInductionVar(loop, load, slice))
      continue;
    if (stages && isStageableLoad(load, numWarps, axisInfo)) {
      plan.staged.push_back(load);
      continue;
    }
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
  Operation *kernel = loop->getParentOfType<FuncOp>();
  AxisInfoResult axisInfo(kernel ? kernel : loop.getOperation());
  PrefetchPlan plan = planPrefetch(loop, numWarps, axisInfo);
  if (!plan.loads.empty() &&
      fitsInRegisters(loop, plan.loads, numWarps, blocksPerSM))
    for (LoadOp load : plan.loads)
      result.prefetchRegisters += estimateRegisters(load.getType(), numWarps);
  for (LoadOp load : plan.staged) {
    auto type = cast<RankedTensorType>(load.getType());
    result.stagedSharedBytes += stages.getInt() * type.getNumElements() *
                                type.getElementTypeBitWidth() / 8;
  }
  result.pipelined =
      plan.dotLoads || !plan.staged.empty() || result.prefetchRegisters > 0;
  return result;
}

static LogicalResult pipeline(scf::ForOp loop, unsigned numWarps,
                              unsigned blocksPerSM) {
  // Asked again for each loop: pipelining the loops before changed the
  // kernel.
  Operation *kernel = loop->getParentOfType<FuncOp>();
  AxisInfoResult axisInfo(kernel ? kernel : loop.getOperation());
  PrefetchPlan plan = planPrefetch(loop, numWarps, axisInfo);
  SmallVector<LoadOp> &loads = plan.loads;
  SmallVector<llvm::SetVector<Operation *>> &slices = plan.slices;
  // The stages of the loads feeding dots, and of those staged through
  // shared memory, are tilegpu-pipeline's: the attribute stays for it.
  bool keepStages = plan.dotLoads || !plan.staged.empty();
  if (loads.empty() || !fitsInRegisters(loop, loads, numWarps, blocksPerSM)) {
    // Dealt with: nothing to load ahead in registers, or no room for it.
    if (!keepStages)
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
  if (!keepStages)
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
