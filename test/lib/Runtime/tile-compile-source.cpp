//===- tile-compile-source.cpp - compileKernelSource from a program -------===//
//
//   tile-compile-source FILE [KERNEL] [-DNAME=VALUE]... [--div=INDEX:VALUE]...
//
// A test of the runtime library as a C++ program uses it: compiles a kernel
// file for sm_90 through compileKernelSource (no cache), then prints the
// kernel's name, warps and the passes that ran, and the PTX. Errors are the
// library's messages and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Compiler.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tile;

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: tile-compile-source FILE [KERNEL] "
                    "[-DNAME=VALUE]... [--div=INDEX:VALUE]...\n";
    return 1;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(argv[1]);
  if (!file) {
    llvm::errs() << argv[1] << ": " << file.getError().message() << "\n";
    return 1;
  }
  std::string kernelName;
  std::vector<std::string> defines;
  KernelSpecialization specialization;
  for (int i = 2; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.consume_front("-D")) {
      defines.push_back(arg.str());
    } else if (arg.consume_front("--div=")) {
      auto [index, value] = arg.split(':');
      unsigned position;
      int64_t divisibility;
      if (index.getAsInteger(10, position) ||
          value.getAsInteger(10, divisibility)) {
        llvm::errs() << "--div expects INDEX:VALUE\n";
        return 1;
      }
      if (specialization.divisibility.size() <= position)
        specialization.divisibility.resize(position + 1, 0);
      specialization.divisibility[position] = divisibility;
    } else {
      kernelName = arg.str();
    }
  }
  CompileOptions options;
  options.chip = "sm_90";
  llvm::Expected<CompiledKernel> compiled = compileKernelSource(
      (*file)->getBuffer(), kernelName, defines, specialization, options);
  if (!compiled) {
    llvm::errs() << llvm::toString(compiled.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "kernel " << compiled->name << ", " << compiled->numWarps
               << " warps, " << compiled->passTimings.size() << " passes\n"
               << compiled->binary;
  return 0;
}
