//===- Tuner.cpp - Choosing meta-parameters by timing them ----------------===//
//
// See Tuner.h and docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Tuner.h"

#include "tile/Analysis/RegisterEstimate.h"
#include "tile/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::tile;

using Clock = std::chrono::steady_clock;

static double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

//===----------------------------------------------------------------------===//
// The search space
//===----------------------------------------------------------------------===//

std::string TuneConfig::str() const {
  std::string text = llvm::join(defines, " ");
  if (waves)
    text += (text.empty() ? "" : " ") + ("waves=" + formatWaves(*waves));
  return text.empty() ? "(defaults)" : text;
}

std::vector<TuneConfig>
mlir::tile::enumerateSearchSpace(llvm::ArrayRef<KernelParam> params) {
  std::vector<TuneConfig> configs(1);
  for (const KernelParam &param : params) {
    if (param.isType || param.isDefined || param.values.empty())
      continue;
    std::vector<TuneConfig> next;
    next.reserve(configs.size() * param.values.size());
    for (const TuneConfig &config : configs)
      for (const std::string &value : param.values) {
        TuneConfig extended = config;
        extended.defines.push_back(param.name + "=" + value);
        next.push_back(std::move(extended));
      }
    configs = std::move(next);
  }
  return configs;
}

//===----------------------------------------------------------------------===//
// Tuning
//===----------------------------------------------------------------------===//

llvm::StringRef mlir::tile::getOutcomeName(TuneEntry::Outcome outcome) {
  switch (outcome) {
  case TuneEntry::Outcome::Timed:
    return "timed";
  case TuneEntry::Outcome::Inadmissible:
    return "inadmissible";
  case TuneEntry::Outcome::Dominated:
    return "dominated";
  case TuneEntry::Outcome::CompileFailed:
    return "compile failed";
  case TuneEntry::Outcome::Spills:
    return "spills";
  case TuneEntry::Outcome::RunFailed:
    return "run failed";
  case TuneEntry::Outcome::Wrong:
    return "wrong result";
  }
  llvm_unreachable("unknown outcome");
}

std::string TuneEntry::getLabel() const {
  return variantName.empty() ? config.str() : variantName + ": " + config.str();
}

const TuneEntry *TuneReport::getBest() const {
  if (entries.empty() || entries.front().outcome != TuneEntry::Outcome::Timed)
    return nullptr;
  return &entries.front();
}

void TuneReport::print(llvm::raw_ostream &os) const {
  unsigned timed = llvm::count_if(entries, [](const TuneEntry &entry) {
    return entry.outcome == TuneEntry::Outcome::Timed;
  });
  os << llvm::formatv("tune: {0} configurations, {1} compiled, {2} timed, in "
                      "{3:f1} s\n",
                      entries.size(), compiled, timed, seconds);
  unsigned rank = 0;
  for (const TuneEntry &entry : entries) {
    if (entry.outcome == TuneEntry::Outcome::Timed) {
      os << llvm::formatv("  {0,3}  {1,9:f4} ms  {2,3} regs  {3}", ++rank,
                          entry.milliseconds, entry.registers,
                          entry.getLabel());
      if (entry.localBytes > 0)
        os << "  (spills: " << entry.localBytes << " bytes per thread)";
      if (entry.timedOnce)
        os << llvm::format("  (timed once: over %gx the fastest)", kStopFactor);
      if (!entry.pruned.empty())
        os << "  (pruned: " << entry.pruned << ")";
      if (entry.checked)
        os << "  (checked)";
      os << "\n";
      continue;
    }
    os << llvm::formatv("    -  {0,-14} {1}: {2}\n",
                        getOutcomeName(entry.outcome), entry.getLabel(),
                        entry.reason);
  }
}

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
  bool pending() const {
    return entry.outcome == TuneEntry::Outcome::Timed && source;
  }
};
} // namespace

std::string mlir::tile::checkRegisterRoom(const KernelSource &source,
                                          const CompileOptions &options) {
  FuncOp kernel = source.getKernel();
  if (kernel.getBody().empty())
    return "";
  unsigned warps = getKernelNumWarps(kernel, options);
  // Estimated as the pipeline first sees it: canonicalized (identity casts
  // and casts of constants folded away).
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  module->push_back(kernel.clone());
  PassManager pm(kernel.getContext());
  pm.addPass(createCanonicalizerPass());
  if (succeeded(pm.run(*module)))
    kernel = *module->getOps<FuncOp>().begin();
  unsigned peak = estimatePeakRegisters(kernel.getBody().front(), warps);
  unsigned budget = getRegisterBudget(warps);
  if (peak + kReservedRegisters <= budget)
    return "";
  return llvm::formatv("its tiles need about {0} registers per thread, and "
                       "{1} more for scalars, of the {2} each of {3} threads "
                       "may use",
                       peak, kReservedRegisters, budget, warps * 32);
}

/// The first line of `text`, trimmed.
static std::string firstLine(llvm::StringRef text) {
  return text.trim().split('\n').first.trim().str();
}

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

/// "argument 0: 12 of 1048576 elements differ" from a failed check.
static std::string describeMismatch(const CheckReport &report) {
  for (const CheckReport::Entry &entry : report.entries) {
    if (entry.comparison && entry.comparison->passed())
      continue;
    if (!entry.comparison)
      return "argument " + std::to_string(entry.index) + ": " + entry.error;
    return llvm::formatv("argument {0}: {1} of {2} elements differ from the "
                         "interpreter's",
                         entry.index, entry.comparison->mismatches,
                         entry.comparison->elements)
        .str();
  }
  return "the results differ from the interpreter's";
}

/// Runs, checks and times one candidate; sets its outcome.
/// Runs and times one candidate (its results stay on the GPU); sets its
/// outcome.
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

/// Runs a timed candidate again and compares its results with the
/// interpreter's (run once, on the first candidate checked); marks it
/// checked, or wrong.
static llvm::Error verify(Candidate &candidate, llvm::ArrayRef<KernelArg> args,
                          const TuneOptions &options,
                          const RunOptions &runOptions,
                          std::optional<SmallVector<KernelArg>> &reference) {
  TuneEntry &entry = candidate.entry;
  llvm::Expected<std::unique_ptr<KernelRunner>> runner = KernelRunner::create(
      *candidate.source, withWaves(runOptions, entry.config));
  llvm::Expected<RunResult> result =
      runner ? (*runner)->run(args) : runner.takeError();
  if (!result) {
    entry.outcome = TuneEntry::Outcome::RunFailed;
    entry.reason = firstLine(llvm::toString(result.takeError()));
    return llvm::Error::success();
  }
  if (!reference) {
    // Every configuration computes the same: the interpreter runs once.
    SmallVector<KernelArg> expected(args.begin(), args.end());
    if (failed(interpretKernel(candidate.source->getKernel(), result->grid,
                               expected)))
      return llvm::createStringError(
          "the CPU interpreter failed on the launch's arguments: " +
          llvm::StringRef(*candidate.log).trim());
    reference = std::move(expected);
  }
  CheckReport check =
      compareWithReference(result->outputs, *reference, options.check);
  if (!check.passed()) {
    entry.outcome = TuneEntry::Outcome::Wrong;
    entry.reason = describeMismatch(check);
    return llvm::Error::success();
  }
  entry.checked = true;
  return llvm::Error::success();
}

/// The search of tuneKernel; a report with nothing timed is no error here.
static llvm::Expected<TuneReport> searchKernel(const KernelSource &base,
                                               llvm::ArrayRef<KernelArg> args,
                                               const TuneOptions &options) {
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

  std::vector<TuneConfig> configs = enumerateSearchSpace(base.getParams());
  std::vector<Candidate> candidates;
  for (const TuneConfig &config : configs)
    candidates.push_back(prepare(text, path, config, args, options));
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

  // How every candidate is compiled and run: for this GPU, to cubins where
  // the toolkit's ptxas is at hand (loading a cubin takes no JIT).
  RunOptions runOptions = options.run;
  runOptions.warnOnSpill = false;
  if (runOptions.compile.chip.empty())
    runOptions.compile.chip = (*device)->getInfo().getChip();
  llvm::SmallString<128> ptxas(runOptions.compile.cudaPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(ptxas))
    runOptions.compile.format = OutputFormat::Cubin;
  // Compiled first on every core into the compile cache, where each run
  // then finds its kernel; without a cache, each run compiles its own.
  if (!runOptions.compile.cacheDir.empty()) {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
    llvm::SmallPtrSet<const KernelSource *, 16> queued;
    for (Candidate &candidate : candidates) {
      if (!candidate.pending() || !queued.insert(candidate.source.get()).second)
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

  // Timed in an order likely to meet a fast configuration early, which
  // then stops the slow ones after one run: closest first to
  // kElementsPerThread elements of the largest tile per thread. The order
  // decides nothing else.
  std::vector<Candidate *> order;
  for (Candidate &candidate : candidates)
    if (candidate.pending())
      order.push_back(&candidate);
  auto distance = [](const Candidate *c) {
    constexpr double kElementsPerThread = 16;
    return std::abs(std::log2(static_cast<double>(c->largestTile) /
                              static_cast<double>(c->threads) /
                              kElementsPerThread));
  };
  llvm::stable_sort(order, [&](const Candidate *a, const Candidate *b) {
    return distance(a) < distance(b);
  });
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
  std::optional<SmallVector<KernelArg>> ownReference;
  std::optional<SmallVector<KernelArg>> &reference =
      options.reference ? *options.reference : ownReference;
  for (Candidate *candidate : byTime) {
    if (llvm::Error err =
            verify(*candidate, args, options, runOptions, reference))
      return std::move(err);
    if (options.progress)
      *options.progress << "tune: checked " << candidate->entry.config.str()
                        << ": "
                        << (candidate->entry.checked ? "matches the interpreter"
                                                     : candidate->entry.reason)
                        << "\n";
    if (candidate->entry.checked)
      break;
  }

  for (Candidate &candidate : candidates)
    report.entries.push_back(std::move(candidate.entry));
  auto timed = std::stable_partition(
      report.entries.begin(), report.entries.end(), [](const TuneEntry &e) {
        return e.outcome == TuneEntry::Outcome::Timed;
      });
  std::stable_sort(report.entries.begin(), timed,
                   [](const TuneEntry &a, const TuneEntry &b) {
                     return a.milliseconds < b.milliseconds;
                   });
  report.seconds = since(start);
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

llvm::Expected<TuneReport>
mlir::tile::tuneKernel(const KernelSource &base, llvm::ArrayRef<KernelArg> args,
                       const TuneOptions &options) {
  llvm::Expected<TuneReport> report = searchKernel(base, args, options);
  if (report && !report->getBest())
    return noneTimed(*report, "@" + base.getKernelName().str());
  return report;
}

llvm::Expected<TuneReport>
mlir::tile::tuneVariants(llvm::ArrayRef<const KernelSource *> variants,
                         llvm::ArrayRef<KernelArg> args,
                         const TuneOptions &options) {
  // The variants compute the same: the interpreter runs once for all.
  std::optional<SmallVector<KernelArg>> reference;
  double fastest = 0;
  TuneOptions shared = options;
  if (!shared.reference)
    shared.reference = &reference;
  if (!shared.fastest)
    shared.fastest = &fastest;
  TuneReport merged;
  for (auto [index, variant] : llvm::enumerate(variants)) {
    llvm::Expected<TuneReport> report = searchKernel(*variant, args, shared);
    if (!report)
      return report.takeError();
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
  auto timed = std::stable_partition(
      merged.entries.begin(), merged.entries.end(), [](const TuneEntry &e) {
        return e.outcome == TuneEntry::Outcome::Timed;
      });
  std::stable_sort(merged.entries.begin(), timed,
                   [](const TuneEntry &a, const TuneEntry &b) {
                     return a.milliseconds < b.milliseconds;
                   });
  if (!merged.getBest())
    return noneTimed(merged, variants.size() == 1
                                 ? "@" + variants[0]->getKernelName().str()
                                 : std::string("any of the kernels"));
  return merged;
}

//===----------------------------------------------------------------------===//
// The tuning cache
//===----------------------------------------------------------------------===//

static constexpr llvm::StringLiteral kCacheHeader = "tile tuning cache 1";

/// `value` rounded up to a power of two (itself when not positive).
static int64_t roundUp(int64_t value) {
  return value <= 0 ? value
                    : static_cast<int64_t>(
                          llvm::PowerOf2Ceil(static_cast<uint64_t>(value)));
}

static std::string formatBucket(DataType type, bool isBuffer,
                                llvm::ArrayRef<int64_t> shape, int64_t value) {
  std::string bucket = getDataTypeName(type).str();
  if (isBuffer) {
    SmallVector<std::string> dims;
    for (int64_t dim : shape)
      dims.push_back(std::to_string(roundUp(dim)));
    return bucket + "[" + llvm::join(dims, "x") + "]";
  }
  if (isFloatDataType(type))
    return bucket;
  return bucket + ":" + std::to_string(roundUp(value));
}

std::string mlir::tile::getShapeBucket(const ArgSpec &spec) {
  return formatBucket(spec.type, spec.isBuffer(), spec.shape,
                      spec.isBuffer() ? 0 : spec.value.getSExtValue());
}

std::string mlir::tile::getShapeBucket(const KernelArg &arg) {
  if (arg.isBuffer())
    return formatBucket(arg.getDataType(), true, arg.getBuffer().getShape(), 0);
  return formatBucket(arg.getDataType(), false, {},
                      arg.getScalar().getSExtValue());
}

std::string TuningKey::getDigest() const {
  llvm::SHA256 hash;
  auto add = [&](llvm::StringRef field) {
    hash.update(field);
    hash.update(llvm::StringRef("\0", 1));
  };
  add(kCacheHeader);
  add(getCompilerVersion());
  for (auto [text, name] : llvm::zip_equal(fileTexts, kernelNames)) {
    add(text);
    add(name);
  }
  add(llvm::join(fixedDefines, " "));
  add(device);
  add(llvm::join(buckets, " "));
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::vector<std::string>
mlir::tile::getFixedDefines(llvm::ArrayRef<KernelParam> params) {
  std::vector<std::string> fixed;
  for (const KernelParam &param : params)
    if (param.isDefined && (param.isType || param.values.empty()))
      fixed.push_back(param.name + "=" + param.value);
  llvm::sort(fixed);
  return fixed;
}

std::string mlir::tile::getTuningCachePath(llvm::StringRef cacheDir,
                                           const TuningKey &key) {
  llvm::SmallString<256> path(cacheDir);
  llvm::sys::path::append(path, "tuning", key.getDigest() + ".txt");
  return path.str().str();
}

/// Checks a define read back from the cache: NAME=VALUE, an identifier and
/// an integer.
static bool isWellFormedDefine(llvm::StringRef define) {
  auto [name, value] = define.split('=');
  int64_t number;
  return define.contains('=') && !name.empty() &&
         (llvm::isAlpha(name.front()) || name.front() == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; }) &&
         !value.getAsInteger(10, number);
}

std::optional<TuningChoice>
mlir::tile::lookupTuning(llvm::StringRef cacheDir, const TuningKey &key,
                         llvm::raw_ostream &warnings) {
  if (cacheDir.empty())
    return std::nullopt;
  std::string path = getTuningCachePath(cacheDir, key);
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  auto ignore = [&](const llvm::Twine &why) -> std::optional<TuningChoice> {
    llvm::WithColor::warning(warnings, "tile")
        << "ignoring the tuning cache entry " << path << ": " << why << "\n";
    return std::nullopt;
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return ignore("cannot read it: " + file.getError().message());
  SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().split(lines, '\n', /*MaxSplit=*/-1,
                             /*KeepEmpty=*/false);
  if (lines.empty() || lines.front() != kCacheHeader)
    return ignore("not a tuning cache entry");
  llvm::StringMap<llvm::StringRef> fields;
  for (llvm::StringRef line : llvm::drop_begin(lines)) {
    auto [name, value] = line.split(' ');
    if (name.empty() || !fields.try_emplace(name, value).second)
      return ignore("corrupt (line '" + line + "')");
  }
  for (llvm::StringRef required : {"compiler", "key", "choice", "time"})
    if (!fields.count(required))
      return ignore("corrupt (no '" + required + "' line)");
  if (fields["compiler"] != getCompilerVersion())
    return ignore("written by another version of tile (" + fields["compiler"] +
                  ")");
  if (fields["key"] != key.getDigest())
    return ignore("corrupt (its key is not its name)");
  TuningChoice choice;
  if (fields["time"].getAsDouble(choice.milliseconds) ||
      !(choice.milliseconds > 0))
    return ignore("corrupt (time '" + fields["time"] + "')");
  SmallVector<llvm::StringRef> defines;
  fields["choice"].split(defines, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef define : defines) {
    if (!isWellFormedDefine(define))
      return ignore("corrupt (choice '" + define + "')");
    choice.defines.push_back(define.str());
  }
  choice.tunedOn = fields.lookup("shapes").str();
  if (fields.count("waves")) {
    llvm::Expected<int64_t> waves = GridSpec::parseWaves(fields["waves"]);
    if (!waves) {
      llvm::consumeError(waves.takeError());
      return ignore("corrupt (waves '" + fields["waves"] + "')");
    }
    choice.waves = *waves;
  }
  if (fields.count("variant") &&
      (fields["variant"].getAsInteger(10, choice.variant) ||
       choice.variant >= key.kernelNames.size()))
    return ignore("corrupt (variant '" + fields["variant"] + "')");
  return choice;
}

llvm::Error mlir::tile::storeTuning(llvm::StringRef cacheDir,
                                    const TuningKey &key,
                                    const TuneEntry &best) {
  std::string path = getTuningCachePath(cacheDir, key);
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError("cannot create " + dir + ": " +
                                   ec.message());
  int fd;
  llvm::SmallString<256> temporary;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, temporary))
    return llvm::createStringError("cannot write in " + dir + ": " +
                                   ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kCacheHeader << "\n";
    os << "compiler " << getCompilerVersion() << "\n";
    os << "key " << key.getDigest() << "\n";
    os << "kernel";
    for (const std::string &name : key.kernelNames)
      os << " @" << name;
    os << "\n";
    os << "variant " << best.variant << "\n";
    os << "device " << key.device << "\n";
    os << "shapes " << llvm::join(key.buckets, " ") << "\n";
    os << "choice " << llvm::join(best.config.defines, " ") << "\n";
    if (best.config.waves)
      os << "waves " << formatWaves(*best.config.waves) << "\n";
    os << llvm::formatv("time {0:e6}\n", best.milliseconds);
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return llvm::createStringError("cannot write " + temporary + ": " +
                                     message);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return llvm::createStringError("cannot write " + path + ": " +
                                   ec.message());
  }
  return llvm::Error::success();
}

llvm::Expected<TuningKey>
mlir::tile::getTuningKey(llvm::ArrayRef<const KernelSource *> variants,
                         llvm::ArrayRef<KernelArg> args, int device) {
  std::vector<std::string> buckets;
  for (const KernelArg &arg : args)
    buckets.push_back(getShapeBucket(arg));
  return getTuningKey(variants, buckets, device);
}

llvm::Expected<TuningKey>
mlir::tile::getTuningKey(llvm::ArrayRef<const KernelSource *> variants,
                         llvm::ArrayRef<std::string> buckets, int device) {
  // The GPU as tile-run --list-devices describes it; only this one is opened.
  llvm::Expected<std::unique_ptr<CudaDevice>> opened = CudaDevice::open(device);
  if (!opened)
    return opened.takeError();
  TuningKey key;
  key.device = describeCudaDevice((*opened)->getInfo());
  for (const KernelSource *variant : variants) {
    key.fileTexts.push_back(variant->getText().str());
    key.kernelNames.push_back(variant->getKernelName().str());
    for (std::string &define : getFixedDefines(variant->getParams()))
      if (!llvm::is_contained(key.fixedDefines, define))
        key.fixedDefines.push_back(std::move(define));
  }
  llvm::sort(key.fixedDefines);
  key.buckets.assign(buckets.begin(), buckets.end());
  return key;
}

/// The tuning cache's key of a launch with `args` (or `options.buckets`).
static llvm::Expected<TuningKey>
getLaunchKey(llvm::ArrayRef<const KernelSource *> variants,
             llvm::ArrayRef<KernelArg> args, const TuneOptions &options) {
  if (!options.buckets.empty())
    return getTuningKey(variants, options.buckets, options.run.device);
  return getTuningKey(variants, args, options.run.device);
}

/// The -D set by hand, then each of `choice` whose parameter was not set by
/// hand; the parameters set by hand that `choice` also sets, in `overridden`.
static std::vector<std::string>
mergeDefines(const KernelSource &base, const KernelSource::Options &options,
             llvm::ArrayRef<std::string> choice,
             std::vector<std::string> &overridden) {
  std::vector<std::string> defines = options.defines;
  for (const std::string &define : choice) {
    llvm::StringRef name = llvm::StringRef(define).split('=').first;
    const KernelParam *param = findParam(base.getParams(), name);
    if (param && param->isDefined)
      overridden.push_back(param->name + "=" + param->value);
    else
      defines.push_back(define);
  }
  return defines;
}

/// Reloads `base`'s text with `defines`; diagnostics into `errors`.
static llvm::Expected<std::unique_ptr<KernelSource>>
reload(const KernelSource &base, const KernelSource::Options &options,
       std::vector<std::string> defines, llvm::raw_ostream *errors) {
  KernelSource::Options reloaded = options;
  reloaded.defines = std::move(defines);
  if (errors)
    reloaded.diagnostics = errors;
  return KernelSource::loadString(base.getText(), base.getFileName(), reloaded);
}

/// Why a launch with `args` cannot run `source`'s kernel: a broken bound,
/// or (with `registers`) no room in registers; empty when it can.
static std::string checkFit(const KernelSource &source,
                            llvm::ArrayRef<KernelArg> args, bool registers,
                            const CompileOptions &options) {
  FuncOp kernel = source.getKernel();
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (index >= kernel.getNumArguments() || arg.isBuffer() ||
        isFloatDataType(arg.getDataType()))
      continue;
    std::string broken =
        checkIntegerArgument(kernel, index, arg.getScalar().getSExtValue());
    if (!broken.empty())
      return broken;
  }
  return registers ? checkRegisterRoom(source, options) : "";
}

bool mlir::tile::fitsLaunch(const KernelSource &source,
                            llvm::ArrayRef<KernelArg> args, bool registers,
                            const CompileOptions &options) {
  return checkFit(source, args, registers, options).empty();
}

std::unique_ptr<KernelSource> mlir::tile::fitToLaunch(
    std::unique_ptr<KernelSource> base, llvm::ArrayRef<KernelArg> args,
    const TuneOptions &options, bool registers, std::string &note) {
  note.clear();
  std::string why = checkFit(*base, args, registers, options.run.compile);
  if (why.empty())
    return base;
  // The configurations by their distance from the defaults: the steps
  // through each parameter's declared values.
  std::vector<TuneConfig> configs = enumerateSearchSpace(base->getParams());
  auto distance = [&](const TuneConfig &config) {
    int64_t steps = 0;
    for (llvm::StringRef define : config.defines) {
      auto [name, value] = define.split('=');
      const KernelParam *param = findParam(base->getParams(), name);
      auto at = [&](llvm::StringRef v) -> int64_t {
        return llvm::find(param->values, v) - param->values.begin();
      };
      steps += std::abs(at(value) - at(param->value));
    }
    return steps;
  };
  std::vector<std::pair<int64_t, size_t>> order;
  for (auto [index, config] : llvm::enumerate(configs))
    order.push_back({distance(config), index});
  llvm::sort(order);
  for (auto [steps, index] : order) {
    if (steps == 0)
      continue;
    std::vector<std::string> defines = options.source.defines;
    llvm::append_range(defines, configs[index].defines);
    std::string ignored;
    llvm::raw_string_ostream ignoredStream(ignored);
    llvm::Expected<std::unique_ptr<KernelSource>> candidate =
        reload(*base, options.source, defines, &ignoredStream);
    if (!candidate) {
      llvm::consumeError(candidate.takeError());
      continue;
    }
    if (!checkFit(**candidate, args, registers, options.run.compile).empty())
      continue;
    // Loaded again for its diagnostics to go where the caller asked.
    llvm::Expected<std::unique_ptr<KernelSource>> fitted =
        reload(*base, options.source, defines, nullptr);
    if (!fitted) {
      llvm::consumeError(fitted.takeError());
      return base;
    }
    SmallVector<std::string> changed;
    for (llvm::StringRef define : configs[index].defines) {
      auto [name, value] = define.split('=');
      if (findParam(base->getParams(), name)->value != value)
        changed.push_back(define.str());
    }
    note = "the defaults do not fit the launch (" + why + "): running with " +
           llvm::join(changed, " ");
    return std::move(*fitted);
  }
  return base;
}

/// Sets `grid`'s waves to a tuned choice's, unless they were set by hand or
/// the grid cannot launch them (all waves of a grid without a cap).
static void applyWaves(GridSpec *grid, std::optional<int64_t> waves) {
  if (!grid || !grid->persistent || grid->waves || !waves ||
      (*waves == GridSpec::kAllWaves && grid->cap == 0))
    return;
  grid->waves = waves;
}

/// The kernel reloaded with the tuning cache's choice for the launch, or
/// null when there is none (or it cannot be used: a warning says why).
static std::unique_ptr<KernelSource>
loadCachedChoice(llvm::ArrayRef<const KernelSource *> variants,
                 llvm::ArrayRef<KernelArg> args, const TuneOptions &options,
                 llvm::raw_ostream &os, GridSpec *grid) {
  llvm::StringRef cacheDir = options.run.compile.cacheDir;
  llvm::raw_ostream &warnings = variants.front()->getDiagnosticStream();
  if (cacheDir.empty() || options.run.target != Target::CUDA)
    return nullptr;
  llvm::Expected<TuningKey> key = getLaunchKey(variants, args, options);
  if (!key) {
    // No GPU to key on: running will say why.
    llvm::consumeError(key.takeError());
    return nullptr;
  }
  std::optional<TuningChoice> choice = lookupTuning(cacheDir, *key, warnings);
  if (!choice)
    return nullptr;
  const KernelSource &base = *variants[choice->variant];
  std::vector<std::string> overridden;
  std::vector<std::string> defines =
      mergeDefines(base, options.source, choice->defines, overridden);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  llvm::Expected<std::unique_ptr<KernelSource>> quiet =
      reload(base, options.source, defines, &errorStream);
  if (!quiet) {
    llvm::consumeError(quiet.takeError());
    llvm::WithColor::warning(warnings, "tile")
        << "ignoring the tuning cache entry "
        << getTuningCachePath(cacheDir, *key)
        << ": its choice does not fit the kernel: " << firstLine(errors)
        << "\n";
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<KernelSource>> tuned =
      reload(base, options.source, defines, nullptr);
  if (!tuned) {
    llvm::consumeError(tuned.takeError());
    return nullptr;
  }
  os << "tuned: ";
  if (variants.size() > 1)
    os << llvm::sys::path::filename(base.getFileName()) << ": ";
  TuneConfig chosen{choice->defines, choice->waves};
  os << chosen.str()
     << llvm::formatv(" from the tuning cache ({0:f4} ms for {1})",
                      choice->milliseconds, choice->tunedOn);
  if (!overridden.empty())
    os << "; set by hand: " << llvm::join(overridden, " ");
  if (choice->waves && grid && grid->persistent && grid->waves)
    os << "; waves set by hand: " << formatWaves(*grid->waves);
  os << "\n";
  applyWaves(grid, choice->waves);
  return std::move(*tuned);
}

llvm::Expected<std::unique_ptr<KernelSource>>
mlir::tile::loadTunedKernel(std::unique_ptr<KernelSource> base,
                            llvm::ArrayRef<KernelArg> args,
                            const TuneOptions &options, TuningMode mode,
                            llvm::raw_ostream &os, GridSpec *grid) {
  std::vector<std::unique_ptr<KernelSource>> variants;
  variants.push_back(std::move(base));
  return loadTunedKernel(std::move(variants), args, options, mode, os, grid);
}

llvm::Expected<std::unique_ptr<KernelSource>>
mlir::tile::loadTunedKernel(std::vector<std::unique_ptr<KernelSource>> bases,
                            llvm::ArrayRef<KernelArg> args,
                            const TuneOptions &options, TuningMode mode,
                            llvm::raw_ostream &os, GridSpec *grid) {
  llvm::StringRef cacheDir = options.run.compile.cacheDir;
  llvm::raw_ostream &warnings = bases.front()->getDiagnosticStream();
  SmallVector<const KernelSource *> variants;
  for (const std::unique_ptr<KernelSource> &base : bases)
    variants.push_back(base.get());
  bool registers = options.run.target == Target::CUDA;
  switch (mode) {
  case TuningMode::UseCache:
    if (std::unique_ptr<KernelSource> tuned =
            loadCachedChoice(variants, args, options, os, grid))
      return tuned;
    [[fallthrough]];
  case TuningMode::IgnoreCache: {
    // The first variant whose defines fit the launch, once fitted.
    for (auto [index, base] : llvm::enumerate(bases)) {
      std::string note;
      std::unique_ptr<KernelSource> fitted =
          fitToLaunch(std::move(base), args, options, registers, note);
      if (!fitsLaunch(*fitted, args, registers, options.run.compile) &&
          index + 1 < bases.size())
        continue;
      if (bases.size() > 1)
        os << "variant: " << fitted->getFileName()
           << (index == 0 ? " (the first given)"
                          : " (the first given that fits the launch)")
           << "\n";
      if (!note.empty())
        os << "fitted: " << note << "\n";
      return std::move(fitted);
    }
    llvm_unreachable("the last variant is always taken");
  }
  case TuningMode::Tune:
    break;
  }

  llvm::Expected<TuneReport> report = tuneVariants(variants, args, options);
  if (!report)
    return report.takeError();
  report->print(os);
  const TuneEntry &best = *report->getBest();
  const KernelSource &base = *variants[best.variant];
  std::vector<std::string> handTuned;
  for (const KernelSource *variant : variants)
    for (const KernelParam &param : variant->getParams())
      if (param.isDefined && !param.isType && !param.values.empty() &&
          !llvm::is_contained(handTuned, param.name))
        handTuned.push_back(param.name);
  if (!handTuned.empty()) {
    os << "tune: not stored in the tuning cache: "
       << llvm::join(handTuned, ", ") << " set by hand\n";
  } else if (!cacheDir.empty()) {
    llvm::Expected<TuningKey> key = getLaunchKey(variants, args, options);
    llvm::Error stored =
        key ? storeTuning(cacheDir, *key, best) : key.takeError();
    if (stored)
      llvm::WithColor::warning(warnings, "tile")
          << "the tuning cache: " << llvm::toString(std::move(stored)) << "\n";
    else
      os << "tune: stored in the tuning cache: "
         << getTuningCachePath(cacheDir, *key) << "\n";
  }
  os << "tuned: " << best.getLabel()
     << llvm::formatv(" ({0:f4} ms)\n", best.milliseconds);
  applyWaves(grid, best.config.waves);
  std::vector<std::string> overridden;
  return reload(
      base, options.source,
      mergeDefines(base, options.source, best.config.defines, overridden),
      nullptr);
}
