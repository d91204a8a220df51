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
// This header owns the run itself (RunOptions, KernelRunner, its result and
// benchmark report, and writing outputs); the pieces it is built from have
// headers of their own: Target.h, Grid.h, KernelSource.h, KernelLoader.h,
// Timings.h, and Check.h (the comparison with the interpreter).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_KERNELRUNNER_H
#define TILE_RUNTIME_KERNELRUNNER_H

#include "tile/HostData/KernelArg.h"
#include "tile/Runtime/Compiler.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/DeviceArguments.h"
#include "tile/Runtime/Grid.h"
#include "tile/Runtime/KernelLoader.h"
#include "tile/Runtime/KernelSource.h"
#include "tile/Runtime/Target.h"
#include "tile/Runtime/Timings.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace tile {

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

/// The sizes of an explicit grid for a launch of `source` with `args`: an
/// expression sees the kernel's integer meta-parameters (BLOCK_M) and
/// integer arguments (M, by the name the kernel file gives them).
llvm::Expected<llvm::SmallVector<int64_t, 3>>
resolveGrid(const GridSpec &grid, const KernelSource &source,
            llvm::ArrayRef<KernelArg> args);

/// The work of a launch of a kernel with `tile.persistent` (named
/// `kernelName`, in clusters of `clusterSize`) whose grid is `sizes`: the
/// clusters (programs, without clusters) that cover the programs along x,
/// which its persistent grid is capped at. An error when the grid has more
/// than one program along y or z. resolveLaunchGrid and the C API's launch
/// both size such launches by it.
llvm::Expected<int64_t> getPersistentWork(llvm::ArrayRef<int64_t> sizes,
                                          int64_t clusterSize,
                                          llvm::StringRef kernelName);

/// The grid a GPU launch of `source` with `args` runs on, given `grid`: a
/// persistent grid as it is; an explicit one with its sizes resolved
/// (resolveGrid), which for a kernel with `tile.persistent` becomes a
/// persistent grid capped at those programs (clusters of them, where the
/// kernel has clusters): its work, run by the programs that fit at once. An
/// error when such a kernel's grid has more than one program along y or z.
llvm::Expected<GridSpec> resolveLaunchGrid(const GridSpec &grid,
                                           const KernelSource &source,
                                           llvm::ArrayRef<KernelArg> args);

/// "@softmax ran on <where>: grid 1823 (1823 programs) in 0.050 s", or on a
/// GPU "...: grid 264 (persistent: ...), 512 threads per block, in 0.1 ms".
void printRunSummary(llvm::raw_ostream &os, llvm::StringRef kernelName,
                     const RunResult &result, Target target);
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

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_KERNELRUNNER_H
