//===- Tile.h - The tile dialect --------------------------------*- C++ -*-===//
//
// Public header of the `tile` dialect: the dialect, its types, attributes and
// operations, all generated from the ODS files beside this one.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILE_H
#define TILE_DIALECT_TILE_IR_TILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tile/Dialect/Tile/IR/TileDialect.h.inc"

#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {

/// Returns `type` with its element type replaced by `element`: a tensor of the
/// same shape, or `element` itself when `type` is a scalar.
Type getSameShape(Type type, Type element);

/// Returns the pointee type of a pointer, or the tensor of pointees of the
/// same shape for a tile of pointers; null for anything else.
Type getPointeeShape(Type ptrLike);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILE_H
