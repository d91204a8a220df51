//===- TmaOpToLLVM.cpp - TMA copies, mbarriers and tensor maps ------------===//
//
// A descriptor that TMA copies read (tilegpu.tma_load) becomes a tensor map
// the runtime encodes on the host and passes by value, as a hidden
// parameter after the kernel's own:
//
//   llvm.func @k(..., %map: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>,
//                llvm.align = 64 : i64, nvvm.grid_constant})
//
// which NVPTX keeps in the parameter space (`.param .align 64 .b8
// k_param_N[128]`), where TMA reads it through a generic address; the
// recipe the runtime makes it from (the base argument, the sizes and
// strides, the box and the swizzle the buffers ask for) is a global of the
// module (KernelABI.h). tile.make_tensor_desc becomes that parameter.
//
// tilegpu.mbarrier_alloc is a range of the kernel's shared memory that
// thread 0 initializes before the block meets; tilegpu.tma_load has thread
// 0 arrive on its mbarrier expecting the box's bytes and issue one
// `cp.async.bulk.tensor` per block of columns; tilegpu.mbarrier_wait spins
// on `mbarrier.try_wait.parity`.
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Conversion/KernelABI.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Tma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tile;

/// A size or stride of a recipe: the constant, or -1 - i for the kernel's
/// argument i.
static FailureOr<int32_t> encodeValue(Value value, tile::FuncOp func) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (arg.getOwner() == &func.getBody().front())
      return -1 - static_cast<int32_t>(arg.getArgNumber());
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)) &&
      constant.getSExtValue() >= 0 && constant.getSExtValue() <= INT32_MAX)
    return static_cast<int32_t>(constant.getSExtValue());
  return failure();
}

static std::optional<TensorMapElement> getMapElement(Type type) {
  if (type.isF16())
    return TensorMapElement::F16;
  if (type.isBF16())
    return TensorMapElement::BF16;
  if (type.isF32())
    return TensorMapElement::F32;
  if (type.isInteger(32))
    return TensorMapElement::I32;
  if (isa<Float8E4M3FNType>(type))
    return TensorMapElement::F8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return TensorMapElement::F8E5M2;
  return std::nullopt;
}

LogicalResult mlir::tilegpu::analyzeTensorMaps(tile::FuncOp func,
                                               LoweringInfo &info) {
  SmallVector<int32_t> recipes;
  int64_t count = 0;
  auto walk = func.walk([&](tile::MakeTensorDescOp desc) -> WalkResult {
    if (desc->use_empty())
      return WalkResult::advance();
    // Every copy of the descriptor asks for the same box and swizzle.
    std::optional<TmaBox> box;
    for (Operation *user : desc->getUsers()) {
      auto copy = dyn_cast<TmaLoadOp>(user);
      if (!copy) {
        user->emitError("a tensor descriptor reaches the GPU lowering only "
                        "through TMA copies (tilegpu.tma_load); "
                        "tile-expand-tensor-descs expands the others");
        return WalkResult::interrupt();
      }
      std::string why;
      FailureOr<TmaBox> wanted = getTmaBox(copy.getDst().getType(), why);
      if (failed(wanted)) {
        copy.emitOpError("cannot write its buffer with TMA: it ") << why;
        return WalkResult::interrupt();
      }
      if (box && (box->box != wanted->box ||
                  box->swizzleBytes != wanted->swizzleBytes)) {
        copy.emitOpError("copies the descriptor into a buffer laid out "
                         "unlike its other copies': one tensor map serves "
                         "one box and swizzle");
        return WalkResult::interrupt();
      }
      box = *wanted;
    }
    tile::TensorDescType type = desc.getType();
    std::optional<TensorMapElement> element =
        getMapElement(type.getElementType());
    auto base = dyn_cast<BlockArgument>(desc.getBase());
    if (!element || !base || base.getOwner() != &func.getBody().front()) {
      desc.emitOpError("cannot be made into a tensor map: its base must be "
                       "a kernel argument and its elements f16, bf16, f32, "
                       "i32, f8E4M3FN or f8E5M2");
      return WalkResult::interrupt();
    }
    SmallVector<int32_t> words(kTensorMapWords, 0);
    words[kTensorMapBaseArg] = static_cast<int32_t>(base.getArgNumber());
    words[kTensorMapElement] = static_cast<int32_t>(*element);
    words[kTensorMapRank] = static_cast<int32_t>(type.getRank());
    words[kTensorMapBox1] = 1;
    unsigned rank = type.getRank();
    for (unsigned d = 0; d < rank; ++d) {
      // Innermost first.
      unsigned dim = rank - 1 - d;
      FailureOr<int32_t> size = encodeValue(desc.getShape()[dim], func);
      if (failed(size)) {
        desc.emitOpError("cannot be made into a tensor map: size ")
            << dim << " is neither a kernel argument nor a constant";
        return WalkResult::interrupt();
      }
      words[kTensorMapSize0 + d] = *size;
      words[kTensorMapBox0 + d] = static_cast<int32_t>(box->box[dim]);
    }
    if (rank == 2) {
      FailureOr<int32_t> stride = encodeValue(desc.getStrides()[0], func);
      if (failed(stride)) {
        desc.emitOpError("cannot be made into a tensor map: its row stride "
                         "is neither a kernel argument nor a constant");
        return WalkResult::interrupt();
      }
      words[kTensorMapRowStride] = *stride;
    }
    words[kTensorMapSwizzle] = static_cast<int32_t>(box->swizzleBytes);
    info.tensorMapIndex[desc] = count++;
    llvm::append_range(recipes, words);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (count)
    info.tensorMapRecipes[func.getSymName()] = std::move(recipes);
  return success();
}

namespace {

/// tile.make_tensor_desc -> its hidden parameter (a generic pointer to the
/// map in the parameter space).
struct MakeTensorDescOpLowering
    : ConvertOpToLLVMPattern<tile::MakeTensorDescOp> {
  MakeTensorDescOpLowering(LLVMTypeConverter &converter,
                           const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tile::MakeTensorDescOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->use_empty()) {
      rewriter.eraseOp(op);
      return success();
    }
    auto kernel = op->getParentOfType<LLVM::LLVMFuncOp>();
    auto it = info.tensorMapIndex.find(op);
    if (!kernel || it == info.tensorMapIndex.end())
      return rewriter.notifyMatchFailure(op, "kernel not converted first");
    int64_t maps = info.tensorMapRecipes.lookup(kernel.getSymName()).size() /
                   kTensorMapWords;
    int64_t index = kernel.getNumArguments() - maps + it->second;
    rewriter.replaceOp(op, kernel.getArgument(index));
    return success();
  }

  const LoweringInfo &info;
};

/// tilegpu.mbarrier_alloc -> its range of shared memory, which thread 0
/// initializes (and fences) between two meetings of the block.
struct MBarrierAllocOpLowering : ConvertOpToLLVMPattern<MBarrierAllocOp> {
  MBarrierAllocOpLowering(LLVMTypeConverter &converter,
                          const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(MBarrierAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto bars = getSharedAddress(
        rewriter, loc, op, info,
        createI32(rewriter, loc, info.bufferOffset.lookup(op)));
    // Run again (in an outer loop), the row is initialized anew: the block
    // meets first, so that no thread still waits for a phase of its last
    // use when thread 0 resets it.
    NVVM::Barrier0Op::create(rewriter, loc);
    Value tid = getThreadId(rewriter, loc);
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       tid, createI32(rewriter, loc, 0));
    createIf(rewriter, loc, first, [&] {
      for (int64_t i = 0; i < op.getType().getCount(); ++i) {
        Value address = LLVM::GEPOp::create(
            rewriter, loc, bars.getType(), rewriter.getI8Type(), bars,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(8 * i)});
        NVVM::MBarrierInitOp::create(rewriter, loc, address,
                                     createI32(rewriter, loc, op.getArrivals()),
                                     /*predicate=*/Value());
      }
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    });
    NVVM::Barrier0Op::create(rewriter, loc);
    rewriter.replaceOp(op, bars);
    return success();
  }

  const LoweringInfo &info;
};

/// The address of mbarrier `index` of `bars`.
static Value getBarrier(OpBuilder &b, Location loc, Value bars, Value index) {
  Value offset = LLVM::MulOp::create(b, loc, index, createI32(b, loc, 8));
  return LLVM::GEPOp::create(b, loc, bars.getType(), b.getI8Type(), bars,
                             ValueRange{offset});
}

/// tilegpu.mbarrier_wait -> a try_wait.parity loop, in PTX.
struct MBarrierWaitOpLowering : ConvertOpToLLVMPattern<MBarrierWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MBarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier =
        getBarrier(rewriter, loc, adaptor.getBars(), adaptor.getIndex());
    createMBarrierWait(rewriter, loc, barrier, adaptor.getPhase());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tilegpu.tma_load -> thread 0 (where `pred` holds) expects the box's
/// bytes on the mbarrier and issues a copy per block of columns.
struct TmaLoadOpLowering : ConvertOpToLLVMPattern<TmaLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmaLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType dstType = op.getDst().getType();
    std::string why;
    FailureOr<TmaBox> box = getTmaBox(dstType, why);
    if (failed(box))
      return rewriter.notifyMatchFailure(op, why);
    Type element = dstType.getElementType();
    int64_t copyBytes = box->getCopyBytes(element);
    Value barrier =
        getBarrier(rewriter, loc, adaptor.getBars(), adaptor.getIndex());
    Value tid = getThreadId(rewriter, loc);
    Value issue = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       tid, createI32(rewriter, loc, 0));
    if (Value pred = adaptor.getPred())
      issue = LLVM::AndOp::create(rewriter, loc, issue, pred);
    // TMA counts dimensions innermost first.
    SmallVector<Value> coords(llvm::reverse(adaptor.getOffsets()));
    auto clusterPtr = LLVM::LLVMPointerType::get(
        getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    createIf(rewriter, loc, issue, [&] {
      NVVM::MBarrierArriveExpectTxOp::create(
          rewriter, loc, Type(), barrier,
          createI32(rewriter, loc, copyBytes * box->copies),
          NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
      for (int64_t c = 0; c < box->copies; ++c) {
        Value dst = adaptor.getDst();
        if (c > 0)
          dst = LLVM::GEPOp::create(
              rewriter, loc, dst.getType(), rewriter.getI8Type(), dst,
              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(c * copyBytes)});
        SmallVector<Value> at = coords;
        if (c > 0)
          at[0] = LLVM::AddOp::create(
              rewriter, loc, at[0],
              createI32(rewriter, loc, c * box->box.back()));
        Value cluster =
            LLVM::AddrSpaceCastOp::create(rewriter, loc, clusterPtr, dst);
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            rewriter, loc, cluster, adaptor.getDesc(), at, barrier,
            /*im2colOffsets=*/ValueRange(), /*multicastMask=*/Value(),
            /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
            /*isCTAOnly=*/false, /*group=*/NVVM::CTAGroupKindAttr(),
            /*predicate=*/Value());
      }
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tilegpu::populateTmaOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                const LoweringInfo &info) {
  patterns.add<MakeTensorDescOpLowering, MBarrierAllocOpLowering>(converter,
                                                                  info);
  patterns.add<MBarrierWaitOpLowering, TmaLoadOpLowering>(converter);
}
