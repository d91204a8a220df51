//===- LaunchConfig.h - The configuration a launch runs ---------*- C++ -*-===//
//
// What a launch of a kernel file (or of several variants) runs: the tuning
// cache's choice for its bucket, the declared defaults fitted to the launch
// (its argument bounds, and its tiles in registers), or the winner of a
// tuning run made now. See docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LAUNCHCONFIG_H
#define TILE_RUNTIME_LAUNCHCONFIG_H

#include "tile/Runtime/CostModel.h"
#include "tile/Runtime/Grid.h"
#include "tile/Runtime/KernelSource.h"
#include "tile/Runtime/Tuner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tile {

/// The registers per thread the tiles of `source`'s kernel keep live over
/// `warps` warps by the register estimate (tile/Analysis/RegisterEstimate.h),
/// on the kernel canonicalized as the pipeline first sees it; the reserve
/// for scalars not included.
unsigned estimateKernelRegisters(const KernelSource &source, unsigned warps);

/// Why the tiles of `source`'s kernel cannot fit in registers by the
/// register estimate (tile/Analysis/RegisterEstimate.h), with the warps of
/// `options` where the kernel names none; empty when they fit. Defaults
/// fitted to a launch use it (fitToLaunch); the tuner does not, leaving the
/// configurations to ptxas's spill count: the estimate is conservative.
std::string checkRegisterRoom(const KernelSource &source,
                              const CompileOptions &options);

/// Whether a launch with `args` can run `source`'s kernel as it is: every
/// bound admits it and, with `registers`, its tiles fit in registers.
bool fitsLaunch(const KernelSource &source, llvm::ArrayRef<KernelArg> args,
                bool registers, const CompileOptions &options);

/// `base` when its defaults (and -D) fit a launch with `args` (empty: any):
/// every bound (tile.max_value) admits it and, with `registers`, the tiles
/// fit in registers by the estimate. Otherwise the kernel reloaded with the
/// configuration nearest the defaults that fits (fewest steps through the
/// declared values, varying only parameters not set by hand), and what
/// changed and why in `note`; `base` still when none fits.
std::unique_ptr<KernelSource> fitToLaunch(std::unique_ptr<KernelSource> base,
                                          llvm::ArrayRef<KernelArg> args,
                                          const TuneOptions &options,
                                          bool registers, std::string &note);

/// The cost model's choice for a launch (tile/Runtime/CostModel.h).
struct ModelChoice {
  /// Which of the variants, and its configuration (with the waves of a
  /// persistent grid whose waves were not set by hand).
  unsigned variant = 0;
  TuneConfig config;
  LaunchEstimate estimate;
};

/// The configuration of `variants` (kernels that compute the same) the
/// cost model expects to run a launch with `args` on `grid` fastest, on the
/// GPU `options.run.device` (the H100's figures without one): every
/// configuration of each variant's declared space (the -D set by hand kept)
/// that admits the launch, with each of the tuner's waves on a persistent
/// grid, estimated. None when no configuration admits the launch without
/// spilling by the register estimate, and for kernels with a tile.dot, whose
/// mma fragments the estimate counts too roughly to choose tiles without
/// compiling them (they run the fitted defaults).
std::optional<ModelChoice>
chooseByModel(llvm::ArrayRef<const KernelSource *> variants,
              llvm::ArrayRef<KernelArg> args, const TuneOptions &options,
              const GridSpec &grid);

/// Where a launch's meta-parameters come from.
enum class TuningMode {
  /// The tuning cache's choice for the launch's bucket, where it has one
  /// (-D set by hand wins over it); else as IgnoreCache.
  UseCache,
  /// On the CUDA target, the cost model's choice (chooseByModel); on the
  /// CPU, or where the model has none, the defaults and -D fitted to the
  /// launch (fitToLaunch; registers on the CUDA target only).
  IgnoreCache,
  /// Tune now (tuneKernel), store the winner, and use it.
  Tune,
};

/// The kernel a launch of `base` (loaded with `options.source`, the -D set
/// by hand) with `args` on the CUDA target runs, its meta-parameters chosen
/// by `mode`: `base` itself, or the kernel reloaded with the cached or tuned
/// choice. Says on `os` where the choice came from (the first line of a run
/// that uses the cache), and with Tune prints the report there; progress
/// goes to `options.progress`. Cache warnings go to the source's
/// diagnostic stream. Where the choice includes a persistent grid's waves
/// and `grid` has none set by hand, sets them in `grid`.
llvm::Expected<std::unique_ptr<KernelSource>>
loadTunedKernel(std::unique_ptr<KernelSource> base,
                llvm::ArrayRef<KernelArg> args, const TuneOptions &options,
                TuningMode mode, llvm::raw_ostream &os,
                GridSpec *grid = nullptr);

/// The same choosing between `variants`, kernels that compute the same with
/// the same signature: the cache's choice names one; without it, the
/// model's (on the CPU, the first that fits the launch, fitted); with Tune,
/// tuneVariants. Says which on `os` when there are several.
llvm::Expected<std::unique_ptr<KernelSource>>
loadTunedKernel(std::vector<std::unique_ptr<KernelSource>> variants,
                llvm::ArrayRef<KernelArg> args, const TuneOptions &options,
                TuningMode mode, llvm::raw_ostream &os,
                GridSpec *grid = nullptr);

} // namespace mlir::tile

#endif // TILE_RUNTIME_LAUNCHCONFIG_H
