//===- TileGPUTypes.td - Types of the tilegpu dialect ------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD

include "tile/Dialect/TileGPU/IR/TileGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "A tile in shared memory";
  let description = [{
    A buffer of the block's shared memory holding a tile of `shape`
    elements, placed by the `#tilegpu.shared` layout `encoding` (which byte
    holds which element). A leading dimension beyond the tile's rank counts
    the buffers of a ring (one per stage of a pipelined loop);
    `tilegpu.memdesc_index` picks one.

    ```mlir
    !tilegpu.memdesc<3x128x32xf16, #tilegpu.shared<{vec = 8, perPhase = 2,
        maxPhase = 4, order = [1, 0]}>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType, "Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    /// Bytes the buffer takes.
    int64_t getSizeInBytes() const;
  }];
}

def TileGPU_MBarriersType : TypeDef<TileGPU_Dialect, "MBarriers"> {
  let mnemonic = "mbarriers";
  let summary = "A row of mbarriers in shared memory";
  let description = [{
    `count` mbarriers (8 bytes each) in the block's shared memory: the
    barriers whose phases a TMA copy completes, one per stage of a
    pipelined loop. `tilegpu.mbarrier_alloc` makes and initializes them;
    `tilegpu.tma_load` arrives on one and `tilegpu.mbarrier_wait` waits for
    one's phase.

    ```mlir
    !tilegpu.mbarriers<3>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD
