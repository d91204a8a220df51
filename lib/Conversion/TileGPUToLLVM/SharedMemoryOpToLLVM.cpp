//===- SharedMemoryOpToLLVM.cpp - Tiles in shared memory ------------------===//
//
// A !tilegpu.memdesc becomes the !llvm.ptr<3> of its first byte. Where an
// element lives follows the #tilegpu.shared layout (SharedEncodingAttr): its
// offset is linear in the bits of the coordinates over XOR, so the offset of
// an element a thread holds is the offset of the thread's part of its
// coordinates (lane and warp bits, computed once) XOR the offset of the
// register's part (a constant).
//
// - tilegpu.async_copy: each thread copies the runs of elements its pointer
//   layout gives it, along the buffer's contiguous dimension, with
//   cp.async (16 bytes: .cg; 4 or 8: .ca); a masked-off run reads nothing
//   and is zero-filled (cp.async's source size 0). Runs under 4 bytes are
//   loaded and stored by the thread.
// - tilegpu.local_load into a dot-operand layout whose lanes take rows of
//   8 x 16-byte matrices as ldmatrix hands them out: ldmatrix.x4 (.trans
//   where the buffer is contiguous along the other dimension); otherwise
//   one load per run of registers contiguous in the buffer.
// - tilegpu.async_commit_group and tilegpu.async_wait: cp.async.commit_group,
//   and cp.async.wait_group followed by a block barrier.
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"
#include "SharedPlacement.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
Type sharedPointer(MLIRContext *context) {
  return LLVM::LLVMPointerType::get(context, 3);
}

/// `base` + `elements` elements of `bytes` bytes each.
Value elementAddress(OpBuilder &b, Location loc, Value base, Value elements,
                     int64_t bytes) {
  Value byteOffset =
      LLVM::MulOp::create(b, loc, elements, createI32(b, loc, bytes));
  return LLVM::GEPOp::create(b, loc, sharedPointer(b.getContext()),
                             b.getI8Type(), base, ValueRange{byteOffset});
}

/// The address of element offset `threadOffset` XOR `constant` from `base`,
/// where `threadOffset` only has bits of `threadBits`: the constant's other
/// bits are added after the XOR, which is the same, so that they become an
/// immediate of the load or store and one register serves every constant
/// that differs from another there only.
Value swizzledAddress(OpBuilder &b, Location loc, Value base,
                      Value threadOffset, int64_t threadBits, int64_t constant,
                      int64_t bytes) {
  Value offset = threadOffset;
  if (int64_t xorPart = constant & threadBits)
    offset = LLVM::XOrOp::create(b, loc, offset, createI32(b, loc, xorPart));
  Value address = elementAddress(b, loc, base, offset, bytes);
  if (int64_t addPart = constant & ~threadBits)
    address = LLVM::GEPOp::create(
        b, loc, sharedPointer(b.getContext()), b.getI8Type(), address,
        ArrayRef<LLVM::GEPArg>{int32_t(addPart * bytes)});
  return address;
}

/// The coordinates the warp id alone contributes (lanes left out).
SmallVector<Value> getWarpCoords(OpBuilder &b, Location loc,
                                 const LayoutBits &bits) {
  LayoutBits warpOnly = bits;
  for (LayoutBit &bit : warpOnly.lane)
    bit = LayoutBit{};
  return getThreadCoords(b, loc, warpOnly);
}

struct LocalAllocOpLowering : ConvertOpToLLVMPattern<LocalAllocOp> {
  LocalAllocOpLowering(LLVMTypeConverter &converter, const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    std::string name = info.sharedGlobal.lookup(func.getSymName());
    Location loc = op.getLoc();
    Value base = LLVM::AddressOfOp::create(rewriter, loc,
                                           sharedPointer(getContext()), name);
    Value offset = createI32(rewriter, loc, info.bufferOffset.lookup(op));
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, sharedPointer(getContext()),
                                             rewriter.getI8Type(), base,
                                             ValueRange{offset});
    return success();
  }

  const LoweringInfo &info;
};

struct MemDescIndexOpLowering : ConvertOpToLLVMPattern<MemDescIndexOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stage =
        elementAddress(rewriter, op.getLoc(), adaptor.getSrc(),
                       adaptor.getIndex(), op.getType().getSizeInBytes());
    rewriter.replaceOp(op, stage);
    return success();
  }
};

/// A masked cp.async of `size` bytes from `address` (i64) to `dst`: where
/// `pred` is false, the copy ignores its source and writes zeros
/// (`ignore-src`, a predicate ptxas folds into the copy, where a source size
/// of 0 or `size` would take a select per copy and its combination with
/// each mask term).
static void emitCopyUnlessIgnored(OpBuilder &b, Location loc, Value dst,
                                  Value address, Value pred, int64_t size) {
  Value shared = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), dst);
  Value ignore = LLVM::XOrOp::create(
      b, loc, pred, LLVM::ConstantOp::create(b, loc, b.getI1Type(), 1));
  std::string code = llvm::formatv(
      "cp.async.{0}.shared.global [ $0 + 0 ], [ $1 + 0 ], {1}, $2;",
      size == 16 ? "cg" : "ca", size);
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange(), ValueRange{shared, address, ignore}, code, "r,l,b",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

struct AsyncCopyOpLowering : ConvertOpToLLVMPattern<AsyncCopyOp> {
  AsyncCopyOpLowering(LLVMTypeConverter &converter, const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType dstType = op.getDst().getType();
    SharedPlacement placement(dstType);
    LayoutBits bits = getBits(op.getPtr().getType());
    Type element = dstType.getElementType();
    int64_t bytes = element.getIntOrFloatBitWidth() / 8;
    int64_t width = info.accessWidth.lookup(op);
    if (width < 1)
      width = 1;

    SmallVector<Value> ptrs = unpackVector(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackVector(rewriter, loc, adaptor.getMask());
    Value threadOffset =
        placement.offset(rewriter, loc, getThreadCoords(rewriter, loc, bits));
    auto globalPtr = LLVM::LLVMPointerType::get(getContext(), 1);
    Value trueValue =
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), 1);
    int64_t threadBits =
        placement.getOffsetBits(bits.lane) | placement.getOffsetBits(bits.warp);
    for (int64_t r = 0; r < bits.getNumRegisters(); r += width) {
      int64_t constant = placement.offset(bits.getRegisterCoords(r));
      Value dst = swizzledAddress(rewriter, loc, adaptor.getDst(), threadOffset,
                                  threadBits, constant, bytes);
      int64_t size = width * bytes;
      Value pred = masks.empty() ? Value() : masks[r];
      if (size >= 4 && pred) {
        emitCopyUnlessIgnored(rewriter, loc, dst, ptrs[r], pred, size);
        continue;
      }
      if (size >= 4) {
        Value src = LLVM::IntToPtrOp::create(rewriter, loc, globalPtr, ptrs[r]);
        auto cache = size == 16 ? NVVM::LoadCacheModifierKind::CG
                                : NVVM::LoadCacheModifierKind::CA;
        NVVM::CpAsyncOp::create(
            rewriter, loc, dst, src, rewriter.getI32IntegerAttr(size),
            NVVM::LoadCacheModifierKindAttr::get(getContext(), cache),
            /*cpSize=*/Value());
        continue;
      }
      // Too small for cp.async: a predicated load, stored at once (of the
      // element as LLVM holds it: an 8-bit float is an i8).
      Type held = getTypeConverter()->convertType(element);
      SmallVector<Value> values = emitPredicatedLoad(
          rewriter, loc, ptrs[r], pred ? pred : trueValue, {}, held, width);
      Value vector =
          packVector(rewriter, loc, VectorType::get({width}, held), values);
      LLVM::StoreOp::create(rewriter, loc, vector, dst, size);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const LoweringInfo &info;
};

struct AsyncCommitGroupOpLowering : ConvertOpToLLVMPattern<AsyncCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitOpLowering : ConvertOpToLLVMPattern<AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getPending());
    if (op.getFenceAsyncProxy())
      NVVM::FenceProxyOp::create(
          rewriter, op.getLoc(), NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(getContext(),
                                     NVVM::SharedSpace::shared_cta));
    NVVM::Barrier0Op::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierOpLowering : ConvertOpToLLVMPattern<BarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::Barrier0Op>(op);
    return success();
  }
};

struct LocalLoadOpLowering : ConvertOpToLLVMPattern<LocalLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedPlacement placement(op.getSrc().getType());
    LayoutBits bits = getBits(op.getType());
    // The element as LLVM holds it: an 8-bit float is an i8.
    Type element =
        getTypeConverter()->convertType(op.getType().getElementType());
    // The part at `offsets` is aligned to its size: its coordinates' bits
    // and the offsets' are disjoint, so its offsets are the whole tile's
    // XOR the offsets' own.
    int64_t partOffset = 0;
    if (std::optional<ArrayRef<int64_t>> offsets = op.getOffsets())
      partOffset = placement.offset(*offsets);
    SmallVector<Value> values(bits.getNumRegisters());
    if (!loadMatrices(rewriter, loc, placement, bits, element, adaptor.getSrc(),
                      partOffset, values))
      loadElements(rewriter, loc, placement, bits, element, adaptor.getSrc(),
                   partOffset, values);
    rewriter.replaceOp(
        op, packVector(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), values));
    return success();
  }

  /// One load per run of registers contiguous in the buffer.
  static void loadElements(OpBuilder &b, Location loc,
                           const SharedPlacement &placement,
                           const LayoutBits &bits, Type element, Value base,
                           int64_t partOffset, SmallVector<Value> &values) {
    int64_t bytes = element.getIntOrFloatBitWidth() / 8;
    int64_t width = 1;
    if (!bits.reg.empty() && bits.reg.front().dim == int(placement.fast))
      width =
          std::min<int64_t>({bits.getContiguousRegisters(placement.fast),
                             int64_t(placement.layout.getVec()), 16 / bytes});
    Value threadOffset =
        placement.offset(b, loc, getThreadCoords(b, loc, bits));
    int64_t threadBits =
        placement.getOffsetBits(bits.lane) | placement.getOffsetBits(bits.warp);
    for (int64_t r = 0; r < bits.getNumRegisters(); r += width) {
      int64_t constant =
          placement.offset(bits.getRegisterCoords(r)) ^ partOffset;
      Value address = swizzledAddress(b, loc, base, threadOffset, threadBits,
                                      constant, bytes);
      auto type = VectorType::get({width}, element);
      Value loaded = LLVM::LoadOp::create(b, loc, type, address, width * bytes);
      SmallVector<Value> elements = unpackVector(b, loc, loaded);
      for (int64_t i = 0; i < width; ++i)
        values[r + i] = elements[i];
    }
  }

  /// ldmatrix.x4 when the lanes of `bits` take the rows of 8 x 16-byte
  /// matrices as ldmatrix hands them out: lane bits [fast 1, fast 2,
  /// slow 0..2] and register bit 0 along fast for 16-bit elements
  /// (.trans: lanes [slow 1, slow 2, fast 0..2], register bit 0 along
  /// slow), lane bits [fast 0, fast 1, slow 0..2] for 32-bit ones. Each
  /// matrix fills one 32-bit register per lane: two 16-bit elements
  /// (registers r, r + 1) or one 32-bit element.
  static bool loadMatrices(OpBuilder &b, Location loc,
                           const SharedPlacement &placement,
                           const LayoutBits &bits, Type element, Value base,
                           int64_t partOffset, SmallVector<Value> &values) {
    int F = placement.fast, S = placement.slow;
    unsigned elementBits = element.getIntOrFloatBitWidth();
    using Bits = SmallVector<LayoutBit>;
    bool trans = false;
    int regsPerMatrix;
    if (elementBits == 16 && !bits.reg.empty() &&
        bits.lane == Bits{{F, 1}, {F, 2}, {S, 0}, {S, 1}, {S, 2}} &&
        bits.reg.front() == LayoutBit{F, 0}) {
      regsPerMatrix = 2;
    } else if (elementBits == 16 && !bits.reg.empty() &&
               bits.lane == Bits{{S, 1}, {S, 2}, {F, 0}, {F, 1}, {F, 2}} &&
               bits.reg.front() == LayoutBit{S, 0}) {
      regsPerMatrix = 2;
      trans = true;
    } else if (elementBits == 32 &&
               bits.lane == Bits{{F, 0}, {F, 1}, {S, 0}, {S, 1}, {S, 2}}) {
      regsPerMatrix = 1;
    } else {
      return false;
    }
    int64_t numMatrices = bits.getNumRegisters() / regsPerMatrix;
    if (numMatrices % 4 != 0 || placement.layout.getVec() * elementBits < 128)
      return false;
    int matrixBit = regsPerMatrix == 2 ? 1 : 0;

    // Lane l gives the address of row l % 8 of matrix (l / 8) % 4 of the
    // four: its offset is the warp's part, the row's, and the parts of the
    // two register bits that number the matrices, XORed.
    Value lane = getLaneId(b, loc);
    auto i32 = [&](int64_t v) { return createI32(b, loc, v); };
    SmallVector<Value> coords = getWarpCoords(b, loc, bits);
    coords[S] = LLVM::OrOp::create(b, loc, coords[S],
                                   LLVM::AndOp::create(b, loc, lane, i32(7)));
    Value laneOffset = placement.offset(b, loc, coords);
    int64_t laneBits = placement.getOffsetBits(bits.warp) |
                       placement.getOffsetBits({{S, 0}, {S, 1}, {S, 2}});
    for (int k = 0; k < 2; ++k) {
      int64_t bitOffset = placement.offset(
          bits.getRegisterCoords(int64_t(1) << (matrixBit + k)));
      laneBits |= bitOffset;
      Value selected = LLVM::AndOp::create(
          b, loc, LLVM::LShrOp::create(b, loc, lane, i32(3 + k)), i32(1));
      laneOffset = LLVM::XOrOp::create(
          b, loc, laneOffset,
          LLVM::MulOp::create(b, loc, selected, i32(bitOffset)));
    }

    auto i32Type = b.getI32Type();
    Type result = LLVM::LLVMStructType::getLiteral(
        b.getContext(), {i32Type, i32Type, i32Type, i32Type});
    auto layout = NVVM::MMALayoutAttr::get(
        b.getContext(), trans ? NVVM::MMALayout::col : NVVM::MMALayout::row);
    auto shape = NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8);
    auto eltType = NVVM::LdStMatrixEltTypeAttr::get(
        b.getContext(), NVVM::LdStMatrixEltType::B16);
    int64_t groupRegs = 4 * regsPerMatrix;
    for (int64_t first = 0; first < bits.getNumRegisters();
         first += groupRegs) {
      // The four matrices of registers first + {0, 1, 2, 3} << matrixBit.
      if (first & ((int64_t(1) << (matrixBit + 2)) - 1))
        continue;
      int64_t constant =
          placement.offset(bits.getRegisterCoords(first)) ^ partOffset;
      Value address = swizzledAddress(b, loc, base, laneOffset, laneBits,
                                      constant, elementBits / 8);
      Value loaded = NVVM::LdMatrixOp::create(b, loc, result, address,
                                              b.getI32IntegerAttr(4), layout,
                                              shape, eltType);
      for (int64_t j = 0; j < 4; ++j) {
        Value word = LLVM::ExtractValueOp::create(b, loc, loaded, j);
        int64_t reg = first + (j << matrixBit);
        if (regsPerMatrix == 1) {
          values[reg] = LLVM::BitcastOp::create(b, loc, element, word);
          continue;
        }
        Value pair = LLVM::BitcastOp::create(
            b, loc, VectorType::get({2}, element), word);
        SmallVector<Value> halves = unpackVector(b, loc, pair);
        values[reg] = halves[0];
        values[reg + 1] = halves[1];
      }
    }
    return true;
  }
};
} // namespace

void mlir::tilegpu::populateSharedMemoryOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<LocalAllocOpLowering, AsyncCopyOpLowering>(converter, info);
  patterns.add<MemDescIndexOpLowering, AsyncCommitGroupOpLowering,
               AsyncWaitOpLowering, BarrierOpLowering, LocalLoadOpLowering>(
      converter);
}
