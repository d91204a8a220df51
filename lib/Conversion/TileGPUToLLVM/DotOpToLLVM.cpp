//===- DotOpToLLVM.cpp - tile.dot -----------------------------------------===//
//
// Two lowerings, chosen by the result's layout (convert-tile-to-tilegpu gives
// it):
//
// - #mma: tensor cores. The accumulator is covered by 16 x 8 instruction
//   tiles; for each one a thread holds (registers [n0, m3] of #mma), and for
//   each step of K (16, or 8 for TF32), the thread gathers the elements of
//   its A and B fragments from its dot-operand registers, by coordinates
//   (LayoutBits::getRegisterAt), and issues one mma.sync: m16n8k16 for f16
//   and bf16 (pairs of halves packed into 32-bit registers), m16n8k8 for
//   f32, each input first rounded to TF32 (cvt.rna.tf32.f32), as the
//   interpreter does.
//
// - #blocked: FMAs (f32 in full precision, and tiles too small for an
//   instruction). A thread holds whole rows of A and columns of B along K for
//   the elements of the result it holds, and adds their products in order of
//   K, one fma each, widened to f32 (f32 in TF32 rounded first, as on the
//   tensor cores and in the interpreter).
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
/// The register of `bits` holding the element at the register-part
/// coordinates (`row`, `col`); the layouts of a dot's tiles always have one.
int64_t registerAt(const LayoutBits &bits, int64_t row, int64_t col) {
  std::optional<int64_t> r = bits.getRegisterAt({row, col});
  assert(r && "a dot operand lacks an element of its fragment");
  return *r;
}

struct DotOpLowering : ConvertOpToLLVMPattern<tile::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> a = unpackVector(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackVector(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpackVector(rewriter, loc, adaptor.getC());
    if (isa<MmaEncodingAttr>(op.getD().getType().getEncoding()))
      lowerToMma(op, rewriter, a, b, acc);
    else
      lowerToFma(op, rewriter, a, b, acc);
    rewriter.replaceOp(
        op, packVector(rewriter, loc, adaptor.getC().getType(), acc));
    return success();
  }

  /// The 32-bit registers of a fragment whose elements are `values`: pairs
  /// of halves packed low first (bf16 as i32, which mma.sync wants), or each
  /// f32 rounded to TF32.
  static SmallVector<Value> packFragment(OpBuilder &b, Location loc,
                                         Type element, ArrayRef<Value> values) {
    SmallVector<Value> regs;
    if (element.isF32()) {
      for (Value value : values)
        regs.push_back(NVVM::ConvertFloatToTF32Op::create(
            b, loc, b.getI32Type(), value, NVVM::FPRoundingMode::RNA));
      return regs;
    }
    auto pair = VectorType::get({2}, element);
    for (size_t i = 0; i < values.size(); i += 2) {
      Value packed = packVector(b, loc, pair, values.slice(i, 2));
      if (element.isBF16())
        packed = LLVM::BitcastOp::create(b, loc, b.getI32Type(), packed);
      regs.push_back(packed);
    }
    return regs;
  }

  void lowerToMma(tile::DotOp op, OpBuilder &b, ArrayRef<Value> a,
                  ArrayRef<Value> bValues, SmallVector<Value> &acc) const {
    Location loc = op.getLoc();
    LayoutBits aBits = getBits(op.getA().getType());
    LayoutBits bBits = getBits(op.getB().getType());
    LayoutBits dBits = getBits(op.getD().getType());
    Type element = op.getA().getType().getElementType();
    bool tf32 = element.isF32();
    int64_t k = op.getA().getType().getDimSize(1), stepK = tf32 ? 8 : 16;
    std::optional<std::array<NVVM::MMATypes, 2>> types;
    if (element.isBF16())
      types = {NVVM::MMATypes::bf16, NVVM::MMATypes::bf16};
    if (tf32)
      types = {NVVM::MMATypes::tf32, NVVM::MMATypes::tf32};
    Type f32 = b.getF32Type();
    auto resultType =
        LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});

    // K outermost: consecutive instructions accumulate into different
    // tiles, so none waits for the one before it.
    for (int64_t k0 = 0; k0 < k; k0 += stepK) {
      for (int64_t r = 0; r < dBits.getNumRegisters(); ++r) {
        SmallVector<int64_t> origin = dBits.getRegisterCoords(r);
        // One instruction tile per origin: rows m..m+15, columns n..n+7.
        if (origin[0] % 16 != 0 || origin[1] % 8 != 0)
          continue;
        int64_t m = origin[0], n = origin[1];
        std::array<int64_t, 4> c = {
            registerAt(dBits, m, n), registerAt(dBits, m, n + 1),
            registerAt(dBits, m + 8, n), registerAt(dBits, m + 8, n + 1)};
        // The fragments, element by element in the order of the PTX ISA.
        SmallVector<Value> aElems, bElems;
        if (tf32) {
          for (int e = 0; e < 4; ++e)
            aElems.push_back(
                a[registerAt(aBits, m + (e & 1) * 8, k0 + (e >> 1) * 4)]);
          for (int e = 0; e < 2; ++e)
            bElems.push_back(bValues[registerAt(bBits, k0 + e * 4, n)]);
        } else {
          for (int e = 0; e < 8; ++e)
            aElems.push_back(a[registerAt(aBits, m + ((e >> 1) & 1) * 8,
                                          k0 + (e & 1) + ((e >> 2) & 1) * 8)]);
          for (int e = 0; e < 4; ++e)
            bElems.push_back(bValues[registerAt(
                bBits, k0 + (e & 1) + ((e >> 1) & 1) * 8, n)]);
        }
        SmallVector<Value> cRegs = {acc[c[0]], acc[c[1]], acc[c[2]], acc[c[3]]};
        Value mma = NVVM::MmaOp::create(
            b, loc, resultType, packFragment(b, loc, element, aElems),
            packFragment(b, loc, element, bElems), cRegs, {16, 8, stepK},
            std::nullopt, std::nullopt, types,
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int i = 0; i < 4; ++i)
          acc[c[i]] = LLVM::ExtractValueOp::create(b, loc, mma, i);
      }
    }
  }

  void lowerToFma(tile::DotOp op, OpBuilder &b, ArrayRef<Value> a,
                  ArrayRef<Value> bValues, SmallVector<Value> &acc) const {
    Location loc = op.getLoc();
    LayoutBits aBits = getBits(op.getA().getType());
    LayoutBits bBits = getBits(op.getB().getType());
    LayoutBits dBits = getBits(op.getD().getType());
    int64_t k = op.getA().getType().getDimSize(1);
    Type f32 = b.getF32Type();
    // f32 in TF32 (the default precision) is rounded as on tensor cores.
    bool tf32 = op.getA().getType().getElementType().isF32() &&
                op.getPrecision() == tile::InputPrecision::tf32;
    auto widen = [&](Value value) -> Value {
      if (value.getType() != f32)
        return LLVM::FPExtOp::create(b, loc, f32, value);
      if (!tf32)
        return value;
      Value rounded = NVVM::ConvertFloatToTF32Op::create(
          b, loc, b.getI32Type(), value, NVVM::FPRoundingMode::RNA);
      return LLVM::BitcastOp::create(b, loc, f32, rounded);
    };
    // Each element of A and B is widened once, where it is first used.
    DenseMap<int64_t, Value> wideA, wideB;
    auto get = [&](DenseMap<int64_t, Value> &cache, ArrayRef<Value> values,
                   int64_t index) {
      Value &slot = cache[index];
      if (!slot)
        slot = widen(values[index]);
      return slot;
    };
    for (int64_t r = 0; r < dBits.getNumRegisters(); ++r) {
      SmallVector<int64_t> coords = dBits.getRegisterCoords(r);
      Value sum = acc[r];
      for (int64_t l = 0; l < k; ++l) {
        Value x = get(wideA, a, registerAt(aBits, coords[0], l));
        Value y = get(wideB, bValues, registerAt(bBits, l, coords[1]));
        sum = LLVM::FMAOp::create(b, loc, x, y, sum);
      }
      acc[r] = sum;
    }
  }
};
} // namespace

void mlir::tilegpu::populateDotOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                const LoweringInfo &info) {
  patterns.add<DotOpLowering>(converter);
}
