//===- DeviceArguments.cpp - Kernel arguments on the GPU ------------------===//

#include "tile/Runtime/DeviceArguments.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;

// Guard zones around each buffer. The one before keeps the data 256-byte
// aligned, as cuMemAlloc's own allocations are.
static constexpr size_t kGuardBefore = 4096;
static constexpr size_t kGuardAfter = 65536;
static constexpr uint8_t kGuardByte = 0xA5;

llvm::Expected<DeviceArguments>
DeviceArguments::create(CudaDevice &device, llvm::ArrayRef<KernelArg> args,
                        bool guards) {
  DeviceArguments result;
  result.entries.resize(args.size());
  result.values.assign(args.size(), 0);
  for (auto [index, arg] : llvm::enumerate(args)) {
    Entry &entry = result.entries[index];
    if (!arg.isBuffer()) {
      // The scalar's bits, in the low bytes of its slot (little-endian).
      result.values[index] = arg.getScalar().bits;
      continue;
    }
    const HostBuffer &host = arg.getBuffer();
    entry.isBuffer = true;
    entry.dataBytes = host.getSizeInBytes();
    entry.guardBefore = guards ? kGuardBefore : 0;
    entry.guardAfter = guards ? kGuardAfter : 0;
    llvm::Expected<DeviceBuffer> buffer =
        device.allocate(entry.guardBefore + entry.dataBytes + entry.guardAfter);
    if (!buffer)
      return llvm::createStringError(
          "argument " + llvm::Twine(index) + " (" + host.getDescription() +
          "): " + llvm::toString(buffer.takeError()));
    entry.buffer = std::move(*buffer);
    if (guards)
      if (llvm::Error err = entry.buffer.fill(kGuardByte))
        return std::move(err);
    if (llvm::Error err = entry.buffer.copyFromHost(
            host.getData(), entry.dataBytes, entry.guardBefore))
      return std::move(err);
    result.values[index] = entry.buffer.getAddress() + entry.guardBefore;
  }
  for (uint64_t &value : result.values)
    result.params.push_back(&value);
  return std::move(result);
}

llvm::Error
DeviceArguments::copyToHost(llvm::MutableArrayRef<KernelArg> args) const {
  if (args.size() != entries.size())
    return llvm::createStringError("copyToHost: " + llvm::Twine(args.size()) +
                                   " arguments for " +
                                   llvm::Twine(entries.size()));
  for (auto [entry, arg] : llvm::zip_equal(entries, args)) {
    if (!entry.isBuffer)
      continue;
    HostBuffer &host = arg.getBuffer();
    if (host.getSizeInBytes() != entry.dataBytes)
      return llvm::createStringError("copyToHost: a buffer changed size");
    if (llvm::Error err = entry.buffer.copyToHost(
            host.getData(), entry.dataBytes, entry.guardBefore))
      return err;
  }
  return llvm::Error::success();
}

llvm::Error DeviceArguments::checkGuards(llvm::ArrayRef<KernelArg> args) const {
  std::vector<std::string> problems;
  std::vector<uint8_t> guard;
  for (auto [index, entry] : llvm::enumerate(entries)) {
    if (!entry.isBuffer)
      continue;
    auto count = [&](size_t offset, size_t size, size_t &first,
                     size_t &last) -> llvm::Expected<size_t> {
      guard.resize(size);
      if (llvm::Error err = entry.buffer.copyToHost(guard.data(), size, offset))
        return std::move(err);
      size_t changed = 0;
      for (size_t i = 0; i < size; ++i)
        if (guard[i] != kGuardByte) {
          if (!changed)
            first = i;
          last = i;
          ++changed;
        }
      return changed;
    };
    std::string what = "argument " + std::to_string(index);
    if (index < args.size() && args[index].isBuffer())
      what += " (" + args[index].getBuffer().getDescription() + ")";
    size_t first = 0, last = 0;
    llvm::Expected<size_t> before = count(0, entry.guardBefore, first, last);
    if (!before)
      return before.takeError();
    if (*before)
      problems.push_back(what + ": " + std::to_string(*before) +
                         " bytes changed in the " +
                         std::to_string(entry.guardBefore - first) +
                         " bytes before its start");
    llvm::Expected<size_t> after = count(entry.guardBefore + entry.dataBytes,
                                         entry.guardAfter, first, last);
    if (!after)
      return after.takeError();
    if (*after)
      problems.push_back(what + ": " + std::to_string(*after) +
                         " bytes changed in the " + std::to_string(last + 1) +
                         " bytes past its end");
  }
  if (problems.empty())
    return llvm::Error::success();
  return llvm::createStringError(
      "the kernel wrote outside its buffers (" + llvm::join(problems, "; ") +
      "): are the buffers as large as the sizes and strides passed to it?");
}

uint64_t DeviceArguments::getBufferBytes() const {
  uint64_t total = 0;
  for (const Entry &entry : entries)
    total += entry.dataBytes;
  return total;
}
