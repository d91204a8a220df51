//===- TileGPUDialect.td - The tilegpu dialect -------------*- tablegen -*-===//
//
// The GPU-layout level: `tile` tensors annotated with how their elements are
// spread over registers, lanes and warps.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD

include "mlir/IR/OpBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::mlir::tilegpu";
  let summary = "Tiles with GPU layouts: which thread holds which element";
  let description = [{
    The `tilegpu` dialect is the level between `tile` and LLVM/NVVM, like
    Triton's TritonGPU dialect. A tile's tensor type carries a *layout* as
    its encoding (`tensor<1024xf32, #tilegpu.blocked<...>>`): for every
    element, the thread (warp and lane) and the register that hold it. The
    `tile` operations keep their meaning; this dialect adds the layouts and
    the operation that moves a tile from one layout to another.

    Every dimension of a tile with a layout is a power of two, so a layout
    maps each bit of a thread's register index, lane id and warp id to one
    bit of one coordinate of the tile, or to none (the element is then held
    by several threads, or registers, at once). `docs/compiler.md` explains
    the model.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 1;

  let extraClassDeclaration = [{
    /// Number of threads in a warp on NVIDIA GPUs.
    static constexpr unsigned kThreadsPerWarp = 32;

    /// Name of the kernel attribute giving the number of warps per block.
    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return ::llvm::StringLiteral("tilegpu.num_warps");
    }

    /// Name of the attribute of a loop whose loads tilegpu-pipeline staged
    /// in a ring: a stage its iteration i reads is next written in
    /// iteration i + d (tilegpu-pipeline makes d = 1), which tells
    /// tilegpu-warpgroup-dot how long a product may keep reading it.
    static constexpr ::llvm::StringLiteral getStageDistanceAttrName() {
      return ::llvm::StringLiteral("tilegpu.stage_distance");
    }

    void registerAttributes();
    void registerTypes();
  }];
}

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
