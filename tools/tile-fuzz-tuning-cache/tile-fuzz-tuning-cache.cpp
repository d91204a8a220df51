//===- tile-fuzz-tuning-cache.cpp - A libFuzzer target over tuning entries ===//
//
// Each input is a tuning-cache entry (tile/Runtime/TuningCache.h) read as
// the entry of a fixed key with two variants, written by a fixed compiler
// version: those the seeds in tools/tile-fuzz-tuning-cache/corpus were
// written with. A choice that parses must hold only NAME=INTEGER defines, a
// variant below two and a positive time, and what the entry was tuned for
// (read as an export reads it) one kernel, text digest and file per variant;
// otherwise the target aborts. What
// the fuzzer looks for is that, a crash, a sanitizer report, a leak or a
// hang. Built with -DTILE_ENABLE_FUZZER=ON (scripts/fuzz.sh tuning-cache).
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TuningCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir::tile;

static constexpr llvm::StringLiteral kCompiler = "fuzz-compiler";
static constexpr llvm::StringLiteral kDigest =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static bool isDefine(llvm::StringRef define) {
  auto [name, value] = define.split('=');
  int64_t number;
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; }) &&
         !value.getAsInteger(10, number);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef entry(reinterpret_cast<const char *>(data), size);
  llvm::Expected<TuningChoice> choice =
      parseTuningEntry(entry, kCompiler, kDigest, /*numVariants=*/2);
  if (!choice) {
    llvm::consumeError(choice.takeError());
    return 0;
  }
  if (choice->variant >= 2 || !(choice->milliseconds > 0) ||
      !llvm::all_of(choice->defines, isDefine)) {
    llvm::errs() << "an entry with a bad choice was accepted\n";
    std::abort();
  }
  TuningRecord record;
  llvm::Expected<TuningChoice> again =
      parseTuningEntry(entry, kCompiler, kDigest, /*numVariants=*/2, &record);
  if (!again) {
    llvm::consumeError(again.takeError());
    return 0;
  }
  size_t variants = record.kernelNames.size();
  if (variants == 0 || record.textDigests.size() != variants ||
      record.fileNames.size() != variants ||
      record.choice.variant >= variants || record.gpu.empty()) {
    llvm::errs() << "an entry with a bad record was accepted\n";
    std::abort();
  }
  return 0;
}
