//===- KernelRunner.h - Running kernels on the CPU or a GPU -----*- C++ -*-===//
//
// The whole path of a launch, as one library that tile-run, C++ programs and
// the Python package share:
//
//   KernelSource::Options sourceOptions;
//   sourceOptions.defines = {"BLOCK_SIZE=1024"};
//   auto source = KernelSource::loadFile("softmax.mlir", sourceOptions);
//   // Parse the argument specs, check them against the signature
//   // (checkArgSpec) and make them (createKernelArg).
//   SmallVector<KernelArg> args = ...;
//   RunOptions options;
//   options.target = Target::CUDA; // or Target::CPU: the interpreter
//   options.grid = *GridSpec::parse("persistent");
//   auto runner = KernelRunner::create(**source, options);
//   // Compile (or take from the cache), JIT, launch.
//   auto result = (*runner)->run(args);
//   auto check = checkAgainstInterpreter(**source, result->grid, args,
//                                        result->outputs, {});
//   auto bench = (*runner)->benchmark(BenchOptions());
//
// KernelSource owns the MLIR context the kernel lives in and prints the
// diagnostics of the kernel file (preprocessing, parsing, verification, and
// the interpreter's runtime errors, each with its source line) to the
// stream it is given. Errors that were printed that way come back as a
// DiagnosedError, whose message the caller need not print again; every other
// error is an llvm::Error with a message for the user.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_KERNELRUNNER_H
#define TILE_RUNTIME_KERNELRUNNER_H

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/HostData/ArgSpec.h"
#include "tile/HostData/Compare.h"
#include "tile/HostData/KernelArg.h"
#include "tile/Preprocessor/Preprocessor.h"
#include "tile/Runtime/Compiler.h"
#include "tile/Runtime/Cuda.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
class raw_ostream;
} // namespace llvm

namespace mlir {
class MLIRContext;
namespace tile {

//===----------------------------------------------------------------------===//
// Errors already reported
//===----------------------------------------------------------------------===//

/// An error whose details were printed as diagnostics (with the kernel's
/// source lines) to the KernelSource's stream; its message only summarizes.
class DiagnosedError : public llvm::ErrorInfo<DiagnosedError> {
public:
  static char ID;
  explicit DiagnosedError(std::string summary) : summary(std::move(summary)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string summary;
};

//===----------------------------------------------------------------------===//
// Targets and grids
//===----------------------------------------------------------------------===//

/// Where a kernel runs.
enum class Target { CPU, CUDA };

/// "cpu" or "cuda".
llvm::StringRef getTargetName(Target target);

/// The target when none is asked for: $TILE_TARGET ("cpu" or "cuda"), else
/// cuda where the driver sees a GPU, else cpu. An error for any other
/// $TILE_TARGET.
llvm::Expected<Target> getDefaultTarget();

/// The launch grid: explicit sizes along x, y and z, or persistent (as many
/// programs as fit on the GPU at once, times `waves`, at most `cap` when it
/// is not 0).
struct GridSpec {
  llvm::SmallVector<int64_t, 3> sizes;
  bool persistent = false;
  int64_t cap = 0;
  /// A persistent grid's programs per program that fits at once: 1 (the
  /// default) launches one wave; more launch several, which the GPU
  /// schedules as earlier ones finish (evening out SMs that run at
  /// different speeds); kAllWaves launches the cap, one program per item
  /// (row). Unset: not chosen (1, or the tuner's choice).
  std::optional<int64_t> waves;
  static constexpr int64_t kAllWaves = 0;

  /// Parses "X[,Y[,Z]]" (each from 1 to 2^31 - 1) or "persistent[:N]".
  static llvm::Expected<GridSpec> parse(llvm::StringRef text);
  /// Parses waves: "all" or a count from 1 to 1024.
  static llvm::Expected<int64_t> parseWaves(llvm::StringRef text);
};

/// "all" or the count.
std::string formatWaves(int64_t waves);

/// The chip of GPU `ordinal` ("sm_90"); an error when there is none.
llvm::Expected<std::string> getCudaChip(int ordinal);

/// "4x2x1": sizes joined with 'x'.
std::string formatGrid(llvm::ArrayRef<int64_t> grid);

/// One line per GPU the driver sees: "0: NVIDIA H100 ... (sm_90, 132 SMs,
/// 50 MiB L2), 79.1 GiB, CUDA driver 13.0"; an error without a driver or a
/// GPU.
llvm::Expected<std::vector<std::string>> listCudaDevices();

/// A line of listCudaDevices without its number: "NVIDIA H100 ... (sm_90,
/// 132 SMs, 50 MiB L2), 79.1 GiB, CUDA driver 13.0".
std::string describeCudaDevice(const CudaDeviceInfo &info);

/// The programs of a persistent grid: `multiprocessors` x `blocksPerSM` x
/// `waves`, at most `cap` (0: no cap); with GridSpec::kAllWaves, the cap.
/// An error when not one block fits on an SM, or all waves without a cap.
llvm::Expected<int64_t> getPersistentGridSize(int multiprocessors,
                                              int blocksPerSM, int64_t cap,
                                              int64_t waves = 1);

/// The programs along x of a persistent launch of `function` with
/// `blockSize` threads per block on `device`: as many blocks as fit on the
/// GPU at once (cuOccupancyMaxActiveBlocksPerMultiprocessor), at most `cap`;
/// for a kernel in clusters, every cluster that fits at once
/// (cuOccupancyMaxActiveClusters), at most `cap` clusters, times the
/// cluster's size; `waves` times that (GridSpec::waves, kAllWaves: `cap`).
/// `note`, when given, says how it was sized: " (persistent: 132 SMs x 4
/// blocks per SM)". An error when not one block (or cluster) fits.
llvm::Expected<int64_t> getPersistentGrid(const CudaDevice &device,
                                          const CudaFunction &function,
                                          unsigned blockSize, int64_t cap,
                                          std::string *note = nullptr,
                                          int64_t waves = 1);

//===----------------------------------------------------------------------===//
// Kernel sources
//===----------------------------------------------------------------------===//

/// A kernel file, preprocessed (its meta-parameters set), parsed and
/// verified once, and the kernel chosen from it.
class KernelSource {
public:
  struct Options {
    /// -D NAME=VALUE, as "NAME=VALUE".
    std::vector<std::string> defines;
    /// The kernel to pick; empty for the only one in the file.
    std::string kernelName;
    /// Where diagnostics of the file go (null: llvm::errs()).
    llvm::raw_ostream *diagnostics = nullptr;
  };

  /// Reads `path` ("-" for stdin).
  static llvm::Expected<std::unique_ptr<KernelSource>>
  loadFile(llvm::StringRef path, const Options &options);
  /// The same from text, named `bufferName` in diagnostics.
  static llvm::Expected<std::unique_ptr<KernelSource>>
  loadString(llvm::StringRef text, llvm::StringRef bufferName,
             const Options &options);
  ~KernelSource();

  FuncOp getKernel() const { return kernel; }
  llvm::StringRef getKernelName() const;
  /// The file's name, as given, and its text before preprocessing.
  llvm::StringRef getFileName() const { return fileName; }
  llvm::StringRef getText() const { return text; }
  /// The meta-parameters the file declares, with their values.
  llvm::ArrayRef<KernelParam> getParams() const { return params; }
  /// "@softmax(!tile.ptr<f32>, i32)".
  std::string getSignature() const;
  /// The names the kernel file gives its parameters ("output" for
  /// `%output: !tile.ptr<f32>`), one per parameter; empty where the file
  /// does not say.
  std::vector<std::string> getParameterNames() const;
  /// Where diagnostics go.
  llvm::raw_ostream &getDiagnosticStream() const { return *diagnostics; }

  /// Checks that a launch gives `count` arguments.
  llvm::Error checkArgumentCount(size_t count) const;
  /// Checks `spec` against parameter `index` (a buffer of the pointee type
  /// for a pointer, a scalar of the parameter's type otherwise).
  llvm::Error checkArgSpec(unsigned index, const ArgSpec &spec) const;
  /// Checks the values of a launch's integer arguments against the promises
  /// of their attributes (tile.divisibility, tile.max_value), naming the
  /// meta-parameter a broken bound comes from. KernelRunner::run does this.
  llvm::Error checkArgumentValues(llvm::ArrayRef<KernelArg> args) const;
  /// Checks that parameter `index` exists and is a pointer, whose buffer a
  /// run can write out.
  llvm::Error checkOutputIndex(unsigned index) const;

  /// The specialization (tile-specialize-arguments) a launch with `args`
  /// gets: Triton's divisibility of buffers and integers.
  llvm::Expected<KernelSpecialization>
  getSpecialization(llvm::ArrayRef<KernelArg> args) const;
  /// The same from specs alone: their scalar values and which are buffers
  /// (what compiling ahead of a run, --emit, knows).
  llvm::Expected<KernelSpecialization>
  getSpecialization(llvm::ArrayRef<ArgSpec> specs) const;

  /// Compiles the kernel (or takes it from the cache) for `options.chip`.
  /// A cache that cannot be written is a warning on the diagnostic stream.
  llvm::Expected<CompiledKernel>
  compile(const KernelSpecialization &specialization,
          const CompileOptions &options) const;
  /// The same ahead of a run (tile-run --emit), specialized on `specs` when
  /// there are any, without when there are none.
  llvm::Expected<CompiledKernel> compile(llvm::ArrayRef<ArgSpec> specs,
                                         const CompileOptions &options) const;
  /// The same for a launch with `args`: specialized on them.
  llvm::Expected<CompiledKernel> compile(llvm::ArrayRef<KernelArg> args,
                                         const CompileOptions &options) const;

private:
  KernelSource();
  llvm::Error load(std::unique_ptr<llvm::MemoryBuffer> buffer,
                   const Options &options);

  struct Impl;
  std::unique_ptr<Impl> impl;
  std::string fileName;
  std::string text;
  std::vector<KernelParam> params;
  llvm::raw_ostream *diagnostics = nullptr;
  mutable FuncOp kernel;
};

/// Loads each file of `paths` (stdin when there are none) with `options`:
/// the variants of one launch, each checked to take `argumentCount`
/// arguments where that is given.
llvm::Expected<std::vector<std::unique_ptr<KernelSource>>>
loadKernelSources(llvm::ArrayRef<std::string> paths,
                  const KernelSource::Options &options,
                  std::optional<size_t> argumentCount);

//===----------------------------------------------------------------------===//
// Timings
//===----------------------------------------------------------------------===//

/// The steps of a run and how long each took (tile-run --timing).
struct Timings {
  struct Row {
    std::string label;
    double seconds = 0;
    std::string detail;
    unsigned depth = 0;
  };
  std::vector<Row> rows;

  void add(llvm::StringRef label, double seconds, llvm::StringRef detail = "",
           unsigned depth = 0);
  /// A row for the compilation (where it came from), then one per pass.
  void addCompile(const CompiledKernel &compiled);
  void print(llvm::raw_ostream &os) const;
};

//===----------------------------------------------------------------------===//
// Loading on a GPU
//===----------------------------------------------------------------------===//

/// A kernel compiled for a launch and loaded on a GPU.
struct LoadedKernel {
  CompiledKernel compiled;
  std::unique_ptr<CudaModule> module;
  CudaFunction function;
  CudaDevice::JitLog jitLog;

  unsigned getBlockSize() const { return compiled.getBlockSize(); }
};

/// Compiles `source`'s kernel with `specialization` for `device` (its own
/// chip where `options.chip` is empty; through the cache), JIT-loads it,
/// looks the kernel up, checks that it takes `numArgs` parameters and sets
/// its cluster size (tile.cluster_size). A kernel that spills when
/// pipelined is compiled again unpipelined, and whichever spills less is
/// kept: the compiler's choice to pipeline must not make a kernel spill.
/// Each step is added to `timings` where given. The errors name the kernel
/// and where its binary came from.
llvm::Expected<LoadedKernel>
loadKernel(const KernelSource &source, CudaDevice &device,
           const KernelSpecialization &specialization, CompileOptions options,
           size_t numArgs, Timings *timings = nullptr);

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// How to run a kernel.
struct RunOptions {
  Target target = Target::CPU;
  GridSpec grid;

  // The CUDA target.
  /// The GPU, by ordinal.
  int device = 0;
  /// How to compile. An empty `compile.chip` means the GPU's own.
  CompileOptions compile;
  /// Load this PTX or cubin file instead of compiling.
  std::string binaryFile;
  /// Guard zones around each buffer, checked after the run.
  bool guards = true;
  /// Copy the buffers back after a run (RunResult::outputs); without, they
  /// stay on the GPU, for benchmark().
  bool copyBack = true;
  /// Run on these buffers, already on the GPU (made from the same
  /// arguments, in the same context), instead of copying the arguments in;
  /// nothing is copied back. The tuner times every configuration this way.
  const DeviceArguments *sharedArgs = nullptr;
  /// Warn on the diagnostic stream when the loaded kernel spills registers
  /// to local memory, naming the meta-parameter most likely responsible.
  bool warnOnSpill = true;
};

/// What one run did.
struct RunResult {
  /// The arguments after the run: the buffers hold what the kernel wrote.
  llvm::SmallVector<KernelArg> outputs;
  /// The grid it ran on, and how it was chosen (", persistent: ...").
  llvm::SmallVector<int64_t, 3> grid;
  std::string gridNote;
  /// "the CPU interpreter", or the GPU's description.
  std::string where;
  /// Threads per block (the CUDA target).
  unsigned blockSize = 0;
  /// The run itself (to cuCtxSynchronize on a GPU).
  double seconds = 0;
};

/// "@softmax ran on <where>: grid 1823 (1823 programs) in 0.050 s", or on a
/// GPU "...: grid 264 (persistent: ...), 512 threads per block, in 0.1 ms".
void printRunSummary(llvm::raw_ostream &os, llvm::StringRef kernelName,
                     const RunResult &result, Target target);

/// Why `kernel` (of `source`), run with `numWarps` warps, spills
/// `localBytes` of local memory per thread: its largest tile's registers per
/// thread and the meta-parameters that set them. One sentence, no newline.
std::string describeSpill(const KernelSource &source, unsigned numWarps,
                          int localBytes);

/// Writes the buffer of each parameter `outputs` names (index to path) from
/// `result` to a .npy file, and a line saying so on `os`.
llvm::Error writeOutputs(const RunResult &result,
                         const std::map<unsigned, std::string> &outputs,
                         llvm::raw_ostream &os);

/// What benchmark() measured.
struct BenchReport {
  BenchResult times;
  BenchOptions options;
  /// The bytes one run moves, and its median bandwidth.
  uint64_t bytes = 0;
  bool bytesGiven = false;
  double gigabytesPerSecond = 0;

  /// "bench: median 0.1007 ms (min ..., max ...) over 100 runs ...".
  void print(llvm::raw_ostream &os) const;
};

/// Runs one kernel on one target: on the CPU, the interpreter; on a GPU,
/// compiled for the GPU (through the cache), JIT-loaded and launched.
class KernelRunner {
public:
  /// Checks the options for the target (a persistent grid needs a GPU; a
  /// binary file too) and, for CUDA, opens the GPU.
  static llvm::Expected<std::unique_ptr<KernelRunner>>
  create(KernelSource &source, const RunOptions &options);
  ~KernelRunner();

  Target getTarget() const { return options.target; }

  /// Runs the kernel once over copies of `args`. On the CUDA target the
  /// first run compiles (specialized on `args`) and loads the kernel; a GPU
  /// fault or a write outside a buffer is an error, after the interpreter
  /// was run on the same arguments to name the faulting access.
  llvm::Expected<RunResult> run(llvm::ArrayRef<KernelArg> args);

  /// CUDA: times the kernel over the arguments of the last run (`bytes`: the
  /// bytes one run moves; default the sizes of every buffer).
  llvm::Expected<BenchReport>
  benchmark(const BenchOptions &bench,
            std::optional<uint64_t> bytes = std::nullopt);

  /// CUDA, after a run: the loaded kernel's registers and memory, what the
  /// JIT said, and the compiled kernel (null when loaded from a file).
  const CudaFunction *getFunction() const;
  const CudaDevice::JitLog *getJitLog() const;
  const CompiledKernel *getCompiled() const;

  /// The steps so far, for --timing.
  const Timings &getTimings() const { return timings; }
  Timings &getTimings() { return timings; }
  /// --timing: the steps, then on a GPU the kernel's registers and memory
  /// and the JIT's info log.
  void printTimings(llvm::raw_ostream &os) const;

private:
  KernelRunner(KernelSource &source, const RunOptions &options);
  llvm::Error load(llvm::ArrayRef<KernelArg> args);
  llvm::Expected<RunResult> runOnCPU(llvm::ArrayRef<KernelArg> args);
  llvm::Expected<RunResult> runOnCUDA(llvm::ArrayRef<KernelArg> args);
  void diagnoseWithInterpreter(llvm::ArrayRef<int64_t> grid,
                               llvm::ArrayRef<KernelArg> args);

  KernelSource &source;
  RunOptions options;
  Timings timings;
  struct CudaState;
  std::unique_ptr<CudaState> cuda;
};

//===----------------------------------------------------------------------===//
// Checking against the interpreter
//===----------------------------------------------------------------------===//

/// The comparison of each buffer of a run with the interpreter's.
struct CheckReport {
  struct Entry {
    unsigned index = 0;
    std::string description;
    Tolerance tolerance;
    /// Empty when the buffers could not be compared at all.
    std::optional<BufferComparison> comparison;
    std::string error;
    std::vector<int64_t> shape;
  };
  std::vector<Entry> entries;
  /// How long the interpreter took.
  double seconds = 0;

  bool passed() const;
  /// "check against the CPU interpreter:" and a line per buffer.
  void print(llvm::raw_ostream &os) const;
};

/// Tolerances that replace each type's default (tile/HostData/Compare.h).
struct CheckOptions {
  std::optional<double> rtol;
  std::optional<double> atol;
};

/// Compares every buffer of `outputs` with the same argument of `expected`,
/// within each type's default tolerance or `options`'.
CheckReport compareWithReference(llvm::ArrayRef<KernelArg> outputs,
                                 llvm::ArrayRef<KernelArg> expected,
                                 const CheckOptions &options);

/// Runs the interpreter over `inputs` (the arguments before the run) on
/// `grid`, and compares every buffer of `outputs` (a run's results) with
/// the interpreter's.
llvm::Expected<CheckReport>
checkAgainstInterpreter(KernelSource &source, llvm::ArrayRef<int64_t> grid,
                        llvm::ArrayRef<KernelArg> inputs,
                        llvm::ArrayRef<KernelArg> outputs,
                        const CheckOptions &options);

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_KERNELRUNNER_H
