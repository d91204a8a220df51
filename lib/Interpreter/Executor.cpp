//===- Executor.cpp - The state of a running kernel -----------------------===//

#include "Executor.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cstring>
#include <memory>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interpreter;

const HandlerTable &interpreter::getHandlerTable() {
  static const HandlerTable table = [] {
    HandlerTable result;
    registerArithHandlers(result);
    registerMathHandlers(result);
    registerSCFHandlers(result);
    registerTileHandlers(result);
    return result;
  }();
  return table;
}

Executor::Executor(FuncOp kernel, MutableArrayRef<KernelArg> args,
                   std::array<int32_t, 3> gridSize)
    : kernel(kernel), clusterSize(TileDialect::getClusterSize(kernel)),
      gridSize(gridSize) {
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (arg.isBuffer()) {
      buffers.push_back(&arg.getBuffer());
      RuntimeValue pointer = RuntimeValue::allocate(DataType::Ptr, {});
      *pointer.getData<Pointer>() = Pointer{0, static_cast<int64_t>(index)};
      arguments.push_back(pointer);
      continue;
    }
    buffers.push_back(nullptr);
    const Scalar &scalar = arg.getScalar();
    DataType kind = *getElementDataType(kernel.getArgumentTypes()[index]);
    RuntimeValue value = RuntimeValue::allocate(kind, {});
    std::memcpy(value.getBytes(), &scalar.bits, getStorageSize(kind));
    arguments.push_back(value);
  }
}

InFlightDiagnostic Executor::emitError(Operation *op) {
  InFlightDiagnostic diag = op->emitError();
  diag.attachNote(kernel.getLoc())
      << "in program (" << programId[0] << ", " << programId[1] << ", "
      << programId[2] << ") of @" << kernel.getSymName() << ", grid ("
      << gridSize[0] << ", " << gridSize[1] << ", " << gridSize[2] << ")";
  return diag;
}

LogicalResult Executor::runBlock(Block &block,
                                 SmallVectorImpl<RuntimeValue> &yielded) {
  const HandlerTable &table = getHandlerTable();
  for (Operation &op : block) {
    if (isa<scf::YieldOp>(op)) {
      yielded.clear();
      for (Value operand : op.getOperands())
        yielded.push_back(lookup(operand));
      return success();
    }
    if (isa<ReturnOp>(op))
      return success();
    const Handler *handler = table.lookup(&op);
    if (!handler)
      return emitError(&op)
             << "the interpreter does not support '" << op.getName() << "'";
    if (failed((*handler)(*this, &op)))
      return failure();
  }
  return success();
}

Executor::Executor(const Executor &launcher, std::array<int32_t, 3> programId,
                   ClusterMeeting *meeting)
    : kernel(launcher.kernel), clusterSize(launcher.clusterSize),
      meeting(meeting), buffers(launcher.buffers),
      arguments(launcher.arguments), gridSize(launcher.gridSize),
      programId(programId) {}

LogicalResult Executor::runProgram() {
  Block &body = kernel.getBody().front();
  for (auto [argument, value] : llvm::zip_equal(body.getArguments(), arguments))
    bind(argument, value);
  SmallVector<RuntimeValue> yielded;
  return runBlock(body, yielded);
}

LogicalResult Executor::run() {
  if (clusterSize > 1)
    return runClusters();
  for (programId[2] = 0; programId[2] < gridSize[2]; ++programId[2])
    for (programId[1] = 0; programId[1] < gridSize[1]; ++programId[1])
      for (programId[0] = 0; programId[0] < gridSize[0]; ++programId[0])
        if (failed(runProgram()))
          return failure();
  return success();
}

LogicalResult Executor::runClusters() {
  // Cluster by cluster, its programs on threads of their own: each
  // reduction across the cluster needs all of them at once.
  for (int32_t z = 0; z < gridSize[2]; ++z) {
    for (int32_t y = 0; y < gridSize[1]; ++y) {
      for (int32_t first = 0; first < gridSize[0]; first += clusterSize) {
        ClusterMeeting cluster(clusterSize);
        std::vector<std::unique_ptr<Executor>> programs;
        for (int32_t rank = 0; rank < clusterSize; ++rank)
          programs.push_back(std::unique_ptr<Executor>(
              new Executor(*this, {first + rank, y, z}, &cluster)));
        std::vector<char> ok(clusterSize, 0);
        std::vector<std::thread> threads;
        for (int32_t rank = 0; rank < clusterSize; ++rank)
          threads.emplace_back([&, rank] {
            ok[rank] = succeeded(programs[rank]->runProgram());
            cluster.finish(!ok[rank]);
          });
        for (std::thread &thread : threads)
          thread.join();
        if (llvm::is_contained(ok, 0))
          return failure();
      }
    }
  }
  return success();
}

FailureOr<SmallVector<RuntimeValue>> ClusterMeeting::meet(Executor &executor,
                                                          Operation *op,
                                                          int32_t rank,
                                                          RuntimeValue value) {
  std::unique_lock<std::mutex> lock(mutex);
  auto fail = [&]() -> FailureOr<SmallVector<RuntimeValue>> {
    broken = true;
    arrivedAll.notify_all();
    return failure();
  };
  if (broken)
    return failure();
  if (arrived > 0 && at != op) {
    reported = true;
    executor.emitError(op).attachNote(at->getLoc())
        << "the other programs of its cluster wait at this "
           "tile.cluster_reduce; every program of a cluster must reach the "
           "same cluster reductions in the same order";
    return fail();
  }
  at = op;
  values[rank] = std::move(value);
  ++arrived;
  if (arrived == size) {
    met = values;
    arrived = 0;
    ++generation;
    arrivedAll.notify_all();
    return met;
  }
  uint64_t waitingFor = generation;
  arrivedAll.wait(lock, [&] {
    return generation != waitingFor || broken || arrived + finished == size;
  });
  // A later meeting cannot complete before this program arrives again, so
  // `met` still holds this one's values.
  if (generation != waitingFor)
    return met;
  if (!broken && !reported) {
    reported = true;
    executor.emitError(op)
        << "a program of this cluster finished without reaching this "
           "tile.cluster_reduce, where the others wait; every program of a "
           "cluster must reach each cluster reduction (on a GPU this hangs)";
  }
  return fail();
}

void ClusterMeeting::finish(bool failed) {
  std::lock_guard<std::mutex> lock(mutex);
  ++finished;
  if (failed)
    broken = true;
  arrivedAll.notify_all();
}
