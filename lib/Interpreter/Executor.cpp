//===- Executor.cpp - The state of a running kernel -----------------------===//

#include "Executor.h"

#include "tile/Conversion/KernelABI.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <pthread.h>
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
  gridWide = kernel.walk([](GridReduceOp) { return WalkResult::interrupt(); })
                 .wasInterrupted();
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

Executor::Executor(Executor &launcher, std::array<int32_t, 3> programId,
                   ClusterMeeting *meeting)
    : kernel(launcher.kernel), clusterSize(launcher.clusterSize),
      gridWide(launcher.gridWide), meeting(meeting), buffers(launcher.buffers),
      arguments(launcher.arguments), gridSize(launcher.gridSize),
      programId(programId), stored(launcher.stored),
      storedMutex(launcher.storedMutex) {}

void Executor::recordStores(int64_t buffer, ArrayRef<int64_t> offsets) {
  if (!stored || offsets.empty())
    return;
  std::lock_guard<std::mutex> lock(*storedMutex);
  llvm::BitVector &mask = (*stored)[buffer];
  if (mask.empty())
    mask.resize(buffers[buffer]->getNumElements());
  for (int64_t offset : offsets)
    mask.set(offset);
}

LogicalResult Executor::runProgram() {
  Block &body = kernel.getBody().front();
  for (auto [argument, value] : llvm::zip_equal(body.getArguments(), arguments))
    bind(argument, value);
  SmallVector<RuntimeValue> yielded;
  return runBlock(body, yielded);
}

/// A program's thread: what it runs, and its handle once started.
struct ProgramThread {
  std::function<void()> body;
  pthread_t handle;
};

static void *runProgramThread(void *argument) {
  static_cast<ProgramThread *>(argument)->body();
  return nullptr;
}

/// Runs `programs` on threads of their own, meeting at `meeting`. A grid
/// may have thousands: each thread gets a stack of kProgramStackBytes (a
/// program's recursion is only as deep as its nested regions), not the
/// system's default of several MiB. Where the system refuses a thread (too
/// many, too little memory), the programs already running are released
/// from their meetings as if one had failed, and the launch fails with a
/// diagnostic rather than stopping the process (llvm::thread's fatal
/// error).
static LogicalResult runTogether(
    ClusterMeeting &meeting, llvm::ArrayRef<std::unique_ptr<Executor>> programs,
    llvm::function_ref<LogicalResult(Executor &)> run, Operation *kernel) {
  constexpr size_t kProgramStackBytes = size_t(1) << 20;
  std::vector<char> ok(programs.size(), 0);
  std::vector<ProgramThread> threads(programs.size());
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kProgramStackBytes);
  size_t started = 0;
  int error = 0;
  for (; started < programs.size(); ++started) {
    size_t rank = started;
    threads[rank].body = [&, rank] {
      ok[rank] = succeeded(run(*programs[rank]));
      meeting.finish(!ok[rank]);
    };
    error = pthread_create(&threads[rank].handle, &attributes, runProgramThread,
                           &threads[rank]);
    if (error)
      break;
  }
  pthread_attr_destroy(&attributes);
  // The programs that did not start count as failed ones that finished.
  for (size_t rank = started; rank < programs.size(); ++rank)
    meeting.finish(/*failed=*/true);
  for (size_t rank = 0; rank < started; ++rank)
    pthread_join(threads[rank].handle, nullptr);
  if (error) {
    kernel->emitError() << "the interpreter could not start a thread for "
                           "program "
                        << started << " of " << programs.size()
                        << " (which run together, each on a thread of its "
                           "own): "
                        << std::strerror(error);
    return failure();
  }
  return failure(llvm::is_contained(ok, 0));
}

LogicalResult Executor::runUnit(int64_t unit) {
  if (gridWide) {
    // The whole grid is one unit: each grid reduction needs every program.
    ClusterMeeting grid(gridSize[0] * gridSize[1] * gridSize[2], "grid");
    std::vector<std::unique_ptr<Executor>> programs;
    for (int32_t z = 0; z < gridSize[2]; ++z)
      for (int32_t y = 0; y < gridSize[1]; ++y)
        for (int32_t x = 0; x < gridSize[0]; ++x)
          programs.push_back(
              std::unique_ptr<Executor>(new Executor(*this, {x, y, z}, &grid)));
    return runTogether(
        grid, programs, [](Executor &program) { return program.runProgram(); },
        kernel);
  }
  int64_t unitsX = gridSize[0] / clusterSize;
  int32_t x = static_cast<int32_t>(unit % unitsX) * clusterSize;
  int32_t y = static_cast<int32_t>(unit / unitsX % gridSize[1]);
  int32_t z = static_cast<int32_t>(unit / unitsX / gridSize[1]);
  if (clusterSize == 1) {
    programId = {x, y, z};
    return runProgram();
  }
  // A cluster's programs run on threads of their own: each reduction across
  // the cluster needs all of them at once.
  ClusterMeeting cluster(clusterSize, "cluster");
  std::vector<std::unique_ptr<Executor>> programs;
  for (int32_t rank = 0; rank < clusterSize; ++rank)
    programs.push_back(std::unique_ptr<Executor>(
        new Executor(*this, {x + rank, y, z}, &cluster)));
  return runTogether(
      cluster, programs, [](Executor &program) { return program.runProgram(); },
      kernel);
}

/// A step coprime to `units` near its golden section: visiting unit
/// (k * step) % units for k = 0, 1, ... covers every unit once, spread over
/// the grid rather than along its first row.
static int64_t getScatterStep(int64_t units) {
  int64_t step = std::max<int64_t>(1, static_cast<int64_t>(units * 0.618));
  while (std::gcd(step, units) != 1)
    ++step;
  return step;
}

FailureOr<InterpretCoverage> Executor::run(const InterpretOptions &options) {
  stored = options.stored;
  storedMutex = &ownMutex;
  if (stored) {
    stored->clear();
    stored->resize(buffers.size());
  }
  int64_t programsPerUnit =
      gridWide ? int64_t(gridSize[0]) * gridSize[1] * gridSize[2] : clusterSize;
  if (gridWide && programsPerUnit > kMaxGridReducePrograms) {
    kernel.emitError() << "a kernel that reduces across the grid "
                          "(tile.grid_reduce) runs at most "
                       << kMaxGridReducePrograms << " programs, not "
                       << programsPerUnit;
    return failure();
  }
  int64_t units =
      int64_t(gridSize[0]) * gridSize[1] * gridSize[2] / programsPerUnit;
  InterpretCoverage coverage;
  coverage.programs = units * programsPerUnit;
  if (options.secondsBudget <= 0) {
    for (int64_t unit = 0; unit < units; ++unit)
      if (failed(runUnit(unit)))
        return failure();
    coverage.programsRun = coverage.programs;
    return coverage;
  }
  // The last unit and the first, then the rest scattered, until the budget
  // is spent.
  auto start = std::chrono::steady_clock::now();
  auto spent = [&] {
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    return elapsed.count() >= options.secondsBudget;
  };
  int64_t step = getScatterStep(units), run = 0;
  auto visit = [&](int64_t unit) -> LogicalResult {
    ++run;
    return runUnit(unit);
  };
  if (failed(visit(units - 1)))
    return failure();
  if (units > 1 && failed(visit(0)))
    return failure();
  for (int64_t k = 1; k < units && !spent(); ++k) {
    int64_t unit =
        static_cast<int64_t>((static_cast<__int128>(k) * step) % units);
    if (unit == 0 || unit == units - 1)
      continue;
    if (failed(visit(unit)))
      return failure();
  }
  coverage.programsRun = run * programsPerUnit;
  return coverage;
}

FailureOr<SmallVector<RuntimeValue>>
ClusterMeeting::meet(Executor &executor, Operation *op, int32_t rank,
                     SmallVector<RuntimeValue> arrival, Combine combine) {
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
        << "the other programs of its " << scope << " wait at this "
        << at->getName() << "; every program of a " << scope
        << " must reach the same " << scope << " reductions in the same order";
    return fail();
  }
  at = op;
  values[rank] = std::move(arrival);
  ++arrived;
  if (arrived == size) {
    met = combine(values);
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
    executor.emitError(op) << "a program of this " << scope
                           << " finished without reaching this "
                           << op->getName()
                           << ", where the others wait; every program of a "
                           << scope << " must reach each " << scope
                           << " reduction (on a GPU this hangs)";
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
