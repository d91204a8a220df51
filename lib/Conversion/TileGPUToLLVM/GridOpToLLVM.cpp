//===- GridOpToLLVM.cpp - Reductions across the grid ----------------------===//
//
// tile.grid_reduce combines scalars over every program of the launch, which
// the runtime makes resident all at once (a cooperative launch of one wave,
// KernelRunner.cpp and Cuda.cpp), through the kernel's workspace in global
// memory (KernelABI.h: an epoch, then two buffers of slots, one per program
// and 32-bit word of the values, then a result slot per buffer and word,
// which only the grid-reduce-leader protocol below uses). A slot holds a word
// and the tag of the reduction that wrote it, stored together in one 8-byte
// store, so that a reader that sees the tag sees the word (the idea of NCCL's
// LL protocol): no barrier across the grid, no atomics and no fences.
//
// Reductions are numbered by tags: the kernel's start reads the epoch into a
// per-thread counter (TileOpToLLVM.cpp; LLVM keeps it in a register), and
// each reduction takes the next number, T. Then:
//
//  1. a block barrier, so that no thread of the block still reads the slots
//     of reduction T - 2, which this one's buffer (T % 2) reuses;
//  2. thread 0 stores each word of the block's values with tag T into the
//     program's slots (st.relaxed.gpu.b64);
//  3. the block's first warp combines all the slots: lane l takes programs
//     l, l + 32, ..., a few at a time (their loads issued together),
//     loading them again until their tags are T (ld.relaxed.gpu.b64), then
//     the lanes combine by butterfly shuffles. Every program's first warp
//     performs the same operations on the same values, so all get the same
//     results, bit for bit;
//  4. thread 0 of program 0 stores T as the epoch, so that the next launch
//     numbers its reductions after this one's;
//  5. with more warps than one, the first warp's lane 0 leaves the results
//     in shared memory, which every thread reads after a block barrier.
//
// Two buffers suffice: a program writes buffer T % 2 again for reduction
// T + 2 only after it read every program's slot of T + 1, which each
// program writes after step 1 of T + 1, so after its first warp read the
// slots of T. (Were a slot overwritten early, its reader would wait for
// ever rather than read a wrong word.) A slot keeps the tag of the
// reduction that last wrote it, at most the epoch a launch starts from, so
// it never passes for one of the launch's own; tag 0, which slots never
// written hold, is never taken (after 2^32 - 1 come 2, 3, ...). Tags are
// 32-bit: after 2^32 reductions of one loaded module they come round
// again, and a slot that kept one stale word through all of them would
// pass. The epoch is read once by every program before its first
// reduction, and none can complete that reduction before every program
// arrived at it, so no program reads an epoch its own launch already
// moved.
//
// That is the protocol with grid-reduce-leader=false. With the option
// grid-reduce-leader (the default: run 119 timed it 1.5 to 3.7 times
// faster an exchange on the H100, compiler.md), step 3 is program 0's alone:
// its first warp combines every slot as above, then its lane 0 stores the
// results, each word beside the tag, into the buffer's result slots (after
// both buffers' program slots), and the other programs' first warps load
// those until their tags are T. Across the grid about 2P slots are read a
// round (P by program 0, one by each other program) instead of P x P, for
// one more trip through L2 on the way. Two buffers still suffice. Program
// slots: a program p other than 0 writes its slot of T + 2 after it read
// the results of T + 1, which program 0 posted after it read every slot of
// T + 1, so after it read those of T. Result slots: program 0 posts the
// results of T + 2 (over those of T) only after it read every program's
// slot of T + 2, which each writes after it read the results of T + 1, so
// after it read those of T. With grid-reduce-backoff = N, a poll that found a
// tag not yet T sleeps N nanoseconds (nanosleep) before the next, in either
// loop.
//
// Only the values travel: unlike a barrier, a grid reduction does not make
// a program's other stores to global memory visible to the others.
//
// The slots and the epoch are read with ld.relaxed.gpu, which the L1 cache
// does not serve: slots are reused every second reduction, and a stale line
// must never be read.
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

/// The slots a lane loads at once in its combining loop, at most: as many
/// programs as give this many words, up to kGridReduceMaxUnroll.
constexpr int64_t kGridReduceLoads = 32;
constexpr int64_t kGridReduceMaxUnroll = 8;
// A lane's last load of a round lies (unroll - 1) x 32 slots past its
// first, which may be past the grid's end: the workspace's padding holds
// it.
static_assert((kGridReduceMaxUnroll - 1) * 32 * 8 + 8 <=
                  tile::kGridReducePaddingBytes,
              "a round's loads past the grid's end leave the workspace");

/// The bytes between a buffer's words: one slot per program.
constexpr int64_t kWordStride = tile::kMaxGridReducePrograms * 8;

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

/// The values a reduction of `kind` starts from, of types `types`: each
/// value's identity, (-inf, -0.0) for logsumexp's pairs (-0.0 as for a
/// sum, so that pairs whose maxima are all 0 merge their sums exactly as
/// a sum would, -0.0 included).
static SmallVector<Value> createIdentities(OpBuilder &b, Location loc,
                                           tile::GridReduceKind kind,
                                           TypeRange types) {
  struct Identities {
    OpBuilder &b;
    Location loc;
    TypeRange types;
    SmallVector<Value> of(tile::ReduceKind kind) const {
      SmallVector<Value> result;
      for (Type type : types)
        result.push_back(createIdentity(b, loc, kind, type));
      return result;
    }
    SmallVector<Value> operator()(tile::SumReduction) const {
      return of(tile::ReduceKind::sum);
    }
    SmallVector<Value> operator()(tile::MaxReduction) const {
      return of(tile::ReduceKind::max);
    }
    SmallVector<Value> operator()(tile::LogSumExpReduction) const {
      SmallVector<Value> result;
      for (auto [i, type] : llvm::enumerate(types))
        result.push_back(createIdentity(
            b, loc, i % 2 == 0 ? tile::ReduceKind::max : tile::ReduceKind::sum,
            type));
      return result;
    }
  };
  return tile::visitGridReduceKind(kind, Identities{b, loc, types});
}

/// `lhs` and `rhs` combined by `kind`: value by value for max and sum;
/// for logsumexp, each pair (m, s) of one with the other's as the
/// interpreter merges them: M = max(m, m'), S = s exp(m - M) + s' exp(m' -
/// M), with M taken as 0 in the exponents where it is -inf (S is then a
/// sum of s exp(-inf), 0). A finite m equal to M scales its s by exactly 1
/// (ex2 of 0); a NaN or +inf M makes S NaN. Not commutative once the
/// multiplies and the add contract into an FMA: callers that combine two
/// lanes' values give both lanes the same order.
static SmallVector<Value> createCombines(OpBuilder &b, Location loc,
                                         tile::GridReduceKind kind,
                                         ValueRange lhs, ValueRange rhs) {
  struct Combines {
    OpBuilder &b;
    Location loc;
    ValueRange lhs, rhs;
    SmallVector<Value> of(tile::ReduceKind kind) const {
      SmallVector<Value> result;
      for (auto [l, r] : llvm::zip_equal(lhs, rhs))
        result.push_back(createCombine(b, loc, kind, l, r));
      return result;
    }
    SmallVector<Value> operator()(tile::SumReduction) const {
      return of(tile::ReduceKind::sum);
    }
    SmallVector<Value> operator()(tile::MaxReduction) const {
      return of(tile::ReduceKind::max);
    }
    SmallVector<Value> operator()(tile::LogSumExpReduction) const {
      SmallVector<Value> result;
      for (size_t i = 0; i + 1 < lhs.size(); i += 2) {
        Type type = lhs[i].getType();
        Value total = LLVM::MaximumOp::create(b, loc, lhs[i], rhs[i]);
        Value minusInf = createIdentity(b, loc, tile::ReduceKind::max, type);
        Value none = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq,
                                          total, minusInf);
        Value zero =
            LLVM::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
        Value shift = LLVM::SelectOp::create(b, loc, none, zero, total);
        auto rescaled = [&](Value m, Value sum) {
          Value delta = LLVM::FSubOp::create(b, loc, m, shift);
          return LLVM::FMulOp::create(b, loc, sum, createExp(b, loc, delta));
        };
        Value left = rescaled(lhs[i], lhs[i + 1]);
        Value right = rescaled(rhs[i], rhs[i + 1]);
        result.push_back(total);
        result.push_back(LLVM::FAddOp::create(b, loc, left, right));
      }
      return result;
    }
  };
  return tile::visitGridReduceKind(kind, Combines{b, loc, lhs, rhs});
}

/// The 32-bit words `value` (of 32 or 64 bits) travels as, low word first.
static void appendWords(OpBuilder &b, Location loc, Value value,
                        SmallVectorImpl<Value> &words) {
  unsigned width = value.getType().getIntOrFloatBitWidth();
  Type word = b.getIntegerType(width);
  if (!isa<IntegerType>(value.getType()))
    value = LLVM::BitcastOp::create(b, loc, word, value);
  if (width == 32) {
    words.push_back(value);
    return;
  }
  Type i32 = b.getI32Type();
  words.push_back(LLVM::TruncOp::create(b, loc, i32, value));
  Value high = LLVM::LShrOp::create(b, loc, value, createI64(b, loc, 32));
  words.push_back(LLVM::TruncOp::create(b, loc, i32, high));
}

/// The value of type `type` that `words` (as appendWords made them) hold.
static Value createFromWords(OpBuilder &b, Location loc, Type type,
                             ArrayRef<Value> words) {
  unsigned width = type.getIntOrFloatBitWidth();
  Value value = words[0];
  if (width == 64) {
    Type i64 = b.getI64Type();
    Value low = LLVM::ZExtOp::create(b, loc, i64, words[0]);
    Value high = LLVM::ZExtOp::create(b, loc, i64, words[1]);
    high = LLVM::ShlOp::create(b, loc, high, createI64(b, loc, 32));
    value = LLVM::OrOp::create(b, loc, high, low);
  }
  if (!isa<IntegerType>(type))
    value = LLVM::BitcastOp::create(b, loc, type, value);
  return value;
}

/// What a grid reduction's lowering needs to read and write the slots of
/// its buffer (GridReduceOpLowering below). Each function leaves the
/// rewriter after what it created, in a block of its own.
struct SlotReader {
  ConversionPatternRewriter &rewriter;
  Location loc;
  tile::GridReduceKind kind;
  /// The workspace's address, as an i64.
  Value base;
  /// The reduction's tag, and the grid's number of programs (i32).
  Value tag, programs;
  /// The values' types (as they travel), the index of each one's first
  /// word, and the number of words.
  SmallVector<Type> valueTypes;
  SmallVector<int64_t> firstWord;
  int64_t numWords;
  /// Nanoseconds to sleep after a poll that found slots not ready.
  unsigned backoff;

  Value i32Const(int64_t value) { return createI32(rewriter, loc, value); }

  /// Ends a poll's PTX in `os` (writing `code`), which loaded `count` words
  /// into $0 .. $count-1 and left in tg_ready whether all were ready: sets
  /// $count to it, sleeps if not ready (with a backoff), and emits it with
  /// `inputs` after the outputs. Returns whether the words were ready, and
  /// the words in `words`.
  Value finishPoll(llvm::raw_string_ostream &os, std::string &code,
                   int64_t count, StringRef inputConstraints, ValueRange inputs,
                   SmallVectorImpl<Value> &words) {
    os << llvm::formatv("selp.u32 ${0}, 1, 0, tg_ready;\n", count);
    if (backoff > 0)
      os << llvm::formatv("@!tg_ready nanosleep.u32 {0};\n", backoff);
    os << "}";
    std::string constraints;
    for (int64_t k = 0; k <= count; ++k)
      constraints += "=r,";
    constraints += inputConstraints;
    Type resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(),
        SmallVector<Type>(count + 1, rewriter.getI32Type()));
    Value loaded =
        createInlinePTX(rewriter, loc, resultType, code, constraints, inputs)
            .getResult(0);
    for (int64_t k = 0; k < count; ++k)
      words.push_back(LLVM::ExtractValueOp::create(rewriter, loc, loaded, k));
    Value readyWord =
        LLVM::ExtractValueOp::create(rewriter, loc, loaded, count);
    return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                readyWord, i32Const(0));
  }

  /// 3. Lane l of the warp combines programs l, l + 32, ... of each value
  /// from the slots from `bufferSlots` on (the buffer's first slot index),
  /// then the lanes combine theirs: every lane gets the results, the same
  /// bits in every lane and every program that runs this.
  SmallVector<Value> combineAll(Value bufferSlots) {
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    int64_t numValues = valueTypes.size();
    int64_t unroll = std::clamp<int64_t>(kGridReduceLoads / numWords, 1,
                                         kGridReduceMaxUnroll);
    SmallVector<Type> loopTypes = {i32};
    llvm::append_range(loopTypes, valueTypes);
    SmallVector<Value> loopInit = {getLaneId(rewriter, loc)};
    llvm::append_range(loopInit,
                       createIdentities(rewriter, loc, kind, valueTypes));
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
    // `unroll` programs a lane at a time: all their loads are issued before
    // the first tag is checked, so that a lane waits about one L2 round trip
    // per unroll x 32 programs, not per 32. Program lead + 32 u is at 256 u
    // bytes past the lead's slot. If any slot's tag is not yet T, the lane
    // takes the same programs again (the loop does not advance); so no
    // loop of the kernel's but this one (and poll()'s) has a load in it,
    // which keeps
    // ptxas from spilling around it. A program past the grid's end counts
    // as the identity: its slot is loaded (the workspace ends in padding,
    // so that the load stays inside it) but its tag is not checked.
    Value lead = body->getArgument(0);
    SmallVector<Value> inRange;
    for (int64_t u = 0; u < unroll; ++u) {
      Value program =
          u == 0 ? lead
                 : LLVM::AddOp::create(rewriter, loc, lead, i32Const(32 * u))
                       .getResult();
      inRange.push_back(LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ult, program, programs));
    }
    Value slot = LLVM::AddOp::create(rewriter, loc, bufferSlots, lead);
    Value wide = LLVM::ZExtOp::create(rewriter, loc, i64, slot);
    Value offset =
        LLVM::MulOp::create(rewriter, loc, wide, createI64(rewriter, loc, 8));
    Value address = LLVM::AddOp::create(rewriter, loc, base, offset);
    Value remaining = LLVM::SubOp::create(rewriter, loc, programs, lead);
    int64_t loads = unroll * numWords;
    // Operands: the loads' words and whether all their tags were T (at
    // `loads`), then the lead's slot, the programs from the lead on, and the
    // tag.
    int64_t addressOperand = loads + 1, remainingOperand = loads + 2,
            tagOperand = loads + 3;
    std::string code;
    llvm::raw_string_ostream os(code);
    os << "{\n"
          ".reg .pred tg_p, tg_ready;\n"
          ".reg .b32 tg_t;\n"
       << llvm::formatv(".reg .b64 tg_v<{0}>;\n", loads);
    // Load k reads word k % numWords of program lead + 32 (k / numWords).
    for (int64_t k = 0; k < loads; ++k)
      os << llvm::formatv(
          "ld.relaxed.gpu.global.b64 tg_v{0}, [${1}+{2}];\n", k, addressOperand,
          tile::kGridReduceSlotsOffset + (k / numWords) * 32 * 8 +
              (k % numWords) * kWordStride);
    os << "setp.eq.u32 tg_ready, 0, 0;\n";
    for (int64_t k = 0; k < loads; ++k)
      os << llvm::formatv("mov.b64 {{${0}, tg_t}, tg_v{0};\n"
                          "setp.le.u32 tg_p, ${1}, {2};\n"
                          "setp.eq.or.u32 tg_p, tg_t, ${3}, tg_p;\n"
                          "and.pred tg_ready, tg_ready, tg_p;\n",
                          k, remainingOperand, 32 * (k / numWords), tagOperand);
    SmallVector<Value> loadedWords;
    Value ready = finishPoll(os, code, loads, "l,r,r",
                             {address, remaining, tag}, loadedWords);
    Value advanced =
        LLVM::AddOp::create(rewriter, loc, lead, i32Const(unroll * 32));
    SmallVector<Value> next = {
        LLVM::SelectOp::create(rewriter, loc, ready, advanced, lead)};
    ValueRange previous = body->getArguments().drop_front();
    SmallVector<Value> totals(previous);
    SmallVector<Value> identities =
        createIdentities(rewriter, loc, kind, valueTypes);
    for (int64_t u = 0; u < unroll; ++u) {
      SmallVector<Value> partials;
      for (int64_t j = 0; j < numValues; ++j) {
        int64_t width =
            (j + 1 < numValues ? firstWord[j + 1] : numWords) - firstWord[j];
        ArrayRef<Value> programWords =
            ArrayRef(loadedWords).slice(u * numWords + firstWord[j], width);
        Value partial =
            createFromWords(rewriter, loc, valueTypes[j], programWords);
        partials.push_back(LLVM::SelectOp::create(rewriter, loc, inRange[u],
                                                  partial, identities[j]));
      }
      totals = createCombines(rewriter, loc, kind, totals, partials);
    }
    for (auto [total, before] : llvm::zip_equal(totals, previous))
      next.push_back(
          LLVM::SelectOp::create(rewriter, loc, ready, total, before));
    LLVM::BrOp::create(rewriter, loc, next, header);

    // The lanes' partial results, combined by butterfly shuffles.
    rewriter.setInsertionPointToEnd(exit);
    // Both lanes of a step combine the lower lane's values with the upper
    // lane's, in that order, so that every lane ends with the same bits
    // even where the combination is not commutative (logsumexp's FMAs):
    // with one warp, each thread keeps its own lane's results.
    totals.assign(exit->getArguments().begin() + 1, exit->getArguments().end());
    Value lane = getLaneId(rewriter, loc);
    for (int64_t mask = 16; mask >= 1; mask /= 2) {
      Value upper = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(rewriter, loc, lane, i32Const(mask)),
          i32Const(0));
      SmallVector<Value> lower, higher;
      for (Value total : totals) {
        Value other = createShuffleXor(rewriter, loc, total, mask);
        lower.push_back(
            LLVM::SelectOp::create(rewriter, loc, upper, other, total));
        higher.push_back(
            LLVM::SelectOp::create(rewriter, loc, upper, total, other));
      }
      totals = createCombines(rewriter, loc, kind, lower, higher);
    }
    LLVM::BrOp::create(rewriter, loc, ValueRange(), after);
    rewriter.setInsertionPointToStart(after);
    return totals;
  }

  /// The results' words, each with the tag, stored by lane 0 into the
  /// result slots at `results` (an i64 address, a slot of 8 bytes a word).
  void post(Value results, ValueRange totals) {
    SmallVector<Value> words;
    for (Value total : totals)
      appendWords(rewriter, loc, total, words);
    Value lane0 = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       getLaneId(rewriter, loc), i32Const(0));
    createIf(rewriter, loc, lane0, [&] {
      std::string code;
      llvm::raw_string_ostream os(code);
      os << "{\n"
            ".reg .b64 tg_pair;\n";
      for (int64_t w = 0; w < numWords; ++w)
        os << llvm::formatv("mov.b64 tg_pair, {{${0}, $1};\n"
                            "st.relaxed.gpu.global.b64 [$0+{1}], tg_pair;\n",
                            2 + w, 8 * w);
      os << "}";
      std::string constraints = "l,r";
      for (int64_t w = 0; w < numWords; ++w)
        constraints += ",r";
      SmallVector<Value> operands = {results, tag};
      llvm::append_range(operands, words);
      createInlinePTX(rewriter, loc, Type(), code, constraints, operands);
    });
  }

  /// The results that post() stores at `results`, loaded by every lane
  /// until all their tags are this reduction's.
  SmallVector<Value> poll(Value results) {
    Block *before = rewriter.getInsertionBlock();
    Block *done = rewriter.splitBlock(before, rewriter.getInsertionPoint());
    Block *loop = rewriter.createBlock(done);
    rewriter.setInsertionPointToEnd(before);
    LLVM::BrOp::create(rewriter, loc, ValueRange(), loop);
    rewriter.setInsertionPointToEnd(loop);
    std::string code;
    llvm::raw_string_ostream os(code);
    os << "{\n"
          ".reg .pred tg_ready;\n"
          ".reg .b32 tg_t;\n"
       << llvm::formatv(".reg .b64 tg_v<{0}>;\n", numWords);
    for (int64_t w = 0; w < numWords; ++w)
      os << llvm::formatv("ld.relaxed.gpu.global.b64 tg_v{0}, [${1}+{2}];\n", w,
                          numWords + 1, 8 * w);
    os << "setp.eq.u32 tg_ready, 0, 0;\n";
    for (int64_t w = 0; w < numWords; ++w)
      os << llvm::formatv("mov.b64 {{${0}, tg_t}, tg_v{0};\n"
                          "setp.eq.and.u32 tg_ready, tg_t, ${1}, tg_ready;\n",
                          w, numWords + 2);
    SmallVector<Value> words;
    Value ready = finishPoll(os, code, numWords, "l,r", {results, tag}, words);
    LLVM::CondBrOp::create(rewriter, loc, ready, done, ValueRange(), loop,
                           ValueRange());
    rewriter.setInsertionPointToStart(done);
    SmallVector<Value> totals;
    for (auto [j, type] : llvm::enumerate(valueTypes)) {
      int64_t end = j + 1 < valueTypes.size() ? firstWord[j + 1] : numWords;
      totals.push_back(createFromWords(
          rewriter, loc, type,
          ArrayRef(words).slice(firstWord[j], end - firstWord[j])));
    }
    return totals;
  }
};

struct GridReduceOpLowering : ConvertOpToLLVMPattern<tile::GridReduceOp> {
  GridReduceOpLowering(LLVMTypeConverter &converter, const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tile::GridReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    Value counter = info.gridTag.lookup(op);
    if (!func || !counter)
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
    // A buffer holds the words of the kernel's widest reduction, whichever
    // reduction this is: every reduction of the kernel takes its buffers at
    // the same offsets, so that the two-buffer argument above holds across
    // reductions of different widths.
    int64_t bufferWords = getGridReduceWorkspaceWords(
        static_cast<int64_t>(workspaceType.getNumElements()));
    MLIRContext *context = op.getContext();
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    auto i32Const = [&](int64_t v) { return createI32(rewriter, loc, v); };
    auto globalPtr = LLVM::LLVMPointerType::get(context, /*addressSpace=*/1);
    Value workspace = LLVM::AddressOfOp::create(rewriter, loc, globalPtr, name);
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, i64, workspace);

    // Each value as it travels (f32 for f16 and bf16), and its words.
    SmallVector<Value> values, words;
    SmallVector<int64_t> firstWord;
    for (Value value : adaptor.getValues()) {
      Type accType = getAccumulatorType(value.getType());
      if (accType != value.getType())
        value = LLVM::FPExtOp::create(rewriter, loc, accType, value);
      values.push_back(value);
      firstWord.push_back(words.size());
      appendWords(rewriter, loc, value, words);
    }
    int64_t numWords = words.size();
    const int64_t maxPrograms = tile::kMaxGridReducePrograms;

    // The program's place in the grid, and the grid's size. More programs
    // than the workspace has slots for stop the kernel (the runtime refuses
    // such a launch before it).
    Value nx = NVVM::GridDimXOp::create(rewriter, loc, i32);
    Value ny = NVVM::GridDimYOp::create(rewriter, loc, i32);
    Value nz = NVVM::GridDimZOp::create(rewriter, loc, i32);
    Value nxy = LLVM::MulOp::create(rewriter, loc, nx, ny);
    Value programs = LLVM::MulOp::create(rewriter, loc, nxy, nz);
    // The count, in 64 bits for the check: a grid whose product of sizes
    // overflows 32 bits must trap too.
    Value wideX = LLVM::ZExtOp::create(rewriter, loc, i64, nx);
    Value wideY = LLVM::ZExtOp::create(rewriter, loc, i64, ny);
    Value wideZ = LLVM::ZExtOp::create(rewriter, loc, i64, nz);
    Value wideXY = LLVM::MulOp::create(rewriter, loc, wideX, wideY);
    Value widePrograms = LLVM::MulOp::create(rewriter, loc, wideXY, wideZ);
    Value bx = NVVM::BlockIdXOp::create(rewriter, loc, i32);
    Value by = NVVM::BlockIdYOp::create(rewriter, loc, i32);
    Value bz = NVVM::BlockIdZOp::create(rewriter, loc, i32);
    Value zPart = LLVM::MulOp::create(rewriter, loc, bz, ny);
    Value yz = LLVM::AddOp::create(rewriter, loc, zPart, by);
    Value yzPart = LLVM::MulOp::create(rewriter, loc, yz, nx);
    Value pid = LLVM::AddOp::create(rewriter, loc, yzPart, bx);
    Value tooMany = LLVM::ICmpOp::create(rewriter, loc,
                                         LLVM::ICmpPredicate::ugt, widePrograms,
                                         createI64(rewriter, loc, maxPrograms));
    createIf(rewriter, loc, tooMany,
             [&] { LLVM::Trap::create(rewriter, loc); });

    // The reduction's tag, and its buffer's first slot.
    Value previousTag = LLVM::LoadOp::create(rewriter, loc, i32, counter);
    Value nextTag =
        LLVM::AddOp::create(rewriter, loc, previousTag, i32Const(1));
    Value wrapped = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         nextTag, i32Const(0));
    Value tag =
        LLVM::SelectOp::create(rewriter, loc, wrapped, i32Const(2), nextTag);
    LLVM::StoreOp::create(rewriter, loc, tag, counter);
    Value buffer = LLVM::AndOp::create(rewriter, loc, tag, i32Const(1));
    Value bufferSlots = LLVM::MulOp::create(
        rewriter, loc, buffer, i32Const(bufferWords * maxPrograms));

    // 1-2. Thread 0 stores the block's words, each with the tag.
    NVVM::Barrier0Op::create(rewriter, loc);
    Value tid = getThreadId(rewriter, loc);
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       tid, i32Const(0));
    createIf(rewriter, loc, first, [&] {
      std::string code;
      llvm::raw_string_ostream os(code);
      os << "{\n"
            ".reg .u64 tg_slot, tg_pair;\n"
            "mul.wide.u32 tg_slot, $1, 8;\n"
            "add.u64 tg_slot, tg_slot, $0;\n";
      for (int64_t w = 0; w < numWords; ++w)
        os << llvm::formatv("mov.b64 tg_pair, {{${0}, $2};\n"
                            "st.relaxed.gpu.global.b64 [tg_slot+{1}], "
                            "tg_pair;\n",
                            3 + w,
                            tile::kGridReduceSlotsOffset + w * kWordStride);
      os << "}";
      std::string constraints = "l,r,r";
      for (int64_t w = 0; w < numWords; ++w)
        constraints += ",r";
      Value slot = LLVM::AddOp::create(rewriter, loc, bufferSlots, pid);
      SmallVector<Value> operands = {base, slot, tag};
      llvm::append_range(operands, words);
      createInlinePTX(rewriter, loc, Type(), code, constraints, operands);
    });

    // 3. Lane l of the first warp combines programs l, l + 32, ... of each
    // value. (The other warps wait at a block barrier for its results:
    // were every warp to read the slots, their polling would flood the L2
    // that the slots' stores must reach.)
    int64_t numWarps = info.numWarps.lookup(func.getSymName());
    Block *joined = nullptr;
    if (numWarps > 1) {
      Value firstWarp =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                               getWarpId(rewriter, loc), i32Const(0));
      Block *current = rewriter.getInsertionBlock();
      joined = rewriter.splitBlock(current, rewriter.getInsertionPoint());
      Block *reader = rewriter.createBlock(joined);
      rewriter.setInsertionPointToEnd(current);
      LLVM::CondBrOp::create(rewriter, loc, firstWarp, reader, joined);
      rewriter.setInsertionPointToEnd(reader);
    }
    SmallVector<Type> valueTypes;
    for (Value value : values)
      valueTypes.push_back(value.getType());
    SlotReader reader{
        rewriter, loc,        op.getKind(), base,     tag,
        programs, valueTypes, firstWord,    numWords, info.gridReduceBackoff};
    SmallVector<Value> totals;
    if (!info.gridReduceLeader) {
      totals = reader.combineAll(bufferSlots);
    } else {
      // 3'. Program 0 alone combines the slots, and posts the results
      // (each word with the tag, in the buffer's result slots, after every
      // program's slots) for the other programs, which poll them.
      Value resultIndex =
          LLVM::MulOp::create(rewriter, loc, buffer, i32Const(bufferWords));
      Value resultOffset = LLVM::MulOp::create(
          rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, i64, resultIndex),
          createI64(rewriter, loc, 8));
      Value results = LLVM::AddOp::create(
          rewriter, loc, base,
          LLVM::AddOp::create(rewriter, loc, resultOffset,
                              createI64(rewriter, loc,
                                        tile::kGridReduceSlotsOffset +
                                            2 * bufferWords * kWordStride)));
      Value leads = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         pid, i32Const(0));
      Block *current = rewriter.getInsertionBlock();
      Block *rest = rewriter.splitBlock(current, rewriter.getInsertionPoint());
      SmallVector<Location> valueLocs(valueTypes.size(), loc);
      Block *merge = rewriter.createBlock(rest, valueTypes, valueLocs);
      Block *combine = rewriter.createBlock(merge);
      Block *poll = rewriter.createBlock(merge);
      rewriter.setInsertionPointToEnd(current);
      LLVM::CondBrOp::create(rewriter, loc, leads, combine, poll);
      rewriter.setInsertionPointToEnd(combine);
      SmallVector<Value> combined = reader.combineAll(bufferSlots);
      reader.post(results, combined);
      LLVM::BrOp::create(rewriter, loc, combined, merge);
      rewriter.setInsertionPointToEnd(poll);
      SmallVector<Value> polled = reader.poll(results);
      LLVM::BrOp::create(rewriter, loc, polled, merge);
      rewriter.setInsertionPointToEnd(merge);
      LLVM::BrOp::create(rewriter, loc, ValueRange(), rest);
      rewriter.setInsertionPointToStart(rest);
      totals.assign(merge->getArguments().begin(), merge->getArguments().end());
    }
    // 4. Every program has read the epoch by now: thread 0 of program 0
    // moves it past this reduction.
    Value leader = LLVM::OrOp::create(rewriter, loc, pid, tid);
    createInlinePTX(rewriter, loc, Type(),
                    "{\n"
                    ".reg .pred tg_p;\n"
                    "setp.eq.u32 tg_p, $1, 0;\n"
                    "@tg_p st.relaxed.gpu.global.u32 [$0], $2;\n"
                    "}",
                    "l,r,r", {base, leader, tag});
    // 5. With more warps than one, the first warp's lane 0 leaves the
    // results in the reduction's scratch (8 bytes a value), read by every
    // thread after a block barrier. (The next reduction's leading barrier
    // keeps its writes after every thread's reads of these.)
    if (joined) {
      auto slotOf = [&](int64_t j) {
        return getSharedAddress(rewriter, loc, op, info, i32Const(8 * j));
      };
      Value lane0 = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         getLaneId(rewriter, loc), i32Const(0));
      createIf(rewriter, loc, lane0, [&] {
        for (auto [j, total] : llvm::enumerate(totals))
          LLVM::StoreOp::create(rewriter, loc, total, slotOf(j));
      });
      LLVM::BrOp::create(rewriter, loc, ValueRange(), joined);
      rewriter.setInsertionPointToStart(joined);
      NVVM::Barrier0Op::create(rewriter, loc);
      for (auto [j, value] : llvm::enumerate(values))
        totals[j] =
            LLVM::LoadOp::create(rewriter, loc, value.getType(), slotOf(j));
    }
    SmallVector<Value> results;
    for (auto [j, result] : llvm::enumerate(op.getReduced())) {
      Type type = getTypeConverter()->convertType(result.getType());
      Value total = totals[j];
      if (total.getType() != type)
        total = LLVM::FPTruncOp::create(rewriter, loc, type, total);
      results.push_back(total);
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  const LoweringInfo &info;
};

} // namespace

int64_t mlir::tilegpu::getGridReduceWords(tile::GridReduceOp op) {
  int64_t words = 0;
  for (Value value : op.getValues())
    words += getAccumulatorType(value.getType()).getIntOrFloatBitWidth() / 32;
  return words;
}

int64_t mlir::tilegpu::getGridReduceWorkspaceBytes(int64_t words) {
  // Two buffers, each of a slot per program and word, then the buffers'
  // result slots (a slot per word), then the padding.
  return tile::kGridReduceSlotsOffset + 2 * words * (kWordStride + 8) +
         tile::kGridReducePaddingBytes;
}

int64_t mlir::tilegpu::getGridReduceWorkspaceWords(int64_t bytes) {
  return (bytes - tile::kGridReduceSlotsOffset -
          tile::kGridReducePaddingBytes) /
         (2 * (kWordStride + 8));
}

void mlir::tilegpu::populateGridOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 const LoweringInfo &info) {
  patterns.add<GridReduceOpLowering>(converter, info);
}
