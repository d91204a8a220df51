//===- CudaStub.cpp - The GPU runtime where cuda.h was not found ----------===//
//
// Built instead of Cuda.cpp when tile is configured without CUDA's headers:
// every entry point says that the CUDA target was not built in.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Cuda.h"

using namespace mlir;
using namespace mlir::tile;

static llvm::Error notBuiltIn() {
  return llvm::createStringError(
      "the CUDA target was not built in: cuda.h was not found when tile was "
      "configured (point TILE_CUDA_INCLUDE_DIR at CUDA's include directory "
      "and build again); run the kernel on the CPU interpreter with "
      "--target=cpu");
}

bool mlir::tile::isCudaRuntimeBuiltIn() { return false; }

llvm::Expected<int> mlir::tile::getCudaDeviceCount() { return notBuiltIn(); }

std::string CudaDeviceInfo::getChip() const {
  return "sm_" + std::to_string(computeCapabilityMajor) +
         std::to_string(computeCapabilityMinor);
}

std::string CudaDeviceInfo::getDescription() const { return name; }

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) {
  address = other.address;
  size = other.size;
  other.address = 0;
  other.size = 0;
  return *this;
}
DeviceBuffer::~DeviceBuffer() = default;
llvm::Error DeviceBuffer::copyFromHost(const void *, size_t, size_t) {
  return notBuiltIn();
}
llvm::Error DeviceBuffer::copyToHost(void *, size_t, size_t) const {
  return notBuiltIn();
}
llvm::Error DeviceBuffer::fill(uint8_t) { return notBuiltIn(); }

llvm::Expected<std::unique_ptr<CudaDevice>> CudaDevice::open(int) {
  return notBuiltIn();
}
CudaDevice::~CudaDevice() = default;
llvm::Expected<std::unique_ptr<CudaModule>>
CudaDevice::loadModule(llvm::StringRef, JitLog *) {
  return notBuiltIn();
}
llvm::Expected<DeviceBuffer> CudaDevice::allocate(size_t) {
  return notBuiltIn();
}
llvm::Error CudaDevice::synchronize() { return notBuiltIn(); }

CudaModule::~CudaModule() = default;
llvm::Expected<CudaFunction> CudaModule::getFunction(llvm::StringRef) const {
  return notBuiltIn();
}
llvm::Expected<int>
CudaFunction::getMaxActiveBlocksPerMultiprocessor(int) const {
  return notBuiltIn();
}

llvm::Error CudaFunction::checkParameters(size_t) const { return notBuiltIn(); }

llvm::Error mlir::tile::launchKernel(const CudaDevice &, const CudaFunction &,
                                     std::array<unsigned, 3>, unsigned,
                                     llvm::ArrayRef<void *>) {
  return notBuiltIn();
}

llvm::Expected<DeviceArguments>
DeviceArguments::create(CudaDevice &, llvm::ArrayRef<KernelArg>, bool) {
  return notBuiltIn();
}
llvm::Error
DeviceArguments::copyToHost(llvm::MutableArrayRef<KernelArg>) const {
  return notBuiltIn();
}
llvm::Error DeviceArguments::checkGuards(llvm::ArrayRef<KernelArg>) const {
  return notBuiltIn();
}
uint64_t DeviceArguments::getBufferBytes() const { return 0; }

llvm::Expected<BenchResult>
mlir::tile::benchmark(CudaDevice &, const CudaFunction &,
                      std::array<unsigned, 3>, unsigned, llvm::ArrayRef<void *>,
                      const BenchOptions &) {
  return notBuiltIn();
}
