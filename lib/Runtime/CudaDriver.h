//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Private to lib/Runtime. The driver (libcuda.so.1) is opened with dlopen and
// the functions the runtime calls (CudaAPI.h) are looked up with dlsym, so
// tile builds and runs its CPU parts where no driver is installed, with or
// without a CUDA toolkit. getCudaDriver() is the one place that says "no
// CUDA driver found": every GPU entry point of the runtime goes through it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_CUDADRIVER_H
#define TILE_LIB_RUNTIME_CUDADRIVER_H

#include "CudaAPI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tile::detail {

/// The loaded driver: one function pointer per driver function.
struct CudaDriver {
#define TILE_CUDA_DRIVER_MEMBER(name, symbol, signature)                       \
  cuda::name##_t *name = nullptr;
  TILE_CUDA_API_FUNCTIONS(TILE_CUDA_DRIVER_MEMBER)
  /// Null where the driver lacks them.
  TILE_CUDA_API_OPTIONAL_FUNCTIONS(TILE_CUDA_DRIVER_MEMBER)
#undef TILE_CUDA_DRIVER_MEMBER

  /// The path the driver was loaded from, for messages.
  std::string path;
  /// The driver's CUDA version (cuDriverGetVersion), such as 13000.
  int version = 0;

  /// Success, or an error "CALL: TEXT (NAME)" with cuGetErrorString's text.
  llvm::Error check(cuda::CUresult result, llvm::StringRef call) const;
};

/// Loads the driver and calls cuInit, once per process; later calls return
/// the same driver or the same error. TILE_CUDA_DRIVER names another library
/// than libcuda.so.1.
llvm::Expected<const CudaDriver &> getCudaDriver();

/// The driver where it is in the process already (loaded by this runtime, or
/// by another library such as the CUDA runtime): then as getCudaDriver();
/// null where it is not, without loading it.
const CudaDriver *getCudaDriverIfLoaded();

/// The driver, for objects that exist only once it has loaded (devices,
/// modules, events): getCudaDriver() cannot fail by then.
inline const CudaDriver &loadedDriver() {
  return llvm::cantFail(getCudaDriver());
}

} // namespace mlir::tile::detail

#endif // TILE_LIB_RUNTIME_CUDADRIVER_H
