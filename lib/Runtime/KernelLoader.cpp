//===- KernelLoader.cpp - Compiling and loading a kernel on a GPU ---------===//
//
// See tile/Runtime/KernelLoader.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/KernelLoader.h"

#include "tile/Analysis/RegisterEstimate.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

bool mlir::tile::hasOwnTensorDescs(const KernelSource &source) {
  return source.getKernel()
      .walk([](MakeTensorDescOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

std::string mlir::tile::describeSpill(const KernelSource &source,
                                      unsigned numWarps, int localBytes) {
  FuncOp kernel = source.getKernel();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "@" << kernel.getSymName() << " spills registers to local memory ("
     << localBytes << " bytes per thread)";
  // The largest floating-point tile, and the parameters of its shape.
  RankedTensorType largest;
  unsigned registers = 0;
  kernel.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (unsigned size = estimateRegisters(type, numWarps); size > registers) {
        registers = size;
        largest = cast<RankedTensorType>(type);
      }
  });
  if (!largest)
    return text;
  SmallVector<std::string> setters, warps;
  for (const KernelParam &param : source.getParams()) {
    if (param.isType)
      continue;
    if (llvm::any_of(largest.getShape(), [&](int64_t dim) {
          return param.value == std::to_string(dim);
        }))
      setters.push_back(param.name + " = " + param.value);
    else if (param.value == std::to_string(numWarps))
      warps.push_back(param.name + " = " + param.value);
  }
  os << ": its largest tile, " << largest << ", takes " << registers
     << " registers per thread over " << numWarps << " warps, of the "
     << getRegisterBudget(numWarps) << " each thread may use";
  if (!setters.empty())
    os << "; " << llvm::join(setters, ", ")
       << " sets its size: a smaller value";
  else
    os << "; a smaller tile";
  os << " or more warps"
     << (warps.empty() ? "" : " (" + llvm::join(warps, ", ") + ")")
     << " would keep it in registers";
  return text;
}

/// Compiles `source`'s kernel again without pipelining and loads it, for a
/// kernel that spills when pipelined: `loaded` then holds the one that
/// spills less.
static llvm::Error loadUnpipelined(const KernelSource &source,
                                   CudaDevice &device,
                                   const KernelSpecialization &specialization,
                                   CompileOptions options, LoadedKernel &loaded,
                                   Timings *timings) {
  options.pipelineLoops = false;
  llvm::Expected<CompiledKernel> compiled =
      source.compile(specialization, options);
  if (!compiled)
    return compiled.takeError();
  CudaDevice::JitLog jitLog;
  llvm::Expected<std::unique_ptr<CudaModule>> module =
      device.loadModule(compiled->binary, &jitLog);
  if (!module)
    return module.takeError();
  llvm::Expected<CudaFunction> function =
      (*module)->getFunction(source.getKernelName());
  if (!function)
    return function.takeError();
  if (function->localBytes >= loaded.function.localBytes)
    return llvm::Error::success();
  if (timings)
    timings->add("compile again, unpipelined", compiled->seconds,
                 llvm::formatv("pipelined, it spilled {0} bytes per thread",
                               loaded.function.localBytes)
                     .str());
  loaded.compiled = std::move(*compiled);
  loaded.module = std::move(*module);
  loaded.function = *function;
  loaded.jitLog = std::move(jitLog);
  return llvm::Error::success();
}

llvm::Error mlir::tile::loadBinary(const KernelSource &source,
                                   CudaDevice &device, llvm::StringRef binary,
                                   llvm::StringRef origin, size_t numArgs,
                                   LoadedKernel &loaded, Timings *timings) {
  Clock::time_point start = Clock::now();
  llvm::Expected<std::unique_ptr<CudaModule>> module =
      device.loadModule(binary, &loaded.jitLog);
  if (!module)
    return llvm::createStringError("the CUDA driver rejected the compiled @" +
                                   source.getKernelName() + origin + ": " +
                                   llvm::toString(module.takeError()));
  if (timings)
    timings->add("JIT (cuModuleLoadDataEx)", secondsSince(start),
                 llvm::formatv("the JIT's own wall time {0:f3} ms",
                               loaded.jitLog.wallMilliseconds)
                     .str());
  loaded.module = std::move(*module);
  llvm::Expected<CudaFunction> function =
      loaded.module->getFunction(source.getKernelName());
  if (!function)
    return llvm::createStringError(llvm::toString(function.takeError()) +
                                   origin);
  if (llvm::Error err = function->checkParameters(numArgs))
    return llvm::createStringError(llvm::toString(std::move(err)) + origin);
  loaded.function = *function;
  return llvm::Error::success();
}

llvm::Expected<LoadedKernel>
mlir::tile::loadKernel(const KernelSource &source, CudaDevice &device,
                       const KernelSpecialization &specialization,
                       CompileOptions options, size_t numArgs,
                       Timings *timings) {
  if (options.chip.empty())
    options.chip = device.getInfo().getCompileChip();
  LoadedKernel loaded;
  llvm::Expected<CompiledKernel> compiled =
      source.compile(specialization, options);
  if (!compiled)
    return compiled.takeError();
  if (timings)
    timings->addCompile(*compiled);
  loaded.compiled = std::move(*compiled);
  std::string origin;
  if (loaded.compiled.fromCache)
    origin = " (from the cache " + loaded.compiled.cachePath + ")";
  if (llvm::Error err = loadBinary(source, device, loaded.compiled.binary,
                                   origin, numArgs, loaded, timings))
    return std::move(err);
  if (loaded.function.localBytes > 0 && options.pipelineLoops &&
      requestsPipelining(source.getKernel()))
    if (llvm::Error err = loadUnpipelined(source, device, specialization,
                                          options, loaded, timings))
      return std::move(err);
  int clusterSize = TileDialect::getClusterSize(source.getKernel());
  if (clusterSize != loaded.function.clusterSize)
    if (llvm::Error err = loaded.function.setClusterSize(clusterSize))
      return std::move(err);
  return std::move(loaded);
}
