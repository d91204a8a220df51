//===- KernelRunner.cpp - Running kernels on the CPU or a GPU -------------===//
//
// See tile/Runtime/KernelRunner.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/KernelRunner.h"
#include "tile/Runtime/TensorMapRecipe.h"

#include "tile/HostData/Npy.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Support/FileRead.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

static std::string formatBytes(uint64_t bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (bytes >= (uint64_t(1) << 20))
    os << llvm::format("%.1f MiB", bytes / 1048576.0);
  else if (bytes >= 1024)
    os << llvm::format("%.1f KiB", bytes / 1024.0);
  else
    os << bytes << " bytes";
  return text;
}

void BenchReport::print(llvm::raw_ostream &os) const {
  os << llvm::format(
      "bench: median %.4f ms (min %.4f, max %.4f) over %u runs after %u "
      "warm-up runs, %.1f GB/s (%llu bytes: %s); L2 flushed before each "
      "run (%s written)\n",
      times.median, times.min, times.max, options.repetitions, options.warmup,
      gigabytesPerSecond, static_cast<unsigned long long>(bytes),
      bytesGiven ? "--bytes" : "every buffer argument read or written once",
      formatBytes(times.flushBytes).c_str());
}

llvm::Error
mlir::tile::writeOutputs(const RunResult &result,
                         const std::map<unsigned, std::string> &outputs,
                         llvm::raw_ostream &os) {
  for (const auto &[index, path] : outputs) {
    if (index >= result.outputs.size() || !result.outputs[index].isBuffer())
      return llvm::createStringError("--out " + llvm::Twine(index) +
                                     ": the run has no such buffer");
    const HostBuffer &buffer = result.outputs[index].getBuffer();
    if (llvm::Error err = writeNpyFile(path, buffer))
      return err;
    os << "wrote argument " << index << " (" << buffer.getDescription()
       << ") to " << path << "\n";
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// KernelRunner
//===----------------------------------------------------------------------===//

/// What the CUDA target keeps between runs.
struct KernelRunner::CudaState {
  std::unique_ptr<CudaDevice> device;
  /// Set by the first run.
  std::optional<CompiledKernel> compiled;
  std::unique_ptr<CudaModule> module;
  std::optional<CudaFunction> function;
  CudaDevice::JitLog jitLog;
  unsigned blockSize = 0;
  /// The last run's arguments on the device, and its grid.
  std::optional<DeviceArguments> deviceArgs;
  /// The arguments runs and benchmarks use: deviceArgs, or the caller's
  /// (RunOptions::sharedArgs).
  const DeviceArguments *activeArgs = nullptr;
  std::array<unsigned, 3> launchGrid = {1, 1, 1};
};

KernelRunner::KernelRunner(KernelSource &source, const RunOptions &options)
    : source(source), options(options) {}
KernelRunner::~KernelRunner() = default;

llvm::Expected<std::unique_ptr<KernelRunner>>
KernelRunner::create(KernelSource &source, const RunOptions &options) {
  if (!TileDialect::isValidNumWarps(options.compile.numWarps))
    return llvm::createStringError(
        "--num-warps expects a power of two from 1 to 32, got " +
        llvm::Twine(options.compile.numWarps));
  std::unique_ptr<KernelRunner> runner(new KernelRunner(source, options));
  switch (options.target) {
  case Target::CPU:
    if (options.grid.persistent)
      return llvm::createStringError(
          "--grid persistent sizes the grid from a GPU's occupancy; give "
          "the CPU interpreter the grid itself, such as --grid 1823");
    if (!options.binaryFile.empty())
      return llvm::createStringError("--ptx needs a GPU (--target=cuda)");
    if (failed(checkInterpretable(source.getKernel())))
      return llvm::make_error<DiagnosedError>(
          "the CPU interpreter cannot run @" + source.getKernelName().str());
    return std::move(runner);
  case Target::CUDA: {
    Clock::time_point start = Clock::now();
    llvm::Expected<std::unique_ptr<CudaDevice>> device =
        CudaDevice::open(options.device);
    if (!device)
      return device.takeError();
    runner->cuda = std::make_unique<CudaState>();
    runner->cuda->device = std::move(*device);
    runner->timings.add("open the GPU", secondsSince(start),
                        runner->cuda->device->getInfo().getDescription());
    return std::move(runner);
  }
  }
  llvm_unreachable("unknown target");
}

const CudaFunction *KernelRunner::getFunction() const {
  return cuda && cuda->function ? &*cuda->function : nullptr;
}

const CudaDevice::JitLog *KernelRunner::getJitLog() const {
  return cuda && cuda->function ? &cuda->jitLog : nullptr;
}

const CompiledKernel *KernelRunner::getCompiled() const {
  return cuda && cuda->compiled ? &*cuda->compiled : nullptr;
}

llvm::Expected<RunResult> KernelRunner::run(llvm::ArrayRef<KernelArg> args) {
  if (llvm::Error err = source.checkArgumentCount(args.size()))
    return std::move(err);
  if (llvm::Error err = source.checkArgumentValues(args))
    return std::move(err);
  switch (options.target) {
  case Target::CPU:
    return runOnCPU(args);
  case Target::CUDA:
    return runOnCUDA(args);
  }
  llvm_unreachable("unknown target");
}

llvm::Expected<llvm::SmallVector<int64_t, 3>>
mlir::tile::resolveGrid(const GridSpec &grid, const KernelSource &source,
                        llvm::ArrayRef<KernelArg> args) {
  std::vector<std::string> names = source.getParameterNames();
  return grid.resolve([&](llvm::StringRef name) -> std::optional<int64_t> {
    for (const KernelParam &param : source.getParams()) {
      int64_t value = 0;
      if (param.name == name && !param.isType &&
          !llvm::StringRef(param.value).getAsInteger(10, value))
        return value;
    }
    for (auto [index, argName] : llvm::enumerate(names))
      if (argName == name && index < args.size() && !args[index].isBuffer() &&
          !isFloatDataType(args[index].getDataType()))
        return args[index].getScalar().getSExtValue();
    return std::nullopt;
  });
}

llvm::Expected<int64_t>
mlir::tile::getPersistentWork(llvm::ArrayRef<int64_t> sizes,
                              int64_t clusterSize, llvm::StringRef kernelName) {
  if (llvm::any_of(llvm::drop_begin(sizes),
                   [](int64_t size) { return size != 1; }))
    return llvm::createStringError(
        "@" + kernelName + " is '" + TileDialect::getPersistentAttrName() +
        "': its grid names the work along x alone, got " + formatGrid(sizes));
  return (sizes[0] + clusterSize - 1) / clusterSize;
}

llvm::Expected<GridSpec>
mlir::tile::resolveLaunchGrid(const GridSpec &grid, const KernelSource &source,
                              llvm::ArrayRef<KernelArg> args) {
  if (grid.persistent)
    return grid;
  llvm::Expected<llvm::SmallVector<int64_t, 3>> sizes =
      resolveGrid(grid, source, args);
  if (!sizes)
    return sizes.takeError();
  GridSpec resolved;
  resolved.waves = grid.waves;
  FuncOp kernel = source.getKernel();
  if (!TileDialect::isPersistent(kernel)) {
    resolved.sizes = std::move(*sizes);
    return resolved;
  }
  llvm::Expected<int64_t> work = getPersistentWork(
      *sizes, TileDialect::getClusterSize(kernel), source.getKernelName());
  if (!work)
    return work.takeError();
  resolved.persistent = true;
  resolved.cap = *work;
  return resolved;
}

llvm::Expected<RunResult>
KernelRunner::runOnCPU(llvm::ArrayRef<KernelArg> args) {
  RunResult result;
  result.outputs.assign(args.begin(), args.end());
  llvm::Expected<llvm::SmallVector<int64_t, 3>> sizes =
      resolveGrid(options.grid, source, args);
  if (!sizes)
    return sizes.takeError();
  result.grid.assign(sizes->begin(), sizes->end());
  result.where = "the CPU interpreter";
  Clock::time_point start = Clock::now();
  if (failed(interpretKernel(source.getKernel(), result.grid, result.outputs)))
    return llvm::make_error<DiagnosedError>("@" + source.getKernelName().str() +
                                            " failed on the CPU interpreter");
  result.seconds = secondsSince(start);
  timings.add("run", result.seconds, "the CPU interpreter");
  return result;
}

llvm::Error KernelRunner::load(llvm::ArrayRef<KernelArg> args) {
  CudaState &state = *cuda;
  CompileOptions compileOptions = options.compile;
  if (options.binaryFile.empty()) {
    llvm::Expected<KernelSpecialization> specialization =
        source.getSpecialization(args);
    if (!specialization)
      return specialization.takeError();
    llvm::Expected<LoadedKernel> loaded =
        loadKernel(source, *state.device, *specialization, compileOptions,
                   args.size(), &timings);
    if (!loaded)
      return loaded.takeError();
    state.blockSize = loaded->getBlockSize();
    state.compiled = std::move(loaded->compiled);
    state.module = std::move(loaded->module);
    state.function = loaded->function;
    state.jitLog = std::move(loaded->jitLog);
  } else {
    // A PTX or cubin file instead of the compiler's.
    state.blockSize =
        32 * getKernelNumWarps(source.getKernel(), compileOptions);
    Clock::time_point start = Clock::now();
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
        readBoundedFile(options.binaryFile, kBinaryFile);
    if (!file)
      return file.takeError();
    timings.add("read the PTX", secondsSince(start), options.binaryFile);
    LoadedKernel loaded;
    if (llvm::Error err =
            loadBinary(source, *state.device, (*file)->getBuffer(),
                       " (from " + options.binaryFile + ")", args.size(),
                       loaded, &timings))
      return err;
    // tile's code generation gives every kernel a .maxntid of exactly the
    // threads its layouts assume; launched on fewer, a binary leaves part
    // of every tile unloaded and unstored, which the driver takes. (A
    // binary from elsewhere, without .maxntid, reports the most threads
    // its registers allow and is refused too: --ptx loads tile's own.)
    if (loaded.function.maxThreadsPerBlock != static_cast<int>(state.blockSize))
      return llvm::createStringError(
          "the binary's @" + source.getKernelName() + " (from " +
          options.binaryFile + ") takes " +
          llvm::Twine(loaded.function.maxThreadsPerBlock) +
          " threads per block, and the kernel file as given launches " +
          llvm::Twine(state.blockSize) + " (" +
          llvm::Twine(state.blockSize / 32) +
          " warps): load a binary compiled from the same file with the "
          "same meta-parameters (-D) and --num-warps");
    state.module = std::move(loaded.module);
    state.function = loaded.function;
    state.jitLog = std::move(loaded.jitLog);
  }
  if (options.warnOnSpill && state.function->localBytes > 0)
    llvm::WithColor::warning(source.getDiagnosticStream(), "tile-run")
        << describeSpill(source, state.blockSize / 32,
                         state.function->localBytes)
        << "\n";
  return llvm::Error::success();
}

void KernelRunner::diagnoseWithInterpreter(llvm::ArrayRef<int64_t> grid,
                                           llvm::ArrayRef<KernelArg> args) {
  FuncOp kernel = source.getKernel();
  {
    // Unsupported ops are no finding here: say nothing about them.
    ScopedDiagnosticHandler quiet(kernel.getContext(),
                                  [](Diagnostic &) { return success(); });
    if (failed(checkInterpretable(kernel)))
      return;
  }
  llvm::raw_ostream &os = source.getDiagnosticStream();
  llvm::WithColor::note(os, "tile-run")
      << "running @" << kernel.getSymName()
      << " on the CPU interpreter with the same arguments, to find the "
         "fault\n";
  SmallVector<KernelArg> copy(args.begin(), args.end());
  if (succeeded(interpretKernel(kernel, grid, copy)))
    llvm::WithColor::note(os, "tile-run")
        << "the CPU interpreter ran it without error\n";
}

llvm::Expected<RunResult>
KernelRunner::runOnCUDA(llvm::ArrayRef<KernelArg> args) {
  CudaState &state = *cuda;
  const CudaDeviceInfo &info = state.device->getInfo();
  // An explicit grid's expressions, before anything is compiled.
  RunResult result;
  llvm::Expected<GridSpec> grid = resolveLaunchGrid(options.grid, source, args);
  if (!grid)
    return grid.takeError();
  if (!grid->persistent)
    result.grid.assign(grid->sizes.begin(), grid->sizes.end());
  if (!state.function)
    if (llvm::Error err = load(args))
      return std::move(err);
  int clusterSize = TileDialect::getClusterSize(source.getKernel());
  if (state.function->clusterSize != clusterSize)
    if (llvm::Error err = state.function->setClusterSize(clusterSize))
      return std::move(err);
  const CudaFunction &function = *state.function;

  // A persistent grid, from the occupancy.
  result.where = info.getDescription();
  result.blockSize = state.blockSize;
  if (grid->persistent) {
    llvm::Expected<int64_t> programs =
        getPersistentGrid(*state.device, function, state.blockSize, grid->cap,
                          &result.gridNote, grid->waves.value_or(1));
    if (!programs)
      return programs.takeError();
    result.grid.assign({*programs});
  }
  state.launchGrid = {1, 1, 1};
  for (auto [axis, size] : llvm::enumerate(result.grid))
    state.launchGrid[axis] = static_cast<unsigned>(size);

  // Copy in, run, copy back.
  Clock::time_point start = Clock::now();
  state.deviceArgs.reset();
  state.activeArgs = options.sharedArgs;
  if (!state.activeArgs) {
    llvm::Expected<DeviceArguments> deviceArgs =
        DeviceArguments::create(*state.device, args, options.guards);
    if (!deviceArgs)
      return deviceArgs.takeError();
    state.deviceArgs.emplace(std::move(*deviceArgs));
    state.activeArgs = &*state.deviceArgs;
    timings.add("copy to the GPU", secondsSince(start),
                formatBytes(state.deviceArgs->getBufferBytes()));
  }
  start = Clock::now();
  llvm::Error launched =
      launchKernel(*state.device, function, state.launchGrid, state.blockSize,
                   state.activeArgs->getParams());
  // Tensor maps the compiler chose (tile-loads-to-descs) that this launch's
  // arguments cannot make: the kernel compiled without them, once.
  // (Not for a binary of the caller's, which would load again as it is.)
  if (launched && options.compile.tma && options.binaryFile.empty() &&
      !hasOwnTensorDescs(source))
    launched = llvm::handleErrors(
        std::move(launched), [&](const TensorMapError &why) -> llvm::Error {
          llvm::WithColor::note(source.getDiagnosticStream(), "tile-run")
              << why.message() << "; running it compiled without TMA\n";
          options.compile.tma = false;
          if (llvm::Error err = load(args))
            return llvm::joinErrors(
                llvm::make_error<TensorMapError>(why.message()),
                std::move(err));
          result.blockSize = state.blockSize;
          return launchKernel(*state.device, *state.function, state.launchGrid,
                              state.blockSize, state.activeArgs->getParams());
        });
  if (launched)
    return launched;
  if (llvm::Error err = state.device->synchronize()) {
    std::string message =
        "@" + source.getKernelName().str() +
        " failed on the GPU: " + llvm::toString(std::move(err));
    llvm::WithColor::error(source.getDiagnosticStream(), "tile-run")
        << message << "\n";
    diagnoseWithInterpreter(result.grid, args);
    return llvm::make_error<DiagnosedError>(message);
  }
  result.seconds = secondsSince(start);
  timings.add("run", result.seconds, "one launch, to cuCtxSynchronize");
  if (llvm::Error err = state.activeArgs->checkGuards(args)) {
    std::string message = "@" + source.getKernelName().str() + ": " +
                          llvm::toString(std::move(err));
    llvm::WithColor::error(source.getDiagnosticStream(), "tile-run")
        << message << "\n";
    diagnoseWithInterpreter(result.grid, args);
    return llvm::make_error<DiagnosedError>(message);
  }
  if (!options.copyBack || options.sharedArgs)
    return result;
  start = Clock::now();
  result.outputs.assign(args.begin(), args.end());
  if (llvm::Error err = state.deviceArgs->copyToHost(result.outputs))
    return std::move(err);
  timings.add("copy back", secondsSince(start));
  return result;
}

llvm::Expected<BenchReport>
KernelRunner::benchmark(const BenchOptions &bench,
                        std::optional<uint64_t> bytes) {
  if (options.target != Target::CUDA)
    return llvm::createStringError(
        "--bench times the kernel on a GPU (--target=cuda)");
  if (!cuda->activeArgs)
    return llvm::createStringError("--bench: the kernel has not run yet");
  Clock::time_point start = Clock::now();
  llvm::Expected<BenchResult> times =
      tile::benchmark(*cuda->device, *cuda->function, cuda->launchGrid,
                      cuda->blockSize, cuda->activeArgs->getParams(), bench);
  if (!times)
    return llvm::createStringError("--bench: " +
                                   llvm::toString(times.takeError()));
  timings.add("benchmark", secondsSince(start));
  BenchReport report;
  report.times = *times;
  report.options = bench;
  report.bytesGiven = bytes.has_value();
  report.bytes = bytes ? *bytes : cuda->activeArgs->getBufferBytes();
  report.gigabytesPerSecond = report.bytes / (times->median * 1e-3) / 1e9;
  return report;
}

void mlir::tile::printRunSummary(llvm::raw_ostream &os,
                                 llvm::StringRef kernelName,
                                 const RunResult &result, Target target) {
  os << "@" << kernelName << " ran on " << result.where << ": grid "
     << formatGrid(result.grid) << result.gridNote;
  int64_t programs = 1;
  for (int64_t size : result.grid)
    programs *= size;
  switch (target) {
  case Target::CPU:
    os << " (" << programs << (programs == 1 ? " program" : " programs")
       << ") in " << llvm::format("%.3f", result.seconds) << " s\n";
    return;
  case Target::CUDA:
    os << ", " << result.blockSize << " threads per block, in "
       << llvm::format("%.3f", result.seconds * 1e3) << " ms\n";
    return;
  }
}

void KernelRunner::printTimings(llvm::raw_ostream &os) const {
  timings.print(os);
  const CudaFunction *function = getFunction();
  if (!function)
    return;
  os << "kernel @" << function->name << ": " << function->numRegisters
     << " registers per thread, "
     << function->sharedBytes + function->dynamicSharedBytes
     << " bytes of shared memory, " << function->localBytes
     << " bytes of local memory\n";
  if (!cuda->jitLog.info.empty())
    os << "the JIT's info log:\n" << cuda->jitLog.info << "\n";
}
