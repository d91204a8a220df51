//===- PtxGlobals.h - The globals a PTX image declares ----------*- C++ -*-===//
//
// A loaded kernel tells the launcher about itself through globals
// (tile/Conversion/KernelABI.h): its tensor maps' recipes, its dynamic
// shared memory. cuModuleGetGlobal of a name a module lacks fails, and
// compute-sanitizer reports every failed driver call, so a module loaded
// from PTX asks the driver only for the globals its text declares.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_PTXGLOBALS_H
#define TILE_RUNTIME_PTXGLOBALS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

namespace mlir::tile {

/// The names of the variables a PTX text declares in the global state space
/// (`.global` after the linkage, not a kernel parameter's `.ptr .global`),
/// or none where `image` is not PTX (a cubin).
std::optional<llvm::StringSet<>> getPtxGlobals(llvm::StringRef image);

} // namespace mlir::tile

#endif // TILE_RUNTIME_PTXGLOBALS_H
