//===- KernelRunner.cpp - Running kernels on the CPU or a GPU -------------===//

#include "tile/Runtime/KernelRunner.h"

#include "tile/Analysis/RegisterEstimate.h"
#include "tile/HostData/Npy.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Support/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tile;

namespace {
using Clock = std::chrono::steady_clock;

/// Seconds since `start`.
double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string formatBytes(uint64_t bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (bytes >= (uint64_t(1) << 20))
    os << llvm::format("%.1f MiB", bytes / 1048576.0);
  else if (bytes >= 1024)
    os << llvm::format("%.1f KiB", bytes / 1024.0);
  else
    os << bytes << " bytes";
  return text;
}
} // namespace

//===----------------------------------------------------------------------===//
// DiagnosedError
//===----------------------------------------------------------------------===//

char DiagnosedError::ID = 0;

void DiagnosedError::log(llvm::raw_ostream &os) const { os << summary; }

std::error_code DiagnosedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

//===----------------------------------------------------------------------===//
// Targets and grids
//===----------------------------------------------------------------------===//

llvm::StringRef mlir::tile::getTargetName(Target target) {
  switch (target) {
  case Target::CPU:
    return "cpu";
  case Target::CUDA:
    return "cuda";
  }
  llvm_unreachable("unknown target");
}

llvm::Expected<Target> mlir::tile::getDefaultTarget() {
  const char *env = std::getenv("TILE_TARGET");
  llvm::StringRef fromEnv = env ? env : "";
  if (fromEnv == "cpu")
    return Target::CPU;
  if (fromEnv == "cuda")
    return Target::CUDA;
  if (!fromEnv.empty())
    return llvm::createStringError("TILE_TARGET is '" + fromEnv +
                                   "'; expected cpu or cuda");
  llvm::Expected<int> count = getCudaDeviceCount();
  if (!count) {
    llvm::consumeError(count.takeError());
    return Target::CPU;
  }
  return *count > 0 ? Target::CUDA : Target::CPU;
}

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
          llvm::Twine(function.sharedBytes) +
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
        llvm::Twine(function.sharedBytes) +
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

//===----------------------------------------------------------------------===//
// KernelSource
//===----------------------------------------------------------------------===//

struct KernelSource::Impl {
  Impl() : context(makeRegistry()) {
    // Runtime errors name the op by its source line; the generic form of
    // the op would only repeat it.
    context.printOpOnDiagnostic(false);
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerCompilerDialects(registry);
    return registry;
  }
  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
  /// Registered after `handler`, so it sees each diagnostic first.
  std::unique_ptr<DiagnosticHintHandler> hints;
  OwningOpRef<ModuleOp> module;
};

KernelSource::KernelSource() : impl(std::make_unique<Impl>()) {}
KernelSource::~KernelSource() = default;

llvm::Expected<std::unique_ptr<KernelSource>>
KernelSource::loadFile(llvm::StringRef path, const Options &options) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(path, &error);
  if (!input)
    return llvm::createStringError(error);
  std::unique_ptr<KernelSource> source(new KernelSource());
  source->fileName = path.str();
  if (llvm::Error err = source->load(std::move(input), options))
    return std::move(err);
  return std::move(source);
}

llvm::Expected<std::unique_ptr<KernelSource>>
KernelSource::loadString(llvm::StringRef text, llvm::StringRef bufferName,
                         const Options &options) {
  std::unique_ptr<KernelSource> source(new KernelSource());
  source->fileName = bufferName.str();
  if (llvm::Error err = source->load(
          llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), options))
    return std::move(err);
  return std::move(source);
}

llvm::Error KernelSource::load(std::unique_ptr<llvm::MemoryBuffer> buffer,
                               const Options &options) {
  diagnostics = options.diagnostics ? options.diagnostics : &llvm::errs();
  text = buffer->getBuffer().str();
  std::string specialized;
  if (!preprocess(*buffer, options.defines, specialized, params, *diagnostics))
    return llvm::make_error<DiagnosedError>(
        "the kernel file's meta-parameters are wrong");
  impl->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(specialized,
                                           buffer->getBufferIdentifier()),
      llvm::SMLoc());
  impl->handler = std::make_unique<SourceMgrDiagnosticHandler>(
      impl->sourceMgr, &impl->context, *diagnostics);
  impl->hints = std::make_unique<DiagnosticHintHandler>(&impl->context);
  impl->module =
      parseSourceFile<ModuleOp>(impl->sourceMgr, ParserConfig(&impl->context));
  if (!impl->module)
    return llvm::make_error<DiagnosedError>(
        "the kernel file does not parse or verify");

  SmallVector<FuncOp> kernels(impl->module->getOps<FuncOp>());
  std::string names =
      llvm::join(llvm::map_range(kernels,
                                 [](FuncOp kernel) {
                                   return "@" + kernel.getSymName().str();
                                 }),
                 ", ");
  if (!options.kernelName.empty()) {
    for (FuncOp candidate : kernels)
      if (candidate.getSymName() == options.kernelName)
        kernel = candidate;
    if (!kernel)
      return llvm::createStringError(
          "no kernel named '" + options.kernelName + "' in " + fileName +
          (kernels.empty() ? llvm::Twine(" (it has none)")
                           : llvm::Twine(" (it has ") + names + ")"));
    return llvm::Error::success();
  }
  if (kernels.size() == 1) {
    kernel = kernels.front();
    return llvm::Error::success();
  }
  if (kernels.empty())
    return llvm::createStringError(fileName + " has no kernel (no tile.func)");
  return llvm::createStringError(fileName + " has " +
                                 llvm::Twine(kernels.size()) + " kernels (" +
                                 names + "); choose one with --kernel NAME");
}

llvm::StringRef KernelSource::getKernelName() const {
  return kernel.getSymName();
}

std::string KernelSource::getSignature() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "@" << kernel.getSymName() << "(";
  llvm::interleaveComma(kernel.getArgumentTypes(), os);
  os << ")";
  return result;
}

std::vector<std::string> KernelSource::getParameterNames() const {
  // Each argument's location is where the file names it: `%output`.
  std::vector<std::string> names;
  for (BlockArgument argument : kernel.getArguments()) {
    std::string name;
    if (auto loc = dyn_cast<FileLineColLoc>(argument.getLoc())) {
      unsigned buffer = impl->sourceMgr.getMainFileID();
      llvm::SMLoc at = impl->sourceMgr.FindLocForLineAndColumn(
          buffer, loc.getLine(), loc.getColumn());
      if (at.isValid()) {
        llvm::StringRef rest(
            at.getPointer(),
            impl->sourceMgr.getMemoryBuffer(buffer)->getBufferEnd() -
                at.getPointer());
        if (rest.consume_front("%"))
          name = rest.take_while([](char c) {
                       return llvm::isAlnum(c) || c == '_' || c == '$' ||
                              c == '.' || c == '-';
                     })
                     .str();
      }
    }
    names.push_back(std::move(name));
  }
  return names;
}

llvm::Expected<std::vector<std::unique_ptr<KernelSource>>>
mlir::tile::loadKernelSources(llvm::ArrayRef<std::string> paths,
                              const KernelSource::Options &options,
                              std::optional<size_t> argumentCount) {
  std::vector<std::string> files(paths.begin(), paths.end());
  if (files.empty())
    files.push_back("-");
  std::vector<std::unique_ptr<KernelSource>> sources;
  for (const std::string &path : files) {
    llvm::Expected<std::unique_ptr<KernelSource>> source =
        KernelSource::loadFile(path, options);
    if (!source)
      return source.takeError();
    if (argumentCount)
      if (llvm::Error err = (*source)->checkArgumentCount(*argumentCount))
        return std::move(err);
    sources.push_back(std::move(*source));
  }
  return sources;
}

llvm::Error KernelSource::checkArgumentCount(size_t count) const {
  size_t expected = kernel.getNumArguments();
  if (count == expected)
    return llvm::Error::success();
  return llvm::createStringError(getSignature() + " takes " +
                                 llvm::Twine(expected) +
                                 " arguments; --arg "
                                 "gives " +
                                 llvm::Twine(count));
}

llvm::Error KernelSource::checkArgSpec(unsigned index,
                                       const ArgSpec &spec) const {
  if (index >= kernel.getNumArguments())
    return llvm::createStringError(getSignature() + " has no parameter " +
                                   llvm::Twine(index));
  return checkArgumentType(kernel.getArgumentTypes()[index], spec.type,
                           spec.isBuffer());
}

llvm::Error
KernelSource::checkArgumentValues(llvm::ArrayRef<KernelArg> args) const {
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (index >= kernel.getNumArguments() || arg.isBuffer() ||
        isFloatDataType(arg.getDataType()))
      continue;
    int64_t value = arg.getScalar().getSExtValue();
    std::string broken = checkIntegerArgument(kernel, index, value);
    if (broken.empty())
      continue;
    // A bound usually comes from a meta-parameter: name the ones whose
    // value it is.
    auto bound = kernel.getArgAttrOfType<IntegerAttr>(
        index, TileDialect::getMaxValueAttrName());
    SmallVector<std::string> setters;
    if (bound && value > bound.getInt())
      for (const KernelParam &param : params)
        if (!param.isType && param.value == std::to_string(bound.getInt()))
          setters.push_back(param.name);
    if (!setters.empty())
      broken += " (the value of " + llvm::join(setters, ", ") +
                ": set a larger value, or tune the kernel)";
    kernel.emitError(broken);
    return llvm::make_error<DiagnosedError>("a launch argument breaks a "
                                            "promise of the kernel");
  }
  return llvm::Error::success();
}

llvm::Error KernelSource::checkOutputIndex(unsigned index) const {
  if (index >= kernel.getNumArguments())
    return llvm::createStringError(getSignature() + " has no parameter " +
                                   llvm::Twine(index));
  if (!isa<PointerType>(kernel.getArgumentTypes()[index]))
    return llvm::createStringError("parameter " + llvm::Twine(index) +
                                   " is a scalar; only buffers can be written");
  return llvm::Error::success();
}

llvm::Expected<KernelSpecialization>
KernelSource::getSpecialization(llvm::ArrayRef<KernelArg> args) const {
  return specializeArguments(kernel, args);
}

llvm::Expected<KernelSpecialization>
KernelSource::getSpecialization(llvm::ArrayRef<ArgSpec> specs) const {
  // The values of scalars and which arguments are buffers are all the
  // specialization needs: the buffers stay empty.
  SmallVector<KernelArg> args;
  for (const ArgSpec &spec : specs) {
    if (spec.isBuffer())
      args.push_back(llvm::cantFail(HostBuffer::create(spec.type, {0})));
    else
      args.push_back(spec.value);
  }
  return specializeArguments(kernel, args);
}

llvm::Expected<CompiledKernel>
KernelSource::compile(const KernelSpecialization &specialization,
                      const CompileOptions &options) const {
  llvm::Expected<CompiledKernel> compiled =
      compileKernel(kernel, specialization, options);
  if (compiled && !compiled->cacheWarning.empty())
    llvm::WithColor::warning(*diagnostics, "tile-run")
        << "the compile cache is not used: " << compiled->cacheWarning << "\n";
  return compiled;
}

llvm::Expected<CompiledKernel>
KernelSource::compile(llvm::ArrayRef<ArgSpec> specs,
                      const CompileOptions &options) const {
  KernelSpecialization specialization;
  if (!specs.empty()) {
    llvm::Expected<KernelSpecialization> fromSpecs = getSpecialization(specs);
    if (!fromSpecs)
      return fromSpecs.takeError();
    specialization = *fromSpecs;
  }
  return compile(specialization, options);
}

llvm::Expected<CompiledKernel>
KernelSource::compile(llvm::ArrayRef<KernelArg> args,
                      const CompileOptions &options) const {
  llvm::Expected<KernelSpecialization> specialization = getSpecialization(args);
  if (!specialization)
    return specialization.takeError();
  return compile(*specialization, options);
}

//===----------------------------------------------------------------------===//
// Timings and reports
//===----------------------------------------------------------------------===//

void Timings::add(llvm::StringRef label, double seconds, llvm::StringRef detail,
                  unsigned depth) {
  rows.push_back({label.str(), seconds, detail.str(), depth});
}

void Timings::addCompile(const CompiledKernel &compiled) {
  std::string detail =
      compiled.chip + ", divisibility {" + compiled.specialization + "}, ";
  if (compiled.fromCache)
    detail += "from the cache: " + compiled.cachePath;
  else if (!compiled.cachePath.empty())
    detail += "stored in the cache: " + compiled.cachePath;
  else
    detail += "not cached";
  add("compile", compiled.seconds, detail);
  for (const PassTiming &pass : compiled.passTimings)
    add(pass.pass, pass.seconds, "", 1);
}

void Timings::print(llvm::raw_ostream &os) const {
  os << "timing:\n";
  for (const Row &row : rows) {
    std::string label = std::string(2 + 2 * row.depth, ' ') + row.label;
    os << llvm::left_justify(label, 40)
       << llvm::format("%10.3f ms", row.seconds * 1e3);
    if (!row.detail.empty())
      os << "  " << row.detail;
    os << "\n";
  }
}

void BenchReport::print(llvm::raw_ostream &os) const {
  os << llvm::format(
      "bench: median %.4f ms (min %.4f, max %.4f) over %u runs after %u "
      "warm-up runs, %.1f GB/s (%llu bytes: %s); L2 flushed before each "
      "run (%s written)\n",
      times.median, times.min, times.max, options.repetitions, options.warmup,
      gigabytesPerSecond, static_cast<unsigned long long>(bytes),
      bytesGiven ? "--bytes" : "every buffer argument read or written once",
      formatBytes(times.flushBytes).c_str());
}

bool CheckReport::passed() const {
  return llvm::all_of(entries, [](const Entry &entry) {
    return entry.comparison && entry.comparison->passed();
  });
}

void CheckReport::print(llvm::raw_ostream &os) const {
  os << "check against the CPU interpreter:\n";
  for (const Entry &entry : entries) {
    os << "  argument " << entry.index << " (" << entry.description << "): ";
    if (!entry.comparison) {
      os << entry.error << "\n";
      continue;
    }
    const BufferComparison &result = *entry.comparison;
    if (result.identical) {
      os << "identical\n";
      continue;
    }
    os << llvm::format("max abs error %.3g, max rel error %.3g",
                       result.maxAbsError, result.maxRelError);
    if (result.passed()) {
      os << llvm::format(" (rtol %g, atol %g): OK\n", entry.tolerance.rtol,
                         entry.tolerance.atol);
      continue;
    }
    os << llvm::format("; %lld of %lld elements past rtol %g, atol %g; the "
                       "worst, at ",
                       static_cast<long long>(result.mismatches),
                       static_cast<long long>(result.elements),
                       entry.tolerance.rtol, entry.tolerance.atol)
       << formatIndex(entry.shape, result.worstIndex)
       << llvm::format(", is %.9g on the GPU and %.9g on the "
                       "interpreter: FAILED\n",
                       result.worstActual, result.worstExpected);
  }
}

llvm::Expected<std::string> mlir::tile::getCudaChip(int ordinal) {
  llvm::Expected<std::unique_ptr<CudaDevice>> device =
      CudaDevice::open(ordinal);
  if (!device)
    return device.takeError();
  return (*device)->getInfo().getChip();
}

llvm::Error
mlir::tile::writeOutputs(const RunResult &result,
                         const std::map<unsigned, std::string> &outputs,
                         llvm::raw_ostream &os) {
  for (const auto &[index, path] : outputs) {
    if (index >= result.outputs.size() || !result.outputs[index].isBuffer())
      return llvm::createStringError("--out " + llvm::Twine(index) +
                                     ": the run has no such buffer");
    const HostBuffer &buffer = result.outputs[index].getBuffer();
    if (llvm::Error err = writeNpyFile(path, buffer))
      return err;
    os << "wrote argument " << index << " (" << buffer.getDescription()
       << ") to " << path << "\n";
  }
  return llvm::Error::success();
}

std::string mlir::tile::describeSpill(const KernelSource &source,
                                      unsigned numWarps, int localBytes) {
  FuncOp kernel = source.getKernel();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "@" << kernel.getSymName() << " spills registers to local memory ("
     << localBytes << " bytes per thread)";
  // The largest floating-point tile, and the parameters of its shape.
  RankedTensorType largest;
  unsigned registers = 0;
  kernel.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (unsigned size = estimateRegisters(type, numWarps); size > registers) {
        registers = size;
        largest = cast<RankedTensorType>(type);
      }
  });
  if (!largest)
    return text;
  SmallVector<std::string> setters, warps;
  for (const KernelParam &param : source.getParams()) {
    if (param.isType)
      continue;
    if (llvm::any_of(largest.getShape(), [&](int64_t dim) {
          return param.value == std::to_string(dim);
        }))
      setters.push_back(param.name + " = " + param.value);
    else if (param.value == std::to_string(numWarps))
      warps.push_back(param.name + " = " + param.value);
  }
  os << ": its largest tile, " << largest << ", takes " << registers
     << " registers per thread over " << numWarps << " warps, of the "
     << getRegisterBudget(numWarps) << " each thread may use";
  if (!setters.empty())
    os << "; " << llvm::join(setters, ", ")
       << " sets its size: a smaller value";
  else
    os << "; a smaller tile";
  os << " or more warps"
     << (warps.empty() ? "" : " (" + llvm::join(warps, ", ") + ")")
     << " would keep it in registers";
  return text;
}

CheckReport mlir::tile::compareWithReference(llvm::ArrayRef<KernelArg> outputs,
                                             llvm::ArrayRef<KernelArg> expected,
                                             const CheckOptions &options) {
  CheckReport report;
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(outputs, expected))) {
    const KernelArg &actual = std::get<0>(pair);
    if (!actual.isBuffer())
      continue;
    const HostBuffer &buffer = actual.getBuffer();
    CheckReport::Entry entry;
    entry.index = index;
    entry.description = buffer.getDescription();
    entry.shape.assign(buffer.getShape().begin(), buffer.getShape().end());
    entry.tolerance = getDefaultTolerance(buffer.getDataType());
    if (options.rtol)
      entry.tolerance.rtol = *options.rtol;
    if (options.atol)
      entry.tolerance.atol = *options.atol;
    llvm::Expected<BufferComparison> result =
        compareBuffers(buffer, std::get<1>(pair).getBuffer(), entry.tolerance);
    if (result)
      entry.comparison = *result;
    else
      entry.error = llvm::toString(result.takeError());
    report.entries.push_back(std::move(entry));
  }
  return report;
}

llvm::Expected<CheckReport> mlir::tile::checkAgainstInterpreter(
    KernelSource &source, llvm::ArrayRef<int64_t> grid,
    llvm::ArrayRef<KernelArg> inputs, llvm::ArrayRef<KernelArg> outputs,
    const CheckOptions &options) {
  if (inputs.size() != outputs.size())
    return llvm::createStringError(
        "the check compares " + llvm::Twine(outputs.size()) + " results with " +
        llvm::Twine(inputs.size()) + " inputs");
  FuncOp kernel = source.getKernel();
  if (failed(checkInterpretable(kernel)))
    return llvm::make_error<DiagnosedError>(
        "the check needs the CPU interpreter, which cannot run @" +
        kernel.getSymName().str());
  SmallVector<KernelArg> expected(inputs.begin(), inputs.end());
  Clock::time_point start = Clock::now();
  if (failed(interpretKernel(kernel, grid, expected)))
    return llvm::make_error<DiagnosedError>(
        "the CPU interpreter failed on the same arguments");
  CheckReport report = compareWithReference(outputs, expected, options);
  report.seconds = since(start);
  return report;
}

//===----------------------------------------------------------------------===//
// KernelRunner
//===----------------------------------------------------------------------===//

/// What the CUDA target keeps between runs.
struct KernelRunner::CudaState {
  std::unique_ptr<CudaDevice> device;
  /// Set by the first run.
  std::optional<CompiledKernel> compiled;
  std::unique_ptr<CudaModule> module;
  std::optional<CudaFunction> function;
  CudaDevice::JitLog jitLog;
  unsigned blockSize = 0;
  /// The last run's arguments on the device, and its grid.
  std::optional<DeviceArguments> deviceArgs;
  /// The arguments runs and benchmarks use: deviceArgs, or the caller's
  /// (RunOptions::sharedArgs).
  const DeviceArguments *activeArgs = nullptr;
  std::array<unsigned, 3> launchGrid = {1, 1, 1};
};

KernelRunner::KernelRunner(KernelSource &source, const RunOptions &options)
    : source(source), options(options) {}
KernelRunner::~KernelRunner() = default;

llvm::Expected<std::unique_ptr<KernelRunner>>
KernelRunner::create(KernelSource &source, const RunOptions &options) {
  if (!TileDialect::isValidNumWarps(options.compile.numWarps))
    return llvm::createStringError(
        "--num-warps expects a power of two from 1 to 32, got " +
        llvm::Twine(options.compile.numWarps));
  std::unique_ptr<KernelRunner> runner(new KernelRunner(source, options));
  switch (options.target) {
  case Target::CPU:
    if (options.grid.persistent)
      return llvm::createStringError(
          "--grid persistent sizes the grid from a GPU's occupancy; give "
          "the CPU interpreter the grid itself, such as --grid 1823");
    if (!options.binaryFile.empty())
      return llvm::createStringError("--ptx needs a GPU (--target=cuda)");
    if (failed(checkInterpretable(source.getKernel())))
      return llvm::make_error<DiagnosedError>(
          "the CPU interpreter cannot run @" + source.getKernelName().str());
    return std::move(runner);
  case Target::CUDA: {
    Clock::time_point start = Clock::now();
    llvm::Expected<std::unique_ptr<CudaDevice>> device =
        CudaDevice::open(options.device);
    if (!device)
      return device.takeError();
    runner->cuda = std::make_unique<CudaState>();
    runner->cuda->device = std::move(*device);
    runner->timings.add("open the GPU", since(start),
                        runner->cuda->device->getInfo().getDescription());
    return std::move(runner);
  }
  }
  llvm_unreachable("unknown target");
}

const CudaFunction *KernelRunner::getFunction() const {
  return cuda && cuda->function ? &*cuda->function : nullptr;
}

const CudaDevice::JitLog *KernelRunner::getJitLog() const {
  return cuda && cuda->function ? &cuda->jitLog : nullptr;
}

const CompiledKernel *KernelRunner::getCompiled() const {
  return cuda && cuda->compiled ? &*cuda->compiled : nullptr;
}

llvm::Expected<RunResult> KernelRunner::run(llvm::ArrayRef<KernelArg> args) {
  if (llvm::Error err = source.checkArgumentCount(args.size()))
    return std::move(err);
  if (llvm::Error err = source.checkArgumentValues(args))
    return std::move(err);
  switch (options.target) {
  case Target::CPU:
    return runOnCPU(args);
  case Target::CUDA:
    return runOnCUDA(args);
  }
  llvm_unreachable("unknown target");
}

llvm::Expected<RunResult>
KernelRunner::runOnCPU(llvm::ArrayRef<KernelArg> args) {
  RunResult result;
  result.outputs.assign(args.begin(), args.end());
  result.grid.assign(options.grid.sizes.begin(), options.grid.sizes.end());
  result.where = "the CPU interpreter";
  Clock::time_point start = Clock::now();
  if (failed(interpretKernel(source.getKernel(), result.grid, result.outputs)))
    return llvm::make_error<DiagnosedError>("@" + source.getKernelName().str() +
                                            " failed on the CPU interpreter");
  result.seconds = since(start);
  timings.add("run", result.seconds, "the CPU interpreter");
  return result;
}

/// Compiles `source`'s kernel again without pipelining and loads it, for a
/// kernel that spills when pipelined: `loaded` then holds the one that
/// spills less.
static llvm::Error loadUnpipelined(const KernelSource &source,
                                   CudaDevice &device,
                                   const KernelSpecialization &specialization,
                                   CompileOptions options, LoadedKernel &loaded,
                                   Timings *timings) {
  options.pipelineLoops = false;
  llvm::Expected<CompiledKernel> compiled =
      source.compile(specialization, options);
  if (!compiled)
    return compiled.takeError();
  CudaDevice::JitLog jitLog;
  llvm::Expected<std::unique_ptr<CudaModule>> module =
      device.loadModule(compiled->binary, &jitLog);
  if (!module)
    return module.takeError();
  llvm::Expected<CudaFunction> function =
      (*module)->getFunction(source.getKernelName());
  if (!function)
    return function.takeError();
  if (function->localBytes >= loaded.function.localBytes)
    return llvm::Error::success();
  if (timings)
    timings->add("compile again, unpipelined", compiled->seconds,
                 llvm::formatv("pipelined, it spilled {0} bytes per thread",
                               loaded.function.localBytes)
                     .str());
  loaded.compiled = std::move(*compiled);
  loaded.module = std::move(*module);
  loaded.function = *function;
  loaded.jitLog = std::move(jitLog);
  return llvm::Error::success();
}

llvm::Expected<LoadedKernel>
mlir::tile::loadKernel(const KernelSource &source, CudaDevice &device,
                       const KernelSpecialization &specialization,
                       CompileOptions options, size_t numArgs,
                       Timings *timings) {
  if (options.chip.empty())
    options.chip = device.getInfo().getChip();
  LoadedKernel loaded;
  llvm::Expected<CompiledKernel> compiled =
      source.compile(specialization, options);
  if (!compiled)
    return compiled.takeError();
  if (timings)
    timings->addCompile(*compiled);
  loaded.compiled = std::move(*compiled);
  std::string origin;
  if (loaded.compiled.fromCache)
    origin = " (from the cache " + loaded.compiled.cachePath + ")";

  // JIT-load and look the kernel up.
  Clock::time_point start = Clock::now();
  llvm::Expected<std::unique_ptr<CudaModule>> module =
      device.loadModule(loaded.compiled.binary, &loaded.jitLog);
  if (!module)
    return llvm::createStringError("the CUDA driver rejected the compiled @" +
                                   source.getKernelName() + origin + ": " +
                                   llvm::toString(module.takeError()));
  if (timings)
    timings->add("JIT (cuModuleLoadDataEx)", since(start),
                 llvm::formatv("the JIT's own wall time {0:f3} ms",
                               loaded.jitLog.wallMilliseconds)
                     .str());
  loaded.module = std::move(*module);
  llvm::Expected<CudaFunction> function =
      loaded.module->getFunction(source.getKernelName());
  if (!function)
    return llvm::createStringError(llvm::toString(function.takeError()) +
                                   origin);
  if (llvm::Error err = function->checkParameters(numArgs))
    return llvm::createStringError(llvm::toString(std::move(err)) + origin);
  loaded.function = *function;
  if (loaded.function.localBytes > 0 && options.pipelineLoops &&
      requestsPipelining(source.getKernel()))
    if (llvm::Error err = loadUnpipelined(source, device, specialization,
                                          options, loaded, timings))
      return std::move(err);
  int clusterSize = TileDialect::getClusterSize(source.getKernel());
  if (clusterSize != loaded.function.clusterSize)
    if (llvm::Error err = loaded.function.setClusterSize(clusterSize))
      return std::move(err);
  return std::move(loaded);
}

/// Compiles (or reads) the binary and loads it.
llvm::Error KernelRunner::load(llvm::ArrayRef<KernelArg> args) {
  CudaState &state = *cuda;
  CompileOptions compileOptions = options.compile;
  if (options.binaryFile.empty()) {
    llvm::Expected<KernelSpecialization> specialization =
        source.getSpecialization(args);
    if (!specialization)
      return specialization.takeError();
    llvm::Expected<LoadedKernel> loaded =
        loadKernel(source, *state.device, *specialization, compileOptions,
                   args.size(), &timings);
    if (!loaded)
      return loaded.takeError();
    state.blockSize = loaded->getBlockSize();
    state.compiled = std::move(loaded->compiled);
    state.module = std::move(loaded->module);
    state.function = loaded->function;
    state.jitLog = std::move(loaded->jitLog);
  } else {
    // A PTX or cubin file instead of the compiler's.
    state.blockSize =
        32 * getKernelNumWarps(source.getKernel(), compileOptions);
    Clock::time_point start = Clock::now();
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> file =
        openInputFile(options.binaryFile, &error);
    if (!file)
      return llvm::createStringError(error);
    std::string origin = " (from " + options.binaryFile + ")";
    timings.add("read the PTX", since(start), options.binaryFile);
    start = Clock::now();
    llvm::Expected<std::unique_ptr<CudaModule>> module =
        state.device->loadModule(file->getBuffer(), &state.jitLog);
    if (!module)
      return llvm::createStringError("the CUDA driver rejected the compiled @" +
                                     source.getKernelName() + origin + ": " +
                                     llvm::toString(module.takeError()));
    timings.add("JIT (cuModuleLoadDataEx)", since(start),
                llvm::formatv("the JIT's own wall time {0:f3} ms",
                              state.jitLog.wallMilliseconds)
                    .str());
    state.module = std::move(*module);
    llvm::Expected<CudaFunction> function =
        state.module->getFunction(source.getKernelName());
    if (!function)
      return llvm::createStringError(llvm::toString(function.takeError()) +
                                     origin);
    if (llvm::Error err = function->checkParameters(args.size()))
      return llvm::createStringError(llvm::toString(std::move(err)) + origin);
    state.function = *function;
  }
  if (options.warnOnSpill && state.function->localBytes > 0)
    llvm::WithColor::warning(source.getDiagnosticStream(), "tile-run")
        << describeSpill(source, state.blockSize / 32,
                         state.function->localBytes)
        << "\n";
  return llvm::Error::success();
}

void KernelRunner::diagnoseWithInterpreter(llvm::ArrayRef<int64_t> grid,
                                           llvm::ArrayRef<KernelArg> args) {
  FuncOp kernel = source.getKernel();
  {
    // Unsupported ops are no finding here: say nothing about them.
    ScopedDiagnosticHandler quiet(kernel.getContext(),
                                  [](Diagnostic &) { return success(); });
    if (failed(checkInterpretable(kernel)))
      return;
  }
  llvm::raw_ostream &os = source.getDiagnosticStream();
  llvm::WithColor::note(os, "tile-run")
      << "running @" << kernel.getSymName()
      << " on the CPU interpreter with the same arguments, to find the "
         "fault\n";
  SmallVector<KernelArg> copy(args.begin(), args.end());
  if (succeeded(interpretKernel(kernel, grid, copy)))
    llvm::WithColor::note(os, "tile-run")
        << "the CPU interpreter ran it without error\n";
}

llvm::Expected<RunResult>
KernelRunner::runOnCUDA(llvm::ArrayRef<KernelArg> args) {
  CudaState &state = *cuda;
  const CudaDeviceInfo &info = state.device->getInfo();
  if (!state.function)
    if (llvm::Error err = load(args))
      return std::move(err);
  int clusterSize = TileDialect::getClusterSize(source.getKernel());
  if (state.function->clusterSize != clusterSize)
    if (llvm::Error err = state.function->setClusterSize(clusterSize))
      return std::move(err);
  const CudaFunction &function = *state.function;

  // The grid: explicit, or persistent from the occupancy.
  RunResult result;
  result.where = info.getDescription();
  result.blockSize = state.blockSize;
  result.grid.assign(options.grid.sizes.begin(), options.grid.sizes.end());
  if (options.grid.persistent) {
    llvm::Expected<int64_t> programs = getPersistentGrid(
        *state.device, function, state.blockSize, options.grid.cap,
        &result.gridNote, options.grid.waves.value_or(1));
    if (!programs)
      return programs.takeError();
    result.grid.assign({*programs});
  }
  state.launchGrid = {1, 1, 1};
  for (auto [axis, size] : llvm::enumerate(result.grid))
    state.launchGrid[axis] = static_cast<unsigned>(size);

  // Copy in, run, copy back.
  Clock::time_point start = Clock::now();
  state.deviceArgs.reset();
  state.activeArgs = options.sharedArgs;
  if (!state.activeArgs) {
    llvm::Expected<DeviceArguments> deviceArgs =
        DeviceArguments::create(*state.device, args, options.guards);
    if (!deviceArgs)
      return deviceArgs.takeError();
    state.deviceArgs.emplace(std::move(*deviceArgs));
    state.activeArgs = &*state.deviceArgs;
    timings.add("copy to the GPU", since(start),
                formatBytes(state.deviceArgs->getBufferBytes()));
  }
  start = Clock::now();
  if (llvm::Error err =
          launchKernel(*state.device, function, state.launchGrid,
                       state.blockSize, state.activeArgs->getParams()))
    return std::move(err);
  if (llvm::Error err = state.device->synchronize()) {
    std::string message =
        "@" + source.getKernelName().str() +
        " failed on the GPU: " + llvm::toString(std::move(err));
    llvm::WithColor::error(source.getDiagnosticStream(), "tile-run")
        << message << "\n";
    diagnoseWithInterpreter(result.grid, args);
    return llvm::make_error<DiagnosedError>(message);
  }
  result.seconds = since(start);
  timings.add("run", result.seconds, "one launch, to cuCtxSynchronize");
  if (llvm::Error err = state.activeArgs->checkGuards(args)) {
    std::string message = "@" + source.getKernelName().str() + ": " +
                          llvm::toString(std::move(err));
    llvm::WithColor::error(source.getDiagnosticStream(), "tile-run")
        << message << "\n";
    diagnoseWithInterpreter(result.grid, args);
    return llvm::make_error<DiagnosedError>(message);
  }
  if (!options.copyBack || options.sharedArgs)
    return result;
  start = Clock::now();
  result.outputs.assign(args.begin(), args.end());
  if (llvm::Error err = state.deviceArgs->copyToHost(result.outputs))
    return std::move(err);
  timings.add("copy back", since(start));
  return result;
}

llvm::Expected<BenchReport>
KernelRunner::benchmark(const BenchOptions &bench,
                        std::optional<uint64_t> bytes) {
  if (options.target != Target::CUDA)
    return llvm::createStringError(
        "--bench times the kernel on a GPU (--target=cuda)");
  if (!cuda->activeArgs)
    return llvm::createStringError("--bench: the kernel has not run yet");
  Clock::time_point start = Clock::now();
  llvm::Expected<BenchResult> times =
      tile::benchmark(*cuda->device, *cuda->function, cuda->launchGrid,
                      cuda->blockSize, cuda->activeArgs->getParams(), bench);
  if (!times)
    return llvm::createStringError("--bench: " +
                                   llvm::toString(times.takeError()));
  timings.add("benchmark", since(start));
  BenchReport report;
  report.times = *times;
  report.options = bench;
  report.bytesGiven = bytes.has_value();
  report.bytes = bytes ? *bytes : cuda->activeArgs->getBufferBytes();
  report.gigabytesPerSecond = report.bytes / (times->median * 1e-3) / 1e9;
  return report;
}

void mlir::tile::printRunSummary(llvm::raw_ostream &os,
                                 llvm::StringRef kernelName,
                                 const RunResult &result, Target target) {
  os << "@" << kernelName << " ran on " << result.where << ": grid "
     << formatGrid(result.grid) << result.gridNote;
  int64_t programs = 1;
  for (int64_t size : result.grid)
    programs *= size;
  switch (target) {
  case Target::CPU:
    os << " (" << programs << (programs == 1 ? " program" : " programs")
       << ") in " << llvm::format("%.3f", result.seconds) << " s\n";
    return;
  case Target::CUDA:
    os << ", " << result.blockSize << " threads per block, in "
       << llvm::format("%.3f", result.seconds * 1e3) << " ms\n";
    return;
  }
}

void KernelRunner::printTimings(llvm::raw_ostream &os) const {
  timings.print(os);
  const CudaFunction *function = getFunction();
  if (!function)
    return;
  os << "kernel @" << function->name << ": " << function->numRegisters
     << " registers per thread, " << function->sharedBytes
     << " bytes of shared memory, " << function->localBytes
     << " bytes of local memory\n";
  if (!cuda->jitLog.info.empty())
    os << "the JIT's info log:\n" << cuda->jitLog.info << "\n";
}

llvm::Expected<std::vector<std::string>> mlir::tile::listCudaDevices() {
  llvm::Expected<int> count = getCudaDeviceCount();
  if (!count)
    return count.takeError();
  if (*count == 0)
    return llvm::createStringError("the CUDA driver found no GPU");
  std::vector<std::string> lines;
  for (int ordinal = 0; ordinal < *count; ++ordinal) {
    llvm::Expected<std::unique_ptr<CudaDevice>> device =
        CudaDevice::open(ordinal);
    if (!device)
      return device.takeError();
    lines.push_back(std::to_string(ordinal) + ": " +
                    describeCudaDevice((*device)->getInfo()));
  }
  return lines;
}

std::string mlir::tile::describeCudaDevice(const CudaDeviceInfo &info) {
  return llvm::formatv(
             "{0}, {1:f1} GiB, CUDA driver {2}.{3}", info.getDescription(),
             info.totalMemoryBytes / 1073741824.0, info.driverVersion / 1000,
             info.driverVersion % 1000 / 10)
      .str();
}
