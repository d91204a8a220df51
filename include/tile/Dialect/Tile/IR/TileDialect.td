//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// The `tile` dialect: GPU kernels written as operations on whole tiles, with
// the semantics of Triton's language.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILE_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "A tile language for GPU kernels, in the style of Triton";
  let description = [{
    The `tile` dialect describes one *program* of a GPU kernel, the way a
    Triton kernel does: the same body runs once for every program id of a
    launch grid, and it computes on *tiles*, statically shaped tensors whose
    elements are spread over the threads of a block by the compiler, not by
    the author.

    Tiles are builtin ranked tensors of static shape (`tensor<1024xf32>`,
    `tensor<4x256x!tile.ptr<f16>>`). Element types are `f32`, `f16`, `bf16`,
    `i1`, `i32`, `i64` and `!tile.ptr<T>`. Elementwise arithmetic,
    comparisons, selects and casts are `arith` and `math` operations on such
    tensors (or on scalars); loops and branches are `scf` operations. The
    `tile` dialect adds what those dialects lack: the kernel entry point,
    program ids, pointers, tile construction (`range`, `splat`, `broadcast`,
    `expand_dims`), memory access (`load`, `store`), reductions and `exp`.

    Kernel arguments may carry the attribute `tile.divisibility = N` (a power
    of two): the argument, a pointer or an integer, is a multiple of `N`
    (bytes for a pointer). The compiler uses such hints to prove alignment.
    An integer argument may carry `tile.max_value = N`: a launch passes at
    most `N`. A kernel whose tiles cover a whole row says so with
    `%n_cols: i32 {tile.max_value = ${BLOCK_SIZE} : i64}`, and a launch
    with longer rows is an error instead of a wrong result; a tuner skips
    the block sizes too small for the launch.
    A kernel may carry `tile.num_warps = N` (a power of two from 1 to 32):
    the number of warps of each block that runs one program. A kernel may
    carry `tile.cluster_size = N` (a power of two from 1 to 16): its
    programs run in clusters of N consecutive program ids along x, which
    can reduce across the cluster (`tile.cluster_reduce`); on the GPU a
    cluster is a thread-block cluster of N blocks (sm_90 and later). A
    kernel may carry `tile.min_blocks_per_sm = N` (from 1 to 32): on the GPU,
    registers are allocated so that N blocks fit on one SM at once (PTX's
    `.minnctapersm`, CUDA's `__launch_bounds__`), spilling if they must;
    more blocks per SM overlap one block's memory accesses with another's
    arithmetic and waits. A kernel may carry `tile.persistent` (a unit
    attribute): its programs loop over the launch's work, striding by
    `tile.num_programs`, so that it computes the same result on any grid
    from one program up to the one the launch names. On the GPU a launch of
    N programs (along x) then runs as many as fit on the GPU at once, at
    most N; the interpreter runs the N. Such a kernel uses program ids and
    counts along x only. A persistent kernel without clusters may reduce
    across its whole grid (`tile.grid_reduce`): its programs then wait for
    one another, so the GPU runs one wave of them, launched cooperatively,
    and the interpreter runs them all at once. Floating-point multiplications and the additions
    or subtractions that use them may be fused into one FMA on the GPU (as
    CUDA's `-fmad=true` and Triton's `enable_fp_fusion` do: one rounding
    instead of two, so results differ from the interpreter's in the last
    bits); a kernel with `tile.fp_contract = false` keeps every operation
    rounded on its own. An `scf.for`
    may carry `tile.num_stages = N` (N >= 1) to have its loads pipelined
    (see the `tile-pipeline-loops` pass).
  }];

  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasRegionArgAttrVerify = 1;
  let hasOperationAttrVerify = 1;

  let extraClassDeclaration = [{
    /// Name of the argument attribute giving a divisibility hint.
    static constexpr ::llvm::StringLiteral getDivisibilityAttrName() {
      return ::llvm::StringLiteral("tile.divisibility");
    }
    /// Name of the argument attribute bounding an integer argument from
    /// above: a launch must pass at most this value.
    static constexpr ::llvm::StringLiteral getMaxValueAttrName() {
      return ::llvm::StringLiteral("tile.max_value");
    }
    /// Name of the kernel attribute choosing the number of warps per block.
    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return ::llvm::StringLiteral("tile.num_warps");
    }
    /// Name of the kernel attribute grouping programs into clusters.
    static constexpr ::llvm::StringLiteral getClusterSizeAttrName() {
      return ::llvm::StringLiteral("tile.cluster_size");
    }
    /// Name of the kernel attribute asking for room for N blocks per SM.
    static constexpr ::llvm::StringLiteral getMinBlocksPerSMAttrName() {
      return ::llvm::StringLiteral("tile.min_blocks_per_sm");
    }
    /// Name of the kernel attribute saying that its programs loop over the
    /// launch's work (a persistent kernel, launched on the programs that
    /// fit at once).
    static constexpr ::llvm::StringLiteral getPersistentAttrName() {
      return ::llvm::StringLiteral("tile.persistent");
    }
    /// Name of the kernel attribute (a bool, default true) allowing the
    /// GPU lowering to fuse multiplications and additions into FMAs.
    static constexpr ::llvm::StringLiteral getFPContractAttrName() {
      return ::llvm::StringLiteral("tile.fp_contract");
    }
    /// Whether `kernel` lets multiplications and additions fuse: its
    /// `tile.fp_contract`, else true.
    static bool allowsFPContract(::mlir::Operation *kernel);
    /// Whether `kernel` carries `tile.persistent`.
    static bool isPersistent(::mlir::Operation *kernel) {
      return kernel->hasAttr(getPersistentAttrName());
    }
    /// The most blocks an SM holds at once (sm_80 and sm_90).
    static constexpr int64_t kMaxBlocksPerSM = 32;
    /// The blocks per SM `kernel` leaves room for: its
    /// `tile.min_blocks_per_sm`, else 1.
    static unsigned getMinBlocksPerSM(::mlir::Operation *kernel);
    /// The largest cluster: 16 blocks, Hopper's non-portable limit.
    static constexpr int64_t kMaxClusterSize = 16;
    /// A cluster size is a power of two from 1 to kMaxClusterSize.
    static bool isValidClusterSize(int64_t size) {
      return size >= 1 && size <= kMaxClusterSize && (size & (size - 1)) == 0;
    }
    /// The programs per cluster of `kernel`: its `tile.cluster_size`, else 1.
    static unsigned getClusterSize(::mlir::Operation *kernel);
    /// Name of the scf.for attribute asking for software pipelining.
    static constexpr ::llvm::StringLiteral getNumStagesAttrName() {
      return ::llvm::StringLiteral("tile.num_stages");
    }

    /// The rule for warps per block, wherever they are given (the kernel's
    /// attribute, tilegpu's, the pipeline's option, tile-run's): a power of
    /// two from 1 to 32.
    static bool isValidNumWarps(int64_t numWarps) {
      return numWarps >= 1 && numWarps <= 32 &&
             (numWarps & (numWarps - 1)) == 0;
    }
    /// The warps per block `kernel` runs with: its `tile.num_warps`, else
    /// `defaultNumWarps` (the pipeline's option).
    static unsigned getNumWarps(::mlir::Operation *kernel,
                                unsigned defaultNumWarps);

    void registerTypes();
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_TD
