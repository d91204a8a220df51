//===- Passes.td - Conversion passes of tile ---------------*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToTileGPU : Pass<"convert-tile-to-tilegpu", "ModuleOp"> {
  let summary = "Give every tile a GPU layout";
  let description = [{
    The first step from `tile` to the GPU: every tensor in every kernel gets
    a `#tilegpu.blocked` layout over the kernel's number of warps and 32
    threads per warp. All tiles of one rank share one layout, chosen from the
    largest tile of that rank (one element per thread at a time; the
    coalescing pass widens it). A reduction's result gets the slice of its
    source's layout, and `tile.expand_dims` needs the slice of its result's
    layout, so the pass puts a `tilegpu.convert_layout` after each reduction
    to a tile and before each `tile.expand_dims`; the layout-conversion
    removal pass takes most of them away again.

    A `tile.dot` on f16 or bf16, or on f32 in TF32, whose tiles hold whole
    tensor-core instructions (M >= 16, N >= 8, K >= 16, or 8 for TF32) gets
    a `#tilegpu.mma` result, its warps split about evenly over the 16 x 8
    instruction tiles, and `#tilegpu.dot_operand` operands of that result,
    each converted into its layout, the result converted back. Other dots
    (f32 in full precision, smaller tiles) keep the blocked result and get
    dot-operand layouts of it: they lower to FMAs.

    The number of warps is the kernel's `tile.num_warps` attribute, or the
    pass option. The kernel records it as `tilegpu.num_warps`.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per block, for kernels without a tile.num_warps attribute">,
  ];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
}

def ConvertTileGPUToLLVM : Pass<"convert-tilegpu-to-llvm", "ModuleOp"> {
  let summary = "Lower kernels with GPU layouts to LLVM and NVVM";
  let description = [{
    Turns each `tile.func` into an `llvm.func` marked `nvvm.kernel` inside a
    `gpu.module @tile_kernels`, and each tile into the registers one thread
    holds (a vector of them): elementwise operations act on those vectors,
    loads and stores become vector accesses as wide as the axis analysis
    allows (`ld.global.v4.f32`), reductions accumulate in registers, then
    across lanes with `shfl.sync.bfly`, then across warps through shared
    memory and a barrier. `tile.exp` is `ex2.approx.ftz` of the input scaled by
    log2(e). `arith`, `math` and `cf` operations are lowered with MLIR's own
    patterns. Run `convert-scf-to-cf` first.

    A kernel with `tile.cluster_size = N` (N > 1) becomes a kernel of
    clusters of N blocks (`nvvm.cluster_dim`, PTX's `.reqnctapercluster`);
    its `tile.cluster_reduce` goes through distributed shared memory: each
    block sends its values into a slot of every block of the cluster
    (`mapa`, `st.async` completing the receiver's mbarrier with their
    bytes), waits on its own mbarrier's phase for the cluster's values (all
    the values of one reduction in one phase), and combines its slots in
    order of rank. The kernel starts with a cluster barrier, so that no
    block writes into one that has not started. Clusters need sm_90 or later: for an older `chip`
    the pass fails with an error.

    Every float `fmul`, `fadd` and `fsub` of a kernel, those of its
    reductions included, carries LLVM's `contract` flag, so that NVPTX fuses
    a multiply and the add of its result into one `fma.rn` (CUDA's
    `-fmad=true`, Triton's `enable_fp_fusion`); a kernel with
    `tile.fp_contract = false` keeps each operation rounded on its own.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU the kernels are compiled for (sm_XY): clustered kernels "
           "need sm_90 or later">,
    Option<"gridReduceLeader", "grid-reduce-leader", "bool",
           /*default=*/"true",
           "Combine each tile.grid_reduce in program 0 alone, which posts "
           "the result that the other programs wait for (false: every "
           "program combines every program's values; 1.5 to 3.7 times "
           "slower an exchange on the H100, run 119)">,
    Option<"gridReduceBackoff", "grid-reduce-backoff", "unsigned",
           /*default=*/"0",
           "Nanoseconds a program sleeps (nanosleep) between two polls of "
           "a tile.grid_reduce's slots that were not all ready (0: none)">
  ];
  let dependentDialects = [
    "LLVM::LLVMDialect", "NVVM::NVVMDialect", "gpu::GPUDialect"
  ];
}

#endif // TILE_CONVERSION_PASSES_TD
