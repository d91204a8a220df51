//===- RunnerTestModel.cpp - tile-runner-test's model and spill modes -----===//
//
// tile-runner-test model, choose and spills (tile-runner-test.cpp's header
// says what each prints): the cost model's estimates of a launch's
// configurations, the configuration a launch with no stored choice runs,
// and which configurations ptxas says spill.
//
//===----------------------------------------------------------------------===//

#include "RunnerTest.h"

#include "tile/Runtime/CostModel.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/LaunchConfig.h"
#include "tile/Runtime/Tuner.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::runner_test;

int runner_test::model(const Command &command) {
  SmallVector<llvm::StringRef> files;
  llvm::StringRef(command.file).split(files, ',');
  struct Row {
    LaunchEstimate rank;
    std::string label, estimate;
  };
  std::vector<Row> rows;
  GpuModel gpu = GpuModel::h100();
  if (!command.memory.empty()) {
    CudaDeviceInfo info;
    info.multiprocessorCount = gpu.multiprocessors;
    auto [clock, width] = llvm::StringRef(command.memory).split(':');
    if (!llvm::to_integer(clock, info.memoryClockKHz) ||
        !llvm::to_integer(width, info.memoryBusWidthBits))
      return fail(llvm::createStringError("--memory is KHZ:BITS, not '" +
                                          command.memory + "'"));
    gpu = GpuModel::fromDevice(info);
    llvm::outs() << llvm::formatv("gpu: {0:e} bytes/s, {1:f0} bytes in "
                                  "flight per SM\n",
                                  gpu.bandwidth, gpu.bytesInFlightPerSM);
  }
  for (llvm::StringRef file : files) {
    Command one = command;
    one.file = file.str();
    SmallVector<ArgSpec> specs;
    SmallVector<KernelArg> args;
    llvm::Expected<std::unique_ptr<KernelSource>> base = load(one, specs, args);
    if (!base)
      return fail(base.takeError());
    llvm::Expected<GridSpec> grid = GridSpec::parse(command.grid);
    if (!grid)
      return fail(grid.takeError());
    std::vector<std::optional<int64_t>> waves = {std::nullopt};
    if (grid->persistent)
      waves.assign(std::begin(kTunedWaves), std::end(kTunedWaves));
    for (const TuneConfig &config :
         enumerateSearchSpace((*base)->getParams())) {
      KernelSource::Options options = one.sourceOptions;
      llvm::append_range(options.defines, config.defines);
      std::string errors;
      llvm::raw_string_ostream errorStream(errors);
      options.diagnostics = &errorStream;
      llvm::Expected<std::unique_ptr<KernelSource>> source =
          KernelSource::loadFile(file, options);
      if (!source) {
        llvm::consumeError(source.takeError());
        continue;
      }
      if (!fitsLaunch(**source, args, /*registers=*/false, CompileOptions()))
        continue;
      for (std::optional<int64_t> wave : waves) {
        GridSpec launch = *grid;
        launch.waves = wave;
        if (wave && *wave == GridSpec::kAllWaves && launch.cap == 0)
          continue;
        llvm::Expected<LaunchEstimate> estimate =
            estimateLaunch(**source, args, launch, gpu, 4);
        if (!estimate) {
          llvm::consumeError(estimate.takeError());
          continue;
        }
        TuneConfig labelled = config;
        labelled.waves = wave;
        std::string text = estimate->str();
        if (command.raw) {
          const ProgramCost &p = estimate->program;
          text += llvm::formatv(
              " | bytes {0} inflight {1} elements {2} flops {3} steps {4} "
              "programs {5} blocks {6} threads {7} regs {8} exact {9} "
              "pipelined {10} cluster {11} reductions {12} active {13}",
              p.bytesLoaded + p.bytesStored, p.bytesInFlight, p.tileElements,
              p.dotFlops, p.steps, estimate->programs, estimate->blocksPerSM,
              estimate->threads, estimate->registers, p.exact ? 1 : 0,
              estimate->pipelined ? 1 : 0,
              TileDialect::getClusterSize((*source)->getKernel()),
              p.clusterReductions, estimate->activePrograms);
        }
        rows.push_back(
            {*estimate,
             llvm::sys::path::stem(file).str() + ": " + labelled.str(), text});
      }
    }
  }
  // In the order the tuner times them (isRankedBefore).
  llvm::stable_sort(rows, [](const Row &a, const Row &b) {
    return isRankedBefore(a.rank, b.rank);
  });
  for (const Row &row : rows)
    llvm::outs() << row.label << ": " << row.estimate << "\n";
  return 0;
}

static llvm::Expected<std::pair<int, int>>
compileForSpills(const KernelSource &source, llvm::StringRef ptxas,
                 std::string &note);

int runner_test::choose(const Command &command) {
  SmallVector<llvm::StringRef> files;
  llvm::StringRef(command.file).split(files, ',');
  std::vector<std::unique_ptr<KernelSource>> sources;
  SmallVector<const KernelSource *> variants;
  SmallVector<ArgSpec> specs;
  SmallVector<KernelArg> args;
  for (llvm::StringRef file : files) {
    Command one = command;
    one.file = file.str();
    specs.clear();
    args.clear();
    llvm::Expected<std::unique_ptr<KernelSource>> source =
        load(one, specs, args);
    if (!source)
      return fail(source.takeError());
    variants.push_back(source->get());
    sources.push_back(std::move(*source));
  }
  llvm::Expected<GridSpec> grid = GridSpec::parse(command.grid);
  if (!grid)
    return fail(grid.takeError());
  TuneOptions options;
  options.source = command.sourceOptions;
  options.run.target = Target::CUDA;
  options.run.device = 1 << 20; // no such GPU: the H100's figures
  std::optional<ModelChoice> choice =
      chooseByModel(variants, args, options, *grid);
  std::unique_ptr<KernelSource> fitted;
  if (!choice) {
    // What the launch runs instead: the first variant's defaults, fitted.
    llvm::outs() << "no choice of the model: the defaults fitted to the "
                    "launch run\n";
    if (command.ptxas.empty())
      return 0;
    std::string note;
    fitted = fitToLaunch(std::move(sources.front()), args, options,
                         /*registers=*/true, note);
  }
  if (choice)
    llvm::outs() << llvm::sys::path::stem(
                        variants[choice->variant]->getFileName())
                 << ": " << choice->config.str() << ": "
                 << choice->estimate.str() << "\n";
  if (command.ptxas.empty())
    return 0;
  // What the launch runs, compiled as it would be; exit 1 if it spills.
  if (choice) {
    KernelSource::Options chosenOptions = command.sourceOptions;
    llvm::append_range(chosenOptions.defines, choice->config.defines);
    llvm::Expected<std::unique_ptr<KernelSource>> chosen =
        KernelSource::loadFile(variants[choice->variant]->getFileName(),
                               chosenOptions);
    if (!chosen)
      return fail(chosen.takeError());
    fitted = std::move(*chosen);
  }
  std::string unpipelined;
  llvm::Expected<std::pair<int, int>> result =
      compileForSpills(*fitted, command.ptxas, unpipelined);
  if (!result)
    return fail(result.takeError());
  llvm::outs() << "compiled: " << result->first << " bytes spill stores, "
               << result->second << " registers" << unpipelined << "\n";
  return result->first > 0 ? 1 : 0;
}

/// Every combination of the declared values of `names` in `params`.
static std::vector<std::vector<std::string>>
combine(llvm::ArrayRef<KernelParam> params,
        llvm::ArrayRef<llvm::StringRef> names) {
  std::vector<std::vector<std::string>> combinations(1);
  for (llvm::StringRef name : names) {
    const KernelParam *param = findParam(params, name);
    if (!param || param->values.empty())
      return {};
    std::vector<std::vector<std::string>> next;
    for (const std::vector<std::string> &combination : combinations)
      for (const std::string &value : param->values) {
        next.push_back(combination);
        next.back().push_back(param->name + "=" + value);
      }
    combinations = std::move(next);
  }
  return combinations;
}

/// ptxas -v's spill stores for `ptx`, and its registers.
static llvm::Expected<std::pair<int, int>> askPtxas(llvm::StringRef ptxas,
                                                    llvm::StringRef ptx) {
  llvm::SmallString<128> input, output, log;
  for (auto [path, suffix] :
       {std::pair(&input, "ptx"), std::pair(&output, "cubin"),
        std::pair(&log, "log")})
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("tile-spills", suffix, *path))
      return llvm::createStringError(ec.message());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    if (ec)
      return llvm::createStringError(ec.message());
    os << ptx;
  }
  std::string error;
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                log.str()};
  int status = llvm::sys::ExecuteAndWait(
      ptxas, {ptxas, "-v", "-arch=sm_90", input, "-o", output}, std::nullopt,
      redirects, 0, 0, &error);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(log);
  for (llvm::StringRef path : {input.str(), output.str(), log.str()})
    (void)llvm::sys::fs::remove(path);
  if (status != 0 || !text)
    return llvm::createStringError("ptxas failed: " + error +
                                   (text ? (*text)->getBuffer().str() : ""));
  llvm::SmallVector<llvm::StringRef> spills, registers;
  llvm::StringRef log_ = (*text)->getBuffer();
  if (!llvm::Regex("([0-9]+) bytes spill stores").match(log_, &spills) ||
      !llvm::Regex("Used ([0-9]+) registers").match(log_, &registers))
    return llvm::createStringError("ptxas -v said: " + log_);
  return std::pair(std::atoi(spills[1].str().c_str()),
                   std::atoi(registers[1].str().c_str()));
}

/// Compiles `source` for sm_90 as an aligned launch specializes it (every
/// pointer and integer argument a multiple of 16; no promise for floats,
/// which divisibility does not apply to) and asks ptxas -v for its spill
/// stores and registers; as a launch does, a pipelined kernel that spills is
/// compiled again without pipelining (`note` then says so).
static llvm::Expected<std::pair<int, int>>
compileForSpills(const KernelSource &source, llvm::StringRef ptxas,
                 std::string &note) {
  KernelSpecialization specialization;
  for (Type type : source.getKernel().getArgumentTypes())
    specialization.divisibility.push_back(isa<FloatType>(type) ? 0 : 16);
  CompileOptions compile;
  compile.chip = "sm_90";
  llvm::Expected<CompiledKernel> compiled =
      source.compile(specialization, compile);
  if (!compiled)
    return compiled.takeError();
  llvm::Expected<std::pair<int, int>> result =
      askPtxas(ptxas, compiled->binary);
  if (!result || result->first == 0 || !requestsPipelining(source.getKernel()))
    return result;
  compile.pipelineLoops = false;
  llvm::Expected<CompiledKernel> unpipelined =
      source.compile(specialization, compile);
  llvm::Expected<std::pair<int, int>> again =
      unpipelined ? askPtxas(ptxas, unpipelined->binary)
                  : unpipelined.takeError();
  if (!again)
    return again.takeError();
  if (again->first >= result->first)
    return result;
  note = " (unpipelined: pipelined, " + std::to_string(result->first) +
         " bytes spilled)";
  return again;
}

int runner_test::checkSpills(const Command &command) {
  llvm::Expected<std::unique_ptr<KernelSource>> base =
      KernelSource::loadFile(command.file, command.sourceOptions);
  if (!base)
    return fail(base.takeError());
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(command.vary).split(names, ',', -1, false);
  std::vector<std::vector<std::string>> combinations =
      combine((*base)->getParams(), names);
  if (combinations.empty())
    return fail(llvm::createStringError(
        "--vary names a parameter without declared values"));
  // One line per combination, made on every core.
  std::vector<std::string> lines(combinations.size());
  std::vector<int> spills(combinations.size(), 0);
  std::vector<std::string> errors(combinations.size());
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
  for (size_t index = 0; index < combinations.size(); ++index)
    pool.async([&, index] {
      const std::vector<std::string> &combination = combinations[index];
      TuneOptions options;
      options.source = command.sourceOptions;
      llvm::append_range(options.source.defines, combination);
      std::string log;
      llvm::raw_string_ostream logStream(log);
      options.source.diagnostics = &logStream;
      llvm::Expected<std::unique_ptr<KernelSource>> source =
          KernelSource::loadFile(command.file, options.source);
      if (!source) {
        errors[index] = llvm::toString(source.takeError()) + "\n" + log;
        return;
      }
      std::string note;
      std::unique_ptr<KernelSource> fitted = fitToLaunch(
          std::move(*source), {}, options, /*registers=*/true, note);
      std::string configuration = llvm::join(combination, " ");
      if (!note.empty())
        configuration +=
            " (" + note.substr(note.rfind(": running with ") + 15) + ")";
      if (!checkRegisterRoom(*fitted, CompileOptions()).empty()) {
        lines[index] = configuration + ": no configuration fits";
        return;
      }
      std::string unpipelined;
      llvm::Expected<std::pair<int, int>> result =
          compileForSpills(*fitted, command.ptxas, unpipelined);
      if (!result) {
        errors[index] = llvm::toString(result.takeError()) + "\n" + log;
        return;
      }
      configuration += unpipelined;
      spills[index] = result->first;
      lines[index] = configuration + ": " + std::to_string(result->first) +
                     " bytes spill stores, " + std::to_string(result->second) +
                     " registers";
    });
  pool.wait();
  unsigned spilled = 0;
  for (size_t index = 0; index < combinations.size(); ++index) {
    if (!errors[index].empty())
      return fail(llvm::createStringError(llvm::join(combinations[index], " ") +
                                          ": " + errors[index]));
    llvm::outs() << lines[index] << "\n";
    spilled += spills[index] > 0;
  }
  llvm::outs() << spilled << " of " << combinations.size()
               << " configurations spill\n";
  return spilled ? 1 : 0;
}
