//===- tile-run.cpp - Run a tile kernel -----------------------------------===//
//
//   tile-run KERNEL.mlir [--kernel NAME] [-D NAME=VALUE]... [--target=cpu|cuda]
//            --grid X[,Y[,Z]] --arg SPEC... [--out INDEX=FILE.npy]...
//
// Specializes and parses the kernel file, makes one argument per `--arg`
// spec (tile/Runner/ArgSpec.h), runs the kernel over the grid, and writes
// the buffers named by `--out` as .npy files. The CPU target is the
// interpreter (tile/Interpreter/Interpreter.h); the CUDA target is not built
// yet. Every error is a message and a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Runner/ArgSpec.h"
#include "tile/Runner/Npy.h"
#include "tile/Specialize/Specialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <map>

using namespace mlir;
using namespace mlir::tile;

namespace {
enum class Target { CPU, CUDA };
} // namespace

static llvm::cl::OptionCategory runCategory("tile-run options");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<kernel file>"),
                                                llvm::cl::init("-"),
                                                llvm::cl::cat(runCategory));

static llvm::cl::opt<std::string> kernelName(
    "kernel",
    llvm::cl::desc("The kernel to run (default: the only one in the file)"),
    llvm::cl::value_desc("NAME"), llvm::cl::cat(runCategory));

static llvm::cl::list<std::string>
    defines("D",
            llvm::cl::desc("Set a specialization parameter that the kernel "
                           "declares with '// tile.param NAME = DEFAULT'"),
            llvm::cl::value_desc("NAME=VALUE"), llvm::cl::Prefix,
            llvm::cl::cat(runCategory));

static llvm::cl::opt<Target>
    target("target", llvm::cl::desc("Where the kernel runs"),
           llvm::cl::values(clEnumValN(Target::CPU, "cpu",
                                       "the CPU interpreter (the default)"),
                            clEnumValN(Target::CUDA, "cuda",
                                       "an NVIDIA GPU (not built yet)")),
           llvm::cl::init(Target::CPU), llvm::cl::cat(runCategory));

static llvm::cl::opt<std::string>
    gridOption("grid",
               llvm::cl::desc("The launch grid: programs along x, y and z"),
               llvm::cl::value_desc("X[,Y[,Z]]"), llvm::cl::cat(runCategory));

static llvm::cl::list<std::string> argOptions(
    "arg",
    llvm::cl::desc("One kernel argument, given once per parameter in order: "
                   "TYPE[SHAPE]=randn:SEED | uniform:SEED | zeros | "
                   "fill:VALUE | @FILE.npy for a pointer, TYPE=VALUE for a "
                   "scalar (f32[1823x781]=randn:0, i32=781)"),
    llvm::cl::value_desc("SPEC"), llvm::cl::cat(runCategory));

static llvm::cl::list<std::string> outOptions(
    "out",
    llvm::cl::desc("After the run, write the buffer of parameter INDEX to a "
                   ".npy file"),
    llvm::cl::value_desc("INDEX=FILE.npy"), llvm::cl::cat(runCategory));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tile-run") << message << "\n";
  return 1;
}

/// Parses --grid: one to three positive sizes separated by commas.
static bool parseGrid(llvm::StringRef text, SmallVectorImpl<int64_t> &grid) {
  SmallVector<llvm::StringRef, 3> parts;
  text.split(parts, ',');
  if (parts.size() > 3)
    return false;
  for (llvm::StringRef part : parts) {
    int64_t size;
    if (part.empty() || !llvm::all_of(part, llvm::isDigit) ||
        part.getAsInteger(10, size) || size < 1 || size > INT32_MAX)
      return false;
    grid.push_back(size);
  }
  return true;
}

/// Finds the kernel to run: the one named by --kernel, or the only one.
static FuncOp findKernel(ModuleOp module, llvm::StringRef file) {
  SmallVector<FuncOp> kernels(module.getOps<FuncOp>());
  std::string names =
      llvm::join(llvm::map_range(kernels,
                                 [](FuncOp kernel) {
                                   return "@" + kernel.getSymName().str();
                                 }),
                 ", ");
  if (!kernelName.empty()) {
    for (FuncOp kernel : kernels)
      if (kernel.getSymName() == kernelName)
        return kernel;
    fail("no kernel named '" + kernelName + "' in " + file +
         (kernels.empty() ? llvm::Twine(" (it has none)")
                          : llvm::Twine(" (it has ") + names + ")"));
    return nullptr;
  }
  if (kernels.size() == 1)
    return kernels.front();
  if (kernels.empty())
    fail(file + " has no kernel (no tile.func)");
  else
    fail(file + " has " + llvm::Twine(kernels.size()) + " kernels (" + names +
         "); choose one with --kernel NAME");
  return nullptr;
}

static std::string describeSignature(FuncOp kernel) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "@" << kernel.getSymName() << "(";
  llvm::interleaveComma(kernel.getArgumentTypes(), os);
  os << ")";
  return result;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::HideUnrelatedOptions(runCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "tile-run: run a tile kernel\n\n"
      "  tile-run KERNEL.mlir [--kernel NAME] [-D NAME=VALUE]... "
      "[--target=cpu|cuda]\n"
      "           --grid X[,Y[,Z]] --arg SPEC... [--out INDEX=FILE.npy]...\n");

  if (target == Target::CUDA)
    return fail("the CUDA target is not built yet; run the kernel on the CPU "
                "interpreter with --target=cpu");

  if (gridOption.getNumOccurrences() == 0)
    return fail("--grid is required: the number of programs along x, y and "
                "z, such as --grid 1823 or --grid 16,8");
  SmallVector<int64_t, 3> grid;
  if (!parseGrid(gridOption, grid))
    return fail("--grid expects X[,Y[,Z]], one to three sizes from 1 to "
                "2147483647, got '" +
                gridOption + "'");

  // --out INDEX=FILE.npy, one per parameter at most.
  std::map<unsigned, std::string> outputs;
  for (const std::string &out : outOptions) {
    auto [indexText, path] = llvm::StringRef(out).split('=');
    unsigned index;
    if (indexText.empty() || !llvm::all_of(indexText, llvm::isDigit) ||
        indexText.getAsInteger(10, index) || path.empty())
      return fail("--out expects INDEX=FILE.npy, such as --out 0=y.npy, got '" +
                  out + "'");
    if (!outputs.emplace(index, path.str()).second)
      return fail("--out " + llvm::Twine(index) + " is given twice");
  }

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  input = specialize(std::move(input), defines, llvm::errs());
  if (!input)
    return 1;

  DialectRegistry registry;
  registry.insert<TileDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect>();
  MLIRContext context(registry);
  // Runtime errors name the op by its source line; the generic form of the
  // op would only repeat it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnosticHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;
  FuncOp kernel = findKernel(*module, inputFilename);
  if (!kernel)
    return 1;

  // One spec per parameter, checked against its type before any buffer is
  // made or read.
  ArrayRef<Type> paramTypes = kernel.getArgumentTypes();
  if (argOptions.size() != paramTypes.size())
    return fail(describeSignature(kernel) + " takes " +
                llvm::Twine(paramTypes.size()) + " arguments; --arg gives " +
                llvm::Twine(argOptions.size()));
  SmallVector<ArgSpec> specs;
  for (auto [index, text] : llvm::enumerate(argOptions)) {
    auto argError = [&, index = index, &text = text](llvm::Error err) {
      return fail("--arg " + llvm::Twine(index) + " ('" + text +
                  "'): " + llvm::toString(std::move(err)));
    };
    llvm::Expected<ArgSpec> spec = parseArgSpec(text);
    if (!spec)
      return argError(spec.takeError());
    if (llvm::Error err =
            checkArgumentType(paramTypes[index], spec->type, spec->isBuffer()))
      return argError(std::move(err));
    specs.push_back(std::move(*spec));
  }
  for (const auto &[index, path] : outputs) {
    if (index >= paramTypes.size())
      return fail("--out " + llvm::Twine(index) + "=" + path + ": " +
                  describeSignature(kernel) + " has no parameter " +
                  llvm::Twine(index));
    if (!specs[index].isBuffer())
      return fail("--out " + llvm::Twine(index) + "=" + path + ": parameter " +
                  llvm::Twine(index) +
                  " is a scalar; only buffers can be written");
  }
  if (failed(checkInterpretable(kernel)))
    return 1;

  SmallVector<KernelArg> args;
  for (auto [index, spec] : llvm::enumerate(specs)) {
    llvm::Expected<KernelArg> arg = createKernelArg(spec);
    if (!arg)
      return fail("--arg " + llvm::Twine(index) + " ('" + argOptions[index] +
                  "'): " + llvm::toString(arg.takeError()));
    args.push_back(std::move(*arg));
  }

  auto start = std::chrono::steady_clock::now();
  if (failed(interpretKernel(kernel, grid, args)))
    return 1;
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  int64_t programs = 1;
  for (int64_t size : grid)
    programs *= size;
  llvm::outs() << "@" << kernel.getSymName()
               << " ran on the CPU interpreter: grid "
               << llvm::join(
                      llvm::map_range(
                          grid, [](int64_t s) { return llvm::itostr(s); }),
                      "x")
               << " (" << programs << (programs == 1 ? " program" : " programs")
               << ") in " << llvm::format("%.3f", elapsed.count()) << " s\n";

  for (const auto &[index, path] : outputs) {
    const HostBuffer &buffer = args[index].getBuffer();
    if (llvm::Error err = writeNpyFile(path, buffer))
      return fail(llvm::toString(std::move(err)));
    llvm::outs() << "wrote argument " << index << " ("
                 << buffer.getDescription() << ") to " << path << "\n";
  }
  return 0;
}
