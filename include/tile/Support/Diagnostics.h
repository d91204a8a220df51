//===- Diagnostics.h - Hints on the diagnostics of kernel files -*- C++ -*-===//
//
// Notes that MLIR's own diagnostics lack, for the mistakes a Triton user
// makes in a kernel file, and a shorter form of the notes that print a whole
// operation. The tools and libraries that parse kernel files (tile-opt,
// tile-run and the runtime's KernelSource, hence the C API) install them:
//
// - a scalar used where a tile is expected (MLIR's "use of value '%alpha'
//   expects different type than prior uses: 'tensor<256xf32>' vs 'f32'"):
//   a note that splats it, in tile.splat's syntax; a tile used where a tile
//   of another shape is expected, which tile.broadcast can make: a note that
//   broadcasts it;
// - an unknown operation ("custom op 'tile.lod' is unknown", or 'tl.load'
//   as Triton writes it): "did you mean 'tile.load'?", the registered
//   operation of the same dialect (the tile dialect's, for a name of no
//   loaded dialect) nearest by edit distance, when it is close enough; and
//   Triton's names of what the tile dialect spells otherwise (tile.sum:
//   tile.reduce sum);
// - "see current operation: ..." notes (MLIR prints the failing operation
//   in generic form, regions and all): dropped where the diagnostic's
//   location is in a file, whose line the printing handler shows (the
//   operation as written), else cut to the operation alone, regions elided.
//
// (A tile.func without tile.return is reported by the dialect's verifier.)
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_DIAGNOSTICS_H
#define TILE_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::tile {

/// Adds the hints that apply to `diag` as notes, and shortens its notes that
/// print an operation. `diag` is left as it is when none applies.
void addDiagnosticHints(Diagnostic &diag);

/// A handler that adds the hints to every diagnostic of a context, then
/// passes it on to the handlers registered before it. Register it after the
/// handler that prints (the most recent handler sees a diagnostic first).
class DiagnosticHintHandler : public ScopedDiagnosticHandler {
public:
  explicit DiagnosticHintHandler(MLIRContext *context);
};

/// Installs the hints in every context made from `registry` when the tile
/// dialect is loaded into it, which the parser does at the first tile
/// operation of a file: after a tool's printing handler is registered. This
/// is for tools whose contexts are made by MLIR (MlirOptMain).
void registerDiagnosticHints(DialectRegistry &registry);

} // namespace mlir::tile

#endif // TILE_SUPPORT_DIAGNOSTICS_H
