//===- WarpgroupDotOpToLLVM.cpp - tilegpu.warpgroup_dot -------------------===//
//
// wgmma.mma_async (sm_90a): each warpgroup multiplies its 64-row slices of
// A by its columns of B, 32 bytes of K per instruction (16 elements of f16
// or bf16, 32 of f8E4M3FN or f8E5M2), reading both from shared memory
// through 64-bit matrix descriptors (PTX ISA, "Matrix Descriptor Format"):
//
//   bits  0-13  the start address, in 16-byte units
//   bits 16-29  the leading dimension byte offset (LBO), in 16-byte units
//   bits 32-45  the stride dimension byte offset (SBO), in 16-byte units
//   bits 62-63  the swizzle: 1 = 128 bytes, 2 = 64, 3 = 32
//
// For a buffer whose swizzled rows are W bytes (#tilegpu.shared, see
// Wgmma.h), SBO is the stride between groups of 8 rows, 8 * W. Contiguous
// along K (K-major) an instruction's 16 elements of K lie within a row and
// LBO is unused (1); contiguous along M or N (MN-major: transposed, which
// wgmma allows for 16-bit types), LBO is the stride between blocks of
// columns (columnsPerBlock), K * W. An instruction's start address is that
// of its first element: the buffer's base plus the element's offset in the
// layout (SharedPlacement), which for the origins of instructions (rows and
// K in multiples of 8 and 16) is the unswizzled one, as wgmma wants. The
// buffers are 1024-byte aligned, so that the swizzle, which wgmma applies to
// address bits, matches the layout's.
//
// With `accumulate`, the instructions of the first K step take it as
// scale-d (inline PTX: the NVVM op takes scale-d only as an attribute).
//
// The instructions are committed as one group, not waited for:
// tilegpu.warpgroup_wait (wgmma.wait_group, as inline PTX that ties the
// accumulator's registers) does, later, so that what the thread issues in
// between (the next stage's copies) overlaps the products.
//
// The accumulator's registers, in #mma version 3 order, are gathered into
// the instruction's struct in the order of the PTX ISA's fragment: element
// j of a thread holds row 8 * ((j >> 1) & 1) and column 8 * (j >> 2) +
// (j & 1) past its lane's and warp's own (LayoutBits::getRegisterAt).
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"
#include "SharedPlacement.h"

#include "tile/Dialect/TileGPU/IR/TileGPU.h"
#include "tile/Dialect/TileGPU/IR/Wgmma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// How one operand's descriptors are made.
struct OperandDescriptors {
  SharedPlacement placement;
  Value base;           // i32 shared address of the buffer
  Value threadOffset;   // i32 element offset of the warpgroup's part
  uint64_t fixedFields; // LBO, SBO and swizzle, in place

  unsigned byteShift; // log2 of the element's bytes

  OperandDescriptors(OpBuilder &b, Location loc, MemDescType type, Value buffer,
                     Value offset, bool kMajor)
      : placement(type), threadOffset(offset),
        byteShift(type.getElementType().getIntOrFloatBitWidth() == 8 ? 0 : 1) {
    base = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), buffer);
    int64_t swizzle = getWgmmaSwizzleBytes(type);
    uint64_t code = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
    int64_t sbo = 8 * swizzle;
    int64_t lbo = kMajor ? 16 : placement.blockSize << byteShift;
    // Unsigned: the swizzle's code takes the sign bit.
    fixedFields =
        (uint64_t(lbo >> 4) << 16) | (uint64_t(sbo >> 4) << 32) | (code << 62);
  }

  /// The descriptor of the part whose first element is at `coords` past the
  /// warpgroup's own.
  Value get(OpBuilder &b, Location loc, ArrayRef<int64_t> coords) const {
    Value offset = threadOffset;
    if (int64_t constant = placement.offset(coords))
      offset = LLVM::XOrOp::create(b, loc, offset, createI32(b, loc, constant));
    Value bytes = byteShift ? LLVM::ShlOp::create(b, loc, offset,
                                                  createI32(b, loc, byteShift))
                            : offset;
    Value address = LLVM::AddOp::create(b, loc, base, bytes);
    Value start = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, address, createI32(b, loc, 4)),
        createI32(b, loc, 0x3fff));
    Value wide = LLVM::ZExtOp::create(b, loc, b.getI64Type(), start);
    return LLVM::OrOp::create(
        b, loc, wide, createI64(b, loc, static_cast<int64_t>(fixedFields)));
  }
};

/// One wgmma.mma_async whose scale-d is `accumulate` (i1), known only at
/// run time: the NVVM op takes scale-d as an attribute, so this is inline
/// PTX of the same instruction, the accumulator's registers tied through
/// it as the op's are.
static Value
createWgmmaWithScaleD(OpBuilder &b, Location loc, Type structType,
                      ArrayRef<Value> accumulator, Value descA, Value descB,
                      Value accumulate, StringRef shape, StringRef elementType,
                      std::optional<std::pair<bool, bool>> transposed) {
  size_t count = accumulator.size();
  std::string registers, constraints;
  for (size_t i = 0; i < count; ++i) {
    registers += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=f,";
  }
  for (size_t i = 0; i < count; ++i)
    constraints += std::to_string(i) + ",";
  constraints += "l,l,r";
  std::string asmString =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(2 * count + 2) +
      ", 0;\nwgmma.mma_async.sync.aligned." + shape.str() + ".f32." +
      elementType.str() + "." + elementType.str() + " {" + registers + "}, $" +
      std::to_string(2 * count) + ", $" + std::to_string(2 * count + 1) +
      ", p, 1, 1";
  if (transposed)
    asmString += ", " + std::to_string(transposed->first) + ", " +
                 std::to_string(transposed->second);
  asmString += ";\n}";
  SmallVector<Value> operands(accumulator);
  operands.append(
      {descA, descB, LLVM::ZExtOp::create(b, loc, b.getI32Type(), accumulate)});
  return LLVM::InlineAsmOp::create(
             b, loc, structType, operands, asmString, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

struct WarpgroupDotOpLowering : ConvertOpToLLVMPattern<WarpgroupDotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WarpgroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    MemDescType aType = op.getA().getType(), bType = op.getB().getType();
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto layout = cast<MmaEncodingAttr>(dType.getEncoding());
    LayoutBits dBits = getBits(dType);
    int64_t m = dType.getDimSize(0), n = dType.getDimSize(1),
            k = aType.getShape()[1];
    unsigned wm = layout.getWarpsPerCTA()[0], wn = layout.getWarpsPerCTA()[1];
    int64_t instrN = getWgmmaInstrN(n, wn);
    int64_t share = n / wn;

    // The warpgroup's first row and column: the warp bits past the two
    // within a warpgroup, of a warp id every lane reads from lane 0
    // (shfl.sync.idx), which ptxas then knows to be the same across the
    // warp: the descriptors are computed once per warp on the uniform
    // datapath, where wgmma reads them, instead of per thread and moved
    // there before each instruction (R2UR).
    LayoutBits groupBits = dBits;
    for (LayoutBit &bit : groupBits.lane)
      bit = LayoutBit{};
    for (size_t i = 0; i < 2 && i < groupBits.warp.size(); ++i)
      groupBits.warp[i] = LayoutBit{};
    Value warp =
        NVVM::ShflOp::create(
            rewriter, loc, rewriter.getI32Type(), createI32(rewriter, loc, -1),
            getWarpId(rewriter, loc), createI32(rewriter, loc, 0),
            createI32(rewriter, loc, 0x1f), NVVM::ShflKind::idx, UnitAttr())
            .getResult();
    SmallVector<Value> group = getIdCoords(rewriter, loc, warp, groupBits);
    Value zero = createI32(rewriter, loc, 0);
    bool aKMajor =
        cast<SharedEncodingAttr>(aType.getEncoding()).getOrder()[0] == 1;
    bool bKMajor =
        cast<SharedEncodingAttr>(bType.getEncoding()).getOrder()[0] == 0;
    SharedPlacement aPlacement(aType), bPlacement(bType);
    OperandDescriptors aDesc(rewriter, loc, aType, adaptor.getA(),
                             aPlacement.offset(rewriter, loc, {group[0], zero}),
                             aKMajor);
    OperandDescriptors bDesc(rewriter, loc, bType, adaptor.getB(),
                             bPlacement.offset(rewriter, loc, {zero, group[1]}),
                             bKMajor);

    Type element = aType.getElementType();
    auto wgmmaType = element.isBF16()                 ? NVVM::WGMMATypes::bf16
                     : isa<Float8E4M3FNType>(element) ? NVVM::WGMMATypes::e4m3
                     : isa<Float8E5M2Type>(element)   ? NVVM::WGMMATypes::e5m2
                                                      : NVVM::WGMMATypes::f16;
    // The operands' layouts as wgmma's imm-trans-a and imm-trans-b, which
    // only 16-bit types take.
    std::optional<std::pair<bool, bool>> transposed;
    if (element.getIntOrFloatBitWidth() == 16)
      transposed = {!aKMajor, !bKMajor};
    int64_t instrK = getWgmmaInstrK(element);
    Type f32 = rewriter.getF32Type();
    auto structType = LLVM::LLVMStructType::getLiteral(
        context, SmallVector<Type>(instrN / 2, f32));
    SmallVector<Value> acc = unpackVector(rewriter, loc, adaptor.getC());

    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    // K outermost: consecutive instructions accumulate into different
    // tiles where there are several.
    int64_t rowsPerRepeat = 16 * wm;
    for (int64_t k0 = 0; k0 < k; k0 += instrK) {
      for (int64_t m0 = 0; m0 < m; m0 += rowsPerRepeat) {
        for (int64_t n0 = 0; n0 < share; n0 += instrN) {
          SmallVector<int64_t> regs;
          for (int64_t j = 0; j < instrN / 2; ++j) {
            int64_t row = m0 + 8 * ((j >> 1) & 1);
            int64_t col = n0 + 8 * (j >> 2) + (j & 1);
            std::optional<int64_t> r = dBits.getRegisterAt({row, col});
            if (!r)
              return rewriter.notifyMatchFailure(
                  op, "the accumulator's layout lacks an element of the "
                      "instruction's fragment");
            regs.push_back(*r);
          }
          Value descA = aDesc.get(rewriter, loc, {m0, k0});
          Value descB = bDesc.get(rewriter, loc, {k0, n0});
          Value result;
          if (k0 == 0 && adaptor.getAccumulate()) {
            SmallVector<Value> inputs;
            for (int64_t r : regs)
              inputs.push_back(acc[r]);
            std::string shape =
                "m64n" + std::to_string(instrN) + "k" + std::to_string(instrK);
            result = createWgmmaWithScaleD(
                rewriter, loc, structType, inputs, descA, descB,
                adaptor.getAccumulate(), shape,
                NVVM::stringifyWGMMATypes(wgmmaType), transposed);
            for (auto [j, r] : llvm::enumerate(regs))
              acc[r] = LLVM::ExtractValueOp::create(rewriter, loc, result, j);
            continue;
          }
          Value inout = LLVM::UndefOp::create(rewriter, loc, structType);
          for (auto [j, r] : llvm::enumerate(regs))
            inout =
                LLVM::InsertValueOp::create(rewriter, loc, inout, acc[r], j);
          result = NVVM::WgmmaMmaAsyncOp::create(
              rewriter, loc, structType, inout, descA, descB,
              NVVM::MMAShapeAttr::get(context, 64, instrN, instrK),
              NVVM::WGMMATypesAttr::get(context, wgmmaType),
              NVVM::WGMMATypesAttr::get(context, wgmmaType),
              NVVM::WGMMATypesAttr::get(context, NVVM::WGMMATypes::f32),
              NVVM::WGMMAScaleOutAttr::get(context, NVVM::WGMMAScaleOut::one),
              NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one),
              NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one),
              NVVM::MMALayoutAttr::get(context, aKMajor ? NVVM::MMALayout::row
                                                        : NVVM::MMALayout::col),
              NVVM::MMALayoutAttr::get(context, bKMajor ? NVVM::MMALayout::col
                                                        : NVVM::MMALayout::row),
              /*satfinite=*/nullptr);
          for (auto [j, r] : llvm::enumerate(regs))
            acc[r] = LLVM::ExtractValueOp::create(rewriter, loc, result, j);
        }
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    rewriter.replaceOp(
        op, packVector(rewriter, loc, adaptor.getC().getType(), acc));
    return success();
  }
};

/// wgmma.wait_group as inline PTX whose operands and results are the
/// accumulator's registers, tied: they are read only after the wait.
struct WarpgroupWaitOpLowering : ConvertOpToLLVMPattern<WarpgroupWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WarpgroupWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> values = unpackVector(rewriter, loc, adaptor.getValue());
    std::string constraints;
    for (size_t i = 0; i < values.size(); ++i)
      constraints += "=f,";
    for (size_t i = 0; i < values.size(); ++i)
      constraints += std::to_string(i) + (i + 1 < values.size() ? "," : "");
    auto structType = LLVM::LLVMStructType::getLiteral(
        getContext(), SmallVector<Type>(values.size(), rewriter.getF32Type()));
    auto wait = LLVM::InlineAsmOp::create(
        rewriter, loc, structType, values,
        "wgmma.wait_group.sync.aligned " + std::to_string(op.getPending()) +
            ";",
        constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::TailCallKind::None,
        LLVM::AsmDialectAttr::get(getContext(), LLVM::AsmDialect::AD_ATT),
        /*operand_attrs=*/ArrayAttr());
    for (size_t i = 0; i < values.size(); ++i)
      values[i] =
          LLVM::ExtractValueOp::create(rewriter, loc, wait.getResult(0), i);
    rewriter.replaceOp(
        op, packVector(rewriter, loc, adaptor.getValue().getType(), values));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateWarpgroupDotOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WarpgroupDotOpLowering, WarpgroupWaitOpLowering>(converter);
}
