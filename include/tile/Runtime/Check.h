//===- Check.h - Checking a run against the interpreter ---------*- C++ -*-===//
//
// The comparison of a run's buffers with the CPU interpreter's on the same
// arguments (or with any reference), within each element type's tolerance,
// and its report.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_CHECK_H
#define TILE_RUNTIME_CHECK_H

#include "tile/HostData/Compare.h"
#include "tile/HostData/KernelArg.h"
#include "tile/Runtime/KernelSource.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace tile {

/// The comparison of each buffer of a run with the interpreter's.
struct CheckReport {
  struct Entry {
    unsigned index = 0;
    std::string description;
    Tolerance tolerance;
    /// Empty when the buffers could not be compared at all.
    std::optional<BufferComparison> comparison;
    std::string error;
    std::vector<int64_t> shape;
  };
  std::vector<Entry> entries;
  /// How long the interpreter took.
  double seconds = 0;

  bool passed() const;
  /// "check against the CPU interpreter:" and a line per buffer.
  void print(llvm::raw_ostream &os) const;
};

/// Tolerances that replace each type's default (tile/HostData/Compare.h).
struct CheckOptions {
  std::optional<double> rtol;
  std::optional<double> atol;
};

/// Compares every buffer of `outputs` with the same argument of `expected`,
/// within each type's default tolerance or `options`'.
CheckReport compareWithReference(llvm::ArrayRef<KernelArg> outputs,
                                 llvm::ArrayRef<KernelArg> expected,
                                 const CheckOptions &options);

/// Runs the interpreter over `inputs` (the arguments before the run) on
/// `grid`, and compares every buffer of `outputs` (a run's results) with
/// the interpreter's.
llvm::Expected<CheckReport>
checkAgainstInterpreter(KernelSource &source, llvm::ArrayRef<int64_t> grid,
                        llvm::ArrayRef<KernelArg> inputs,
                        llvm::ArrayRef<KernelArg> outputs,
                        const CheckOptions &options);

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_CHECK_H
