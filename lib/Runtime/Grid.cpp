//===- Grid.cpp - Launch grids: specs, waves, persistent sizes ------------===//
//
// See tile/Runtime/Grid.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Grid.h"

#include "tile/Conversion/KernelABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A grid size expression, parsed and evaluated at once (recursive
/// descent); with no lookup, only its syntax is checked.
class GridExpression {
public:
  using Lookup = llvm::function_ref<std::optional<int64_t>(llvm::StringRef)>;
  GridExpression(llvm::StringRef text, Lookup *lookup)
      : text(text), lookup(lookup) {}

  llvm::Expected<int64_t> evaluate() {
    int64_t value = 0;
    if (!parseSum(value))
      return fail();
    skipSpaces();
    if (error.empty() && pos != text.size())
      error = "unexpected '" + text.substr(pos, 1).str() + "'";
    if (!error.empty())
      return fail();
    return value;
  }

private:
  llvm::Error fail() {
    return llvm::createStringError(
        llvm::formatv("--grid expression '{0}', column {1}: {2}", text, pos + 1,
                      error)
            .str());
  }
  void skipSpaces() {
    while (pos < text.size() && text[pos] == ' ')
      ++pos;
  }
  bool consume(char c) {
    skipSpaces();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool expect(char c) {
    if (consume(c))
      return true;
    error = std::string("expected '") + c + "'";
    return false;
  }
  /// Keeps values within 63 bits; only checked when evaluating.
  bool check(bool ok, const char *what) {
    if (lookup && !ok) {
      error = what;
      return false;
    }
    return true;
  }
  bool parseSum(int64_t &value) {
    if (!parseProduct(value))
      return false;
    while (true) {
      bool plus = consume('+');
      if (!plus && !consume('-'))
        return true;
      int64_t rhs = 0;
      if (!parseProduct(rhs))
        return false;
      int64_t result = 0;
      bool overflow = plus ? llvm::AddOverflow(value, rhs, result)
                           : llvm::SubOverflow(value, rhs, result);
      if (!check(!overflow, "overflow"))
        return false;
      value = result;
    }
  }
  bool parseProduct(int64_t &value) {
    if (!parseFactor(value))
      return false;
    while (true) {
      skipSpaces();
      if (pos >= text.size() || !llvm::is_contained("*/%", text[pos]))
        return true;
      char op = text[pos++];
      int64_t rhs = 0;
      if (!parseFactor(rhs))
        return false;
      if (op == '*') {
        int64_t result = 0;
        if (!check(!llvm::MulOverflow(value, rhs, result), "overflow"))
          return false;
        value = result;
        continue;
      }
      if (!check(value >= 0 && rhs > 0, op == '/'
                                            ? "division of a negative number "
                                              "or by one not positive"
                                            : "remainder of a negative number "
                                              "or by one not positive"))
        return false;
      if (lookup)
        value = op == '/' ? value / rhs : value % rhs;
    }
  }
  bool parseFactor(int64_t &value) {
    skipSpaces();
    if (consume('(')) {
      if (!parseSum(value))
        return false;
      return expect(')');
    }
    size_t start = pos;
    if (pos < text.size() && llvm::isDigit(text[pos])) {
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
      if (text.slice(start, pos).getAsInteger(10, value)) {
        error = "number too large";
        return false;
      }
      return true;
    }
    while (pos < text.size() &&
           (llvm::isAlnum(text[pos]) || text[pos] == '_') &&
           (pos > start || !llvm::isDigit(text[pos])))
      ++pos;
    llvm::StringRef name = text.slice(start, pos);
    if (name.empty()) {
      error = pos < text.size()
                  ? "unexpected '" + text.substr(pos, 1).str() + "'"
                  : "expected a number, a name or '('";
      return false;
    }
    if (name == "cdiv") {
      int64_t lhs = 0, rhs = 0;
      if (!expect('(') || !parseSum(lhs) || !expect(',') || !parseSum(rhs) ||
          !expect(')'))
        return false;
      if (!check(lhs >= 0 && rhs > 0,
                 "cdiv of a negative number or by one not positive"))
        return false;
      // Not (lhs + rhs - 1) / rhs, which overflows near 2^63 (a fuzzer
      // found cdiv(M, 2^63 - 1)).
      value = lookup ? lhs / rhs + (lhs % rhs != 0) : 0;
      return true;
    }
    value = 0;
    if (!lookup)
      return true;
    std::optional<int64_t> found = (*lookup)(name);
    if (!found) {
      pos = start;
      error = "'" + name.str() +
              "' is neither an integer meta-parameter nor an integer "
              "argument of the kernel";
      return false;
    }
    value = *found;
    return true;
  }

  llvm::StringRef text;
  Lookup *lookup;
  size_t pos = 0;
  std::string error;
};
} // namespace

/// Splits `text` at the commas outside parentheses.
static llvm::SmallVector<llvm::StringRef, 3> splitAxes(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(')
      ++depth;
    else if (text[i] == ')')
      --depth;
    else if (text[i] == ',' && depth == 0) {
      parts.push_back(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

llvm::Expected<GridSpec> GridSpec::parse(llvm::StringRef text) {
  auto error = [&] {
    return llvm::createStringError(
        "--grid expects X[,Y[,Z]], one to three sizes from 1 to "
        "2147483647 or expressions such as 'cdiv(M, BLOCK_M)', or "
        "persistent[:N], got '" +
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
  llvm::SmallVector<llvm::StringRef, 3> parts = splitAxes(rest);
  if (parts.size() > 3)
    return error();
  bool numbers = llvm::all_of(parts, [](llvm::StringRef part) {
    return !part.empty() && llvm::all_of(part, llvm::isDigit);
  });
  for (llvm::StringRef part : parts) {
    if (numbers) {
      int64_t size;
      if (!parseSize(part, size))
        return error();
      grid.sizes.push_back(size);
      continue;
    }
    if (part.trim().empty())
      return error();
    // The syntax now, the values at each launch.
    if (llvm::Error err =
            GridExpression(part.trim(), nullptr).evaluate().takeError())
      return std::move(err);
    grid.expressions.push_back(part.trim().str());
  }
  return grid;
}

llvm::Expected<llvm::SmallVector<int64_t, 3>> GridSpec::resolve(
    llvm::function_ref<std::optional<int64_t>(llvm::StringRef)> lookup) const {
  if (expressions.empty())
    return sizes;
  llvm::SmallVector<int64_t, 3> result;
  for (const std::string &expression : expressions) {
    GridExpression::Lookup function = lookup;
    llvm::Expected<int64_t> size =
        GridExpression(expression, &function).evaluate();
    if (!size)
      return size.takeError();
    if (*size < 1 || *size > INT32_MAX)
      return llvm::createStringError(
          llvm::formatv("--grid expression '{0}' gives {1} programs; a grid "
                        "takes 1 to 2147483647 along each axis",
                        expression, *size)
              .str());
    result.push_back(*size);
  }
  return result;
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
  // A kernel that reduces across its grid runs all of its programs at once:
  // one wave, whatever the waves asked.
  if (function.gridReduce) {
    waves = 1;
    cap = cap > 0 ? std::min<int64_t>(cap, kMaxGridReducePrograms)
                  : kMaxGridReducePrograms;
  }
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
