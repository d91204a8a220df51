//===- CudaBench.cpp - Timing launches with CUDA events -------------------===//
//
// benchmark() (tile/Runtime/Cuda.h): a kernel's launches timed between CUDA
// events, the L2 cache flushed before each where asked. Split from Cuda.cpp,
// which loads and launches kernels.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Cuda.h"

#include "CudaDriver.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::cuda;
using detail::CudaDriver;
using detail::loadedDriver;

//===----------------------------------------------------------------------===//
// Benchmarks
//===----------------------------------------------------------------------===//

namespace {
/// CUDA events, destroyed with the object.
struct Events {
  std::vector<CUevent> events;
  ~Events() {
    for (CUevent event : events)
      (void)loadedDriver().cuEventDestroy(event);
  }
};
} // namespace

llvm::Expected<BenchResult> mlir::tile::benchmark(CudaDevice &device,
                                                  const CudaFunction &function,
                                                  std::array<unsigned, 3> grid,
                                                  unsigned blockSize,
                                                  llvm::ArrayRef<void *> params,
                                                  const BenchOptions &options) {
  if (options.repetitions == 0)
    return llvm::createStringError("a benchmark needs at least 1 repetition");
  const CudaDriver &driver = loadedDriver();
  BenchResult result;
  DeviceBuffer flush;
  if (options.flushL2) {
    result.flushBytes =
        std::max<uint64_t>(2 * device.getInfo().l2CacheBytes, 1 << 20);
    llvm::Expected<DeviceBuffer> buffer = device.allocate(result.flushBytes);
    if (!buffer)
      return buffer.takeError();
    flush = std::move(*buffer);
  }
  unsigned flushValue = 0;
  auto flushL2 = [&]() -> llvm::Error {
    if (!options.flushL2)
      return llvm::Error::success();
    // A new value each time, so that no write can be skipped as a no-op.
    return driver.check(driver.cuMemsetD32Async(flush.getAddress(),
                                                ++flushValue,
                                                flush.getSizeInBytes() / 4,
                                                /*hStream=*/nullptr),
                        "cuMemsetD32Async");
  };

  Events events;
  auto createEvents = [&](size_t count) -> llvm::Error {
    events.events.resize(count, nullptr);
    for (CUevent &event : events.events)
      if (!event)
        if (llvm::Error err =
                driver.check(driver.cuEventCreate(&event, CU_EVENT_DEFAULT),
                             "cuEventCreate"))
          return err;
    return llvm::Error::success();
  };
  // One launch, timed.
  auto timeLaunch = [&](unsigned i) -> llvm::Error {
    if (llvm::Error err = flushL2())
      return err;
    if (llvm::Error err =
            driver.check(driver.cuEventRecord(events.events[2 * i], nullptr),
                         "cuEventRecord"))
      return err;
    if (llvm::Error err =
            launchKernel(device, function, grid, blockSize, params))
      return err;
    return driver.check(driver.cuEventRecord(events.events[2 * i + 1], nullptr),
                        "cuEventRecord");
  };
  auto readTimes = [&](unsigned count) -> llvm::Error {
    if (llvm::Error err = driver.check(
            driver.cuEventSynchronize(events.events[2 * count - 1]),
            "cuEventSynchronize"))
      return err;
    if (llvm::Error err = device.synchronize())
      return err;
    for (unsigned i = 0; i < count; ++i) {
      float ms = 0;
      if (llvm::Error err =
              driver.check(driver.cuEventElapsedTime(&ms, events.events[2 * i],
                                                     events.events[2 * i + 1]),
                           "cuEventElapsedTime"))
        return err;
      result.milliseconds.push_back(ms);
    }
    return llvm::Error::success();
  };

  unsigned warmup = options.warmup;
  if (options.stopAfterMilliseconds > 0) {
    // The first launch, timed alone, counts as a warm-up run.
    if (llvm::Error err = createEvents(2))
      return std::move(err);
    if (llvm::Error err = timeLaunch(0))
      return std::move(err);
    if (llvm::Error err = readTimes(1))
      return std::move(err);
    if (result.milliseconds.front() > options.stopAfterMilliseconds) {
      result.median = result.min = result.max = result.milliseconds.front();
      result.stoppedEarly = true;
      return result;
    }
    result.milliseconds.clear();
    warmup = warmup ? warmup - 1 : 0;
  }
  for (unsigned i = 0; i < warmup; ++i) {
    if (llvm::Error err = flushL2())
      return std::move(err);
    if (llvm::Error err =
            launchKernel(device, function, grid, blockSize, params))
      return std::move(err);
  }
  if (llvm::Error err = device.synchronize())
    return std::move(err);

  if (llvm::Error err = createEvents(2 * options.repetitions))
    return std::move(err);
  for (unsigned i = 0; i < options.repetitions; ++i)
    if (llvm::Error err = timeLaunch(i))
      return std::move(err);
  if (llvm::Error err = readTimes(options.repetitions))
    return std::move(err);
  std::vector<double> sorted = result.milliseconds;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  result.median =
      n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  result.min = sorted.front();
  result.max = sorted.back();
  return result;
}
