//===- Target.h - Targets and the GPUs the driver sees ----------*- C++ -*-===//
//
// Where a kernel runs (the CPU interpreter or a GPU), the default target, and
// the GPUs the CUDA driver sees, described in one line each.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TARGET_H
#define TILE_RUNTIME_TARGET_H

#include "tile/Runtime/Cuda.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace tile {

/// Where a kernel runs.
enum class Target { CPU, CUDA };

/// "cpu" or "cuda".
llvm::StringRef getTargetName(Target target);

/// The target when none is asked for: $TILE_TARGET ("cpu" or "cuda"), else
/// cuda where the driver sees a GPU, else cpu. An error for any other
/// $TILE_TARGET.
llvm::Expected<Target> getDefaultTarget();

/// The chip of GPU `ordinal` ("sm_90"); an error when there is none.
llvm::Expected<std::string> getCudaChip(int ordinal);

/// One line per GPU the driver sees: "0: NVIDIA H100 ... (sm_90, 132 SMs,
/// 50 MiB L2), 79.1 GiB, CUDA driver 13.0"; an error without a driver or a
/// GPU.
llvm::Expected<std::vector<std::string>> listCudaDevices();

/// A line of listCudaDevices without its number: "NVIDIA H100 ... (sm_90,
/// 132 SMs, 50 MiB L2), 79.1 GiB, CUDA driver 13.0".
std::string describeCudaDevice(const CudaDeviceInfo &info);

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_TARGET_H
