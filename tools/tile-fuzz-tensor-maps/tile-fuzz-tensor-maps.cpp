//===- tile-fuzz-tensor-maps.cpp - A libFuzzer target over map recipes ----===//
//
// Each input is the words of a kernel's `_tensor_maps` global
// (tile/Conversion/KernelABI.h, little-endian), as a launch reads them from
// a loaded module, followed by nothing: the parameters of the launch are
// made from the input's first bytes. Every recipe the parser keeps must
// have a rank of 1 or 2 and boxes of 1 to 256; making its map from the
// parameters must give an error or a region TMA takes. The same bytes are
// also read as a module's PTX by getPtxGlobals (which globals a launch asks
// the driver for): each name it finds must be a non-empty part of the text.
// Otherwise the target aborts. What the fuzzer looks for is that, a crash, a
// sanitizer report, a leak or a hang. Built with -DTILE_ENABLE_FUZZER=ON
// (scripts/fuzz.sh tensor-maps).
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/PtxGlobals.h"
#include "tile/Runtime/TensorMapRecipe.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace mlir::tile;

static void abortWith(const char *why) {
  llvm::errs() << why << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (std::optional<llvm::StringSet<>> globals = getPtxGlobals(text))
    for (const auto &global : *globals)
      if (global.getKey().empty() || !text.contains(global.getKey()))
        abortWith("getPtxGlobals found a name the text does not hold");
  std::vector<int32_t> words(size / 4);
  if (!words.empty())
    std::memcpy(words.data(), data, words.size() * 4);
  llvm::Expected<std::vector<TensorMapRecipe>> recipes =
      parseTensorMapRecipes(words, "k");
  if (!recipes) {
    llvm::consumeError(recipes.takeError());
    return 0;
  }
  // Twelve parameters, each 8 bytes of the input (repeated), the first
  // 16-byte aligned as a buffer's base.
  std::vector<uint64_t> values(12, 0);
  for (size_t i = 0; i < values.size() && size; ++i)
    for (size_t b = 0; b < 8; ++b)
      values[i] |= uint64_t(data[(i * 8 + b) % size]) << (8 * b);
  values[0] &= ~uint64_t(15);
  std::vector<void *> params;
  for (uint64_t &value : values)
    params.push_back(&value);
  for (const TensorMapRecipe &recipe : *recipes) {
    if ((recipe.rank != 1 && recipe.rank != 2) || recipe.box[0] < 1 ||
        recipe.box[0] > 256 || recipe.box[1] < 1 || recipe.box[1] > 256)
      abortWith("a recipe with a bad rank or box was accepted");
    llvm::Expected<TensorMapSpec> spec =
        getTensorMapSpec(recipe, params, "k", 9, 0);
    if (!spec) {
      llvm::consumeError(spec.takeError());
      continue;
    }
    if (llvm::Error err = checkTensorMap(*spec, 9, 0)) {
      llvm::consumeError(std::move(err));
      abortWith("a region TMA does not take was made");
    }
  }
  return 0;
}
