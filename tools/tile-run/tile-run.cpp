//===- tile-run.cpp - Run a tile kernel -----------------------------------===//
//
//   tile-run KERNEL.mlir [--kernel NAME] [-D NAME=VALUE]... [--target=cpu|cuda]
//            --grid X[,Y[,Z]]|persistent[:N] --arg SPEC...
//            [--out INDEX=FILE.npy]... [--check] [--bench] [--timing]
//   tile-run KERNEL.mlir --emit=ptx|cubin [-o FILE] [--arg SPEC...]
//   tile-run --list-devices
//
// Specializes and parses the kernel file, makes one argument per `--arg`
// spec (tile/Runner/ArgSpec.h), runs the kernel over the grid, and writes
// the buffers named by `--out` as .npy files. The CPU target is the
// interpreter (tile/Interpreter/Interpreter.h); the CUDA target compiles the
// kernel in-process and runs it on a GPU through the runtime library
// (tile/Runtime/Compiler.h, tile/Runtime/Cuda.h). docs/runner.md describes
// the CUDA side. Every error is a message and a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Runner/ArgSpec.h"
#include "tile/Runner/Compare.h"
#include "tile/Runner/Npy.h"
#include "tile/Runtime/Compiler.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Specialize/Specialize.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>

using namespace mlir;
using namespace mlir::tile;

namespace {
enum class Target { CPU, CUDA };
enum class Emit { None, PTX, Cubin };
} // namespace

static llvm::cl::OptionCategory runCategory("tile-run options");
static llvm::cl::OptionCategory cudaCategory("tile-run options for CUDA");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<kernel file>"),
                                                llvm::cl::init("-"),
                                                llvm::cl::cat(runCategory));

static llvm::cl::opt<std::string> kernelName(
    "kernel",
    llvm::cl::desc("The kernel to run (default: the only one in the file)"),
    llvm::cl::value_desc("NAME"), llvm::cl::cat(runCategory));

static llvm::cl::list<std::string>
    defines("D",
            llvm::cl::desc("Set a specialization parameter that the kernel "
                           "declares with '// tile.param NAME = DEFAULT'"),
            llvm::cl::value_desc("NAME=VALUE"), llvm::cl::Prefix,
            llvm::cl::cat(runCategory));

static llvm::cl::opt<Target> target(
    "target",
    llvm::cl::desc("Where the kernel runs (default: $TILE_TARGET, else cuda "
                   "where a GPU answers, else cpu)"),
    llvm::cl::values(clEnumValN(Target::CPU, "cpu", "the CPU interpreter"),
                     clEnumValN(Target::CUDA, "cuda",
                                "an NVIDIA GPU, through the CUDA driver")),
    llvm::cl::cat(runCategory));

static llvm::cl::opt<std::string> gridOption(
    "grid",
    llvm::cl::desc("The launch grid: programs along x, y and z; on a GPU "
                   "also 'persistent' (SMs x the blocks per SM that fit) or "
                   "'persistent:N' (that, at most N)"),
    llvm::cl::value_desc("X[,Y[,Z]]|persistent[:N]"),
    llvm::cl::cat(runCategory));

static llvm::cl::list<std::string> argOptions(
    "arg",
    llvm::cl::desc("One kernel argument, given once per parameter in order: "
                   "TYPE[SHAPE]=randn:SEED | uniform:SEED | zeros | "
                   "fill:VALUE | @FILE.npy for a pointer, TYPE=VALUE for a "
                   "scalar (f32[1823x781]=randn:0, i32=781)"),
    llvm::cl::value_desc("SPEC"), llvm::cl::cat(runCategory));

static llvm::cl::list<std::string> outOptions(
    "out",
    llvm::cl::desc("After the run, write the buffer of parameter INDEX to a "
                   ".npy file"),
    llvm::cl::value_desc("INDEX=FILE.npy"), llvm::cl::cat(runCategory));

static llvm::cl::opt<bool> listDevices(
    "list-devices",
    llvm::cl::desc("List the GPUs the CUDA driver sees, and exit (non-zero "
                   "without a driver or a GPU)"),
    llvm::cl::cat(cudaCategory));

static llvm::cl::opt<int> deviceOption("device",
                                       llvm::cl::desc("The GPU to run on"),
                                       llvm::cl::value_desc("N"),
                                       llvm::cl::init(0),
                                       llvm::cl::cat(cudaCategory));

static llvm::cl::opt<unsigned> numWarpsOption(
    "num-warps",
    llvm::cl::desc("Warps per block for a kernel without tile.num_warps "
                   "(default 4)"),
    llvm::cl::value_desc("N"), llvm::cl::init(4), llvm::cl::cat(cudaCategory));

static llvm::cl::opt<std::string>
    chipOption("chip",
               llvm::cl::desc("The GPU to compile for, such as sm_90 "
                              "(default: the GPU's own)"),
               llvm::cl::value_desc("sm_XY"), llvm::cl::cat(cudaCategory));

static llvm::cl::opt<bool> checkOption(
    "check",
    llvm::cl::desc("Also run the kernel on the CPU interpreter and compare "
                   "every buffer; fail past the tolerance"),
    llvm::cl::cat(cudaCategory));

static llvm::cl::opt<double>
    rtolOption("rtol",
               llvm::cl::desc("--check's relative tolerance (default by "
                              "type: f32 1e-5, f16 2e-3, bf16 1.6e-2)"),
               llvm::cl::cat(cudaCategory));

static llvm::cl::opt<double>
    atolOption("atol",
               llvm::cl::desc("--check's absolute tolerance (default by "
                              "type: f32 1e-7, f16 and bf16 1e-6)"),
               llvm::cl::cat(cudaCategory));

static llvm::cl::opt<bool> benchOption(
    "bench",
    llvm::cl::desc("Time the kernel with CUDA events: warm-up runs, then "
                   "timed runs with L2 flushed before each; print the "
                   "median, min, max and GB/s"),
    llvm::cl::cat(cudaCategory));

static llvm::cl::opt<unsigned>
    benchReps("bench-reps", llvm::cl::desc("Timed runs of --bench"),
              llvm::cl::value_desc("N"), llvm::cl::init(100),
              llvm::cl::cat(cudaCategory));

static llvm::cl::opt<unsigned>
    benchWarmup("bench-warmup", llvm::cl::desc("Warm-up runs of --bench"),
                llvm::cl::value_desc("N"), llvm::cl::init(10),
                llvm::cl::cat(cudaCategory));

static llvm::cl::opt<uint64_t> bytesOption(
    "bytes",
    llvm::cl::desc("The bytes one run moves, for --bench's GB/s (default: "
                   "the size of every buffer argument, each counted once)"),
    llvm::cl::value_desc("N"), llvm::cl::cat(cudaCategory));

static llvm::cl::opt<Emit> emitOption(
    "emit", llvm::cl::desc("Write the compiled kernel instead of running it"),
    llvm::cl::values(clEnumValN(Emit::PTX, "ptx", "PTX text"),
                     clEnumValN(Emit::Cubin, "cubin",
                                "a cubin, through the CUDA toolkit's ptxas")),
    llvm::cl::init(Emit::None), llvm::cl::cat(cudaCategory));

static llvm::cl::opt<std::string>
    outputFilename("o", llvm::cl::desc("Where --emit writes (default: stdout)"),
                   llvm::cl::value_desc("FILE"), llvm::cl::init("-"),
                   llvm::cl::cat(cudaCategory));

static llvm::cl::opt<std::string>
    cudaPath("cuda-path",
             llvm::cl::desc("The CUDA toolkit whose ptxas --emit=cubin uses"),
             llvm::cl::value_desc("DIR"), llvm::cl::init("/usr/local/cuda"),
             llvm::cl::cat(cudaCategory));

static llvm::cl::opt<std::string> ptxOption(
    "ptx",
    llvm::cl::desc("Load this PTX (or cubin) instead of compiling the "
                   "kernel; the kernel file still gives the signature and "
                   "the block size"),
    llvm::cl::value_desc("FILE"), llvm::cl::cat(cudaCategory));

static llvm::cl::opt<bool> noCache(
    "no-cache",
    llvm::cl::desc("Compile even when the on-disk cache ($TILE_CACHE_DIR, "
                   "$XDG_CACHE_HOME/tile or ~/.cache/tile) has the kernel, "
                   "and store nothing there"),
    llvm::cl::cat(cudaCategory));

static llvm::cl::opt<bool> noGuards(
    "no-guards",
    llvm::cl::desc("Give each buffer an allocation of its own size, without "
                   "the guard zones that catch writes past its ends (for "
                   "compute-sanitizer, which then sees every such access)"),
    llvm::cl::cat(cudaCategory));

static llvm::cl::opt<bool> timingOption(
    "timing",
    llvm::cl::desc("Print how long parsing, each pass of the pipeline, the "
                   "driver's JIT and the run took"),
    llvm::cl::cat(cudaCategory));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tile-run") << message << "\n";
  return 1;
}

static void note(const llvm::Twine &message) {
  llvm::WithColor::note(llvm::errs(), "tile-run") << message << "\n";
}

namespace {
/// --grid: explicit sizes, or persistent with an optional cap.
struct GridSpec {
  SmallVector<int64_t, 3> sizes;
  bool persistent = false;
  int64_t cap = 0; // 0: no cap
};

using Clock = std::chrono::steady_clock;

/// The rows --timing prints.
struct Timings {
  struct Row {
    std::string label;
    double seconds;
    std::string detail;
    unsigned depth;
  };
  std::vector<Row> rows;

  void add(llvm::StringRef label, double seconds, llvm::StringRef detail = "",
           unsigned depth = 0) {
    rows.push_back({label.str(), seconds, detail.str(), depth});
  }
  void print(llvm::raw_ostream &os) const {
    os << "timing:\n";
    for (const Row &row : rows) {
      std::string label = std::string(2 + 2 * row.depth, ' ') + row.label;
      os << llvm::left_justify(label, 40)
         << llvm::format("%10.3f ms", row.seconds * 1e3);
      if (!row.detail.empty())
        os << "  " << row.detail;
      os << "\n";
    }
  }
};

/// Seconds since `start`.
double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
} // namespace

/// Parses --grid: one to three positive sizes separated by commas, or
/// persistent[:N].
static std::optional<GridSpec> parseGrid(llvm::StringRef text) {
  GridSpec grid;
  auto parseSize = [](llvm::StringRef part, int64_t &size) {
    return !part.empty() && llvm::all_of(part, llvm::isDigit) &&
           !part.getAsInteger(10, size) && size >= 1 && size <= INT32_MAX;
  };
  if (text == "persistent" || text.starts_with("persistent:")) {
    grid.persistent = true;
    if (text.consume_front("persistent:") && !parseSize(text, grid.cap))
      return std::nullopt;
    return grid;
  }
  SmallVector<llvm::StringRef, 3> parts;
  text.split(parts, ',');
  if (parts.size() > 3)
    return std::nullopt;
  for (llvm::StringRef part : parts) {
    int64_t size;
    if (!parseSize(part, size))
      return std::nullopt;
    grid.sizes.push_back(size);
  }
  return grid;
}

static std::string formatGrid(ArrayRef<int64_t> grid) {
  return llvm::join(
      llvm::map_range(grid, [](int64_t s) { return llvm::itostr(s); }), "x");
}

/// Finds the kernel to run: the one named by --kernel, or the only one.
static FuncOp findKernel(ModuleOp module, llvm::StringRef file) {
  SmallVector<FuncOp> kernels(module.getOps<FuncOp>());
  std::string names =
      llvm::join(llvm::map_range(kernels,
                                 [](FuncOp kernel) {
                                   return "@" + kernel.getSymName().str();
                                 }),
                 ", ");
  if (!kernelName.empty()) {
    for (FuncOp kernel : kernels)
      if (kernel.getSymName() == kernelName)
        return kernel;
    fail("no kernel named '" + kernelName + "' in " + file +
         (kernels.empty() ? llvm::Twine(" (it has none)")
                          : llvm::Twine(" (it has ") + names + ")"));
    return nullptr;
  }
  if (kernels.size() == 1)
    return kernels.front();
  if (kernels.empty())
    fail(file + " has no kernel (no tile.func)");
  else
    fail(file + " has " + llvm::Twine(kernels.size()) + " kernels (" + names +
         "); choose one with --kernel NAME");
  return nullptr;
}

static std::string describeSignature(FuncOp kernel) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "@" << kernel.getSymName() << "(";
  llvm::interleaveComma(kernel.getArgumentTypes(), os);
  os << ")";
  return result;
}

static void warnAboutCache(const CompiledKernel &compiled) {
  if (!compiled.cacheWarning.empty())
    llvm::WithColor::warning(llvm::errs(), "tile-run")
        << "the compile cache is not used: " << compiled.cacheWarning << "\n";
}

/// --list-devices.
static int printDevices() {
  llvm::Expected<int> count = getCudaDeviceCount();
  if (!count)
    return fail(llvm::toString(count.takeError()));
  if (*count == 0)
    return fail("the CUDA driver found no GPU");
  for (int ordinal = 0; ordinal < *count; ++ordinal) {
    llvm::Expected<std::unique_ptr<CudaDevice>> device =
        CudaDevice::open(ordinal);
    if (!device)
      return fail(llvm::toString(device.takeError()));
    const CudaDeviceInfo &info = (*device)->getInfo();
    llvm::outs() << ordinal << ": " << info.getDescription() << ", "
                 << llvm::format("%.1f", info.totalMemoryBytes / 1073741824.0)
                 << " GiB, CUDA driver " << info.driverVersion / 1000 << "."
                 << info.driverVersion % 1000 / 10 << "\n";
  }
  return 0;
}

/// Writes `data` to --o ('-' is stdout), atomically for a file.
static int writeOutput(llvm::StringRef data) {
  if (outputFilename == "-") {
    llvm::outs() << data;
    llvm::outs().flush();
    return 0;
  }
  if (llvm::Error err =
          llvm::writeToOutput(outputFilename, [&](llvm::raw_ostream &os) {
            os << data;
            return llvm::Error::success();
          }))
    return fail("cannot write " + llvm::toString(std::move(err)));
  return 0;
}

/// Runs the kernel on the interpreter over `args` after a GPU failure, to
/// name the access that went wrong.
static void diagnoseWithInterpreter(FuncOp kernel, ArrayRef<int64_t> grid,
                                    MutableArrayRef<KernelArg> args) {
  {
    // Unsupported ops are no finding here: say nothing about them.
    ScopedDiagnosticHandler quiet(kernel.getContext(),
                                  [](Diagnostic &) { return success(); });
    if (failed(checkInterpretable(kernel)))
      return;
  }
  note("running @" + kernel.getSymName() +
       " on the CPU interpreter with the same arguments, to find the fault");
  if (succeeded(interpretKernel(kernel, grid, args)))
    note("the CPU interpreter ran it without error");
}

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

/// --check: the GPU's buffers against the interpreter's.
static bool checkResults(ArrayRef<KernelArg> gpu,
                         ArrayRef<KernelArg> reference) {
  bool passed = true;
  llvm::outs() << "check against the CPU interpreter:\n";
  for (auto [index, pair] : llvm::enumerate(llvm::zip_equal(gpu, reference))) {
    const KernelArg &actual = std::get<0>(pair);
    const KernelArg &expected = std::get<1>(pair);
    if (!actual.isBuffer())
      continue;
    const HostBuffer &buffer = actual.getBuffer();
    Tolerance tolerance = getDefaultTolerance(buffer.getDataType());
    if (rtolOption.getNumOccurrences())
      tolerance.rtol = rtolOption;
    if (atolOption.getNumOccurrences())
      tolerance.atol = atolOption;
    llvm::outs() << "  argument " << index << " (" << buffer.getDescription()
                 << "): ";
    llvm::Expected<BufferComparison> result =
        compareBuffers(buffer, expected.getBuffer(), tolerance);
    if (!result) {
      llvm::outs() << llvm::toString(result.takeError()) << "\n";
      passed = false;
      continue;
    }
    if (result->identical) {
      llvm::outs() << "identical\n";
      continue;
    }
    llvm::outs() << llvm::format("max abs error %.3g, max rel error %.3g",
                                 result->maxAbsError, result->maxRelError);
    if (result->passed()) {
      llvm::outs() << llvm::format(" (rtol %g, atol %g): OK\n", tolerance.rtol,
                                   tolerance.atol);
      continue;
    }
    passed = false;
    llvm::outs() << llvm::format(
                        "; %lld of %lld elements past rtol %g, atol %g; the "
                        "worst, at ",
                        static_cast<long long>(result->mismatches),
                        static_cast<long long>(result->elements),
                        tolerance.rtol, tolerance.atol)
                 << formatIndex(buffer.getShape(), result->worstIndex)
                 << llvm::format(", is %.9g on the GPU and %.9g on the "
                                 "interpreter: FAILED\n",
                                 result->worstActual, result->worstExpected);
  }
  return passed;
}

/// The CUDA target: compile, load, launch, then check, time and write.
static int runOnCuda(FuncOp kernel, const GridSpec &gridSpec,
                     ArrayRef<ArgSpec> specs,
                     const std::map<unsigned, std::string> &outputs,
                     Timings &timings) {
  Clock::time_point start = Clock::now();
  llvm::Expected<std::unique_ptr<CudaDevice>> opened =
      CudaDevice::open(deviceOption);
  if (!opened)
    return fail(llvm::toString(opened.takeError()));
  CudaDevice &device = **opened;
  const CudaDeviceInfo &info = device.getInfo();
  timings.add("open the GPU", since(start), info.getDescription());

  start = Clock::now();
  SmallVector<KernelArg> args;
  for (auto [index, spec] : llvm::enumerate(specs)) {
    llvm::Expected<KernelArg> arg = createKernelArg(spec);
    if (!arg)
      return fail("--arg " + llvm::Twine(index) + " ('" + argOptions[index] +
                  "'): " + llvm::toString(arg.takeError()));
    args.push_back(std::move(*arg));
  }
  timings.add("make the arguments", since(start));

  // Compile (or read the cache), specialized on these arguments.
  CompileOptions options;
  options.chip = chipOption.empty() ? info.getChip() : chipOption.getValue();
  options.numWarps = numWarpsOption;
  options.cacheDir = noCache ? "" : getDefaultCacheDir();
  std::string binary;
  std::string binaryOrigin;
  unsigned blockSize = 32 * getKernelNumWarps(kernel, options);
  start = Clock::now();
  if (!ptxOption.empty()) {
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(ptxOption, &error);
    if (!file)
      return fail(error);
    binary = file->getBuffer().str();
    binaryOrigin = " (from " + ptxOption + ")";
    timings.add("read the PTX", since(start), ptxOption);
  } else {
    llvm::Expected<KernelSpecialization> specialization =
        specializeArguments(kernel, args);
    if (!specialization)
      return fail(llvm::toString(specialization.takeError()));
    llvm::Expected<CompiledKernel> compiled =
        compileKernel(kernel, *specialization, options);
    if (!compiled)
      return fail(llvm::toString(compiled.takeError()));
    warnAboutCache(*compiled);
    std::string detail =
        options.chip + ", divisibility {" + specialization->str() + "}, ";
    if (compiled->fromCache)
      detail += "from the cache: " + compiled->cachePath;
    else if (!compiled->cachePath.empty())
      detail += "stored in the cache: " + compiled->cachePath;
    else
      detail += "not cached";
    timings.add("compile", since(start), detail);
    for (const PassTiming &pass : compiled->passTimings)
      timings.add(pass.pass, pass.seconds, "", 1);
    binary = std::move(compiled->binary);
    blockSize = compiled->getBlockSize();
    if (compiled->fromCache)
      binaryOrigin = " (from the cache " + compiled->cachePath + ")";
  }

  // JIT-load and look the kernel up.
  start = Clock::now();
  CudaDevice::JitLog jitLog;
  llvm::Expected<std::unique_ptr<CudaModule>> module =
      device.loadModule(binary, &jitLog);
  if (!module)
    return fail("the CUDA driver rejected the compiled @" +
                kernel.getSymName() + binaryOrigin + ": " +
                llvm::toString(module.takeError()));
  timings.add("JIT (cuModuleLoadDataEx)", since(start),
              llvm::formatv("the JIT's own wall time {0:f3} ms",
                            jitLog.wallMilliseconds)
                  .str());
  llvm::Expected<CudaFunction> function =
      (*module)->getFunction(kernel.getSymName());
  if (!function)
    return fail(llvm::toString(function.takeError()) + binaryOrigin);
  if (llvm::Error err = function->checkParameters(specs.size()))
    return fail(llvm::toString(std::move(err)) + binaryOrigin);

  // The grid: explicit, or persistent from the occupancy.
  SmallVector<int64_t, 3> grid(gridSpec.sizes);
  std::string gridNote;
  if (gridSpec.persistent) {
    llvm::Expected<int> perSM =
        function->getMaxActiveBlocksPerMultiprocessor(blockSize);
    if (!perSM)
      return fail(llvm::toString(perSM.takeError()));
    if (*perSM == 0)
      return fail("@" + kernel.getSymName() + " cannot run " +
                  llvm::Twine(blockSize) + " threads per block on " +
                  info.name + " (" + llvm::Twine(function->numRegisters) +
                  " registers per thread, " +
                  llvm::Twine(function->sharedBytes) +
                  " bytes of shared memory per block)");
    int64_t programs = int64_t(info.multiprocessorCount) * *perSM;
    gridNote = llvm::formatv(" (persistent: {0} SMs x {1} {2} per SM",
                             info.multiprocessorCount, *perSM,
                             *perSM == 1 ? "block" : "blocks")
                   .str();
    if (gridSpec.cap && gridSpec.cap < programs) {
      gridNote += ", capped at " + std::to_string(gridSpec.cap);
      programs = gridSpec.cap;
    }
    gridNote += ")";
    grid.assign({programs});
  }
  std::array<unsigned, 3> launchGrid = {1, 1, 1};
  for (auto [axis, size] : llvm::enumerate(grid))
    launchGrid[axis] = static_cast<unsigned>(size);

  // Copy in, run, copy back.
  start = Clock::now();
  llvm::Expected<DeviceArguments> deviceArgs =
      DeviceArguments::create(device, args, /*guards=*/!noGuards);
  if (!deviceArgs)
    return fail(llvm::toString(deviceArgs.takeError()));
  timings.add("copy to the GPU", since(start),
              formatBytes(deviceArgs->getBufferBytes()));
  start = Clock::now();
  llvm::Error launched = launchKernel(device, *function, launchGrid, blockSize,
                                      deviceArgs->getParams());
  if (launched)
    return fail(llvm::toString(std::move(launched)));
  if (llvm::Error err = device.synchronize()) {
    fail("@" + kernel.getSymName() +
         " failed on the GPU: " + llvm::toString(std::move(err)));
    diagnoseWithInterpreter(kernel, grid, args);
    return 1;
  }
  double runSeconds = since(start);
  timings.add("run", runSeconds, "one launch, to cuCtxSynchronize");
  if (llvm::Error err = deviceArgs->checkGuards(args)) {
    fail("@" + kernel.getSymName() + ": " + llvm::toString(std::move(err)));
    diagnoseWithInterpreter(kernel, grid, args);
    return 1;
  }
  start = Clock::now();
  SmallVector<KernelArg> results(args.begin(), args.end());
  if (llvm::Error err = deviceArgs->copyToHost(results))
    return fail(llvm::toString(std::move(err)));
  timings.add("copy back", since(start));

  llvm::outs() << "@" << kernel.getSymName() << " ran on "
               << info.getDescription() << ": grid " << formatGrid(grid)
               << gridNote << ", " << blockSize << " threads per block, in "
               << llvm::format("%.3f", runSeconds * 1e3) << " ms\n";

  // --check: the same arguments through the interpreter.
  bool checked = true;
  if (checkOption) {
    start = Clock::now();
    if (failed(interpretKernel(kernel, grid, args)))
      return fail("the CPU interpreter failed on the same arguments");
    timings.add("CPU interpreter (--check)", since(start));
    checked = checkResults(results, args);
  }

  // --bench.
  if (benchOption) {
    BenchOptions bench;
    bench.repetitions = benchReps;
    bench.warmup = benchWarmup;
    start = Clock::now();
    llvm::Expected<BenchResult> result =
        benchmark(device, *function, launchGrid, blockSize,
                  deviceArgs->getParams(), bench);
    if (!result)
      return fail("--bench: " + llvm::toString(result.takeError()));
    timings.add("benchmark", since(start));
    uint64_t bytes = bytesOption.getNumOccurrences()
                         ? bytesOption.getValue()
                         : deviceArgs->getBufferBytes();
    double gbps = bytes / (result->median * 1e-3) / 1e9;
    llvm::outs() << llvm::format(
        "bench: median %.4f ms (min %.4f, max %.4f) over %u runs after %u "
        "warm-up runs, %.1f GB/s (%llu bytes: %s); L2 flushed before each "
        "run (%s written)\n",
        result->median, result->min, result->max, bench.repetitions,
        bench.warmup, gbps, static_cast<unsigned long long>(bytes),
        bytesOption.getNumOccurrences()
            ? "--bytes"
            : "every buffer argument read or written once",
        formatBytes(result->flushBytes).c_str());
  }

  for (const auto &[index, path] : outputs) {
    const HostBuffer &buffer = results[index].getBuffer();
    if (llvm::Error err = writeNpyFile(path, buffer))
      return fail(llvm::toString(std::move(err)));
    llvm::outs() << "wrote argument " << index << " ("
                 << buffer.getDescription() << ") to " << path << "\n";
  }
  if (timingOption) {
    timings.print(llvm::outs());
    llvm::outs() << "kernel @" << function->name << ": "
                 << function->numRegisters << " registers per thread, "
                 << function->sharedBytes << " bytes of shared memory, "
                 << function->localBytes << " bytes of local memory\n";
    if (!jitLog.info.empty())
      llvm::outs() << "the JIT's info log:\n" << jitLog.info << "\n";
  }
  if (!checked)
    return fail("--check: the GPU's results differ from the interpreter's");
  return 0;
}

/// --emit: compile only, specialized on the arguments when they are given.
static int emitCode(FuncOp kernel, ArrayRef<ArgSpec> specs, Timings &timings) {
  CompileOptions options;
  options.numWarps = numWarpsOption;
  options.cudaPath = cudaPath;
  options.format =
      emitOption == Emit::Cubin ? OutputFormat::Cubin : OutputFormat::PTX;
  options.cacheDir = noCache ? "" : getDefaultCacheDir();
  if (!chipOption.empty()) {
    options.chip = chipOption;
  } else {
    llvm::Expected<std::unique_ptr<CudaDevice>> device =
        CudaDevice::open(deviceOption);
    if (!device)
      return fail("--emit compiles for the GPU's own chip, and there is "
                  "none: " +
                  llvm::toString(device.takeError()) +
                  "\nname the chip with --chip, such as --chip=sm_90");
    options.chip = (*device)->getInfo().getChip();
  }

  KernelSpecialization specialization;
  if (!specs.empty()) {
    // The values of scalars and which arguments are buffers are all the
    // specialization needs: the buffers stay empty.
    SmallVector<KernelArg> args;
    for (const ArgSpec &spec : specs) {
      if (spec.isBuffer())
        args.push_back(llvm::cantFail(HostBuffer::create(spec.type, {0})));
      else
        args.push_back(spec.value);
    }
    llvm::Expected<KernelSpecialization> fromArgs =
        specializeArguments(kernel, args);
    if (!fromArgs)
      return fail(llvm::toString(fromArgs.takeError()));
    specialization = *fromArgs;
  }
  Clock::time_point start = Clock::now();
  llvm::Expected<CompiledKernel> compiled =
      compileKernel(kernel, specialization, options);
  if (!compiled)
    return fail(llvm::toString(compiled.takeError()));
  warnAboutCache(*compiled);
  timings.add("compile", since(start),
              options.chip + ", divisibility {" + specialization.str() + "}" +
                  (compiled->fromCache ? ", from the cache" : ""));
  for (const PassTiming &pass : compiled->passTimings)
    timings.add(pass.pass, pass.seconds, "", 1);
  if (int status = writeOutput(compiled->binary))
    return status;
  if (timingOption)
    timings.print(outputFilename == "-" ? llvm::errs() : llvm::outs());
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::HideUnrelatedOptions({&runCategory, &cudaCategory});
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "  tile: " << getCompilerVersion() << ", CUDA runtime "
       << (isCudaRuntimeBuiltIn() ? "built in" : "not built") << "\n";
  });
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "tile-run: run a tile kernel\n\n"
      "  tile-run KERNEL.mlir [--kernel NAME] [-D NAME=VALUE]... "
      "[--target=cpu|cuda]\n"
      "           --grid X[,Y[,Z]]|persistent[:N] --arg SPEC... "
      "[--out INDEX=FILE.npy]...\n"
      "           [--check] [--bench] [--timing]\n"
      "  tile-run KERNEL.mlir --emit=ptx|cubin [-o FILE] [--chip sm_XY] "
      "[--arg SPEC]...\n"
      "  tile-run --list-devices\n");

  if (listDevices)
    return printDevices();

  // The options, before any work.
  bool emitting = emitOption != Emit::None;
  if (numWarpsOption == 0 || numWarpsOption > 32 ||
      !llvm::isPowerOf2_32(numWarpsOption))
    return fail("--num-warps expects a power of two from 1 to 32, got " +
                llvm::Twine(numWarpsOption));
  if (!chipOption.empty()) {
    llvm::StringRef chip = chipOption;
    if (!chip.consume_front("sm_") || chip.empty() ||
        !llvm::isDigit(chip.front()))
      return fail("--chip expects sm_ and a compute capability, such as "
                  "sm_90, got '" +
                  chipOption + "'");
  }
  if (emitting) {
    for (auto *option : {&checkOption, &benchOption})
      if (*option)
        return fail(llvm::Twine("--") + option->ArgStr +
                    " runs the kernel; --emit only compiles it");
    if (!outOptions.empty() || !ptxOption.empty())
      return fail(llvm::Twine("--") + (outOptions.empty() ? "ptx" : "out") +
                  " runs the kernel; --emit only compiles it");
  }

  // The target: --target, else $TILE_TARGET, else cuda where a GPU answers.
  Target runTarget = target;
  if (!emitting && target.getNumOccurrences() == 0) {
    llvm::StringRef fromEnv =
        std::getenv("TILE_TARGET") ? std::getenv("TILE_TARGET") : "";
    if (fromEnv == "cpu") {
      runTarget = Target::CPU;
    } else if (fromEnv == "cuda") {
      runTarget = Target::CUDA;
    } else if (!fromEnv.empty()) {
      return fail("TILE_TARGET is '" + fromEnv + "'; expected cpu or cuda");
    } else {
      llvm::Expected<int> count = getCudaDeviceCount();
      runTarget = count && *count > 0 ? Target::CUDA : Target::CPU;
      if (!count)
        llvm::consumeError(count.takeError());
    }
  }
  if (!emitting && runTarget == Target::CPU) {
    for (auto *option : {&checkOption, &benchOption})
      if (*option)
        return fail(llvm::Twine("--") + option->ArgStr +
                    " needs a GPU (--target=cuda): it " +
                    (option == &checkOption
                         ? "compares the GPU's results with the interpreter's"
                         : "times the kernel on the GPU"));
    if (!ptxOption.empty())
      return fail("--ptx needs a GPU (--target=cuda)");
  }
  if (!emitting && runTarget == Target::CUDA && !isCudaRuntimeBuiltIn())
    return fail(llvm::toString(CudaDevice::open().takeError()));

  GridSpec gridSpec;
  if (!emitting) {
    if (gridOption.getNumOccurrences() == 0)
      return fail("--grid is required: the number of programs along x, y and "
                  "z, such as --grid 1823 or --grid 16,8 (on a GPU also "
                  "--grid persistent)");
    std::optional<GridSpec> parsed = parseGrid(gridOption);
    if (!parsed)
      return fail("--grid expects X[,Y[,Z]], one to three sizes from 1 to "
                  "2147483647, or persistent[:N], got '" +
                  gridOption + "'");
    gridSpec = *parsed;
    if (gridSpec.persistent && runTarget == Target::CPU)
      return fail("--grid " + gridOption +
                  " sizes the grid from a GPU's occupancy; give the CPU "
                  "interpreter the grid itself, such as --grid 1823");
  }

  // --out INDEX=FILE.npy, one per parameter at most.
  std::map<unsigned, std::string> outputs;
  for (const std::string &out : outOptions) {
    auto [indexText, path] = llvm::StringRef(out).split('=');
    unsigned index;
    if (indexText.empty() || !llvm::all_of(indexText, llvm::isDigit) ||
        indexText.getAsInteger(10, index) || path.empty())
      return fail("--out expects INDEX=FILE.npy, such as --out 0=y.npy, got '" +
                  out + "'");
    if (!outputs.emplace(index, path.str()).second)
      return fail("--out " + llvm::Twine(index) + " is given twice");
  }

  Timings timings;
  Clock::time_point start = Clock::now();
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  input = specialize(std::move(input), defines, llvm::errs());
  if (!input)
    return 1;

  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  // Runtime errors name the op by its source line; the generic form of the
  // op would only repeat it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnosticHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;
  FuncOp kernel = findKernel(*module, inputFilename);
  if (!kernel)
    return 1;
  timings.add("parse", since(start), "specialize, parse and verify");

  // One spec per parameter, checked against its type before any buffer is
  // made or read. --emit may go without.
  ArrayRef<Type> paramTypes = kernel.getArgumentTypes();
  if (argOptions.size() != paramTypes.size() &&
      !(emitting && argOptions.empty()))
    return fail(describeSignature(kernel) + " takes " +
                llvm::Twine(paramTypes.size()) + " arguments; --arg gives " +
                llvm::Twine(argOptions.size()));
  SmallVector<ArgSpec> specs;
  for (auto [index, text] : llvm::enumerate(argOptions)) {
    auto argError = [&, index = index, &text = text](llvm::Error err) {
      return fail("--arg " + llvm::Twine(index) + " ('" + text +
                  "'): " + llvm::toString(std::move(err)));
    };
    llvm::Expected<ArgSpec> spec = parseArgSpec(text);
    if (!spec)
      return argError(spec.takeError());
    if (llvm::Error err =
            checkArgumentType(paramTypes[index], spec->type, spec->isBuffer()))
      return argError(std::move(err));
    specs.push_back(std::move(*spec));
  }
  for (const auto &[index, path] : outputs) {
    if (index >= paramTypes.size())
      return fail("--out " + llvm::Twine(index) + "=" + path + ": " +
                  describeSignature(kernel) + " has no parameter " +
                  llvm::Twine(index));
    if (!specs[index].isBuffer())
      return fail("--out " + llvm::Twine(index) + "=" + path + ": parameter " +
                  llvm::Twine(index) +
                  " is a scalar; only buffers can be written");
  }

  if (emitting)
    return emitCode(kernel, specs, timings);
  if (runTarget == Target::CUDA) {
    if (checkOption && failed(checkInterpretable(kernel)))
      return fail("--check needs the CPU interpreter, which cannot run @" +
                  kernel.getSymName());
    return runOnCuda(kernel, gridSpec, specs, outputs, timings);
  }

  if (failed(checkInterpretable(kernel)))
    return 1;
  SmallVector<KernelArg> args;
  for (auto [index, spec] : llvm::enumerate(specs)) {
    llvm::Expected<KernelArg> arg = createKernelArg(spec);
    if (!arg)
      return fail("--arg " + llvm::Twine(index) + " ('" + argOptions[index] +
                  "'): " + llvm::toString(arg.takeError()));
    args.push_back(std::move(*arg));
  }

  ArrayRef<int64_t> grid = gridSpec.sizes;
  start = Clock::now();
  if (failed(interpretKernel(kernel, grid, args)))
    return 1;
  double elapsed = since(start);
  timings.add("run", elapsed, "the CPU interpreter");
  int64_t programs = 1;
  for (int64_t size : grid)
    programs *= size;
  llvm::outs() << "@" << kernel.getSymName()
               << " ran on the CPU interpreter: grid " << formatGrid(grid)
               << " (" << programs << (programs == 1 ? " program" : " programs")
               << ") in " << llvm::format("%.3f", elapsed) << " s\n";

  for (const auto &[index, path] : outputs) {
    const HostBuffer &buffer = args[index].getBuffer();
    if (llvm::Error err = writeNpyFile(path, buffer))
      return fail(llvm::toString(std::move(err)));
    llvm::outs() << "wrote argument " << index << " ("
                 << buffer.getDescription() << ") to " << path << "\n";
  }
  if (timingOption)
    timings.print(llvm::outs());
  return 0;
}
