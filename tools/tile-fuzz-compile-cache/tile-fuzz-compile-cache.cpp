//===- tile-fuzz-compile-cache.cpp - A libFuzzer target over cache entries ===//
//
// Each input is a compile-cache entry (tile/Runtime/CompileCache.h) looked
// up under a fixed key, the one the seeds in
// tools/tile-fuzz-compile-cache/corpus were written with. An entry that
// parses must be exactly what formatCompileCacheEntry makes of its binary
// (the reader accepts nothing the writer does not write); otherwise the
// target aborts. What the fuzzer looks for is that, a crash, a sanitizer
// report, a leak or a hang. Built with -DTILE_ENABLE_FUZZER=ON
// (scripts/fuzz.sh compile-cache).
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/CompileCache.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir::tile;

/// The key the seeds were written with: a SHA-256 in hex, like every key.
static constexpr llvm::StringLiteral kKey =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef entry(reinterpret_cast<const char *>(data), size);
  llvm::Expected<llvm::StringRef> binary = parseCompileCacheEntry(entry, kKey);
  if (!binary) {
    llvm::consumeError(binary.takeError());
    return 0;
  }
  if (formatCompileCacheEntry(kKey, *binary) != entry) {
    llvm::errs() << "an entry the writer would not write was accepted\n";
    std::abort();
  }
  return 0;
}
