//===- tile-fuzz-tuning-database.cpp - A libFuzzer target over databases --===//
//
// Each input is a tuning database (tile/Runtime/TuningDatabase.h), as
// --tune-import reads one. Every record it keeps must name at least one
// kernel, a variant among them and a positive time, and its key must be its
// digest; the database written back out must parse again with nothing
// ignored, to the same text. Otherwise the target aborts. What the fuzzer
// looks for is that, a crash, a sanitizer report, a leak or a hang. Built
// with -DTILE_ENABLE_FUZZER=ON (scripts/fuzz.sh tuning-database).
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TuningDatabase.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir::tile;

static void abortWith(const char *why) {
  llvm::errs() << why << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> ignored;
  llvm::Expected<TuningDatabase> database =
      TuningDatabase::parse(text, ignored);
  if (!database) {
    llvm::consumeError(database.takeError());
    return 0;
  }
  for (const TuningRecord &record : database->getRecords()) {
    if (record.kernelNames.empty() ||
        record.textDigests.size() != record.kernelNames.size() ||
        record.fileNames.size() != record.kernelNames.size() ||
        record.choice.variant >= record.kernelNames.size() ||
        !(record.choice.milliseconds > 0))
      abortWith("a database with a bad record was accepted");
    if (database->lookup(record.getDigest()) != &record)
      abortWith("a record is not found by its own key");
  }
  std::string written = database->format();
  std::vector<std::string> again;
  llvm::Expected<TuningDatabase> reread = TuningDatabase::parse(written, again);
  if (!reread || !again.empty() ||
      reread->getRecords().size() != database->getRecords().size() ||
      reread->format() != written)
    abortWith("a database written out does not read back the same");
  return 0;
}
