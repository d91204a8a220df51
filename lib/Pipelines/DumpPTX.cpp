//===- DumpPTX.cpp - Write the compiled kernels to a file -----------------===//

#include "tile/Pipelines/Passes.h"
#include "tile/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEDUMPPTX
#include "tile/Pipelines/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
struct TileDumpPTXPass : tile::impl::TileDumpPTXBase<TileDumpPTXPass> {
  using TileDumpPTXBase::TileDumpPTXBase;

  void runOnOperation() override {
    std::string objects = tile::getBinaryObjects(getOperation());
    if (objects.empty()) {
      getOperation().emitError("tile-dump-ptx: no compiled kernel to write; "
                               "run gpu-module-to-binary first");
      return signalPassFailure();
    }
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      getOperation().emitError("tile-dump-ptx: ") << error;
      return signalPassFailure();
    }
    file->os() << objects;
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
