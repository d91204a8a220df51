//===- tile-runner-test.cpp - The runtime's KernelRunner from a program ---===//
//
//   tile-runner-test run FILE [-DNAME=VALUE]... --grid X[,Y[,Z]] SPEC...
//   tile-runner-test persistent-grid SMS BLOCKS_PER_SM CAP
//   tile-runner-test cache-key FILE [-DNAME=VALUE]... [--chip=sm_XY] SPEC...
//
// A C++ program that uses the runtime library the way tile-run does, and the
// lit tests' window on the library's CPU-side steps (test/Runtime):
//
//   run              loads the kernel (KernelSource), checks and makes the
//                    arguments, runs it on the CPU target (KernelRunner),
//                    checks the result against a second interpreter run
//                    (checkAgainstInterpreter) and prints, per buffer, its
//                    sum and its first elements.
//   persistent-grid  the programs of a persistent grid (getPersistentGridSize)
//   cache-key        the specialization and the compile cache's key of a
//                    launch with these arguments (compiled for the chip,
//                    sm_90 by default, into a temporary cache).
//
// Errors are the library's messages and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/KernelRunner.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

static int fail(llvm::Error err) {
  int status = 1;
  llvm::handleAllErrors(
      std::move(err), [](const DiagnosedError &) {},
      [](const llvm::ErrorInfoBase &info) {
        llvm::errs() << "tile-runner-test: " << info.message() << "\n";
      });
  return status;
}

namespace {
/// FILE, -D definitions, --grid, --chip and argument specs.
struct Command {
  std::string file;
  KernelSource::Options sourceOptions;
  std::string grid;
  std::string chip = "sm_90";
  std::vector<std::string> specs;
};
} // namespace

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
    else
      command.specs.push_back(arg.str());
  }
  return command;
}

/// Loads the kernel and makes its arguments from the specs.
static llvm::Expected<std::unique_ptr<KernelSource>>
load(const Command &command, SmallVector<ArgSpec> &specs,
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

static int run(const Command &command) {
  SmallVector<ArgSpec> specs;
  SmallVector<KernelArg> args;
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      load(command, specs, args);
  if (!source)
    return fail(source.takeError());
  RunOptions options;
  options.target = Target::CPU;
  llvm::Expected<GridSpec> grid = GridSpec::parse(command.grid);
  if (!grid)
    return fail(grid.takeError());
  options.grid = *grid;
  llvm::Expected<std::unique_ptr<KernelRunner>> runner =
      KernelRunner::create(**source, options);
  if (!runner)
    return fail(runner.takeError());
  llvm::Expected<RunResult> result = (*runner)->run(args);
  if (!result)
    return fail(result.takeError());
  llvm::outs() << "@" << (*source)->getKernelName() << " on " << result->where
               << ", grid " << formatGrid(result->grid) << "\n";
  llvm::Expected<CheckReport> check = checkAgainstInterpreter(
      **source, result->grid, args, result->outputs, CheckOptions());
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

int main(int argc, char **argv) {
  llvm::StringRef mode = argc > 1 ? argv[1] : "";
  if (mode == "persistent-grid" && argc == 5) {
    llvm::Expected<int64_t> programs = getPersistentGridSize(
        std::atoi(argv[2]), std::atoi(argv[3]), std::atoll(argv[4]));
    if (!programs)
      return fail(programs.takeError());
    llvm::outs() << *programs << "\n";
    return 0;
  }
  if ((mode == "run" || mode == "cache-key") && argc > 2) {
    Command command = parseCommand(argc, argv);
    return mode == "run" ? run(command) : cacheKey(command);
  }
  llvm::errs() << "usage: tile-runner-test run FILE [-DNAME=VALUE]... --grid "
                  "G SPEC...\n"
                  "       tile-runner-test persistent-grid SMS "
                  "BLOCKS_PER_SM CAP\n"
                  "       tile-runner-test cache-key FILE [-DNAME=VALUE]... "
                  "[--chip=sm_XY] SPEC...\n";
  return 1;
}
