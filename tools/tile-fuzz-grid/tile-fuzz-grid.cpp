//===- tile-fuzz-grid.cpp - A libFuzzer target over grid specs ------------===//
//
// Each line of an input is a --grid spec (GridSpec::parse): sizes,
// expressions over names, cdiv and + - * / %, or persistent[:N]. A spec
// with expressions is evaluated (GridSpec::resolve) with names standing for
// integers from 0 to 2^63 - 1 and negative ones (an i64 argument may be
// anything), so that overflow and division by zero are reached. The first
// line is also parsed with the second as --waves for both targets
// (GridSpec::parseOptions). What the fuzzer looks for is a crash, a
// sanitizer report, a leak or a hang. Built with -DTILE_ENABLE_FUZZER=ON
// (scripts/fuzz.sh grid); seeds in tools/tile-fuzz-grid/corpus.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Grid.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

using namespace mlir::tile;

/// The names a grid expression may use, as a launch would give them.
static std::optional<int64_t> lookup(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<int64_t>>(name)
      .Case("M", 4097)
      .Case("N", 1)
      .Case("K", 0)
      .Case("BLOCK_M", 128)
      .Case("BLOCK_N", 256)
      .Case("NEG", -7)
      .Case("BIG", std::numeric_limits<int64_t>::max())
      .Case("SMALL", std::numeric_limits<int64_t>::min())
      .Default(std::nullopt);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::Expected<GridSpec> grid = GridSpec::parse(line);
    if (!grid) {
      llvm::consumeError(grid.takeError());
      continue;
    }
    llvm::Expected<llvm::SmallVector<int64_t, 3>> sizes = grid->resolve(lookup);
    if (!sizes)
      llvm::consumeError(sizes.takeError());
  }
  std::optional<std::string> waves;
  if (lines.size() > 1)
    waves = lines[1].str();
  for (Target target : {Target::CPU, Target::CUDA}) {
    llvm::Expected<GridSpec> grid =
        GridSpec::parseOptions(lines.front(), waves, target);
    if (!grid)
      llvm::consumeError(grid.takeError());
  }
  return 0;
}
