//===- TensorMapRecipe.h - The tensor maps a kernel takes -------*- C++ -*-===//
//
// A kernel whose TMA copies read tensor descriptors takes a tensor map per
// descriptor, as hidden parameters after its own, and its module says how
// to make each from the launch's arguments (`<kernel>_tensor_maps`, in the
// format tile/Conversion/KernelABI.h sets). This reads those recipes,
// checking every word (a module is a file, and a file can be corrupt), and
// makes each map's TensorMapSpec at a launch.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TENSORMAPRECIPE_H
#define TILE_RUNTIME_TENSORMAPRECIPE_H

#include "tile/Runtime/TensorMap.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <string>
#include <vector>

namespace mlir::tile {

/// How to make one tensor map from a launch's parameters.
struct TensorMapRecipe {
  /// The kernel parameter holding the tensor's base (a device pointer).
  unsigned baseArg = 0;
  DataType elementType = DataType::F16;
  /// 1 or 2.
  unsigned rank = 2;
  /// Sizes innermost first, then the row stride in elements: each a
  /// constant (>= 0), or -1 - i for the value of the kernel's i32
  /// parameter i.
  std::array<int32_t, 2> sizes = {0, 0};
  int32_t rowStride = 0;
  /// The box of one copy, innermost first.
  std::array<uint32_t, 2> box = {1, 1};
  TensorMapSwizzle swizzle = TensorMapSwizzle::None;
};

/// Reads the recipes of `kernel`'s maps from the words of its
/// `_tensor_maps` global; an error naming the kernel and the first word
/// that is wrong.
llvm::Expected<std::vector<TensorMapRecipe>>
parseTensorMapRecipes(llvm::ArrayRef<int32_t> words, llvm::StringRef kernel);

/// The map `recipe` describes at a launch of `kernel` whose parameter i's
/// value `params[i]` points to (cuLaunchKernel's kernelParams: 8 bytes for
/// a pointer, 4 for an i32), checked against TMA's rules for a GPU of
/// compute capability `major`.`minor`.
llvm::Expected<TensorMapSpec> getTensorMapSpec(const TensorMapRecipe &recipe,
                                               llvm::ArrayRef<void *> params,
                                               llvm::StringRef kernel,
                                               int major, int minor);

/// Why a launch's tensor maps cannot be made (launchKernel): its arguments
/// break TMA's rules (a size of 0, a row stride under the row). No launch
/// was made. A kernel whose maps are the compiler's own
/// (tile-loads-to-descs, not a tile.make_tensor_desc of the kernel's) runs
/// compiled without TMA instead (KernelRunner, the C API's launches).
class TensorMapError : public llvm::ErrorInfo<TensorMapError> {
public:
  static char ID;
  explicit TensorMapError(std::string why) : why(std::move(why)) {}
  void log(llvm::raw_ostream &os) const override { os << why; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string why;
};

} // namespace mlir::tile

#endif // TILE_RUNTIME_TENSORMAPRECIPE_H
