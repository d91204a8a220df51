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
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
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

/// The first of TMA's rules that `desc` breaks with the values `valueOf`
/// gives its sizes and strides (each size at least 1, each outer stride a
/// positive multiple of 16 bytes), or an empty string. Operands whose value
/// is unknown (nullopt) are not checked.
std::string checkTensorDescValues(
    MakeTensorDescOp desc,
    llvm::function_ref<std::optional<int64_t>(Value)> valueOf);

/// Replaces a `tile.cast` between different types by `arith.extf` or
/// `arith.truncf` (or both, through f32, between f16 and bf16); one between
/// equal types by its operand.
void expandCastOp(CastOp op, RewriterBase &rewriter);

/// The most values one `tile.grid_reduce` reduces: the GPU keeps a slot for
/// each program and value (tile/Conversion/KernelABI.h).
constexpr int64_t kMaxGridReduceValues = 8;

/// The kinds of `tile.reduce` as types, one per ReduceKind. Code that treats
/// the kinds differently (the lowering, the interpreter) does so with an
/// overload per tag through visitReduceKind, never with an `if` on the
/// enum: a kind added to ReduceKind and here fails to compile wherever a
/// visitor has no overload for it.
struct SumReduction {};
struct MaxReduction {};

/// Calls `visitor` with the tag of `kind`.
template <typename Visitor>
decltype(auto) visitReduceKind(ReduceKind kind, Visitor &&visitor) {
  switch (kind) {
  case ReduceKind::sum:
    return visitor(SumReduction{});
  case ReduceKind::max:
    return visitor(MaxReduction{});
  }
  llvm_unreachable("unknown tile.reduce kind");
}

/// tile.grid_reduce's own kind: (maximum, sum of exponentials) pairs
/// merged. Its max and sum are tile.reduce's tags, each value reduced
/// alone.
struct LogSumExpReduction {};

/// Calls `visitor` with the tag of the grid reduction kind `kind`.
template <typename Visitor>
decltype(auto) visitGridReduceKind(GridReduceKind kind, Visitor &&visitor) {
  switch (kind) {
  case GridReduceKind::sum:
    return visitor(SumReduction{});
  case GridReduceKind::max:
    return visitor(MaxReduction{});
  case GridReduceKind::logsumexp:
    return visitor(LogSumExpReduction{});
  }
  llvm_unreachable("unknown tile.grid_reduce kind");
}

/// Checks `value`, given for integer argument `index` of `kernel`, against
/// the promises of the argument's attributes (`tile.divisibility`,
/// `tile.max_value`); a message saying which it breaks, or empty.
std::string checkIntegerArgument(FuncOp kernel, unsigned index, int64_t value);

/// Whether the runtime knows `value` before a launch, as
/// tile.make_tensor_desc's operands must be: an argument of the kernel, or
/// an integer constant.
bool isKnownBeforeLaunch(Value value);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILE_H
