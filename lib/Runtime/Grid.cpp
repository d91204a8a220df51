//===- Grid.cpp - Launch grids: specs, waves, persistent sizes ------------===//
//
// See tile/Runtime/Grid.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Grid.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;

llvm::Expected<GridSpec> GridSpec::parse(llvm::StringRef text) {
  auto error = [&] {
    return llvm::createStringError(
        "--grid expects X[,Y[,Z]], one to three sizes from 1 to "
        "2147483647, or persistent[:N], got '" +
        text + "'");
  };
  GridSpec grid;
  auto parseSize = [](llvm::StringRef part, int64_t &size) {
    return !part.empty() && llvm::all_of(part, llvm::isDigit) &&
           !part.getAsInteger(10, size) && size >= 1 && size <= INT32_MAX;
  };
  llvm::StringRef rest = text;
  if (rest == "persistent" || rest.starts_with("persistent:")) {
    grid.persistent = true;
    if (rest.consume_front("persistent:") && !parseSize(rest, grid.cap))
      return error();
    return grid;
  }
  llvm::SmallVector<llvm::StringRef, 3> parts;
  rest.split(parts, ',');
  if (parts.size() > 3)
    return error();
  for (llvm::StringRef part : parts) {
    int64_t size;
    if (!parseSize(part, size))
      return error();
    grid.sizes.push_back(size);
  }
  return grid;
}

llvm::Expected<int64_t> GridSpec::parseWaves(llvm::StringRef text) {
  int64_t waves = 0;
  if (text == "all")
    return kAllWaves;
  if (text.empty() || !llvm::all_of(text, llvm::isDigit) ||
      text.getAsInteger(10, waves) || waves < 1 || waves > 1024)
    return llvm::createStringError(
        "--waves expects 'all' or a count from 1 to 1024, got '" + text + "'");
  return waves;
}

llvm::Expected<GridSpec>
GridSpec::parseOptions(llvm::StringRef text,
                       const std::optional<std::string> &wavesText,
                       Target target) {
  llvm::Expected<GridSpec> grid = parse(text);
  if (!grid)
    return grid.takeError();
  if (wavesText) {
    if (!grid->persistent)
      return llvm::createStringError("--waves sizes a persistent grid: give "
                                     "--grid persistent[:N]");
    llvm::Expected<int64_t> waves = parseWaves(*wavesText);
    if (!waves)
      return waves.takeError();
    grid->waves = *waves;
  }
  if (grid->persistent && target == Target::CPU)
    return llvm::createStringError(
        "--grid " + text +
        " sizes the grid from a GPU's occupancy; give the CPU interpreter "
        "the grid itself, such as --grid 1823");
  return grid;
}

std::string mlir::tile::formatWaves(int64_t waves) {
  return waves == GridSpec::kAllWaves ? "all" : std::to_string(waves);
}

std::string mlir::tile::formatGrid(llvm::ArrayRef<int64_t> grid) {
  return llvm::join(
      llvm::map_range(grid, [](int64_t s) { return llvm::itostr(s); }), "x");
}

/// `fit` programs (or clusters) that fit at once, in `waves`, at most
/// `cap`.
static llvm::Expected<int64_t> applyWaves(int64_t fit, int64_t cap,
                                          int64_t waves) {
  if (waves == GridSpec::kAllWaves) {
    if (cap <= 0)
      return llvm::createStringError(
          "--waves all launches one program per item, and needs the count: "
          "--grid persistent:N");
    return cap;
  }
  int64_t programs = fit * waves;
  return cap > 0 ? std::min(programs, cap) : programs;
}

llvm::Expected<int64_t> mlir::tile::getPersistentGridSize(int multiprocessors,
                                                          int blocksPerSM,
                                                          int64_t cap,
                                                          int64_t waves) {
  if (multiprocessors <= 0 || blocksPerSM <= 0)
    return llvm::createStringError(
        "a persistent grid needs at least one block per SM; the kernel "
        "fits " +
        llvm::Twine(blocksPerSM) + " on each of " +
        llvm::Twine(multiprocessors) + " SMs");
  return applyWaves(int64_t(multiprocessors) * blocksPerSM, cap, waves);
}

/// ", in 4 waves", ", one per item", or nothing for one wave.
static std::string describeWaves(int64_t waves) {
  if (waves == GridSpec::kAllWaves)
    return ", one program per item";
  if (waves == 1)
    return "";
  return ", in " + std::to_string(waves) + " waves";
}

llvm::Expected<int64_t>
mlir::tile::getPersistentGrid(const CudaDevice &device,
                              const CudaFunction &function, unsigned blockSize,
                              int64_t cap, std::string *note, int64_t waves) {
  const CudaDeviceInfo &info = device.getInfo();
  int clusterSize = function.clusterSize;
  std::string text;
  if (clusterSize > 1) {
    // Every cluster that fits at once; the cap counts clusters (as it
    // counts programs without them: at most one per row).
    llvm::Expected<int> clusters = function.getMaxActiveClusters(blockSize);
    if (!clusters)
      return clusters.takeError();
    if (*clusters == 0)
      return llvm::createStringError(
          "@" + function.name + " cannot run a cluster of " +
          llvm::Twine(clusterSize) + " blocks of " + llvm::Twine(blockSize) +
          " threads on " + info.name + " (" +
          llvm::Twine(function.numRegisters) + " registers per thread, " +
          llvm::Twine(function.sharedBytes + function.dynamicSharedBytes) +
          " bytes of shared memory per block)");
    llvm::Expected<int64_t> count = applyWaves(*clusters, cap, waves);
    if (!count)
      return count.takeError();
    if (note)
      *note = llvm::formatv(" (persistent: {0} clusters of {1} fit at "
                            "once{2}{3})",
                            *clusters, clusterSize, describeWaves(waves),
                            waves != GridSpec::kAllWaves &&
                                    *count < *clusters * waves
                                ? ", capped at " + std::to_string(*count)
                                : std::string())
                  .str();
    return *count * clusterSize;
  }
  llvm::Expected<int> perSM =
      function.getMaxActiveBlocksPerMultiprocessor(blockSize);
  if (!perSM)
    return perSM.takeError();
  if (*perSM == 0)
    return llvm::createStringError(
        "@" + function.name + " cannot run " + llvm::Twine(blockSize) +
        " threads per block on " + info.name + " (" +
        llvm::Twine(function.numRegisters) + " registers per thread, " +
        llvm::Twine(function.sharedBytes + function.dynamicSharedBytes) +
        " bytes of shared memory per block)");
  llvm::Expected<int64_t> programs =
      getPersistentGridSize(info.multiprocessorCount, *perSM, cap, waves);
  if (!programs)
    return programs.takeError();
  if (note) {
    *note = llvm::formatv(" (persistent: {0} SMs x {1} {2} per SM",
                          info.multiprocessorCount, *perSM,
                          *perSM == 1 ? "block" : "blocks")
                .str();
    *note += describeWaves(waves);
    if (waves != GridSpec::kAllWaves && cap &&
        cap < int64_t(info.multiprocessorCount) * *perSM * waves)
      *note += ", capped at " + std::to_string(cap);
    *note += ")";
  }
  return *programs;
}
