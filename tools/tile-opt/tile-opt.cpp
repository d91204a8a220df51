//===- tile-opt.cpp - The tile optimizer driver ---------------------------===//
//
// An mlir-opt for tile kernels: MLIR's own MlirOptMain with the tile dialect,
// the upstream dialects kernels use, and the project's passes registered.
// Before parsing, the input is specialized: `-D NAME=VALUE` sets a parameter
// the kernel declares with `// tile.param NAME = DEFAULT`.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/Pipelines/Passes.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Preprocessor/Preprocessor.h"
#include "tile/Support/Diagnostics.h"
#include "tile/Support/FileRead.h"
#include "tile/Support/Text.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace mlir::tile::test {
void registerTestAxisInfoPass();
void registerTestRegisterEstimatePass();
void registerTestLayoutBitsPass();
} // namespace mlir::tile::test

static llvm::cl::list<std::string>
    defines("D",
            llvm::cl::desc("Set a specialization parameter that the kernel "
                           "declares with '// tile.param NAME = DEFAULT'"),
            llvm::cl::value_desc("NAME=VALUE"), llvm::cl::Prefix);

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);

  DialectRegistry registry;
  registry
      .insert<tile::TileDialect, tilegpu::TileGPUDialect, arith::ArithDialect,
              math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect>();
  tile::registerTileToPTXDependencies(registry);
  // Hints on the diagnostics of kernel files, in the contexts MlirOptMain
  // makes (one per split of the input).
  tile::registerDiagnosticHints(registry);

  // The project's passes and pipeline, and the upstream passes it uses.
  registerTransformsPasses();
  tile::registerTilePasses();
  tile::registerTileConversionPasses();
  tile::registerTilePipelinesPasses();
  tilegpu::registerTileGPUPasses();
  tile::registerTileToPTXPipeline();
  registerSCFToControlFlowPass();
  registerReconcileUnrealizedCastsPass();
  registerGpuNVVMAttachTarget();
  registerGpuModuleToBinaryPass();
  LLVM::registerDIScopeForLLVMFuncOpPass();
  tile::test::registerTestAxisInfoPass();
  tile::test::registerTestRegisterEstimatePass();
  tile::test::registerTestLayoutBitsPass();

  // `-D BLOCK 512` would be "too many positional arguments" to the parser.
  if (!tile::checkDefineArguments(llvm::ArrayRef<const char *>(argv, argc),
                                  "tile-opt", llvm::errs()))
    return 1;
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "tile optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return 0;
  }

  std::string errorMessage;
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> read =
      tile::readBoundedFile(inputFilename, tile::kKernelFile);
  if (!read) {
    llvm::errs() << "tile-opt: " << llvm::toString(read.takeError()) << "\n";
    return 1;
  }
  if (llvm::Error err = tile::checkKernelText((*read)->getBuffer(),
                                              (*read)->getBufferIdentifier())) {
    llvm::errs() << "tile-opt: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  std::unique_ptr<llvm::MemoryBuffer> input =
      tile::preprocess(std::move(*read), defines, llvm::errs());
  if (!input)
    return 1;

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "tile-opt: " << errorMessage << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
