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
// The winners are kept in a cache of their own (TuningCache.h), so that a
// later launch in the same shape bucket starts with them, and LaunchConfig.h
// chooses what a launch runs. See docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TUNER_H
#define TILE_RUNTIME_TUNER_H

#include "tile/Runtime/Check.h"
#include "tile/Runtime/KernelRunner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
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

/// Which stores a launch consults for a tuned choice, in this order: the
/// tuning cache's entry for the launch, then the databases imported into
/// the cache (--tune-import), then the shipped ones (TuningDatabase.h).
struct TuningStores {
  bool cache = true;
  bool databases = true;
};

/// The interpreter's runs of a launch that a tune keeps to check its
/// configurations against (checkTuneResult): a configuration's results
/// pass if they match one of them, else they are checked against the
/// interpreter's run of their own kernel and grid. What a kernel stores may
/// depend on both (partial results one row per program, rows assigned by
/// its parameters). Holds copies of the launch's buffers: for one launch's
/// arguments only.
using ReferenceCache = std::vector<Reference>;

/// The interpreter runs a tune keeps: each holds a copy of the launch's
/// buffers.
inline constexpr size_t kMaxTuneReferences = 2;

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
  /// Time only the `top` configurations the cost model ranks first
  /// (tile/Runtime/CostModel.h) of each kernel; 0: every one pruning keeps.
  /// Configurations are timed in the model's order either way. The tools
  /// and the C API default to kDefaultTuneTop.
  unsigned top = 0;
  /// The fastest median so far, shared between searches of variants
  /// (tuneVariants) for stopping slow configurations early; null: each
  /// search keeps its own.
  double *fastest = nullptr;
  /// The interpreter's runs of this launch, shared between searches of
  /// variants (tuneVariants); null: each search keeps its own.
  ReferenceCache *references = nullptr;
  /// Where a launch looks for a stored choice (TuningMode::UseCache): the
  /// tuning cache, and the imported and shipped tuning databases.
  TuningStores stores;
  /// Whether a launch with no stored choice on the CUDA target runs the
  /// cost model's choice (chooseByModel), rather than the fitted defaults.
  bool model = true;
  /// The shape bucket of each argument (getShapeBucket) for the tuning
  /// cache, where the arguments do not carry their shapes: a launch on
  /// buffers that are on the GPU already (the C API) passes empty buffers to
  /// loadTunedKernel, and their buckets here. Empty: from the arguments.
  std::vector<std::string> buckets;
};

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
    /// Not timed: the cost model ranks it below the first TuneOptions::top.
    Unranked,
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
  /// A finalist: `milliseconds` is the median of this many benchmarks run
  /// in turn with the other finalists' (0: of its one benchmark).
  unsigned confirmedRounds = 0;
};

/// How many configurations of each kernel tile-run --tune, the C API's
/// tuner and the Python package's time by default: the cost model's first
/// 32. On the H100's softmax sweep the fastest of them was within 2% of the
/// fastest of all at 76 of 78 shapes (bench/results/
/// 2026-11-27-model-eval-6.md), and the search took a median of 7.4 s a
/// shape (run 32); timing every configuration took 13-60 s.
inline constexpr unsigned kDefaultTuneTop = 32;

/// A configuration whose first timed run takes longer than this many times
/// the fastest median so far is timed no further (TuneEntry::timedOnce).
inline constexpr double kStopFactor = 3.0;

/// The finalists of a search: the configurations timed within
/// kFinalistMargin of the fastest, at most kFinalists of them (of every
/// variant), are benchmarked again kFinalistRounds times in turn, and the
/// fastest median of its rounds wins. One benchmark each leaves the
/// winner to chance between configurations a few percent apart: two
/// timings of one kernel differ by 1-3% between benchmarks (and up to 9%
/// at launches of a few microseconds), and the fastest of 30 noisy medians
/// is biased low. Each round of a finalist times at least
/// kFinalistMilliseconds of its launches (at most kFinalistRepetitions of
/// them): the median of 100 launches of 5 us varies by 1-2% between
/// benchmarks, enough to order two configurations 3-4% apart wrongly (run 33
/// of the sweep), where 400 launches narrow it to well under 1%. Four
/// finalists of three rounds of 2 ms were still not enough at launches of
/// about 14 us: two runs of the sweep chose configurations 3.4% apart at
/// 4096 x 1536 f16 (run 56, docs/tuning.md), so there are eight finalists of
/// five rounds of 5 ms each (at most 0.2 s of launches a shape).
inline constexpr double kFinalistMargin = 0.05;
inline constexpr unsigned kFinalists = 8;
inline constexpr unsigned kFinalistRounds = 5;
inline constexpr double kFinalistMilliseconds = 5.0;
inline constexpr unsigned kFinalistRepetitions = 2000;

/// The repetitions of each finalist's round when the fastest median of the
/// search is `fastestMilliseconds` and a benchmark times `repetitions`
/// launches: enough for kFinalistMilliseconds, at most kFinalistRepetitions.
unsigned getFinalistRepetitions(double fastestMilliseconds,
                                unsigned repetitions);

/// "timed", "inadmissible", ...
llvm::StringRef getOutcomeName(TuneEntry::Outcome outcome);

struct TuneReport;
/// Orders `report` as the tuner leaves it: the timed entries first, and of
/// them the finalists (timed again: TuneEntry::confirmedRounds) by the
/// medians of their rounds, then the others by the search's one timing
/// (the two kinds of figure are not compared: Tuner.cpp); then the rest,
/// in search order.
void sortFinalistsFirst(TuneReport &report);
/// Leaves a configuration that matches the interpreter in front of
/// `report`: orders it (sortFinalistsFirst) and checks its front entry with
/// `check` until that entry is checked or is not timed. `check` sets the
/// entry's `checked`, or an outcome other than Timed where it fails; it
/// returns false where it cannot check the entry (a configuration the
/// search did not keep), which then cannot win: the tuner never answers
/// with an unchecked configuration.
llvm::Error
checkFront(TuneReport &report,
           llvm::function_ref<llvm::Expected<bool>(TuneEntry &)> check);

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

/// A tune's check of one configuration (TuneCheck.cpp): compares `result`,
/// a run of `source` (`log`, what its compile said), with the interpreter's
/// on `args`. It passes where it matches one of `references`; else it is
/// checked against the interpreter's run of `source` on its own grid, which
/// joins `references` (the last kMaxTuneReferences are kept). Marks `entry`
/// checked, wrong, or failed where the interpreter fails on its kernel.
void checkTuneResult(const KernelSource &source, const RunResult &result,
                     llvm::ArrayRef<KernelArg> args, const TuneOptions &options,
                     llvm::StringRef log, ReferenceCache &references,
                     TuneEntry &entry);

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

} // namespace mlir::tile

#endif // TILE_RUNTIME_TUNER_H
