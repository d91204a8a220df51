//===- Cuda.cpp - Loading and launching compiled kernels on a GPU ---------===//
//
// Every driver call goes through CudaDriver::check, whose error names the
// call; every entry point reaches the driver through detail::getCudaDriver(),
// which says "no CUDA driver found" where there is none.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Cuda.h"

#include "tile/Conversion/KernelABI.h"

#include "CudaDriver.h"
#include "tile/Runtime/PtxGlobals.h"
#include "tile/Runtime/TensorMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::cuda;
using detail::CudaDriver;
using detail::loadedDriver;

llvm::Expected<int> mlir::tile::getCudaDeviceCount() {
  llvm::Expected<const CudaDriver &> driver = detail::getCudaDriver();
  if (!driver)
    return driver.takeError();
  int count = 0;
  if (llvm::Error err =
          driver->check(driver->cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return std::move(err);
  return count;
}

//===----------------------------------------------------------------------===//
// CudaDeviceInfo
//===----------------------------------------------------------------------===//

std::string CudaDeviceInfo::getChip() const {
  return "sm_" + std::to_string(computeCapabilityMajor) +
         std::to_string(computeCapabilityMinor);
}

std::string CudaDeviceInfo::getCompileChip() const {
  // sm_90a code runs only on sm_90 itself, which is what a JIT wants.
  if (computeCapabilityMajor == 9 && computeCapabilityMinor == 0)
    return "sm_90a";
  return getChip();
}

std::string CudaDeviceInfo::getDescription() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << name << " (" << getChip() << ", " << multiprocessorCount << " SMs, "
     << llvm::format("%.0f", l2CacheBytes / (1024.0 * 1024.0)) << " MiB L2)";
  return text;
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) {
  if (this != &other) {
    this->~DeviceBuffer();
    address = other.address;
    size = other.size;
    other.address = 0;
    other.size = 0;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (address)
    (void)loadedDriver().cuMemFree(address);
  address = 0;
}

static llvm::Error checkRange(size_t bytes, size_t offset, size_t size) {
  if (offset > size || bytes > size - offset)
    return llvm::createStringError("a copy of " + llvm::Twine(bytes) +
                                   " bytes at offset " + llvm::Twine(offset) +
                                   " overruns a device buffer of " +
                                   llvm::Twine(size) + " bytes");
  return llvm::Error::success();
}

llvm::Error DeviceBuffer::copyFromHost(const void *data, size_t bytes,
                                       size_t offset) {
  if (llvm::Error err = checkRange(bytes, offset, size))
    return err;
  if (bytes == 0)
    return llvm::Error::success();
  const CudaDriver &driver = loadedDriver();
  return driver.check(driver.cuMemcpyHtoD(address + offset, data, bytes),
                      "cuMemcpyHtoD");
}

llvm::Error DeviceBuffer::copyToHost(void *data, size_t bytes,
                                     size_t offset) const {
  if (llvm::Error err = checkRange(bytes, offset, size))
    return err;
  if (bytes == 0)
    return llvm::Error::success();
  const CudaDriver &driver = loadedDriver();
  return driver.check(driver.cuMemcpyDtoH(data, address + offset, bytes),
                      "cuMemcpyDtoH");
}

llvm::Error DeviceBuffer::fill(uint8_t value) {
  const CudaDriver &driver = loadedDriver();
  return driver.check(driver.cuMemsetD8(address, value, size), "cuMemsetD8");
}

//===----------------------------------------------------------------------===//
// CudaDevice
//===----------------------------------------------------------------------===//

llvm::Expected<std::unique_ptr<CudaDevice>> CudaDevice::open(int ordinal) {
  llvm::Expected<const CudaDriver &> loaded = detail::getCudaDriver();
  if (!loaded)
    return loaded.takeError();
  const CudaDriver &driver = *loaded;
  llvm::Expected<int> count = getCudaDeviceCount();
  if (!count)
    return count.takeError();
  if (ordinal < 0 || ordinal >= *count)
    return llvm::createStringError(
        "there is no GPU number " + llvm::Twine(ordinal) +
        ": the driver sees " + llvm::Twine(*count) +
        (*count == 1 ? " GPU" : " GPUs") + (*count ? ", numbered from 0" : ""));

  std::unique_ptr<CudaDevice> device(new CudaDevice());
  CUdevice handle;
  if (llvm::Error err =
          driver.check(driver.cuDeviceGet(&handle, ordinal), "cuDeviceGet"))
    return std::move(err);
  device->device = handle;
  CUcontext context;
  if (llvm::Error err =
          driver.check(driver.cuDevicePrimaryCtxRetain(&context, handle),
                       "cuDevicePrimaryCtxRetain"))
    return std::move(err);
  device->context = context;
  if (llvm::Error err =
          driver.check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return std::move(err);

  CudaDeviceInfo &info = device->info;
  info.ordinal = ordinal;
  info.driverVersion = driver.version;
  char name[256] = {0};
  if (llvm::Error err =
          driver.check(driver.cuDeviceGetName(name, sizeof(name) - 1, handle),
                       "cuDeviceGetName"))
    return std::move(err);
  info.name = name;
  auto get = [&](CUdevice_attribute attribute, auto &value) -> llvm::Error {
    int result = 0;
    if (llvm::Error err = driver.check(
            driver.cuDeviceGetAttribute(&result, attribute, handle),
            "cuDeviceGetAttribute"))
      return err;
    value = result;
    return llvm::Error::success();
  };
  if (llvm::Error err = llvm::joinErrors(
          llvm::joinErrors(get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                               info.computeCapabilityMajor),
                           get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                               info.computeCapabilityMinor)),
          llvm::joinErrors(get(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                               info.multiprocessorCount),
                           get(CU_DEVICE_ATTRIBUTE_WARP_SIZE, info.warpSize))))
    return std::move(err);
  if (llvm::Error err = llvm::joinErrors(
          llvm::joinErrors(
              get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                  info.maxThreadsPerBlock),
              get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, info.maxGridSize[0])),
          llvm::joinErrors(
              get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, info.maxGridSize[1]),
              get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, info.maxGridSize[2]))))
    return std::move(err);
  if (llvm::Error err = llvm::joinErrors(
          get(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
              info.registersPerMultiprocessor),
          llvm::joinErrors(
              get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
                  info.sharedMemoryPerMultiprocessor),
              get(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, info.l2CacheBytes))))
    return std::move(err);
  // Only the cost model's: a driver that does not say leaves them 0.
  llvm::consumeError(llvm::joinErrors(
      get(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, info.memoryClockKHz),
      get(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
          info.memoryBusWidthBits)));
  size_t total = 0;
  if (llvm::Error err = driver.check(driver.cuDeviceTotalMem(&total, handle),
                                     "cuDeviceTotalMem"))
    return std::move(err);
  info.totalMemoryBytes = static_cast<int64_t>(total);
  return std::move(device);
}

CudaDevice::~CudaDevice() {
  if (!context)
    return;
  const CudaDriver &driver = loadedDriver();
  (void)driver.cuCtxSetCurrent(nullptr);
  (void)driver.cuDevicePrimaryCtxRelease(device);
}

llvm::Expected<std::unique_ptr<CudaModule>>
CudaDevice::loadModule(llvm::StringRef image, JitLog *log) {
  const CudaDriver &driver = loadedDriver();
  // The image as a NUL-terminated string: PTX must be one.
  std::string data = image.str();
  constexpr size_t logSize = 1 << 16;
  std::string infoLog(logSize, '\0'), errorLog(logSize, '\0');
  CUjit_option options[] = {
      CU_JIT_INFO_LOG_BUFFER,  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE,      CU_JIT_WALL_TIME,
  };
  void *values[] = {
      infoLog.data(),
      reinterpret_cast<void *>(static_cast<uintptr_t>(logSize - 1)),
      errorLog.data(),
      reinterpret_cast<void *>(static_cast<uintptr_t>(logSize - 1)),
      reinterpret_cast<void *>(static_cast<uintptr_t>(1)),
      nullptr,
  };
  CUmodule module = nullptr;
  CUresult result = driver.cuModuleLoadDataEx(
      &module, data.c_str(), std::size(options), options, values);
  // The driver replaces the sizes with the bytes it wrote and the wall-time
  // slot with a float.
  auto logText = [](std::string &text) {
    text.resize(strnlen(text.data(), text.size()));
    return llvm::StringRef(text).rtrim().str();
  };
  JitLog jit;
  jit.info = logText(infoLog);
  jit.error = logText(errorLog);
  float wall = 0;
  std::memcpy(&wall, &values[5], sizeof(float));
  jit.wallMilliseconds = wall;
  if (log)
    *log = jit;
  if (llvm::Error err = driver.check(result, "cuModuleLoadDataEx")) {
    std::string message = llvm::toString(std::move(err));
    message += jit.error.empty() ? std::string("; the JIT's error log is empty")
                                 : "; the JIT's error log:\n" + jit.error;
    if (!jit.info.empty())
      message += "\nthe JIT's info log:\n" + jit.info;
    return llvm::createStringError(message);
  }
  return std::unique_ptr<CudaModule>(
      new CudaModule(module, getPtxGlobals(image)));
}

llvm::Expected<DeviceBuffer> CudaDevice::allocate(size_t bytes) {
  const CudaDriver &driver = loadedDriver();
  CUdeviceptr address = 0;
  if (llvm::Error err =
          driver.check(driver.cuMemAlloc(&address, std::max<size_t>(bytes, 1)),
                       "cuMemAlloc"))
    return llvm::createStringError(
        "cannot allocate " + llvm::Twine(bytes) +
        " bytes on the GPU: " + llvm::toString(std::move(err)));
  return DeviceBuffer(address, bytes);
}

llvm::Error CudaDevice::synchronize() {
  const CudaDriver &driver = loadedDriver();
  return driver.check(driver.cuCtxSynchronize(), "cuCtxSynchronize");
}

llvm::Error CudaDevice::copyToHost(void *data, uint64_t address,
                                   size_t bytes) const {
  if (bytes == 0)
    return llvm::Error::success();
  const CudaDriver &driver = loadedDriver();
  return driver.check(driver.cuMemcpyDtoH(data, address, bytes),
                      "cuMemcpyDtoH");
}

CudaContextScope::CudaContextScope() {
  const CudaDriver *driver = detail::getCudaDriverIfLoaded();
  CUcontext current = nullptr;
  if (!driver || driver->cuCtxGetCurrent(&current) != CUDA_SUCCESS)
    return;
  previous = current;
  restore = current != nullptr;
}

CudaContextScope::CudaContextScope(const CudaDevice &device) {
  const CudaDriver &driver = loadedDriver();
  CUcontext current = nullptr;
  if (driver.cuCtxGetCurrent(&current) != CUDA_SUCCESS)
    current = nullptr;
  if (current == device.getContext())
    return;
  previous = current;
  restore = current != nullptr;
  (void)driver.cuCtxSetCurrent(static_cast<CUcontext>(device.getContext()));
}

CudaContextScope::~CudaContextScope() {
  if (!restore)
    return;
  const CudaDriver &driver = loadedDriver();
  CUcontext current = nullptr;
  if (driver.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == previous)
    return;
  (void)driver.cuCtxSetCurrent(static_cast<CUcontext>(previous));
}

//===----------------------------------------------------------------------===//
// CudaModule and CudaFunction
//===----------------------------------------------------------------------===//

CudaModule::~CudaModule() {
  if (module)
    (void)loadedDriver().cuModuleUnload(static_cast<CUmodule>(module));
}

/// Reads the global `<kernel><suffix>` of `module` into `bytes`, where it
/// has one (false where not): what the compiler tells the launcher
/// (tile/Conversion/KernelABI.h), `what` for messages, at most `maxBytes`.
/// A name missing from `globals`, where the image's are known, is not asked
/// of the driver.
static llvm::Expected<bool>
readKernelGlobal(void *module, const std::optional<llvm::StringSet<>> &globals,
                 llvm::StringRef kernel, llvm::StringRef suffix,
                 llvm::StringRef what, size_t maxBytes,
                 std::vector<uint8_t> &bytes) {
  const CudaDriver &driver = loadedDriver();
  std::string symbol = (kernel + suffix).str();
  if (globals && !globals->contains(symbol))
    return false;
  CUdeviceptr address = 0;
  size_t size = 0;
  CUresult result = driver.cuModuleGetGlobal(
      &address, &size, static_cast<CUmodule>(module), symbol.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    return false;
  if (llvm::Error err = driver.check(result, "cuModuleGetGlobal"))
    return std::move(err);
  if (size > maxBytes)
    return llvm::createStringError("kernel '" + kernel + "' declares " + what +
                                   " in a global of " + llvm::Twine(size) +
                                   " bytes; expected at "
                                   "most " +
                                   llvm::Twine(maxBytes));
  bytes.assign(size, 0);
  if (llvm::Error err = driver.check(
          driver.cuMemcpyDtoH(bytes.data(), address, size), "cuMemcpyDtoH"))
    return std::move(err);
  return true;
}

llvm::Expected<CudaFunction>
CudaModule::getFunction(llvm::StringRef name) const {
  const CudaDriver &driver = loadedDriver();
  CUfunction handle = nullptr;
  std::string nameString = name.str();
  CUresult result = driver.cuModuleGetFunction(
      &handle, static_cast<CUmodule>(module), nameString.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    return llvm::createStringError("the loaded module has no kernel named '" +
                                   name + "'");
  if (llvm::Error err = driver.check(result, "cuModuleGetFunction"))
    return std::move(err);

  CudaFunction function;
  function.handle = handle;
  function.name = nameString;
  auto get = [&](CUfunction_attribute attribute, int &value) {
    return driver.check(driver.cuFuncGetAttribute(&value, attribute, handle),
                        "cuFuncGetAttribute");
  };
  if (llvm::Error err = llvm::joinErrors(
          llvm::joinErrors(
              get(CU_FUNC_ATTRIBUTE_NUM_REGS, function.numRegisters),
              get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function.sharedBytes)),
          llvm::joinErrors(
              get(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, function.localBytes),
              get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                  function.maxThreadsPerBlock))))
    return std::move(err);

  // Its tensor maps' recipes, where it takes any (at most 64 maps', the
  // bound of TensorMapRecipe.cpp).
  std::vector<uint8_t> bytes;
  llvm::Expected<bool> found = readKernelGlobal(
      module, globals, name, kTensorMapsSuffix, "its tensor maps",
      4 * (2 + 64 * kTensorMapWords), bytes);
  if (!found)
    return found.takeError();
  if (*found) {
    if (bytes.size() % 4 != 0)
      return llvm::createStringError(
          "kernel '" + name + "' declares its tensor maps in a global of " +
          llvm::Twine(bytes.size()) + " bytes; expected whole 32-bit words");
    std::vector<int32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    llvm::Expected<std::vector<TensorMapRecipe>> recipes =
        parseTensorMapRecipes(words, name);
    if (!recipes)
      return recipes.takeError();
    function.tensorMaps = std::move(*recipes);
  }

  // The workspace of its grid reductions, where it has any (only its
  // presence matters: a launch runs such a kernel cooperatively).
  std::string gridSymbol = (name + kGridReduceSuffix).str();
  if (!globals || globals->contains(gridSymbol)) {
    CUdeviceptr address = 0;
    size_t size = 0;
    CUresult result = driver.cuModuleGetGlobal(
        &address, &size, static_cast<CUmodule>(module), gridSymbol.c_str());
    if (result != CUDA_ERROR_NOT_FOUND) {
      if (llvm::Error err = driver.check(result, "cuModuleGetGlobal"))
        return std::move(err);
      function.gridReduce = true;
    }
  }

  // Dynamic shared memory, where the kernel declares it.
  found =
      readKernelGlobal(module, globals, name, kDynamicSharedSuffix,
                       "its dynamic shared memory", sizeof(uint32_t), bytes);
  if (!found)
    return found.takeError();
  if (!*found)
    return function;
  uint32_t dynamicBytes = 0;
  if (bytes.size() != sizeof(dynamicBytes))
    return llvm::createStringError("kernel '" + name + "' declares its " +
                                   "dynamic shared memory in a global of " +
                                   llvm::Twine(bytes.size()) +
                                   " bytes; expected a 32-bit integer");
  std::memcpy(&dynamicBytes, bytes.data(), sizeof(dynamicBytes));
  if (dynamicBytes == 0)
    return function;
  if (!driver.cuFuncSetAttribute)
    return llvm::createStringError(
        "kernel '" + name + "' needs " + llvm::Twine(dynamicBytes) +
        " bytes of dynamic shared memory, which needs a CUDA driver with "
        "cuFuncSetAttribute");
  if (llvm::Error err = driver.check(
          driver.cuFuncSetAttribute(
              handle, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
              static_cast<int>(dynamicBytes)),
          "cuFuncSetAttribute"))
    return llvm::createStringError(
        "kernel '" + name + "' needs " + llvm::Twine(dynamicBytes) +
        " bytes of shared memory per block, which this GPU does not allow (" +
        llvm::toString(std::move(err)) + ")");
  function.dynamicSharedBytes = static_cast<int>(dynamicBytes);
  return function;
}

llvm::Expected<int>
CudaFunction::getMaxActiveBlocksPerMultiprocessor(int blockSize) const {
  const CudaDriver &driver = loadedDriver();
  int blocks = 0;
  if (llvm::Error err =
          driver.check(driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                           &blocks, static_cast<CUfunction>(handle), blockSize,
                           /*dynamicSMemSize=*/dynamicSharedBytes),
                       "cuOccupancyMaxActiveBlocksPerMultiprocessor"))
    return std::move(err);
  return blocks;
}

/// A launch configuration of `function`, with one attribute: its cluster
/// dimension, or, for a kernel that reduces across its grid, a cooperative
/// launch.
static CUlaunchConfig getLaunchConfig(const CudaFunction &function,
                                      std::array<unsigned, 3> grid,
                                      unsigned blockSize,
                                      CUlaunchAttribute &attribute,
                                      CUstream stream = nullptr) {
  attribute = CUlaunchAttribute{};
  if (function.gridReduce) {
    attribute.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attribute.value.cooperative = 1;
  } else {
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = static_cast<unsigned>(function.clusterSize);
    attribute.value.clusterDim.y = attribute.value.clusterDim.z = 1;
  }
  CUlaunchConfig config{};
  config.gridDimX = grid[0];
  config.gridDimY = grid[1];
  config.gridDimZ = grid[2];
  config.blockDimX = blockSize;
  config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = function.dynamicSharedBytes;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

llvm::Error CudaFunction::setClusterSize(int size) {
  const CudaDriver &driver = loadedDriver();
  if (size > 1 &&
      (!driver.cuLaunchKernelEx || !driver.cuOccupancyMaxActiveClusters ||
       !driver.cuFuncSetAttribute))
    return llvm::createStringError(
        "@" + name +
        " runs in clusters, which need a CUDA driver with cuLaunchKernelEx "
        "(CUDA 12 or later)");
  if (size > 8)
    if (llvm::Error err = driver.check(
            driver.cuFuncSetAttribute(
                static_cast<CUfunction>(handle),
                CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
            "cuFuncSetAttribute"))
      return llvm::createStringError(
          "@" + name + " runs in clusters of " + llvm::Twine(size) +
          " blocks, more than the 8 every GPU with clusters takes, and this "
          "GPU does not allow it: " +
          llvm::toString(std::move(err)));
  clusterSize = size;
  return llvm::Error::success();
}

llvm::Expected<int> CudaFunction::getMaxActiveClusters(int blockSize) const {
  const CudaDriver &driver = loadedDriver();
  CUlaunchAttribute cluster;
  // The grid only has to be a multiple of the cluster.
  CUlaunchConfig config =
      getLaunchConfig(*this, {static_cast<unsigned>(clusterSize), 1, 1},
                      static_cast<unsigned>(blockSize), cluster);
  int clusters = 0;
  if (llvm::Error err =
          driver.check(driver.cuOccupancyMaxActiveClusters(
                           &clusters, static_cast<CUfunction>(handle), &config),
                       "cuOccupancyMaxActiveClusters"))
    return std::move(err);
  return clusters;
}

llvm::Error CudaFunction::checkParameters(size_t count) const {
  const CudaDriver &driver = loadedDriver();
  if (!driver.cuFuncGetParamInfo)
    return llvm::Error::success();
  for (size_t index = 0, all = count + tensorMaps.size(); index < all;
       ++index) {
    size_t offset = 0, size = 0;
    CUresult result = driver.cuFuncGetParamInfo(static_cast<CUfunction>(handle),
                                                index, &offset, &size);
    if (result == CUDA_ERROR_INVALID_VALUE)
      return llvm::createStringError(
          "the compiled @" + name + " has " + llvm::Twine(index) +
          (index == 1 ? " parameter" : " parameters") + "; the launch gives " +
          llvm::Twine(count));
    if (llvm::Error err = driver.check(result, "cuFuncGetParamInfo"))
      return err;
    if (index >= count) {
      if (size != sizeof(TensorMap))
        return llvm::createStringError("parameter " + llvm::Twine(index) +
                                       " of the compiled @" + name + " has " +
                                       llvm::Twine(size) +
                                       " bytes; its module says it is a "
                                       "tensor map, of " +
                                       llvm::Twine(sizeof(TensorMap)));
      continue;
    }
    if (size > sizeof(uint64_t))
      return llvm::createStringError(
          "parameter " + llvm::Twine(index) + " of the compiled @" + name +
          " has " + llvm::Twine(size) + " bytes; a launch passes at most 8");
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

llvm::Error
mlir::tile::launchKernel(const CudaDevice &device, const CudaFunction &function,
                         std::array<unsigned, 3> grid, unsigned blockSize,
                         llvm::ArrayRef<void *> params, void *stream) {
  const CudaDeviceInfo &info = device.getInfo();
  // Made only for a message: a launch allocates nothing.
  auto kernel = [&] { return "@" + function.name; };
  if (blockSize == 0 ||
      blockSize > static_cast<unsigned>(function.maxThreadsPerBlock))
    return llvm::createStringError("cannot launch " + kernel() + " with " +
                                   llvm::Twine(blockSize) +
                                   " threads per block: it takes 1 to " +
                                   llvm::Twine(function.maxThreadsPerBlock));
  for (unsigned axis = 0; axis < 3; ++axis)
    if (grid[axis] == 0 ||
        grid[axis] > static_cast<unsigned>(info.maxGridSize[axis]))
      return llvm::createStringError(
          "cannot launch " + kernel() + " with " + llvm::Twine(grid[axis]) +
          " programs along " + llvm::Twine("xyz"[axis]) + ": " + info.name +
          " takes 1 to " + llvm::Twine(info.maxGridSize[axis]));
  const CudaDriver &driver = loadedDriver();
  // The tensor maps of its TMA copies, made from this launch's arguments
  // and passed after them (the driver copies the parameters at the call).
  std::vector<TensorMap> maps;
  llvm::SmallVector<void *> withMaps;
  if (!function.tensorMaps.empty()) {
    maps.reserve(function.tensorMaps.size());
    for (const TensorMapRecipe &recipe : function.tensorMaps) {
      llvm::Expected<TensorMapSpec> spec = getTensorMapSpec(
          recipe, params, function.name, info.computeCapabilityMajor,
          info.computeCapabilityMinor);
      if (!spec)
        return llvm::make_error<TensorMapError>(
            "cannot launch " + kernel() + ": " +
            llvm::toString(spec.takeError()));
      llvm::Expected<TensorMap> map =
          device.getTensorMapCache().get(*spec, [&](const TensorMapSpec &spec) {
            return encodeTensorMap(device, spec);
          });
      if (!map)
        return llvm::make_error<TensorMapError>(
            "cannot launch " + kernel() + ": " +
            llvm::toString(map.takeError()));
      maps.push_back(*map);
    }
    withMaps.assign(params.begin(), params.end());
    for (TensorMap &map : maps)
      withMaps.push_back(&map);
    params = withMaps;
  }
  if (function.gridReduce) {
    // Its programs wait for one another: all must be resident at once.
    int64_t programs = int64_t(grid[0]) * grid[1] * grid[2];
    if (programs > kMaxGridReducePrograms)
      return llvm::createStringError(
          "cannot launch " + kernel() + " on " + llvm::Twine(programs) +
          " programs: it reduces across its grid (tile.grid_reduce), which "
          "takes at most " +
          llvm::Twine(kMaxGridReducePrograms));
    llvm::Expected<int> perSM =
        function.getMaxActiveBlocksPerMultiprocessor(blockSize);
    if (!perSM)
      return perSM.takeError();
    int64_t resident = int64_t(*perSM) * info.multiprocessorCount;
    if (programs > resident)
      return llvm::createStringError(
          "cannot launch " + kernel() + " on " + llvm::Twine(programs) +
          " programs: it reduces across its grid (tile.grid_reduce), so all "
          "of its programs must run at once, and " +
          info.name + " holds " + llvm::Twine(resident) + " of them (" +
          llvm::Twine(*perSM) + " per SM); use a persistent grid");
    if (!driver.cuLaunchKernelEx)
      return llvm::createStringError(
          kernel() + " reduces across its grid, which needs a CUDA driver "
                     "with cuLaunchKernelEx (CUDA 12 or later)");
  }
  if (function.clusterSize > 1 && grid[0] % function.clusterSize)
    return llvm::createStringError(
        "cannot launch " + kernel() + " with " + llvm::Twine(grid[0]) +
        " programs along x: it runs in clusters of " +
        llvm::Twine(function.clusterSize) +
        " (tile.cluster_size), and the grid must be a multiple of that");
  if (function.gridReduce || function.clusterSize > 1) {
    CUlaunchAttribute attribute;
    CUlaunchConfig config = getLaunchConfig(
        function, grid, blockSize, attribute, static_cast<CUstream>(stream));
    if (llvm::Error err =
            driver.check(driver.cuLaunchKernelEx(
                             &config, static_cast<CUfunction>(function.handle),
                             const_cast<void **>(params.data()),
                             /*extra=*/nullptr),
                         "cuLaunchKernelEx"))
      return llvm::createStringError("launching " + kernel() + " failed: " +
                                     llvm::toString(std::move(err)));
    return llvm::Error::success();
  }
  if (llvm::Error err = driver.check(
          driver.cuLaunchKernel(
              static_cast<CUfunction>(function.handle), grid[0], grid[1],
              grid[2], blockSize, 1, 1, function.dynamicSharedBytes,
              static_cast<CUstream>(stream), const_cast<void **>(params.data()),
              /*extra=*/nullptr),
          "cuLaunchKernel"))
    return llvm::createStringError(
        "launching " + kernel() + " failed: " + llvm::toString(std::move(err)));
  return llvm::Error::success();
}
