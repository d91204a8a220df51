//===- ClusterOpToLLVM.cpp - Cluster ranks, ids and reductions
//-------------===//
//
// A kernel with tile.cluster_size = N runs as clusters of N blocks along x
// (sm_90). Its cluster operations read the cluster special registers, and
// tile.cluster_reduce exchanges values through distributed shared memory:
//
//  1. the first N threads of each block write the block's value into slot
//     `rank` of block `tid` (mapa maps the local slot's address to the same
//     slot in that block; st.shared::cluster writes it);
//  2. barrier.cluster.arrive (release: the writes are visible to whoever
//     waits after it) and barrier.cluster.wait (acquire): every block has
//     written every slot;
//  3. every thread combines its own block's N slots in order of rank, so
//     every block of the cluster gets the same result;
//  4. where the same operation could run again before a slower block has
//     read its slots (it is on a cycle with no other cluster reduction in
//     its block), a second cluster barrier
//     (LoweringInfo::clusterTrailingBarrier).
//
// With clusters of one, the operations are the program's own id and count
// and the reduction is its operand: such a kernel runs on any GPU.
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

/// The blocks per cluster of the kernel that holds `op`.
static int64_t getClusterSize(Operation *op, const LoweringInfo &info) {
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  return func ? info.clusterSize.lookup(func.getSymName()) : 1;
}

/// A cluster barrier: arrive (release) and wait (acquire), all threads.
static void createClusterBarrier(OpBuilder &b, Location loc) {
  NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/b.getUnitAttr());
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
      rewriter.replaceOp(op, adaptor.getValue());
      return success();
    }
    Location loc = op.getLoc();
    Type type = adaptor.getValue().getType();
    Type accType = getAccumulatorType(type);
    int64_t bytes = accType.getIntOrFloatBitWidth() / 8;
    Value value = adaptor.getValue();
    if (accType != type)
      value = LLVM::FPExtOp::create(rewriter, loc, accType, value);

    // 1. Threads 0 to N-1 write slot `rank` of block `tid`.
    Value rank = NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type());
    Value tid = getThreadId(rewriter, loc);
    Value slot =
        getSharedAddress(rewriter, loc, op, info,
                         LLVM::MulOp::create(rewriter, loc, rank,
                                             createI32(rewriter, loc, bytes)));
    Value writes = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                        tid, createI32(rewriter, loc, size));
    Block *before = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
    Block *write = rewriter.createBlock(after);
    rewriter.setInsertionPointToEnd(before);
    LLVM::CondBrOp::create(rewriter, loc, writes, write, after);
    rewriter.setInsertionPointToEnd(write);
    auto clusterPtr = LLVM::LLVMPointerType::get(
        rewriter.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value remote = NVVM::MapaOp::create(rewriter, loc, clusterPtr, slot, tid);
    LLVM::StoreOp::create(rewriter, loc, value, remote, bytes);
    LLVM::BrOp::create(rewriter, loc, after);
    rewriter.setInsertionPointToStart(after);

    // 2. Every block has written every slot.
    createClusterBarrier(rewriter, loc);

    // 3. This block's slots, in order of rank.
    Value total;
    for (int64_t k = 0; k < size; ++k) {
      Value address = getSharedAddress(rewriter, loc, op, info,
                                       createI32(rewriter, loc, k * bytes));
      Value partial =
          LLVM::LoadOp::create(rewriter, loc, accType, address, bytes);
      total = total ? createCombine(rewriter, loc, op.getKind(), total, partial)
                    : partial;
    }
    // 4. No block writes the slots again before every block read them.
    if (info.clusterTrailingBarrier.contains(op))
      createClusterBarrier(rewriter, loc);
    if (accType != type)
      total = LLVM::FPTruncOp::create(rewriter, loc, type, total);
    rewriter.replaceOp(op, total);
    return success();
  }

  const LoweringInfo &info;
};

} // namespace

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
