//===- ClusterOpToLLVM.cpp - Cluster ranks, ids and reductions ------------===//
//
// A kernel with tile.cluster_size = N runs as clusters of N blocks along x
// (sm_90). Its cluster operations read the cluster special registers, and
// tile.cluster_reduce exchanges values through distributed shared memory,
// with mbarriers (no cluster barrier, no memory fence, per round):
//
//  1. round k of a reduction uses buffer k % 2 of its slots (N slots for
//     each of its V values, value-major) and the mbarrier of that buffer,
//     whose phase k / 2 it waits for (parity (k / 2) % 2); a per-thread
//     counter holds k;
//  2. thread 0 arrives on its block's mbarrier, expecting the N x V
//     values' bytes (mbarrier.arrive.expect_tx: the phase completes when
//     they are in);
//  3. threads 0 to N-1 send the block's V values into slot `rank` of each
//     value in block `tid`'s buffer, signalling that block's mbarrier with
//     their bytes (mapa, then st.async ... mbarrier::complete_tx::bytes);
//  4. every thread waits for the phase (mbarrier.try_wait.parity), then
//     combines its own block's N slots of each value in order of rank, so
//     every block of the cluster gets the same results.
//
// Values reduced by one operation share the round: one wait for the
// cluster, however many values.
//
// Two buffers suffice when every thread of a block has read round k's
// slots before the block sends round k + 1 (a block sends round k + 2 into
// a buffer only after receiving everyone's round k + 1): a block barrier
// must lie between. Another operation with a block barrier in the same
// block provides it; otherwise the reduction starts with one
// (LoweringInfo::clusterLeadingBarrier). The mbarriers are initialized at
// the kernel's start, before the cluster meets once (TileOpToLLVM.cpp).
//
// Compared with a cluster barrier per round (barrier.cluster.arrive, with
// release semantics, and wait), this waits for N small stores instead of
// for every block of the cluster and every earlier memory access: on an
// H100 the barrier's release compiles to a GPU-wide fence (MEMBAR.ALL.GPU)
// that drains the row just stored.
//
// With clusters of one, the operations are the program's own id and count
// and the reduction is its operand: such a kernel runs on any GPU.
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilegpu;

/// The blocks per cluster of the kernel that holds `op`.
static int64_t getClusterSize(Operation *op, const LoweringInfo &info) {
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  return func ? info.clusterSize.lookup(func.getSymName()) : 1;
}

/// A pointer as an i64 for an inline PTX address operand.
static Value toAddress(OpBuilder &b, Location loc, Value pointer) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), pointer);
}

namespace {

/// tile.cluster_rank -> %cluster_ctarank, tile.cluster_id -> %clusterid.x,
/// tile.num_clusters -> %nclusterid.x; with clusters of one: 0, %ctaid.x
/// and %nctaid.x.
template <typename OpTy, typename ClusterOp, typename SingleOp>
struct ClusterIndexLowering : ConvertOpToLLVMPattern<OpTy> {
  ClusterIndexLowering(LLVMTypeConverter &converter, const LoweringInfo &info)
      : ConvertOpToLLVMPattern<OpTy>(converter), info(info) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Value value;
    if (getClusterSize(op, info) > 1)
      value = ClusterOp::create(rewriter, op.getLoc(), i32);
    else if constexpr (std::is_same_v<SingleOp, void>)
      value = createI32(rewriter, op.getLoc(), 0);
    else
      value = SingleOp::create(rewriter, op.getLoc(), i32);
    rewriter.replaceOp(op, value);
    return success();
  }

  const LoweringInfo &info;
};

struct ClusterReduceOpLowering : ConvertOpToLLVMPattern<tile::ClusterReduceOp> {
  ClusterReduceOpLowering(LLVMTypeConverter &converter,
                          const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(tile::ClusterReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t size = getClusterSize(op, info);
    if (size == 1) {
      rewriter.replaceOp(op, adaptor.getValues());
      return success();
    }
    Location loc = op.getLoc();
    // Each value as it travels (f32 for f16 and bf16), its bytes, and the
    // stride of the slots (the widest value's bytes).
    SmallVector<Value> values;
    SmallVector<int64_t> bytes;
    int64_t slotBytes = getClusterSlotBytes(op);
    int64_t txBytes = 0;
    for (Value value : adaptor.getValues()) {
      Type accType = getAccumulatorType(value.getType());
      if (accType != value.getType())
        value = LLVM::FPExtOp::create(rewriter, loc, accType, value);
      values.push_back(value);
      bytes.push_back(accType.getIntOrFloatBitWidth() / 8);
      txBytes += size * bytes.back();
    }
    int64_t numValues = values.size();

    Type i32 = rewriter.getI32Type();
    auto i32Const = [&](int64_t v) { return createI32(rewriter, loc, v); };
    auto sharedAt = [&](Value byteOffset) {
      return getSharedAddress(rewriter, loc, op, info, byteOffset);
    };

    // 1. The round: its buffer and the parity of its mbarrier's phase.
    Value counter = info.clusterRound.lookup(op);
    if (!counter)
      return rewriter.notifyMatchFailure(op, "kernel not converted first");
    Value round = LLVM::LoadOp::create(rewriter, loc, i32, counter);
    LLVM::StoreOp::create(
        rewriter, loc, LLVM::AddOp::create(rewriter, loc, round, i32Const(1)),
        counter);
    // (One operation created per statement: the order of a call's
    // arguments is the compiler's, and the IR must not depend on it.)
    Value buffer = LLVM::AndOp::create(rewriter, loc, round, i32Const(1));
    Value half = LLVM::LShrOp::create(rewriter, loc, round, i32Const(1));
    Value parity = LLVM::AndOp::create(rewriter, loc, half, i32Const(1));
    Value barrier =
        sharedAt(LLVM::MulOp::create(rewriter, loc, buffer, i32Const(8)));
    Value bufferOffset = LLVM::MulOp::create(
        rewriter, loc, buffer, i32Const(size * numValues * slotBytes));
    Value slots = LLVM::AddOp::create(rewriter, loc, bufferOffset,
                                      i32Const(kClusterSlotsOffset));
    if (info.clusterLeadingBarrier.contains(op))
      NVVM::Barrier0Op::create(rewriter, loc);

    // 2. Thread 0 expects the N x V values.
    Value tid = getThreadId(rewriter, loc);
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       tid, i32Const(0));
    createIf(rewriter, loc, first, [&] {
      NVVM::MBarrierArriveExpectTxOp::create(
          rewriter, loc, Type(), barrier, i32Const(txBytes),
          NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
    });

    // 3. Threads 0 to N-1 send slot `rank` of each value of block `tid`.
    Value rank = NVVM::ClusterId::create(rewriter, loc, i32);
    Value sends = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                       tid, i32Const(size));
    createIf(rewriter, loc, sends, [&] {
      auto clusterPtr = LLVM::LLVMPointerType::get(
          rewriter.getContext(),
          static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
      Value remoteBarrier =
          NVVM::MapaOp::create(rewriter, loc, clusterPtr, barrier, tid);
      Value rankOffset =
          LLVM::MulOp::create(rewriter, loc, rank, i32Const(slotBytes));
      Value rankSlots = LLVM::AddOp::create(rewriter, loc, slots, rankOffset);
      for (int64_t j = 0; j < numValues; ++j) {
        Value slot = sharedAt(LLVM::AddOp::create(
            rewriter, loc, rankSlots, i32Const(j * size * slotBytes)));
        Value remoteSlot =
            NVVM::MapaOp::create(rewriter, loc, clusterPtr, slot, tid);
        Value word = values[j];
        if (!isa<IntegerType>(word.getType()))
          word = LLVM::BitcastOp::create(
              rewriter, loc, rewriter.getIntegerType(bytes[j] * 8), word);
        std::string code = llvm::formatv(
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.b{0} "
            "[$0], $1, [$2];",
            bytes[j] * 8);
        createInlinePTX(rewriter, loc, Type(), code,
                        bytes[j] == 8 ? "l,l,l" : "l,r,l",
                        {toAddress(rewriter, loc, remoteSlot), word,
                         toAddress(rewriter, loc, remoteBarrier)});
      }
    });

    // 4. The round is complete: this block's slots of each value, in order
    // of rank.
    createMBarrierWait(rewriter, loc, barrier, parity);
    SmallVector<Value> results;
    for (auto [j, result] : llvm::enumerate(op.getReduced())) {
      Type accType = values[j].getType();
      Value total;
      for (int64_t k = 0; k < size; ++k) {
        Value address = sharedAt(LLVM::AddOp::create(
            rewriter, loc, slots, i32Const((j * size + k) * slotBytes)));
        Value partial =
            LLVM::LoadOp::create(rewriter, loc, accType, address, bytes[j]);
        total = total
                    ? createCombine(rewriter, loc, op.getKind(), total, partial)
                    : partial;
      }
      Type type = getTypeConverter()->convertType(result.getType());
      if (accType != type)
        total = LLVM::FPTruncOp::create(rewriter, loc, type, total);
      results.push_back(total);
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  const LoweringInfo &info;
};

} // namespace

int64_t mlir::tilegpu::getClusterSlotBytes(tile::ClusterReduceOp op) {
  int64_t slotBytes = 4;
  for (Type type : op.getValues().getTypes())
    slotBytes = std::max<int64_t>(
        slotBytes, getAccumulatorType(type).getIntOrFloatBitWidth() / 8);
  return slotBytes;
}

void mlir::tilegpu::populateClusterOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<ClusterIndexLowering<tile::ClusterRankOp, NVVM::ClusterId, void>,
               ClusterIndexLowering<tile::ClusterIdOp, NVVM::ClusterIdXOp,
                                    NVVM::BlockIdXOp>,
               ClusterIndexLowering<tile::NumClustersOp, NVVM::ClusterDimXOp,
                                    NVVM::GridDimXOp>,
               ClusterReduceOpLowering>(converter, info);
}
