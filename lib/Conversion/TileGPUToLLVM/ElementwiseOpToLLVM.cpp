//===- ElementwiseOpToLLVM.cpp - Elementwise operations on masks ----------===//
//
// A tile becomes a vector of the elements each thread holds, and the
// elementwise arith operations become the same operations on those vectors
// (arith-to-llvm) - except on tiles of i1. NVPTX has no vectors of
// predicates: it packs a vector of i1 into the bits of 16-bit integers and
// unpacks it for each use, and LLVM's instcombine turns the extraction of
// one mask bit into shifts of such a packed integer. A copy that needs the
// mask of one element in eight then computes, packs and unpacks all
// eight (the K loop of a matmul spent more instructions on this than on
// its mma.sync).
//
// So an arith operation with a tile of i1 as an operand or result (the
// comparisons, and/or/xor of masks, select, extensions and truncations) is
// applied element by element: its operands are unpacked, the operation is
// created on scalars (which arith-to-llvm then converts) and the results
// packed again. LLVM folds the unpacking of a packed vector, and drops
// the elements nothing uses.
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
bool isMaskTile(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getEncoding() && tensor.getElementType().isInteger(1);
}

struct MaskOpLowering : ConversionPattern {
  MaskOpLowering(LLVMTypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect>(op->getDialect()) ||
        !op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        op->getNumRegions() != 0)
      return failure();
    if (!llvm::any_of(op->getOperandTypes(), isMaskTile) &&
        !isMaskTile(op->getResult(0).getType()))
      return failure();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type converted = getTypeConverter()->convertType(resultType);
    if (!converted)
      return failure();
    // Every operand is a tile of the result's shape (arith's elementwise
    // operations take no scalars beside tiles).
    for (Value operand : operands)
      if (!isa<VectorType>(operand.getType()))
        return failure();

    Location loc = op->getLoc();
    SmallVector<SmallVector<Value>> elements;
    for (Value operand : operands)
      elements.push_back(unpackVector(rewriter, loc, operand));
    Type scalarType = resultType.getElementType();
    SmallVector<Value> results;
    int64_t count = cast<VectorType>(converted).getNumElements();
    for (int64_t i = 0; i < count; ++i) {
      OperationState state(loc, op->getName());
      for (const SmallVector<Value> &operand : elements)
        state.addOperands(operand[i]);
      state.addTypes(scalarType);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packVector(rewriter, loc, converted, results));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateElementwiseOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MaskOpLowering>(converter, patterns.getContext());
}
