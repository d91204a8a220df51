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
    The parent is a `#blocked` or an `#mma` layout (the rows and columns of
    a matrix product's result, for its epilogue's addresses and masks).

    ```mlir
    tensor<4xf32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "Attribute":$parent);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The rank of the parent's tiles, one more than the slice's.
    unsigned getParentRank() const;
  }];
}

def TileGPU_MmaEncodingAttr : TileGPU_Attr<"MmaEncoding", "mma",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "The accumulator of tensor-core instructions";
  let description = [{
    The layout of the result of `tile.dot` on tensor cores.

    `versionMajor = 2` (the default; sm_80 and later): an M x N tile in f32
    is covered by 16 x 8 instruction tiles of `mma.sync.m16n8k16` (m16n8k8
    for TF32). Within one, lane `l` holds the elements at row `l / 4` (and
    `+ 8`) and columns `2 * (l % 4)` (and `+ 1`): register bits [n0, m3],
    lane bits [n1, n2, m0, m1, m2]. The warps tile the instruction tiles
    `warpsPerCTA = [wm, wn]` times, along N first (warp bits n3.., then
    m4..), and each warp repeats its instruction tile over the rest of the
    tile in registers (N, then M).

    `versionMajor = 3` (sm_90a): the accumulator of `wgmma.mma_async`,
    whose instruction is a warpgroup (4 warps) multiplying 64 rows by up to
    256 columns. The four warps of a warpgroup hold 16 rows each (warp bits
    [m4, m5]); within a warp the 16 x 8 pieces are laid out as for version
    2 and repeated along the warpgroup's columns in registers (register
    bits [n0, m3, n3, n4, ...]). `warpsPerCTA[0]` (a multiple of 4) counts
    the warps along M: the warpgroups stack along M first (warp bits m6..),
    then along N (the next warp bits, above the N / wn columns of one
    warpgroup); the rest of M is repeated in registers.

    Triton's `#nvidia_mma<{versionMajor = 2 | 3, ...}>`.

    ```mlir
    // 64 x 64 f32 over 4 warps, 2 x 2: each warp holds a 32 x 32 quarter,
    // 2 x 4 instruction tiles of 4 floats per thread.
    tensor<64x64xf32, #tilegpu.mma<{warpsPerCTA = [2, 2]}>>
    // 128 x 128 f32 over one warpgroup: two m64n128 instructions, 128
    // floats per thread.
    tensor<128x128xf32, #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        DefaultValuedParameter<"unsigned", "2">:$versionMajor);
  let assemblyFormat = [{
    `<` `{` `warpsPerCTA` `=` `[` $warpsPerCTA `]`
            (`,` `versionMajor` `=` $versionMajor^)? `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumWarps() const;
    /// True for the accumulator of wgmma (version 3).
    bool isHopper() const { return getVersionMajor() == 3; }
  }];
}

def TileGPU_DotOperandEncodingAttr : TileGPU_Attr<"DotOperandEncoding",
    "dot_operand", [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "An operand of tile.dot, laid out for its parent's product";
  let description = [{
    Operand `opIdx` of a `tile.dot` (0: A, M x K; 1: B, K x N) whose result
    has the layout `parent`.

    With an `#mma` parent, each thread holds the elements the instruction
    wants from it: for 16-bit elements (m16n8k16), A's register bits are
    [k0, m3, k3] and lane bits [k1, k2, m0, m1, m2], B's register bits
    [k0, k3] and lane bits [k1, k2, n0, n1, n2]; for f32 multiplied in TF32
    (m16n8k8), A's are [m3, k2] / [k0, k1, m0, m1, m2] and B's [k2] /
    [k0, k1, n0, n1, n2]. Warps follow the parent's along M (A) or N (B) and
    are free along the other; the rest of K, then of M (A) or N (B), is
    repeated in registers.

    With a `#blocked` parent (the FMA path of `input_precision = ieee`), a
    thread holds whole rows of A (columns of B) along K for the rows
    (columns) it holds of the result.

    ```mlir
    tensor<64x32xf16, #tilegpu.dot_operand<{opIdx = 0,
        parent = #tilegpu.mma<{warpsPerCTA = [2, 2]}>}>>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "Attribute":$parent);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_SharedEncodingAttr : TileGPU_Attr<"SharedEncoding", "shared"> {
  let summary = "Where each element of a tile lives in shared memory";
  let description = [{
    The byte layout of a `!tilegpu.memdesc`, Triton's `#swizzled_shared`:
    rows along `order[1]`, each row of `C` elements contiguous along
    `order[0]`, and within a row, groups of `vec` elements (16 bytes)
    permuted by XOR with the row's phase, which changes every `perPhase`
    rows and takes `maxPhase` values. The element at (row `r`, column `c`)
    is at

        r * C + ((c / vec) ^ ((r / perPhase) % maxPhase)) * vec + c % vec

    The map is linear in the bits of the coordinates (over XOR), as the
    register layouts are, so an address is a thread's part XOR a register's
    part. The swizzle spreads the 8 rows of 16 bytes that one `ldmatrix`
    phase (or one quarter-warp of 16-byte `cp.async` writes) touches over 8
    different groups of banks: no bank conflicts. `perPhase = 1` with
    `maxPhase = 1` is the plain row-major layout.

    ```mlir
    #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase, ArrayRefParameter<"unsigned">:$order,
                        DefaultValuedParameter<"unsigned", "0">:$columnsPerBlock);
  let assemblyFormat = [{
    `<` `{` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,`
            `maxPhase` `=` $maxPhase `,` `order` `=` `[` $order `]`
            (`,` `columnsPerBlock` `=` $columnsPerBlock^)? `}` `>`
  }];
  let genVerifyDecl = 1;
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
