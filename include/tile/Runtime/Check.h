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
    /// Not compared: the programs a partial check ran stored nothing to it.
    bool skipped = false;
  };
  std::vector<Entry> entries;
  /// How long the interpreter took.
  double seconds = 0;
  /// The programs the interpreter ran, of the grid's (all, unless the
  /// check's time budget ran out first).
  int64_t programsRun = 0;
  int64_t programs = 0;

  bool passed() const;
  /// "check against the CPU interpreter:" and a line per buffer.
  void print(llvm::raw_ostream &os) const;
};

/// The interpreter's time budget a check has by default, in seconds: a
/// launch it cannot interpret whole in that time is checked on a sample of
/// its programs (see CheckOptions::seconds).
constexpr double kDefaultCheckSeconds = 30;

/// Tolerances that replace each type's default (tile/HostData/Compare.h),
/// and how much of the grid the interpreter runs.
struct CheckOptions {
  std::optional<double> rtol;
  std::optional<double> atol;
  /// The interpreter starts programs until this many seconds have passed
  /// (the grid's last and first, then others scattered over it), and only
  /// the elements the programs it ran stored to are compared; 0 runs the
  /// whole grid and compares every element.
  double seconds = kDefaultCheckSeconds;
};

/// The interpreter's result to compare a run with: the arguments after the
/// programs it ran, and, when it ran only some, the elements they stored.
struct Reference {
  llvm::SmallVector<KernelArg> args;
  /// One mask per argument (empty for scalars); used only when
  /// `programsRun < programs`.
  std::vector<llvm::BitVector> stored;
  int64_t programsRun = 0;
  int64_t programs = 0;
  double seconds = 0;
  /// Per argument: whether what the kernel stores there depends on a sum of
  /// many terms taken in an order of its own (tile.dot's products, a sum
  /// reduction within a program, a cluster or the grid, tile.atomic_add, an
  /// addition of a product the GPU may fuse into an FMA;
  /// findSummedArguments). Such results carry the rounding of sums taken in
  /// another order than the interpreter's, whose error scales with the
  /// terms, not with the result (an element near zero after cancellation):
  /// compared with a default atol of rtol times the largest |element| of the
  /// interpreter's buffer, where no atol is given.
  llvm::SmallVector<bool> summed;

  bool complete() const { return programsRun == programs; }
};

/// Per argument of `kernel`: whether a value it stores there (tile.store,
/// tile.atomic_add) depends on a sum of many terms in an order of the
/// kernel's own (Reference::summed). Values are followed through what
/// scf.for carries and scf.if yields (other ops with regions count whole),
/// not through memory; the stores' pointers back to the arguments they
/// point into.
llvm::SmallVector<bool> findSummedArguments(FuncOp kernel);

/// Runs the interpreter over `inputs` on `grid` within `options.seconds`.
llvm::Expected<Reference> interpretReference(const KernelSource &source,
                                             llvm::ArrayRef<int64_t> grid,
                                             llvm::ArrayRef<KernelArg> inputs,
                                             const CheckOptions &options);

/// Compares every buffer of `outputs` with the same argument of `expected`,
/// within each type's default tolerance or `options`'.
CheckReport compareWithReference(llvm::ArrayRef<KernelArg> outputs,
                                 llvm::ArrayRef<KernelArg> expected,
                                 const CheckOptions &options);

/// The same against the interpreter's reference: a buffer a partial run
/// stored nothing to is not compared, others only where it stored.
CheckReport compareWithReference(llvm::ArrayRef<KernelArg> outputs,
                                 const Reference &reference,
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
