//===- TileOps.cpp - Operations of the tile dialect -----------------------===//
//
// Verifiers, custom assembly, folders and canonicalization patterns of the
// operations declared in TileOps.td. Verifier messages speak the kernel
// author's terms: shapes, masks, axes and pointee types.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

/// True for the element types a tile may hold.
static bool isTileElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(type) || type.isInteger(1) ||
         type.isInteger(32) || type.isInteger(64) || isa<PointerType>(type);
}

/// Whether `op` may take or make 8-bit floats: not arithmetic (the arith
/// and math dialects' operations but the conversions tile.cast becomes,
/// constants and selects); the tile dialect's ops admit them where their
/// own constraints do, and the lower dialects carry them.
static bool mayHoldF8(Operation *op) {
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SelectOp, arith::ConstantOp>(
          op))
    return true;
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return dialect != "arith" && dialect != "math";
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (getBody().empty())
    return emitOpError("kernel '")
           << getSymName() << "' has no body; declarations are not supported";
  if (getNumResults() != 0)
    return emitOpError("kernel '")
           << getSymName() << "' returns " << getNumResults()
           << " values; kernels return nothing and write through pointers";
  // Checked here, before the regions, so that a missing tile.return is said
  // in the kernel's terms rather than as MLIR's "block with no terminator"
  // with the last operation in generic form.
  for (Block &block : getBody()) {
    if (!block.empty() && block.back().mightHaveTrait<OpTrait::IsTerminator>())
      continue;
    InFlightDiagnostic diag = emitOpError("kernel '")
                              << getSymName()
                              << "' has no terminator: end its body with "
                                 "'tile.return'";
    if (!block.empty())
      diag.attachNote(block.back().getLoc())
          << "the body ends here; add 'tile.return' after this";
    return diag;
  }
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    bool scalar = type.isF16() || type.isBF16() || type.isF32() ||
                  type.isInteger(1) || type.isInteger(32) ||
                  type.isInteger(64) || isa<PointerType>(type);
    if (!scalar)
      return emitOpError("argument ")
             << index << " has type " << type
             << "; kernel arguments are pointers, integers (i1, i32, i64) or "
                "floats (f16, bf16, f32)";
  }
  return success();
}

LogicalResult FuncOp::verifyRegions() {
  // Every tile in the kernel, whichever dialect made it, must be a ranked
  // tensor of static shape and of an element type the compiler handles.
  auto checkType = [](Operation *op, Type type) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped)
      return success();
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return op->emitOpError("uses ")
             << type << "; tiles must be ranked tensors of static shape";
    if (!isTileElementType(tensor.getElementType()))
      return op->emitOpError("uses ")
             << type
             << "; tile elements are f16, bf16, f32, f8E4M3FN, f8E5M2, i1, "
                "i32, i64 or pointers";
    return success();
  };
  auto isF8 = [](Type type) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(type));
  };
  WalkResult result = getBody().walk([&](Operation *op) {
    if (!mayHoldF8(op) && (llvm::any_of(op->getOperandTypes(), isF8) ||
                           llvm::any_of(op->getResultTypes(), isF8))) {
      op->emitOpError("computes on 8-bit floats, which are only loaded, "
                      "stored, converted (tile.cast) and multiplied "
                      "(tile.dot): cast them to f16 or f32 first");
      return WalkResult::interrupt();
    }
    // The GPU's conversions to 8-bit floats round to nearest, ties to even
    // (cvt.rn.satfinite), only.
    if (auto trunc = dyn_cast<arith::TruncFOp>(op);
        trunc && isF8(trunc.getType()) && trunc.getRoundingmodeAttr() &&
        *trunc.getRoundingmode() != arith::RoundingMode::to_nearest_even) {
      trunc.emitOpError("rounds to an 8-bit float with rounding mode '")
          << arith::stringifyRoundingMode(*trunc.getRoundingmode())
          << "'; conversions to 8-bit floats round to nearest, ties to even "
             "(tile.cast)";
      return WalkResult::interrupt();
    }
    for (Type type : op->getResultTypes())
      if (failed(checkType(op, type)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (BlockArgument arg : region.getArguments())
        if (failed(checkType(op, arg.getType())))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// RangeOp
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  // I32Attr getters return the bits unsigned; the values are signed.
  int64_t start = static_cast<int32_t>(getStart());
  int64_t end = static_cast<int32_t>(getEnd());
  if (end <= start)
    return emitOpError("range end (")
           << end << ") must be greater than its start (" << start << ")";
  int64_t length = end - start;
  if (!llvm::isPowerOf2_64(length))
    return emitOpError("range length ")
           << length << " (end - start) must be a power of two";
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a rank-1 tile, got ") << type;
  if (type.getDimSize(0) != length)
    return emitOpError("result has ")
           << type.getDimSize(0) << " elements but the range " << start
           << " to " << end << " has " << length;
  return success();
}

//===----------------------------------------------------------------------===//
// SplatOp
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  if (getType().getElementType() != getSrc().getType())
    return emitOpError("result element type ")
           << getType().getElementType() << " differs from the splatted "
           << "value's type " << getSrc().getType();
  return success();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  auto value = dyn_cast_if_present<TypedAttr>(adaptor.getSrc());
  if (!value || !isa<IntegerAttr, FloatAttr>(value))
    return {};
  return DenseElementsAttr::get(getType(), value);
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  RankedTensorType srcType = getSrc().getType(), resultType = getType();
  if (srcType.getElementType() != resultType.getElementType())
    return emitOpError("cannot change the element type (")
           << srcType.getElementType() << " to " << resultType.getElementType()
           << ")";
  if (srcType.getRank() != resultType.getRank())
    return emitOpError("cannot change the rank (")
           << srcType.getRank() << " to " << resultType.getRank()
           << "); use tile.expand_dims to add dimensions of size 1 first";
  for (int64_t dim = 0; dim < srcType.getRank(); ++dim) {
    int64_t from = srcType.getDimSize(dim), to = resultType.getDimSize(dim);
    if (from != to && from != 1)
      return emitOpError("dimension ")
             << dim << " of size " << from << " cannot be broadcast to " << to
             << "; only dimensions of size 1 are repeated";
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getSrc()))
    return splat.resizeSplat(getType());
  return {};
}

namespace {
/// broadcast(splat(x)) -> splat(x), expand_dims(splat(x)) -> splat(x): a
/// splat reshaped is a splat of the new shape.
template <typename OpTy> struct ReshapeOfSplat : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// broadcast(broadcast(x)) -> broadcast(x)
struct BroadcastOfBroadcast : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getSrcMutable().assign(inner.getSrc()); });
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ReshapeOfSplat<BroadcastOp>, BroadcastOfBroadcast>(context);
}

//===----------------------------------------------------------------------===//
// ExpandDimsOp
//===----------------------------------------------------------------------===//

LogicalResult ExpandDimsOp::verify() {
  RankedTensorType srcType = getSrc().getType(), resultType = getType();
  int64_t axis = static_cast<int32_t>(getAxis());
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for a rank-" << srcType.getRank()
           << " tile; expected 0 to " << srcType.getRank();
  SmallVector<int64_t> expected(srcType.getShape());
  expected.insert(expected.begin() + axis, 1);
  // Layouts (encodings) are the tilegpu dialect's business: compare shapes.
  auto expectedType = RankedTensorType::get(expected, srcType.getElementType());
  if (resultType.getShape() != expectedType.getShape() ||
      resultType.getElementType() != expectedType.getElementType())
    return emitOpError("result type ")
           << resultType << " does not match the expected " << expectedType;
  return success();
}

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<ReshapeOfSplat<ExpandDimsOp>>(context);
}

//===----------------------------------------------------------------------===//
// AddPtrOp
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type ptrType = getPtr().getType(), offsetType = getOffset().getType();
  auto ptrTensor = dyn_cast<RankedTensorType>(ptrType);
  auto offsetTensor = dyn_cast<RankedTensorType>(offsetType);
  if (!ptrTensor && offsetTensor)
    return emitOpError("cannot offset the scalar pointer ")
           << ptrType << " by the tile " << offsetType
           << "; splat the pointer to the offsets' shape first";
  if (ptrTensor && !offsetTensor)
    return emitOpError("cannot offset the tile of pointers ")
           << ptrType << " by the scalar " << offsetType
           << "; splat the offset to the pointers' shape first";
  if (ptrTensor && ptrTensor.getShape() != offsetTensor.getShape())
    return emitOpError("offsets ")
           << offsetType << " do not have the shape of the pointers "
           << ptrType;
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor) {
  if (matchPattern(getOffset(), m_Zero()))
    return getPtr();
  return {};
}

//===----------------------------------------------------------------------===//
// LoadOp
//===----------------------------------------------------------------------===//

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr,
                   Value mask, Value other) {
  build(builder, state, getPointeeShape(ptr.getType()), ptr, mask, other);
}

/// Parses `$ptr (, $mask (, $other)?)? attr-dict : type($ptr)`, deriving the
/// types of the other operands and of the value from the pointers' type.
/// `valueType` receives the pointee-shaped type.
static ParseResult
parseMemoryAccess(OpAsmParser &parser, OperationState &result,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                  Type &ptrType, Type &valueType) {
  OpAsmParser::UnresolvedOperand operand;
  if (parser.parseOperand(operand))
    return failure();
  operands.push_back(operand);
  while (succeeded(parser.parseOptionalComma())) {
    if (parser.parseOperand(operand))
      return failure();
    operands.push_back(operand);
  }
  llvm::SMLoc typeLoc;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.getCurrentLocation(&typeLoc) || parser.parseType(ptrType))
    return failure();
  valueType = getPointeeShape(ptrType);
  if (!valueType)
    return parser.emitError(typeLoc,
                            "expected a pointer or a tile of pointers, got ")
           << ptrType;
  return success();
}

ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 3> operands;
  Type ptrType, valueType;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parseMemoryAccess(parser, result, operands, ptrType, valueType))
    return failure();
  if (operands.size() > 3)
    return parser.emitError(loc, "expected at most 3 operands: pointers, "
                                 "mask and other value");
  Type maskType = getSameShape(ptrType, parser.getBuilder().getI1Type());
  SmallVector<Type, 3> types = {ptrType, maskType, valueType};
  types.resize(operands.size());
  if (parser.resolveOperands(operands, types, loc, result.operands))
    return failure();
  result.getOrAddProperties<Properties>().operandSegmentSizes = {
      1, operands.size() > 1 ? 1 : 0, operands.size() > 2 ? 1 : 0};
  result.addTypes(valueType);
  return success();
}

void LoadOp::print(OpAsmPrinter &p) {
  p << ' ' << getPtr();
  if (getMask())
    p << ", " << getMask();
  if (getOther())
    p << ", " << getOther();
  p.printOptionalAttrDict((*this)->getAttrs(),
                          /*elidedAttrs=*/{"operandSegmentSizes"});
  p << " : " << getPtr().getType();
}

/// Checks a mask against the pointers it guards.
static LogicalResult verifyMask(Operation *op, Value ptr, Value mask) {
  if (!mask)
    return success();
  Type expected =
      getSameShape(ptr.getType(), IntegerType::get(op->getContext(), 1));
  if (mask.getType() != expected)
    return op->emitOpError("mask must be i1 of the pointers' shape, ")
           << expected << ", got " << mask.getType();
  return success();
}

LogicalResult LoadOp::verify() {
  Type expected = getPointeeShape(getPtr().getType());
  if (getType() != expected)
    return emitOpError("result type ")
           << getType() << " does not match the pointee type of "
           << getPtr().getType() << "; expected " << expected;
  if (failed(verifyMask(*this, getPtr(), getMask())))
    return failure();
  if (getOther() && !getMask())
    return emitOpError("an 'other' value needs a mask");
  if (getOther() && getOther().getType() != expected)
    return emitOpError("'other' must have the type of the loaded value, ")
           << expected << ", got " << getOther().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// StoreOp
//===----------------------------------------------------------------------===//

/// `ptr, value[, mask] : ptr-type`, of tile.store and tile.atomic_add.
static ParseResult parseStoreLike(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 3> operands;
  Type ptrType, valueType;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parseMemoryAccess(parser, result, operands, ptrType, valueType))
    return failure();
  if (operands.size() < 2 || operands.size() > 3)
    return parser.emitError(loc, "expected 2 or 3 operands: pointers, value "
                                 "and an optional mask");
  Type maskType = getSameShape(ptrType, parser.getBuilder().getI1Type());
  SmallVector<Type, 3> types = {ptrType, valueType, maskType};
  types.resize(operands.size());
  return parser.resolveOperands(operands, types, loc, result.operands);
}

static void printStoreLike(OpAsmPrinter &p, Operation *op, Value ptr,
                           Value value, Value mask) {
  p << ' ' << ptr << ", " << value;
  if (mask)
    p << ", " << mask;
  p.printOptionalAttrDict(op->getAttrs());
  p << " : " << ptr.getType();
}

ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseStoreLike(parser, result);
}

void StoreOp::print(OpAsmPrinter &p) {
  printStoreLike(p, *this, getPtr(), getValue(), getMask());
}

LogicalResult StoreOp::verify() {
  Type expected = getPointeeShape(getPtr().getType());
  if (getValue().getType() != expected)
    return emitOpError("cannot store a value of type ")
           << getValue().getType() << " through " << getPtr().getType()
           << "; expected " << expected;
  return verifyMask(*this, getPtr(), getMask());
}

//===----------------------------------------------------------------------===//
// AtomicAddOp
//===----------------------------------------------------------------------===//

ParseResult AtomicAddOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseStoreLike(parser, result);
}

void AtomicAddOp::print(OpAsmPrinter &p) {
  printStoreLike(p, *this, getPtr(), getValue(), getMask());
}

LogicalResult AtomicAddOp::verify() {
  Type element = getElementTypeOrSelf(getPointeeShape(getPtr().getType()));
  if (!element.isF32() && !element.isInteger(32))
    return emitOpError("adds to f32 or i32 only, not through ")
           << getPtr().getType();
  Type expected = getPointeeShape(getPtr().getType());
  if (getValue().getType() != expected)
    return emitOpError("cannot add a value of type ")
           << getValue().getType() << " through " << getPtr().getType()
           << "; expected " << expected;
  return verifyMask(*this, getPtr(), getMask());
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  RankedTensorType srcType = getSrc().getType();
  int64_t axis = static_cast<int32_t>(getAxis()), rank = srcType.getRank();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " is out of range for a rank-"
                                << rank << " tile; expected 0 to " << rank - 1;
  Type expected = srcType.getElementType();
  if (rank > 1) {
    SmallVector<int64_t> shape(srcType.getShape());
    shape.erase(shape.begin() + axis);
    expected = RankedTensorType::get(shape, srcType.getElementType());
  }
  // The result's layout (encoding) may differ from the source's.
  auto resultTensor = dyn_cast<RankedTensorType>(getType());
  if (resultTensor && rank > 1)
    resultTensor = RankedTensorType::get(resultTensor.getShape(),
                                         resultTensor.getElementType());
  if ((resultTensor ? Type(resultTensor) : getType()) != expected)
    return emitOpError("result type ")
           << getType() << " does not match the expected " << expected
           << " (the source's shape without dimension " << axis << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  RankedTensorType aType = getA().getType(), bType = getB().getType(),
                   dType = getD().getType();
  for (auto [name, type] : {std::pair<StringRef, RankedTensorType>{"a", aType},
                            {"b", bType},
                            {"the result", dType}})
    if (type.getRank() != 2)
      return emitOpError() << name << " must be a rank-2 tile, got " << type;
  if (aType.getElementType() != bType.getElementType())
    return emitOpError("a and b must hold the same element type, got ")
           << aType.getElementType() << " and " << bType.getElementType()
           << "; convert one with tile.cast";
  int64_t m = aType.getDimSize(0), k = aType.getDimSize(1);
  if (bType.getDimSize(0) != k)
    return emitOpError("a is ")
           << m << " x " << k << " and b is " << bType.getDimSize(0) << " x "
           << bType.getDimSize(1) << ": b must have as many rows (" << k
           << ") as a has columns";
  if (dType.getDimSize(0) != m || dType.getDimSize(1) != bType.getDimSize(1))
    return emitOpError("the result is ")
           << dType.getDimSize(0) << " x " << dType.getDimSize(1) << "; a ("
           << m << " x " << k << ") times b (" << k << " x "
           << bType.getDimSize(1) << ") is " << m << " x "
           << bType.getDimSize(1);
  if (getInputPrecision() && !aType.getElementType().isF32())
    return emitOpError("input_precision applies to f32 inputs; ")
           << aType.getElementType() << " inputs are multiplied exactly";
  return success();
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getX().getType() == getType())
    return getX();
  return {};
}

void mlir::tile::expandCastOp(CastOp op, RewriterBase &rewriter) {
  Value value = op.getX();
  Type target = getElementTypeOrSelf(op.getType());
  auto width = [](Type type) {
    return getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  };
  rewriter.setInsertionPoint(op);
  // f16 <-> bf16: through f32, which holds both exactly.
  if (width(value.getType()) == width(target) &&
      getElementTypeOrSelf(value.getType()) != target) {
    Type f32 = getSameShape(value.getType(), rewriter.getF32Type());
    value = arith::ExtFOp::create(rewriter, op.getLoc(), f32, value);
  }
  if (width(value.getType()) < width(target)) {
    value = arith::ExtFOp::create(rewriter, op.getLoc(), op.getType(), value);
  } else if (width(value.getType()) > width(target)) {
    auto trunc =
        arith::TruncFOp::create(rewriter, op.getLoc(), op.getType(), value);
    // To an 8-bit float, the rounding mode said: arith's canonicalization
    // folds a truncf without one into the integer conversion before it
    // (truncf(uitofp(x)) -> uitofp(x) to f8, one rounding where the kernel
    // wrote two), which no chip's lowering takes.
    if (isa<Float8E4M3FNType, Float8E5M2Type>(target))
      trunc.setRoundingmodeAttr(arith::RoundingModeAttr::get(
          rewriter.getContext(), arith::RoundingMode::to_nearest_even));
    value = trunc;
  }
  rewriter.replaceOp(op, value);
}

LogicalResult CastOp::canonicalize(CastOp op, PatternRewriter &rewriter) {
  expandCastOp(op, rewriter);
  return success();
}

//===----------------------------------------------------------------------===//
// Cluster operations
//===----------------------------------------------------------------------===//

/// The cluster operations need a kernel that runs in clusters.
static LogicalResult verifyInClusteredKernel(Operation *op) {
  auto kernel = op->getParentOfType<FuncOp>();
  if (!kernel || !kernel->hasAttr(TileDialect::getClusterSizeAttrName()))
    return op->emitOpError("is only valid in a kernel with '")
           << TileDialect::getClusterSizeAttrName()
           << "' (a kernel whose programs run in clusters)";
  return success();
}

LogicalResult ClusterRankOp::verify() { return verifyInClusteredKernel(*this); }
LogicalResult ClusterIdOp::verify() { return verifyInClusteredKernel(*this); }
LogicalResult NumClustersOp::verify() { return verifyInClusteredKernel(*this); }
LogicalResult ClusterReduceOp::verify() {
  if (getValues().empty())
    return emitOpError("expects at least one value");
  return verifyInClusteredKernel(*this);
}

LogicalResult ClusterReduceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  // Each result has its value's type.
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// Grid reductions
//===----------------------------------------------------------------------===//

LogicalResult GridReduceOp::verify() {
  if (getValues().empty())
    return emitOpError("expects at least one value");
  if (getValues().size() > kMaxGridReduceValues)
    return emitOpError("reduces at most ")
           << kMaxGridReduceValues << " values at once";
  auto kernel = (*this)->getParentOfType<FuncOp>();
  if (!kernel || !TileDialect::isPersistent(kernel))
    return emitOpError("is only valid in a kernel with '")
           << TileDialect::getPersistentAttrName()
           << "' (its programs must all run at once)";
  if (TileDialect::getClusterSize(kernel) > 1)
    return emitOpError("is not supported in a kernel with '")
           << TileDialect::getClusterSizeAttrName() << "' greater than 1";
  if (getKind() != GridReduceKind::logsumexp)
    return success();
  // logsumexp merges (maximum, sum) pairs of floats.
  if (getValues().size() % 2 != 0)
    return emitOpError("'logsumexp' expects (maximum, sum) pairs, got ")
           << getValues().size() << " values";
  for (int64_t i = 0, e = getValues().size(); i < e; i += 2) {
    Type type = getValues()[i].getType();
    if (!isa<FloatType>(type))
      return emitOpError("'logsumexp' expects float values, got ") << type;
    if (getValues()[i + 1].getType() != type)
      return emitOpError("'logsumexp' expects each pair's two values of one "
                         "type, got ")
             << type << " and " << getValues()[i + 1].getType();
  }
  return success();
}

LogicalResult GridReduceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// Program ids: their ranges (CUDA's grid limits).
//===----------------------------------------------------------------------===//

/// The most programs a grid may have along `axis`.
static int64_t getMaxPrograms(ProgramAxis axis) {
  switch (axis) {
  case ProgramAxis::x:
    return std::numeric_limits<int32_t>::max();
  case ProgramAxis::y:
  case ProgramAxis::z:
    return 65535;
  }
  llvm_unreachable("unknown axis");
}

void ProgramIdOp::inferResultRanges(ArrayRef<ConstantIntRanges>,
                                    SetIntRangeFn setResultRange) {
  setResultRange(getResult(),
                 ConstantIntRanges::fromSigned(
                     APInt(32, 0), APInt(32, getMaxPrograms(getAxis()) - 1)));
}

void NumProgramsOp::inferResultRanges(ArrayRef<ConstantIntRanges>,
                                      SetIntRangeFn setResultRange) {
  setResultRange(getResult(),
                 ConstantIntRanges::fromSigned(
                     APInt(32, 1), APInt(32, getMaxPrograms(getAxis()))));
}
