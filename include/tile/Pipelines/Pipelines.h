//===- Pipelines.h - The tile-to-ptx pipeline -------------------*- C++ -*-===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class DialectRegistry;
class ModuleOp;
class OpPassManager;

namespace tile {

/// What the pipeline produces.
enum class OutputFormat { PTX, Cubin };

struct TileToPTXOptions : public PassPipelineOptions<TileToPTXOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("The GPU to compile for (sm_80, "
                                          "sm_90, ...)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features, such as the PTX ISA version"),
      llvm::cl::init("+ptx81")};
  Option<unsigned> numWarps{
      *this, "num-warps",
      llvm::cl::desc("Warps per block, for kernels without tile.num_warps"),
      llvm::cl::init(4)};
  Option<OutputFormat> format{
      *this, "format", llvm::cl::desc("What to produce"),
      llvm::cl::init(OutputFormat::PTX),
      llvm::cl::values(
          clEnumValN(OutputFormat::PTX, "ptx", "PTX text"),
          clEnumValN(OutputFormat::Cubin, "cubin", "a cubin, through ptxas"))};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimization level (0-3)"),
                            llvm::cl::init(3)};
  Option<bool> lineInfo{
      *this, "line-info",
      llvm::cl::desc("Emit .loc line information pointing at the kernel"),
      llvm::cl::init(true)};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit whose ptxas makes cubins"),
      llvm::cl::init("/usr/local/cuda")};
  Option<bool> tma{
      *this, "tma",
      llvm::cl::desc("On sm_90a, copy the tiles of descriptor loads that "
                     "feed a dot with TMA; the kernel then takes a tensor "
                     "map per descriptor, which its launcher makes (other "
                     "chips ignore it)"),
      llvm::cl::init(true)};
  Option<bool> storeFromMma{
      *this, "store-from-mma",
      llvm::cl::desc("Store an mma.sync result straight from its #mma "
                     "registers (false: through shared memory, in the "
                     "store's coalesced layout)"),
      llvm::cl::init(true)};
  Option<bool> storeFromWgmma{
      *this, "store-from-wgmma",
      llvm::cl::desc("Store a 16- or 32-bit wgmma result straight from its "
                     "#mma registers (by default it goes through shared "
                     "memory, in the store's coalesced layout)"),
      llvm::cl::init(false)};
  Option<bool> gridReduceLeader{
      *this, "grid-reduce-leader",
      llvm::cl::desc("Combine each tile.grid_reduce in program 0 alone, "
                     "which posts the result the other programs wait for "
                     "(false: every program combines every program's "
                     "values)"),
      llvm::cl::init(true)};
  Option<unsigned> gridReduceBackoff{
      *this, "grid-reduce-backoff",
      llvm::cl::desc("Nanoseconds to sleep between two polls of a "
                     "tile.grid_reduce's slots that were not ready (0: "
                     "none)"),
      llvm::cl::init(0)};
  Option<std::string> dumpPTX{
      *this, "dump-ptx",
      llvm::cl::desc("Write the compiled kernels (PTX, or the cubin) to this "
                     "file"),
      llvm::cl::init("")};
};

/// tile -> tilegpu -> LLVM/NVVM -> PTX (or cubin), inside gpu.binary.
void buildTileToPTXPipeline(OpPassManager &pm, const TileToPTXOptions &options);

/// The part of tile-to-ptx before PTX: through the tile, tilegpu and LLVM
/// levels to a gpu.module of LLVM and NVVM operations (what the fuzzer
/// drives many times a second; the NVPTX backend is the slow rest).
void buildTileToLLVMPipeline(OpPassManager &pm,
                             const TileToPTXOptions &options);

/// Registers `tile-to-ptx` with the pass registry.
void registerTileToPTXPipeline();

/// Registers what the pipeline needs in a context: the dialects it creates,
/// the translation to LLVM IR and the NVVM target.
void registerTileToPTXDependencies(DialectRegistry &registry);

/// The compiled kernels of `module` after the pipeline: the objects of its
/// `gpu.binary` ops (PTX text, or a cubin), concatenated; empty when there
/// are none.
std::string getBinaryObjects(ModuleOp module);

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H
