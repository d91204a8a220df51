//===- DeviceArguments.h - Kernel arguments on the GPU ----------*- C++ -*-===//
//
// The device side of a launch's arguments: a device buffer for each host
// buffer (with guard zones if asked), the parameter list cuLaunchKernel
// takes, and the copy back of what the kernel wrote.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DEVICEARGUMENTS_H
#define TILE_RUNTIME_DEVICEARGUMENTS_H

#include "tile/Runtime/Cuda.h"

namespace mlir::tile {

/// The device side of a list of kernel arguments: a device buffer for each
/// host buffer, copied in, and the parameter list of a launch (a device
/// pointer for a buffer, the value of a scalar).
///
/// With `guards`, each buffer gets guard zones (4 KiB before, 64 KiB after)
/// filled with a pattern; checkGuards() reports a kernel that wrote into
/// them, which is what a kernel does when its buffers are smaller than the
/// sizes and strides it was given. Without, each buffer is an allocation of
/// its own size, so that compute-sanitizer sees every access outside it.
class DeviceArguments {
public:
  static llvm::Expected<DeviceArguments> create(CudaDevice &device,
                                                llvm::ArrayRef<KernelArg> args,
                                                bool guards = true);

  /// cuLaunchKernel's kernelParams; valid while this object lives.
  llvm::ArrayRef<void *> getParams() const { return params; }

  /// Copies every buffer back into `args` (which must be the list this was
  /// created from, or a copy of it).
  llvm::Error copyToHost(llvm::MutableArrayRef<KernelArg> args) const;

  /// Fails, naming the arguments, if the kernel wrote outside a buffer into
  /// its guard zones.
  llvm::Error checkGuards(llvm::ArrayRef<KernelArg> args) const;

  /// The total size of the buffers, in bytes (not counting guards).
  uint64_t getBufferBytes() const;

private:
  DeviceArguments() = default;
  struct Entry {
    DeviceBuffer buffer; // guard, data, guard
    size_t dataBytes = 0;
    size_t guardBefore = 0, guardAfter = 0;
    bool isBuffer = false;
  };
  std::vector<Entry> entries;
  /// One 8-byte slot per parameter: the device address or the scalar bits.
  std::vector<uint64_t> values;
  std::vector<void *> params;
};

} // namespace mlir::tile

#endif // TILE_RUNTIME_DEVICEARGUMENTS_H
