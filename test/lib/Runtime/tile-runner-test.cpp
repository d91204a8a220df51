//===- tile-runner-test.cpp - The runtime's KernelRunner from a program ---===//
//
//   tile-runner-test run FILE [-DNAME=VALUE]... --grid X[,Y[,Z]]
//                    [--check-seconds=S] [--corrupt=ARG:ELEMENT[:DELTA]]
//                    SPEC...
//   tile-runner-test tune-check FILE [-DNAME=VALUE]... --grid 'G1;G2;...'
//                    [--corrupt=ARG:ELEMENT[:DELTA]] SPEC...
//   tile-runner-test persistent-grid SMS BLOCKS_PER_SM CAP [WAVES]
//   tile-runner-test cache-key FILE [-DNAME=VALUE]... [--chip=sm_XY] SPEC...
//   tile-runner-test space FILE [-DNAME=VALUE]...
//   tile-runner-test fit FILE [-DNAME=VALUE]... SPEC...
//   tile-runner-test tuning-store DIR FILE [-DNAME=VALUE]... --device=NAME
//                    --choice=NAME=VALUE,... --time=MS SPEC...
//   tile-runner-test tuning-lookup DIR FILE [-DNAME=VALUE]... --device=NAME
//                    [--databases] SPEC...
//   tile-runner-test spills FILE --ptxas=PATH --vary=NAME,... [-DNAME=VALUE]...
//   tile-runner-test check-database DATABASE KERNEL_FILE...
//   tile-runner-test choose FILE[,FILE...] [-DNAME=VALUE]... --grid G
//                    [--ptxas=PATH] SPEC...
//   tile-runner-test model FILE[,FILE...] [-DNAME=VALUE]... --grid G [--raw]
//                          [--memory=KHZ:BITS]
//                    SPEC...
//
// A C++ program that uses the runtime library the way tile-run does, and the
// lit tests' window on the library's CPU-side steps (test/Runtime):
//
//   run              loads the kernel (KernelSource), checks and makes the
//                    arguments, runs it on the CPU target (KernelRunner),
//                    checks the result against a second interpreter run
//                    (checkAgainstInterpreter, within S seconds; 1e-9
//                    leaves it the grid's last and first programs) and
//                    prints, per buffer, its sum and its first elements;
//                    --corrupt adds DELTA (1) to an element of the result
//                    first, for the check to find (or not, where a
//                    sampled check did not run the program that stores it).
//   tune-check       runs the kernel on the CPU target on each grid in
//                    turn, as the tuner's configurations, and checks each
//                    result as a tune does (checkTuneResult, the runs kept
//                    shared), --corrupt applied to the last; prints each
//                    outcome and how many interpreter runs are kept.
//   persistent-grid  the programs of a persistent grid (getPersistentGridSize)
//   cache-key        the specialization and the compile cache's key of a
//                    launch with these arguments (compiled for the chip,
//                    sm_90 by default, into a temporary cache).
//   space            the search space (enumerateSearchSpace), and whether
//                    each configuration's tiles fit in registers.
//   fit              the kernel a launch with these arguments runs without a
//                    tuning cache (fitToLaunch): what changed, and why.
//   tuning-store     stores a choice in the tuning cache under DIR for a
//   tuning-lookup    launch on a GPU named NAME (as the driver and as a
//                    tuning database name it), or looks one up (with
//                    --databases, in the imported and shipped tuning
//                    databases too, where the cache has none).
//   spills           for every combination of the declared values of the
//                    parameters named by --vary (the others fitted to the
//                    registers, as a launch fits them), compiles the kernel
//                    for sm_90 as an aligned launch specializes it and asks
//                    ptxas -v for its spills, compiling it again without
//                    pipelining where, pipelined, it spills (as a launch
//                    does); exit 1 if any spills.
//   model            the cost model's estimate (tile/Runtime/CostModel.h)
//                    of every configuration of each kernel file's declared
//                    space (and, on a persistent grid, of each of the
//                    tuner's waves) for the launch, for the H100 (with
//                    --memory, a GPU of 132 SMs whose memory runs at that
//                    clock over that bus: GpuModel::fromDevice), fastest
//                    first, as "KERNEL: CONFIG: ESTIMATE" (with --raw, the
//                    counts it comes from after a '|').
//   choose           the configuration a launch with no stored choice runs
//                    on a GPU (chooseByModel: here, with the H100's
//                    figures), and its estimate; with --ptxas, the choice
//                    compiled for sm_90 as an aligned launch specializes it,
//                    and ptxas -v's spills (exit 1 if it spills).
//   check-database   parses a tuning database (exit 1 if any record is
//                    ignored) and checks that each record's kernels are
//                    among the files given, by their text's digest, and
//                    that its choice names only parameters its kernel
//                    declares, each to a declared value, loading the kernel
//                    with it and the record's fixed -D (exit 1 if not).
//
// Errors are the library's messages and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "RunnerTest.h"

#include "tile/Runtime/Check.h"
#include "tile/Runtime/CostModel.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/KernelRunner.h"
#include "tile/Runtime/LaunchConfig.h"
#include "tile/Runtime/Tuner.h"
#include "tile/Runtime/TuningCache.h"
#include "tile/Runtime/TuningDatabase.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
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

int runner_test::fail(llvm::Error err) {
  int status = 1;
  llvm::handleAllErrors(
      std::move(err), [](const DiagnosedError &) {},
      [](const llvm::ErrorInfoBase &info) {
        llvm::errs() << "tile-runner-test: " << info.message() << "\n";
      });
  return status;
}

static Command parseCommand(int argc, char **argv) {
  Command command;
  command.file = argv[2];
  for (int i = 3; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "-D" && i + 1 < argc)
      command.sourceOptions.defines.push_back(argv[++i]);
    else if (arg.consume_front("-D"))
      command.sourceOptions.defines.push_back(arg.str());
    else if (arg == "--grid" && i + 1 < argc)
      command.grid = argv[++i];
    else if (arg.consume_front("--chip="))
      command.chip = arg.str();
    else if (arg.consume_front("--device="))
      command.device = arg.str();
    else if (arg.consume_front("--choice="))
      command.choice = arg.str();
    else if (arg.consume_front("--time="))
      command.time = arg.str();
    else if (arg.consume_front("--waves="))
      command.waves = arg.str();
    else if (arg.consume_front("--ptxas="))
      command.ptxas = arg.str();
    else if (arg.consume_front("--vary="))
      command.vary = arg.str();
    else if (arg == "--databases")
      command.databases = true;
    else if (arg == "--raw")
      command.raw = true;
    else if (arg.consume_front("--check-seconds="))
      command.checkSeconds = arg.str();
    else if (arg.consume_front("--memory="))
      command.memory = arg.str();
    else if (arg.consume_front("--corrupt="))
      command.corrupt = arg.str();
    else
      command.specs.push_back(arg.str());
  }
  return command;
}

/// Loads the kernel and makes its arguments from the specs.
llvm::Expected<std::unique_ptr<KernelSource>>
runner_test::load(const Command &command, SmallVector<ArgSpec> &specs,
                  SmallVector<KernelArg> &args) {
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      KernelSource::loadFile(command.file, command.sourceOptions);
  if (!source)
    return source.takeError();
  if (llvm::Error err = (*source)->checkArgumentCount(command.specs.size()))
    return std::move(err);
  for (auto [index, text] : llvm::enumerate(command.specs)) {
    llvm::Expected<ArgSpec> spec = parseArgSpec(text);
    if (!spec)
      return spec.takeError();
    if (llvm::Error err = (*source)->checkArgSpec(index, *spec))
      return std::move(err);
    llvm::Expected<KernelArg> arg = createKernelArg(*spec);
    if (!arg)
      return arg.takeError();
    specs.push_back(*spec);
    args.push_back(std::move(*arg));
  }
  return source;
}

/// Adds DELTA to an element of an f32 buffer of `outputs`, as --corrupt
/// says ("ARG:ELEMENT[:DELTA]").
static llvm::Error corrupt(llvm::StringRef spec,
                           llvm::MutableArrayRef<KernelArg> outputs) {
  auto [argText, rest] = spec.split(':');
  auto [elementText, deltaText] = rest.split(':');
  unsigned index;
  int64_t element;
  double delta = 1;
  if (argText.getAsInteger(10, index) ||
      elementText.getAsInteger(10, element) ||
      (!deltaText.empty() && !llvm::to_float(deltaText, delta)) ||
      index >= outputs.size() || !outputs[index].isBuffer() || element < 0 ||
      element >= outputs[index].getBuffer().getNumElements() ||
      outputs[index].getBuffer().getDataType() != DataType::F32)
    return llvm::createStringError(
        "--corrupt takes ARG:ELEMENT[:DELTA] of an f32 buffer");
  outputs[index].getBuffer().getDataAs<float>()[element] += delta;
  return llvm::Error::success();
}

/// `source` run on the CPU interpreter on the grid `gridText` (as --grid).
static llvm::Expected<RunResult> runOnCPU(KernelSource &source,
                                          llvm::StringRef gridText,
                                          llvm::ArrayRef<KernelArg> args) {
  RunOptions options;
  options.target = Target::CPU;
  llvm::Expected<GridSpec> grid = GridSpec::parse(gridText);
  if (!grid)
    return grid.takeError();
  options.grid = *grid;
  llvm::Expected<std::unique_ptr<KernelRunner>> runner =
      KernelRunner::create(source, options);
  if (!runner)
    return runner.takeError();
  return (*runner)->run(args);
}

static int run(const Command &command) {
  SmallVector<ArgSpec> specs;
  SmallVector<KernelArg> args;
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      load(command, specs, args);
  if (!source)
    return fail(source.takeError());
  llvm::Expected<RunResult> result = runOnCPU(**source, command.grid, args);
  if (!result)
    return fail(result.takeError());
  llvm::outs() << "@" << (*source)->getKernelName() << " on " << result->where
               << ", grid " << formatGrid(result->grid) << "\n";
  CheckOptions checkOptions;
  if (!command.checkSeconds.empty() &&
      !llvm::to_float(command.checkSeconds, checkOptions.seconds))
    return fail(llvm::createStringError("bad --check-seconds"));
  if (!command.corrupt.empty())
    if (llvm::Error err = corrupt(command.corrupt, result->outputs))
      return fail(std::move(err));
  llvm::Expected<CheckReport> check = checkAgainstInterpreter(
      **source, result->grid, args, result->outputs, checkOptions);
  if (!check)
    return fail(check.takeError());
  check->print(llvm::outs());
  for (auto [index, arg] : llvm::enumerate(result->outputs)) {
    if (!arg.isBuffer())
      continue;
    const HostBuffer &buffer = arg.getBuffer();
    double sum = 0;
    llvm::outs() << "argument " << index << " (" << buffer.getDescription()
                 << "):";
    for (int64_t i = 0, e = buffer.getNumElements(); i < e; ++i) {
      double value = buffer.getElementAsDouble(i);
      sum += value;
      if (i < 4)
        llvm::outs() << " " << llvm::format("%.6g", value);
    }
    llvm::outs() << llvm::format(" ... sum %.6g\n", sum);
  }
  return check->passed() ? 0 : 1;
}

static int tuneCheck(const Command &command) {
  SmallVector<ArgSpec> specs;
  SmallVector<KernelArg> args;
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      load(command, specs, args);
  if (!source)
    return fail(source.takeError());
  SmallVector<llvm::StringRef> grids;
  llvm::StringRef(command.grid).split(grids, ';');
  TuneOptions tuneOptions;
  ReferenceCache references;
  for (auto [index, gridText] : llvm::enumerate(grids)) {
    llvm::Expected<RunResult> result = runOnCPU(**source, gridText, args);
    if (!result)
      return fail(result.takeError());
    if (index + 1 == grids.size() && !command.corrupt.empty())
      if (llvm::Error err = corrupt(command.corrupt, result->outputs))
        return fail(std::move(err));
    TuneEntry entry;
    checkTuneResult(**source, *result, args, tuneOptions, "", references,
                    entry);
    llvm::outs() << "grid " << formatGrid(result->grid) << ": "
                 << (entry.checked ? "checked" : "not checked: " + entry.reason)
                 << " (" << references.size() << " interpreter runs kept)\n";
  }
  return 0;
}

static int cacheKey(const Command &command) {
  SmallVector<ArgSpec> specs;
  SmallVector<KernelArg> args;
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      load(command, specs, args);
  if (!source)
    return fail(source.takeError());
  llvm::SmallString<128> cacheDir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("tile-cache", cacheDir))
    return fail(llvm::createStringError(ec.message()));
  CompileOptions options;
  options.chip = command.chip;
  options.cacheDir = cacheDir.str().str();
  llvm::Expected<KernelSpecialization> specialization =
      (*source)->getSpecialization(args);
  if (!specialization)
    return fail(specialization.takeError());
  llvm::Expected<CompiledKernel> compiled =
      (*source)->compile(*specialization, options);
  (void)llvm::sys::fs::remove_directories(cacheDir);
  if (!compiled)
    return fail(compiled.takeError());
  llvm::outs() << "specialization {" << specialization->str() << "} key "
               << compiled->cacheKey << "\n";
  return 0;
}

static int space(const Command &command) {
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      KernelSource::loadFile(command.file, command.sourceOptions);
  if (!source)
    return fail(source.takeError());
  for (const TuneConfig &config :
       enumerateSearchSpace((*source)->getParams())) {
    KernelSource::Options options = command.sourceOptions;
    llvm::append_range(options.defines, config.defines);
    llvm::Expected<std::unique_ptr<KernelSource>> loaded =
        KernelSource::loadFile(command.file, options);
    if (!loaded)
      return fail(loaded.takeError());
    std::string noRoom = checkRegisterRoom(**loaded, CompileOptions());
    llvm::outs() << config.str() << ": "
                 << (noRoom.empty() ? "fits" : "no room, " + noRoom) << "\n";
  }
  return 0;
}

static int fit(const Command &command) {
  SmallVector<ArgSpec> specs;
  SmallVector<KernelArg> args;
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      load(command, specs, args);
  if (!source)
    return fail(source.takeError());
  TuneOptions options;
  options.source = command.sourceOptions;
  std::string note;
  std::unique_ptr<KernelSource> fitted =
      fitToLaunch(std::move(*source), args, options, /*registers=*/true, note);
  llvm::outs() << (note.empty() ? "the defaults fit" : note) << "\n";
  for (const KernelParam &param : fitted->getParams())
    llvm::outs() << param.name << " = " << param.value << "\n";
  return 0;
}

/// The tuning key of a launch on a GPU named `command.device`.
static llvm::Expected<TuningKey> makeKey(const Command &command,
                                         const KernelSource &source,
                                         llvm::ArrayRef<KernelArg> args) {
  TuningKey result;
  result.fileTexts.push_back(source.getText().str());
  result.kernelNames.push_back(source.getKernelName().str());
  result.fixedDefines = getFixedDefines(source.getParams());
  result.device = command.device;
  result.gpu = command.device;
  result.fileNames.push_back(
      llvm::sys::path::filename(source.getFileName()).str());
  for (const KernelArg &arg : args)
    result.buckets.push_back(getShapeBucket(arg));
  return result;
}

static int tuningCache(const Command &command, llvm::StringRef dir,
                       bool store) {
  SmallVector<ArgSpec> specs;
  SmallVector<KernelArg> args;
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      load(command, specs, args);
  if (!source)
    return fail(source.takeError());
  llvm::Expected<TuningKey> key = makeKey(command, **source, args);
  if (!key)
    return fail(key.takeError());
  llvm::outs() << "shapes " << llvm::join(key->buckets, " ") << "\n";
  if (store) {
    TuneEntry best;
    llvm::SmallVector<llvm::StringRef> defines;
    llvm::StringRef(command.choice).split(defines, ',', -1, false);
    for (llvm::StringRef define : defines)
      best.config.defines.push_back(define.str());
    llvm::StringRef(command.time).getAsDouble(best.milliseconds);
    if (!command.waves.empty()) {
      llvm::Expected<int64_t> waves = GridSpec::parseWaves(command.waves);
      if (!waves)
        return fail(waves.takeError());
      best.config.waves = *waves;
    }
    if (llvm::Error err = storeTuning(dir, *key, best))
      return fail(std::move(err));
    llvm::outs() << "stored "
                 << llvm::sys::path::filename(getTuningCachePath(dir, *key))
                 << "\n";
    return 0;
  }
  const KernelSource *variants[] = {source->get()};
  TuningStores stores;
  stores.databases = command.databases;
  std::optional<StoredChoice> stored =
      lookupStoredChoice(dir, *key, variants, stores, llvm::errs());
  if (!stored) {
    llvm::outs() << "no choice\n";
    return 0;
  }
  const TuningChoice &choice = stored->choice;
  llvm::outs() << "choice " << TuneConfig{choice.defines, choice.waves}.str()
               << llvm::format(" (%.4f ms for ", choice.milliseconds)
               << choice.tunedOn << ") from " << stored->source << "\n";
  return 0;
}

static int checkDatabase(llvm::StringRef path,
                         llvm::ArrayRef<const char *> files) {
  std::vector<std::string> ignored;
  llvm::Expected<TuningDatabase> database = TuningDatabase::read(path, ignored);
  if (!database)
    return fail(database.takeError());
  int status = 0;
  for (const std::string &why : ignored) {
    llvm::outs() << "ignored: " << why << "\n";
    status = 1;
  }
  llvm::StringMap<std::string> byDigest;
  for (const char *file : files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(file);
    if (!text)
      return fail(llvm::createStringError(file + llvm::Twine(": ") +
                                          text.getError().message()));
    byDigest[getTextDigest((*text)->getBuffer())] = file;
  }
  for (const TuningRecord &record : database->getRecords()) {
    std::string label = record.getDigest().substr(0, 12) + " (@" +
                        llvm::join(record.kernelNames, ", @") + " " +
                        llvm::join(record.buckets, " ") + ")";
    unsigned variant = record.choice.variant;
    auto file = byDigest.find(record.textDigests[variant]);
    if (file == byDigest.end()) {
      llvm::outs() << label << ": no kernel file given has its text (stale)\n";
      status = 1;
      continue;
    }
    KernelSource::Options options;
    options.kernelName = record.kernelNames[variant];
    options.defines = record.fixedDefines;
    llvm::append_range(options.defines, record.choice.defines);
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    options.diagnostics = &errorStream;
    llvm::Expected<std::unique_ptr<KernelSource>> source =
        KernelSource::loadFile(file->second, options);
    if (!source) {
      llvm::consumeError(source.takeError());
      llvm::outs() << label << ": " << file->second
                   << " does not load with its choice: " << errors << "\n";
      status = 1;
      continue;
    }
    for (llvm::StringRef define : record.choice.defines) {
      auto [name, value] = define.split('=');
      const KernelParam *param = findParam((*source)->getParams(), name);
      if (!param || param->values.empty() ||
          !llvm::is_contained(param->values, value)) {
        llvm::outs() << label << ": " << define << " is not a declared value\n";
        status = 1;
      }
    }
  }
  llvm::outs() << database->getRecords().size() << " records checked\n";
  return status;
}

int main(int argc, char **argv) {
  llvm::StringRef mode = argc > 1 ? argv[1] : "";
  if (mode == "persistent-grid" && (argc == 5 || argc == 6)) {
    int64_t waves = 1;
    if (argc == 6) {
      llvm::Expected<int64_t> parsed = GridSpec::parseWaves(argv[5]);
      if (!parsed)
        return fail(parsed.takeError());
      waves = *parsed;
    }
    llvm::Expected<int64_t> programs = getPersistentGridSize(
        std::atoi(argv[2]), std::atoi(argv[3]), std::atoll(argv[4]), waves);
    if (!programs)
      return fail(programs.takeError());
    llvm::outs() << *programs << "\n";
    return 0;
  }
  if ((mode == "rank-finalists" || mode == "check-front") && argc > 2) {
    // Each argument MS[:ROUNDS[:CHECK]] is a timed entry (ROUNDS: its
    // finalist rounds; CHECK, for check-front, what its check finds: `ok`,
    // `wrong`, `checked` where the search checked it already, or `unkept`
    // where it cannot be checked). rank-finalists prints the entries in the
    // tuner's order, by their index; check-front prints the entry left in
    // front (checkFront) and each entry's outcome.
    TuneReport report;
    llvm::StringMap<std::string> checks;
    for (int i = 2; i < argc; ++i) {
      llvm::SmallVector<llvm::StringRef, 3> parts;
      llvm::StringRef(argv[i]).split(parts, ':');
      TuneEntry entry;
      entry.outcome = TuneEntry::Outcome::Timed;
      entry.config.defines = {std::to_string(i - 2)};
      llvm::StringRef check = parts.size() > 2 ? parts[2] : "ok";
      if (parts.size() > 3 || parts[0].getAsDouble(entry.milliseconds) ||
          (parts.size() > 1 && !parts[1].empty() &&
           parts[1].getAsInteger(10, entry.confirmedRounds)) ||
          !llvm::is_contained({"ok", "wrong", "checked", "unkept"}, check))
        return fail(llvm::createStringError("bad entry '%s'", argv[i]));
      entry.checked = check == "checked";
      checks[entry.config.defines.front()] = check.str();
      report.entries.push_back(entry);
    }
    if (mode == "rank-finalists") {
      sortFinalistsFirst(report);
      for (const TuneEntry &entry : report.entries)
        llvm::outs() << entry.config.defines.front() << " ";
      llvm::outs() << "\n";
      return 0;
    }
    if (llvm::Error err =
            checkFront(report, [&](TuneEntry &entry) -> llvm::Expected<bool> {
              llvm::StringRef check = checks[entry.config.defines.front()];
              llvm::outs() << "check " << entry.config.defines.front() << "\n";
              if (check == "unkept")
                return false;
              if (check == "wrong")
                entry.outcome = TuneEntry::Outcome::Wrong;
              else
                entry.checked = true;
              return true;
            }))
      return fail(std::move(err));
    for (const TuneEntry &entry : report.entries)
      llvm::outs() << entry.config.defines.front() << " "
                   << getOutcomeName(entry.outcome)
                   << (entry.checked ? " checked" : "") << "\n";
    return 0;
  }
  if (mode == "finalist-repetitions" && argc == 4) {
    llvm::outs() << getFinalistRepetitions(std::atof(argv[2]),
                                           std::atoi(argv[3]))
                 << "\n";
    return 0;
  }
  if ((mode == "run" || mode == "cache-key" || mode == "space" ||
       mode == "fit" || mode == "spills" || mode == "model" ||
       mode == "choose" || mode == "tune-check") &&
      argc > 2) {
    Command command = parseCommand(argc, argv);
    if (mode == "tune-check")
      return tuneCheck(command);
    if (mode == "space")
      return space(command);
    if (mode == "fit")
      return fit(command);
    if (mode == "spills")
      return checkSpills(command);
    if (mode == "model")
      return model(command);
    if (mode == "choose")
      return choose(command);
    return mode == "run" ? run(command) : cacheKey(command);
  }
  if (mode == "check-database" && argc > 2)
    return checkDatabase(argv[2], llvm::ArrayRef(argv + 3, argc - 3));
  if ((mode == "tuning-store" || mode == "tuning-lookup") && argc > 3) {
    Command command = parseCommand(argc - 1, argv + 1);
    return tuningCache(command, argv[2], mode == "tuning-store");
  }
  llvm::errs()
      << "usage: tile-runner-test run FILE [-DNAME=VALUE]... --grid "
         "G SPEC...\n"
         "       tile-runner-test persistent-grid SMS "
         "BLOCKS_PER_SM CAP\n"
         "       tile-runner-test finalist-repetitions MILLISECONDS "
         "REPETITIONS\n"
         "       tile-runner-test cache-key FILE [-DNAME=VALUE]... "
         "[--chip=sm_XY] SPEC...\n"
         "       tile-runner-test space|fit FILE [-DNAME=VALUE]... "
         "[SPEC...]\n"
         "       tile-runner-test tuning-store|tuning-lookup DIR FILE "
         "--device=NAME [--choice=D,... --time=MS [--waves=W]] SPEC...\n"
         "       tile-runner-test spills FILE --ptxas=PATH "
         "--vary=NAME,...\n"
         "       tile-runner-test check-database DATABASE KERNEL_FILE...\n";
  return 1;
}
