//===- Utility.cpp - Helpers of the tilegpu-to-LLVM lowering --------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

void mlir::tilegpu::createIf(RewriterBase &rewriter, Location loc,
                             Value condition, llvm::function_ref<void()> body) {
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *then = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(before);
  LLVM::CondBrOp::create(rewriter, loc, condition, then, after);
  rewriter.setInsertionPointToEnd(then);
  body();
  LLVM::BrOp::create(rewriter, loc, after);
  rewriter.setInsertionPointToStart(after);
}

Value mlir::tilegpu::createShuffleXor(OpBuilder &b, Location loc, Value value,
                                      int64_t laneMask) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  auto shfl = [&](Value v) {
    return NVVM::ShflOp::create(b, loc, i32, createI32(b, loc, -1), v,
                                createI32(b, loc, laneMask),
                                createI32(b, loc, 0x1f), NVVM::ShflKind::bfly,
                                UnitAttr())
        .getResult();
  };
  if (type.getIntOrFloatBitWidth() == 64) {
    auto pair = VectorType::get({2}, i32);
    SmallVector<Value> halves =
        unpackVector(b, loc, LLVM::BitcastOp::create(b, loc, pair, value));
    for (Value &half : halves)
      half = shfl(half);
    return LLVM::BitcastOp::create(b, loc, type,
                                   packVector(b, loc, pair, halves));
  }
  Value asInt =
      type == i32 ? value : LLVM::BitcastOp::create(b, loc, i32, value);
  Value shuffled = shfl(asInt);
  return type == i32
             ? shuffled
             : LLVM::BitcastOp::create(b, loc, type, shuffled).getResult();
}

LLVM::InlineAsmOp mlir::tilegpu::createInlinePTX(OpBuilder &b, Location loc,
                                                 Type result,
                                                 llvm::StringRef code,
                                                 llvm::StringRef constraints,
                                                 ValueRange operands) {
  return LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange(result) : TypeRange(), operands, code,
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

Value mlir::tilegpu::createI32(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(value));
}

Value mlir::tilegpu::createI64(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(value));
}

Value mlir::tilegpu::getThreadId(OpBuilder &b, Location loc) {
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
}

Value mlir::tilegpu::getLaneId(OpBuilder &b, Location loc) {
  return LLVM::AndOp::create(
      b, loc, getThreadId(b, loc),
      createI32(b, loc, TileGPUDialect::kThreadsPerWarp - 1));
}

Value mlir::tilegpu::getWarpId(OpBuilder &b, Location loc) {
  return LLVM::LShrOp::create(b, loc, getThreadId(b, loc),
                              createI32(b, loc, 5));
}

/// Adds to `coords` the coordinate bits that the set bits of `id` select,
/// one run of consecutive bits at a time.
static void addIdBits(OpBuilder &b, Location loc, Value id,
                      ArrayRef<LayoutBit> bits,
                      SmallVectorImpl<Value> &coords) {
  for (size_t i = 0; i < bits.size();) {
    if (bits[i].isFree()) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < bits.size() && bits[j].dim == bits[i].dim &&
           bits[j].bit == bits[i].bit + static_cast<int>(j - i))
      ++j;
    // Bits i..j-1 of the id are coordinate bits bits[i].bit.. of one dim.
    Value field = LLVM::LShrOp::create(b, loc, id, createI32(b, loc, i));
    field = LLVM::AndOp::create(b, loc, field,
                                createI32(b, loc, (int64_t(1) << (j - i)) - 1));
    if (bits[i].bit)
      field =
          LLVM::ShlOp::create(b, loc, field, createI32(b, loc, bits[i].bit));
    Value &coord = coords[bits[i].dim];
    coord = LLVM::OrOp::create(b, loc, coord, field);
    i = j;
  }
}

SmallVector<Value> mlir::tilegpu::getIdCoords(OpBuilder &b, Location loc,
                                              Value warpId,
                                              const LayoutBits &bits) {
  SmallVector<Value> coords(bits.shape.size(), createI32(b, loc, 0));
  addIdBits(b, loc, warpId, bits.warp, coords);
  return coords;
}

SmallVector<Value> mlir::tilegpu::getThreadCoords(OpBuilder &b, Location loc,
                                                  const LayoutBits &bits) {
  SmallVector<Value> coords(bits.shape.size(), createI32(b, loc, 0));
  addIdBits(b, loc, getLaneId(b, loc), bits.lane, coords);
  addIdBits(b, loc, getWarpId(b, loc), bits.warp, coords);
  return coords;
}

SmallVector<Value> mlir::tilegpu::unpackVector(OpBuilder &b, Location loc,
                                               Value vector) {
  auto type = cast<VectorType>(vector.getType());
  SmallVector<Value> elements;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    elements.push_back(
        LLVM::ExtractElementOp::create(b, loc, vector, createI32(b, loc, i)));
  return elements;
}

Value mlir::tilegpu::packVector(OpBuilder &b, Location loc, Type vectorType,
                                ArrayRef<Value> elements) {
  Value vector = LLVM::PoisonOp::create(b, loc, vectorType);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(b, loc, vector, element,
                                           createI32(b, loc, i));
  return vector;
}

Value mlir::tilegpu::getSharedAddress(OpBuilder &b, Location loc, Operation *op,
                                      const LoweringInfo &info,
                                      Value byteOffset) {
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  std::string name = info.sharedGlobal.lookup(func.getSymName());
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, name);
  int64_t offset = info.sharedOffset.lookup(op);
  Value total =
      LLVM::AddOp::create(b, loc, byteOffset, createI32(b, loc, offset));
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ValueRange{total});
}

LayoutBits mlir::tilegpu::getBits(Type type) {
  return *getLayoutBits(cast<RankedTensorType>(type));
}

void mlir::tilegpu::createMBarrierWait(OpBuilder &b, Location loc,
                                       Value barrier, Value parity) {
  // (The label is local to the braces: the loop may stand many times in a
  // kernel.)
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), barrier);
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange(), ValueRange{address, parity},
      "{\n"
      ".reg .pred done;\n"
      "tile_phase_wait:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
      "@!done bra tile_phase_wait;\n"
      "}",
      "l,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}
