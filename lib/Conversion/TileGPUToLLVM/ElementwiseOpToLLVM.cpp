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
// Where the axis analysis finds the result constant over aligned runs of a
// thread's consecutive registers (LoweringInfo::constantRun: a row's
// bounds checked per group of 8 columns that start at a multiple of 8),
// only each run's first element is computed and the others take its value.
// Each element's comparison would otherwise stay: LLVM cannot see that
// `8 * g + l < n` is the same for l = 0..7 when n is a multiple of 8.
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

static bool isMaskTile(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getEncoding() && tensor.getElementType().isInteger(1);
}

bool mlir::tilegpu::isLoweredPerElement(Operation *op) {
  if (!isa<arith::ArithDialect>(op->getDialect()) ||
      !op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
      op->getNumRegions() != 0)
    return false;
  return llvm::any_of(op->getOperandTypes(), isMaskTile) ||
         isMaskTile(op->getResult(0).getType());
}

namespace {
struct MaskOpLowering : ConversionPattern {
  MaskOpLowering(LLVMTypeConverter &converter, MLIRContext *context,
                 const LoweringInfo &info)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context),
        info(info) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isLoweredPerElement(op))
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
    // The scalar as LLVM holds it (an 8-bit float is an i8; a select of
    // them is one of bytes).
    Type scalarType =
        getTypeConverter()->convertType(resultType.getElementType());
    SmallVector<Value> results;
    int64_t count = cast<VectorType>(converted).getNumElements();
    int64_t run = info.constantRun.lookup(op);
    for (int64_t i = 0; i < count; ++i) {
      if (run > 1 && i % run != 0) {
        results.push_back(results[i - i % run]);
        continue;
      }
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

private:
  const LoweringInfo &info;
};
} // namespace

void mlir::tilegpu::populateElementwiseOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<MaskOpLowering>(converter, patterns.getContext(), info);
}
