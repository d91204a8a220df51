//===- PatternTileGPUToLLVM.h - Lowering patterns ---------------*- C++ -*-===//
//
// Shared by the files of the tilegpu-to-LLVM lowering: what the pass computes
// before converting (access widths, shared memory offsets), the populate
// functions of each group of patterns, and small helpers to build LLVM and
// NVVM operations.
//
// A tile becomes, in each thread, the vector of the elements that thread holds
// (see Layout.h): tensor<1024xf32, #blocked> with 8 elements per thread is a
// vector<8xf32>. Tiles of pointers become vectors of i64 addresses.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILEGPUTOLLVM_PATTERNTILEGPUTOLLVM_H
#define TILE_LIB_CONVERSION_TILEGPUTOLLVM_PATTERNTILEGPUTOLLVM_H

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tilegpu {

/// Facts computed on the kernel before it is converted.
struct LoweringInfo {
  /// Elements that one access of each tile.load/tile.store moves.
  DenseMap<Operation *, int64_t> accessWidth;
  /// Of each tile.load/tile.store whose pointers run consecutively along a
  /// whole dimension (the axis analysis's contiguity), that dimension: a
  /// thread's addresses along it differ from one another by constants.
  DenseMap<Operation *, int64_t> contiguousDim;
  /// Of each operation lowered element by element (isLoweredPerElement)
  /// whose result is a tile of i1 that the axis analysis finds constant over
  /// aligned runs of a thread's consecutive registers: the run's length (a
  /// power of two). Only each run's first element is computed.
  DenseMap<Operation *, int64_t> constantRun;
  /// Byte offset of each operation's shared-memory scratch. Each operation
  /// has its own, so only its own next execution can overwrite it.
  DenseMap<Operation *, int64_t> sharedOffset;
  /// The operations with scratch that need a barrier after reading it, before
  /// they run again (see TileGPUToLLVM.cpp).
  llvm::DenseSet<Operation *> trailingBarrier;
  /// The layout conversions whose scratch lies over buffers no longer live
  /// (SharedMemoryPlacement.cpp): a barrier before they write it.
  llvm::DenseSet<Operation *> leadingBarrier;
  /// Those of them in a kernel with cp.async copies: a wait for all of
  /// them before the barrier.
  llvm::DenseSet<Operation *> leadingAsyncWait;
  /// Byte offset of each tilegpu.local_alloc's buffer, in the same global
  /// as the scratch (after it).
  DenseMap<Operation *, int64_t> bufferOffset;
  /// The kernels whose shared memory is dynamic (over 48 KiB).
  llvm::StringSet<> dynamicShared;
  /// Shared-memory global of each kernel (by kernel name).
  llvm::StringMap<std::string> sharedGlobal;
  /// Warps per block of each kernel (by kernel name).
  llvm::StringMap<int64_t> numWarps;
  /// Blocks per cluster of each kernel (by kernel name; 1 without
  /// clusters).
  llvm::StringMap<int64_t> clusterSize;
  /// Blocks per SM each kernel's registers must leave room for (by kernel
  /// name; absent where the kernel asks for none).
  llvm::StringMap<int64_t> minBlocksPerSM;
  /// The kernels that write into other blocks' shared memory: they start
  /// by initializing the barriers of their cluster reductions, then meet at
  /// a cluster barrier, so that every block of the cluster has started.
  llvm::StringSet<> usesClusterMemory;
  /// The tile.cluster_reduce operations that need a block barrier before
  /// they send, so that no block sends into slots a thread of its own may
  /// still read (see ClusterOpToLLVM.cpp).
  llvm::DenseSet<Operation *> clusterLeadingBarrier;
  /// Each tile.cluster_reduce's round counter: a per-thread i32 the kernel's
  /// lowering allocates and zeroes in the entry block (promoted to a register
  /// by LLVM), and the reduction's lowering reads and increments. Filled in
  /// while converting, kernel first.
  mutable DenseMap<Operation *, Value> clusterRound;
  /// Each tile.grid_reduce's tag counter: a per-thread i32 the kernel's
  /// lowering allocates in the entry block and sets to the workspace's
  /// epoch, shared by all the kernel's grid reductions, each of which takes
  /// the next tag (GridOpToLLVM.cpp). Filled in while converting, kernel
  /// first.
  mutable DenseMap<Operation *, Value> gridTag;
  /// How grid reductions combine (the pass's options): in program 0 alone,
  /// which posts the result, or in every program; and the nanoseconds a
  /// poll that found slots not ready sleeps before the next (0: none).
  bool gridReduceLeader = true;
  unsigned gridReduceBackoff = 0;
  /// The recipes of each kernel's tensor maps (by kernel name): the words
  /// KernelABI.h describes after the header, kTensorMapWords per map, in
  /// the order of their tile.make_tensor_desc.
  llvm::StringMap<SmallVector<int32_t>> tensorMapRecipes;
  /// Of each tile.make_tensor_desc that TMA copies read, the index of its
  /// map among its kernel's (the hidden parameters after the kernel's own).
  DenseMap<Operation *, int64_t> tensorMapIndex;
};

void populateTileOpToLLVMPatterns(LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const LoweringInfo &info);
void populateMemoryOpToLLVMPatterns(LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringInfo &info);
void populateReduceOpToLLVMPatterns(LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringInfo &info);
void populateConvertLayoutOpToLLVMPatterns(LLVMTypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const LoweringInfo &info);

void populateDotOpToLLVMPatterns(LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const LoweringInfo &info);
/// tilegpu.warpgroup_dot: wgmma.mma_async (sm_90a).
void populateWarpgroupDotOpToLLVMPatterns(LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns);
void populateSharedMemoryOpToLLVMPatterns(LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const LoweringInfo &info);
/// Whether `op` is an arith operation on tiles of i1 (an operand or the
/// result) that ElementwiseOpToLLVM.cpp lowers element by element.
bool isLoweredPerElement(Operation *op);
/// Whether `type` is f8E4M3FN or f8E5M2, or a tile of them.
bool isF8Type(Type type);
/// arith.extf from and arith.truncf to the 8-bit floats (sm_89 and later).
void populateF8OpToLLVMPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns);
/// Arith operations on tiles of i1, element by element.
void populateElementwiseOpToLLVMPatterns(LLVMTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const LoweringInfo &info);
/// The tensor maps of `func`'s TMA copies: their recipes and indices in
/// `info`; an error where a descriptor cannot be made into a map.
LogicalResult analyzeTensorMaps(tile::FuncOp func, LoweringInfo &info);
/// tilegpu.mbarrier_alloc, tilegpu.mbarrier_wait, tilegpu.tma_load and the
/// tile.make_tensor_desc they read (sm_90).
void populateTmaOpToLLVMPatterns(LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const LoweringInfo &info);
void populateGridOpToLLVMPatterns(LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const LoweringInfo &info);
void populateClusterOpToLLVMPatterns(LLVMTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const LoweringInfo &info);

/// Shared-memory bytes `op` needs for its scratch, or 0.
int64_t getSharedMemoryBytes(Operation *op);

/// Places `func`'s scratch and buffers (LoweringInfo::sharedOffset,
/// bufferOffset, leadingBarrier) and returns the bytes they take.
int64_t placeSharedMemory(tile::FuncOp func, LoweringInfo &info);

/// The element strides of a layout conversion's scratch for a tile of
/// `shape` and `bytes` per element: row-major, each row padded by 16 bytes
/// where it is a multiple of 64, so that threads holding the same columns of
/// consecutive rows (an #mma accumulator's) write to different banks, while
/// a thread's run of up to 16 bytes stays aligned.
SmallVector<int64_t> getConversionScratchStrides(ArrayRef<int64_t> shape,
                                                 int64_t bytes);

/// A cluster reduction's scratch: its two mbarriers (8 bytes each) at byte 0
/// and 8, its two buffers of slots from this byte on.
constexpr int64_t kClusterSlotsOffset = 16;
/// The bytes between a cluster reduction's slots: its widest value's, as it
/// travels (4 or 8). A buffer holds N slots of each value, N the cluster's
/// size.
int64_t getClusterSlotBytes(tile::ClusterReduceOp op);

/// The 32-bit words a grid reduction's values travel as (two for each
/// 64-bit value, one for each other).
int64_t getGridReduceWords(tile::GridReduceOp op);
/// The bytes of the global workspace of a kernel whose widest grid
/// reduction travels as `words` words (KernelABI.h).
int64_t getGridReduceWorkspaceBytes(int64_t words);
/// The words a workspace of `bytes` bytes holds per program and buffer.
int64_t getGridReduceWorkspaceWords(int64_t bytes);

/// The type partial results of a reduction are kept in (f32 for f16 and
/// bf16).
Type getAccumulatorType(Type elementType);
/// exp(x) of the f32 scalar `x` as tile.exp computes it: exp2(x log2(e))
/// by ex2.approx.ftz (TileOpToLLVM.cpp).
Value createExp(OpBuilder &b, Location loc, Value x);
/// `lhs` combined with `rhs` by a reduction of `kind`.
Value createCombine(OpBuilder &b, Location loc, tile::ReduceKind kind,
                    Value lhs, Value rhs);

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value createI32(OpBuilder &b, Location loc, int64_t value);
/// An inline PTX statement with side effects, of result type `result` (none
/// where null).
LLVM::InlineAsmOp createInlinePTX(OpBuilder &b, Location loc, Type result,
                                  llvm::StringRef code,
                                  llvm::StringRef constraints,
                                  ValueRange operands);

/// Emits `body` under `condition`, in a block of its own branched to and
/// from; the insertion point ends after it.
void createIf(RewriterBase &rewriter, Location loc, Value condition,
              llvm::function_ref<void()> body);
Value createI64(OpBuilder &b, Location loc, int64_t value);

/// shfl.sync.bfly of a 32- or 64-bit value across the whole warp.
Value createShuffleXor(OpBuilder &b, Location loc, Value value,
                       int64_t laneMask);

/// Thread id within the block, lane id within the warp, warp id (all i32).
Value getThreadId(OpBuilder &b, Location loc);
Value getLaneId(OpBuilder &b, Location loc);
Value getWarpId(OpBuilder &b, Location loc);

/// For each dimension, the part of an element's coordinate that this
/// thread's lane and warp ids contribute (i32); registers add the rest.
SmallVector<Value> getThreadCoords(OpBuilder &b, Location loc,
                                   const LayoutBits &bits);

/// For each dimension, the part of an element's coordinate that the warp
/// id `warpId` contributes (lanes left out).
SmallVector<Value> getIdCoords(OpBuilder &b, Location loc, Value warpId,
                               const LayoutBits &bits);

/// The elements of a per-thread vector, and a vector built from elements.
SmallVector<Value> unpackVector(OpBuilder &b, Location loc, Value vector);
Value packVector(OpBuilder &b, Location loc, Type vectorType,
                 ArrayRef<Value> elements);

/// Address of byte `offset` in the shared-memory global of the kernel that
/// holds `op`, as an !llvm.ptr<3>.
Value getSharedAddress(OpBuilder &b, Location loc, Operation *op,
                       const LoweringInfo &info, Value byteOffset);

/// A predicated load of `width` elements at `address` (i64), filling the
/// result with `other` (or zeros) where `pred` is false.
SmallVector<Value> emitPredicatedLoad(OpBuilder &b, Location loc, Value address,
                                      Value pred, ArrayRef<Value> other,
                                      Type elementType, int64_t width);
/// Every thread waits, spinning on `mbarrier.try_wait.parity` (inline
/// PTX), until the phase of parity `parity` (an i32, 0 or 1) of the
/// mbarrier at `barrier` (an !llvm.ptr<3>) has completed.
void createMBarrierWait(OpBuilder &b, Location loc, Value barrier,
                        Value parity);
/// Layout bits of a tile type; the lowering only sees types that verified.
LayoutBits getBits(Type type);

} // namespace mlir::tilegpu

#endif // TILE_LIB_CONVERSION_TILEGPUTOLLVM_PATTERNTILEGPUTOLLVM_H
