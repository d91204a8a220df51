//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Private to lib/Runtime. The driver (libcuda.so.1) is opened with dlopen and
// the functions the runtime calls are looked up with dlsym, so tile builds
// and runs its CPU parts where no driver is installed. cuda.h gives the types
// and the prototypes only; nothing links against libcuda.
//
// The names are looked up as cuda.h spells them after its macros: cuMemAlloc
// is cuMemAlloc_v2, the ABI the header's prototypes describe.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_CUDADRIVER_H
#define TILE_LIB_RUNTIME_CUDADRIVER_H

#include <cuda.h>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tile::detail {

// Every driver function the runtime calls. X(name) is expanded with name
// already macro-expanded by cuda.h (cuMemAlloc -> cuMemAlloc_v2).
#define TILE_CUDA_DRIVER_FUNCTIONS(X)                                          \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD32Async)                                                          \
  X(cuLaunchKernel)                                                            \
  X(cuEventCreate)                                                             \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuEventDestroy)                                                            \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuGetErrorString)                                                          \
  X(cuGetErrorName)

/// The loaded driver: one function pointer per driver function.
struct CudaDriver {
#define TILE_CUDA_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  TILE_CUDA_DRIVER_FUNCTIONS(TILE_CUDA_DRIVER_MEMBER)
#undef TILE_CUDA_DRIVER_MEMBER
  /// Optional (CUDA 12.4 and later): the size of each kernel parameter.
  decltype(&::cuFuncGetParamInfo) cuFuncGetParamInfo = nullptr;

  /// The path the driver was loaded from, for messages.
  std::string path;
  /// The driver's CUDA version (cuDriverGetVersion), such as 13000.
  int version = 0;

  /// Success, or an error "CALL: TEXT (NAME)" with cuGetErrorString's text.
  llvm::Error check(CUresult result, llvm::StringRef call) const;
};

/// Loads the driver and calls cuInit, once per process; later calls return
/// the same driver or the same error. TILE_CUDA_DRIVER names another library
/// than libcuda.so.1.
llvm::Expected<const CudaDriver &> getCudaDriver();

} // namespace mlir::tile::detail

#endif // TILE_LIB_RUNTIME_CUDADRIVER_H
