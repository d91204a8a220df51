//===- Pipeline.cpp - Stage tile.dot operands through shared memory -------===//
//
// In a loop marked tile.num_stages = N (N >= 2), the loads L_j feeding a
// tile.dot become a ring of N shared buffers per operand:
//
//   buf_j = local_alloc : memdesc<N x tile>
//   for s in 0 .. N-2:  async_copy L_j(iv = lb + s * step) -> buf_j[s]
//                       async_commit_group
//   scf.for %iv ... iter_args(..., %read = 0, %write = N - 1) {
//     async_wait {pending = N - 2}          // iteration i's copies; barrier
//     %x_j = local_load buf_j[%read]        // ldmatrix
//     async_copy L_j(iv + (N - 1) * step) -> buf_j[%write]   // masked past
//     async_commit_group                                     // the end
//     ... the dot reads %x_j ...
//     yield ..., (%read + 1) mod N, (%write + 1) mod N
//   }
//   async_wait {pending = 0}
//
// The buffer iteration i writes is the one iteration i - 1 read; every
// thread has passed iteration i's barrier, so none still reads it. Without
// stages, or when a load's operands depend on values the loop carries, the
// load is copied and waited for where it stands.
//
// A tile.desc_load that tile-expand-tensor-descs kept (for TMA, on sm_90a)
// is copied by TMA instead: one thread issues the box (tilegpu.tma_load),
// which completes a phase of the stage's mbarrier, and every thread waits
// for that phase (the parity %phase flips each time %read wraps):
//
//   bars = mbarrier_alloc {arrivals = D} : mbarriers<N>   // D TMA loads
//   for s in 0 .. N-2:  tma_load L_j(iv = lb + s * step) -> buf_j[s], bars[s]
//   scf.for %iv ... iter_args(..., %read, %write, %phase = 0) {
//     mbarrier_wait bars[%read], %phase
//     barrier                      // (or async_wait's, with cp.async too)
//     %x_j = local_load buf_j[%read]
//     tma_load L_j(iv + (N - 1) * step) -> buf_j[%write], bars[%write]
//         if (iv + (N - 1) * step < ub)
//     ...
//   }
//
// Copies past the loop's end are not issued (nobody would wait for them),
// so none is in flight when the loop ends.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/LoopSlice.h"
#include "tile/Dialect/Tile/Transforms/PipelineLoops.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"
#include "tile/Dialect/TileGPU/IR/Tma.h"
#include "tile/Dialect/TileGPU/IR/Wgmma.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// A load whose tile only feeds a dot on tensor cores, through a conversion
/// to the dot-operand layout.
struct StagedLoad {
  /// A tile.load (copied by cp.async) or a tile.desc_load (by TMA).
  Operation *load;
  /// The conversion to a dot's operand layout that reads the load; null for
  /// a load staged for itself (tile::isStagedInSharedMemory), which is read
  /// back in its own layout.
  ConvertLayoutOp convert;
  /// The body operations computing the load's pointers and mask, if they
  /// depend only on the induction variable and values from outside.
  llvm::SetVector<Operation *> slice;
  bool pipelinable = false;
  MemDescType bufferType; // one stage
  Attribute copyLayout;   // cp.async: the pointers' layout
  bool isTma() const { return isa<tile::DescLoadOp>(load); }
  /// The value the staged tile replaces.
  Value getRead() {
    return convert ? Value(convert.getResult()) : load->getResult(0);
  }
  tile::LoadOp getLoad() const { return cast<tile::LoadOp>(load); }
  tile::DescLoadOp getDescLoad() const { return cast<tile::DescLoadOp>(load); }
};
} // namespace

static bool isZero(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// The load feeding `convert`, if it can be staged in shared memory.
static std::optional<StagedLoad> matchDotLoad(ConvertLayoutOp convert) {
  auto operand =
      dyn_cast<DotOperandEncodingAttr>(convert.getType().getEncoding());
  if (!operand || !isa<MmaEncodingAttr>(operand.getParent()))
    return std::nullopt;
  Operation *load = convert.getSrc().getDefiningOp();
  if (auto descLoad = dyn_cast_or_null<tile::DescLoadOp>(load)) {
    if (!descLoad->hasOneUse() || !isa<scf::ForOp>(load->getParentOp()))
      return std::nullopt;
    StagedLoad result;
    result.load = load;
    result.convert = convert;
    return result;
  }
  auto plain = dyn_cast_or_null<tile::LoadOp>(load);
  if (!plain || !load->hasOneUse() || !isa<scf::ForOp>(load->getParentOp()))
    return std::nullopt;
  auto type = cast<RankedTensorType>(plain.getType());
  auto layout = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (!layout || type.getRank() != 2 ||
      (bits != 8 && bits != 16 && bits != 32) ||
      (plain.getOther() && !isZero(plain.getOther())))
    return std::nullopt;
  StagedLoad result;
  result.load = load;
  result.convert = convert;
  return result;
}

/// A load tile-pipeline-loops left to this pass to stage
/// (tile::isStagedInSharedMemory), in `loop`: copied and read back in its
/// own layout, each element by the thread that holds it, from a buffer
/// without a swizzle whose runs are the layout's runs of contiguous
/// elements per thread (up to 16 bytes), so that the copies and the reads
/// are as wide as those runs and a warp's 16-byte pieces are consecutive.
/// None where the layout gives an element to several threads (they would
/// copy it to one place).
static std::optional<StagedLoad> matchRowLoad(scf::ForOp loop,
                                              tile::LoadOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  auto layout = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  if (!layout)
    return std::nullopt;
  FailureOr<LayoutBits> bits = getLayoutBits(type);
  if (failed(bits) || bits->getFreeLaneMask() || bits->getFreeWarpMask())
    return std::nullopt;
  unsigned bytes = type.getElementTypeBitWidth() / 8;
  ArrayRef<unsigned> order = layout.getOrder();
  unsigned vec = std::min<unsigned>(
      {layout.getSizePerThread()[order[0]], std::max(1u, 16 / bytes),
       static_cast<unsigned>(type.getShape()[order[0]])});
  MLIRContext *context = load.getContext();
  StagedLoad result;
  result.load = load;
  result.copyLayout = layout;
  result.bufferType = MemDescType::get(
      context, type.getShape(), type.getElementType(),
      SharedEncodingAttr::get(context, vec, /*perPhase=*/1, /*maxPhase=*/1,
                              order, /*columnsPerBlock=*/0));
  SmallVector<Value> roots = {load.getPtr()};
  if (load.getMask())
    roots.push_back(load.getMask());
  result.pipelinable = tile::collectInductionSlice(loop, roots, result.slice);
  return result;
}

/// Triton's swizzle for mma.sync operands: 16-byte groups, XORed with the
/// row, over 8 rows of 128 bytes (Rows shorter than 128 bytes share a
/// phase in groups).
static SharedEncodingAttr getSwizzle(MLIRContext *context,
                                     RankedTensorType type,
                                     ArrayRef<unsigned> order) {
  int64_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t rowLength = type.getShape()[order[0]];
  int64_t vec = std::min<int64_t>(16 / bytes, rowLength);
  int64_t rowBytes = rowLength * bytes;
  int64_t perPhase = std::max<int64_t>(1, 128 / rowBytes);
  int64_t maxPhase = std::max<int64_t>(1, 8 / perPhase);
  maxPhase = std::min<int64_t>(maxPhase, rowLength / vec);
  return SharedEncodingAttr::get(context, vec, perPhase, maxPhase, order,
                                 /*columnsPerBlock=*/0);
}

/// `value` made in `layout`: the ops of `slice` that compute it cloned with
/// their types in `layout` (through `mapping`), anything from outside
/// converted.
static Value inLayout(OpBuilder &b, Value value, Attribute layout,
                      IRMapping &mapping) {
  Value mapped = mapping.lookupOrDefault(value);
  auto type = cast<RankedTensorType>(mapped.getType());
  if (type.getEncoding() == layout)
    return mapped;
  return ConvertLayoutOp::create(
      b, value.getLoc(),
      RankedTensorType::get(type.getShape(), type.getElementType(), layout),
      mapped);
}

/// Starts the copy of `dot`'s tile at induction variable `iv` into `dst`,
/// masked off where `valid` (an i1, or null) is false; a TMA copy signals
/// mbarrier `barIndex` of `bars`.
static void copyAt(OpBuilder &b, scf::ForOp loop, StagedLoad &dot, Value iv,
                   Value valid, Value dst, Value bars, Value barIndex) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (Operation &op : loop.getBody()->without_terminator())
    if (dot.slice.contains(&op))
      b.clone(op, mapping);
  Location loc = dot.load->getLoc();
  if (dot.isTma()) {
    tile::DescLoadOp load = dot.getDescLoad();
    SmallVector<Value> offsets;
    for (Value offset : load.getOffsets())
      offsets.push_back(mapping.lookupOrDefault(offset));
    TmaLoadOp::create(b, loc, load.getDesc(), offsets, dst, bars, barIndex,
                      valid);
    return;
  }
  tile::LoadOp load = dot.getLoad();
  Value ptr = inLayout(b, load.getPtr(), dot.copyLayout, mapping);
  Value mask;
  if (load.getMask())
    mask = inLayout(b, load.getMask(), dot.copyLayout, mapping);
  if (valid) {
    auto type = cast<RankedTensorType>(ptr.getType());
    Value splat =
        tile::SplatOp::create(b, loc, type.clone(b.getI1Type()), valid);
    mask =
        mask ? arith::AndIOp::create(b, loc, mask, splat).getResult() : splat;
  }
  AsyncCopyOp::create(b, loc, ptr, dst, mask);
}

/// Copies and waits for one load where it stands (no stages).
static void stageInPlace(StagedLoad &dot) {
  tile::LoadOp load = dot.getLoad();
  OpBuilder b(load);
  Location loc = load.getLoc();
  auto loop = cast<scf::ForOp>(load->getParentOp());
  OpBuilder before(loop);
  Value buffer = LocalAllocOp::create(before, loc, dot.bufferType);
  // Every thread has read what the buffer held before it is overwritten.
  AsyncWaitOp::create(b, loc, 0);
  IRMapping mapping;
  Value ptr = inLayout(b, load.getPtr(), dot.copyLayout, mapping);
  Value mask;
  if (load.getMask())
    mask = inLayout(b, load.getMask(), dot.copyLayout, mapping);
  AsyncCopyOp::create(b, loc, ptr, buffer, mask);
  AsyncCommitGroupOp::create(b, loc);
  AsyncWaitOp::create(b, loc, 0);
  b.setInsertionPoint(dot.convert);
  Value loaded =
      LocalLoadOp::create(b, loc, dot.convert.getType(), buffer).getResult();
  dot.convert.replaceAllUsesWith(loaded);
  dot.convert.erase();
  load.erase();
}

/// Copies the descriptor loads `dots` of `loop` with TMA where they stand
/// (no stages), each into a buffer of its own and signalling an mbarrier of
/// its own, whose phase each iteration completes (the parity carried by the
/// loop); the iteration starts with a block barrier, so that every thread
/// has read what the buffers held before they are overwritten.
static void stageInPlaceWithTma(scf::ForOp loop,
                                MutableArrayRef<StagedLoad> dots) {
  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Type i32 = rewriter.getI32Type();
  auto constant = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
  };
  SmallVector<Value> buffers;
  for (StagedLoad &dot : dots)
    buffers.push_back(LocalAllocOp::create(rewriter, loc, dot.bufferType));
  Value bars = MBarrierAllocOp::create(
      rewriter, loc,
      MBarriersType::get(loop.getContext(), static_cast<int64_t>(dots.size())),
      /*arrivals=*/1);
  loop.replaceWithAdditionalYields(
      rewriter, ValueRange{constant(rewriter, 0)},
      /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc,
          ArrayRef<BlockArgument> args) -> SmallVector<Value> {
        Value phase = args[0];
        b.setInsertionPointToStart(loop.getBody());
        BarrierOp::create(b, loc);
        for (auto [i, dot, buffer] : llvm::enumerate(dots, buffers)) {
          b.setInsertionPoint(dot.load);
          tile::DescLoadOp load = dot.getDescLoad();
          Value index = constant(b, i);
          TmaLoadOp::create(b, loc, load.getDesc(), load.getOffsets(), buffer,
                            bars, index, /*pred=*/Value());
          // Waited for where the tile is read, so that copies issued
          // together run together.
          b.setInsertionPoint(dot.convert);
          MBarrierWaitOp::create(b, loc, bars, index, phase);
          Value loaded =
              LocalLoadOp::create(b, loc, dot.convert.getType(), buffer);
          dot.convert.replaceAllUsesWith(loaded);
        }
        b.setInsertionPoint(loop.getBody()->getTerminator());
        return {
            arith::XOrIOp::create(b, loc, phase, constant(b, 1)).getResult()};
      });
  for (StagedLoad &dot : dots) {
    dot.convert.erase();
    dot.load->erase();
  }
}

/// Turns the loads of `loop` into a ring of `numStages` buffers each, whose
/// copies run numStages - 1 iterations ahead, and records on the loop that
/// a stage is written again the iteration after the one that read it
/// (`tilegpu.stage_distance = 1`).
static void pipeline(scf::ForOp loop, MutableArrayRef<StagedLoad> dots,
                     int64_t numStages) {
  int64_t lookahead = numStages - 1;
  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Type i32 = rewriter.getI32Type();
  auto constant = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
  };
  int64_t tmaLoads =
      llvm::count_if(dots, [](const StagedLoad &dot) { return dot.isTma(); });
  bool copies = tmaLoads < static_cast<int64_t>(dots.size());
  SmallVector<Value> rings;
  for (StagedLoad &dot : dots) {
    SmallVector<int64_t> shape = {numStages};
    llvm::append_range(shape, dot.bufferType.getShape());
    auto ringType = MemDescType::get(loop.getContext(), shape,
                                     dot.bufferType.getElementType(),
                                     dot.bufferType.getEncoding());
    rings.push_back(LocalAllocOp::create(rewriter, loc, ringType));
  }
  // One mbarrier per stage, which each of the stage's TMA copies arrives
  // on.
  Value bars;
  if (tmaLoads)
    bars = MBarrierAllocOp::create(
        rewriter, loc, MBarriersType::get(loop.getContext(), numStages),
        static_cast<int32_t>(tmaLoads));
  auto stage = [&](OpBuilder &b, Value ring, Value index) -> Value {
    auto type = cast<MemDescType>(ring.getType());
    auto one = MemDescType::get(b.getContext(), type.getShape().drop_front(),
                                type.getElementType(), type.getEncoding());
    return MemDescIndexOp::create(b, loc, one, ring, index);
  };
  // The first `lookahead` iterations' copies, one group per iteration.
  Value iv = loop.getLowerBound();
  for (int64_t s = 0; s < lookahead; ++s) {
    if (s > 0)
      iv = arith::AddIOp::create(rewriter, loc, iv, loop.getStep());
    Value valid = tile::createIsInRange(rewriter, loop, iv);
    Value index = constant(rewriter, s);
    for (auto [dot, ring] : llvm::zip(dots, rings))
      copyAt(rewriter, loop, dot, iv, valid, stage(rewriter, ring, index), bars,
             index);
    if (copies)
      AsyncCommitGroupOp::create(rewriter, loc);
  }

  SmallVector<Value> indices = {constant(rewriter, 0),
                                constant(rewriter, lookahead)};
  if (tmaLoads)
    indices.push_back(constant(rewriter, 0)); // the phase's parity
  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, indices, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc,
          ArrayRef<BlockArgument> args) -> SmallVector<Value> {
        b.setInsertionPointToStart(loop.getBody());
        // Rows staged for themselves (no dot): the wait goes where the
        // first of them was loaded, so that what the body does before it
        // (the next rows' scalars, which tile-pipeline-loops prefetches in
        // registers at the top of the body) is issued before the wait's
        // barrier, which ptxas does not move a load below: with the load
        // after it, ptxas issued RMSNorm backward's next rstd mid-body, and
        // the loop-end copy into its carried register waited for it (30% of
        // the stall samples, bench/results/2026-11-30-h200-run90-95-report.md).
        if (copies && !tmaLoads && llvm::all_of(dots, [](const StagedLoad &d) {
              return !d.convert;
            })) {
          Operation *first = dots.front().load;
          for (const StagedLoad &dot : dots)
            if (dot.load->isBeforeInBlock(first))
              first = dot.load;
          b.setInsertionPoint(first);
        }
        Value read = args[0], write = args[1];
        // Where only TMA copies, the stages come first, so that
        // tilegpu-warpgroup-dot issues the product right after them and the
        // mbarrier wait, before the barrier (which it then replaces by its
        // own after the previous product's wait). With cp.async, the stages
        // follow the wait, as tilegpu-prefetch expects them.
        SmallVector<Value> reads;
        if (!copies)
          for (Value ring : rings)
            reads.push_back(stage(b, ring, read));
        if (tmaLoads)
          MBarrierWaitOp::create(b, loc, bars, read, args[2]);
        // Every thread is done with the stage the iteration overwrites (the
        // one the previous iteration read).
        if (copies)
          AsyncWaitOp::create(b, loc, lookahead - 1);
        else
          BarrierOp::create(b, loc);
        for (auto [i, dot] : llvm::enumerate(dots)) {
          Value stageRead = copies ? stage(b, rings[i], read) : reads[i];
          Value loaded =
              LocalLoadOp::create(b, loc, dot.getRead().getType(), stageRead);
          dot.getRead().replaceAllUsesWith(loaded);
        }
        // The copies of iteration i + lookahead.
        Value ahead = arith::MulIOp::create(
            b, loc, loop.getStep(),
            arith::ConstantOp::create(
                b, loc, loop.getStep().getType(),
                b.getIntegerAttr(loop.getStep().getType(), lookahead)));
        Value next =
            arith::AddIOp::create(b, loc, loop.getInductionVar(), ahead);
        Value valid = tile::createIsInRange(b, loop, next);
        for (auto [dot, ring] : llvm::zip(dots, rings))
          copyAt(b, loop, dot, next, valid, stage(b, ring, write), bars, write);
        if (copies)
          AsyncCommitGroupOp::create(b, loc);
        Value last = constant(b, numStages - 1);
        auto advance = [&](Value index) -> Value {
          Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              index, last);
          Value plus = arith::AddIOp::create(b, loc, index, constant(b, 1));
          return arith::SelectOp::create(b, loc, wraps, constant(b, 0), plus);
        };
        SmallVector<Value> yields = {advance(read), advance(write)};
        if (tmaLoads) {
          // The parity flips each time the stages wrap around.
          Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              read, last);
          Value flip = arith::ExtUIOp::create(b, loc, i32, wraps);
          yields.push_back(arith::XOrIOp::create(b, loc, args[2], flip));
        }
        return yields;
      }));
  for (StagedLoad &dot : dots) {
    if (dot.convert)
      dot.convert.erase();
    dot.load->erase();
  }
  // Every TMA copy issued was waited for in its iteration; cp.async groups
  // (empty ones past the end) are waited for here.
  rewriter.setInsertionPointAfter(newLoop);
  if (copies)
    AsyncWaitOp::create(rewriter, loc, 0);
  newLoop->removeAttr(tile::TileDialect::getNumStagesAttrName());
  newLoop->setAttr(TileGPUDialect::getStageDistanceAttrName(),
                   rewriter.getI32IntegerAttr(1));
}

namespace {
struct TileGPUPipelinePass
    : tilegpu::impl::TileGPUPipelineBase<TileGPUPipelinePass> {
  using TileGPUPipelineBase::TileGPUPipelineBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    DenseMap<Operation *, SmallVector<StagedLoad>> byLoop;
    SmallVector<scf::ForOp> loops;
    bool failedTma = false;
    for (tile::FuncOp kernel : getOperation().getOps<tile::FuncOp>()) {
      auto numWarps = kernel->getAttrOfType<IntegerAttr>(
          TileGPUDialect::getNumWarpsAttrName());
      if (!numWarps)
        continue;
      // The copies run along the dimension whose addresses are
      // contiguous, whatever layout the loads had (one per rank).
      tile::AxisInfoResult axisInfo(kernel);
      if (failed(axisInfo.getStatus())) {
        kernel.emitError("axis analysis failed");
        return signalPassFailure();
      }
      kernel.walk([&](ConvertLayoutOp convert) {
        std::optional<StagedLoad> dot = matchDotLoad(convert);
        if (!dot)
          return;
        auto loop = cast<scf::ForOp>(dot->load->getParentOp());
        auto type = cast<RankedTensorType>(dot->load->getResult(0).getType());
        auto record = [&] {
          auto &list = byLoop[loop];
          if (list.empty())
            loops.push_back(loop);
          list.push_back(std::move(*dot));
        };
        if (dot->isTma()) {
          // The buffer in a layout TMA writes, which wgmma reads too: rows
          // of up to 128 bytes, swizzled, longer ones cut into blocks.
          SharedEncodingAttr layout = getWgmmaSharedLayout(
              context, type.getShape(), type.getElementType(), {1, 0});
          std::string why;
          if (layout) {
            dot->bufferType = MemDescType::get(context, type.getShape(),
                                               type.getElementType(), layout);
            if (succeeded(getTmaBox(dot->bufferType, why))) {
              dot->pipelinable = tile::collectInductionSlice(
                  loop, dot->getDescLoad().getOffsets(), dot->slice);
              record();
              return;
            }
          }
          dot->load->emitError("this descriptor load cannot be copied with "
                               "TMA (")
              << type << (why.empty() ? "" : ": ") << why
              << "); tile-expand-tensor-descs keeps only those it can";
          failedTma = true;
          return;
        }
        tile::LoadOp load = dot->getLoad();
        tile::AxisInfo info = axisInfo.get(load.getPtr());
        SmallVector<unsigned> order = {1, 0};
        if (info.getContiguity(0) > info.getContiguity(1))
          order = {0, 1};
        unsigned bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
        dot->copyLayout = getDefaultBlockedLayout(
            context, type.getShape(), numWarps.getInt(), 16 / bytes, order);
        // A tile with fewer elements than the block has threads (times the
        // vector) would have threads copying the same elements: it stays a
        // load, converted in registers.
        FailureOr<LayoutBits> copyBits = getLayoutBits(RankedTensorType::get(
            type.getShape(), type.getElementType(), dot->copyLayout));
        if (failed(copyBits) || copyBits->getFreeLaneMask() ||
            copyBits->getFreeWarpMask())
          return;
        dot->bufferType =
            MemDescType::get(context, type.getShape(), type.getElementType(),
                             getSwizzle(context, type, order));
        SmallVector<Value> roots = {load.getPtr()};
        if (load.getMask())
          roots.push_back(load.getMask());
        dot->pipelinable = tile::collectInductionSlice(loop, roots, dot->slice);
        record();
      });
      // The loads tile-pipeline-loops left to be staged for themselves, in
      // loops without dots.
      kernel.walk([&](scf::ForOp loop) {
        if (byLoop.count(loop))
          return;
        for (auto load : loop.getBody()->getOps<tile::LoadOp>()) {
          if (!tile::isStagedInSharedMemory(loop, load, numWarps.getInt(),
                                            axisInfo))
            continue;
          std::optional<StagedLoad> staged = matchRowLoad(loop, load);
          if (!staged)
            continue;
          auto &list = byLoop[loop];
          if (list.empty())
            loops.push_back(loop);
          list.push_back(std::move(*staged));
        }
      });
    }
    if (failedTma)
      return signalPassFailure();
    for (scf::ForOp loop : loops) {
      SmallVector<StagedLoad> &dots = byLoop[loop];
      auto stages = loop->getAttrOfType<IntegerAttr>(
          tile::TileDialect::getNumStagesAttrName());
      int64_t numStages = stages ? stages.getInt() : 1;
      bool all = llvm::all_of(
          dots, [](const StagedLoad &dot) { return dot.pipelinable; });
      if (numStages >= 2 && all) {
        pipeline(loop, dots, numStages);
        continue;
      }
      SmallVector<StagedLoad> tma;
      for (StagedLoad &dot : dots) {
        if (dot.isTma())
          tma.push_back(std::move(dot));
        else
          stageInPlace(dot);
      }
      if (!tma.empty())
        stageInPlaceWithTma(loop, tma);
    }
    // A descriptor load left is one tile-expand-tensor-descs kept but no
    // dot's operand staging took.
    getOperation().walk([&](tile::DescLoadOp load) {
      load.emitError("this descriptor load was kept for TMA but is not "
                     "staged for a dot; tile-expand-tensor-descs keeps only "
                     "the dots' operands in loops");
      failedTma = true;
    });
    if (failedTma)
      return signalPassFailure();
  }
};
} // namespace
