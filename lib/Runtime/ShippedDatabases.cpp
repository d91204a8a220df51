//===- ShippedDatabases.cpp - The tuning databases built in ---------------===//
//
// The repository's tuning/*.txt, embedded at build time by
// EmbedDatabases.cmake. See tile/Runtime/TuningDatabase.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TuningDatabase.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Runtime/ShippedDatabases.inc"

llvm::ArrayRef<ShippedDatabase> mlir::tile::getShippedDatabases() {
  return llvm::ArrayRef(kShippedDatabases, kNumShippedDatabases);
}
