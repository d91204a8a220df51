//===- Grid.h - Launch grids: specs, waves, persistent sizes ----*- C++ -*-===//
//
// The grid a launch runs on: sizes given by hand, or a persistent grid sized
// from the occupancy of the loaded kernel (with waves and a cap), parsed from
// the text tile-run, the C API and Python take.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_GRID_H
#define TILE_RUNTIME_GRID_H

#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
namespace tile {

/// The launch grid: explicit sizes along x, y and z, or persistent (as many
/// programs as fit on the GPU at once, times `waves`, at most `cap` when it
/// is not 0).
struct GridSpec {
  llvm::SmallVector<int64_t, 3> sizes;
  bool persistent = false;
  int64_t cap = 0;
  /// A persistent grid's programs per program that fits at once: 1 (the
  /// default) launches one wave; more launch several, which the GPU
  /// schedules as earlier ones finish (evening out SMs that run at
  /// different speeds); kAllWaves launches the cap, one program per item
  /// (row). Unset: not chosen (1, or the tuner's choice).
  std::optional<int64_t> waves;
  static constexpr int64_t kAllWaves = 0;

  /// Where a size is an expression rather than a number, one per axis
  /// ("cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)"), evaluated per launch over the
  /// kernel's integer meta-parameters and integer arguments (resolve);
  /// empty when every size is a number (then `sizes` holds them).
  llvm::SmallVector<std::string, 3> expressions;

  /// Parses "X[,Y[,Z]]", each a size from 1 to 2^31 - 1 or an expression
  /// of integers, names, + - * / % (on non-negative integers, / rounding
  /// down), parentheses and cdiv(a, b); or "persistent[:N]".
  static llvm::Expected<GridSpec> parse(llvm::StringRef text);
  /// The sizes of an explicit grid: `sizes`, or the expressions evaluated
  /// with `lookup` giving each name's value (nullopt: no such name).
  llvm::Expected<llvm::SmallVector<int64_t, 3>> resolve(
      llvm::function_ref<std::optional<int64_t>(llvm::StringRef)> lookup) const;
  /// Parses waves: "all" or a count from 1 to 1024.
  static llvm::Expected<int64_t> parseWaves(llvm::StringRef text);
  /// The grid of tile-run's --grid and --waves for a launch on `target`:
  /// waves size a persistent grid only, and a persistent grid needs a GPU.
  static llvm::Expected<GridSpec>
  parseOptions(llvm::StringRef grid, const std::optional<std::string> &waves,
               Target target);
};

/// "all" or the count.
std::string formatWaves(int64_t waves);

/// "4x2x1": sizes joined with 'x'.
std::string formatGrid(llvm::ArrayRef<int64_t> grid);

/// The programs of a persistent grid: `multiprocessors` x `blocksPerSM` x
/// `waves`, at most `cap` (0: no cap); with GridSpec::kAllWaves, the cap.
/// An error when not one block fits on an SM, or all waves without a cap.
llvm::Expected<int64_t> getPersistentGridSize(int multiprocessors,
                                              int blocksPerSM, int64_t cap,
                                              int64_t waves = 1);

/// The programs along x of a persistent launch of `function` with
/// `blockSize` threads per block on `device`: as many blocks as fit on the
/// GPU at once (cuOccupancyMaxActiveBlocksPerMultiprocessor), at most `cap`;
/// for a kernel in clusters, every cluster that fits at once
/// (cuOccupancyMaxActiveClusters), at most `cap` clusters, times the
/// cluster's size; `waves` times that (GridSpec::waves, kAllWaves: `cap`).
/// `note`, when given, says how it was sized: " (persistent: 132 SMs x 4
/// blocks per SM)". An error when not one block (or cluster) fits.
llvm::Expected<int64_t> getPersistentGrid(const CudaDevice &device,
                                          const CudaFunction &function,
                                          unsigned blockSize, int64_t cap,
                                          std::string *note = nullptr,
                                          int64_t waves = 1);

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_GRID_H
