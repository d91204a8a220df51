//===- Tuner.h - Choosing meta-parameters by timing them --------*- C++ -*-===//
//
// The counterpart of Triton's @triton.autotune, for a kernel file whose
// meta-parameters declare the values they may take
// (`// tile.param NUM_WARPS = 4 in 1, 2, 4, 8, 16`, docs/preprocessor.md):
//
//   TuneOptions options;                      // -D by hand, the GPU, ...
//   auto report = tuneKernel(**source, args, options);
//   report->print(llvm::outs());              // every configuration, by time
//   storeTuning(cacheDir, key, *report->getBest());
//
// and of a cache of the winners, so that a later launch in the same shape
// bucket starts with them (lookupTuning). See docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TUNER_H
#define TILE_RUNTIME_TUNER_H

#include "tile/Runtime/KernelRunner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tile {

//===----------------------------------------------------------------------===//
// The search space
//===----------------------------------------------------------------------===//

/// One point of a kernel's search space: a value for each tuned parameter.
struct TuneConfig {
  /// "NAME=VALUE" per tuned parameter, in declaration order.
  std::vector<std::string> defines;
  /// With a persistent grid whose waves are not set by hand, the waves it
  /// launches (GridSpec::waves): the tuner searches kTunedWaves too.
  std::optional<int64_t> waves;
  /// "NUM_WARPS=16 NUM_STAGES=1", then " waves=2" when the waves are
  /// searched; "(defaults)" when nothing is tuned.
  std::string str() const;
};

/// The waves a persistent grid is tuned over: one, two, four, and one
/// program per item (GridSpec::kAllWaves, with a cap). On an H100, rows of
/// 32768 floats ran 5% faster with one program per row than in one wave
/// (SMs finish a fixed share of rows at different times; more programs let
/// the GPU's scheduler even them out), bench/results/
/// 2026-11-24-h100-grid-experiment.log.
inline constexpr int64_t kTunedWaves[] = {1, 2, 4, GridSpec::kAllWaves};

/// Every combination of the declared values of the integer parameters in
/// `params` that were not set by hand (KernelParam::isDefined), in
/// declaration order, the last parameter varying fastest. Type parameters
/// say what the data is and are not searched. One empty configuration when
/// nothing is left to search.
std::vector<TuneConfig>
enumerateSearchSpace(llvm::ArrayRef<KernelParam> params);

//===----------------------------------------------------------------------===//
// Tuning
//===----------------------------------------------------------------------===//

struct TuneOptions {
  /// The kernel's name and the -D set by hand, which stay fixed.
  KernelSource::Options source;
  /// The launch (the CUDA target: a grid, the GPU, how to compile).
  RunOptions run;
  BenchOptions bench;
  /// Tolerances of the comparison with the interpreter.
  CheckOptions check;
  /// Where a line per configuration goes while tuning (null: nowhere).
  llvm::raw_ostream *progress = nullptr;
  /// Time every configuration the launch admits, dominated ones and those
  /// that spill included: what the pruning is checked against.
  bool exhaustive = false;
  /// The fastest median so far, shared between searches of variants
  /// (tuneVariants) for stopping slow configurations early; null: each
  /// search keeps its own.
  double *fastest = nullptr;
  /// The interpreter's results for this launch, shared between searches of
  /// kernels that compute the same (tuneVariants): used when set, filled
  /// when empty. Null: each search runs the interpreter itself.
  std::optional<llvm::SmallVector<KernelArg>> *reference = nullptr;
  /// The shape bucket of each argument (getShapeBucket) for the tuning
  /// cache, where the arguments do not carry their shapes: a launch on
  /// buffers that are on the GPU already (the C API) passes empty buffers to
  /// loadTunedKernel, and their buckets here. Empty: from the arguments.
  std::vector<std::string> buckets;
};

/// Why the tiles of `source`'s kernel cannot fit in registers by the
/// register estimate (tile/Analysis/RegisterEstimate.h), with the warps of
/// `options` where the kernel names none; empty when they fit. Defaults
/// fitted to a launch use it (fitToLaunch); the tuner does not, leaving the
/// configurations to ptxas's spill count: the estimate is conservative.
std::string checkRegisterRoom(const KernelSource &source,
                              const CompileOptions &options);

/// What became of one configuration.
struct TuneEntry {
  enum class Outcome {
    /// Ran, matched the interpreter and was timed.
    Timed,
    /// The launch breaks a promise of the kernel's arguments
    /// (tile.max_value): the tile is too small for this launch.
    Inadmissible,
    /// Another configuration that differs in one parameter admits the
    /// launch with tighter bounds (a larger block only adds masked lanes),
    /// or has the same tiles and fewer threads where this one has more
    /// threads than its largest tile has elements.
    Dominated,
    /// Did not preprocess, verify or compile.
    CompileFailed,
    /// Compiled, but spills registers to local memory.
    Spills,
    /// Failed to load or run on the GPU.
    RunFailed,
    /// Ran, but its result differs from the interpreter's.
    Wrong,
  };
  TuneConfig config;
  /// tuneVariants: which kernel the configuration is of, and its file's
  /// name (empty for a single kernel).
  unsigned variant = 0;
  std::string variantName;
  /// "NUM_WARPS=16 NUM_STAGES=1", after "softmax.mlir: " for a variant.
  std::string getLabel() const;
  Outcome outcome = Outcome::Timed;
  /// Why it was skipped (empty when timed).
  std::string reason;
  /// An exhaustive search: why a pruned search would have skipped it
  /// ("dominated", "spills"; empty when it would not have).
  std::string pruned;
  /// Whether its results were compared with the interpreter's and matched:
  /// the timed configurations are checked in order of time until one
  /// matches, and that one wins.
  bool checked = false;
  /// Timed: the median of the benchmark, and the kernel's resources.
  double milliseconds = 0;
  /// Its first run took over kStopFactor times the fastest median so far,
  /// and `milliseconds` is that one run's time: it cannot win.
  bool timedOnce = false;
  int registers = 0;
  int localBytes = 0;
};

/// A configuration whose first timed run takes longer than this many times
/// the fastest median so far is timed no further (TuneEntry::timedOnce).
inline constexpr double kStopFactor = 3.0;

/// "timed", "inadmissible", ...
llvm::StringRef getOutcomeName(TuneEntry::Outcome outcome);

/// The result of tuneKernel.
struct TuneReport {
  /// The timed configurations, fastest first, then the others in search
  /// order.
  std::vector<TuneEntry> entries;
  /// How many were compiled, and the whole search, in seconds.
  unsigned compiled = 0;
  double seconds = 0;
  /// The fastest, or null when none could be timed.
  const TuneEntry *getBest() const;
  /// A table: one row per configuration, by time, with why each skipped
  /// one was skipped.
  void print(llvm::raw_ostream &os) const;
};

/// Tunes the kernel of `base` (loaded with the -D set by hand, which
/// `options.source` must repeat) for a launch with `args`: every
/// configuration of its search space is checked against the launch's
/// argument bounds and the register estimate, compiled, run on the GPU,
/// compared with the CPU interpreter's result on the same arguments (the
/// interpreter runs once, with the first configuration that runs), and
/// timed as KernelRunner::benchmark does. An error when no configuration
/// could be timed, saying why each failed.
llvm::Expected<TuneReport> tuneKernel(const KernelSource &base,
                                      llvm::ArrayRef<KernelArg> args,
                                      const TuneOptions &options);

/// Tunes each of `variants`, kernels that compute the same thing with the
/// same signature (the whole-row, many-rows and online softmax), for one
/// launch: the interpreter runs once for all of them, and the report holds
/// every configuration of every variant, by time, each entry naming its
/// variant. An error when nothing could be timed.
llvm::Expected<TuneReport>
tuneVariants(llvm::ArrayRef<const KernelSource *> variants,
             llvm::ArrayRef<KernelArg> args, const TuneOptions &options);

//===----------------------------------------------------------------------===//
// The tuning cache
//===----------------------------------------------------------------------===//

/// The shape bucket of an argument: its element type, and for a buffer its
/// dimensions, for an integer its value, each rounded up to a power of two:
/// "f32[4096x8192]", "i32:8192". A float scalar is its type alone.
std::string getShapeBucket(const ArgSpec &spec);
std::string getShapeBucket(const KernelArg &arg);

/// What a tuning cache entry is keyed by.
struct TuningKey {
  /// Per variant (one kernel, or the kernels a launch chooses between), its
  /// file's text as written and the kernel's name.
  std::vector<std::string> fileTexts;
  std::vector<std::string> kernelNames;
  /// -D set by hand on parameters the search does not vary (types, and
  /// parameters without declared values), sorted: they change the kernel.
  std::vector<std::string> fixedDefines;
  /// The GPU, as listCudaDevices describes it.
  std::string device;
  /// One shape bucket per argument.
  std::vector<std::string> buckets;

  /// A SHA-256 of all of the above and the compiler's version, in hex.
  std::string getDigest() const;
};

/// The -D set by hand that belong in a TuningKey: those on parameters of
/// `params` without declared values, and type parameters.
std::vector<std::string> getFixedDefines(llvm::ArrayRef<KernelParam> params);

/// A tuned choice read back from the cache.
struct TuningChoice {
  /// "NAME=VALUE" per tuned parameter.
  std::vector<std::string> defines;
  /// The persistent grid's waves, where they were tuned.
  std::optional<int64_t> waves;
  /// Which of the key's variants.
  unsigned variant = 0;
  /// Its median time when it was tuned, and the shapes it was tuned on.
  double milliseconds = 0;
  std::string tunedOn;
};

/// The cached choice for `key` under `cacheDir`, or none. An entry that is
/// corrupt, unreadable, or written by another version of tile is ignored
/// with one warning on `warnings`.
std::optional<TuningChoice> lookupTuning(llvm::StringRef cacheDir,
                                         const TuningKey &key,
                                         llvm::raw_ostream &warnings);

/// Stores `best` for `key` (atomically: a temporary file, then a rename).
llvm::Error storeTuning(llvm::StringRef cacheDir, const TuningKey &key,
                        const TuneEntry &best);

/// Where the entry for `key` lives.
std::string getTuningCachePath(llvm::StringRef cacheDir, const TuningKey &key);

/// The key of a launch of `source`'s kernel with `args` on GPU `device`.
llvm::Expected<TuningKey>
getTuningKey(llvm::ArrayRef<const KernelSource *> variants,
             llvm::ArrayRef<KernelArg> args, int device);
/// The same from the arguments' shape buckets (getShapeBucket).
llvm::Expected<TuningKey>
getTuningKey(llvm::ArrayRef<const KernelSource *> variants,
             llvm::ArrayRef<std::string> buckets, int device);

//===----------------------------------------------------------------------===//
// A launch's kernel, tuned
//===----------------------------------------------------------------------===//

/// `base` when its defaults (and -D) fit a launch with `args` (empty: any):
/// every bound (tile.max_value) admits it and, with `registers`, the tiles
/// fit in registers by the estimate. Otherwise the kernel reloaded with the
/// configuration nearest the defaults that fits (fewest steps through the
/// declared values, varying only parameters not set by hand), and what
/// changed and why in `note`; `base` still when none fits.
/// Whether a launch with `args` can run `source`'s kernel as it is: every
/// bound admits it and, with `registers`, its tiles fit in registers.
bool fitsLaunch(const KernelSource &source, llvm::ArrayRef<KernelArg> args,
                bool registers, const CompileOptions &options);

std::unique_ptr<KernelSource> fitToLaunch(std::unique_ptr<KernelSource> base,
                                          llvm::ArrayRef<KernelArg> args,
                                          const TuneOptions &options,
                                          bool registers, std::string &note);

/// Where a launch's meta-parameters come from.
enum class TuningMode {
  /// The tuning cache's choice for the launch's bucket, where it has one
  /// (-D set by hand wins over it); else as IgnoreCache.
  UseCache,
  /// The defaults and -D, fitted to the launch (fitToLaunch; registers on
  /// the CUDA target only).
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
/// the same signature: the cache's choice names one; without it, the first
/// that fits the launch (fitted); with Tune, tuneVariants. Says which on
/// `os` when there are several.
llvm::Expected<std::unique_ptr<KernelSource>>
loadTunedKernel(std::vector<std::unique_ptr<KernelSource>> variants,
                llvm::ArrayRef<KernelArg> args, const TuneOptions &options,
                TuningMode mode, llvm::raw_ostream &os,
                GridSpec *grid = nullptr);

} // namespace mlir::tile

#endif // TILE_RUNTIME_TUNER_H
