//===- ConvertLayoutOpToLLVM.cpp - tilegpu.convert_layout -----------------===//
//
// Three cases, cheapest first: the layouts place every element identically
// (nothing to do); they differ only in the order of a thread's registers (a
// shufflevector); otherwise the tile goes through shared memory: every thread
// writes the elements it holds at their row-major index (rows padded by 16
// bytes, getConversionScratchStrides, against bank conflicts), a barrier, every
// thread reads the elements the new layout gives it, and a second barrier
// where the scratch could otherwise be overwritten too early (see
// LoweringInfo::trailingBarrier); and one before, where the scratch lies
// over buffers other warps may still read (LoweringInfo::leadingBarrier).
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct ConvertLayoutOpLowering : ConvertOpToLLVMPattern<ConvertLayoutOp> {
  ConvertLayoutOpLowering(LLVMTypeConverter &converter,
                          const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LayoutBits src = getBits(op.getSrc().getType());
    LayoutBits dst = getBits(op.getType());
    if (src == dst) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    if (src.lane == dst.lane && src.warp == dst.warp) {
      SmallVector<int32_t> indices;
      for (int64_t r = 0; r < dst.getNumRegisters(); ++r) {
        std::optional<int64_t> from =
            src.getRegisterAt(dst.getRegisterCoords(r));
        if (!from)
          return op.emitOpError("cannot permute registers between these "
                                "layouts");
        indices.push_back(*from);
      }
      rewriter.replaceOpWithNewOp<LLVM::ShuffleVectorOp>(
          op, adaptor.getSrc(), adaptor.getSrc(), indices);
      return success();
    }

    // Through shared memory, at row-major indices of padded rows. i1
    // travels as i8.
    auto vectorType = cast<VectorType>(adaptor.getSrc().getType());
    Type elementType = vectorType.getElementType();
    Type memoryType =
        elementType.isInteger(1) ? rewriter.getI8Type() : elementType;
    int64_t bytes = memoryType.getIntOrFloatBitWidth() / 8;
    SmallVector<int64_t> strides =
        getConversionScratchStrides(op.getType().getShape(), bytes);
    auto linear = [&](ArrayRef<int64_t> coords) {
      int64_t index = 0;
      for (auto [c, s] : llvm::zip(coords, strides))
        index += c * s;
      return index;
    };
    auto threadLinear = [&](const LayoutBits &bits) {
      Value index = createI32(rewriter, loc, 0);
      for (auto [coord, stride] :
           llvm::zip(getThreadCoords(rewriter, loc, bits), strides))
        index = LLVM::AddOp::create(
            rewriter, loc, index,
            LLVM::MulOp::create(rewriter, loc, coord,
                                createI32(rewriter, loc, stride)));
      return index;
    };
    auto addressOf = [&](Value base, int64_t registerIndex) {
      Value index = LLVM::AddOp::create(
          rewriter, loc, base, createI32(rewriter, loc, registerIndex));
      index = LLVM::MulOp::create(rewriter, loc, index,
                                  createI32(rewriter, loc, bytes));
      return getSharedAddress(rewriter, loc, op, info, index);
    };

    SmallVector<Value> values = unpackVector(rewriter, loc, adaptor.getSrc());
    if (info.leadingAsyncWait.contains(op))
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
    if (info.leadingBarrier.contains(op))
      NVVM::Barrier0Op::create(rewriter, loc);
    Value srcBase = threadLinear(src);
    for (auto [r, value] : llvm::enumerate(values)) {
      Value stored = value;
      if (memoryType != elementType)
        stored = LLVM::ZExtOp::create(rewriter, loc, memoryType, value);
      LLVM::StoreOp::create(
          rewriter, loc, stored,
          addressOf(srcBase, linear(src.getRegisterCoords(r))), bytes);
    }
    NVVM::Barrier0Op::create(rewriter, loc);
    Value dstBase = threadLinear(dst);
    SmallVector<Value> results;
    for (int64_t r = 0; r < dst.getNumRegisters(); ++r) {
      Value loaded = LLVM::LoadOp::create(
          rewriter, loc, memoryType,
          addressOf(dstBase, linear(dst.getRegisterCoords(r))), bytes);
      if (memoryType != elementType)
        loaded = LLVM::TruncOp::create(rewriter, loc, elementType, loaded);
      results.push_back(loaded);
    }
    if (info.trailingBarrier.contains(op))
      NVVM::Barrier0Op::create(rewriter, loc);
    rewriter.replaceOp(
        op, packVector(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), results));
    return success();
  }

  const LoweringInfo &info;
};
} // namespace

void mlir::tilegpu::populateConvertLayoutOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<ConvertLayoutOpLowering>(converter, info);
}
