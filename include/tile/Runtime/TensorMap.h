//===- TensorMap.h - TMA tensor maps for kernel parameters ------*- C++ -*-===//
//
// A tensor map (CUtensorMap) describes a tiled region of a global buffer to
// the Tensor Memory Accelerator of an sm_90 GPU: its element type, sizes
// and strides, the box one copy moves into shared memory, and the
// swizzling of the box there. The driver encodes it
// (cuTensorMapEncodeTiled); the kernel receives it by value, as a
// __grid_constant__ parameter. TMA's rules for the region (cuda.h, at
// cuTensorMapEncodeTiled) are checked here first, so that a buffer that
// breaks them gets an error naming the rule before anything is launched,
// never a fault on the GPU: the driver's own answer is an unexplained
// CUDA_ERROR_INVALID_VALUE.
//
// Dimensions are innermost first, as TMA counts them: dims[0] is a row's
// length in elements, strides[0] the distance between rows in bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TENSORMAP_H
#define TILE_RUNTIME_TENSORMAP_H

#include "tile/HostData/DataType.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <list>
#include <mutex>
#include <string>

namespace mlir::tile {

class CudaDevice;

/// How TMA lays a box's rows out in shared memory: each 16-byte chunk of a
/// row moved within a span of this many bytes, by the row's index, so that
/// reading a column of chunks touches every bank.
enum class TensorMapSwizzle { None, Bytes32, Bytes64, Bytes128 };

/// "none", "32", "64", "128".
llvm::StringRef getSwizzleName(TensorMapSwizzle swizzle);

/// The span of a swizzle in bytes (0 for None).
unsigned getSwizzleBytes(TensorMapSwizzle swizzle);

/// The region a tensor map describes.
struct TensorMapSpec {
  DataType elementType = DataType::F32;
  /// The device address of element (0, ..., 0).
  uint64_t address = 0;
  /// Elements along each dimension, innermost first (1 to 5 of them).
  llvm::SmallVector<uint64_t, 5> dims;
  /// Bytes between consecutive elements along dimensions 1 and up (one
  /// fewer than dims): the innermost is contiguous.
  llvm::SmallVector<uint64_t, 4> strides;
  /// Elements of the box one copy moves, along each dimension.
  llvm::SmallVector<uint32_t, 5> box;
  TensorMapSwizzle swizzle = TensorMapSwizzle::None;

  /// "f16 [4096 x 8192] (rows of 16384 bytes) at 0x7f..., box [128 x 64],
  /// swizzle 128", outermost first as a shape is written.
  std::string str() const;
};

/// The opaque 128 bytes the driver encodes, aligned as cuda.h aligns them.
struct alignas(128) TensorMap {
  uint64_t opaque[16] = {};
};
static_assert(sizeof(TensorMap) == 128, "CUtensorMap is 128 bytes");

/// Checks `spec` against TMA's rules, for a GPU of compute capability
/// `major`.`minor`: an error naming the first rule broken and the values
/// that break it.
llvm::Error checkTensorMap(const TensorMapSpec &spec, int major, int minor);

/// Checks `spec` (checkTensorMap, for `device`) and encodes it with the
/// driver.
llvm::Expected<TensorMap> encodeTensorMap(const CudaDevice &device,
                                          const TensorMapSpec &spec);

/// The tensor maps a device has encoded, by their region: a map is a
/// function of its spec alone (type, address, sizes, strides, box,
/// swizzle), so a launch on the same buffers and shapes as one before takes
/// the map made then instead of asking the driver again (each
/// cuTensorMapEncodeTiled costs microseconds of the launch's host time).
/// At most kCapacity maps, the least recently used dropped first. Safe to
/// use from several threads.
class TensorMapCache {
public:
  static constexpr size_t kCapacity = 256;
  using Encoder =
      llvm::function_ref<llvm::Expected<TensorMap>(const TensorMapSpec &)>;

  /// The map of `spec`: the one kept, or `encode(spec)`, kept unless it
  /// fails.
  llvm::Expected<TensorMap> get(const TensorMapSpec &spec, Encoder encode);

  size_t size() const;
  /// The lookups the cache answered, and those it encoded.
  uint64_t getHits() const;
  uint64_t getMisses() const;

private:
  mutable std::mutex mutex;
  /// The most recently used first.
  std::list<std::pair<std::string, TensorMap>> entries;
  llvm::StringMap<std::list<std::pair<std::string, TensorMap>>::iterator> index;
  uint64_t hits = 0, misses = 0;
};

} // namespace mlir::tile

#endif // TILE_RUNTIME_TENSORMAP_H
