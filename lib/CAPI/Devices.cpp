//===- Devices.cpp - The C API's GPUs -------------------------------------===//
//
// The GPUs a process opens once (getDevice), their count, and
// synchronizing one.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::capi;

llvm::Expected<CudaDevice &> capi::getDevice(int ordinal) {
  static std::mutex mutex;
  static auto *devices = new std::map<int, std::unique_ptr<CudaDevice>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto found = devices->find(ordinal);
  if (found != devices->end())
    return *found->second;
  llvm::Expected<std::unique_ptr<CudaDevice>> device =
      CudaDevice::open(ordinal);
  if (!device)
    return device.takeError();
  CudaDevice &result = **device;
  devices->emplace(ordinal, std::move(*device));
  return result;
}

tile_status tile_cuda_device_count(int32_t *count) {
  return guard([&] {
    if (!count)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_cuda_device_count: null count");
    *count = 0;
    CudaContextScope scope;
    llvm::Expected<int> devices = getCudaDeviceCount();
    if (!devices)
      return fail(TILE_ERROR_CUDA, llvm::toString(devices.takeError()));
    *count = *devices;
    return succeed();
  });
}

tile_status tile_cuda_synchronize(int32_t device) {
  return guard([&] {
    CudaContextScope saved;
    llvm::Expected<CudaDevice &> opened = getDevice(device);
    if (!opened)
      return fail(TILE_ERROR_CUDA, llvm::toString(opened.takeError()));
    CudaContextScope scope(*opened);
    if (llvm::Error err = opened->synchronize())
      return fail(TILE_ERROR_CUDA, llvm::toString(std::move(err)));
    return succeed();
  });
}
