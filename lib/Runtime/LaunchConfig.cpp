//===- LaunchConfig.cpp - The configuration a launch runs -----------------===//
//
// Defaults fitted to a launch, the tuning cache's choice, or a tuning run
// now: see tile/Runtime/LaunchConfig.h and docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/LaunchConfig.h"

#include "Text.h"
#include "tile/Analysis/RegisterEstimate.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/TuningCache.h"
#include "tile/Runtime/TuningDatabase.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

unsigned mlir::tile::estimateKernelRegisters(const KernelSource &source,
                                             unsigned warps) {
  FuncOp kernel = source.getKernel();
  if (kernel.getBody().empty())
    return 0;
  // Estimated as the pipeline first sees it: canonicalized (identity casts
  // and casts of constants folded away).
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  module->push_back(kernel.clone());
  PassManager pm(kernel.getContext());
  pm.addPass(createCanonicalizerPass());
  if (succeeded(pm.run(*module)))
    kernel = *module->getOps<FuncOp>().begin();
  return estimatePeakRegisters(kernel.getBody().front(), warps);
}

std::string mlir::tile::checkRegisterRoom(const KernelSource &source,
                                          const CompileOptions &options) {
  FuncOp kernel = source.getKernel();
  if (kernel.getBody().empty())
    return "";
  unsigned warps = getKernelNumWarps(kernel, options);
  unsigned peak = estimateKernelRegisters(source, warps);
  unsigned budget = getRegisterBudget(warps);
  if (peak + kReservedRegisters <= budget)
    return "";
  return llvm::formatv("its tiles need about {0} registers per thread, and "
                       "{1} more for scalars, of the {2} each of {3} threads "
                       "may use",
                       peak, kReservedRegisters, budget, warps * 32);
}

/// The tuning cache's key of a launch with `args` (or `options.buckets`).
static llvm::Expected<TuningKey>
getLaunchKey(llvm::ArrayRef<const KernelSource *> variants,
             llvm::ArrayRef<KernelArg> args, const TuneOptions &options) {
  if (!options.buckets.empty())
    return getTuningKey(variants, options.buckets, options.run.device);
  return getTuningKey(variants, args, options.run.device);
}

/// The -D set by hand, then each of `choice` whose parameter was not set by
/// hand; the parameters set by hand that `choice` also sets, in `overridden`.
static std::vector<std::string>
mergeDefines(const KernelSource &base, const KernelSource::Options &options,
             llvm::ArrayRef<std::string> choice,
             std::vector<std::string> &overridden) {
  std::vector<std::string> defines = options.defines;
  for (const std::string &define : choice) {
    llvm::StringRef name = llvm::StringRef(define).split('=').first;
    const KernelParam *param = findParam(base.getParams(), name);
    if (param && param->isDefined)
      overridden.push_back(param->name + "=" + param->value);
    else
      defines.push_back(define);
  }
  return defines;
}

/// Reloads `base`'s text with `defines`; diagnostics into `errors`.
static llvm::Expected<std::unique_ptr<KernelSource>>
reload(const KernelSource &base, const KernelSource::Options &options,
       std::vector<std::string> defines, llvm::raw_ostream *errors) {
  KernelSource::Options reloaded = options;
  reloaded.defines = std::move(defines);
  if (errors)
    reloaded.diagnostics = errors;
  return KernelSource::loadString(base.getText(), base.getFileName(), reloaded);
}

/// Why a launch with `args` cannot run `source`'s kernel: a broken bound,
/// or (with `registers`) no room in registers; empty when it can.
static std::string checkFit(const KernelSource &source,
                            llvm::ArrayRef<KernelArg> args, bool registers,
                            const CompileOptions &options) {
  FuncOp kernel = source.getKernel();
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (index >= kernel.getNumArguments() || arg.isBuffer() ||
        isFloatDataType(arg.getDataType()))
      continue;
    std::string broken =
        checkIntegerArgument(kernel, index, arg.getScalar().getSExtValue());
    if (!broken.empty())
      return broken;
  }
  return registers ? checkRegisterRoom(source, options) : "";
}

bool mlir::tile::fitsLaunch(const KernelSource &source,
                            llvm::ArrayRef<KernelArg> args, bool registers,
                            const CompileOptions &options) {
  return checkFit(source, args, registers, options).empty();
}

std::unique_ptr<KernelSource> mlir::tile::fitToLaunch(
    std::unique_ptr<KernelSource> base, llvm::ArrayRef<KernelArg> args,
    const TuneOptions &options, bool registers, std::string &note) {
  note.clear();
  std::string why = checkFit(*base, args, registers, options.run.compile);
  if (why.empty())
    return base;
  // The configurations by their distance from the defaults: the steps
  // through each parameter's declared values.
  std::vector<TuneConfig> configs = enumerateSearchSpace(base->getParams());
  auto distance = [&](const TuneConfig &config) {
    int64_t steps = 0;
    for (llvm::StringRef define : config.defines) {
      auto [name, value] = define.split('=');
      const KernelParam *param = findParam(base->getParams(), name);
      auto at = [&](llvm::StringRef v) -> int64_t {
        return llvm::find(param->values, v) - param->values.begin();
      };
      steps += std::abs(at(value) - at(param->value));
    }
    return steps;
  };
  std::vector<std::pair<int64_t, size_t>> order;
  for (auto [index, config] : llvm::enumerate(configs))
    order.push_back({distance(config), index});
  llvm::sort(order);
  for (auto [steps, index] : order) {
    if (steps == 0)
      continue;
    std::vector<std::string> defines = options.source.defines;
    llvm::append_range(defines, configs[index].defines);
    std::string ignored;
    llvm::raw_string_ostream ignoredStream(ignored);
    llvm::Expected<std::unique_ptr<KernelSource>> candidate =
        reload(*base, options.source, defines, &ignoredStream);
    if (!candidate) {
      llvm::consumeError(candidate.takeError());
      continue;
    }
    if (!checkFit(**candidate, args, registers, options.run.compile).empty())
      continue;
    // Loaded again for its diagnostics to go where the caller asked.
    llvm::Expected<std::unique_ptr<KernelSource>> fitted =
        reload(*base, options.source, defines, nullptr);
    if (!fitted) {
      llvm::consumeError(fitted.takeError());
      return base;
    }
    SmallVector<std::string> changed;
    for (llvm::StringRef define : configs[index].defines) {
      auto [name, value] = define.split('=');
      if (findParam(base->getParams(), name)->value != value)
        changed.push_back(define.str());
    }
    note = "the defaults do not fit the launch (" + why + "): running with " +
           llvm::join(changed, " ");
    return std::move(*fitted);
  }
  return base;
}

std::optional<ModelChoice>
mlir::tile::chooseByModel(llvm::ArrayRef<const KernelSource *> variants,
                          llvm::ArrayRef<KernelArg> args,
                          const TuneOptions &options, const GridSpec &grid) {
  // A tensor-core dot's registers are counted too roughly to choose its
  // tiles without compiling them (the matmul's 128 x 256 x 64 tiles count
  // 236 and spill at 255): such kernels keep the fitted defaults.
  for (const KernelSource *variant : variants)
    if (variant->getKernel()
            .walk([](DotOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return std::nullopt;
  GpuModel gpu = GpuModel::h100();
  if (llvm::Expected<std::unique_ptr<CudaDevice>> device =
          CudaDevice::open(options.run.device))
    gpu = GpuModel::fromDevice((*device)->getInfo());
  else
    llvm::consumeError(device.takeError());
  std::vector<std::optional<int64_t>> waves = {grid.waves};
  if (grid.persistent && !grid.waves)
    waves.assign(std::begin(kTunedWaves), std::end(kTunedWaves));
  // Every configuration of every variant, estimated on every core (each
  // loaded into a context of its own).
  std::vector<std::pair<unsigned, TuneConfig>> work;
  for (auto [index, variant] : llvm::enumerate(variants))
    for (TuneConfig &config : enumerateSearchSpace(variant->getParams()))
      work.push_back({static_cast<unsigned>(index), std::move(config)});
  std::vector<std::optional<ModelChoice>> results(work.size());
  auto estimateOne = [&](size_t item) {
    const auto &[index, config] = work[item];
    const KernelSource &variant = *variants[index];
    std::vector<std::string> defines = options.source.defines;
    llvm::append_range(defines, config.defines);
    std::string ignored;
    llvm::raw_string_ostream ignoredStream(ignored);
    llvm::Expected<std::unique_ptr<KernelSource>> source =
        reload(variant, options.source, defines, &ignoredStream);
    if (!source) {
      llvm::consumeError(source.takeError());
      return;
    }
    if (!fitsLaunch(**source, args, /*registers=*/false, options.run.compile))
      return;
    for (std::optional<int64_t> wave : waves) {
      GridSpec launch = grid;
      launch.waves = wave;
      if (wave && *wave == GridSpec::kAllWaves && launch.cap == 0)
        continue;
      llvm::Expected<LaunchEstimate> estimate = estimateLaunch(
          **source, args, launch, gpu, options.run.compile.numWarps);
      if (!estimate) {
        llvm::consumeError(estimate.takeError());
        continue;
      }
      std::optional<ModelChoice> &best = results[item];
      if (estimate->spills ||
          (best && !isRankedBefore(*estimate, best->estimate)))
        continue;
      TuneConfig chosen = config;
      chosen.waves = grid.waves ? std::nullopt : wave;
      best = ModelChoice{index, chosen, *estimate};
    }
  };
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
    for (size_t item = 0; item < work.size(); ++item)
      pool.async([&, item] { estimateOne(item); });
    pool.wait();
  }
  // The first in the model's order (isRankedBefore); of equal ranks, the
  // first in the variants' order.
  std::optional<ModelChoice> best;
  for (std::optional<ModelChoice> &result : results)
    if (result && (!best || isRankedBefore(result->estimate, best->estimate)))
      best = std::move(result);
  return best;
}

/// Sets `grid`'s waves to a tuned choice's, unless they were set by hand or
/// the grid cannot launch them (all waves of a grid without a cap).
static void applyWaves(GridSpec *grid, std::optional<int64_t> waves) {
  if (!grid || !grid->persistent || grid->waves || !waves ||
      (*waves == GridSpec::kAllWaves && grid->cap == 0))
    return;
  grid->waves = waves;
}

/// The kernel reloaded with the tuning cache's choice for the launch, or
/// null when there is none (or it cannot be used: a warning says why).
static std::unique_ptr<KernelSource>
loadCachedChoice(llvm::ArrayRef<const KernelSource *> variants,
                 llvm::ArrayRef<KernelArg> args, const TuneOptions &options,
                 llvm::raw_ostream &os, GridSpec *grid) {
  llvm::StringRef cacheDir = options.run.compile.cacheDir;
  llvm::raw_ostream &warnings = variants.front()->getDiagnosticStream();
  if (options.run.target != Target::CUDA ||
      (cacheDir.empty() && !options.stores.databases))
    return nullptr;
  llvm::Expected<TuningKey> key = getLaunchKey(variants, args, options);
  if (!key) {
    // No GPU to key on: running will say why.
    llvm::consumeError(key.takeError());
    return nullptr;
  }
  std::optional<StoredChoice> stored =
      lookupStoredChoice(cacheDir, *key, variants, options.stores, warnings);
  if (!stored)
    return nullptr;
  const TuningChoice *choice = &stored->choice;
  const KernelSource &base = *variants[choice->variant];
  std::vector<std::string> overridden;
  std::vector<std::string> defines =
      mergeDefines(base, options.source, choice->defines, overridden);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  llvm::Expected<std::unique_ptr<KernelSource>> quiet =
      reload(base, options.source, defines, &errorStream);
  if (!quiet) {
    llvm::consumeError(quiet.takeError());
    llvm::WithColor::warning(warnings, "tile")
        << "ignoring the choice of " << stored->source << " ("
        << (stored->source == "the tuning cache"
                ? getTuningCachePath(cacheDir, *key)
                : llvm::join(choice->defines, " "))
        << "): it does not fit the kernel: " << firstLine(errors) << "\n";
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<KernelSource>> tuned =
      reload(base, options.source, defines, nullptr);
  if (!tuned) {
    llvm::consumeError(tuned.takeError());
    return nullptr;
  }
  os << "tuned: ";
  if (variants.size() > 1)
    os << llvm::sys::path::filename(base.getFileName()) << ": ";
  TuneConfig chosen{choice->defines, choice->waves};
  os << chosen.str()
     << llvm::formatv(" from {0} ({1:f4} ms for {2})", stored->source,
                      choice->milliseconds, choice->tunedOn);
  if (!overridden.empty())
    os << "; set by hand: " << llvm::join(overridden, " ");
  if (choice->waves && grid && grid->persistent && grid->waves)
    os << "; waves set by hand: " << formatWaves(*grid->waves);
  os << "\n";
  applyWaves(grid, choice->waves);
  return std::move(*tuned);
}

llvm::Expected<std::unique_ptr<KernelSource>>
mlir::tile::loadTunedKernel(std::unique_ptr<KernelSource> base,
                            llvm::ArrayRef<KernelArg> args,
                            const TuneOptions &options, TuningMode mode,
                            llvm::raw_ostream &os, GridSpec *grid) {
  std::vector<std::unique_ptr<KernelSource>> variants;
  variants.push_back(std::move(base));
  return loadTunedKernel(std::move(variants), args, options, mode, os, grid);
}

llvm::Expected<std::unique_ptr<KernelSource>>
mlir::tile::loadTunedKernel(std::vector<std::unique_ptr<KernelSource>> bases,
                            llvm::ArrayRef<KernelArg> args,
                            const TuneOptions &options, TuningMode mode,
                            llvm::raw_ostream &os, GridSpec *grid) {
  llvm::StringRef cacheDir = options.run.compile.cacheDir;
  llvm::raw_ostream &warnings = bases.front()->getDiagnosticStream();
  SmallVector<const KernelSource *> variants;
  for (const std::unique_ptr<KernelSource> &base : bases)
    variants.push_back(base.get());
  bool registers = options.run.target == Target::CUDA;
  switch (mode) {
  case TuningMode::UseCache:
    if (std::unique_ptr<KernelSource> tuned =
            loadCachedChoice(variants, args, options, os, grid))
      return tuned;
    [[fallthrough]];
  case TuningMode::IgnoreCache: {
    // On a GPU, the cost model's choice (for the grid of the run, or
    // without one, the tuner's).
    if (options.run.target == Target::CUDA && options.model)
      if (std::optional<ModelChoice> choice = chooseByModel(
              variants, args, options, grid ? *grid : options.run.grid)) {
        const KernelSource &base = *variants[choice->variant];
        std::vector<std::string> defines = options.source.defines;
        llvm::append_range(defines, choice->config.defines);
        llvm::Expected<std::unique_ptr<KernelSource>> chosen =
            reload(base, options.source, defines, nullptr);
        if (!chosen)
          return chosen.takeError();
        os << "model: ";
        if (variants.size() > 1)
          os << llvm::sys::path::filename(base.getFileName()) << ": ";
        os << choice->config.str()
           << llvm::formatv(" (estimated {0:f1} us; --tune measures)\n",
                            choice->estimate.seconds * 1e6);
        applyWaves(grid, choice->config.waves);
        return std::move(*chosen);
      }
    // The first variant whose defines fit the launch, once fitted.
    for (auto [index, base] : llvm::enumerate(bases)) {
      std::string note;
      std::unique_ptr<KernelSource> fitted =
          fitToLaunch(std::move(base), args, options, registers, note);
      if (!fitsLaunch(*fitted, args, registers, options.run.compile) &&
          index + 1 < bases.size())
        continue;
      if (bases.size() > 1)
        os << "variant: " << fitted->getFileName()
           << (index == 0 ? " (the first given)"
                          : " (the first given that fits the launch)")
           << "\n";
      if (!note.empty())
        os << "fitted: " << note << "\n";
      return std::move(fitted);
    }
    llvm_unreachable("the last variant is always taken");
  }
  case TuningMode::Tune:
    break;
  }

  llvm::Expected<TuneReport> report = tuneVariants(variants, args, options);
  if (!report)
    return report.takeError();
  report->print(os);
  const TuneEntry &best = *report->getBest();
  const KernelSource &base = *variants[best.variant];
  std::vector<std::string> handTuned;
  for (const KernelSource *variant : variants)
    for (const KernelParam &param : variant->getParams())
      if (param.isDefined && !param.isType && !param.values.empty() &&
          !llvm::is_contained(handTuned, param.name))
        handTuned.push_back(param.name);
  if (!handTuned.empty()) {
    os << "tune: not stored in the tuning cache: "
       << llvm::join(handTuned, ", ") << " set by hand\n";
  } else if (!cacheDir.empty()) {
    llvm::Expected<TuningKey> key = getLaunchKey(variants, args, options);
    llvm::Error stored =
        key ? storeTuning(cacheDir, *key, best) : key.takeError();
    if (stored)
      llvm::WithColor::warning(warnings, "tile")
          << "the tuning cache: " << llvm::toString(std::move(stored)) << "\n";
    else
      os << "tune: stored in the tuning cache: "
         << getTuningCachePath(cacheDir, *key) << "\n";
  }
  os << "tuned: " << best.getLabel()
     << llvm::formatv(" ({0:f4} ms)\n", best.milliseconds);
  applyWaves(grid, best.config.waves);
  std::vector<std::string> overridden;
  return reload(
      base, options.source,
      mergeDefines(base, options.source, best.config.defines, overridden),
      nullptr);
}
