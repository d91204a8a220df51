//===- CostModel.cpp - How long a launch should take ----------------------===//
//
// See tile/Runtime/CostModel.h and docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/CostModel.h"

#include "tile/Analysis/RegisterEstimate.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/PipelineLoops.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"
#include "tile/Runtime/Compiler.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/KernelRunner.h"
#include "tile/Runtime/LaunchConfig.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::tile;

GpuModel GpuModel::h100() { return GpuModel(); }

GpuModel GpuModel::fromDevice(const CudaDeviceInfo &info) {
  GpuModel gpu;
  if (info.computeCapabilityMajor == 8) {
    // The A100: 1.5-2 TB/s of HBM2e, 1.41 GHz, 1024 f16 FLOPs per SM per
    // clock.
    gpu.bandwidth = 1.7e12;
    gpu.clock = 1.41e9;
    gpu.mmaFlopsPerClock = 1024;
    gpu.sharedMemoryPerMultiprocessor = 164 * 1024;
    gpu.maxThreadsPerMultiprocessor =
        info.computeCapabilityMinor == 0 ? 2048 : 1536;
  }
  if (info.memoryClockKHz > 0 && info.memoryBusWidthBits > 0)
    gpu.bandwidth = kCopyEfficiency * 2 * (info.memoryClockKHz * 1e3) *
                    info.memoryBusWidthBits / 8;
  if (info.multiprocessorCount > 0)
    gpu.multiprocessors = info.multiprocessorCount;
  GpuModel h100 = GpuModel::h100();
  gpu.bytesInFlightPerSM = kBytesInFlightPerSM *
                           (gpu.bandwidth / gpu.multiprocessors) /
                           (h100.bandwidth / h100.multiprocessors);
  if (info.registersPerMultiprocessor > 0)
    gpu.registersPerMultiprocessor = info.registersPerMultiprocessor;
  if (info.sharedMemoryPerMultiprocessor > 0)
    gpu.sharedMemoryPerMultiprocessor = info.sharedMemoryPerMultiprocessor;
  return gpu;
}

int64_t GpuModel::getClustersThatFit(int64_t cluster,
                                     int64_t blocksPerSM) const {
  if (cluster <= 1)
    return int64_t(multiprocessors) * blocksPerSM;
  int64_t gpcs = std::max(1, multiprocessors / kMultiprocessorsPerGpc);
  int64_t slotsPerGpc = int64_t(multiprocessors) / gpcs * blocksPerSM;
  return gpcs * (slotsPerGpc / cluster);
}

bool mlir::tile::isRankedBefore(const LaunchEstimate &a,
                                const LaunchEstimate &b) {
  if (a.seconds != b.seconds)
    return a.seconds < b.seconds;
  // Of two as slow (two that spill by the estimate are both infinite), the
  // nearer to fitting: the smaller multiple of its register budget. One
  // that does not spill by it, or cannot run for another reason (no block
  // on an SM, or no estimate), counts as infinitely far, so that the order
  // stays a strict weak one: each key is the launch's own.
  auto overflow = [](const LaunchEstimate &e) {
    return e.spills && e.blocksPerSM > 0 && e.budget > 0 &&
                   e.registers > e.budget
               ? double(e.registers) / e.budget
               : std::numeric_limits<double>::infinity();
  };
  if (overflow(a) != overflow(b))
    return overflow(a) < overflow(b);
  if (a.guaranteedBlocksPerSM != b.guaranteedBlocksPerSM)
    return a.guaranteedBlocksPerSM > b.guaranteedBlocksPerSM;
  // A program alone on its SM idles the SM at each of its barriers, and a
  // block-wide reduction's barrier waits on every warp of the block.
  if (a.blocksPerSM == 1 && b.blocksPerSM == 1 && a.threads != b.threads)
    return a.threads < b.threads;
  return a.residentThreadsPerSM > b.residentThreadsPerSM;
}

std::string LaunchEstimate::str() const {
  if (spills)
    return llvm::formatv("spills ({0} regs by the estimate)", registers);
  return llvm::formatv("{0:f2} us (memory {1:f2}, compute {2:f2}, latency "
                       "{3:f2}; {4} regs, {5} threads, {6} per SM, {7} "
                       "programs)",
                       seconds * 1e6, memorySeconds * 1e6, computeSeconds * 1e6,
                       latencySeconds * 1e6, registers, threads, blocksPerSM,
                       programs);
}

/// The shared memory a program's dots stage their operands in: each
/// operand tile, times the stages of the loop around it.
static int64_t estimateSharedBytes(FuncOp kernel) {
  int64_t bytes = 0;
  kernel.walk([&](DotOp dot) {
    int64_t stages = 1;
    if (auto loop = dot->getParentOfType<scf::ForOp>())
      if (auto attr = loop->getAttrOfType<IntegerAttr>(
              TileDialect::getNumStagesAttrName()))
        stages = std::max<int64_t>(1, attr.getInt());
    for (Value operand : {dot.getA(), dot.getB()}) {
      auto type = cast<RankedTensorType>(operand.getType());
      bytes += stages * type.getNumElements() *
               std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    }
  });
  return bytes;
}

/// The registers per thread a tensor-core dot holds beyond what the register
/// estimate counts: the estimate spreads each operand tile over the block's
/// threads once, but in the mma.sync layout every warp holds its own rows of
/// A (replicated over the warps along N) and columns of B (over those along
/// M), one K step of 16 at a time, the next step's loaded before the
/// current one's mma (tilegpu-split-dot and tilegpu-prefetch): per thread,
/// two steps of (BM / warpsM + BN / warpsN) x 16 elements over a warp's 32
/// lanes, less the once-spread tiles the estimate counted. Plus a register
/// per 16-byte cp.async a thread issues per stage, for its address.
static unsigned estimateDotRegisters(FuncOp kernel, unsigned warps) {
  unsigned extra = 0;
  kernel.walk([&](DotOp dot) {
    auto a = cast<RankedTensorType>(dot.getA().getType());
    auto b = cast<RankedTensorType>(dot.getB().getType());
    if (!a.getElementType().isF16() && !a.getElementType().isBF16())
      return;
    int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
    SmallVector<unsigned, 2> layout = tilegpu::getMmaWarpsPerCTA({m, n}, warps);
    int64_t threads = 32 * warps;
    // f16 and bf16: two elements per register.
    int64_t fragments = 2 * (m / layout[0] + n / layout[1]) * 16 / 32 / 2;
    int64_t spread = (m * k + k * n) / threads / 2;
    int64_t copies = (m * k + k * n) * 2 / 16 / threads;
    extra += static_cast<unsigned>(std::max<int64_t>(0, fragments - spread) +
                                   copies);
  });
  return extra;
}

/// Whether a loop of `kernel` runs pipelined (tile/Dialect/Tile/Transforms/
/// PipelineLoops.h): it asks for two stages or more, and the pass loads its
/// tiles ahead, which it does only where they fit in registers, or leaves
/// them to be staged through shared memory (three stages or more); the
/// registers the tiles loaded ahead take; and the shared memory of the
/// staged ones (`stagedShared`). Run 52: softmax_cluster at f32
/// rows of 524288 (a slice of 32768 floats per program) asks for two
/// stages but is left alone at 8 and 16 warps, and ran as fast as with
/// one; the model had credited it with pipelining. And run 40: at rows of
/// 100000 f16 on clusters of 8 (128 halves per thread, asking for 2 blocks
/// per SM), ptxas took 238 registers, the 160 the estimate counts for the
/// row and the 64 of the next row's halves.
/// Asked of the kernel as the launch compiles it: specialized on its
/// arguments (`specialization`, compileKernel's tile-specialize-arguments),
/// whose divisibility decides whether a row's accesses are wide enough to
/// be staged through shared memory (isStagedInSharedMemory). Run 99: the
/// LayerNorm backward rows of 8192 bf16 at a row stride the unspecialized
/// kernel cannot prove even were left "not pipelined" at 3 and 4 stages
/// (the model counted one row in flight, not three), and the cluster
/// variant was chosen over the staged rows (77.3 against 61.9 us in run
/// 99's tune log).
static bool isPipelined(FuncOp kernel, unsigned warps, unsigned minBlocks,
                        const KernelSpecialization *specialization,
                        unsigned &prefetchRegisters, int64_t &stagedShared) {
  // Decided as the pass decides it: on the kernel specialized,
  // canonicalized and CSE'd (casts of constants folded away change what the
  // body keeps live).
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  module->push_back(kernel.clone());
  PassManager pm(kernel.getContext());
  if (specialization)
    addSpecializeArgumentsPass(pm, *specialization);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (succeeded(pm.run(*module)))
    kernel = *module->getOps<FuncOp>().begin();
  bool pipelined = false;
  prefetchRegisters = 0;
  stagedShared = 0;
  kernel.walk([&](scf::ForOp loop) {
    LoopPipelining decision = getLoopPipelining(loop, warps, minBlocks);
    pipelined |= decision.pipelined;
    prefetchRegisters = std::max(prefetchRegisters, decision.prefetchRegisters);
    // Each loop's buffers are its own for the whole kernel.
    stagedShared += decision.stagedSharedBytes;
  });
  return pipelined;
}

/// The programs of a one-dimensional grid that have work: a grid-stride
/// loop (`for row = pid * ROWS; row < n; row += programs * ROWS`) leaves the
/// programs past the last item without any, and a persistent grid capped at
/// the item count has them wherever a program takes several items (the
/// launch still pays for them, but they move no bytes and hold no SM). The
/// first program with nothing to load or store, found by bisection between
/// the first program (which has work) and the last, where the last has
/// none; every program where it has some. With clusters, whole clusters:
/// a cluster is idle when every program of it is (its first program's
/// slice of a row is never the emptier one).
static int64_t countActivePrograms(FuncOp kernel,
                                   ArrayRef<std::optional<int64_t>> values,
                                   std::array<int64_t, 3> sizes,
                                   int64_t cluster, const ProgramCost &first) {
  int64_t programs = sizes[0] * sizes[1] * sizes[2];
  int64_t clusters = sizes[0] / cluster;
  auto isIdle = [&](int64_t index) {
    ProgramCost cost =
        estimateProgramCost(kernel, values, sizes, index * cluster);
    return cost.exact && cost.bytesLoaded + cost.bytesStored == 0;
  };
  if (sizes[1] != 1 || sizes[2] != 1 || clusters < 2 ||
      first.bytesLoaded + first.bytesStored == 0 || !isIdle(clusters - 1))
    return programs;
  int64_t busy = 0, idle = clusters - 1;
  while (idle - busy > 1) {
    int64_t middle = busy + (idle - busy) / 2;
    (isIdle(middle) ? idle : busy) = middle;
  }
  return idle * cluster;
}

llvm::Expected<LaunchEstimate> mlir::tile::estimateLaunch(
    const KernelSource &source, llvm::ArrayRef<KernelArg> args,
    const GridSpec &given, const GpuModel &gpu, unsigned numWarps) {
  FuncOp kernel = source.getKernel();
  // Descriptor loads are counted as the masked loads they become
  // (tile-expand-tensor-descs), on a copy of the kernel.
  OwningOpRef<ModuleOp> expanded;
  if (kernel.walk([](DescLoadOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    expanded = ModuleOp::create(kernel.getLoc());
    expanded->push_back(kernel.clone());
    PassManager pm(kernel.getContext());
    pm.addPass(createTileExpandTensorDescs());
    if (succeeded(pm.run(*expanded)))
      kernel = *expanded->getOps<FuncOp>().begin();
  }
  LaunchEstimate estimate;
  CompileOptions compile;
  compile.numWarps = numWarps;
  unsigned warps = getKernelNumWarps(kernel, compile);
  estimate.threads = 32 * warps;
  int64_t cluster = TileDialect::getClusterSize(kernel);

  // Registers and the programs an SM holds.
  // A kernel that asks for room for several blocks per SM
  // (tile.min_blocks_per_sm) gets fewer registers per thread.
  unsigned minBlocks = 1;
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(
          TileDialect::getMinBlocksPerSMAttrName()))
    minBlocks = static_cast<unsigned>(std::max<int64_t>(1, attr.getInt()));
  unsigned prefetchRegisters = 0;
  int64_t stagedShared = 0;
  // The launch's specialization (none where an argument breaks a hint: the
  // launch itself reports that).
  std::optional<KernelSpecialization> specialization;
  if (llvm::Expected<KernelSpecialization> hints =
          specializeArguments(kernel, args))
    specialization = std::move(*hints);
  else
    llvm::consumeError(hints.takeError());
  estimate.pipelined = isPipelined(kernel, warps, minBlocks,
                                   specialization ? &*specialization : nullptr,
                                   prefetchRegisters, stagedShared);
  estimate.registers = estimateKernelRegisters(source, warps) +
                       estimateDotRegisters(kernel, warps) + prefetchRegisters +
                       kReservedRegisters;
  unsigned budget = getRegisterBudget(warps, minBlocks);
  estimate.budget = budget;
  estimate.spills = estimate.registers > budget;
  unsigned allocated = (std::min(estimate.registers, budget) + 7) / 8 * 8;
  int64_t byThreads = gpu.maxThreadsPerMultiprocessor / estimate.threads;
  int64_t byRegisters =
      gpu.registersPerMultiprocessor / (allocated * estimate.threads);
  int64_t shared = estimateSharedBytes(kernel) + stagedShared;
  int64_t byShared = shared > 0 ? gpu.sharedMemoryPerMultiprocessor / shared
                                : gpu.maxBlocksPerMultiprocessor;
  estimate.blocksPerSM = static_cast<unsigned>(std::max<int64_t>(
      0, std::min({byThreads, byRegisters, byShared,
                   int64_t(gpu.maxBlocksPerMultiprocessor)})));
  if (estimate.blocksPerSM == 0)
    estimate.spills = true;
  // The blocks tile.min_blocks_per_sm guarantees: ptxas holds the kernel to
  // their budget. Without it, ptxas can take more registers than the
  // estimate counts and fit fewer blocks (238 against 160 at rows of 100000
  // f16 on clusters of 8: two blocks per SM, where the estimate fitted
  // three; run 40 ran that choice at 0.89-0.90 of the tuned one). Held to
  // 168, the same kernel fits without spilling since each thread's
  // addresses along a row are one register and constants (it spilled 60
  // bytes when each took its own; spills-model-choice.test checks that no
  // choice spills).
  estimate.guaranteedBlocksPerSM = std::min(minBlocks, estimate.blocksPerSM);

  // The grid: explicit, or persistent at the estimated occupancy.
  std::array<int64_t, 3> sizes = {1, 1, 1};
  llvm::Expected<GridSpec> launchGrid = resolveLaunchGrid(given, source, args);
  if (!launchGrid)
    return launchGrid.takeError();
  const GridSpec &grid = *launchGrid;
  if (grid.persistent) {
    // As the runtime sizes it (getPersistentGrid): with clusters, every
    // cluster that fits at once, the cap counting clusters.
    int64_t fit = gpu.getClustersThatFit(cluster, estimate.blocksPerSM);
    llvm::Expected<int64_t> count = getPersistentGridSize(
        std::max<int64_t>(1, fit), 1, grid.cap, grid.waves.value_or(1));
    if (!count)
      return count.takeError();
    sizes[0] = *count * cluster;
  } else {
    for (auto [axis, size] : llvm::enumerate(grid.sizes))
      sizes[axis] = size;
  }
  estimate.programs = 1;
  for (int64_t size : sizes)
    if (size < 1 ||
        llvm::MulOverflow(estimate.programs, size, estimate.programs))
      return llvm::createStringError("the grid " + formatGrid(sizes) +
                                     " has no count of programs");
  if (estimate.spills) {
    estimate.seconds = std::numeric_limits<double>::infinity();
    return estimate;
  }

  // What one program does.
  std::vector<std::optional<int64_t>> values;
  for (const KernelArg &arg : args)
    values.push_back(arg.isBuffer() || isFloatDataType(arg.getDataType())
                         ? std::nullopt
                         : std::optional(arg.getScalar().getSExtValue()));
  estimate.program =
      estimateProgramCost(kernel, values, sizes, 0, estimate.pipelined);
  // A cluster's programs take different slices of a row (the last ones
  // mostly masked on a short row): the mean over the ranks of the first
  // cluster.
  if (cluster > 1) {
    ProgramCost &mean = estimate.program;
    for (int64_t rank = 1; rank < cluster; ++rank) {
      ProgramCost other =
          estimateProgramCost(kernel, values, sizes, rank, estimate.pipelined);
      mean.bytesLoaded += other.bytesLoaded;
      mean.bytesStored += other.bytesStored;
      mean.bytesInFlight += other.bytesInFlight;
      mean.tileElements += other.tileElements;
      mean.dotFlops += other.dotFlops;
      mean.steps = std::max(mean.steps, other.steps);
      mean.clusterReductions =
          std::max(mean.clusterReductions, other.clusterReductions);
      mean.gridReductions = std::max(mean.gridReductions, other.gridReductions);
      mean.exact &= other.exact;
    }
    double ranks = static_cast<double>(cluster);
    mean.bytesLoaded /= ranks;
    mean.bytesStored /= ranks;
    mean.bytesInFlight /= ranks;
    mean.tileElements /= ranks;
    mean.dotFlops /= ranks;
  }
  const ProgramCost &program = estimate.program;
  estimate.activePrograms =
      countActivePrograms(kernel, values, sizes, cluster, program);

  double sms = gpu.multiprocessors;
  double programs = static_cast<double>(estimate.activePrograms);
  // The blocks that run at once: with clusters, whole clusters within a
  // GPC.
  // A persistent grid holds the clusters the driver says fit; a grid of
  // more clusters than that is scheduled as blocks free up, and runs as if
  // every SM's slots held clusters (measured on the H100, 2026-11-24: one
  // cluster per row beats the persistent grid of the same configuration by
  // 5-20% at long rows).
  // Except a cluster that takes more than a quarter of a GPC's block slots
  // (16 blocks of up to three per SM): a queued one waits for a large part
  // of a GPC to drain, so no more of them run at once than fit. Run 38, one
  // cluster per row: rows of 524288 halves at 0.74 of the persistent grid's
  // speed, rows of 262144 halves at 0.88-0.90, where the model had ranked
  // it 2% ahead (f32 rows of 524288 ran 6% faster one cluster per row: the
  // rule gives that up).
  bool queued = !grid.persistent || grid.waves.value_or(1) != 1;
  int64_t gpcs = std::max(1, gpu.multiprocessors / kMultiprocessorsPerGpc);
  bool wholeGpc =
      cluster * 4 > gpu.multiprocessors / gpcs * int64_t(estimate.blocksPerSM);
  double slots = static_cast<double>(
      cluster > 1 && (!queued || wholeGpc)
          ? gpu.getClustersThatFit(cluster, estimate.blocksPerSM) * cluster
          : int64_t(estimate.blocksPerSM) * gpu.multiprocessors / cluster *
                cluster);
  if (slots == 0) {
    estimate.spills = true;
    estimate.seconds = std::numeric_limits<double>::infinity();
    return estimate;
  }
  double concurrent = std::min(programs, slots);
  double activeSMs = std::min(sms, programs);
  estimate.residentThreadsPerSM = concurrent / activeSMs * estimate.threads;
  double rounds = std::ceil(programs / slots);

  double inFlight = concurrent / activeSMs * program.bytesInFlight;
  double efficiency = std::min(1.0, inFlight / gpu.bytesInFlightPerSM);
  double bandwidth =
      std::min(gpu.bandwidth, activeSMs * kSMShare * gpu.bandwidth / sms);
  double bytes = (program.bytesLoaded + program.bytesStored) * programs;
  estimate.memorySeconds =
      bytes > 0 ? bytes / (bandwidth * std::max(efficiency, 1e-3)) : 0;

  // An SM issues from 4 schedulers; each needs kIssueWarpsPerScheduler
  // warps to issue every cycle through its instructions' latencies.
  double issue = std::min(1.0, estimate.residentThreadsPerSM / 32 /
                                   (4 * kIssueWarpsPerScheduler));
  double lanesPerSecond = activeSMs * 128 * gpu.clock * issue;
  estimate.computeSeconds = program.tileElements * programs *
                                kInstructionsPerElement / lanesPerSecond +
                            program.dotFlops * programs /
                                (activeSMs * gpu.mmaFlopsPerClock * gpu.clock);

  // Pipelining hides half a step's latency, except in a cluster kernel
  // launched one cluster per row, which has no next row to load early (and
  // whose steps wait on the cluster's barriers). In a persistent grid a
  // cluster steps over rows, and loads the next while it exchanges: run
  // 28d's f16 rows of 50000-100000 ran 2-8% faster two stages deep there.
  double stepSeconds =
      kStepSeconds / (estimate.pipelined && (cluster == 1 || !queued) ? 2 : 1);
  // The warps of a block meet at each step's barrier, and its reductions
  // combine one partial result per warp.
  stepSeconds += estimate.threads / 32 * kWarpStepSeconds;
  estimate.latencySeconds =
      (program.steps * stepSeconds +
       program.clusterReductions * cluster * kClusterPeerSeconds +
       program.gridReductions *
           (kGridReduceSeconds + programs * kGridReduceProgramSeconds)) *
      rounds;

  double tail = programs > slots ? rounds * slots / programs : 1;
  auto power = [](double x) { return x * x * x * x; };
  // A program's own chain: its share of the memory time and its steps one
  // after the other. The programs an SM runs at once overlap one another's
  // chains, but a program alone on its SM (one big block) leaves the memory
  // idle while it reduces and exchanges: memory and latency add.
  double perSM = std::max(1.0, concurrent / activeSMs);
  // The last program of an SM's first round starts after the others were
  // launched: the SM launches its blocks one after another.
  double ramp = perSM / cluster * kBlockLaunchSeconds;
  double chain =
      ramp + estimate.memorySeconds / perSM + estimate.latencySeconds;
  estimate.seconds =
      kLaunchSeconds +
      tail * std::pow(power(estimate.memorySeconds) +
                          power(estimate.computeSeconds) + power(chain),
                      0.25);
  // Measured, not derived (kQueuedClusterFactor): queued clusters of a
  // whole GPC beat the persistent grid at large slices when neither loads
  // ahead.
  // (bytesInFlight is one iteration's loads here, the loop not pipelined.)
  // Run 52 measured one cluster per row (waves=all), not a few waves.
  bool clusterPerRow =
      !grid.persistent || grid.waves.value_or(1) == GridSpec::kAllWaves;
  if (cluster > 1 && clusterPerRow && wholeGpc && !estimate.pipelined &&
      program.bytesInFlight >= kQueuedClusterSliceBytes)
    estimate.seconds *= kQueuedClusterFactor;
  return estimate;
}
