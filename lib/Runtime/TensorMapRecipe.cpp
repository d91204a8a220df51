//===- TensorMapRecipe.cpp - The tensor maps a kernel takes ---------------===//
//
// See TensorMapRecipe.h; the format is tile/Conversion/KernelABI.h's.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TensorMapRecipe.h"

#include "tile/Conversion/KernelABI.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;

/// Bounds a module's recipes so that a corrupt count cannot ask for much.
static constexpr int32_t kMaxTensorMaps = 64;

llvm::Expected<std::vector<TensorMapRecipe>>
mlir::tile::parseTensorMapRecipes(llvm::ArrayRef<int32_t> words,
                                  llvm::StringRef kernel) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError("kernel '" + kernel +
                                   "' has a corrupt tensor map recipe (" +
                                   kTensorMapsSuffix + "): " + why);
  };
  if (words.size() < 2)
    return fail(
        llvm::formatv("{0} words; expected at least 2", words.size()).str());
  if (words[0] != kTensorMapsMagic)
    return fail(llvm::formatv("it starts with {0:x}, not {1:x} (another "
                              "format or version)",
                              static_cast<uint32_t>(words[0]),
                              static_cast<uint32_t>(kTensorMapsMagic))
                    .str());
  int32_t count = words[1];
  if (count < 0 || count > kMaxTensorMaps)
    return fail(
        llvm::formatv("{0} maps; expected 0 to {1}", count, kMaxTensorMaps)
            .str());
  size_t expected = 2 + static_cast<size_t>(count) * kTensorMapWords;
  if (words.size() != expected)
    return fail(llvm::formatv("{0} words for {1} maps; expected {2}",
                              words.size(), count, expected)
                    .str());
  std::vector<TensorMapRecipe> recipes;
  for (int32_t m = 0; m < count; ++m) {
    llvm::ArrayRef<int32_t> w =
        words.slice(2 + m * kTensorMapWords, kTensorMapWords);
    auto bad = [&](llvm::StringRef field, int32_t value,
                   llvm::StringRef expected) {
      return fail(llvm::formatv("map {0}'s {1} is {2}; expected {3}", m, field,
                                value, expected)
                      .str());
    };
    TensorMapRecipe recipe;
    if (w[kTensorMapBaseArg] < 0)
      return bad("base argument", w[kTensorMapBaseArg], "a parameter index");
    recipe.baseArg = static_cast<unsigned>(w[kTensorMapBaseArg]);
    switch (w[kTensorMapElement]) {
    case static_cast<int32_t>(TensorMapElement::F16):
      recipe.elementType = DataType::F16;
      break;
    case static_cast<int32_t>(TensorMapElement::BF16):
      recipe.elementType = DataType::BF16;
      break;
    case static_cast<int32_t>(TensorMapElement::F32):
      recipe.elementType = DataType::F32;
      break;
    case static_cast<int32_t>(TensorMapElement::I32):
      recipe.elementType = DataType::I32;
      break;
    case static_cast<int32_t>(TensorMapElement::F8E4M3FN):
      recipe.elementType = DataType::F8E4M3FN;
      break;
    case static_cast<int32_t>(TensorMapElement::F8E5M2):
      recipe.elementType = DataType::F8E5M2;
      break;
    default:
      return bad("element type", w[kTensorMapElement], "1 to 6");
    }
    int32_t rank = w[kTensorMapRank];
    if (rank != 1 && rank != 2)
      return bad("rank", rank, "1 or 2");
    recipe.rank = static_cast<unsigned>(rank);
    recipe.sizes = {w[kTensorMapSize0], w[kTensorMapSize1]};
    recipe.rowStride = w[kTensorMapRowStride];
    for (int32_t d = 0; d < 2; ++d) {
      int32_t box = w[kTensorMapBox0 + d];
      if (d < rank ? box < 1 || box > 256 : box != 1)
        return bad(d == 0 ? "inner box size" : "outer box size", box,
                   d < rank ? "1 to 256" : "1");
      recipe.box[d] = static_cast<uint32_t>(box);
    }
    if (rank == 1 && (recipe.sizes[1] != 0 || recipe.rowStride != 0))
      return bad("second size or row stride",
                 recipe.sizes[1] | recipe.rowStride, "0 for rank 1");
    switch (w[kTensorMapSwizzle]) {
    case 0:
      recipe.swizzle = TensorMapSwizzle::None;
      break;
    case 32:
      recipe.swizzle = TensorMapSwizzle::Bytes32;
      break;
    case 64:
      recipe.swizzle = TensorMapSwizzle::Bytes64;
      break;
    case 128:
      recipe.swizzle = TensorMapSwizzle::Bytes128;
      break;
    default:
      return bad("swizzle", w[kTensorMapSwizzle], "0, 32, 64 or 128");
    }
    recipes.push_back(recipe);
  }
  return recipes;
}

llvm::Expected<TensorMapSpec>
mlir::tile::getTensorMapSpec(const TensorMapRecipe &recipe,
                             llvm::ArrayRef<void *> params,
                             llvm::StringRef kernel, int major, int minor) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError("cannot make the tensor map of kernel '" +
                                   kernel + "': " + why);
  };
  if (recipe.baseArg >= params.size())
    return fail(llvm::formatv("its base is parameter {0}, and the launch "
                              "passes {1}",
                              recipe.baseArg, params.size())
                    .str());
  // A value: the constant, or the launch's i32 parameter.
  auto resolve = [&](int32_t encoded,
                     llvm::StringRef what) -> llvm::Expected<int64_t> {
    if (encoded >= 0)
      return encoded;
    int64_t index = -1 - static_cast<int64_t>(encoded);
    if (index >= static_cast<int64_t>(params.size()))
      return fail(llvm::formatv("its {0} is parameter {1}, and the launch "
                                "passes {2}",
                                what, index, params.size())
                      .str());
    int32_t value;
    std::memcpy(&value, params[index], sizeof(value));
    return value;
  };
  TensorMapSpec spec;
  spec.elementType = recipe.elementType;
  std::memcpy(&spec.address, params[recipe.baseArg], sizeof(spec.address));
  for (unsigned d = 0; d < recipe.rank; ++d) {
    llvm::Expected<int64_t> size =
        resolve(recipe.sizes[d], d == 0 ? "inner size" : "outer size");
    if (!size)
      return size.takeError();
    if (*size < 1)
      return fail(llvm::formatv("dimension {0} has {1} elements; a tensor "
                                "map needs at least 1",
                                d, *size)
                      .str());
    spec.dims.push_back(static_cast<uint64_t>(*size));
    spec.box.push_back(recipe.box[d]);
  }
  if (recipe.rank == 2) {
    llvm::Expected<int64_t> stride = resolve(recipe.rowStride, "row stride");
    if (!stride)
      return stride.takeError();
    if (*stride < 1)
      return fail(llvm::formatv("its row stride is {0} elements; expected a "
                                "positive number",
                                *stride)
                      .str());
    spec.strides.push_back(static_cast<uint64_t>(*stride) *
                           getDataTypeSize(recipe.elementType));
  }
  spec.swizzle = recipe.swizzle;
  if (llvm::Error err = checkTensorMap(spec, major, minor))
    return std::move(err);
  return spec;
}

char TensorMapError::ID = 0;
