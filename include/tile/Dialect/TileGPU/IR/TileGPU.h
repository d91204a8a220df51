//===- TileGPU.h - The tilegpu dialect --------------------------*- C++ -*-===//
//
// Public header of the `tilegpu` dialect: layouts as tensor encodings, and
// the layout conversion operation.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPU_H
#define TILE_DIALECT_TILEGPU_IR_TILEGPU_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUOps.h.inc"

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPU_H
