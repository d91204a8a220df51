//===- Cuda.h - Loading and launching compiled kernels on a GPU -*- C++ -*-===//
//
// The GPU side of the runtime: a device and its context, modules JIT-loaded
// from PTX (or cubins), kernels, device buffers, launches, occupancy and
// timing. Everything goes through the CUDA driver API, which is loaded at run
// time from libcuda.so.1 (dlopen): a program built with this library runs on
// machines without a driver, where the first call here returns the error
// "no CUDA driver found ...".
//
// Every driver call is checked; a failure is an llvm::Error naming the call
// and cuGetErrorString's text, such as
//
//   cuMemAlloc: out of memory (CUDA_ERROR_OUT_OF_MEMORY)
//
// A typical use (tools/tile-run/tile-run.cpp does this, with more checks):
//
//   auto device = CudaDevice::open();                 // device 0
//   CompileOptions options;
//   options.chip = (*device)->getInfo().getChip();    // "sm_90"
//   auto compiled = compileKernel(kernel, specialization, options);
//   auto module = (*device)->loadModule(compiled->binary);
//   auto function = (*module)->getFunction(compiled->name);
//   auto deviceArgs = DeviceArguments::create(**device, args); //
//   DeviceArguments.h function->checkParameters(args.size());
//   launchKernel(**device, *function, {grid, 1, 1},
//                compiled->getBlockSize(), deviceArgs->getParams());
//   (*device)->synchronize();
//   deviceArgs->copyToHost(args);
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_CUDA_H
#define TILE_RUNTIME_CUDA_H

#include "tile/HostData/KernelArg.h"
#include "tile/Runtime/TensorMap.h"
#include "tile/Runtime/TensorMapRecipe.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tile {

/// True when tile was built with the CUDA runtime (cuda.h was found when it
/// was configured). Without it every function below returns an error saying
/// so.
bool isCudaRuntimeBuiltIn();

/// Loads the driver (once per process) and returns the number of GPUs it
/// sees. Errors: "no CUDA driver found (...)", "the CUDA driver found no GPU
/// (...)".
llvm::Expected<int> getCudaDeviceCount();

/// What the runtime needs to know about a GPU, read with
/// cuDeviceGetAttribute.
struct CudaDeviceInfo {
  int ordinal = 0;
  std::string name;
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;
  int multiprocessorCount = 0;
  int warpSize = 32;
  int maxThreadsPerBlock = 0;
  int maxGridSize[3] = {0, 0, 0};
  int registersPerMultiprocessor = 0;
  int64_t sharedMemoryPerMultiprocessor = 0;
  int64_t l2CacheBytes = 0;
  int64_t totalMemoryBytes = 0;
  /// The memory's peak clock in kHz and its bus width in bits: its peak
  /// bandwidth is 2 x clock x width / 8 bytes a second (the cost model's
  /// bandwidth, GpuModel::fromDevice). 0 where the driver does not say.
  int memoryClockKHz = 0;
  int memoryBusWidthBits = 0;
  /// The driver's CUDA version, such as 13000 for 13.0.
  int driverVersion = 0;

  /// The chip: "sm_" and the compute capability ("sm_90"), as the GPU's
  /// description and the tuning databases name it.
  std::string getChip() const;
  /// The chip to compile for: the chip, with the arch-specific features
  /// where it has them ("sm_90a": wgmma).
  std::string getCompileChip() const;
  /// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MiB L2)".
  std::string getDescription() const;
};

class CudaModule;

/// A device buffer: memory from cuMemAlloc, freed when destroyed.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&other) { *this = std::move(other); }
  DeviceBuffer &operator=(DeviceBuffer &&other);
  ~DeviceBuffer();

  /// The device address (a CUdeviceptr).
  uint64_t getAddress() const { return address; }
  size_t getSizeInBytes() const { return size; }

  llvm::Error copyFromHost(const void *data, size_t bytes, size_t offset = 0);
  llvm::Error copyToHost(void *data, size_t bytes, size_t offset = 0) const;
  /// Sets every byte to `value`.
  llvm::Error fill(uint8_t value);

private:
  friend class CudaDevice;
  DeviceBuffer(uint64_t address, size_t size) : address(address), size(size) {}
  uint64_t address = 0;
  size_t size = 0;
};

/// One GPU and its primary context, current on the calling thread while the
/// object lives.
class CudaDevice {
public:
  /// Loads the driver and opens device `ordinal` (0 is the first GPU that
  /// CUDA_VISIBLE_DEVICES leaves).
  static llvm::Expected<std::unique_ptr<CudaDevice>> open(int ordinal = 0);
  ~CudaDevice();

  const CudaDeviceInfo &getInfo() const { return info; }

  /// What the driver's JIT said when it loaded a module.
  struct JitLog {
    /// The info log (with verbose output: registers and memory per kernel).
    std::string info;
    /// The error log (empty on success).
    std::string error;
    /// The JIT's own wall time (CU_JIT_WALL_TIME), in milliseconds.
    double wallMilliseconds = 0;
  };

  /// Loads a module from PTX text or a cubin with cuModuleLoadDataEx, which
  /// compiles PTX for this GPU. On failure the error holds the JIT's error
  /// log; `log`, if given, receives the logs either way.
  llvm::Expected<std::unique_ptr<CudaModule>> loadModule(llvm::StringRef image,
                                                         JitLog *log = nullptr);

  llvm::Expected<DeviceBuffer> allocate(size_t bytes);

  /// Waits for all work on the device; a kernel's failure (an illegal
  /// address, say) surfaces here.
  llvm::Error synchronize();

  /// Copies `bytes` from device memory at `address` (memory of this
  /// device's context that the runtime did not allocate, such as a
  /// framework's tensor) to `data`.
  llvm::Error copyToHost(void *data, uint64_t address, size_t bytes) const;

  /// The device's primary context (a CUcontext): the one the CUDA runtime,
  /// and so PyTorch, uses for the same device.
  void *getContext() const { return context; }

  /// The tensor maps launches on this device have made (launchKernel).
  TensorMapCache &getTensorMapCache() const { return tensorMaps; }

private:
  CudaDevice() = default;
  mutable TensorMapCache tensorMaps;
  CudaDeviceInfo info;
  int device = 0;
  void *context = nullptr;
};

/// Keeps the CUDA context current on the calling thread as it was: when
/// destroyed, makes the context that was current when it was made current
/// again (where there was one: a thread that had none keeps whatever the
/// runtime made current since). A program that shares the GPU with a
/// framework (the C API under PyTorch) thus leaves the thread as it found
/// it, whatever CudaDevice::open and its destructor do meanwhile.
class CudaContextScope {
public:
  /// Saves the current context, where the CUDA driver is loaded in the
  /// process already (this loads no driver).
  CudaContextScope();
  /// Saves the current context and makes `device`'s current. Costs one
  /// cuCtxGetCurrent, and nothing when destroyed, where the device's context
  /// is current already.
  explicit CudaContextScope(const CudaDevice &device);
  ~CudaContextScope();
  CudaContextScope(const CudaContextScope &) = delete;
  CudaContextScope &operator=(const CudaContextScope &) = delete;

private:
  void *previous = nullptr;
  bool restore = false;
};

/// A kernel of a loaded module, with its resource usage.
struct CudaFunction {
  /// The CUfunction.
  void *handle = nullptr;
  std::string name;
  int numRegisters = 0;
  /// Static shared memory per block, in bytes.
  int sharedBytes = 0;
  /// Dynamic shared memory per block, in bytes, that each launch passes: a
  /// kernel needing over 48 KiB declares it (tile/Conversion/KernelABI.h).
  int dynamicSharedBytes = 0;
  /// Local memory (spills, stack) per thread, in bytes.
  int localBytes = 0;
  /// The most threads per block the kernel can be launched with (its
  /// .maxntid, or the resources' limit).
  int maxThreadsPerBlock = 0;
  /// Blocks per cluster (tile.cluster_size; 1 without clusters): a launch
  /// groups the grid's blocks along x into clusters of this many.
  int clusterSize = 1;
  /// Whether the kernel reduces across its grid (tile.grid_reduce, found by
  /// its workspace: tile/Conversion/KernelABI.h). Its programs wait for one
  /// another, so a launch runs them all at once: one wave, at most
  /// kMaxGridReducePrograms, launched cooperatively (the driver refuses a
  /// grid that would not fit rather than let it hang).
  bool gridReduce = false;
  /// The tensor maps the kernel takes after its own parameters (its TMA
  /// copies'), which each launch makes from its arguments
  /// (tile/Conversion/KernelABI.h).
  std::vector<TensorMapRecipe> tensorMaps;

  /// Makes the kernel launch in clusters of `size` blocks, allowing the
  /// non-portable sizes above 8 (Hopper takes 16); sm_90 and later.
  llvm::Error setClusterSize(int size);
  /// Clusters of `blockSize`-thread blocks that fit on the GPU at once
  /// (cuOccupancyMaxActiveClusters).
  llvm::Expected<int> getMaxActiveClusters(int blockSize) const;

  /// Blocks of `blockSize` threads that fit on one multiprocessor at once
  /// (cuOccupancyMaxActiveBlocksPerMultiprocessor): the registers, shared
  /// memory and thread limits together, as Triton's tutorial computes by
  /// hand from n_regs and the shared memory size.
  llvm::Expected<int> getMaxActiveBlocksPerMultiprocessor(int blockSize) const;

  /// Checks, where the driver can tell (cuFuncGetParamInfo, CUDA 12.4 and
  /// later), that the kernel has at least `count` parameters, each of at
  /// most 8 bytes (DeviceArguments' slots), then a tensor map of 128 bytes
  /// per recipe. It asks only about the parameters it expects, so a check
  /// that passes makes no failing driver call (compute-sanitizer reports
  /// those).
  llvm::Error checkParameters(size_t count) const;
};

/// A loaded module (a CUmodule), unloaded when destroyed.
class CudaModule {
public:
  ~CudaModule();

  /// Looks a kernel up by name; the error says the module has no such
  /// kernel.
  llvm::Expected<CudaFunction> getFunction(llvm::StringRef name) const;

private:
  friend class CudaDevice;
  CudaModule(void *module, std::optional<llvm::StringSet<>> globals)
      : module(module), globals(std::move(globals)) {}
  void *module = nullptr;
  /// The globals a PTX image declares (getPtxGlobals, PtxGlobals.h), whose
  /// absence needs
  /// no question to the driver: cuModuleGetGlobal of a name a module lacks
  /// fails, and compute-sanitizer reports every failed call. None for a
  /// cubin.
  std::optional<llvm::StringSet<>> globals;
};

/// Launches `function` on `grid` blocks of `blockSize` threads (one
/// dimension) with `params` (cuLaunchKernel's kernelParams: one pointer per
/// parameter to its value), on `stream` (a CUstream; null: the default
/// stream), in clusters where the function runs in them (cuLaunchKernelEx).
/// Checks the grid and block against the device's and the kernel's limits
/// first (and the parameters, with CudaFunction::checkParameters, is for the
/// caller to do once). The launch is asynchronous.
llvm::Error launchKernel(const CudaDevice &device, const CudaFunction &function,
                         std::array<unsigned, 3> grid, unsigned blockSize,
                         llvm::ArrayRef<void *> params, void *stream = nullptr);

/// Options of benchmark().
struct BenchOptions {
  unsigned warmup = 10;
  unsigned repetitions = 100;
  /// Write a buffer of twice the L2 cache's size before each timed run, so
  /// that no run finds its data in L2 from the run before.
  bool flushL2 = true;
  /// When positive, the first launch is timed alone; when it takes longer
  /// than this many milliseconds, the benchmark stops there with that one
  /// time (BenchResult::stoppedEarly). A tuner passes a multiple of the
  /// fastest time so far: a configuration that slow cannot win, and timing
  /// it a hundred times more would only cost time.
  double stopAfterMilliseconds = 0;
};

/// Times of benchmark(), in milliseconds.
struct BenchResult {
  std::vector<double> milliseconds; // one per repetition, in order
  double median = 0, min = 0, max = 0;
  /// The bytes written to flush L2 before each run (0 without flushing).
  uint64_t flushBytes = 0;
  /// The first launch took longer than BenchOptions::stopAfterMilliseconds:
  /// `milliseconds` holds its time alone.
  bool stoppedEarly = false;
};

/// Launches the kernel `options.warmup` times, then times
/// `options.repetitions` launches one by one with CUDA events, flushing L2
/// before each. The kernel must give the same result when run again on its
/// own output (softmax does).
llvm::Expected<BenchResult>
benchmark(CudaDevice &device, const CudaFunction &function,
          std::array<unsigned, 3> grid, unsigned blockSize,
          llvm::ArrayRef<void *> params, const BenchOptions &options);

} // namespace mlir::tile

#endif // TILE_RUNTIME_CUDA_H
