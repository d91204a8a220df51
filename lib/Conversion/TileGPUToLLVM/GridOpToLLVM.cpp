//===- GridOpToLLVM.cpp - Reductions across the grid ----------------------===//
//
// tile.grid_reduce combines scalars over every program of the launch, which
// the runtime makes resident all at once (a cooperative launch of one wave,
// KernelRunner.cpp and Cuda.cpp), through the kernel's workspace in global
// memory (KernelABI.h: an arrival count, a generation, and two buffers of
// slots, one per program and value). A reduction is a sense-reversing grid
// barrier that carries values:
//
//  1. a block barrier, so that no thread of the block still reads the
//     slots of the reduction before last (which this one's buffer reuses);
//  2. thread 0 reads the generation g (it cannot change before this block
//     arrives), stores the block's values into its slots of buffer g % 2,
//     and counts itself in (atom.add.acq_rel.gpu: its stores are released
//     with it). The last to arrive resets the count and publishes
//     generation g + 1 (st.release.gpu); the others spin on the generation
//     (ld.acquire.gpu) until it changes;
//  3. a block barrier, after which the generation is g + 1 for every
//     thread (it cannot move on before this block arrives again), so each
//     thread finds the buffer, (g + 1 - 1) % 2;
//  4. each warp combines all the slots: lane l takes programs l, l + 32,
//     ..., eight at a time (their loads issued together), then the lanes
//     combine by butterfly shuffles. Every lane of every
//     warp of every program performs the same operations on the same
//     values, so all get the same results, bit for bit.
//
// Two buffers suffice: a program writes buffer g % 2 again for reduction
// g + 2 only after reduction g + 1 completed, which needs every other
// program to have arrived at g + 1, after step 1 of its g + 1, so after all
// its threads read the slots of g. The count is 0 again when every program
// has passed a reduction, so a launch that completes leaves the workspace
// ready for the next one.
//
// The slots and the generation are read with ld.relaxed.gpu and stored
// with st.relaxed.gpu, which the L1 cache does not serve: slots are reused
// every second reduction, and a stale line must never be read.
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Conversion/KernelABI.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// The programs each lane reads per round of its combining loop.
constexpr int64_t kGridReduceUnroll = 8;

/// The value a reduction of `kind` starts from, of type `type`.
static Value createIdentity(OpBuilder &b, Location loc, tile::ReduceKind kind,
                            Type type) {
  return tile::visitReduceKind(kind, [&](auto tag) -> Value {
    using Tag = decltype(tag);
    if constexpr (std::is_same_v<Tag, tile::SumReduction>) {
      // -0.0 for floats, so that a sum of -0.0 stays -0.0, as the
      // interpreter's does.
      if (auto floatType = dyn_cast<FloatType>(type))
        return LLVM::ConstantOp::create(
            b, loc, type,
            b.getFloatAttr(type, APFloat::getZero(floatType.getFloatSemantics(),
                                                  /*Negative=*/true)));
      return LLVM::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
    } else {
      if (auto floatType = dyn_cast<FloatType>(type))
        return LLVM::ConstantOp::create(
            b, loc, type,
            b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                                 /*Negative=*/true)));
      unsigned width = type.getIntOrFloatBitWidth();
      return LLVM::ConstantOp::create(
          b, loc, type,
          b.getIntegerAttr(type, APInt::getSignedMinValue(width)));
    }
  });
}

struct GridReduceOpLowering : ConvertOpToLLVMPattern<tile::GridReduceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::GridReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!func)
      return rewriter.notifyMatchFailure(op, "kernel not converted first");
    std::string name = (func.getSymName() + tile::kGridReduceSuffix).str();
    auto workspaceGlobal =
        dyn_cast_or_null<LLVM::GlobalOp>(SymbolTable::lookupNearestSymbolFrom(
            func, StringAttr::get(op.getContext(), name)));
    auto workspaceType =
        workspaceGlobal
            ? dyn_cast<LLVM::LLVMArrayType>(workspaceGlobal.getGlobalType())
            : LLVM::LLVMArrayType();
    if (!workspaceType)
      return rewriter.notifyMatchFailure(op, "no workspace for the kernel");
    // A buffer holds the slots of the kernel's widest reduction, whichever
    // reduction this is: every reduction of the kernel takes its buffers at
    // the same offsets, so that the two-buffer argument above holds across
    // reductions of different widths.
    int64_t bufferValues = getGridReduceWorkspaceValues(
        static_cast<int64_t>(workspaceType.getNumElements()));
    MLIRContext *context = op.getContext();
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    auto i32Const = [&](int64_t v) { return createI32(rewriter, loc, v); };
    auto globalPtr = LLVM::LLVMPointerType::get(context, /*addressSpace=*/1);
    Value workspace = LLVM::AddressOfOp::create(rewriter, loc, globalPtr, name);
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, i64, workspace);

    // Each value as it travels (f32 for f16 and bf16), and as a word.
    SmallVector<Value> values, words;
    for (Value value : adaptor.getValues()) {
      Type accType = getAccumulatorType(value.getType());
      if (accType != value.getType())
        value = LLVM::FPExtOp::create(rewriter, loc, accType, value);
      values.push_back(value);
      Type word = rewriter.getIntegerType(accType.getIntOrFloatBitWidth());
      words.push_back(isa<IntegerType>(accType)
                          ? value
                          : LLVM::BitcastOp::create(rewriter, loc, word, value)
                                .getResult());
    }
    int64_t numValues = values.size();
    const int64_t maxPrograms = tile::kMaxGridReducePrograms;

    // The program's place in the grid, and the grid's size. More programs
    // than the workspace has slots for stop the kernel (the runtime refuses
    // such a launch before it).
    Value nx = NVVM::GridDimXOp::create(rewriter, loc, i32);
    Value ny = NVVM::GridDimYOp::create(rewriter, loc, i32);
    Value nz = NVVM::GridDimZOp::create(rewriter, loc, i32);
    Value nxy = LLVM::MulOp::create(rewriter, loc, nx, ny);
    Value programs = LLVM::MulOp::create(rewriter, loc, nxy, nz);
    Value bx = NVVM::BlockIdXOp::create(rewriter, loc, i32);
    Value by = NVVM::BlockIdYOp::create(rewriter, loc, i32);
    Value bz = NVVM::BlockIdZOp::create(rewriter, loc, i32);
    Value zPart = LLVM::MulOp::create(rewriter, loc, bz, ny);
    Value yz = LLVM::AddOp::create(rewriter, loc, zPart, by);
    Value yzPart = LLVM::MulOp::create(rewriter, loc, yz, nx);
    Value pid = LLVM::AddOp::create(rewriter, loc, yzPart, bx);
    Value tooMany =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ugt, programs,
                             i32Const(maxPrograms));
    createIf(rewriter, loc, tooMany,
             [&] { LLVM::Trap::create(rewriter, loc); });

    // 1-2. Thread 0 brings the block's values and waits for the others.
    NVVM::Barrier0Op::create(rewriter, loc);
    Value tid = getThreadId(rewriter, loc);
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       tid, i32Const(0));
    createIf(rewriter, loc, first, [&] {
      std::string code;
      llvm::raw_string_ostream os(code);
      os << "{\n"
            ".reg .u32 tg_gen, tg_idx, tg_cur;\n"
            ".reg .u64 tg_slot;\n"
            ".reg .pred tg_p;\n"
            "ld.relaxed.gpu.global.u32 tg_gen, [$0+4];\n"
            "and.b32 tg_idx, tg_gen, 1;\n"
         << llvm::formatv("mul.lo.u32 tg_idx, tg_idx, {0};\n",
                          bufferValues * maxPrograms)
         << "add.u32 tg_idx, tg_idx, $1;\n"
            "mul.wide.u32 tg_slot, tg_idx, 8;\n"
            "add.u64 tg_slot, tg_slot, $0;\n";
      for (int64_t j = 0; j < numValues; ++j)
        os << llvm::formatv("st.relaxed.gpu.global.b{0} [tg_slot+{1}], ${2};\n",
                            words[j].getType().getIntOrFloatBitWidth(),
                            tile::kGridReduceSlotsOffset + j * maxPrograms * 8,
                            3 + j);
      os << "atom.add.acq_rel.gpu.global.u32 tg_cur, [$0], 1;\n"
            "add.u32 tg_cur, tg_cur, 1;\n"
            "setp.eq.u32 tg_p, tg_cur, $2;\n"
            "@tg_p st.relaxed.gpu.global.u32 [$0], 0;\n"
            "add.u32 tg_cur, tg_gen, 1;\n"
            "@tg_p st.release.gpu.global.u32 [$0+4], tg_cur;\n"
            "@tg_p bra tg_done;\n"
            "tg_wait:\n"
            "ld.acquire.gpu.global.u32 tg_cur, [$0+4];\n"
            "setp.eq.u32 tg_p, tg_cur, tg_gen;\n"
            "@tg_p bra tg_wait;\n"
            "tg_done:\n"
            "}";
      std::string constraints = "l,r,r";
      for (Value word : words)
        constraints +=
            word.getType().getIntOrFloatBitWidth() == 64 ? ",l" : ",r";
      SmallVector<Value> operands = {base, pid, programs};
      llvm::append_range(operands, words);
      createInlinePTX(rewriter, loc, Type(), code, constraints, operands);
    });
    NVVM::Barrier0Op::create(rewriter, loc);

    // 3. The buffer the reduction used.
    Value generation =
        createInlinePTX(rewriter, loc, i32,
                        "ld.relaxed.gpu.global.u32 $0, [$1+4];", "=r,l", {base})
            .getResult(0);
    Value previous =
        LLVM::SubOp::create(rewriter, loc, generation, i32Const(1));
    Value buffer = LLVM::AndOp::create(rewriter, loc, previous, i32Const(1));
    Value bufferSlots = LLVM::MulOp::create(
        rewriter, loc, buffer, i32Const(bufferValues * maxPrograms));

    // 4. Lane l combines programs l, l + 32, ... of each value.
    SmallVector<Type> loopTypes = {i32};
    SmallVector<Value> loopInit = {getLaneId(rewriter, loc)};
    for (Value value : values) {
      loopTypes.push_back(value.getType());
      loopInit.push_back(
          createIdentity(rewriter, loc, op.getKind(), value.getType()));
    }
    SmallVector<Location> locs(loopTypes.size(), loc);
    Block *before = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
    Block *header = rewriter.createBlock(after, loopTypes, locs);
    Block *body = rewriter.createBlock(after, loopTypes, locs);
    Block *exit = rewriter.createBlock(after, loopTypes, locs);
    rewriter.setInsertionPointToEnd(before);
    LLVM::BrOp::create(rewriter, loc, loopInit, header);
    rewriter.setInsertionPointToEnd(header);
    Value more = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                      header->getArgument(0), programs);
    LLVM::CondBrOp::create(rewriter, loc, more, body, header->getArguments(),
                           exit, header->getArguments());
    rewriter.setInsertionPointToEnd(body);
    // kGridReduceUnroll programs a lane at a time: their loads are all
    // issued before the first is combined, so that a lane waits for one L2
    // round trip per kGridReduceUnroll x 32 programs, not per 32. A program
    // past the grid's end reads the slot of the lane's first (in bounds)
    // and counts as the identity.
    Value lead = body->getArgument(0);
    SmallVector<Value> next = {LLVM::AddOp::create(
        rewriter, loc, lead, i32Const(kGridReduceUnroll * 32))};
    SmallVector<SmallVector<Value>> partials(numValues);
    SmallVector<Value> inRange;
    for (int64_t u = 0; u < kGridReduceUnroll; ++u) {
      Value program =
          u == 0 ? lead
                 : LLVM::AddOp::create(rewriter, loc, lead, i32Const(32 * u))
                       .getResult();
      Value valid = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ult, program, programs);
      inRange.push_back(valid);
      Value read = LLVM::SelectOp::create(rewriter, loc, valid, program, lead);
      for (int64_t j = 0; j < numValues; ++j) {
        Value slotIndex = LLVM::AddOp::create(rewriter, loc, bufferSlots,
                                              i32Const(j * maxPrograms));
        slotIndex = LLVM::AddOp::create(rewriter, loc, slotIndex, read);
        Value wide = LLVM::ZExtOp::create(rewriter, loc, i64, slotIndex);
        Value offset = LLVM::MulOp::create(rewriter, loc, wide,
                                           createI64(rewriter, loc, 8));
        Value address = LLVM::AddOp::create(rewriter, loc, base, offset);
        Type wordType = words[j].getType();
        unsigned width = wordType.getIntOrFloatBitWidth();
        Value word =
            createInlinePTX(
                rewriter, loc, wordType,
                llvm::formatv("ld.relaxed.gpu.global.b{0} $0, [$1+{1}];", width,
                              tile::kGridReduceSlotsOffset)
                    .str(),
                width == 64 ? "=l,l" : "=r,l", {address})
                .getResult(0);
        Type accType = values[j].getType();
        partials[j].push_back(
            accType == wordType
                ? word
                : LLVM::BitcastOp::create(rewriter, loc, accType, word)
                      .getResult());
      }
    }
    for (int64_t j = 0; j < numValues; ++j) {
      Value total = body->getArgument(1 + j);
      Value identity =
          createIdentity(rewriter, loc, op.getKind(), values[j].getType());
      for (int64_t u = 0; u < kGridReduceUnroll; ++u) {
        Value partial = LLVM::SelectOp::create(rewriter, loc, inRange[u],
                                               partials[j][u], identity);
        total = createCombine(rewriter, loc, op.getKind(), total, partial);
      }
      next.push_back(total);
    }
    LLVM::BrOp::create(rewriter, loc, next, header);

    // The lanes' partial results, combined by butterfly shuffles.
    rewriter.setInsertionPointToEnd(exit);
    SmallVector<Value> results;
    for (auto [j, result] : llvm::enumerate(op.getReduced())) {
      Value total = exit->getArgument(1 + j);
      for (int64_t mask = 16; mask >= 1; mask /= 2)
        total = createCombine(rewriter, loc, op.getKind(), total,
                              createShuffleXor(rewriter, loc, total, mask));
      Type type = getTypeConverter()->convertType(result.getType());
      if (total.getType() != type)
        total = LLVM::FPTruncOp::create(rewriter, loc, type, total);
      results.push_back(total);
    }
    LLVM::BrOp::create(rewriter, loc, ValueRange(), after);
    rewriter.setInsertionPointToStart(after);
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

int64_t mlir::tilegpu::getGridReduceWorkspaceBytes(int64_t values) {
  return tile::kGridReduceSlotsOffset +
         2 * values * tile::kMaxGridReducePrograms * 8;
}

int64_t mlir::tilegpu::getGridReduceWorkspaceValues(int64_t bytes) {
  return (bytes - tile::kGridReduceSlotsOffset) /
         (2 * tile::kMaxGridReducePrograms * 8);
}

void mlir::tilegpu::populateGridOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<GridReduceOpLowering>(converter);
}
