//===- tile-smith.cpp - Random tile kernels for differential testing ------===//
//
// (usage: tile-smith --help)
//
// Writes a random, valid tile kernel and its NumPy reference from a seed
// (tile/Smith/Generate.h), or reads a program's description back (--from)
// to print it again or to print one of its simplifications (--simplify, the
// reducer's step: tile/Smith/Reduce.h). scripts/difftest.sh drives it.
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Generate.h"
#include "tile/Smith/Print.h"
#include "tile/Smith/Reduce.h"
#include "tile/Support/FileRead.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir::tile::smith;
namespace cl = llvm::cl;

namespace {
enum class What { Kernel, Reference, Description };
} // namespace

static cl::OptionCategory category("tile-smith options");
static cl::opt<uint64_t> seed("seed", cl::desc("The program's seed"),
                              cl::init(0), cl::cat(category));
static cl::opt<std::string>
    from("from",
         cl::desc("Read the program from a description (program.json) "
                  "instead of generating one"),
         cl::value_desc("FILE"), cl::cat(category));
static cl::opt<int> simplify(
    "simplify",
    cl::desc("Print the K-th one-step simplification of the program instead "
             "(from 0; exit status 2 when there are no more)"),
    cl::value_desc("K"), cl::init(-1), cl::cat(category));
static cl::opt<std::string>
    outputDir("o",
              cl::desc("Write DIR/kernel.mlir, DIR/ref.py and DIR/program.json "
                       "(the directory is made)"),
              cl::value_desc("DIR"), cl::cat(category));
static cl::opt<What>
    print("print", cl::desc("Without -o, what to print (default: the kernel)"),
          cl::values(clEnumValN(What::Kernel, "kernel", "the kernel file"),
                     clEnumValN(What::Reference, "reference",
                                "the NumPy reference (ref.py)"),
                     clEnumValN(What::Description, "description",
                                "the program's description (program.json)")),
          cl::init(What::Kernel), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tile-smith") << message << "\n";
  return 1;
}

static bool writeFile(llvm::StringRef path,
                      llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    fail("cannot write " + path + ": " + ec.message());
    return false;
  }
  write(file.os());
  file.keep();
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-smith: random tile kernels and their NumPy references\n\n"
      "  tile-smith --seed 7                  print a random kernel\n"
      "  tile-smith --seed 7 -o DIR           write kernel.mlir, ref.py, "
      "program.json\n"
      "  tile-smith --from DIR/program.json --simplify 3 -o DIR2\n"
      "                                       the program, one step "
      "simpler\n");

  Program program;
  if (!from.empty()) {
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> text =
        mlir::tile::readBoundedFile(from, mlir::tile::kSmithProgram);
    if (!text)
      return fail(llvm::toString(text.takeError()));
    llvm::Expected<Program> parsed = parseDescription((*text)->getBuffer());
    if (!parsed)
      return fail(from + ": " + llvm::toString(parsed.takeError()));
    program = std::move(*parsed);
  } else {
    program = generateProgram(seed);
    std::string problem = verifyProgram(program);
    if (!problem.empty())
      return fail("seed " + llvm::Twine(seed) +
                  " made an invalid program (a tile-smith bug): " + problem);
  }
  if (simplify >= 0) {
    std::optional<Program> simpler =
        getSimplification(program, static_cast<unsigned>(simplify));
    if (!simpler) {
      llvm::errs() << "tile-smith: no simplification " << simplify << "\n";
      return 2;
    }
    program = std::move(*simpler);
  }

  if (outputDir.empty()) {
    switch (print) {
    case What::Kernel:
      printKernel(program, llvm::outs());
      break;
    case What::Reference:
      printReference(program, llvm::outs());
      break;
    case What::Description:
      printDescription(program, llvm::outs());
      break;
    }
    return 0;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
    return fail("cannot make " + outputDir + ": " + ec.message());
  auto path = [&](llvm::StringRef name) {
    llvm::SmallString<128> result(outputDir);
    llvm::sys::path::append(result, name);
    return std::string(result);
  };
  if (!writeFile(path("kernel.mlir"),
                 [&](llvm::raw_ostream &os) { printKernel(program, os); }) ||
      !writeFile(path("ref.py"),
                 [&](llvm::raw_ostream &os) { printReference(program, os); }) ||
      !writeFile(path("program.json"),
                 [&](llvm::raw_ostream &os) { printDescription(program, os); }))
    return 1;
  return 0;
}
