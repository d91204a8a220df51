//===- Passes.td - Passes of the tilegpu dialect -----------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUCoalesce : Pass<"tilegpu-coalesce", "ModuleOp"> {
  let summary = "Pick layouts whose global accesses are 128 bits wide";
  let description = [{
    Runs the axis analysis (contiguity, divisibility and constancy of the
    pointers and masks of every `tile.load` and `tile.store`) and, for each
    rank, widens the shared layout so that each thread holds as many
    consecutive elements along the contiguous dimension as one access can
    move: up to 16 bytes (4 x f32, 8 x f16), fewer where alignment,
    contiguity or the mask do not allow, and no more than the tile gives each
    thread. The widest access of the largest tile of the rank decides; the
    layout's `order` follows the contiguous dimension.
  }];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
}

def TileGPURemoveLayoutConversions
    : Pass<"tilegpu-remove-layout-conversions", "ModuleOp"> {
  let summary = "Remove layout conversions that are not needed";
  let description = [{
    Folds chains of `tilegpu.convert_layout` and conversions to the same
    layout, and makes the value in the wanted layout directly where that is
    free: a `tile.range`, `tile.splat` or constant is rebuilt in the target
    layout, and so is an elementwise operation whose only use is the
    conversion (its operands are converted instead, and so on up). A value an
    `scf.for` carries whose every use in the body converts it to one layout,
    and which comes back converted from that layout (a `tile.dot`
    accumulator), is carried in that layout instead: converted once before
    the loop and once after it. What is left moves data between threads.
  }];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
}

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
