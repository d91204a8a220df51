//===- Tuner.cpp - Choosing meta-parameters by timing them ----------------===//
//
// The search of a kernel's declared space (enumerated, and reported, in
// TuneReport.cpp): pruning configurations that cannot win, compiling,
// measuring and verifying the rest against the interpreter, and timing the
// finalists again. See Tuner.h and docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Tuner.h"

#include "Text.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Runtime/Check.h"
#include "tile/Runtime/CostModel.h"
#include "tile/Runtime/Timings.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A configuration on its way through the search.
struct Candidate {
  TuneEntry entry;
  /// What the kernel's diagnostics said (each candidate has its own, so
  /// that candidates compile on threads of their own).
  /// Shared by the candidates that differ only in their waves.
  std::shared_ptr<std::string> log = std::make_shared<std::string>();
  std::shared_ptr<llvm::raw_string_ostream> logStream =
      std::make_shared<llvm::raw_string_ostream>(*log);
  std::shared_ptr<KernelSource> source;
  /// Per argument, its tile.max_value (the largest int64 without one).
  std::vector<int64_t> bounds;
  /// The threads of a block, and the elements of the largest tile.
  int64_t threads = 0, largestTile = 0;
  /// Whether the kernel asks for room for several blocks per SM
  /// (tile.min_blocks_per_sm > 1): its spills are the price it chose, so it
  /// is timed with them.
  bool asksForBlocks = false;
  /// The cost model's estimate of its launch, in seconds (infinite where it
  /// spills by the register estimate or cannot be estimated).
  double estimate = std::numeric_limits<double>::infinity();
  /// The whole estimate, as isRankedBefore orders candidates (seconds
  /// infinite where `estimate` is).
  LaunchEstimate rank = unranked();
  bool pending() const {
    return entry.outcome == TuneEntry::Outcome::Timed && source;
  }
  static LaunchEstimate unranked() {
    LaunchEstimate estimate;
    estimate.seconds = std::numeric_limits<double>::infinity();
    return estimate;
  }
};
} // namespace

/// Preprocesses and verifies `config`, and checks it against the launch's
/// argument bounds and the register estimate.
static Candidate prepare(llvm::StringRef text, llvm::StringRef path,
                         const TuneConfig &config,
                         llvm::ArrayRef<KernelArg> args,
                         const TuneOptions &options) {
  Candidate candidate;
  candidate.entry.config = config;
  KernelSource::Options sourceOptions = options.source;
  llvm::append_range(sourceOptions.defines, config.defines);
  sourceOptions.diagnostics = candidate.logStream.get();
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      KernelSource::loadString(text, path, sourceOptions);
  if (!source) {
    std::string message = llvm::toString(source.takeError());
    candidate.entry.outcome = TuneEntry::Outcome::CompileFailed;
    candidate.entry.reason =
        candidate.log->empty() ? message : firstLine(*candidate.log);
    return candidate;
  }
  FuncOp kernel = (*source)->getKernel();
  for (auto [index, arg] : llvm::enumerate(args)) {
    auto bound = kernel.getArgAttrOfType<IntegerAttr>(
        index, TileDialect::getMaxValueAttrName());
    candidate.bounds.push_back(bound ? bound.getInt()
                                     : std::numeric_limits<int64_t>::max());
    if (arg.isBuffer() || isFloatDataType(arg.getDataType()))
      continue;
    std::string broken =
        checkIntegerArgument(kernel, index, arg.getScalar().getSExtValue());
    if (!broken.empty()) {
      candidate.entry.outcome = TuneEntry::Outcome::Inadmissible;
      candidate.entry.reason = broken;
      return candidate;
    }
  }
  // No configuration is dropped on the register estimate: it is
  // conservative (an elementwise chain counts as whole tiles), and ptxas
  // often fits what it doubts. The compiled kernel's spills decide.
  candidate.threads = 32 * getKernelNumWarps(kernel, options.run.compile);
  if (auto blocks = kernel->getAttrOfType<IntegerAttr>(
          TileDialect::getMinBlocksPerSMAttrName()))
    candidate.asksForBlocks = blocks.getInt() > 1;
  kernel.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && tensor.hasStaticShape())
        candidate.largestTile =
            std::max(candidate.largestTile, tensor.getNumElements());
  });
  candidate.source = std::move(*source);
  return candidate;
}

/// The index of the one define in which `a` and `b` differ, or -1.
static int getOnlyDifference(const TuneConfig &a, const TuneConfig &b) {
  int difference = -1;
  for (size_t i = 0, e = a.defines.size(); i < e; ++i) {
    if (a.defines[i] == b.defines[i])
      continue;
    if (difference != -1)
      return -1;
    difference = static_cast<int>(i);
  }
  return difference;
}

/// Marks as dominated each candidate that another, differing in one
/// parameter, beats on the bounds (no looser anywhere, tighter somewhere),
/// or that has more threads than its largest tile has elements where
/// another with the same tiles has fewer threads.
static void pruneDominated(std::vector<Candidate> &candidates) {
  for (Candidate &loose : candidates) {
    if (!loose.pending())
      continue;
    for (const Candidate &tight : candidates) {
      if (&tight == &loose || !tight.source ||
          tight.entry.outcome == TuneEntry::Outcome::Inadmissible ||
          getOnlyDifference(tight.entry.config, loose.entry.config) < 0)
        continue;
      if (loose.largestTile < loose.threads &&
          tight.largestTile == loose.largestTile &&
          tight.threads < loose.threads) {
        loose.entry.outcome = TuneEntry::Outcome::Dominated;
        loose.entry.reason = llvm::formatv(
            "its {0} threads outnumber the {1} elements of its "
            "largest tile; {2} has fewer",
            loose.threads, loose.largestTile, tight.entry.config.str());
        break;
      }
      bool noLooser = true, tighter = false;
      for (auto [t, l] : llvm::zip_equal(tight.bounds, loose.bounds)) {
        noLooser &= t <= l;
        tighter |= t < l;
      }
      if (noLooser && tighter) {
        loose.entry.outcome = TuneEntry::Outcome::Dominated;
        loose.entry.reason =
            tight.entry.config.str() + " admits the launch with tighter bounds";
        break;
      }
    }
  }
}

/// The grids launched so far, per kernel: which waves launched them.
using GridsSeen = std::map<std::pair<const KernelSource *, int64_t>, int64_t>;

/// `runOptions` with the waves of `config`, where it has them.
static RunOptions withWaves(const RunOptions &runOptions,
                            const TuneConfig &config) {
  RunOptions result = runOptions;
  if (config.waves)
    result.grid.waves = config.waves;
  return result;
}

/// Runs and times one candidate (its results stay on the GPU); sets its
/// outcome.
static void measure(Candidate &candidate, llvm::ArrayRef<KernelArg> args,
                    const TuneOptions &options, const RunOptions &runOptions,
                    const DeviceArguments *sharedArgs, unsigned &compiled,
                    double fastest, GridsSeen &grids) {
  TuneEntry &entry = candidate.entry;
  auto fail = [&](TuneEntry::Outcome outcome, llvm::Error err) {
    entry.outcome = outcome;
    entry.reason = firstLine(llvm::toString(std::move(err)));
  };
  RunOptions timing = withWaves(runOptions, entry.config);
  timing.copyBack = false;
  timing.sharedArgs = sharedArgs;
  llvm::Expected<std::unique_ptr<KernelRunner>> runner =
      KernelRunner::create(*candidate.source, timing);
  if (!runner)
    return fail(TuneEntry::Outcome::RunFailed, runner.takeError());
  llvm::Expected<RunResult> result = (*runner)->run(args);
  if ((*runner)->getCompiled())
    ++compiled;
  if (!result)
    return fail((*runner)->getFunction() ? TuneEntry::Outcome::RunFailed
                                         : TuneEntry::Outcome::CompileFailed,
                result.takeError());
  // Waves that launch the grid other waves did (a cap reached) are the
  // same launch: timed once.
  if (entry.config.waves) {
    int64_t programs = 1;
    for (int64_t size : result->grid)
      programs *= size;
    auto [seen, inserted] = grids.try_emplace(
        {candidate.source.get(), programs}, *entry.config.waves);
    if (!inserted) {
      entry.outcome = TuneEntry::Outcome::Dominated;
      entry.reason = llvm::formatv("launches the same {0} programs as "
                                   "waves={1}",
                                   programs, formatWaves(seen->second));
      return;
    }
  }
  const CudaFunction &function = *(*runner)->getFunction();
  entry.registers = function.numRegisters;
  entry.localBytes = function.localBytes;
  if (function.localBytes > 0 && options.exhaustive && entry.pruned.empty())
    entry.pruned = "spills";
  if (function.localBytes > 0 && !options.exhaustive &&
      !candidate.asksForBlocks) {
    entry.outcome = TuneEntry::Outcome::Spills;
    entry.reason = llvm::formatv("{0} bytes of local memory per thread, {1} "
                                 "registers",
                                 function.localBytes, function.numRegisters);
    return;
  }
  BenchOptions benchOptions = options.bench;
  if (fastest > 0)
    benchOptions.stopAfterMilliseconds = kStopFactor * fastest;
  llvm::Expected<BenchReport> bench = (*runner)->benchmark(benchOptions);
  if (!bench)
    return fail(TuneEntry::Outcome::RunFailed, bench.takeError());
  entry.milliseconds = bench->times.median;
  entry.timedOnce = bench->times.stoppedEarly;
}

/// Runs a timed candidate again and checks its results against the
/// interpreter's (checkTuneResult); marks it checked, wrong or failed.
static void verify(Candidate &candidate, llvm::ArrayRef<KernelArg> args,
                   const TuneOptions &options, const RunOptions &runOptions,
                   ReferenceCache &references) {
  TuneEntry &entry = candidate.entry;
  llvm::Expected<std::unique_ptr<KernelRunner>> runner = KernelRunner::create(
      *candidate.source, withWaves(runOptions, entry.config));
  llvm::Expected<RunResult> result =
      runner ? (*runner)->run(args) : runner.takeError();
  if (!result) {
    entry.outcome = TuneEntry::Outcome::RunFailed;
    entry.reason = firstLine(llvm::toString(result.takeError()));
    return;
  }
  checkTuneResult(*candidate.source, *result, args, options, *candidate.log,
                  references, entry);
}

/// Sorts `report`'s timed entries fastest first.
static void sortByTime(TuneReport &report) {
  auto timed = std::stable_partition(
      report.entries.begin(), report.entries.end(), [](const TuneEntry &e) {
        return e.outcome == TuneEntry::Outcome::Timed;
      });
  std::stable_sort(report.entries.begin(), timed,
                   [](const TuneEntry &a, const TuneEntry &b) {
                     return a.milliseconds < b.milliseconds;
                   });
}

/// How every candidate is compiled and run: for this GPU, to cubins where
/// the toolkit's ptxas is at hand (loading a cubin takes no JIT).
static RunOptions getSearchRunOptions(const TuneOptions &options,
                                      const CudaDevice &device) {
  RunOptions runOptions = options.run;
  runOptions.warnOnSpill = false;
  if (runOptions.compile.chip.empty())
    runOptions.compile.chip = device.getInfo().getCompileChip();
  llvm::SmallString<128> ptxas(runOptions.compile.cudaPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(ptxas))
    runOptions.compile.format = OutputFormat::Cubin;
  return runOptions;
}

/// The search of tuneKernel; a report with nothing timed is no error here.
/// Its timed configurations (those timed once too, which cannot be
/// finalists but can be checked) are appended to `timed`.
static llvm::Expected<TuneReport> searchKernel(const KernelSource &base,
                                               llvm::ArrayRef<KernelArg> args,
                                               const TuneOptions &options,
                                               std::vector<Candidate> &timed) {
  Clock::time_point start = Clock::now();
  if (options.run.target != Target::CUDA)
    return llvm::createStringError(
        "tuning times the kernel on a GPU (--target=cuda)");
  llvm::StringRef text = base.getText(), path = base.getFileName();
  if (llvm::Error err = base.checkArgumentCount(args.size()))
    return std::move(err);
  // Holding the GPU for the whole search lets each configuration's runner
  // find its context open.
  llvm::Expected<std::unique_ptr<CudaDevice>> device =
      CudaDevice::open(options.run.device);
  if (!device)
    return device.takeError();

  // Each configuration is preprocessed, parsed and verified in a context of
  // its own: on every core (one at a time, the softmax variants' 1208 took
  // 5 s of a 7.6 s search at f32 4096 x 8192 on the H100's host,
  // bench/results/2026-11-27-h100-run31g-tune-top-probe.log).
  std::vector<TuneConfig> configs = enumerateSearchSpace(base.getParams());
  std::vector<Candidate> candidates(configs.size());
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
    for (size_t i = 0, e = configs.size(); i < e; ++i)
      pool.async([&, i] {
        candidates[i] = prepare(text, path, configs[i], args, options);
      });
    pool.wait();
  }
  pruneDominated(candidates);
  if (options.exhaustive)
    for (Candidate &candidate : candidates)
      if (candidate.entry.outcome == TuneEntry::Outcome::Dominated) {
        candidate.entry.outcome = TuneEntry::Outcome::Timed;
        if (candidate.entry.pruned.empty())
          candidate.entry.pruned = "dominated";
      }
  // A persistent grid whose waves are not set by hand: each configuration
  // at each of kTunedWaves (all of them only with a cap to launch).
  const GridSpec &grid = options.run.grid;
  if (grid.persistent && !grid.waves) {
    std::vector<Candidate> expanded;
    for (Candidate &candidate : candidates) {
      if (!candidate.pending()) {
        expanded.push_back(std::move(candidate));
        continue;
      }
      for (int64_t waves : kTunedWaves) {
        if (waves == GridSpec::kAllWaves && grid.cap == 0)
          continue;
        expanded.push_back(candidate);
        expanded.back().entry.config.waves = waves;
      }
    }
    candidates = std::move(expanded);
  }

  RunOptions runOptions = getSearchRunOptions(options, **device);
  // Timed in the cost model's order (CostModel.h): a fast configuration
  // comes early and stops the slow ones after one run; with
  // TuneOptions::top, only the first are timed.
  GpuModel gpu = GpuModel::fromDevice((*device)->getInfo());
  std::vector<Candidate *> order;
  for (Candidate &candidate : candidates) {
    if (!candidate.pending())
      continue;
    llvm::Expected<LaunchEstimate> estimate =
        estimateLaunch(*candidate.source, args,
                       withWaves(runOptions, candidate.entry.config).grid, gpu,
                       runOptions.compile.numWarps);
    if (estimate && !estimate->spills) {
      candidate.estimate = estimate->seconds;
      candidate.rank = *estimate;
    } else if (estimate) {
      // Spills by the estimate: after every one that fits, the nearest to
      // fitting first (isRankedBefore), not in the space's order (NUM_WARPS=1
      // and 2 first, the worst spills).
      candidate.rank = *estimate;
    } else {
      llvm::consumeError(estimate.takeError());
    }
    order.push_back(&candidate);
  }
  llvm::stable_sort(order, [](const Candidate *a, const Candidate *b) {
    return isRankedBefore(a->rank, b->rank);
  });
  if (options.top > 0 && order.size() > options.top) {
    for (Candidate *candidate : llvm::drop_begin(order, options.top)) {
      candidate->entry.outcome = TuneEntry::Outcome::Unranked;
      candidate->entry.reason = llvm::formatv(
          "the model ranks it below the first {0} (estimated {1:f1} us)",
          options.top, candidate->estimate * 1e6);
    }
    order.resize(options.top);
  }
  // Compiled first on every core into the compile cache, where each run
  // then finds its kernel; without a cache, each run compiles its own.
  if (!runOptions.compile.cacheDir.empty()) {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
    llvm::SmallPtrSet<const KernelSource *, 16> queued;
    for (Candidate *next : order) {
      Candidate &candidate = *next;
      if (!queued.insert(candidate.source.get()).second)
        continue;
      pool.async([&candidate, &args, &runOptions] {
        // A failure is the run's to report.
        llvm::consumeError(
            candidate.source->compile(args, runOptions.compile).takeError());
      });
    }
    pool.wait();
  }

  // One copy of the arguments on the GPU for every timing run (the
  // checked runs copy their own).
  std::optional<DeviceArguments> sharedArgs;
  {
    llvm::Expected<DeviceArguments> created =
        DeviceArguments::create(**device, args, runOptions.guards);
    if (!created)
      return created.takeError();
    sharedArgs.emplace(std::move(*created));
  }

  double ownFastest = 0;
  double &fastest = options.fastest ? *options.fastest : ownFastest;
  GridsSeen grids;
  TuneReport report;
  unsigned pending = order.size();
  unsigned done = 0;
  for (Candidate *next : order) {
    Candidate &candidate = *next;
    if (options.progress)
      *options.progress << llvm::formatv("tune: [{0}/{1}] {2}: ", ++done,
                                         pending, candidate.entry.config.str());
    measure(candidate, args, options, runOptions,
            sharedArgs ? &*sharedArgs : nullptr, report.compiled, fastest,
            grids);
    if (candidate.entry.outcome == TuneEntry::Outcome::Timed &&
        !candidate.entry.timedOnce &&
        (fastest == 0 || candidate.entry.milliseconds < fastest))
      fastest = candidate.entry.milliseconds;
    if (options.progress) {
      if (candidate.entry.outcome == TuneEntry::Outcome::Timed)
        *options.progress << llvm::formatv("{0:f4} ms\n",
                                           candidate.entry.milliseconds);
      else
        *options.progress << getOutcomeName(candidate.entry.outcome) << ": "
                          << candidate.entry.reason << "\n";
      options.progress->flush();
    }
  }

  // The fastest whose results match the interpreter's wins: checked in
  // order of time until one does, so that no unchecked configuration can.
  std::vector<Candidate *> byTime;
  for (Candidate &candidate : candidates)
    if (candidate.pending())
      byTime.push_back(&candidate);
  llvm::stable_sort(byTime, [](const Candidate *a, const Candidate *b) {
    return a->entry.milliseconds < b->entry.milliseconds;
  });
  ReferenceCache ownReferences;
  ReferenceCache &references =
      options.references ? *options.references : ownReferences;
  for (Candidate *candidate : byTime) {
    verify(*candidate, args, options, runOptions, references);
    if (options.progress)
      *options.progress << "tune: checked " << candidate->entry.config.str()
                        << ": "
                        << (candidate->entry.checked ? "matches the interpreter"
                                                     : candidate->entry.reason)
                        << "\n";
    if (candidate->entry.checked)
      break;
  }

  for (Candidate &candidate : candidates) {
    // Every timed configuration, so that any can be checked later; those
    // timed once (stopped early, slow) cannot be finalists.
    if (candidate.pending())
      timed.push_back(candidate);
    report.entries.push_back(std::move(candidate.entry));
  }
  sortByTime(report);
  report.seconds = secondsSince(start);
  return report;
}

/// The error of a search in which nothing could be timed, saying why each
/// configuration failed.
static llvm::Error noneTimed(const TuneReport &report, llvm::StringRef what) {
  std::string why;
  llvm::raw_string_ostream os(why);
  os << "no configuration of " << what << " could be timed:\n";
  for (const TuneEntry &entry : report.entries)
    os << "  " << entry.getLabel() << ": " << getOutcomeName(entry.outcome)
       << ", " << entry.reason << "\n";
  return llvm::createStringError(llvm::StringRef(why).rtrim());
}

/// The entry of `report` that `candidate` is (of variant `variant`).
static TuneEntry *findEntry(TuneReport &report, const Candidate &candidate) {
  for (TuneEntry &entry : report.entries)
    if (entry.variant == candidate.entry.variant &&
        entry.config.defines == candidate.entry.config.defines &&
        entry.config.waves == candidate.entry.config.waves)
      return &entry;
  return nullptr;
}

unsigned mlir::tile::getFinalistRepetitions(double fastestMilliseconds,
                                            unsigned repetitions) {
  if (!(fastestMilliseconds > 0))
    return repetitions;
  double wanted = std::ceil(kFinalistMilliseconds / fastestMilliseconds);
  if (wanted <= repetitions)
    return repetitions;
  return wanted >= kFinalistRepetitions
             ? std::max(repetitions, kFinalistRepetitions)
             : static_cast<unsigned>(wanted);
}

/// After the finalists' rounds: the finalists first, by the medians of
/// their rounds, then the others by the search's one timing. The two are
/// not compared: a finalist's rounds can come out slower than its first
/// timing (on an H200, in run 103, five finalists within 5% of each other
/// all ran slower in their rounds than the sixth configuration's first
/// timing, which then won, timed once).
void mlir::tile::sortFinalistsFirst(TuneReport &report) {
  sortByTime(report);
  auto timedEnd = llvm::find_if(report.entries, [](const TuneEntry &e) {
    return e.outcome != TuneEntry::Outcome::Timed;
  });
  std::stable_partition(
      report.entries.begin(), timedEnd,
      [](const TuneEntry &e) { return e.confirmedRounds > 0; });
}

llvm::Error mlir::tile::checkFront(
    TuneReport &report,
    llvm::function_ref<llvm::Expected<bool>(TuneEntry &)> check) {
  while (true) {
    sortFinalistsFirst(report);
    if (report.entries.empty())
      return llvm::Error::success();
    TuneEntry &best = report.entries.front();
    if (best.outcome != TuneEntry::Outcome::Timed || best.checked)
      return llvm::Error::success();
    llvm::Expected<bool> checked = check(best);
    if (!checked)
      return checked.takeError();
    if (!*checked) {
      // It cannot be checked, so it cannot win.
      best.outcome = TuneEntry::Outcome::RunFailed;
      best.reason = "could not be checked against the interpreter";
      continue;
    }
    // A check ends with the entry checked or its outcome no longer Timed,
    // so each turn of the loop settles one entry.
    if (best.outcome == TuneEntry::Outcome::Timed && !best.checked)
      return llvm::createStringError("the check of %s settled nothing",
                                     best.config.str().c_str());
  }
}

/// Benchmarks the finalists (the first kFinalists of the `timed`
/// configurations within kFinalistMargin of the fastest) again, kFinalistRounds
/// times in turn, and gives each entry of `report` the median of its rounds;
/// then checks the fastest finalist against the interpreter where it was
/// not (a wrong one loses), and sorts the report, finalists first.
static llvm::Error confirmFinalists(std::vector<Candidate> &timed,
                                    llvm::ArrayRef<KernelArg> args,
                                    const TuneOptions &options,
                                    TuneReport &report) {
  llvm::stable_sort(timed, [](const Candidate &a, const Candidate &b) {
    if (a.entry.timedOnce != b.entry.timedOnce)
      return b.entry.timedOnce;
    return a.entry.milliseconds < b.entry.milliseconds;
  });
  size_t count = 0;
  while (count < timed.size() && count < kFinalists &&
         !timed[count].entry.timedOnce &&
         timed[count].entry.milliseconds <=
             timed.front().entry.milliseconds * (1 + kFinalistMargin))
    ++count;
  llvm::MutableArrayRef<Candidate> finalists =
      llvm::MutableArrayRef<Candidate>(timed).take_front(count);
  sortByTime(report);
  if (finalists.size() < 2)
    return llvm::Error::success();

  Clock::time_point start = Clock::now();
  llvm::Expected<std::unique_ptr<CudaDevice>> device =
      CudaDevice::open(options.run.device);
  if (!device)
    return device.takeError();
  RunOptions runOptions = getSearchRunOptions(options, **device);
  llvm::Expected<DeviceArguments> sharedArgs =
      DeviceArguments::create(**device, args, runOptions.guards);
  if (!sharedArgs)
    return sharedArgs.takeError();
  // Each finalist loaded once (its kernel is in the compile cache, or
  // compiled again without one) and run once before the rounds.
  std::vector<std::unique_ptr<KernelRunner>> runners(finalists.size());
  for (auto [candidate, runner] : llvm::zip(finalists, runners)) {
    RunOptions timing = withWaves(runOptions, candidate.entry.config);
    timing.copyBack = false;
    timing.sharedArgs = &*sharedArgs;
    llvm::Expected<std::unique_ptr<KernelRunner>> created =
        KernelRunner::create(*candidate.source, timing);
    if (!created) {
      llvm::consumeError(created.takeError());
      continue;
    }
    llvm::Expected<RunResult> result = (*created)->run(args);
    if (!result) {
      llvm::consumeError(result.takeError());
      continue;
    }
    runner = std::move(*created);
  }
  BenchOptions bench = options.bench;
  bench.repetitions = getFinalistRepetitions(
      finalists.front().entry.milliseconds, bench.repetitions);
  std::vector<std::vector<double>> times(finalists.size());
  for (unsigned round = 0; round < kFinalistRounds; ++round)
    for (size_t i = 0, e = finalists.size(); i < e; ++i) {
      size_t index = (i + round) % e;
      if (!runners[index])
        continue;
      llvm::Expected<BenchReport> result = runners[index]->benchmark(bench);
      if (!result) {
        llvm::consumeError(result.takeError());
        runners[index].reset();
        times[index].clear();
        continue;
      }
      times[index].push_back(result->times.median);
    }
  for (auto [candidate, rounds] : llvm::zip(finalists, times)) {
    if (rounds.size() != kFinalistRounds)
      continue;
    llvm::sort(rounds);
    candidate.entry.milliseconds = rounds[rounds.size() / 2];
    if (TuneEntry *entry = findEntry(report, candidate)) {
      entry->milliseconds = candidate.entry.milliseconds;
      entry->confirmedRounds = kFinalistRounds;
    }
  }
  if (options.progress)
    *options.progress << llvm::formatv(
        "tune: {0} finalists timed again, {1} rounds of {2} launches, in "
        "{3:f1} s\n",
        finalists.size(), kFinalistRounds, bench.repetitions,
        secondsSince(start));

  // The fastest must match the interpreter: checked now where the search
  // did not check it.
  ReferenceCache ownReferences;
  ReferenceCache &references =
      options.references ? *options.references : ownReferences;
  if (llvm::Error err =
          checkFront(report, [&](TuneEntry &best) -> llvm::Expected<bool> {
            auto candidate = llvm::find_if(timed, [&](const Candidate &c) {
              return findEntry(report, c) == &best;
            });
            if (candidate == timed.end())
              return false;
            verify(*candidate, args, options, runOptions, references);
            best.outcome = candidate->entry.outcome;
            best.reason = candidate->entry.reason;
            best.checked = candidate->entry.checked;
            return true;
          }))
    return err;
  report.seconds += secondsSince(start);
  return llvm::Error::success();
}

llvm::Expected<TuneReport>
mlir::tile::tuneKernel(const KernelSource &base, llvm::ArrayRef<KernelArg> args,
                       const TuneOptions &options) {
  std::vector<Candidate> timed;
  llvm::Expected<TuneReport> report = searchKernel(base, args, options, timed);
  if (!report)
    return report.takeError();
  if (llvm::Error err = confirmFinalists(timed, args, options, *report))
    return std::move(err);
  if (!report->getBest())
    return noneTimed(*report, "@" + base.getKernelName().str());
  return report;
}

llvm::Expected<TuneReport>
mlir::tile::tuneVariants(llvm::ArrayRef<const KernelSource *> variants,
                         llvm::ArrayRef<KernelArg> args,
                         const TuneOptions &options) {
  // The interpreter's runs, shared by the variants' searches.
  ReferenceCache references;
  double fastest = 0;
  TuneOptions shared = options;
  if (!shared.references)
    shared.references = &references;
  if (!shared.fastest)
    shared.fastest = &fastest;
  TuneReport merged;
  std::vector<Candidate> timed;
  for (auto [index, variant] : llvm::enumerate(variants)) {
    size_t first = timed.size();
    llvm::Expected<TuneReport> report =
        searchKernel(*variant, args, shared, timed);
    if (!report)
      return report.takeError();
    for (Candidate &candidate : llvm::drop_begin(timed, first))
      candidate.entry.variant = index;
    for (TuneEntry &entry : report->entries) {
      entry.variant = index;
      if (variants.size() > 1)
        entry.variantName =
            llvm::sys::path::filename(variant->getFileName()).str();
      merged.entries.push_back(std::move(entry));
    }
    merged.compiled += report->compiled;
    merged.seconds += report->seconds;
  }
  if (llvm::Error err = confirmFinalists(timed, args, shared, merged))
    return std::move(err);
  if (!merged.getBest())
    return noneTimed(merged, variants.size() == 1
                                 ? "@" + variants[0]->getKernelName().str()
                                 : std::string("any of the kernels"));
  return merged;
}
