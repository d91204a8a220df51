//===- KernelLoader.h - Compiling and loading a kernel on a GPU -*- C++ -*-===//
//
// A kernel compiled for a launch (through the cache), JIT-loaded on a GPU and
// looked up; the fallback to an unpipelined compilation where pipelining
// made it spill; and the sentence that says why a kernel spills.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_KERNELLOADER_H
#define TILE_RUNTIME_KERNELLOADER_H

#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/KernelSource.h"
#include "tile/Runtime/Timings.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir {
namespace tile {

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

/// Whether `source`'s kernel makes tensor descriptors of its own
/// (tile.make_tensor_desc). Where it does not, any tensor map its binary
/// takes is the compiler's (tile-loads-to-descs, with CompileOptions::tma):
/// a launch whose maps cannot be made (TensorMapError) runs the kernel
/// compiled without `tma` instead.
bool hasOwnTensorDescs(const KernelSource &source);

/// Why `kernel` (of `source`), run with `numWarps` warps, spills
/// `localBytes` of local memory per thread: its largest tile's registers per
/// thread and the meta-parameters that set them. One sentence, no newline.
std::string describeSpill(const KernelSource &source, unsigned numWarps,
                          int localBytes);

/// Loads `binary` (PTX or a cubin, whose origin `origin` names in errors:
/// " (from the cache ...)") on `device` and looks `source`'s kernel up,
/// checking that it takes `numArgs` parameters; the JIT's time goes to
/// `timings` where given.
llvm::Error loadBinary(const KernelSource &source, CudaDevice &device,
                       llvm::StringRef binary, llvm::StringRef origin,
                       size_t numArgs, LoadedKernel &loaded, Timings *timings);

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_KERNELLOADER_H
