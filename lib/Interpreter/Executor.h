//===- Executor.h - The state of a running kernel ---------------*- C++ -*-===//
//
// The Executor holds what one kernel launch needs: the buffers, the grid,
// the id of the running program and the value of every SSA value computed
// so far. Ops are executed by handlers, one per op class, found by TypeID in
// a table that each group of ops fills (Arith, Math, SCF, Tile).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_INTERPRETER_EXECUTOR_H
#define LIB_INTERPRETER_EXECUTOR_H

#include "RuntimeValue.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/HostData/KernelArg.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <functional>

namespace mlir::tile::interpreter {

class Executor;

/// Executes one op: reads its operands from the executor, binds its results.
using Handler = std::function<LogicalResult(Executor &, Operation *)>;

/// The handlers of every op the interpreter supports, by op TypeID.
class HandlerTable {
public:
  template <typename OpTy> void add(Handler handler) {
    handlers[TypeID::get<OpTy>()] = std::move(handler);
  }
  /// The handler of `op`, or null when the op is not supported.
  const Handler *lookup(Operation *op) const {
    auto it = handlers.find(op->getName().getTypeID());
    return it == handlers.end() ? nullptr : &it->second;
  }

private:
  llvm::DenseMap<TypeID, Handler> handlers;
};

/// The table of all handlers, built on first use.
const HandlerTable &getHandlerTable();

void registerArithHandlers(HandlerTable &table);
void registerMathHandlers(HandlerTable &table);
void registerSCFHandlers(HandlerTable &table);
void registerTileHandlers(HandlerTable &table);

class Executor {
public:
  Executor(FuncOp kernel, MutableArrayRef<KernelArg> args,
           std::array<int32_t, 3> gridSize);

  /// Runs every program of the grid.
  LogicalResult run();

  /// Runs the ops of `block` up to its terminator; the operands of an
  /// `scf.yield` terminator are returned in `yielded`.
  LogicalResult runBlock(Block &block, SmallVectorImpl<RuntimeValue> &yielded);

  const RuntimeValue &lookup(Value value) const {
    auto it = values.find(value);
    assert(it != values.end() && "value used before it is defined");
    return it->second;
  }
  void bind(Value value, RuntimeValue runtimeValue) {
    values[value] = std::move(runtimeValue);
  }

  int32_t getProgramId(unsigned axis) const { return programId[axis]; }
  int32_t getNumPrograms(unsigned axis) const { return gridSize[axis]; }

  /// The buffer of kernel argument `index`, or null for a scalar argument.
  HostBuffer *getBuffer(int64_t index) const {
    return index >= 0 && index < static_cast<int64_t>(buffers.size())
               ? buffers[index]
               : nullptr;
  }

  /// Constants are made once per launch and reused.
  RuntimeValue *lookupConstant(Operation *op) {
    auto it = constants.find(op);
    return it == constants.end() ? nullptr : &it->second;
  }
  void cacheConstant(Operation *op, RuntimeValue value) {
    constants[op] = std::move(value);
  }

  /// Reports an error on `op`, with a note naming the running program.
  InFlightDiagnostic emitError(Operation *op);

private:
  FuncOp kernel;
  SmallVector<HostBuffer *> buffers;
  SmallVector<RuntimeValue> arguments;
  std::array<int32_t, 3> gridSize;
  std::array<int32_t, 3> programId = {0, 0, 0};
  llvm::DenseMap<Value, RuntimeValue> values;
  llvm::DenseMap<Operation *, RuntimeValue> constants;
};

} // namespace mlir::tile::interpreter

#endif // LIB_INTERPRETER_EXECUTOR_H
