//===- Target.cpp - Targets and the GPUs the driver sees ------------------===//
//
// See tile/Runtime/Target.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Target.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tile;

llvm::StringRef mlir::tile::getTargetName(Target target) {
  switch (target) {
  case Target::CPU:
    return "cpu";
  case Target::CUDA:
    return "cuda";
  }
  llvm_unreachable("unknown target");
}

llvm::Expected<Target> mlir::tile::getDefaultTarget() {
  const char *env = std::getenv("TILE_TARGET");
  llvm::StringRef fromEnv = env ? env : "";
  if (fromEnv == "cpu")
    return Target::CPU;
  if (fromEnv == "cuda")
    return Target::CUDA;
  if (!fromEnv.empty())
    return llvm::createStringError("TILE_TARGET is '" + fromEnv +
                                   "'; expected cpu or cuda");
  llvm::Expected<int> count = getCudaDeviceCount();
  if (!count) {
    llvm::consumeError(count.takeError());
    return Target::CPU;
  }
  return *count > 0 ? Target::CUDA : Target::CPU;
}

llvm::Expected<std::string> mlir::tile::getCudaChip(int ordinal) {
  llvm::Expected<std::unique_ptr<CudaDevice>> device =
      CudaDevice::open(ordinal);
  if (!device)
    return device.takeError();
  return (*device)->getInfo().getCompileChip();
}

llvm::Expected<std::vector<std::string>> mlir::tile::listCudaDevices() {
  llvm::Expected<int> count = getCudaDeviceCount();
  if (!count)
    return count.takeError();
  if (*count == 0)
    return llvm::createStringError("the CUDA driver found no GPU");
  std::vector<std::string> lines;
  for (int ordinal = 0; ordinal < *count; ++ordinal) {
    llvm::Expected<std::unique_ptr<CudaDevice>> device =
        CudaDevice::open(ordinal);
    if (!device)
      return device.takeError();
    lines.push_back(std::to_string(ordinal) + ": " +
                    describeCudaDevice((*device)->getInfo()));
  }
  return lines;
}

std::string mlir::tile::describeCudaDevice(const CudaDeviceInfo &info) {
  return llvm::formatv(
             "{0}, {1:f1} GiB, CUDA driver {2}.{3}", info.getDescription(),
             info.totalMemoryBytes / 1073741824.0, info.driverVersion / 1000,
             info.driverVersion % 1000 / 10)
      .str();
}
