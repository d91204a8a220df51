//===- TileGPUToLLVM.cpp - Lower kernels with layouts to LLVM/NVVM --------===//
//
// The pass works in three steps:
//
//  1. On the kernels as they are: the axis analysis decides how many
//     elements each load and store moves per access, and every operation
//     that needs shared-memory scratch gets its own byte range.
//  2. The kernels move into a gpu.module @tile_kernels (what
//     gpu-module-to-binary compiles), with one shared-memory global each.
//  3. A dialect conversion turns tiles into per-thread vectors and every
//     operation into LLVM and NVVM operations, with MLIR's own patterns for
//     arith, math and cf. Floating-point multiplications, additions and
//     subtractions then carry LLVM's `contract` flag, so that the NVPTX
//     backend fuses a multiplication and the addition using it into one
//     FMA, unless the kernel says tile.fp_contract = false.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "PatternTileGPUToLLVM.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/KernelABI.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILEGPUTOLLVM
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tilegpu;

/// Static shared memory a kernel may use without opting in to more.
static constexpr int64_t kMaxStaticSharedMemory = 48 * 1024;
/// The most shared memory one block can have on sm_`version`, opting in
/// past 48 KiB (CUDA's per-block limits); 48 KiB for an unknown chip.
static int64_t getMaxSharedMemory(unsigned version) {
  if (version == 70 || version == 72)
    return 96 * 1024;
  if (version == 75)
    return 64 * 1024;
  if (version == 80 || version == 87)
    return 163 * 1024;
  if (version == 86 || version == 89 || version >= 110)
    return 99 * 1024;
  if (version >= 90)
    return 227 * 1024;
  return kMaxStaticSharedMemory;
}

/// Gives every floating-point fmul, fadd and fsub of the kernels in
/// `module` not named in `exact` LLVM's `contract` flag: the NVPTX backend
/// fuses a contractable multiplication and the contractable addition or
/// subtraction that uses it into one `fma.rn` (without the flag it emits
/// `mul.rn` and `add.rn`, which ptxas must not fuse either).
static void markContractable(gpu::GPUModuleOp module,
                             const llvm::StringSet<> &exact) {
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (exact.contains(func.getSymName()))
      continue;
    func.walk([](Operation *op) {
      if (!isa<LLVM::FMulOp, LLVM::FAddOp, LLVM::FSubOp>(op))
        return;
      auto math = cast<LLVM::FastmathFlagsInterface>(op);
      math->setAttr(math.getFastmathAttrName(),
                    LLVM::FastmathFlagsAttr::get(
                        op->getContext(), math.getFastmathAttr().getValue() |
                                              LLVM::FastmathFlags::contract));
    });
  }
}

namespace {
struct ConvertTileGPUToLLVMPass
    : tile::impl::ConvertTileGPUToLLVMBase<ConvertTileGPUToLLVMPass> {
  using ConvertTileGPUToLLVMBase::ConvertTileGPUToLLVMBase;
  void runOnOperation() override;
  LogicalResult analyze(tile::FuncOp func, LoweringInfo &info,
                        int64_t &sharedBytes);
};
} // namespace

static Attribute getEncoding(Value value) {
  if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
    return tensor.getEncoding();
  return {};
}

/// Checks that a dot's operands have the dot-operand layouts of its result,
/// and that a tensor-core dot holds whole instruction tiles.
static LogicalResult checkDotLayouts(tile::DotOp dot) {
  Attribute parent = dot.getD().getType().getEncoding();
  SmallVector<Value, 2> operands = {dot.getA(), dot.getB()};
  for (auto [index, operand] : llvm::enumerate(operands)) {
    auto layout =
        dyn_cast_or_null<DotOperandEncodingAttr>(getEncoding(operand));
    if (!layout || layout.getOpIdx() != index || layout.getParent() != parent)
      return dot.emitOpError("needs operand ")
             << index << " in the dot_operand layout " << index
             << " of its result's layout; convert it first";
  }
  if (getEncoding(dot.getC()) != parent)
    return dot.emitOpError("needs its accumulator in its result's layout");
  if (!isa<MmaEncodingAttr, BlockedEncodingAttr>(parent))
    return dot.emitOpError("needs its result in an mma or blocked layout");
  if (isa<MmaEncodingAttr>(parent)) {
    RankedTensorType a = dot.getA().getType();
    Type element = a.getElementType();
    if (element.isF32() && dot.getPrecision() != tile::InputPrecision::tf32)
      return dot.emitOpError("multiplies f32 in full precision, which tensor "
                             "cores cannot: give it a blocked layout");
    int64_t minK = element.isF32() ? 8 : 16;
    if (a.getDimSize(0) < 16 || dot.getB().getType().getDimSize(1) < 8 ||
        a.getDimSize(1) < minK)
      return dot.emitOpError("on tensor cores needs M >= 16, N >= 8 and K >= ")
             << minK << ", got " << a.getDimSize(0) << " x "
             << dot.getB().getType().getDimSize(1) << " x " << a.getDimSize(1);
  }
  return success();
}

/// Checks that the layouts of each operation's tiles are ones the patterns
/// can lower: the same layout wherever registers correspond one to one, and
/// slices where a dimension appears or disappears.
static LogicalResult checkLayouts(tile::FuncOp func) {
  auto sameLayouts = [](Operation *op, ValueRange values) -> LogicalResult {
    Value first;
    for (Value value : values) {
      Attribute encoding = getEncoding(value);
      if (!encoding)
        continue;
      if (first && encoding != getEncoding(first))
        return op->emitOpError("needs the same layout for all its tiles; "
                               "convert them first");
      // A dot operand's layout places elements of different widths
      // differently: the same attribute is not the same layout then.
      if (first && isa<DotOperandEncodingAttr>(encoding) &&
          !(getBits(first.getType()) == getBits(value.getType())))
        return op->emitOpError("mixes elements of different widths in one "
                               "dot-operand layout, which places them "
                               "differently; convert after the cast");
      first = value;
    }
    return success();
  };
  WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
    SmallVector<Value> values(op->getOperands());
    values.append(op->result_begin(), op->result_end());
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (isa<RankedTensorType>(constant.getType()) &&
          !isa<SplatElementsAttr>(constant.getValue()))
        return op->emitOpError("is a tile constant that is not a splat; the "
                               "GPU lowering supports splat constants only");
      return WalkResult::advance();
    }
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
      auto slice = dyn_cast_or_null<SliceEncodingAttr>(
          expand.getSrc().getType().getEncoding());
      if (!slice || slice.getParent() != expand.getType().getEncoding() ||
          slice.getDim() != expand.getAxis())
        return op->emitOpError("needs a source in the slice of its result's "
                               "layout along the new dimension");
      return WalkResult::advance();
    }
    if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      auto result = dyn_cast<RankedTensorType>(reduce.getType());
      if (!result)
        return WalkResult::advance();
      auto slice = dyn_cast_or_null<SliceEncodingAttr>(result.getEncoding());
      if (!slice ||
          slice.getParent() != reduce.getSrc().getType().getEncoding() ||
          slice.getDim() != reduce.getAxis())
        return op->emitOpError("needs a result in the slice of its source's "
                               "layout along the reduced axis");
      return WalkResult::advance();
    }
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      if (failed(checkDotLayouts(dot)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (isa<ConvertLayoutOp>(op) || op->getNumRegions() ||
        op->hasTrait<OpTrait::IsTerminator>() || isa<tile::FuncOp>(op))
      return WalkResult::advance();
    // Everything else maps registers one to one: broadcast, splat, addptr,
    // load, store and the elementwise operations.
    return failed(sameLayouts(op, values)) ? WalkResult::interrupt()
                                           : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// True if control can reach `block` again after leaving it.
static bool isOnCycle(Block *block) {
  SmallVector<Block *> worklist(block->getSuccessors());
  llvm::SmallPtrSet<Block *, 8> seen;
  while (!worklist.empty()) {
    Block *next = worklist.pop_back_val();
    if (next == block)
      return true;
    if (!seen.insert(next).second)
      continue;
    worklist.append(next->succ_begin(), next->succ_end());
  }
  return false;
}

LogicalResult ConvertTileGPUToLLVMPass::analyze(tile::FuncOp func,
                                                LoweringInfo &info,
                                                int64_t &sharedBytes) {
  auto numWarps =
      func->getAttrOfType<IntegerAttr>(TileGPUDialect::getNumWarpsAttrName());
  if (!numWarps)
    return func.emitError("kernel '")
           << func.getSymName()
           << "' has no layouts; run convert-tile-to-tilegpu first";
  info.numWarps[func.getSymName()] = numWarps.getInt();
  int64_t clusterSize = tile::TileDialect::getClusterSize(func);
  info.clusterSize[func.getSymName()] = clusterSize;
  auto blocks = func->getAttrOfType<IntegerAttr>(
      tile::TileDialect::getMinBlocksPerSMAttrName());
  // Tensor cores' mma.sync came with sm_80.
  bool usesMma =
      func.walk([](tile::DotOp dot) {
            return isa<MmaEncodingAttr>(dot.getD().getType().getEncoding())
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  // The chip's generation, sm_XY[a|f], where something depends on it.
  unsigned version = 0;
  {
    llvm::StringRef digits = llvm::StringRef(chip).drop_front(3);
    if (!llvm::StringRef(chip).starts_with("sm_") ||
        digits.consumeInteger(10, version))
      version = 0;
  }
  if (blocks || clusterSize > 1 || usesMma) {
    llvm::StringRef digits = llvm::StringRef(chip).drop_front(3);
    if (!llvm::StringRef(chip).starts_with("sm_") ||
        digits.consumeInteger(10, version))
      return func.emitError("cannot tell the GPU generation of chip '")
             << chip << "'; expected sm_XY";
  }
  if (blocks) {
    // The threads an SM holds: 2048 on sm_80, sm_90 and sm_100, 1536 on the
    // smaller chips (sm_86, sm_89, sm_120), 1024 before sm_80.
    int64_t smThreads = version < 80 ? 1024
                        : (version == 86 || version == 89 || version >= 120)
                            ? 1536
                            : 2048;
    int64_t threads = numWarps.getInt() * TileGPUDialect::kThreadsPerWarp;
    if (blocks.getInt() * threads > smThreads)
      return func.emitError("kernel '")
             << func.getSymName() << "' asks for room for " << blocks.getInt()
             << " blocks of " << threads << " threads per SM ('"
             << tile::TileDialect::getMinBlocksPerSMAttrName()
             << "'), but an SM of " << chip << " holds " << smThreads
             << " threads";
    info.minBlocksPerSM[func.getSymName()] = blocks.getInt();
  }
  if (usesMma && version < 80)
    return func.emitError("kernel '")
           << func.getSymName()
           << "' multiplies on tensor cores (tile.dot), which need sm_80 or "
              "later; compiling for "
           << chip;
  // wgmma exists on sm_90a only (the arch-specific target).
  if (func.walk([](WarpgroupDotOp) { return WalkResult::interrupt(); })
          .wasInterrupted() &&
      chip != "sm_90a")
    return func.emitError("kernel '")
           << func.getSymName()
           << "' multiplies with wgmma (tilegpu.warpgroup_dot), which only "
              "sm_90a has; compiling for "
           << chip;
  // Products of 8-bit floats run on wgmma only (sm_90a, both operands staged
  // in shared memory contiguous along K); mma.sync's m16n8k32 is not
  // lowered yet.
  WalkResult f8Dot = func.walk([](tile::DotOp dot) {
    return isF8Type(dot.getA().getType()) ? WalkResult::interrupt()
                                          : WalkResult::advance();
  });
  if (f8Dot.wasInterrupted())
    return func.emitError("kernel '")
           << func.getSymName()
           << "' multiplies 8-bit floats (tile.dot of f8E4M3FN or f8E5M2) "
              "that wgmma cannot take; the GPU lowering multiplies them "
              "with wgmma only (sm_90a, in a pipelined loop, A row-major "
              "and B column-major); the CPU interpreter runs it "
              "(--target=cpu)";
  // Conversions of 8-bit floats (cvt ... e4m3x2, e5m2x2) came with sm_89.
  WalkResult f8 = func.walk([](Operation *op) {
    return isa<arith::ExtFOp, arith::TruncFOp>(op) &&
                   (isF8Type(op->getOperand(0).getType()) ||
                    isF8Type(op->getResult(0).getType()))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (f8.wasInterrupted() && version < 89)
    return func.emitError("kernel '")
           << func.getSymName()
           << "' converts 8-bit floats (tile.cast of f8E4M3FN or f8E5M2), "
              "which needs sm_89 or later; compiling for "
           << chip;
  // Clusters came with sm_90.
  if (clusterSize > 1) {
    if (version < 90)
      return func.emitError("kernel '")
             << func.getSymName() << "' runs in clusters of " << clusterSize
             << " programs ('" << tile::TileDialect::getClusterSizeAttrName()
             << "'), which need sm_90 or later; compiling for " << chip;
  }

  // Every tile must have a layout the lowering can realize, in registers.
  WalkResult walk = func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        continue;
      if (!isa_and_present<BlockedEncodingAttr, SliceEncodingAttr,
                           MmaEncodingAttr, DotOperandEncodingAttr>(
              tensor.getEncoding()) ||
          failed(getLayoutBits(tensor))) {
        op->emitOpError("produces ")
            << type << ", a tile without a GPU layout the lowering supports";
        return WalkResult::interrupt();
      }
      int64_t perThread = getElementsPerThread(tensor);
      if (perThread > kMaxElementsPerThread) {
        op->emitOpError("produces ")
            << type << ", which needs " << perThread
            << " registers per thread (at most " << kMaxElementsPerThread
            << "); use a smaller tile or more warps";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (failed(checkLayouts(func)))
    return failure();

  tile::AxisInfoResult axisInfo(func);
  if (failed(axisInfo.getStatus()))
    return func.emitError("axis analysis failed");
  auto recordWidth = [&](Operation *op, Value ptr, Value mask) {
    auto type = dyn_cast<RankedTensorType>(ptr.getType());
    if (!type)
      return;
    LayoutBits bits = getBits(type);
    if (bits.reg.empty()) {
      info.accessWidth[op] = 1;
      return;
    }
    int dim = bits.reg.front().dim;
    info.accessWidth[op] = std::min(axisInfo.getAccessWidth(ptr, mask, dim),
                                    bits.getContiguousRegisters(dim));
    tile::AxisInfo facts = axisInfo.get(ptr);
    if (!facts.isUninitialized() && facts.getRank() == type.getRank() &&
        facts.getContiguity(dim) >= type.getDimSize(dim))
      info.contiguousDim[op] = dim;
  };
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<tile::LoadOp>(op))
      recordWidth(op, load.getPtr(), load.getMask());
    else if (auto store = dyn_cast<tile::StoreOp>(op))
      recordWidth(op, store.getPtr(), store.getMask());
  });
  // Masks constant over runs of a thread's consecutive registers (a row's
  // bounds checked per group of 8 columns, say): the run's first element
  // stands for the rest (ElementwiseOpToLLVM.cpp). Only the operations that
  // lowering computes element by element, and only masks: nothing between
  // this analysis and the conversion creates or erases operations.
  func.walk([&](Operation *op) {
    if (!isLoweredPerElement(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.getEncoding() || !type.getElementType().isInteger(1))
      return;
    LayoutBits bits = getBits(type);
    if (bits.reg.empty())
      return;
    int dim = bits.reg.front().dim;
    tile::AxisInfo facts = axisInfo.get(op->getResult(0));
    if (facts.isUninitialized() || facts.getRank() != type.getRank())
      return;
    uint64_t run = static_cast<uint64_t>(
        std::gcd(facts.getConstancy(dim), bits.getContiguousRegisters(dim)));
    run &= ~(run - 1); // Its largest power-of-two divisor.
    if (run > 1)
      info.constantRun[op] = static_cast<int64_t>(run);
  });
  // An asynchronous copy moves runs along the buffer's contiguous
  // dimension, of at most 16 bytes and within one swizzled group.
  func.walk([&](AsyncCopyOp copy) {
    LayoutBits bits = getBits(copy.getPtr().getType());
    auto shared =
        cast<SharedEncodingAttr>(copy.getDst().getType().getEncoding());
    int fast = shared.getOrder()[0];
    int64_t bytes =
        copy.getDst().getType().getElementType().getIntOrFloatBitWidth() / 8;
    int64_t width = 1;
    if (!bits.reg.empty() && bits.reg.front().dim == fast)
      width = std::min<int64_t>(
          {axisInfo.getAccessWidth(copy.getPtr(), copy.getMask(), fast),
           bits.getContiguousRegisters(fast), int64_t(shared.getVec()),
           16 / bytes});
    info.accessWidth[copy] = std::max<int64_t>(width, 1);
  });

  sharedBytes = placeSharedMemory(func, info);
  if (failed(analyzeTensorMaps(func, info)))
    return failure();
  // An operation's scratch is read after a barrier; before the same
  // operation writes it again, every thread must have finished reading. That
  // takes a second barrier, unless another barrier always comes in between:
  // when the operation runs at most once (its block is on no cycle), or when
  // its block holds another operation with a barrier (a block runs whole, so
  // every way back to the operation passes through it).
  // A cluster reduction sends into the other blocks' slots, in two buffers
  // used in turn. A block sends its value for round k + 1 only after all
  // its threads have read the slots of round k when a block barrier lies on
  // every way between them: another operation with one in the same block
  // (a block runs whole), or a barrier of its own before it sends. A
  // cluster reduction's wait is not a block barrier (only the first threads
  // of each block send), so it stands for no other operation's second
  // barrier unless it has a barrier of its own.
  auto hasBlockBarrier = [&](Operation &other) {
    return info.sharedOffset.count(&other) &&
           (!isa<tile::ClusterReduceOp>(other) ||
            info.clusterLeadingBarrier.contains(&other));
  };
  for (auto &[op, offset] : info.sharedOffset) {
    if (op->getParentOfType<tile::FuncOp>() != func ||
        !isa<tile::ClusterReduceOp>(op))
      continue;
    info.usesClusterMemory.insert(func.getSymName());
    Block *block = op->getBlock();
    bool otherBarrier = llvm::any_of(*block, [&](Operation &other) {
      return &other != op && !isa<tile::ClusterReduceOp>(other) &&
             info.sharedOffset.count(&other);
    });
    if (!otherBarrier && isOnCycle(block))
      info.clusterLeadingBarrier.insert(op);
  }
  // A grid reduction's scratch is written after a barrier of its own, so it
  // needs no second one either.
  for (auto &[op, offset] : info.sharedOffset) {
    if (op->getParentOfType<tile::FuncOp>() != func ||
        isa<tile::ClusterReduceOp, tile::GridReduceOp>(op))
      continue;
    Block *block = op->getBlock();
    bool otherBarrier = llvm::any_of(*block, [&](Operation &other) {
      return &other != op && hasBlockBarrier(other);
    });
    if (otherBarrier || !isOnCycle(block))
      continue;
    info.trailingBarrier.insert(op);
  }

  if (sharedBytes <= kMaxStaticSharedMemory)
    return success();
  int64_t limit = getMaxSharedMemory(version);
  if (sharedBytes > limit)
    return func.emitError("kernel '")
           << func.getSymName() << "' needs " << sharedBytes
           << " bytes of shared memory for reductions, layout conversions "
              "and buffers, more than the "
           << limit << " a block can have on " << chip
           << "; use smaller blocks or fewer stages (NUM_STAGES, BLOCK_K)";
  // Past 48 KiB, shared memory is dynamic: the kernel declares how much it
  // needs in a global the runtime reads before launching it.
  info.dynamicShared.insert(func.getSymName());
  return success();
}

void ConvertTileGPUToLLVMPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  SmallVector<tile::FuncOp> kernels(module.getOps<tile::FuncOp>());
  if (kernels.empty())
    return;

  // Integer divisions that round up or down become plain divisions first,
  // before the analysis: the facts it records are keyed by operation, and
  // the rewrite creates and erases operations. Only the divisions are
  // rewritten (nothing else is folded or erased before the analysis, which
  // diagnoses what the lowering does not support).
  SmallVector<Operation *> divisions;
  module.walk([&](Operation *op) {
    if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
      divisions.push_back(op);
  });
  if (!divisions.empty()) {
    RewritePatternSet expand(context);
    arith::populateCeilFloorDivExpandOpsPatterns(expand);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(divisions, std::move(expand), config)))
      return signalPassFailure();
  }

  LoweringInfo info;
  info.gridReduceLeader = gridReduceLeader;
  info.gridReduceBackoff = gridReduceBackoff;
  DenseMap<Operation *, int64_t> sharedBytes;
  for (tile::FuncOp func : kernels)
    if (failed(analyze(func, info, sharedBytes[func])))
      return signalPassFailure();

  // The kernels move into a gpu.module, with their shared memory.
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  auto gpuModule =
      gpu::GPUModuleOp::create(builder, module.getLoc(), "tile_kernels");
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  Block *body = gpuModule.getBody();
  for (tile::FuncOp func : kernels) {
    func->remove();
    if (body->mightHaveTerminator())
      body->getOperations().insert(body->getTerminator()->getIterator(), func);
    else
      body->push_back(func);
    // Every kernel says how much dynamic shared memory its launches pass
    // (`.visible .global .u32 <kernel>_dynamic_shared`; 0 for none), so
    // that the runtime finds the symbol it looks for.
    builder.setInsertionPoint(func);
    bool dynamic = info.dynamicShared.contains(func.getSymName());
    LLVM::GlobalOp::create(
        builder, func.getLoc(), builder.getI32Type(),
        /*isConstant=*/true, LLVM::Linkage::External,
        (func.getSymName() + tile::kDynamicSharedSuffix).str(),
        builder.getI32IntegerAttr(dynamic ? sharedBytes[func] : 0),
        /*alignment=*/4, /*addrSpace=*/1);
    // The recipes of its tensor maps, where it has any.
    auto recipes = info.tensorMapRecipes.find(func.getSymName());
    if (recipes != info.tensorMapRecipes.end()) {
      SmallVector<int32_t> words = {
          tile::kTensorMapsMagic,
          static_cast<int32_t>(recipes->second.size() / tile::kTensorMapWords)};
      llvm::append_range(words, recipes->second);
      auto arrayType =
          LLVM::LLVMArrayType::get(builder.getI32Type(), words.size());
      LLVM::GlobalOp::create(
          builder, func.getLoc(), arrayType, /*isConstant=*/true,
          LLVM::Linkage::External,
          (func.getSymName() + tile::kTensorMapsSuffix).str(),
          DenseIntElementsAttr::get(
              RankedTensorType::get({static_cast<int64_t>(words.size())},
                                    builder.getI32Type()),
              ArrayRef<int32_t>(words)),
          /*alignment=*/4, /*addrSpace=*/1);
    }
    // The workspace of its grid reductions, where it has any, zeroed when
    // the module loads.
    int64_t gridWords = 0;
    func.walk([&](tile::GridReduceOp op) {
      gridWords = std::max(gridWords, getGridReduceWords(op));
    });
    if (gridWords) {
      auto global = LLVM::GlobalOp::create(
          builder, func.getLoc(),
          LLVM::LLVMArrayType::get(builder.getI8Type(),
                                   getGridReduceWorkspaceBytes(gridWords)),
          /*isConstant=*/false, LLVM::Linkage::External,
          (func.getSymName() + tile::kGridReduceSuffix).str(), Attribute(),
          /*alignment=*/8, /*addrSpace=*/1);
      OpBuilder::InsertionGuard guard(builder);
      Block *init = builder.createBlock(&global.getInitializerRegion());
      builder.setInsertionPointToStart(init);
      Value zero =
          LLVM::ZeroOp::create(builder, func.getLoc(), global.getType());
      LLVM::ReturnOp::create(builder, func.getLoc(), zero);
    }
    if (int64_t bytes = sharedBytes[func]) {
      std::string name = (func.getSymName() + "_shared").str();
      // `.extern .shared .b8 name[]` when dynamic, sized at the launch.
      LLVM::GlobalOp::create(
          builder, func.getLoc(),
          LLVM::LLVMArrayType::get(builder.getI8Type(), dynamic ? 0 : bytes),
          /*isConstant=*/false,
          dynamic ? LLVM::Linkage::External : LLVM::Linkage::Internal, name,
          Attribute(),
          /*alignment=*/
          func->walk([](Operation *op) {
                return isa<WarpgroupDotOp, TmaLoadOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              }).wasInterrupted()
              ? 1024
              : 16,
          /*addrSpace=*/3);
      info.sharedGlobal[func.getSymName()] = name;
    }
  }

  LowerToLLVMOptions options(context);
  LLVMTypeConverter converter(context, options);
  converter.addConversion([context](tile::PointerType) -> Type {
    return LLVM::LLVMPointerType::get(context, /*addressSpace=*/1);
  });
  converter.addConversion([context](MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(context, /*addressSpace=*/3);
  });
  converter.addConversion([context](MBarriersType) -> Type {
    return LLVM::LLVMPointerType::get(context, /*addressSpace=*/3);
  });
  // A tensor map, where the kernel's parameters hold it.
  converter.addConversion([context](tile::TensorDescType) -> Type {
    return LLVM::LLVMPointerType::get(context);
  });
  converter.addConversion(
      [&converter](RankedTensorType type) -> std::optional<Type> {
        if (!type.getEncoding())
          return std::nullopt;
        Type element = type.getElementType();
        Type converted = isa<tile::PointerType>(element)
                             ? IntegerType::get(type.getContext(), 64)
                             : converter.convertType(element);
        if (!converted)
          return std::nullopt;
        return VectorType::get({getElementsPerThread(type)}, converted);
      });

  RewritePatternSet patterns(context);
  populateTileOpToLLVMPatterns(converter, patterns, info);
  populateMemoryOpToLLVMPatterns(converter, patterns, info);
  populateReduceOpToLLVMPatterns(converter, patterns, info);
  populateConvertLayoutOpToLLVMPatterns(converter, patterns, info);
  populateClusterOpToLLVMPatterns(converter, patterns, info);
  populateGridOpToLLVMPatterns(converter, patterns, info);
  populateTmaOpToLLVMPatterns(converter, patterns, info);
  populateDotOpToLLVMPatterns(converter, patterns, info);
  populateWarpgroupDotOpToLLVMPatterns(converter, patterns);
  populateSharedMemoryOpToLLVMPatterns(converter, patterns, info);
  populateElementwiseOpToLLVMPatterns(converter, patterns, info);
  populateF8OpToLLVMPatterns(converter, patterns);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  // Math functions NVPTX has no instruction for (tanh, sin, log, ...) become
  // calls into CUDA's libdevice, which gpu-module-to-binary links in; they
  // take precedence over LLVM's intrinsics, which the backend cannot select.
  populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/2);
  populateMathToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);

  LLVMConversionTarget target(*context);
  target.addLegalDialect<NVVM::NVVMDialect>();
  target.addLegalOp<gpu::GPUModuleOp>();
  target.addIllegalDialect<tile::TileDialect, TileGPUDialect,
                           arith::ArithDialect, math::MathDialect,
                           cf::ControlFlowDialect, scf::SCFDialect>();
  // The kernels that keep each multiplication and addition rounded on its
  // own (tile.fp_contract = false); the others let LLVM fuse them into FMAs.
  llvm::StringSet<> exact;
  for (tile::FuncOp func : kernels)
    if (!tile::TileDialect::allowsFPContract(func))
      exact.insert(func.getSymName());
  if (failed(applyPartialConversion(gpuModule, target, std::move(patterns))))
    return signalPassFailure();
  markContractable(gpuModule, exact);
}
