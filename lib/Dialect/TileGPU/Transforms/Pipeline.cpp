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
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/LoopSlice.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"

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
struct DotLoad {
  tile::LoadOp load;
  ConvertLayoutOp convert;
  /// The body operations computing the load's pointers and mask, if they
  /// depend only on the induction variable and values from outside.
  llvm::SetVector<Operation *> slice;
  bool pipelinable = false;
  MemDescType bufferType; // one stage
  Attribute copyLayout;
};
} // namespace

static bool isZero(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// The load feeding `convert`, if it can be staged in shared memory.
static std::optional<DotLoad> matchDotLoad(ConvertLayoutOp convert) {
  auto operand =
      dyn_cast<DotOperandEncodingAttr>(convert.getType().getEncoding());
  if (!operand || !isa<MmaEncodingAttr>(operand.getParent()))
    return std::nullopt;
  auto load = convert.getSrc().getDefiningOp<tile::LoadOp>();
  if (!load || !load->hasOneUse() || !isa<scf::ForOp>(load->getParentOp()))
    return std::nullopt;
  auto type = cast<RankedTensorType>(load.getType());
  auto layout = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (!layout || type.getRank() != 2 || (bits != 16 && bits != 32) ||
      (load.getOther() && !isZero(load.getOther())))
    return std::nullopt;
  DotLoad result;
  result.load = load;
  result.convert = convert;
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
/// masked off where `valid` (an i1, or null) is false.
static void copyAt(OpBuilder &b, scf::ForOp loop, DotLoad &dot, Value iv,
                   Value valid, Value dst) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (Operation &op : loop.getBody()->without_terminator())
    if (dot.slice.contains(&op))
      b.clone(op, mapping);
  Location loc = dot.load.getLoc();
  Value ptr = inLayout(b, dot.load.getPtr(), dot.copyLayout, mapping);
  Value mask;
  if (dot.load.getMask())
    mask = inLayout(b, dot.load.getMask(), dot.copyLayout, mapping);
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
static void stageInPlace(DotLoad &dot) {
  OpBuilder b(dot.load);
  Location loc = dot.load.getLoc();
  auto loop = cast<scf::ForOp>(dot.load->getParentOp());
  OpBuilder before(loop);
  Value buffer = LocalAllocOp::create(before, loc, dot.bufferType);
  // Every thread has read what the buffer held before it is overwritten.
  AsyncWaitOp::create(b, loc, 0);
  IRMapping mapping;
  Value ptr = inLayout(b, dot.load.getPtr(), dot.copyLayout, mapping);
  Value mask;
  if (dot.load.getMask())
    mask = inLayout(b, dot.load.getMask(), dot.copyLayout, mapping);
  AsyncCopyOp::create(b, loc, ptr, buffer, mask);
  AsyncCommitGroupOp::create(b, loc);
  AsyncWaitOp::create(b, loc, 0);
  b.setInsertionPoint(dot.convert);
  Value loaded =
      LocalLoadOp::create(b, loc, dot.convert.getType(), buffer).getResult();
  dot.convert.replaceAllUsesWith(loaded);
  dot.convert.erase();
  dot.load.erase();
}

/// Turns the loads of `loop` into a ring of `numStages` buffers each, whose
/// copies run numStages - 1 iterations ahead, and records on the loop that
/// a stage is written again the iteration after the one that read it
/// (`tilegpu.stage_distance = 1`).
static void pipeline(scf::ForOp loop, MutableArrayRef<DotLoad> dots,
                     int64_t numStages) {
  int64_t lookahead = numStages - 1;
  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Type i32 = rewriter.getI32Type();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(rewriter, loc, i32,
                                     rewriter.getI32IntegerAttr(v));
  };
  SmallVector<Value> rings;
  for (DotLoad &dot : dots) {
    SmallVector<int64_t> shape = {numStages};
    llvm::append_range(shape, dot.bufferType.getShape());
    auto ringType = MemDescType::get(loop.getContext(), shape,
                                     dot.bufferType.getElementType(),
                                     dot.bufferType.getEncoding());
    rings.push_back(LocalAllocOp::create(rewriter, loc, ringType));
  }
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
    for (auto [dot, ring] : llvm::zip(dots, rings))
      copyAt(rewriter, loop, dot, iv, valid,
             stage(rewriter, ring, constant(s)));
    AsyncCommitGroupOp::create(rewriter, loc);
  }

  SmallVector<Value> indices = {constant(0), constant(lookahead)};
  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, indices, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc,
          ArrayRef<BlockArgument> args) -> SmallVector<Value> {
        b.setInsertionPointToStart(loop.getBody());
        Value read = args[0], write = args[1];
        AsyncWaitOp::create(b, loc, lookahead - 1);
        for (auto [dot, ring] : llvm::zip(dots, rings)) {
          Value loaded = LocalLoadOp::create(b, loc, dot.convert.getType(),
                                             stage(b, ring, read));
          dot.convert.replaceAllUsesWith(loaded);
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
          copyAt(b, loop, dot, next, valid, stage(b, ring, write));
        AsyncCommitGroupOp::create(b, loc);
        auto advance = [&](Value index) -> Value {
          Value one =
              arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1));
          Value last = arith::ConstantOp::create(
              b, loc, i32, b.getI32IntegerAttr(numStages - 1));
          Value zero =
              arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0));
          Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              index, last);
          Value plus = arith::AddIOp::create(b, loc, index, one);
          return arith::SelectOp::create(b, loc, wraps, zero, plus);
        };
        return {advance(read), advance(write)};
      }));
  for (DotLoad &dot : dots) {
    dot.convert.erase();
    dot.load.erase();
  }
  rewriter.setInsertionPointAfter(newLoop);
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
    DenseMap<Operation *, SmallVector<DotLoad>> byLoop;
    SmallVector<scf::ForOp> loops;
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
        std::optional<DotLoad> dot = matchDotLoad(convert);
        if (!dot)
          return;
        auto loop = cast<scf::ForOp>(dot->load->getParentOp());
        auto type = cast<RankedTensorType>(dot->load.getType());
        tile::AxisInfo info = axisInfo.get(dot->load.getPtr());
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
        SmallVector<Value> roots = {dot->load.getPtr()};
        if (dot->load.getMask())
          roots.push_back(dot->load.getMask());
        dot->pipelinable = tile::collectInductionSlice(loop, roots, dot->slice);
        auto &list = byLoop[loop];
        if (list.empty())
          loops.push_back(loop);
        list.push_back(std::move(*dot));
      });
    }
    for (scf::ForOp loop : loops) {
      SmallVector<DotLoad> &dots = byLoop[loop];
      auto stages = loop->getAttrOfType<IntegerAttr>(
          tile::TileDialect::getNumStagesAttrName());
      int64_t numStages = stages ? stages.getInt() : 1;
      bool all = llvm::all_of(
          dots, [](const DotLoad &dot) { return dot.pipelinable; });
      if (numStages >= 2 && all) {
        pipeline(loop, dots, numStages);
        continue;
      }
      for (DotLoad &dot : dots)
        stageInPlace(dot);
    }
  }
};
} // namespace
