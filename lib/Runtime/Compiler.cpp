//===- Compiler.cpp - Compiling kernels in-process, with a cache ----------===//

#include "tile/Runtime/Compiler.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Preprocessor/Preprocessor.h"
#include "tile/Runtime/CompileCache.h"
#include "tile/Runtime/Version.h"
#include "tile/Support/CacheFiles.h"
#include "tile/Support/Diagnostics.h"
#include "tile/Support/FileRead.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::getDefaultPTXFeatures(llvm::StringRef chip) {
  llvm::StringRef digits = chip;
  digits.consume_front("sm_");
  unsigned version = 0;
  digits = digits.take_while(llvm::isDigit);
  if (!digits.getAsInteger(10, version) && version >= 100)
    return "+ptx88";
  return "+ptx81";
}

llvm::Error mlir::tile::checkChipName(llvm::StringRef chip) {
  llvm::StringRef rest = chip;
  if (!rest.consume_front("sm_") || rest.empty() ||
      !llvm::isDigit(rest.front()))
    return llvm::createStringError("--chip expects sm_ and a compute "
                                   "capability, such as sm_90, got '" +
                                   chip + "'");
  return llvm::Error::success();
}

std::string mlir::tile::getDefaultCacheDir() {
  auto env = [](const char *name) -> llvm::StringRef {
    const char *value = std::getenv(name);
    return value ? value : "";
  };
  if (!env("TILE_CACHE_DIR").empty())
    return env("TILE_CACHE_DIR").str();
  llvm::SmallString<256> path;
  if (!env("XDG_CACHE_HOME").empty()) {
    path = env("XDG_CACHE_HOME");
    llvm::sys::path::append(path, "tile");
    return path.str().str();
  }
  if (!env("HOME").empty()) {
    path = env("HOME");
    llvm::sys::path::append(path, ".cache", "tile");
    return path.str().str();
  }
  return "";
}

llvm::StringRef mlir::tile::getCompilerVersion() {
  static const std::string version =
      std::string("tile ") + TILE_SOURCE_HASH + " LLVM " + LLVM_VERSION_STRING;
  return version;
}

std::string KernelSpecialization::str() const {
  std::vector<std::string> entries;
  for (auto [index, value] : llvm::enumerate(divisibility))
    if (value > 1)
      entries.push_back(std::to_string(index) + ":" + std::to_string(value));
  for (unsigned index : ones)
    entries.push_back(std::to_string(index) + ":=1");
  return llvm::join(entries, ",");
}

void mlir::tile::addSpecializeArgumentsPass(
    OpPassManager &pm, const KernelSpecialization &specialization) {
  if (specialization.str().empty())
    return;
  TileSpecializeArgumentsOptions hints;
  for (auto [index, value] : llvm::enumerate(specialization.divisibility))
    if (value > 1)
      hints.divisibility.push_back(std::to_string(index) + ":" +
                                   std::to_string(value));
  hints.ones = llvm::to_vector(specialization.ones);
  pm.addPass(createTileSpecializeArguments(hints));
}

llvm::Expected<KernelSpecialization>
mlir::tile::specializeArguments(FuncOp kernel, llvm::ArrayRef<KernelArg> args) {
  if (args.size() != kernel.getNumArguments())
    return llvm::createStringError("@" + kernel.getSymName() + " takes " +
                                   llvm::Twine(kernel.getNumArguments()) +
                                   " arguments, got " +
                                   llvm::Twine(args.size()));
  KernelSpecialization result;
  for (auto [index, arg] : llvm::enumerate(args)) {
    auto hint = kernel.getArgAttrOfType<IntegerAttr>(
        index, TileDialect::getDivisibilityAttrName());
    int64_t existing = hint ? hint.getInt() : 0;
    int64_t divisibility = 0;
    if (arg.isBuffer()) {
      divisibility = 16;
    } else if (getIntegerWidth(arg.getDataType()) > 1) {
      int64_t value = arg.getScalar().getSExtValue();
      std::string broken = checkIntegerArgument(kernel, index, value);
      if (!broken.empty())
        return llvm::createStringError(broken);
      if (value == 1)
        result.ones.push_back(index);
      uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : value;
      divisibility = magnitude == 0
                         ? 16
                         : std::min<int64_t>(
                               16, int64_t(1) << llvm::countr_zero(magnitude));
    }
    divisibility = std::max(divisibility, existing);
    result.divisibility.push_back(divisibility > 1 ? divisibility : 0);
  }
  return result;
}

unsigned mlir::tile::getKernelNumWarps(FuncOp kernel,
                                       const CompileOptions &options) {
  return TileDialect::getNumWarps(kernel, options.numWarps);
}

void mlir::tile::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<TileDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect>();
  registerTileToPTXDependencies(registry);
}

namespace {
/// Records how long each pass takes.
struct PassTimer : PassInstrumentation {
  using Clock = std::chrono::steady_clock;
  std::vector<PassTiming> &timings;
  std::vector<Clock::time_point> starts;

  explicit PassTimer(std::vector<PassTiming> &timings) : timings(timings) {}

  void runBeforePass(Pass *, Operation *) override {
    starts.push_back(Clock::now());
  }
  void runAfterPass(Pass *pass, Operation *) override { record(pass); }
  void runAfterPassFailed(Pass *pass, Operation *) override { record(pass); }

  void record(Pass *pass) {
    std::chrono::duration<double> elapsed = Clock::now() - starts.back();
    starts.pop_back();
    llvm::StringRef name = pass->getArgument();
    timings.push_back(
        {name.empty() ? pass->getName().str() : name.str(), elapsed.count()});
  }
};
} // namespace

/// "file:line:col" for a location, or its printed form.
static std::string formatLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
            ":" + llvm::Twine(file.getColumn()))
        .str();
  if (auto named = dyn_cast<NameLoc>(loc))
    return formatLocation(named.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return formatLocation(fused.getLocations().front());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

static llvm::StringRef getExtension(OutputFormat format) {
  return format == OutputFormat::Cubin ? ".cubin" : ".ptx";
}

bool mlir::tile::requestsPipelining(FuncOp kernel) {
  bool requested = false;
  kernel.walk([&](scf::ForOp loop) {
    if (auto stages = loop->getAttrOfType<IntegerAttr>(
            TileDialect::getNumStagesAttrName()))
      requested |= stages.getInt() >= 2;
  });
  return requested;
}

llvm::Expected<CompiledKernel>
mlir::tile::compileKernel(FuncOp kernel,
                          const KernelSpecialization &specialization,
                          const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  MLIRContext *context = kernel.getContext();
  CompiledKernel result;
  result.name = kernel.getSymName().str();
  result.format = options.format;
  result.numWarps = getKernelNumWarps(kernel, options);
  result.chip = options.chip;
  result.specialization = specialization.str();
  std::string features = options.features.empty()
                             ? getDefaultPTXFeatures(options.chip)
                             : options.features;

  // The kernel alone, in a module of its own.
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  module->push_back(kernel->clone());
  if (!options.pipelineLoops)
    module->walk([](scf::ForOp loop) {
      loop->removeAttr(TileDialect::getNumStagesAttrName());
    });

  // The cache key: everything the result depends on.
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    module->print(os, OpPrintingFlags().enableDebugInfo().printGenericOpForm());
  }
  llvm::SHA256 hash;
  auto add = [&](llvm::StringRef part) {
    hash.update(part);
    hash.update(llvm::StringRef("\0", 1));
  };
  add(getCompilerVersion());
  add(text);
  add(specialization.str());
  add(options.chip);
  add(features);
  add(std::to_string(options.numWarps));
  add(std::to_string(options.optLevel));
  add(options.lineInfo ? "line-info" : "no-line-info");
  if (options.tma)
    add("tma");
  add(getExtension(options.format));
  if (options.format == OutputFormat::Cubin)
    add(options.cudaPath);
  result.cacheKey = llvm::toHex(hash.final(), /*LowerCase=*/true);

  bool mayWriteCache = true;
  if (!options.cacheDir.empty()) {
    llvm::SmallString<256> path(options.cacheDir);
    llvm::sys::path::append(path,
                            llvm::StringRef(result.cacheKey).take_front(2),
                            result.cacheKey + getExtension(options.format));
    result.cachePath = path.str().str();
    // A missing entry is a miss; so is one that cannot be read or fails its
    // checks (CompileCache.h), with a warning: the kernel is compiled again
    // and the entry replaced.
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> cached =
        readCacheEntry(options.cacheDir, path, kCompileCacheEntry);
    if (!cached) {
      // Not a file the cache may touch (a link, a directory): left alone.
      result.cacheWarning = llvm::toString(cached.takeError());
      mayWriteCache = false;
    } else if (*cached) {
      llvm::Expected<llvm::StringRef> binary =
          parseCompileCacheEntry((*cached)->getBuffer(), result.cacheKey);
      if (binary && !binary->empty()) {
        result.binary = binary->str();
        result.fromCache = true;
        result.seconds = elapsed();
        return result;
      }
      result.cacheWarning = "ignoring the entry " + result.cachePath + ": " +
                            (binary ? std::string("it holds no binary")
                                    : llvm::toString(binary.takeError()));
    }
  }

  // The pipeline, after the specialization's hints.
  PassManager pm(context);
  addSpecializeArgumentsPass(pm, specialization);
  TileToPTXOptions pipeline;
  pipeline.chip = options.chip;
  pipeline.features = features;
  pipeline.numWarps = options.numWarps;
  pipeline.optLevel = options.optLevel;
  pipeline.lineInfo = options.lineInfo;
  pipeline.tma = options.tma;
  pipeline.format = options.format;
  pipeline.cudaPath = options.cudaPath;
  buildTileToPTXPipeline(pm, pipeline);
  pm.addInstrumentation(std::make_unique<PassTimer>(result.passTimings));

  // Diagnostics become the error's text.
  std::string diagnostics;
  LogicalResult status = success();
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error &&
          diag.getSeverity() != DiagnosticSeverity::Warning)
        return success();
      auto line = [&](Diagnostic &d, llvm::StringRef kind) {
        diagnostics += formatLocation(d.getLocation()) + ": " + kind.str() +
                       ": " + d.str() + "\n";
      };
      line(diag, diag.getSeverity() == DiagnosticSeverity::Error ? "error"
                                                                 : "warning");
      for (Diagnostic &note : diag.getNotes())
        line(note, "note");
      return success();
    });
    status = pm.run(*module);
  }
  if (failed(status))
    return llvm::createStringError(
        "compiling @" + result.name + " for " + options.chip + " failed:\n" +
        llvm::StringRef(diagnostics).rtrim() +
        (diagnostics.empty() ? "(the pipeline gave no diagnostic)" : ""));

  result.binary = getBinaryObjects(*module);
  if (result.binary.empty())
    return llvm::createStringError("compiling @" + result.name +
                                   " produced no binary");

  if (!result.cachePath.empty() && mayWriteCache) {
    if (llvm::Error err = writeCacheEntry(
            options.cacheDir, result.cachePath,
            formatCompileCacheEntry(result.cacheKey, result.binary)))
      result.cacheWarning += (result.cacheWarning.empty() ? "" : "; ") +
                             llvm::toString(std::move(err));
    else if (!result.cacheWarning.empty())
      result.cacheWarning += " (replaced)";
  }
  result.seconds = elapsed();
  return result;
}

llvm::Expected<CompiledKernel> mlir::tile::compileKernelSource(
    llvm::StringRef source, llvm::StringRef kernelName,
    llvm::ArrayRef<std::string> defines,
    const KernelSpecialization &specialization, const CompileOptions &options) {
  std::unique_ptr<llvm::MemoryBuffer> input =
      llvm::MemoryBuffer::getMemBufferCopy(source, "<kernel>");
  std::string specializeErrors;
  llvm::raw_string_ostream specializeStream(specializeErrors);
  input = preprocess(std::move(input), defines, specializeStream);
  if (!input)
    return llvm::createStringError(llvm::StringRef(specializeErrors).rtrim());

  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  std::string parseErrors;
  llvm::raw_string_ostream parseStream(parseErrors);
  OwningOpRef<ModuleOp> module;
  {
    SourceMgrDiagnosticHandler handler(sourceMgr, &context, parseStream);
    DiagnosticHintHandler hints(&context);
    module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  }
  if (!module)
    return llvm::createStringError(llvm::StringRef(parseErrors).rtrim());
  FuncOp kernel;
  size_t count = 0;
  for (FuncOp candidate : module->getOps<FuncOp>()) {
    ++count;
    if (kernelName.empty() || candidate.getSymName() == kernelName)
      kernel = candidate;
  }
  if (!kernel || (kernelName.empty() && count != 1))
    return llvm::createStringError(
        kernelName.empty()
            ? "the source has " + llvm::Twine(count) +
                  " kernels; name the one to compile"
            : "the source has no kernel named '" + kernelName + "'");
  return compileKernel(kernel, specialization, options);
}
