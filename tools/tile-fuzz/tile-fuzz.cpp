//===- tile-fuzz.cpp - A libFuzzer target over the compiler ---------------===//
//
// Each input is a kernel file: it is preprocessed (the parameters at their
// defaults), parsed, verified and compiled through the tile-to-ptx pipeline
// up to LLVM and NVVM operations (with TILE_FUZZ_PTX=1 in the environment,
// through the NVPTX backend to PTX too, many times slower). Errors are the
// expected outcome for most inputs and are dropped; what the fuzzer looks for
// is a crash, an assertion, a sanitizer report or a hang. Built with
// -DTILE_ENABLE_FUZZER=ON and clang (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Preprocessor/Preprocessor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace mlir;

static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registry.insert<tile::TileDialect, tilegpu::TileGPUDialect,
                    arith::ArithDialect, math::MathDialect, scf::SCFDialect>();
    tile::registerTileToPTXDependencies(registry);
    auto *created = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    created->loadAllAvailableDialects();
    // Errors are expected; only crashes count.
    created->getDiagEngine().registerHandler(
        [](Diagnostic &) { return success(); });
    return created;
  }();
  return *context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  static const bool toPTX = [] {
    const char *value = std::getenv("TILE_FUZZ_PTX");
    return value && value[0] == '1';
  }();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBuffer(text, "fuzz.mlir",
                                       /*RequiresNullTerminator=*/false);
  std::string specialized;
  std::vector<tile::KernelParam> params;
  llvm::raw_null_ostream errors;
  if (!tile::preprocess(*buffer, {}, specialized, params, errors))
    return 0;
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(specialized, &context, "fuzz.mlir");
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(&context);
  tile::TileToPTXOptions options;
  if (toPTX)
    tile::buildTileToPTXPipeline(pm, options);
  else
    tile::buildTileToLLVMPipeline(pm, options);
  (void)pm.run(*module);
  return 0;
}
