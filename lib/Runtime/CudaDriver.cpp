//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include "llvm/ADT/Twine.h"

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>

using namespace mlir::tile::cuda;
using namespace mlir::tile::detail;

llvm::Error CudaDriver::check(CUresult result, llvm::StringRef call) const {
  if (result == CUDA_SUCCESS)
    return llvm::Error::success();
  const char *text = nullptr;
  const char *name = nullptr;
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "unknown error";
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUresult";
  return llvm::createStringError(call + ": " + text + " (" + name + ", " +
                                 llvm::Twine(static_cast<int>(result)) + ")");
}

/// The library getCudaDriver loads.
static const char *getDriverPath() {
  const char *override = std::getenv("TILE_CUDA_DRIVER");
  return override && *override ? override : "libcuda.so.1";
}

/// Opens the driver and resolves its functions; the error says why not.
static llvm::Error load(CudaDriver &driver) {
  driver.path = getDriverPath();
  void *handle = dlopen(driver.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    return llvm::createStringError(
        "no CUDA driver found (" +
        llvm::Twine(reason ? reason : "dlopen failed") +
        "); install the NVIDIA driver, or run the kernel on the CPU "
        "interpreter with --target=cpu");
  }
  // Never closed: the driver stays loaded for the life of the process.
#define TILE_CUDA_RESOLVE(name, symbol, signature)                             \
  driver.name =                                                                \
      reinterpret_cast<decltype(driver.name)>(dlsym(handle, #symbol));         \
  if (!driver.name)                                                            \
    return llvm::createStringError(                                            \
        "the CUDA driver " + llvm::Twine(driver.path) + " lacks " + #symbol +  \
        "; it is too old for this runtime");
  TILE_CUDA_API_FUNCTIONS(TILE_CUDA_RESOLVE)
#undef TILE_CUDA_RESOLVE
#define TILE_CUDA_RESOLVE_OPTIONAL(name, symbol, signature)                    \
  driver.name = reinterpret_cast<decltype(driver.name)>(dlsym(handle, #symbol));
  TILE_CUDA_API_OPTIONAL_FUNCTIONS(TILE_CUDA_RESOLVE_OPTIONAL)
#undef TILE_CUDA_RESOLVE_OPTIONAL

  CUresult result = driver.cuInit(0);
  if (result == CUDA_ERROR_STUB_LIBRARY)
    return llvm::createStringError(
        "no CUDA driver found (" + llvm::Twine(driver.path) +
        " is the CUDA toolkit's stub library, not the driver); run the "
        "kernel on the CPU interpreter with --target=cpu");
  if (result == CUDA_ERROR_NO_DEVICE)
    return llvm::createStringError(
        "the CUDA driver found no GPU (" +
        llvm::toString(driver.check(result, "cuInit")) +
        "); run the kernel on the CPU interpreter with --target=cpu");
  if (llvm::Error err = driver.check(result, "cuInit"))
    return llvm::createStringError(
        "the CUDA driver " + llvm::Twine(driver.path) +
        " failed to start: " + llvm::toString(std::move(err)));
  if (llvm::Error err = driver.check(driver.cuDriverGetVersion(&driver.version),
                                     "cuDriverGetVersion"))
    return err;
  return llvm::Error::success();
}

const CudaDriver *mlir::tile::detail::getCudaDriverIfLoaded() {
  static std::atomic<bool> loaded{false};
  if (!loaded) {
    void *handle = dlopen(getDriverPath(), RTLD_NOW | RTLD_NOLOAD);
    if (!handle)
      return nullptr;
    dlclose(handle);
  }
  llvm::Expected<const CudaDriver &> driver = getCudaDriver();
  if (!driver) {
    llvm::consumeError(driver.takeError());
    return nullptr;
  }
  loaded = true;
  return &*driver;
}

llvm::Expected<const CudaDriver &> mlir::tile::detail::getCudaDriver() {
  static CudaDriver driver;
  static std::string error = [] {
    if (llvm::Error err = load(driver))
      return llvm::toString(std::move(err));
    return std::string();
  }();
  if (!error.empty())
    return llvm::createStringError(error);
  return driver;
}
