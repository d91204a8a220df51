//===- TileOpToLLVM.cpp - Kernels, ids, tile construction, exp ------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Conversion/KernelABI.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// tile.func -> llvm.func with nvvm.kernel, at most 32 x num_warps threads,
/// and nvvm.cluster_dim for a kernel of clusters.
struct FuncOpLowering : ConvertOpToLLVMPattern<tile::FuncOp> {
  FuncOpLowering(LLVMTypeConverter &converter, const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tile::FuncOp func, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    TypeConverter::SignatureConversion signature(func.getNumArguments());
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      Type converted = getTypeConverter()->convertType(type);
      if (!converted)
        return rewriter.notifyMatchFailure(func, "unsupported argument type");
      signature.addInputs(i, converted);
    }
    // The tensor maps of its TMA copies follow the kernel's own parameters
    // (TmaOpToLLVM.cpp).
    int64_t maps = info.tensorMapRecipes.lookup(func.getSymName()).size() /
                   tile::kTensorMapWords;
    SmallVector<Type> params(signature.getConvertedTypes());
    params.append(maps, LLVM::LLVMPointerType::get(getContext()));
    auto type = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(getContext()), params);
    auto kernel = LLVM::LLVMFuncOp::create(rewriter, func.getLoc(),
                                           func.getSymName(), type);
    for (int64_t i = params.size() - maps; i < int64_t(params.size()); ++i) {
      kernel.setArgAttr(
          i, LLVM::LLVMDialect::getByValAttrName(),
          TypeAttr::get(LLVM::LLVMArrayType::get(rewriter.getI8Type(), 128)));
      kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        rewriter.getI64IntegerAttr(64));
      kernel.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        rewriter.getUnitAttr());
    }
    kernel->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    rewriter.getUnitAttr());
    int64_t threads = info.numWarps.lookup(func.getSymName()) *
                      TileGPUDialect::kThreadsPerWarp;
    kernel->setAttr(
        NVVM::NVVMDialect::getMaxntidAttrName(),
        rewriter.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
    // .minnctapersm: ptxas allocates registers for that many blocks per SM.
    // One asks for nothing. (.minnctapersm 1 would also keep ptxas from
    // spilling for an occupancy of its own choosing, but it changes the
    // registers of most kernels, which has not been timed.)
    if (int64_t blocks = info.minBlocksPerSM.lookup(func.getSymName());
        blocks > 1)
      kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      rewriter.getI32IntegerAttr(blocks));
    int64_t clusterSize = info.clusterSize.lookup(func.getSymName());
    if (clusterSize > 1)
      kernel->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                      rewriter.getDenseI32ArrayAttr(
                          {static_cast<int32_t>(clusterSize), 1, 1}));
    SmallVector<Operation *> clusterReduces;
    func.walk([&](tile::ClusterReduceOp op) {
      if (info.sharedOffset.count(op))
        clusterReduces.push_back(op);
    });
    SmallVector<Operation *> gridReduces;
    func.walk([&](tile::GridReduceOp op) { gridReduces.push_back(op); });
    // .maxnreg at the registers the kernel's occupancy leaves a thread, for
    // a kernel that reduces across its grid. It takes nothing the hardware
    // would give, but without it ptxas (CUDA 13.0) spills a few values
    // around the reductions' waiting loops while keeping far fewer
    // registers than it may (softmax_grid.mlir: 12 bytes at 40 registers,
    // none at 48 or more with any .maxnreg).
    if (!gridReduces.empty()) {
      int64_t blocks =
          std::max<int64_t>(1, info.minBlocksPerSM.lookup(func.getSymName()));
      int64_t registers = 65536 / (threads * blocks);
      registers = registers >= 255 ? 255 : registers / 8 * 8;
      kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                      rewriter.getI32IntegerAttr(registers));
    }
    rewriter.inlineRegionBefore(func.getBody(), kernel.getBody(), kernel.end());
    FailureOr<Block *> entry = rewriter.convertRegionTypes(
        &kernel.getBody(), *getTypeConverter(), &signature);
    if (failed(entry))
      return failure();
    for (int64_t i = 0; i < maps; ++i)
      (*entry)->addArgument(LLVM::LLVMPointerType::get(getContext()),
                            func.getLoc());
    if (maps > 0)
      prefetchTensorMaps(rewriter, func.getLoc(), *entry, maps);
    if (info.usesClusterMemory.contains(func.getSymName()))
      startClusterExchanges(rewriter, func.getLoc(), *entry, clusterReduces);
    if (!gridReduces.empty())
      startGridReductions(rewriter, func.getLoc(), *entry, func.getSymName(),
                          gridReduces);
    rewriter.eraseOp(func);
    return success();
  }

  /// The start of a kernel with TMA copies: thread 0 asks for each tensor
  /// map's line (`prefetch.tensormap`), so that the map's fetch overlaps the
  /// kernel's own start (its indices, the mbarriers' initialization) instead
  /// of delaying the first copy; in a kernel of one wave that first copy's
  /// latency is much of the kernel's time.
  void prefetchTensorMaps(ConversionPatternRewriter &rewriter, Location loc,
                          Block *entry, int64_t maps) const {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(entry);
    Value tid = getThreadId(rewriter, loc);
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       tid, createI32(rewriter, loc, 0));
    createIf(rewriter, loc, first, [&] {
      for (int64_t i = entry->getNumArguments() - maps;
           i < int64_t(entry->getNumArguments()); ++i)
        NVVM::PrefetchOp::create(rewriter, loc, /*cacheLevel=*/nullptr,
                                 /*evictPriority=*/nullptr,
                                 entry->getArgument(i), /*predicate=*/Value(),
                                 /*tensormap=*/true, /*uniform=*/false,
                                 /*in_param_space=*/true);
    });
  }

  /// The start of a kernel whose cluster reductions exchange values through
  /// distributed shared memory: each reduction's round counter, zeroed;
  /// thread 0 initializes each reduction's two mbarriers (one arrival each:
  /// its own, with the bytes the round expects) and fences the
  /// initialization for the cluster; then the cluster meets once, so that
  /// no block sends into one that has not started and initialized.
  void startClusterExchanges(ConversionPatternRewriter &rewriter, Location loc,
                             Block *entry,
                             ArrayRef<Operation *> reduces) const {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(entry);
    Type i32 = rewriter.getI32Type();
    auto localPtr = LLVM::LLVMPointerType::get(rewriter.getContext());
    for (Operation *op : reduces) {
      Value round = LLVM::AllocaOp::create(rewriter, loc, localPtr, i32,
                                           createI32(rewriter, loc, 1));
      LLVM::StoreOp::create(rewriter, loc, createI32(rewriter, loc, 0), round);
      info.clusterRound[op] = round;
    }
    // (One operation created per statement: the order of a call's
    // arguments is the compiler's, and the IR must not depend on it.)
    Value tid = getThreadId(rewriter, loc);
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       tid, createI32(rewriter, loc, 0));
    createIf(rewriter, loc, first, [&] {
      for (Operation *op : reduces)
        for (int64_t buffer = 0; buffer < 2; ++buffer) {
          Value address = getSharedAddress(
              rewriter, loc, op, info, createI32(rewriter, loc, 8 * buffer));
          NVVM::MBarrierInitOp::create(rewriter, loc, address,
                                       createI32(rewriter, loc, 1),
                                       /*predicate=*/Value());
        }
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    });
    NVVM::ClusterArriveRelaxedOp::create(rewriter, loc, rewriter.getUnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, loc, rewriter.getUnitAttr());
  }

  /// The start of a kernel that reduces across its grid: the tag counter
  /// of its reductions, set to the epoch its workspace holds
  /// (GridOpToLLVM.cpp). Every thread reads the epoch, before any program
  /// of the launch can complete a reduction.
  void startGridReductions(ConversionPatternRewriter &rewriter, Location loc,
                           Block *entry, StringRef kernel,
                           ArrayRef<Operation *> reduces) const {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(entry);
    Type i32 = rewriter.getI32Type();
    auto localPtr = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value counter = LLVM::AllocaOp::create(rewriter, loc, localPtr, i32,
                                           createI32(rewriter, loc, 1));
    auto globalPtr =
        LLVM::LLVMPointerType::get(rewriter.getContext(), /*addressSpace=*/1);
    Value workspace = LLVM::AddressOfOp::create(
        rewriter, loc, globalPtr, (kernel + tile::kGridReduceSuffix).str());
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                          workspace);
    Value epoch =
        createInlinePTX(rewriter, loc, i32,
                        "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l", {base})
            .getResult(0);
    LLVM::StoreOp::create(rewriter, loc, epoch, counter);
    for (Operation *op : reduces)
      info.gridTag[op] = counter;
  }

  const LoweringInfo &info;
};

struct ReturnOpLowering : ConvertOpToLLVMPattern<tile::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tile::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange());
    return success();
  }
};

/// tile.program_id -> %ctaid, tile.num_programs -> %nctaid.
template <typename OpTy, typename X, typename Y, typename Z>
struct GridOpLowering : ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Value value;
    switch (op.getAxis()) {
    case tile::ProgramAxis::x:
      value = X::create(rewriter, op.getLoc(), i32);
      break;
    case tile::ProgramAxis::y:
      value = Y::create(rewriter, op.getLoc(), i32);
      break;
    case tile::ProgramAxis::z:
      value = Z::create(rewriter, op.getLoc(), i32);
      break;
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// tile.range: each register's coordinate plus the thread's.
struct RangeOpLowering : ConvertOpToLLVMPattern<tile::RangeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tile::RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LayoutBits bits = getBits(op.getType());
    auto vectorType =
        cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<int32_t> registerCoords;
    for (int64_t r = 0; r < bits.getNumRegisters(); ++r)
      registerCoords.push_back(bits.getRegisterCoords(r)[0]);
    Value perRegister = LLVM::ConstantOp::create(
        rewriter, loc, vectorType,
        DenseElementsAttr::get(vectorType, ArrayRef<int32_t>(registerCoords)));
    Value thread = getThreadCoords(rewriter, loc, bits)[0];
    thread = LLVM::AddOp::create(
        rewriter, loc, thread,
        createI32(rewriter, loc, static_cast<int32_t>(op.getStart())));
    Value splat =
        packVector(rewriter, loc, vectorType,
                   SmallVector<Value>(vectorType.getNumElements(), thread));
    rewriter.replaceOpWithNewOp<LLVM::AddOp>(op, splat, perRegister);
    return success();
  }
};

/// tile.splat: every register holds the scalar.
struct SplatOpLowering : ConvertOpToLLVMPattern<tile::SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto vectorType =
        cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    Value scalar = adaptor.getSrc();
    if (isa<LLVM::LLVMPointerType>(scalar.getType()))
      scalar = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                        scalar);
    rewriter.replaceOp(
        op,
        packVector(rewriter, loc, vectorType,
                   SmallVector<Value>(vectorType.getNumElements(), scalar)));
    return success();
  }
};

/// tile.broadcast: each register of the result copies the source register
/// with the same coordinates once the repeated dimensions are zeroed. Lanes
/// and warps along repeated dimensions are free in the source's layout, so
/// every thread already holds what it needs.
struct BroadcastOpLowering : ConvertOpToLLVMPattern<tile::BroadcastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType();
    if (srcType.getEncoding() != op.getType().getEncoding())
      return op.emitOpError("needs the same layout on both sides");
    LayoutBits src = getBits(srcType), dst = getBits(op.getType());
    SmallVector<int32_t> indices;
    for (int64_t r = 0; r < dst.getNumRegisters(); ++r) {
      SmallVector<int64_t> coords = dst.getRegisterCoords(r);
      for (auto [d, size] : llvm::enumerate(srcType.getShape()))
        if (size == 1)
          coords[d] = 0;
      std::optional<int64_t> from = src.getRegisterAt(coords);
      if (!from)
        return op.emitOpError("cannot broadcast between these layouts");
      indices.push_back(*from);
    }
    rewriter.replaceOpWithNewOp<LLVM::ShuffleVectorOp>(
        op, adaptor.getSrc(), adaptor.getSrc(), indices);
    return success();
  }
};

/// tile.expand_dims from the slice of a layout to the layout itself: the
/// registers stay where they are.
struct ExpandDimsOpLowering : ConvertOpToLLVMPattern<tile::ExpandDimsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tile::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto slice = dyn_cast_or_null<SliceEncodingAttr>(
        op.getSrc().getType().getEncoding());
    if (!slice || slice.getParent() != op.getType().getEncoding() ||
        slice.getDim() != op.getAxis())
      return op.emitOpError("needs a source in the slice of its result's "
                            "layout along the new dimension");
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// tile.addptr on tiles: addresses + offsets * element size; on scalars, a
/// getelementptr.
struct AddPtrOpLowering : ConvertOpToLLVMPattern<tile::AddPtrOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tile::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = cast<tile::PointerType>(getElementTypeOrSelf(op.getType()));
    Type pointee = getTypeConverter()->convertType(ptrType.getPointeeType());
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, adaptor.getPtr().getType(),
                                               pointee, adaptor.getPtr(),
                                               ValueRange{adaptor.getOffset()});
      return success();
    }
    if (cast<RankedTensorType>(op.getPtr().getType()).getEncoding() !=
        cast<RankedTensorType>(op.getOffset().getType()).getEncoding())
      return op.emitOpError("needs the same layout for pointers and offsets");
    auto vectorType = cast<VectorType>(adaptor.getPtr().getType());
    Value offsets = adaptor.getOffset();
    if (cast<VectorType>(offsets.getType()).getElementTypeBitWidth() < 64)
      offsets = LLVM::SExtOp::create(rewriter, loc, vectorType, offsets);
    int64_t bytes = ptrType.getPointeeType().getIntOrFloatBitWidth() / 8;
    Value scale = LLVM::ConstantOp::create(
        rewriter, loc, vectorType,
        DenseElementsAttr::get(vectorType, rewriter.getI64IntegerAttr(bytes)));
    Value scaled = LLVM::MulOp::create(rewriter, loc, offsets, scale);
    rewriter.replaceOpWithNewOp<LLVM::AddOp>(op, adaptor.getPtr(), scaled);
    return success();
  }
};

} // namespace

/// exp2(x) of an f32 scalar by ex2.approx.ftz.f32.
static Value createExp2(OpBuilder &b, Location loc, Value x) {
  return LLVM::CallIntrinsicOp::create(
             b, loc, b.getF32Type(),
             b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"), ValueRange{x})
      .getResult(0);
}

Value mlir::tilegpu::createExp(OpBuilder &b, Location loc, Value x) {
  Value log2e = LLVM::ConstantOp::create(b, loc, b.getF32Type(),
                                         b.getF32FloatAttr(1.4426950408889634));
  return createExp2(b, loc, LLVM::FMulOp::create(b, loc, x, log2e));
}

namespace {

/// tile.exp(x) = exp2(x * log2(e)), computed in f32 with
/// llvm.nvvm.ex2.approx.ftz: ex2.approx.ftz.f32, one MUFU.EX2. Without ftz
/// (llvm.exp2.f32), ptxas wraps each ex2 in a compare and two multiplies
/// that keep subnormal results; exp's results below 2^-126 (inputs below
/// about -87.3) are zero instead, which the interpreter's comparison
/// tolerates (docs/interpreter.md).
struct ExpOpLowering : ConvertOpToLLVMPattern<tile::ExpOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tile::ExpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    Type type = x.getType();
    Type f32Type = rewriter.getF32Type();
    if (auto vector = dyn_cast<VectorType>(type))
      f32Type = VectorType::get(vector.getShape(), rewriter.getF32Type());
    bool narrow = getElementTypeOrSelf(type) != rewriter.getF32Type();
    if (narrow)
      x = LLVM::FPExtOp::create(rewriter, loc, f32Type, x);
    Attribute log2e = rewriter.getF32FloatAttr(1.4426950408889634);
    if (auto vector = dyn_cast<VectorType>(f32Type))
      log2e = DenseElementsAttr::get(vector, log2e);
    Value scale = LLVM::ConstantOp::create(rewriter, loc, f32Type,
                                           cast<TypedAttr>(log2e));
    Value scaled = LLVM::FMulOp::create(rewriter, loc, x, scale);
    // One call per element: NVPTX selects the intrinsic on scalars only.
    SmallVector<Value> elements;
    if (isa<VectorType>(f32Type))
      elements = unpackVector(rewriter, loc, scaled);
    else
      elements.push_back(scaled);
    for (Value &element : elements)
      element = createExp2(rewriter, loc, element);
    Value result = isa<VectorType>(f32Type)
                       ? packVector(rewriter, loc, f32Type, elements)
                       : elements.front();
    if (narrow)
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// arith.constant of a tile: only splats, which are the same in every layout.
struct TileConstantOpLowering : ConvertOpToLLVMPattern<arith::ConstantOp> {
  TileConstantOpLowering(LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tensorType = dyn_cast<RankedTensorType>(op.getType());
    if (!tensorType)
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat)
      return op.emitOpError("is a tile constant that is not a splat; the GPU "
                            "lowering supports splat constants only");
    auto vectorType =
        cast<VectorType>(getTypeConverter()->convertType(tensorType));
    Attribute value = splat.getSplatValue<Attribute>();
    // A float held as an integer (an 8-bit float is an i8): its bits.
    if (auto floatValue = dyn_cast<FloatAttr>(value);
        floatValue && isa<IntegerType>(vectorType.getElementType()))
      value = IntegerAttr::get(vectorType.getElementType(),
                               floatValue.getValue().bitcastToAPInt());
    rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(
        op, vectorType, DenseElementsAttr::get(vectorType, value));
    return success();
  }
};

/// The name LLVM mangles `type` to in an overloaded intrinsic's name: f32,
/// bf16, i64, v4f32.
static std::string getIntrinsicTypeSuffix(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return "v" + std::to_string(vector.getNumElements()) +
           getIntrinsicTypeSuffix(vector.getElementType());
  if (type.isBF16())
    return "bf16";
  if (isa<FloatType>(type))
    return "f" + std::to_string(type.getIntOrFloatBitWidth());
  return "i" + std::to_string(type.getIntOrFloatBitWidth());
}

/// arith.fptosi, fptoui -> llvm.fptosi.sat, llvm.fptoui.sat: toward zero,
/// saturated to the integer type's range, NaN giving 0, as the interpreter
/// defines them (docs/interpreter.md). arith leaves out-of-range results
/// undefined, and a plain fptosi on an H100 gives INT64_MIN for NaN
/// (cvt.rzi.s64), where the interpreter gives 0: random kernels found it.
/// Preferred over arith's lowering (benefit 2).
template <typename OpTy, bool isSigned>
struct FloatToIntLowering : ConvertOpToLLVMPattern<OpTy> {
  FloatToIntLowering(LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<OpTy>(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type result = this->getTypeConverter()->convertType(op.getType());
    Value source = adaptor.getIn();
    if (!result || !LLVM::isCompatibleType(result))
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    std::string name =
        std::string(isSigned ? "llvm.fptosi.sat." : "llvm.fptoui.sat.") +
        getIntrinsicTypeSuffix(result) + "." +
        getIntrinsicTypeSuffix(source.getType());
    auto call = LLVM::CallIntrinsicOp::create(rewriter, op.getLoc(), result,
                                              rewriter.getStringAttr(name),
                                              ValueRange{source});
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

} // namespace

void mlir::tilegpu::populateTileOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 const LoweringInfo &info) {
  patterns.add<FuncOpLowering>(converter, info);
  patterns.add<ReturnOpLowering, RangeOpLowering, SplatOpLowering,
               BroadcastOpLowering, ExpandDimsOpLowering, AddPtrOpLowering,
               ExpOpLowering, TileConstantOpLowering,
               GridOpLowering<tile::ProgramIdOp, NVVM::BlockIdXOp,
                              NVVM::BlockIdYOp, NVVM::BlockIdZOp>,
               GridOpLowering<tile::NumProgramsOp, NVVM::GridDimXOp,
                              NVVM::GridDimYOp, NVVM::GridDimZOp>,
               FloatToIntLowering<arith::FPToSIOp, /*isSigned=*/true>,
               FloatToIntLowering<arith::FPToUIOp, /*isSigned=*/false>>(
      converter);
}
