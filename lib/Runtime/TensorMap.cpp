//===- TensorMap.cpp - TMA tensor maps for kernel parameters --------------===//
//
// TMA's rules for a tiled region, as cuda.h states them at
// cuTensorMapEncodeTiled (CUDA 13.0), for the element types tile has and
// no interleaving; then the driver's encoding. See TensorMap.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TensorMap.h"

#include "CudaDriver.h"
#include "tile/Runtime/Cuda.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;

llvm::StringRef mlir::tile::getSwizzleName(TensorMapSwizzle swizzle) {
  switch (swizzle) {
  case TensorMapSwizzle::None:
    return "none";
  case TensorMapSwizzle::Bytes32:
    return "32";
  case TensorMapSwizzle::Bytes64:
    return "64";
  case TensorMapSwizzle::Bytes128:
    return "128";
  }
  llvm_unreachable("a TensorMapSwizzle");
}

unsigned mlir::tile::getSwizzleBytes(TensorMapSwizzle swizzle) {
  switch (swizzle) {
  case TensorMapSwizzle::None:
    return 0;
  case TensorMapSwizzle::Bytes32:
    return 32;
  case TensorMapSwizzle::Bytes64:
    return 64;
  case TensorMapSwizzle::Bytes128:
    return 128;
  }
  llvm_unreachable("a TensorMapSwizzle");
}

/// `values` outermost first: "4096 x 8192".
template <typename T> static std::string shape(llvm::ArrayRef<T> values) {
  return llvm::join(
      llvm::map_range(llvm::reverse(values),
                      [](T value) { return std::to_string(value); }),
      " x ");
}

std::string TensorMapSpec::str() const {
  std::string text = llvm::formatv("{0} [{1}]", getDataTypeName(elementType),
                                   shape<uint64_t>(dims));
  if (!strides.empty())
    text += llvm::formatv(" (strides of {0} bytes)", shape<uint64_t>(strides));
  text += llvm::formatv(" at {0:x}, box [{1}], swizzle {2}", address,
                        shape<uint32_t>(box), getSwizzleName(swizzle));
  return text;
}

/// The driver's data type for `type`, or -1 where TMA has none.
static int getTensorMapDataType(DataType type) {
  switch (type) {
  case DataType::F16:
    return cuda::CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DataType::BF16:
    return cuda::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DataType::F32:
    return cuda::CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DataType::I1:
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
    return cuda::CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case DataType::I32:
    return cuda::CU_TENSOR_MAP_DATA_TYPE_INT32;
  case DataType::I64:
    return cuda::CU_TENSOR_MAP_DATA_TYPE_INT64;
  case DataType::Ptr:
    return -1;
  }
  llvm_unreachable("a DataType");
}

static int getDriverSwizzle(TensorMapSwizzle swizzle) {
  switch (swizzle) {
  case TensorMapSwizzle::None:
    return cuda::CU_TENSOR_MAP_SWIZZLE_NONE;
  case TensorMapSwizzle::Bytes32:
    return cuda::CU_TENSOR_MAP_SWIZZLE_32B;
  case TensorMapSwizzle::Bytes64:
    return cuda::CU_TENSOR_MAP_SWIZZLE_64B;
  case TensorMapSwizzle::Bytes128:
    return cuda::CU_TENSOR_MAP_SWIZZLE_128B;
  }
  llvm_unreachable("a TensorMapSwizzle");
}

llvm::Error mlir::tile::checkTensorMap(const TensorMapSpec &spec, int major,
                                       int minor) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError("cannot describe " + spec.str() +
                                   " to TMA: " + why);
  };
  if (major < 9)
    return fail(llvm::formatv("tensor maps need an sm_90 GPU or later, and "
                              "this one is sm_{0}{1}",
                              major, minor)
                    .str());
  if (getTensorMapDataType(spec.elementType) < 0)
    return fail("TMA copies numbers, not pointers");
  size_t rank = spec.dims.size();
  if (rank < 1 || rank > 5)
    return fail(llvm::formatv("{0} dimensions (TMA takes 1 to 5)", rank).str());
  if (spec.box.size() != rank || spec.strides.size() != rank - 1)
    return fail(llvm::formatv("{0} dimensions need {0} box sizes and {1} "
                              "strides (given {2} and {3})",
                              rank, rank - 1, spec.box.size(),
                              spec.strides.size())
                    .str());
  if (spec.address % 16 != 0)
    return fail("the buffer's address is not a multiple of 16 bytes");
  unsigned elementBytes = getDataTypeSize(spec.elementType);
  for (auto [index, dim] : llvm::enumerate(spec.dims))
    if (dim < 1 || dim > (uint64_t(1) << 32))
      return fail(llvm::formatv("dimension {0} holds {1} elements (TMA takes "
                                "1 to 2^32)",
                                index, dim)
                      .str());
  uint64_t extent = spec.dims[0] * elementBytes;
  for (auto [index, stride] : llvm::enumerate(spec.strides)) {
    if (stride % 16 != 0)
      return fail(llvm::formatv("dimension {0}'s stride, {1} bytes, is not a "
                                "multiple of 16",
                                index + 1, stride)
                      .str());
    if (stride >= (uint64_t(1) << 40))
      return fail(llvm::formatv("dimension {0}'s stride, {1} bytes, is not "
                                "below 2^40",
                                index + 1, stride)
                      .str());
    if (stride < extent)
      return fail(llvm::formatv("dimension {0}'s stride, {1} bytes, is less "
                                "than the {2} bytes of the dimensions inside "
                                "it: TMA needs them laid out without overlap",
                                index + 1, stride, extent)
                      .str());
    extent = stride * spec.dims[index + 1];
  }
  for (auto [index, size] : llvm::enumerate(spec.box))
    if (size < 1 || size > 256)
      return fail(llvm::formatv("the box holds {0} elements along dimension "
                                "{1} (TMA takes 1 to 256)",
                                size, index)
                      .str());
  uint64_t rowBytes = uint64_t(spec.box[0]) * elementBytes;
  if (rowBytes % 16 != 0)
    return fail(llvm::formatv("the box's rows are {0} bytes, not a multiple "
                              "of 16",
                              rowBytes)
                    .str());
  unsigned span = getSwizzleBytes(spec.swizzle);
  if (span && rowBytes > span)
    return fail(llvm::formatv("the box's rows are {0} bytes, wider than the "
                              "{1}-byte swizzle",
                              rowBytes, span)
                    .str());
  return llvm::Error::success();
}

llvm::Expected<TensorMap>
mlir::tile::encodeTensorMap(const CudaDevice &device,
                            const TensorMapSpec &spec) {
  const CudaDeviceInfo &info = device.getInfo();
  if (llvm::Error err = checkTensorMap(spec, info.computeCapabilityMajor,
                                       info.computeCapabilityMinor))
    return std::move(err);
  llvm::Expected<const detail::CudaDriver &> driver = detail::getCudaDriver();
  if (!driver)
    return driver.takeError();
  if (!driver->cuTensorMapEncodeTiled)
    return llvm::createStringError(
        llvm::formatv("the CUDA driver {0} has no cuTensorMapEncodeTiled: "
                      "tensor maps need CUDA 12.0 or later",
                      driver->path)
            .str());
  llvm::SmallVector<unsigned long long, 5> dims(spec.dims.begin(),
                                                spec.dims.end());
  llvm::SmallVector<unsigned long long, 4> strides(spec.strides.begin(),
                                                   spec.strides.end());
  llvm::SmallVector<unsigned, 5> box(spec.box.begin(), spec.box.end());
  llvm::SmallVector<unsigned, 5> elementStrides(spec.box.size(), 1);
  cuda::CUtensorMap encoded;
  if (llvm::Error err =
          driver->check(driver->cuTensorMapEncodeTiled(
                            &encoded, getTensorMapDataType(spec.elementType),
                            static_cast<unsigned>(dims.size()),
                            reinterpret_cast<void *>(spec.address), dims.data(),
                            strides.data(), box.data(), elementStrides.data(),
                            cuda::CU_TENSOR_MAP_INTERLEAVE_NONE,
                            getDriverSwizzle(spec.swizzle),
                            cuda::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                            cuda::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                        "cuTensorMapEncodeTiled"))
    return llvm::createStringError("cannot encode " + spec.str() + ": " +
                                   llvm::toString(std::move(err)));
  TensorMap result;
  static_assert(sizeof(result.opaque) == sizeof(encoded.opaque));
  std::copy(std::begin(encoded.opaque), std::end(encoded.opaque),
            std::begin(result.opaque));
  return result;
}

//===----------------------------------------------------------------------===//
// TensorMapCache
//===----------------------------------------------------------------------===//

/// Every field of `spec`, as bytes: two specs have the same key exactly
/// when they describe the same map.
static std::string getKey(const TensorMapSpec &spec) {
  std::string key;
  auto add = [&](uint64_t value) {
    key.append(reinterpret_cast<const char *>(&value), sizeof(value));
  };
  add(static_cast<uint64_t>(spec.elementType));
  add(static_cast<uint64_t>(spec.swizzle));
  add(spec.address);
  add(spec.dims.size());
  for (uint64_t dim : spec.dims)
    add(dim);
  add(spec.strides.size());
  for (uint64_t stride : spec.strides)
    add(stride);
  add(spec.box.size());
  for (uint32_t size : spec.box)
    add(size);
  return key;
}

llvm::Expected<TensorMap> TensorMapCache::get(const TensorMapSpec &spec,
                                              Encoder encode) {
  std::string key = getKey(spec);
  std::lock_guard<std::mutex> lock(mutex);
  auto found = index.find(key);
  if (found != index.end()) {
    ++hits;
    entries.splice(entries.begin(), entries, found->second);
    return found->second->second;
  }
  ++misses;
  llvm::Expected<TensorMap> map = encode(spec);
  if (!map)
    return map.takeError();
  entries.emplace_front(key, *map);
  index[key] = entries.begin();
  if (entries.size() > kCapacity) {
    index.erase(entries.back().first);
    entries.pop_back();
  }
  return *map;
}

size_t TensorMapCache::size() const {
  std::lock_guard<std::mutex> lock(mutex);
  return entries.size();
}

uint64_t TensorMapCache::getHits() const {
  std::lock_guard<std::mutex> lock(mutex);
  return hits;
}

uint64_t TensorMapCache::getMisses() const {
  std::lock_guard<std::mutex> lock(mutex);
  return misses;
}
