//===- Passes.h - Conversion passes of tile ---------------------*- C++ -*-===//

#ifndef TILE_CONVERSION_PASSES_H
#define TILE_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tilegpu {
class TileGPUDialect;
} // namespace tilegpu
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace NVVM {
class NVVMDialect;
} // namespace NVVM
namespace gpu {
class GPUDialect;
} // namespace gpu

namespace tile {
#define GEN_PASS_DECL
#include "tile/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_PASSES_H
