//===- ReduceOpToLLVM.cpp - tile.reduce -----------------------------------===//
//
// A reduction along an axis happens at the three levels that can hold
// different elements of the axis, read off the layout's bits:
//
//  1. registers: each thread combines the registers that differ only in the
//     axis's coordinate (a tree, for instruction-level parallelism);
//  2. lanes: for each lane bit on the axis, a butterfly shuffle
//     (shfl.sync.bfly) combines partners; afterwards all those lanes agree;
//  3. warps: if warp bits are on the axis, every thread writes its partial
//     result to shared memory (by output, then thread: no bank conflicts),
//     a barrier, and every thread combines the partials of the warps that
//     differ only in those bits: with one load and a butterfly over the
//     (now redundant) lanes along the axis where there are enough of them,
//     else by reading every partial; a second
//     barrier, where needed, keeps the next write to the scratch from
//     overtaking a slow reader (see LoweringInfo::trailingBarrier).
//
// Every thread ends with the result for the elements it holds in the result's
// slice layout. f16 and bf16 accumulate in f32.
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

Type mlir::tilegpu::getAccumulatorType(Type elementType) {
  if (elementType.isF16() || elementType.isBF16())
    return Float32Type::get(elementType.getContext());
  return elementType;
}

Value mlir::tilegpu::createCombine(OpBuilder &b, Location loc,
                                   tile::ReduceKind kind, Value lhs,
                                   Value rhs) {
  struct Combine {
    OpBuilder &b;
    Location loc;
    Value lhs, rhs;
    bool isFloat() const { return isa<FloatType>(lhs.getType()); }
    Value operator()(tile::SumReduction) const {
      return isFloat() ? Value(LLVM::FAddOp::create(b, loc, lhs, rhs))
                       : Value(LLVM::AddOp::create(b, loc, lhs, rhs));
    }
    // max propagates NaN, like arith.maximumf.
    Value operator()(tile::MaxReduction) const {
      return isFloat() ? Value(LLVM::MaximumOp::create(b, loc, lhs, rhs))
                       : Value(LLVM::SMaxOp::create(b, loc, lhs, rhs));
    }
  };
  return tile::visitReduceKind(kind, Combine{b, loc, lhs, rhs});
}

static SmallVector<int64_t> getAxisBits(ArrayRef<LayoutBit> bits, int axis) {
  SmallVector<int64_t> result;
  for (auto [i, bit] : llvm::enumerate(bits))
    if (bit.dim == axis)
      result.push_back(i);
  return result;
}

int64_t mlir::tilegpu::getSharedMemoryBytes(Operation *op) {
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    FailureOr<LayoutBits> src = getLayoutBits(reduce.getSrc().getType());
    if (failed(src) ||
        getAxisBits(src->warp, static_cast<int>(reduce.getAxis())).empty())
      return 0;
    int64_t numThreads = TileGPUDialect::kThreadsPerWarp << src->warp.size();
    int64_t numOut = getElementsPerThread(reduce.getType());
    Type acc = getAccumulatorType(reduce.getSrc().getType().getElementType());
    return numThreads * numOut * (acc.getIntOrFloatBitWidth() / 8);
  }
  if (auto reduce = dyn_cast<tile::ClusterReduceOp>(op)) {
    // Two mbarriers, then two buffers of a slot per program of the cluster
    // for each value (none for clusters of one): see ClusterOpToLLVM.cpp.
    auto kernel = op->getParentOfType<tile::FuncOp>();
    int64_t size = kernel ? tile::TileDialect::getClusterSize(kernel) : 1;
    if (size == 1)
      return 0;
    return kClusterSlotsOffset +
           2 * size * static_cast<int64_t>(reduce.getValues().size()) *
               getClusterSlotBytes(reduce);
  }
  if (auto reduce = dyn_cast<tile::GridReduceOp>(op)) {
    // The first warp's results, 8 bytes a value, where other warps read
    // them (GridOpToLLVM.cpp).
    auto kernel = op->getParentOfType<tile::FuncOp>();
    auto warps = kernel ? kernel->getAttrOfType<IntegerAttr>(
                              TileGPUDialect::getNumWarpsAttrName())
                        : IntegerAttr();
    if (!warps || warps.getInt() <= 1)
      return 0;
    return 8 * static_cast<int64_t>(reduce.getValues().size());
  }
  if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    RankedTensorType type = convert.getType();
    FailureOr<LayoutBits> src = getLayoutBits(convert.getSrc().getType());
    FailureOr<LayoutBits> dst = getLayoutBits(type);
    if (failed(src) || failed(dst) ||
        (src->lane == dst->lane && src->warp == dst->warp))
      return 0;
    Type element = type.getElementType();
    int64_t bytes = isa<tile::PointerType>(element)
                        ? 8
                        : std::max(1u, element.getIntOrFloatBitWidth() / 8);
    SmallVector<int64_t> strides =
        getConversionScratchStrides(type.getShape(), bytes);
    return (type.getRank() ? strides.front() * type.getDimSize(0) : 1) * bytes;
  }
  return 0;
}

SmallVector<int64_t>
mlir::tilegpu::getConversionScratchStrides(ArrayRef<int64_t> shape,
                                           int64_t bytes) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
    int64_t row = shape[d + 1];
    if (d + 2 == static_cast<int64_t>(shape.size()) && (row * bytes) % 64 == 0)
      row += 16 / bytes;
    strides[d] = strides[d + 1] * row;
  }
  return strides;
}

namespace {
struct ReduceOpLowering : ConvertOpToLLVMPattern<tile::ReduceOp> {
  ReduceOpLowering(LLVMTypeConverter &converter, const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  Value combine(OpBuilder &b, Location loc, tile::ReduceKind kind, Value lhs,
                Value rhs) const {
    return createCombine(b, loc, kind, lhs, rhs);
  }

  /// shfl.sync.bfly of a 32- or 64-bit value.
  Value shuffleXor(OpBuilder &b, Location loc, Value value,
                   int64_t laneMask) const {
    return createShuffleXor(b, loc, value, laneMask);
  }

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    int axis = static_cast<int>(op.getAxis());
    tile::ReduceKind kind = op.getKind();
    LayoutBits src = getBits(srcType);
    auto resultTensor = dyn_cast<RankedTensorType>(op.getType());
    std::optional<LayoutBits> dst;
    if (resultTensor)
      dst = getBits(resultTensor);
    Type elementType = srcType.getElementType();
    Type accType = getAccumulatorType(elementType);

    SmallVector<Value> values = unpackVector(rewriter, loc, adaptor.getSrc());
    if (accType != elementType)
      for (Value &v : values)
        v = LLVM::FPExtOp::create(rewriter, loc, accType, v);

    // 1. Registers: group by output register, then combine as a tree.
    int64_t numOut = dst ? dst->getNumRegisters() : 1;
    SmallVector<SmallVector<Value>> groups(numOut);
    for (int64_t r = 0; r < src.getNumRegisters(); ++r) {
      SmallVector<int64_t> coords = src.getRegisterCoords(r);
      coords.erase(coords.begin() + axis);
      int64_t out = 0;
      if (dst) {
        std::optional<int64_t> at = dst->getRegisterAt(coords);
        if (!at)
          return op.emitOpError("result layout is not the slice of the "
                                "source's along the axis");
        out = *at;
      }
      groups[out].push_back(values[r]);
    }
    SmallVector<Value> acc;
    for (SmallVector<Value> &group : groups) {
      if (group.empty())
        return op.emitOpError("result layout holds elements the source's "
                              "registers do not");
      while (group.size() > 1) {
        SmallVector<Value> next;
        for (size_t i = 0; i + 1 < group.size(); i += 2)
          next.push_back(combine(rewriter, loc, kind, group[i], group[i + 1]));
        if (group.size() % 2)
          next.push_back(group.back());
        group = std::move(next);
      }
      acc.push_back(group.front());
    }

    // 2. Lanes: butterfly shuffles over the lane bits on the axis.
    for (int64_t bit : getAxisBits(src.lane, axis))
      for (Value &v : acc)
        v = combine(rewriter, loc, kind, v,
                    shuffleXor(rewriter, loc, v, int64_t(1) << bit));

    // 3. Warps: through shared memory.
    SmallVector<int64_t> warpBits = getAxisBits(src.warp, axis);
    if (!warpBits.empty()) {
      int64_t bytes = accType.getIntOrFloatBitWidth() / 8;
      int64_t numThreads = TileGPUDialect::kThreadsPerWarp << src.warp.size();
      Value tid = getThreadId(rewriter, loc);
      // The scratch holds each output's partials by thread ([out][thread]),
      // so a warp's 32 stores, and its 32 loads (each lane reading a slot of
      // its own lane: see below), touch 32 consecutive words: no bank
      // conflicts.
      auto addressOf = [&](Value thread, int64_t out) {
        Value index = LLVM::AddOp::create(
            rewriter, loc, thread, createI32(rewriter, loc, out * numThreads));
        index = LLVM::MulOp::create(rewriter, loc, index,
                                    createI32(rewriter, loc, bytes));
        return getSharedAddress(rewriter, loc, op, info, index);
      };
      for (auto [out, v] : llvm::enumerate(acc))
        LLVM::StoreOp::create(rewriter, loc, v, addressOf(tid, out), bytes);
      NVVM::Barrier0Op::create(rewriter, loc);

      int64_t axisMask = 0;
      for (int64_t bit : warpBits)
        axisMask |= int64_t(1) << bit;
      Value baseWarp =
          LLVM::AndOp::create(rewriter, loc, getWarpId(rewriter, loc),
                              createI32(rewriter, loc, ~axisMask));
      Value lane = getLaneId(rewriter, loc);
      auto readPartial = [&](Value warp, Value fromLane, int64_t out) {
        Value thread = LLVM::ShlOp::create(rewriter, loc, warp,
                                           createI32(rewriter, loc, 5));
        thread = LLVM::OrOp::create(rewriter, loc, thread, fromLane);
        return LLVM::LoadOp::create(rewriter, loc, accType,
                                    addressOf(thread, out), bytes)
            .getResult();
      };
      SmallVector<int64_t> laneBits = getAxisBits(src.lane, axis);
      if (laneBits.size() >= warpBits.size()) {
        // The lanes along the axis agree after the shuffles, so they can
        // share the work: lane bits j pick which warp's partial to read (as
        // warp bit j), and butterfly shuffles over those lane bits combine
        // them. One load per output instead of one per warp. Any lane of
        // that warp along the axis holds its partial; each lane reads the
        // slot of its own lane number, so the warp's loads hit 32 banks.
        Value warp = baseWarp;
        for (auto [j, warpBit] : llvm::enumerate(warpBits)) {
          Value bit = LLVM::LShrOp::create(
              rewriter, loc, lane, createI32(rewriter, loc, laneBits[j]));
          bit = LLVM::AndOp::create(rewriter, loc, bit,
                                    createI32(rewriter, loc, 1));
          bit = LLVM::ShlOp::create(rewriter, loc, bit,
                                    createI32(rewriter, loc, warpBit));
          warp = LLVM::OrOp::create(rewriter, loc, warp, bit);
        }
        for (auto [out, v] : llvm::enumerate(acc)) {
          v = readPartial(warp, lane, out);
          for (size_t j = 0; j < warpBits.size(); ++j)
            v = combine(
                rewriter, loc, kind, v,
                shuffleXor(rewriter, loc, v, int64_t(1) << laneBits[j]));
        }
      } else {
        // Every thread reads and combines the partials of all the warps
        // along the axis, in the same order.
        for (auto [out, v] : llvm::enumerate(acc)) {
          Value total;
          for (int64_t k = 0; k < (int64_t(1) << warpBits.size()); ++k) {
            int64_t warpPart = 0;
            for (auto [j, bit] : llvm::enumerate(warpBits))
              if (k & (int64_t(1) << j))
                warpPart |= int64_t(1) << bit;
            Value warp = LLVM::OrOp::create(rewriter, loc, baseWarp,
                                            createI32(rewriter, loc, warpPart));
            Value partial = readPartial(warp, lane, out);
            total =
                total ? combine(rewriter, loc, kind, total, partial) : partial;
          }
          v = total;
        }
      }
      if (info.trailingBarrier.contains(op))
        NVVM::Barrier0Op::create(rewriter, loc);
    }

    if (accType != elementType)
      for (Value &v : acc)
        v = LLVM::FPTruncOp::create(rewriter, loc, elementType, v);
    if (!resultTensor) {
      rewriter.replaceOp(op, acc.front());
      return success();
    }
    rewriter.replaceOp(
        op, packVector(rewriter, loc,
                       getTypeConverter()->convertType(resultTensor), acc));
    return success();
  }

  const LoweringInfo &info;
};
} // namespace

void mlir::tilegpu::populateReduceOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                   RewritePatternSet &patterns,
                                                   const LoweringInfo &info) {
  patterns.add<ReduceOpLowering>(converter, info);
}
