//===- TileAttrs.td - Enums of the tile dialect ------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEATTRS_TD
#define TILE_DIALECT_TILE_IR_TILEATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/EnumAttr.td"

def Tile_AxisX : I32EnumAttrCase<"x", 0>;
def Tile_AxisY : I32EnumAttrCase<"y", 1>;
def Tile_AxisZ : I32EnumAttrCase<"z", 2>;
def Tile_ProgramAxis : I32EnumAttr<"ProgramAxis",
    "an axis of the launch grid", [Tile_AxisX, Tile_AxisY, Tile_AxisZ]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_ReduceMax : I32EnumAttrCase<"max", 0>;
def Tile_ReduceSum : I32EnumAttrCase<"sum", 1>;
def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "a reduction",
    [Tile_ReduceMax, Tile_ReduceSum]> {
  let cppNamespace = "::mlir::tile";
}

// tile.grid_reduce's kinds: tile.reduce's two, each value reduced alone,
// and one that merges (maximum, sum of exponentials) pairs.
def Tile_GridReduceMax : I32EnumAttrCase<"max", 0>;
def Tile_GridReduceSum : I32EnumAttrCase<"sum", 1>;
def Tile_GridReduceLogSumExp : I32EnumAttrCase<"logsumexp", 2>;
def Tile_GridReduceKind : I32EnumAttr<"GridReduceKind",
    "a reduction across the grid",
    [Tile_GridReduceMax, Tile_GridReduceSum, Tile_GridReduceLogSumExp]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_PrecisionTF32 : I32EnumAttrCase<"tf32", 0>;
def Tile_PrecisionIEEE : I32EnumAttrCase<"ieee", 1>;
def Tile_InputPrecision : I32EnumAttr<"InputPrecision",
    "how tile.dot multiplies f32 inputs", [Tile_PrecisionTF32,
                                            Tile_PrecisionIEEE]> {
  let cppNamespace = "::mlir::tile";
}

#endif // TILE_DIALECT_TILE_IR_TILEATTRS_TD
