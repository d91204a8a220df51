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
#include "tile/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <condition_variable>
#include <functional>
#include <mutex>

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

class Executor;

/// Where the programs of one cluster meet at their tile.cluster_reduce
/// operations, or those of the whole grid at their tile.grid_reduce
/// operations: each runs on a thread of its own, and each reduction waits
/// until every program of the group has brought its value.
class ClusterMeeting {
public:
  /// A group of `size` programs: a "cluster" or the "grid" (`scope`, for
  /// the diagnostics).
  ClusterMeeting(int32_t size, llvm::StringRef scope)
      : size(size), scope(scope), values(size) {}

  /// What the last program to arrive makes of every program's values (in
  /// order of rank), for all of them.
  using Combine = llvm::function_ref<SmallVector<RuntimeValue>(
      llvm::ArrayRef<SmallVector<RuntimeValue>>)>;

  /// The program of rank `rank` arrives at `op` with `values`. Once all
  /// have arrived, the last combines their values once, and every program
  /// gets a copy of the result (not of every program's values: a grid of
  /// thousands would copy millions); fails (reporting why, once) when the
  /// programs meet at different operations, when one finished without
  /// arriving, or when another failed.
  FailureOr<SmallVector<RuntimeValue>> meet(Executor &executor, Operation *op,
                                            int32_t rank,
                                            SmallVector<RuntimeValue> values,
                                            Combine combine);
  /// The program of rank `rank` has finished (or failed).
  void finish(bool failed);

private:
  std::mutex mutex;
  std::condition_variable arrivedAll;
  int32_t size;
  llvm::StringRef scope;
  int32_t arrived = 0, finished = 0;
  uint64_t generation = 0;
  bool broken = false, reported = false;
  Operation *at = nullptr;
  SmallVector<SmallVector<RuntimeValue>> values;
  SmallVector<RuntimeValue> met;
};

class Executor {
public:
  Executor(FuncOp kernel, MutableArrayRef<KernelArg> args,
           std::array<int32_t, 3> gridSize);

  /// Runs the programs of the grid `options` picks (all of them, x fastest,
  /// by default); the programs of a cluster (tile.cluster_size) run on
  /// threads of their own, together.
  FailureOr<InterpretCoverage> run(const InterpretOptions &options);

  /// The programs per cluster, and where this program's cluster (or, in a
  /// kernel that reduces across the grid, the grid) meets; null where
  /// neither does.
  int32_t getClusterSize() const { return clusterSize; }
  ClusterMeeting *getClusterMeeting() const { return meeting; }
  /// Whether the kernel reduces across the grid (tile.grid_reduce): then
  /// all of the grid's programs run at once, on threads of their own.
  bool isGridWide() const { return gridWide; }
  /// The program's place in the grid: x fastest, then y, then z.
  int64_t getLinearProgramId() const {
    return (int64_t(programId[2]) * gridSize[1] + programId[1]) * gridSize[0] +
           programId[0];
  }

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

  /// Whether the run records the elements stored to (InterpretOptions).
  bool isRecordingStores() const { return stored != nullptr; }
  /// Records that elements `offsets` of argument `buffer` were stored to.
  void recordStores(int64_t buffer, ArrayRef<int64_t> offsets);

private:
  /// Program `programId` of a cluster, run by `launcher`'s run().
  Executor(Executor &launcher, std::array<int32_t, 3> programId,
           ClusterMeeting *meeting);
  /// Runs the kernel's body once, for the current program id.
  LogicalResult runProgram();
  /// Runs unit `unit` of the grid: a program, or a cluster of programs (or,
  /// where the kernel reduces across the grid, all of them) on threads of
  /// their own; units are numbered x fastest, then y, then z.
  LogicalResult runUnit(int64_t unit);

  FuncOp kernel;
  int32_t clusterSize = 1;
  bool gridWide = false;
  ClusterMeeting *meeting = nullptr;
  SmallVector<HostBuffer *> buffers;
  SmallVector<RuntimeValue> arguments;
  std::array<int32_t, 3> gridSize;
  std::array<int32_t, 3> programId = {0, 0, 0};
  llvm::DenseMap<Value, RuntimeValue> values;
  llvm::DenseMap<Operation *, RuntimeValue> constants;
  /// The masks of InterpretOptions::stored, shared by a cluster's programs,
  /// which store from threads of their own under the launcher's mutex.
  std::vector<llvm::BitVector> *stored = nullptr;
  std::mutex *storedMutex = nullptr;
  std::mutex ownMutex;
};

} // namespace mlir::tile::interpreter

#endif // LIB_INTERPRETER_EXECUTOR_H
