//===- TileGPUAttrs.td - Layouts of the tilegpu dialect ----*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD

include "tile/Dialect/TileGPU/IR/TileGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/TensorEncoding.td"

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TileGPU_BlockedEncodingAttr : TileGPU_Attr<"BlockedEncoding", "blocked",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Each thread holds blocks of consecutive elements";
  let description = [{
    The layout of Triton's `#blocked`. Along each dimension `d`, a thread
    holds `sizePerThread[d]` consecutive elements, a warp spreads
    `threadsPerWarp[d]` threads side by side, and the block spreads
    `warpsPerCTA[d]` warps side by side. `order` lists the dimensions from
    fastest-varying to slowest: lane and warp ids, and a thread's registers,
    run along `order[0]` first. A tile larger than one such block of
    elements wraps around (each thread holds several blocks); a smaller one
    is replicated (several threads hold the same element).

    All four lists have the tile's rank; all sizes are powers of two and
    `threadsPerWarp` multiplies to 32. `warpsPerCTA` multiplies to the
    kernel's number of warps.

    ```mlir
    // 1024 f32 over 4 warps: each thread loads 4 consecutive floats (128
    // bits) at a time, twice.
    tensor<1024xf32, #tilegpu.blocked<{sizePerThread = [4],
        threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
            `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    unsigned getNumWarps() const;
  }];
}

def TileGPU_SliceEncodingAttr : TileGPU_Attr<"SliceEncoding", "slice",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "A layout with one dimension of its parent removed";
  let description = [{
    The layout of the result of a reduction along dimension `dim` of a tile
    in layout `parent`: each element is held by the threads that held the
    slice of the parent it was reduced from. The lanes and warps that
    spread the parent along `dim` now hold copies of the same elements.

    ```mlir
    tensor<4xf32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "BlockedEncodingAttr":$parent);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
