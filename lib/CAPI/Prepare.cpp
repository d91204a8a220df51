//===- Prepare.cpp - Preparing a kernel for a launch ----------------------===//
//
// tile_kernel_prepare: the variant and meta-parameters a launch runs (the
// tuning cache's, the fitted defaults, or a tuning run), specialized on the
// arguments, compiled and loaded (CUDA) into a tile_function, kept per
// launch key; and tile_kernel_compile, the same ahead of a launch to PTX or
// a cubin.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "tile/Runtime/Check.h"
#include "tile/Runtime/LaunchConfig.h"
#include "tile/Runtime/Tuner.h"
#include "tile/Runtime/TuningCache.h"
#include "tile/Runtime/TuningDatabase.h"

#include "llvm/Support/WithColor.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::capi;

tile_prepare_options tile_prepare_options_default(void) {
  tile_prepare_options options{};
  options.target = TILE_TARGET_CUDA;
  options.device = 0;
  options.tuning = TILE_TUNING_CACHE;
  options.num_warps = 4;
  options.tuning_databases = 1;
  options.tune_top = kDefaultTuneTop;
  options.tma = 1;
  return options;
}

/// tile_tuning_export and tile_tuning_import: `run` over the cache
/// directory, its report kept for the caller.
static tile_status
moveTuning(const char *what, const char *cacheDir, const char *path,
           const char **report,
           llvm::function_ref<llvm::Error(llvm::StringRef, llvm::StringRef,
                                          llvm::raw_ostream &)>
               run) {
  static thread_local std::string text;
  if (report)
    *report = nullptr;
  if (!path)
    return fail(TILE_ERROR_INVALID_CALL, llvm::Twine(what) + ": no path");
  return guard([&]() -> tile_status {
    text.clear();
    llvm::raw_string_ostream os(text);
    if (llvm::Error err =
            run(cacheDir ? cacheDir : getDefaultCacheDir(), path, os))
      return fail(TILE_ERROR_INVALID_CALL,
                  llvm::Twine(what) + ": " + llvm::toString(std::move(err)));
    if (report)
      *report = text.c_str();
    return succeed();
  });
}

tile_status tile_tuning_export(const char *cache_dir, const char *path,
                               const char **report) {
  return moveTuning("tile_tuning_export", cache_dir, path, report,
                    exportTuning);
}

tile_status tile_tuning_import(const char *cache_dir, const char *path,
                               const char **report) {
  return moveTuning("tile_tuning_import", cache_dir, path, report,
                    importTuning);
}

/// The key of the launches a prepared function serves: what decides its
/// meta-parameters (the options, each argument's type and shape bucket) and
/// its specialization (each integer's and address's divisibility).
static std::string prepareKey(const tile_prepare_options &options,
                              const tile_arg *args, size_t numArgs) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << options.target << "/" << options.device << "/" << options.tuning << "/"
     << options.num_warps << "/" << options.tuning_databases << "/"
     << options.tune_top << "/" << options.tma << "/"
     << (options.cache_dir ? "=" + std::string(options.cache_dir) : "default")
     << "/" << (options.tune_grid ? options.tune_grid : "persistent");
  for (size_t index = 0; index < numArgs; ++index) {
    const tile_arg &arg = args[index];
    os << " " << getBucket(arg);
    if (arg.is_buffer)
      os << "@" << getAlignment(arg.value);
    else if (!isFloatDataType(static_cast<DataType>(arg.dtype)))
      os << "%" << getAlignment(getScalar(arg).getSExtValue())
         << (getScalar(arg).getSExtValue() == 1 ? "=1" : "");
  }
  return key;
}

/// Checks the options of a prepare.
static std::optional<Failure>
checkOptions(const tile_prepare_options &options) {
  if (options.target != TILE_TARGET_CPU && options.target != TILE_TARGET_CUDA)
    return Failure{TILE_ERROR_INVALID_CALL, "target " +
                                                std::to_string(options.target) +
                                                " is no tile_target"};
  if (options.tuning < TILE_TUNING_CACHE || options.tuning > TILE_TUNING_AUTO)
    return Failure{TILE_ERROR_INVALID_CALL, "tuning " +
                                                std::to_string(options.tuning) +
                                                " is no tile_tuning"};
  if (options.tuning_databases != 0 && options.tuning_databases != 1)
    return Failure{TILE_ERROR_INVALID_CALL,
                   "tuning_databases is 0 or 1, got " +
                       std::to_string(options.tuning_databases)};
  if (options.tma != 0 && options.tma != 1)
    return Failure{TILE_ERROR_INVALID_CALL,
                   "tma is 0 or 1, got " + std::to_string(options.tma)};
  if (!TileDialect::isValidNumWarps(options.num_warps))
    return Failure{TILE_ERROR_INVALID_CALL,
                   "num_warps expects a power of two from 1 to 32, got " +
                       std::to_string(options.num_warps)};
  return std::nullopt;
}

/// The specialization of a launch on the GPU: Triton's divisibility of each
/// integer (KernelSource::getSpecialization), and of each buffer's address
/// as it is, which must keep the kernel's promise.
static llvm::Expected<KernelSpecialization>
specialize(const tile_kernel &kernel, const KernelSource &source,
           llvm::ArrayRef<KernelArg> shapeArgs, const tile_arg *args) {
  llvm::Expected<KernelSpecialization> specialization =
      source.getSpecialization(shapeArgs);
  if (!specialization)
    return specialization.takeError();
  for (auto [index, divisibility] :
       llvm::enumerate(specialization->divisibility)) {
    if (!args[index].is_buffer)
      continue;
    int64_t alignment = getAlignment(args[index].value);
    auto promise = source.getKernel().getArgAttrOfType<IntegerAttr>(
        index, TileDialect::getDivisibilityAttrName());
    if (promise && alignment < promise.getInt())
      return llvm::createStringError(
          describeArgument(kernel, index) + " is at address " +
          llvm::utohexstr(args[index].value, /*LowerCase=*/true) +
          ", which breaks its promise 'tile.divisibility = " +
          llvm::Twine(promise.getInt()) + "': the kernel needs buffers " +
          "aligned to " + llvm::Twine(promise.getInt()) + " bytes");
    divisibility = alignment > 1 ? alignment : 0;
  }
  // The base of a tensor descriptor is 16-byte aligned, whatever the kernel
  // promises of its argument (TMA's rule, the op's on every chip).
  std::string misaligned;
  source.getKernel().walk([&](MakeTensorDescOp desc) {
    auto base = dyn_cast<BlockArgument>(desc.getBase());
    if (!base || !misaligned.empty())
      return;
    unsigned index = base.getArgNumber();
    if (!args[index].is_buffer || getAlignment(args[index].value) >= 16)
      return;
    misaligned = describeArgument(kernel, index) + " is at address " +
                 llvm::utohexstr(args[index].value, /*LowerCase=*/true) +
                 ", but it is the base of a tensor descriptor "
                 "(tile.make_tensor_desc), which must be aligned to 16 bytes";
  });
  if (!misaligned.empty())
    return llvm::createStringError(misaligned);
  return specialization;
}

/// The mode of loadTunedKernel for a prepare.
static TuningMode getTuningMode(const tile_kernel &kernel,
                                const tile_prepare_options &options,
                                const TuneOptions &tuning) {
  switch (static_cast<tile_tuning>(options.tuning)) {
  case TILE_TUNING_CACHE:
    return TuningMode::UseCache;
  case TILE_TUNING_DEFAULTS:
    return TuningMode::IgnoreCache;
  case TILE_TUNING_TUNE:
    return TuningMode::Tune;
  case TILE_TUNING_AUTO: {
    // Tune only where neither the tuning cache nor a tuning database has
    // a choice for the launch.
    llvm::StringRef cacheDir = tuning.run.compile.cacheDir;
    SmallVector<const KernelSource *> variants;
    for (const auto &variant : kernel.variants)
      variants.push_back(variant.get());
    llvm::Expected<TuningKey> key =
        getTuningKey(variants, tuning.buckets, tuning.run.device);
    if (!key) {
      llvm::consumeError(key.takeError());
      return TuningMode::Tune;
    }
    std::string ignored;
    llvm::raw_string_ostream warnings(ignored);
    return lookupStoredChoice(cacheDir, *key, variants, tuning.stores, warnings)
               ? TuningMode::UseCache
               : TuningMode::Tune;
  }
  }
  llvm_unreachable("checked by checkOptions");
}

/// Prepares a launch (tile_kernel_prepare, under the kernel's lock).
static tile_status prepare(tile_kernel &kernel, KernelCall &call,
                           const tile_prepare_options &options,
                           const tile_arg *args, size_t numArgs,
                           tile_function **result) {
  if (std::optional<Failure> failure = checkOptions(options))
    return fail(*failure);
  if (std::optional<Failure> failure = checkArguments(kernel, args, numArgs))
    return fail(*failure);
  Target target =
      options.target == TILE_TARGET_CUDA ? Target::CUDA : Target::CPU;
  SmallVector<KernelArg> shapeArgs = getShapeArgs(args, numArgs);

  // The same launch as before: its function, unless a bound that is not a
  // power of two splits the shape bucket.
  std::string key = prepareKey(options, args, numArgs);
  if (options.tuning != TILE_TUNING_TUNE) {
    auto found = kernel.prepared.find(key);
    if (found != kernel.prepared.end()) {
      FuncOp chosen = found->second->source->getKernel();
      bool admitted = true;
      for (auto [index, arg] : llvm::enumerate(shapeArgs))
        if (!arg.isBuffer() && !isFloatDataType(arg.getDataType()))
          admitted &= checkIntegerArgument(chosen, index,
                                           arg.getScalar().getSExtValue())
                          .empty();
      if (admitted) {
        *result = found->second;
        return succeed();
      }
    }
  }

  // The GPU, opened once.
  CudaDevice *device = nullptr;
  if (target == Target::CUDA) {
    llvm::Expected<CudaDevice &> opened = getDevice(options.device);
    if (!opened)
      return fail(TILE_ERROR_CUDA, llvm::toString(opened.takeError()));
    device = &*opened;
  }
  // The steps below that need the device's context make it current each:
  // choosing meta-parameters may open and close the device (the tuning
  // cache's key, the tuner), which leaves no context current.

  // The meta-parameters: the tuning cache's, fitted, or tuned.
  TuneOptions tuning;
  tuning.source = kernel.options;
  tuning.run.target = target;
  tuning.run.device = options.device;
  tuning.run.compile.numWarps = options.num_warps;
  tuning.run.compile.tma = options.tma != 0;
  tuning.run.compile.cacheDir =
      options.cache_dir ? options.cache_dir : getDefaultCacheDir();
  tuning.stores.databases = options.tuning_databases != 0;
  tuning.top = options.tune_top;
  llvm::Expected<GridSpec> grid =
      GridSpec::parse(options.tune_grid ? options.tune_grid : "persistent");
  if (!grid)
    return fail(TILE_ERROR_INVALID_CALL,
                "tune_grid: " + llvm::toString(grid.takeError()));
  tuning.run.grid = *grid;
  if (options.tune_warmup)
    tuning.bench.warmup = options.tune_warmup;
  if (options.tune_repetitions)
    tuning.bench.repetitions = options.tune_repetitions;
  tuning.progress = options.tune_progress ? &llvm::errs() : nullptr;
  for (size_t index = 0; index < numArgs; ++index)
    tuning.buckets.push_back(getBucket(args[index]));
  TuningMode mode = target == Target::CPU
                        ? TuningMode::IgnoreCache
                        : getTuningMode(kernel, options, tuning);
  SmallVector<KernelArg> dataArgs;
  if (mode == TuningMode::Tune) {
    // The tuner times each configuration on copies of the arguments.
    CudaContextScope scope(*device);
    llvm::Expected<SmallVector<KernelArg>> copied =
        copyArgs(args, numArgs, device);
    if (!copied)
      return fail(TILE_ERROR_CUDA, "copying the arguments for the tuner: " +
                                       llvm::toString(copied.takeError()));
    dataArgs = std::move(*copied);
  }
  std::vector<std::unique_ptr<KernelSource>> variants;
  for (const auto &base : kernel.variants) {
    // loadTunedKernel takes its variants: give it fresh copies.
    llvm::Expected<std::unique_ptr<KernelSource>> copy =
        KernelSource::loadString(base->getText(), base->getFileName(),
                                 kernel.options);
    if (!copy)
      return fail(call.toFailure(TILE_ERROR_KERNEL, copy.takeError()));
    variants.push_back(std::move(*copy));
  }
  // The choice's waves, which the function's persistent grids launch (the
  // tuner timed it on them).
  GridSpec chosenGrid = tuning.run.grid;
  llvm::Expected<std::unique_ptr<KernelSource>> chosen = loadTunedKernel(
      std::move(variants), mode == TuningMode::Tune ? dataArgs : shapeArgs,
      tuning, mode, call.notes(), &chosenGrid);
  if (!chosen)
    return fail(call.toFailure(mode == TuningMode::Tune ? TILE_ERROR_RUN
                                                        : TILE_ERROR_KERNEL,
                               chosen.takeError()));
  if (llvm::Error err = (*chosen)->checkArgumentValues(shapeArgs))
    return fail(call.toFailure(TILE_ERROR_ARGUMENTS, std::move(err)));
  if (mode == TuningMode::Tune) {
    // Launches prepared before may have another choice now.
    kernel.prepared.clear();
  }

  auto function = std::make_unique<tile_function>();
  function->kernel = &kernel;
  function->target = target;
  function->device = options.device;
  function->numParams = numArgs;
  for (auto [index, variant] : llvm::enumerate(kernel.variants))
    if (variant->getFileName() == (*chosen)->getFileName())
      function->variant = index;
  function->meta.fill((*chosen)->getParams());
  function->config = function->meta.str();
  if (chosenGrid.persistent && !tuning.run.grid.waves &&
      chosenGrid.waves.value_or(1) != 1) {
    function->waves = chosenGrid.waves;
    function->config += " waves=" + formatWaves(*function->waves);
  }
  function->params.fill((*chosen)->getKernel(), kernel.params.names);
  std::string identity =
      std::to_string(options.target) + "/" + std::to_string(options.device) +
      "/" + std::to_string(function->variant) + "/" + function->config + "/" +
      std::to_string(options.num_warps) + "/" + std::to_string(options.tma) +
      "/" + tuning.run.compile.cacheDir;
  if (target == Target::CUDA) {
    llvm::Expected<KernelSpecialization> specialization =
        specialize(kernel, **chosen, shapeArgs, args);
    if (!specialization)
      return fail(
          call.toFailure(TILE_ERROR_ARGUMENTS, specialization.takeError()));
    function->specialization = specialization->str();
    identity += "/" + function->specialization;
    auto existing = kernel.functions.find(identity);
    if (existing != kernel.functions.end()) {
      kernel.prepared[key] = existing->second.get();
      *result = existing->second.get();
      return succeed();
    }
    CudaContextScope scope(*device);
    llvm::Expected<LoadedKernel> loaded =
        loadKernel(**chosen, *device, *specialization, tuning.run.compile,
                   numArgs, /*timings=*/nullptr);
    if (!loaded) {
      // Compiling is the step that fails on a bad kernel; the rest is the
      // driver's, whose messages name it or its error.
      std::string message = llvm::toString(loaded.takeError());
      llvm::StringRef text = message;
      bool driver = text.contains("CUDA driver") ||
                    text.contains("CUDA_ERROR_") ||
                    text.contains("the loaded module");
      return fail(driver ? TILE_ERROR_CUDA : TILE_ERROR_COMPILE,
                  "@" + kernel.name + ": " + message);
    }
    function->cudaDevice = device;
    function->blockSize = loaded->getBlockSize();
    if (loaded->function.localBytes > 0)
      llvm::WithColor::warning(kernel.diagnostics, "tile")
          << describeSpill(**chosen, function->blockSize / 32,
                           loaded->function.localBytes)
          << "\n";
    if (TileDialect::isPersistent((*chosen)->getKernel())) {
      // Its launches run their work on the programs that fit at once.
      llvm::Expected<int64_t> programs = getPersistentGrid(
          *device, loaded->function, function->blockSize, /*cap=*/0);
      if (!programs)
        return fail(TILE_ERROR_CUDA, "@" + kernel.name + ": " +
                                         llvm::toString(programs.takeError()));
      function->persistentPrograms = *programs;
    }
    function->loaded = std::move(*loaded);
    function->specializationFacts = *specialization;
    function->compileOptions = tuning.run.compile;
  } else {
    auto existing = kernel.functions.find(identity);
    if (existing != kernel.functions.end()) {
      kernel.prepared[key] = existing->second.get();
      *result = existing->second.get();
      return succeed();
    }
  }
  function->source = std::move(*chosen);
  tile_function *prepared = function.get();
  kernel.functions[identity] = std::move(function);
  kernel.prepared[key] = prepared;
  *result = prepared;
  return succeed();
}

tile_status tile_kernel_prepare(tile_kernel *kernel,
                                const tile_prepare_options *options,
                                const tile_arg *args, size_t num_args,
                                tile_function **function) {
  return guard([&] {
    if (!kernel || !function)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_kernel_prepare: null kernel or result");
    *function = nullptr;
    tile_prepare_options defaults = tile_prepare_options_default();
    CudaContextScope saved;
    KernelCall call(*kernel);
    return prepare(*kernel, call, options ? *options : defaults, args, num_args,
                   function);
  });
}

tile_status tile_kernel_compile(tile_kernel *kernel, const char *chip,
                                int32_t format, const tile_arg *args,
                                size_t num_args, const char **binary,
                                size_t *size) {
  return guard([&] {
    if (!kernel || !chip || !binary || !size)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_kernel_compile: null kernel, chip or result");
    *binary = nullptr;
    *size = 0;
    if (format != 0 && format != 1)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_kernel_compile: format is 0 (PTX) or 1 (cubin), not " +
                      llvm::Twine(format));
    if (llvm::Error err = checkChipName(chip))
      return fail(TILE_ERROR_INVALID_CALL, llvm::toString(std::move(err)));
    KernelCall call(*kernel);
    CompileOptions compile;
    compile.chip = chip;
    compile.format = format ? OutputFormat::Cubin : OutputFormat::PTX;
    compile.cacheDir = getDefaultCacheDir();
    const KernelSource &base = *kernel->variants.front();
    std::unique_ptr<KernelSource> fitted;
    KernelSpecialization specialization;
    if (num_args) {
      if (std::optional<Failure> failure =
              checkArguments(*kernel, args, num_args))
        return fail(*failure);
      SmallVector<KernelArg> shapeArgs = getShapeArgs(args, num_args);
      TuneOptions tuning;
      tuning.source = kernel->options;
      tuning.run.target = Target::CUDA;
      tuning.run.compile = compile;
      // Compiling needs no GPU: the defaults fitted, not the model's choice
      // (which would ask the machine's GPU for its figures).
      tuning.model = false;
      llvm::Expected<std::unique_ptr<KernelSource>> copy =
          KernelSource::loadString(base.getText(), base.getFileName(),
                                   kernel->options);
      if (!copy)
        return fail(call.toFailure(TILE_ERROR_KERNEL, copy.takeError()));
      llvm::Expected<std::unique_ptr<KernelSource>> chosen =
          loadTunedKernel(std::move(*copy), shapeArgs, tuning,
                          TuningMode::IgnoreCache, call.notes());
      if (!chosen)
        return fail(call.toFailure(TILE_ERROR_KERNEL, chosen.takeError()));
      fitted = std::move(*chosen);
      if (llvm::Error err = fitted->checkArgumentValues(shapeArgs))
        return fail(call.toFailure(TILE_ERROR_ARGUMENTS, std::move(err)));
      llvm::Expected<KernelSpecialization> specialized =
          specialize(*kernel, *fitted, shapeArgs, args);
      if (!specialized)
        return fail(
            call.toFailure(TILE_ERROR_ARGUMENTS, specialized.takeError()));
      specialization = *specialized;
    }
    const KernelSource &source = fitted ? *fitted : base;
    llvm::Expected<CompiledKernel> compiled =
        source.compile(specialization, compile);
    if (!compiled)
      return fail(call.toFailure(TILE_ERROR_COMPILE, compiled.takeError()));
    kernel->binary = std::move(compiled->binary);
    *binary = kernel->binary.data();
    *size = kernel->binary.size();
    return succeed();
  });
}
