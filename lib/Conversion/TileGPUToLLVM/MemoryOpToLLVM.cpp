//===- MemoryOpToLLVM.cpp - tile.load and tile.store ----------------------===//
//
// Each thread accesses its registers in groups of `width` consecutive
// elements (the access width the axis analysis proved): one 128-bit access
// moves 4 x f32 or 8 x f16. Unmasked groups are plain LLVM loads and stores
// of a vector; masked groups are one predicated PTX instruction, written as
// inline assembly so that a false predicate touches no memory:
//
//   mov.b32 $0, $6; ...            // the `other` values
//   @$4 ld.global.v4.b32 {$0, $1, $2, $3}, [ $5 + 0 ];
//
// A mask is uniform over each group (the analysis checked its constancy).
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// How a group of elements travels as PTX registers. A lone byte (an 8-bit
/// float) is moved in a 16-bit register, PTX's narrowest, and loaded or
/// stored as .b8 from or to it.
struct WordLayout {
  unsigned wordBits;
  unsigned numWords;

  WordLayout(unsigned elementBits, int64_t width) {
    unsigned total = elementBits * width;
    wordBits = elementBits == 64 ? 64 : std::min(32u, total);
    numWords = total / wordBits;
  }
  /// The bits of the register a word is held in.
  unsigned registerBits() const { return std::max(16u, wordBits); }
  char constraint() const {
    return wordBits == 64 ? 'l' : wordBits == 32 ? 'r' : 'h';
  }
  std::string vectorSuffix() const {
    return numWords == 1 ? "" : ".v" + std::to_string(numWords);
  }
  std::string typeSuffix() const { return ".b" + std::to_string(wordBits); }
  std::string registerSuffix() const {
    return ".b" + std::to_string(registerBits());
  }
};
} // namespace

/// The `width` elements as words (bitcasts only).
static SmallVector<Value> toWords(OpBuilder &b, Location loc,
                                  ArrayRef<Value> elements,
                                  const WordLayout &words) {
  Type elementType = elements.front().getType();
  auto groupType =
      VectorType::get({static_cast<int64_t>(elements.size())}, elementType);
  auto wordType =
      VectorType::get({words.numWords}, b.getIntegerType(words.wordBits));
  Value group = packVector(b, loc, groupType, elements);
  Value asWords = LLVM::BitcastOp::create(b, loc, wordType, group);
  return unpackVector(b, loc, asWords);
}

/// The words back as `width` elements.
static SmallVector<Value> fromWords(OpBuilder &b, Location loc,
                                    ArrayRef<Value> wordValues,
                                    Type elementType, int64_t width) {
  auto wordType = VectorType::get({static_cast<int64_t>(wordValues.size())},
                                  wordValues.front().getType());
  Value asWords = packVector(b, loc, wordType, wordValues);
  Value group = LLVM::BitcastOp::create(
      b, loc, VectorType::get({width}, elementType), asWords);
  return unpackVector(b, loc, group);
}

SmallVector<Value> mlir::tilegpu::emitPredicatedLoad(OpBuilder &b, Location loc,
                                                     Value address, Value pred,
                                                     ArrayRef<Value> other,
                                                     Type elementType,
                                                     int64_t width) {
  WordLayout words(elementType.getIntOrFloatBitWidth(), width);
  Type wordType = b.getIntegerType(words.registerBits());
  SmallVector<Value> otherWords;
  if (!other.empty())
    otherWords = toWords(b, loc, other, words);
  else
    for (unsigned i = 0; i < words.numWords; ++i)
      otherWords.push_back(LLVM::ConstantOp::create(
          b, loc, wordType, b.getIntegerAttr(wordType, 0)));
  for (Value &word : otherWords)
    if (word.getType() != wordType)
      word = LLVM::ZExtOp::create(b, loc, wordType, word);

  unsigned n = words.numWords;
  std::string code, constraints;
  SmallVector<std::string> outputs;
  for (unsigned i = 0; i < n; ++i) {
    code += llvm::formatv("mov{0} ${1}, ${2};\n\t", words.registerSuffix(), i,
                          n + 2 + i);
    outputs.push_back("$" + std::to_string(i));
    constraints += std::string("=") + words.constraint() + ",";
  }
  std::string list = llvm::join(outputs, ", ");
  if (n > 1)
    list = "{" + list + "}";
  code += llvm::formatv("@${0} ld.global{1}{2} {3}, [ ${4} + 0 ];", n,
                        words.vectorSuffix(), words.typeSuffix(), list, n + 1);
  constraints += "b,l";
  for (unsigned i = 0; i < n; ++i)
    constraints += std::string(",") + words.constraint();

  Type resultType = wordType;
  if (n > 1)
    resultType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(n, wordType));
  SmallVector<Value> operands = {pred, address};
  operands.append(otherWords.begin(), otherWords.end());
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, code, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  SmallVector<Value> loaded;
  if (n == 1)
    loaded.push_back(asmOp.getResult(0));
  else
    for (unsigned i = 0; i < n; ++i)
      loaded.push_back(
          LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  if (words.registerBits() != words.wordBits)
    for (Value &word : loaded)
      word =
          LLVM::TruncOp::create(b, loc, b.getIntegerType(words.wordBits), word);
  return fromWords(b, loc, loaded, elementType, width);
}

/// A predicated store of `width` elements at `address` (i64).
static void emitPredicatedStore(OpBuilder &b, Location loc, Value address,
                                Value pred, ArrayRef<Value> values) {
  WordLayout words(values.front().getType().getIntOrFloatBitWidth(),
                   values.size());
  SmallVector<Value> wordValues = toWords(b, loc, values, words);
  if (words.registerBits() != words.wordBits)
    for (Value &word : wordValues)
      word = LLVM::ZExtOp::create(b, loc,
                                  b.getIntegerType(words.registerBits()), word);
  unsigned n = words.numWords;
  SmallVector<std::string> inputs;
  std::string constraints = "b,l";
  for (unsigned i = 0; i < n; ++i) {
    inputs.push_back("$" + std::to_string(i + 2));
    constraints += std::string(",") + words.constraint();
  }
  std::string list = llvm::join(inputs, ", ");
  if (n > 1)
    list = "{" + list + "}";
  std::string code =
      llvm::formatv("@$0 st.global{0}{1} [ $1 + 0 ], {2};",
                    words.vectorSuffix(), words.typeSuffix(), list);
  SmallVector<Value> operands = {pred, address};
  operands.append(wordValues.begin(), wordValues.end());
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange(), operands, code, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

static Value toGlobalPointer(OpBuilder &b, Location loc, Value address) {
  if (isa<LLVM::LLVMPointerType>(address.getType()))
    return address;
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), address);
}

static Value toAddress(OpBuilder &b, Location loc, Value pointer) {
  if (!isa<LLVM::LLVMPointerType>(pointer.getType()))
    return pointer;
  return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), pointer);
}

/// A plain load of `width` elements.
static SmallVector<Value> emitLoad(OpBuilder &b, Location loc, Value address,
                                   Type elementType, int64_t width) {
  Value ptr = toGlobalPointer(b, loc, address);
  unsigned bytes = elementType.getIntOrFloatBitWidth() / 8;
  if (width == 1)
    return {LLVM::LoadOp::create(b, loc, elementType, ptr, bytes)};
  Value group = LLVM::LoadOp::create(
      b, loc, VectorType::get({width}, elementType), ptr, bytes * width);
  return unpackVector(b, loc, group);
}

static void emitStore(OpBuilder &b, Location loc, Value address,
                      ArrayRef<Value> values) {
  Value ptr = toGlobalPointer(b, loc, address);
  Type elementType = values.front().getType();
  unsigned bytes = elementType.getIntOrFloatBitWidth() / 8;
  if (values.size() == 1) {
    LLVM::StoreOp::create(b, loc, values.front(), ptr, bytes);
    return;
  }
  auto groupType =
      VectorType::get({static_cast<int64_t>(values.size())}, elementType);
  LLVM::StoreOp::create(b, loc, packVector(b, loc, groupType, values), ptr,
                        bytes * values.size());
}

/// Where the pointers of `op` run consecutively along a whole dimension
/// (LoweringInfo::contiguousDim), each access's address as that of the
/// thread's first access in the same run plus a constant, rather than an
/// address of its own: LLVM then folds the constant into the instruction
/// ([%rd+2048]) instead of holding every address in a register of its own
/// across a loop (48 registers of a softmax row of 16384 halves on 128
/// threads, whose column offsets the loop over rows does not change).
static void rebaseAddresses(OpBuilder &b, Location loc, Operation *op,
                            const LoweringInfo &info, Type ptrTileType,
                            int64_t bytes, int64_t width,
                            SmallVectorImpl<Value> &addresses) {
  auto found = info.contiguousDim.find(op);
  if (found == info.contiguousDim.end())
    return;
  int64_t dim = found->second;
  LayoutBits bits = getBits(ptrTileType);
  // The first access of each run: its register and coordinates.
  SmallVector<std::pair<int64_t, SmallVector<int64_t>>> firsts;
  for (int64_t g = 0; g < int64_t(addresses.size()); g += width) {
    SmallVector<int64_t> coords = bits.getRegisterCoords(g);
    auto run = llvm::find_if(firsts, [&](const auto &first) {
      for (auto [d, c] : llvm::enumerate(coords))
        if (int64_t(d) != dim && c != first.second[d])
          return false;
      return true;
    });
    if (run == firsts.end()) {
      firsts.push_back({g, coords});
      continue;
    }
    Value delta = LLVM::ConstantOp::create(
        b, loc, b.getI64Type(),
        b.getI64IntegerAttr((coords[dim] - run->second[dim]) * bytes));
    addresses[g] = LLVM::AddOp::create(
        b, loc, toAddress(b, loc, addresses[run->first]), delta);
  }
}

namespace {
struct LoadOpLowering : ConvertOpToLLVMPattern<tile::LoadOp> {
  LoadOpLowering(LLVMTypeConverter &converter, const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!isa<RankedTensorType>(op.getType())) {
      SmallVector<Value> other;
      if (adaptor.getOther())
        other.push_back(adaptor.getOther());
      Value result =
          adaptor.getMask()
              ? emitPredicatedLoad(rewriter, loc,
                                   toAddress(rewriter, loc, adaptor.getPtr()),
                                   adaptor.getMask(), other, elementType, 1)[0]
              : emitLoad(rewriter, loc, adaptor.getPtr(), elementType, 1)[0];
      rewriter.replaceOp(op, result);
      return success();
    }
    int64_t width = info.accessWidth.lookup(op);
    if (width < 1)
      width = 1;
    SmallVector<Value> addresses =
        unpackVector(rewriter, loc, adaptor.getPtr());
    rebaseAddresses(rewriter, loc, op, info, op.getPtr().getType(),
                    elementType.getIntOrFloatBitWidth() / 8, width, addresses);
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackVector(rewriter, loc, adaptor.getMask());
    if (adaptor.getOther())
      others = unpackVector(rewriter, loc, adaptor.getOther());
    SmallVector<Value> results;
    for (size_t g = 0; g < addresses.size(); g += width) {
      SmallVector<Value> group;
      if (masks.empty()) {
        group = emitLoad(rewriter, loc, addresses[g], elementType, width);
      } else {
        ArrayRef<Value> other = others.empty()
                                    ? ArrayRef<Value>()
                                    : ArrayRef<Value>(others).slice(g, width);
        group = emitPredicatedLoad(rewriter, loc, addresses[g], masks[g], other,
                                   elementType, width);
      }
      results.append(group.begin(), group.end());
    }
    rewriter.replaceOp(
        op, packVector(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), results));
    return success();
  }

  const LoweringInfo &info;
};

/// Of the threads that hold copies of the same elements of a tile of
/// pointers of type `type` (a scalar: every thread), true in one: the thread
/// whose lane and warp ids are zero in the bits the layout does not map to
/// coordinates. Null where every thread holds elements of its own.
static Value getOwnerPredicate(OpBuilder &b, Location loc, Type type) {
  auto ptrType = dyn_cast<RankedTensorType>(type);
  if (!ptrType)
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                getThreadId(b, loc), createI32(b, loc, 0));
  LayoutBits bits = getBits(ptrType);
  unsigned freeLanes = bits.getFreeLaneMask(),
           freeWarps = bits.getFreeWarpMask();
  auto isZeroUnder = [&](Value id, unsigned mask) {
    Value masked = LLVM::AndOp::create(b, loc, id, createI32(b, loc, mask));
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, masked,
                                createI32(b, loc, 0));
  };
  Value owner;
  if (freeLanes)
    owner = isZeroUnder(getLaneId(b, loc), freeLanes);
  if (freeWarps) {
    Value warpOwner = isZeroUnder(getWarpId(b, loc), freeWarps);
    owner = owner ? LLVM::AndOp::create(b, loc, owner, warpOwner) : warpOwner;
  }
  return owner;
}

/// `red.relaxed.gpu.global.add` of `value` (f32 or i32) at `address`, where
/// `pred` holds.
static void emitPredicatedAtomicAdd(OpBuilder &b, Location loc, Value address,
                                    Value pred, Value value) {
  bool isFloat = value.getType().isF32();
  std::string code =
      llvm::formatv("@$0 red.relaxed.gpu.global.add.{0} [ $1 + 0 ], $2;",
                    isFloat ? "f32" : "u32");
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange(), ValueRange{pred, address, value}, code,
      isFloat ? "b,l,f" : "b,l,r",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

struct StoreOpLowering : ConvertOpToLLVMPattern<tile::StoreOp> {
  StoreOpLowering(LLVMTypeConverter &converter, const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = dyn_cast<RankedTensorType>(op.getPtr().getType());
    // Threads that hold copies of the same elements store them once.
    Value owner = getOwnerPredicate(rewriter, loc, op.getPtr().getType());

    if (!ptrType) {
      Value pred = owner;
      if (adaptor.getMask())
        pred = LLVM::AndOp::create(rewriter, loc, pred, adaptor.getMask());
      emitPredicatedStore(rewriter, loc,
                          toAddress(rewriter, loc, adaptor.getPtr()), pred,
                          {adaptor.getValue()});
      rewriter.eraseOp(op);
      return success();
    }

    int64_t width = std::max<int64_t>(1, info.accessWidth.lookup(op));
    SmallVector<Value> addresses =
        unpackVector(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = unpackVector(rewriter, loc, adaptor.getValue());
    rebaseAddresses(rewriter, loc, op, info, ptrType,
                    values.front().getType().getIntOrFloatBitWidth() / 8, width,
                    addresses);
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackVector(rewriter, loc, adaptor.getMask());
    for (size_t g = 0; g < addresses.size(); g += width) {
      ArrayRef<Value> group = ArrayRef<Value>(values).slice(g, width);
      Value pred = owner;
      if (!masks.empty())
        pred = pred ? LLVM::AndOp::create(rewriter, loc, pred, masks[g])
                    : masks[g];
      if (pred)
        emitPredicatedStore(rewriter, loc, addresses[g], pred, group);
      else
        emitStore(rewriter, loc, addresses[g], group);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const LoweringInfo &info;
};

/// tile.atomic_add: one `red` per element, by the thread that owns it (as a
/// store's), under the mask.
struct AtomicAddOpLowering : ConvertOpToLLVMPattern<tile::AtomicAddOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::AtomicAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value owner = getOwnerPredicate(rewriter, loc, op.getPtr().getType());
    SmallVector<Value> addresses, values, masks;
    if (isa<RankedTensorType>(op.getPtr().getType())) {
      addresses = unpackVector(rewriter, loc, adaptor.getPtr());
      values = unpackVector(rewriter, loc, adaptor.getValue());
      if (adaptor.getMask())
        masks = unpackVector(rewriter, loc, adaptor.getMask());
    } else {
      addresses = {toAddress(rewriter, loc, adaptor.getPtr())};
      values = {adaptor.getValue()};
      if (adaptor.getMask())
        masks = {adaptor.getMask()};
    }
    for (size_t i = 0, e = addresses.size(); i < e; ++i) {
      Value pred = owner;
      if (!masks.empty())
        pred = pred ? LLVM::AndOp::create(rewriter, loc, pred, masks[i])
                    : masks[i];
      if (!pred)
        pred = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                        rewriter.getBoolAttr(true));
      emitPredicatedAtomicAdd(rewriter, loc,
                              toAddress(rewriter, loc, addresses[i]), pred,
                              values[i]);
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateMemoryOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                   RewritePatternSet &patterns,
                                                   const LoweringInfo &info) {
  patterns.add<LoadOpLowering, StoreOpLowering>(converter, info);
  patterns.add<AtomicAddOpLowering>(converter);
}
