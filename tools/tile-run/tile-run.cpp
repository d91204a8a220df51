//===- tile-run.cpp - Run a tile kernel -----------------------------------===//
//
// (usage: tile-run --help)
//
// Option parsing and printing over the runtime library's KernelRunner
// (tile/Runtime/KernelRunner.h), which does every step of a launch: the
// kernel file (preprocessed, parsed, the kernel chosen), the arguments
// (tile/HostData/ArgSpec.h), compiling with the cache, JIT-loading, the
// grid, the run on the CPU interpreter or a GPU, the check against the
// interpreter and the benchmark. Every error is a message and exit 1.
//
//===----------------------------------------------------------------------===//

#include "tile/HostData/ArgSpec.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Preprocessor/Preprocessor.h"
#include "tile/Runtime/Check.h"
#include "tile/Runtime/KernelRunner.h"
#include "tile/Runtime/LaunchConfig.h"
#include "tile/Runtime/Tuner.h"
#include "tile/Runtime/TuningDatabase.h"
#include "tile/Support/Text.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

namespace {
enum class Emit { None, PTX, Cubin };
} // namespace

namespace cl = llvm::cl;

static cl::OptionCategory runCategory("tile-run options");
static cl::OptionCategory cudaCategory("tile-run options for CUDA");
static cl::list<std::string> inputFilenames(cl::Positional,
                                            cl::desc("<kernel file>..."),
                                            cl::cat(runCategory));
static cl::opt<std::string> kernelName(
    "kernel", cl::desc("The kernel to run (default: the only one in the file)"),
    cl::value_desc("NAME"), cl::cat(runCategory));
static cl::list<std::string>
    defines("D", cl::desc("Set a meta-parameter the kernel declares"),
            cl::value_desc("NAME=VALUE"), cl::Prefix, cl::cat(runCategory));
static cl::opt<Target>
    target("target",
           cl::desc("Where the kernel runs (default: $TILE_TARGET, else cuda "
                    "where a GPU answers, else cpu)"),
           cl::values(clEnumValN(Target::CPU, "cpu", "the CPU interpreter"),
                      clEnumValN(Target::CUDA, "cuda",
                                 "an NVIDIA GPU, through the CUDA driver")),
           cl::cat(runCategory));
static cl::opt<std::string> gridOption(
    "grid",
    cl::desc("The launch grid: programs along x, y and z, each a number "
             "or an expression of the kernel's integer meta-parameters and "
             "arguments ('cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)'); on a GPU "
             "also 'persistent' (SMs x the blocks per SM that fit) or "
             "'persistent:N' (that, at most N)"),
    cl::value_desc("X[,Y[,Z]]|persistent[:N]"), cl::cat(runCategory));
static cl::opt<std::string> wavesOption(
    "waves",
    cl::desc("A persistent grid launches this many programs per one that "
             "fits at once, or with 'all' N (one per item); default 1, or "
             "the tuned choice"),
    cl::value_desc("W|all"), cl::cat(runCategory));
static cl::list<std::string> argOptions(
    "arg",
    cl::desc("One kernel argument, given once per parameter in order: "
             "TYPE[SHAPE]=randn:SEED | uniform:SEED | zeros | "
             "fill:VALUE | @FILE.npy for a pointer, TYPE=VALUE for a "
             "scalar (f32[1823x781]=randn:0, i32=781)"),
    cl::value_desc("SPEC"), cl::cat(runCategory));
static cl::list<std::string>
    outOptions("out",
               cl::desc("Write the buffer of parameter INDEX to a .npy file"),
               cl::value_desc("INDEX=FILE.npy"), cl::cat(runCategory));
static cl::opt<bool>
    listDevices("list-devices",
                cl::desc("List the GPUs the CUDA driver sees, and exit"),
                cl::cat(cudaCategory));
static cl::opt<int> deviceOption("device", cl::desc("The GPU to run on"),
                                 cl::value_desc("N"), cl::init(0),
                                 cl::cat(cudaCategory));
static cl::opt<unsigned>
    numWarpsOption("num-warps",
                   cl::desc("Warps per block, where the kernel names none"),
                   cl::value_desc("N"), cl::init(4), cl::cat(cudaCategory));
static cl::opt<std::string>
    chipOption("chip",
               cl::desc("The GPU to compile for (default: the GPU's own)"),
               cl::value_desc("sm_XY"), cl::cat(cudaCategory));
static cl::opt<bool> tmaOption(
    "tma",
    cl::desc("On sm_90a, copy the tiles of descriptor loads that feed a dot "
             "with TMA, and of loads of dot operands proven to be boxes (the "
             "launch makes the tensor maps; one that cannot runs the kernel "
             "compiled without TMA, where the kernel made no descriptor); "
             "on by default, --tma=false copies them with cp.async"),
    cl::init(true), cl::cat(cudaCategory));
static cl::opt<bool>
    checkOption("check",
                cl::desc("Compare every buffer with the CPU interpreter's"),
                cl::cat(cudaCategory));
static cl::opt<double>
    rtolOption("rtol",
               cl::desc("--check's relative tolerance (default: by type)"),
               cl::cat(cudaCategory));
static cl::opt<double>
    atolOption("atol",
               cl::desc("--check's absolute tolerance (default: by type)"),
               cl::cat(cudaCategory));
static cl::opt<double> checkSecondsOption(
    "check-seconds",
    cl::desc("The interpreter's time budget for --check and --tune's check: "
             "a launch it cannot run whole in it is checked on the programs "
             "it ran (0: the whole grid, however long)"),
    cl::value_desc("S"), cl::init(kDefaultCheckSeconds), cl::cat(cudaCategory));
static cl::opt<bool>
    benchOption("bench", cl::desc("Time the kernel (CUDA events, L2 flushed)"),
                cl::cat(cudaCategory));
static cl::opt<unsigned> benchReps("bench-reps",
                                   cl::desc("Timed runs of --bench"),
                                   cl::value_desc("N"), cl::init(100),
                                   cl::cat(cudaCategory));
static cl::opt<unsigned> benchWarmup("bench-warmup",
                                     cl::desc("Warm-up runs of --bench"),
                                     cl::value_desc("N"), cl::init(10),
                                     cl::cat(cudaCategory));
static cl::opt<uint64_t>
    bytesOption("bytes",
                cl::desc("The bytes one run moves, for --bench's GB/s"),
                cl::value_desc("N"), cl::cat(cudaCategory));
static cl::opt<Emit> emitOption(
    "emit", cl::desc("Write the compiled kernel instead of running it"),
    cl::values(clEnumValN(Emit::PTX, "ptx", "PTX text"),
               clEnumValN(Emit::Cubin, "cubin",
                          "a cubin, through the CUDA toolkit's ptxas")),
    cl::init(Emit::None), cl::cat(cudaCategory));
static cl::opt<std::string>
    outputFilename("o", cl::desc("Where --emit writes (default: stdout)"),
                   cl::value_desc("FILE"), cl::init("-"),
                   cl::cat(cudaCategory));
static cl::opt<std::string> cudaPath(
    "cuda-path", cl::desc("The CUDA toolkit whose ptxas --emit=cubin uses"),
    cl::value_desc("DIR"), cl::init("/usr/local/cuda"), cl::cat(cudaCategory));
static cl::opt<std::string>
    ptxOption("ptx", cl::desc("Load this PTX (or cubin) instead of compiling"),
              cl::value_desc("FILE"), cl::cat(cudaCategory));
static cl::opt<bool> noCache("no-cache",
                             cl::desc("Neither use nor fill the compile cache"),
                             cl::cat(cudaCategory));
static cl::opt<bool> noGuards(
    "no-guards",
    cl::desc("No guard zones around the buffers (for compute-sanitizer)"),
    cl::cat(cudaCategory));
static cl::opt<bool>
    tuneOption("tune",
               cl::desc("Tune the declared meta-parameters for this launch"),
               cl::cat(cudaCategory));
static cl::opt<bool> tuneAll("tune-all",
                             cl::desc("--tune, pruning no configuration"),
                             cl::cat(cudaCategory));
static cl::opt<bool> noTuningCache(
    "no-tuning-cache",
    cl::desc("Run the cost model's choice (on the CPU, the defaults fitted "
             "to the launch), not a stored tuned choice (the tuning cache's "
             "or a tuning database's)"),
    cl::cat(cudaCategory));
static cl::opt<unsigned> tuneTop(
    "tune-top",
    cl::desc("--tune times only the N configurations the cost model ranks "
             "first, of each kernel (default 32; 0: every one it keeps, as "
             "--tune-all does)"),
    cl::value_desc("N"), cl::init(kDefaultTuneTop), cl::cat(cudaCategory));
static cl::opt<bool> noTuningDatabase(
    "no-tuning-database",
    cl::desc("Look up tuned choices in the tuning cache only, not in the "
             "imported and shipped tuning databases"),
    cl::cat(cudaCategory));
static cl::opt<std::string> tuneExport(
    "tune-export",
    cl::desc("Write the tuning cache's entries as a tuning database, and exit"),
    cl::value_desc("FILE"), cl::cat(cudaCategory));
static cl::opt<std::string> tuneImport(
    "tune-import",
    cl::desc("Merge a tuning database into the tuning cache's, and exit"),
    cl::value_desc("FILE"), cl::cat(cudaCategory));
static cl::opt<bool> timingOption("timing",
                                  cl::desc("Print how long each step took"),
                                  cl::cat(cudaCategory));

static int fail(const llvm::Twine &message) {
  // Messages quote arguments and file contents: bytes a terminal would act
  // on are escaped.
  llvm::WithColor::error(llvm::errs(), "tile-run")
      << escapeForDiagnostic(message.str(), /*keepLayout=*/true) << "\n";
  return 1;
}

/// Prints an error from the library, unless its diagnostics were printed.
static int fail(llvm::Error err) {
  int status = 1;
  llvm::handleAllErrors(
      std::move(err), [](const DiagnosedError &) {},
      [&](const llvm::ErrorInfoBase &info) { status = fail(info.message()); });
  return status;
}

/// The value of an option given on the command line, or none.
template <typename T> static std::optional<T> given(const cl::opt<T> &option) {
  return option.getNumOccurrences() ? std::optional<T>(option) : std::nullopt;
}

/// --emit: compile only, specialized on the arguments when they are given.
static int emitCode(KernelSource &source, llvm::ArrayRef<ArgSpec> specs) {
  CompileOptions options;
  options.numWarps = numWarpsOption;
  options.tma = tmaOption;
  options.cudaPath = cudaPath;
  options.format =
      emitOption == Emit::Cubin ? OutputFormat::Cubin : OutputFormat::PTX;
  options.cacheDir = noCache ? "" : getDefaultCacheDir();
  llvm::Expected<std::string> chip =
      chipOption.empty() ? getCudaChip(deviceOption) : chipOption;
  if (!chip)
    return fail("--emit compiles for the GPU's own chip, and there is none: " +
                llvm::toString(chip.takeError()) +
                "\nname the chip with --chip, such as --chip=sm_90");
  options.chip = *chip;
  llvm::Expected<CompiledKernel> compiled = source.compile(specs, options);
  if (!compiled)
    return fail(compiled.takeError());
  if (timingOption) {
    Timings timings;
    timings.addCompile(*compiled);
    timings.print(outputFilename == "-" ? llvm::errs() : llvm::outs());
  }
  if (llvm::Error err =
          llvm::writeToOutput(outputFilename, [&](llvm::raw_ostream &os) {
            os << compiled->binary;
            return llvm::Error::success();
          }))
    return fail("cannot write " + llvm::toString(std::move(err)));
  return 0;
}

/// Checks the options that do not depend on the kernel.
static int checkOptions(bool emitting, Target runTarget) {
  if (tuneAll)
    tuneOption = true;
  if (!chipOption.empty())
    if (llvm::Error err = checkChipName(chipOption))
      return fail(std::move(err));
  if (emitting) {
    for (auto *option : {&checkOption, &benchOption})
      if (*option)
        return fail(llvm::Twine("--") + option->ArgStr +
                    " runs the kernel; --emit only compiles it");
    if (!outOptions.empty() || !ptxOption.empty())
      return fail(llvm::Twine("--") + (outOptions.empty() ? "ptx" : "out") +
                  " runs the kernel; --emit only compiles it");
    return 0;
  }
  struct GpuOnly {
    bool given;
    const char *flag, *does;
  };
  for (GpuOnly option :
       {GpuOnly{!ptxOption.empty(), "ptx", "loads a GPU binary"},
        {tuneOption, "tune", "times configurations on the GPU"},
        {checkOption, "check",
         "compares the GPU's results with the interpreter's"},
        {benchOption, "bench", "times the kernel on the GPU"}})
    if (runTarget == Target::CPU && option.given)
      return fail(llvm::Twine("--") + option.flag +
                  " needs a GPU (--target=cuda): it " + option.does);
  if (tuneOption && !ptxOption.empty())
    return fail("--tune compiles the kernel; --ptx loads it from a file");
  if (!TileDialect::isValidNumWarps(numWarpsOption))
    return fail("--num-warps expects a power of two from 1 to 32, got " +
                llvm::Twine(numWarpsOption));
  if (gridOption.getNumOccurrences() == 0)
    return fail("--grid is required: the number of programs along x, y and "
                "z, such as --grid 1823 or --grid 16,8 (on a GPU also "
                "--grid persistent)");
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions({&runCategory, &cudaCategory});
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "  tile: " << getCompilerVersion() << "\n";
  });
  // `-D BLOCK 512` would make 512 a kernel file.
  if (!checkDefineArguments(llvm::ArrayRef<const char *>(argv, argc),
                            "tile-run", llvm::errs()))
    return 1;
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-run: run a tile kernel\n\n"
      "  tile-run KERNEL.mlir... [--kernel NAME] [-D NAME=VALUE]... "
      "[--target=cpu|cuda]\n"
      "           --grid X[,Y[,Z]]|persistent[:N] --arg SPEC... "
      "[--out INDEX=FILE.npy]...\n"
      "           [--check] [--bench] [--tune] [--timing]\n"
      "  tile-run KERNEL.mlir --emit=ptx|cubin [-o FILE] [--chip sm_XY] "
      "[--arg SPEC]...\n"
      "  tile-run --list-devices\n"
      "  tile-run --tune-export FILE | --tune-import FILE\n");
  if (listDevices) {
    llvm::Expected<std::vector<std::string>> devices = listCudaDevices();
    if (devices)
      llvm::outs() << llvm::join(*devices, "\n") << "\n";
    return devices ? 0 : fail(devices.takeError());
  }
  if (!tuneExport.empty() || !tuneImport.empty()) {
    if (!tuneExport.empty() && !tuneImport.empty())
      return fail("--tune-export and --tune-import are two runs of tile-run");
    if (!inputFilenames.empty())
      return fail("--tune-export and --tune-import take no kernel file");
    std::string cacheDir = noCache ? "" : getDefaultCacheDir();
    llvm::Error err = !tuneExport.empty()
                          ? exportTuning(cacheDir, tuneExport, llvm::outs())
                          : importTuning(cacheDir, tuneImport, llvm::outs());
    return err ? fail(std::move(err)) : 0;
  }

  // The options, before any work.
  bool emitting = emitOption != Emit::None;
  RunOptions options;
  options.target = target;
  if (!emitting && target.getNumOccurrences() == 0) {
    llvm::Expected<Target> fromEnv = getDefaultTarget();
    if (!fromEnv)
      return fail(fromEnv.takeError());
    options.target = *fromEnv;
  }
  if (int status = checkOptions(emitting, options.target))
    return status;
  if (!emitting) {
    llvm::Expected<GridSpec> grid =
        GridSpec::parseOptions(gridOption, given(wavesOption), options.target);
    if (!grid)
      return fail(grid.takeError());
    options.grid = *grid;
  }
  options.device = deviceOption;
  options.compile.chip = chipOption;
  options.compile.numWarps = numWarpsOption;
  options.compile.tma = tmaOption;
  options.compile.cudaPath = cudaPath;
  options.compile.cacheDir = noCache ? "" : getDefaultCacheDir();
  options.binaryFile = ptxOption;
  options.guards = !noGuards;

  llvm::Expected<std::map<unsigned, std::string>> outputs =
      parseOutputSpecs(outOptions);
  if (!outputs)
    return fail(outputs.takeError());

  // The kernel (several files: variants for --tune or the cache to pick),
  // and a spec per parameter checked against it (or none: --emit).
  KernelSource::Options sourceOptions{{defines.begin(), defines.end()},
                                      kernelName};
  if (inputFilenames.size() > 1 && (emitting || !ptxOption.empty()))
    return fail("--emit and --ptx take one kernel file");
  auto loaded = loadKernelSources(inputFilenames, sourceOptions,
                                  emitting && argOptions.empty()
                                      ? std::nullopt
                                      : std::optional(argOptions.size()));
  if (!loaded)
    return fail(loaded.takeError());
  std::vector<std::unique_ptr<KernelSource>> variants = std::move(*loaded);
  KernelSource *source = variants.front().get();
  llvm::Expected<SmallVector<ArgSpec>> specs =
      parseArgSpecs(argOptions, variants);
  if (!specs)
    return fail(specs.takeError());
  for (const auto &[index, path] : *outputs)
    if (llvm::Error err = source->checkOutputIndex(index))
      return fail("--out " + llvm::Twine(index) + "=" + path + ": " +
                  llvm::toString(std::move(err)));
  if (emitting)
    return emitCode(*source, *specs);

  if (checkOption && failed(checkInterpretable(source->getKernel())))
    return fail("--check needs the CPU interpreter, which cannot run @" +
                source->getKernelName());
  llvm::Expected<SmallVector<KernelArg>> made =
      createKernelArgs(*specs, argOptions);
  if (!made)
    return fail(made.takeError());
  SmallVector<KernelArg> args = std::move(*made);
  if (checkSecondsOption < 0)
    return fail("--check-seconds must be 0 or more");
  CheckOptions check{given(rtolOption), given(atolOption), checkSecondsOption};
  BenchOptions bench{benchWarmup, benchReps};
  std::unique_ptr<KernelSource> chosen;
  if (options.binaryFile.empty()) {
    TuneOptions tuning{sourceOptions, options,       bench,
                       check,         &llvm::errs(), tuneAll};
    tuning.stores.databases = !noTuningDatabase;
    // --tune-all times every configuration, unless --tune-top says how many.
    tuning.top = tuneAll && tuneTop.getNumOccurrences() == 0 ? 0 : tuneTop;
    bool cached = !noTuningCache && options.target == Target::CUDA;
    auto tuned = loadTunedKernel(std::move(variants), args, tuning,
                                 tuneOption ? TuningMode::Tune
                                 : cached   ? TuningMode::UseCache
                                            : TuningMode::IgnoreCache,
                                 llvm::outs(), &options.grid);
    if (!tuned)
      return fail(tuned.takeError());
    chosen = std::move(*tuned);
    source = chosen.get();
  }
  llvm::Expected<std::unique_ptr<KernelRunner>> runner =
      KernelRunner::create(*source, options);
  if (!runner)
    return fail(runner.takeError());
  llvm::Expected<RunResult> result = (*runner)->run(args);
  if (!result)
    return fail(result.takeError());
  printRunSummary(llvm::outs(), source->getKernelName(), *result,
                  options.target);

  bool checked = true;
  if (checkOption) {
    llvm::Expected<CheckReport> report = checkAgainstInterpreter(
        *source, result->grid, args, result->outputs, check);
    if (!report)
      return fail(report.takeError());
    (*runner)->getTimings().add("CPU interpreter (--check)", report->seconds);
    report->print(llvm::outs());
    checked = report->passed();
  }
  if (benchOption) {
    llvm::Expected<BenchReport> report =
        (*runner)->benchmark(bench, given(bytesOption));
    if (!report)
      return fail(report.takeError());
    report->print(llvm::outs());
  }
  if (llvm::Error err = writeOutputs(*result, *outputs, llvm::outs()))
    return fail(std::move(err));
  if (timingOption)
    (*runner)->printTimings(llvm::outs());
  if (!checked)
    return fail("--check: the GPU's results differ from the interpreter's");
  return 0;
}
