//===- TileGPUOps.td - Operations of the tilegpu dialect ---*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "tile/Dialect/TileGPU/IR/TileGPUDialect.td"
include "tile/Dialect/TileGPU/IR/TileGPUAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure]> {
  let summary = "Moves a tile to another layout";
  let description = [{
    The same tile, held by other threads or registers. When the two layouts
    differ in which lanes or warps hold an element, the lowering goes
    through shared memory (a barrier on each side); when they differ only in
    the order of a thread's registers, no data moves. The
    `tilegpu-remove-layout-conversions` pass removes the conversions it can.

    ```mlir
    %y = tilegpu.convert_layout %x
        : tensor<4xf32, #tilegpu.slice<{dim = 1, parent = #b2}>>
        -> tensor<4xf32, #b1>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
