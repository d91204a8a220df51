//===- CostModel.cpp - How long a launch should take ----------------------===//
//
// See tile/Runtime/CostModel.h and docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/CostModel.h"

#include "tile/Analysis/RegisterEstimate.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"
#include "tile/Runtime/Compiler.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/KernelRunner.h"
#include "tile/Runtime/LaunchConfig.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
  if (info.multiprocessorCount > 0)
    gpu.multiprocessors = info.multiprocessorCount;
  if (info.registersPerMultiprocessor > 0)
    gpu.registersPerMultiprocessor = info.registersPerMultiprocessor;
  if (info.sharedMemoryPerMultiprocessor > 0)
    gpu.sharedMemoryPerMultiprocessor = info.sharedMemoryPerMultiprocessor;
  return gpu;
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

/// Whether a loop around a load of `kernel` is pipelined two stages deep or
/// more.
static bool isPipelined(FuncOp kernel) {
  bool pipelined = false;
  kernel.walk([&](scf::ForOp loop) {
    if (auto attr = loop->getAttrOfType<IntegerAttr>(
            TileDialect::getNumStagesAttrName()))
      pipelined |= attr.getInt() >= 2;
  });
  return pipelined;
}

llvm::Expected<LaunchEstimate>
mlir::tile::estimateLaunch(const KernelSource &source,
                           llvm::ArrayRef<KernelArg> args, const GridSpec &grid,
                           const GpuModel &gpu, unsigned numWarps) {
  FuncOp kernel = source.getKernel();
  LaunchEstimate estimate;
  CompileOptions compile;
  compile.numWarps = numWarps;
  unsigned warps = getKernelNumWarps(kernel, compile);
  estimate.threads = 32 * warps;
  int64_t cluster = TileDialect::getClusterSize(kernel);

  // Registers and the programs an SM holds.
  estimate.registers = estimateKernelRegisters(source, warps) +
                       estimateDotRegisters(kernel, warps) + kReservedRegisters;
  // A kernel that asks for room for several blocks per SM
  // (tile.min_blocks_per_sm) gets fewer registers per thread.
  unsigned minBlocks = 1;
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(
          TileDialect::getMinBlocksPerSMAttrName()))
    minBlocks = static_cast<unsigned>(std::max<int64_t>(1, attr.getInt()));
  unsigned budget = getRegisterBudget(warps, minBlocks);
  estimate.spills = estimate.registers > budget;
  unsigned allocated = (std::min(estimate.registers, budget) + 7) / 8 * 8;
  int64_t byThreads = gpu.maxThreadsPerMultiprocessor / estimate.threads;
  int64_t byRegisters =
      gpu.registersPerMultiprocessor / (allocated * estimate.threads);
  int64_t shared = estimateSharedBytes(kernel);
  int64_t byShared = shared > 0 ? gpu.sharedMemoryPerMultiprocessor / shared
                                : gpu.maxBlocksPerMultiprocessor;
  estimate.blocksPerSM = static_cast<unsigned>(std::max<int64_t>(
      0, std::min({byThreads, byRegisters, byShared,
                   int64_t(gpu.maxBlocksPerMultiprocessor)})));
  if (estimate.blocksPerSM == 0)
    estimate.spills = true;

  // The grid: explicit, or persistent at the estimated occupancy.
  std::array<int64_t, 3> sizes = {1, 1, 1};
  if (grid.persistent) {
    llvm::Expected<int64_t> programs = getPersistentGridSize(
        gpu.multiprocessors, std::max(1u, estimate.blocksPerSM), grid.cap,
        grid.waves.value_or(1));
    if (!programs)
      return programs.takeError();
    sizes[0] = *programs;
    sizes[0] = std::max<int64_t>(cluster, sizes[0] / cluster * cluster);
  } else {
    llvm::Expected<llvm::SmallVector<int64_t, 3>> resolved =
        resolveGrid(grid, source, args);
    if (!resolved)
      return resolved.takeError();
    for (auto [axis, size] : llvm::enumerate(*resolved))
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
  estimate.program = estimateProgramCost(kernel, values, sizes);
  const ProgramCost &program = estimate.program;

  double sms = gpu.multiprocessors;
  double programs = static_cast<double>(estimate.programs);
  double slots = static_cast<double>(estimate.blocksPerSM) * sms;
  double concurrent = std::min(programs, slots);
  double activeSMs = std::min(sms, programs);
  double rounds = std::ceil(programs / slots);

  double inFlight = concurrent / activeSMs * program.bytesInFlight;
  double efficiency = std::min(1.0, inFlight / kBytesInFlightPerSM);
  double bandwidth =
      std::min(gpu.bandwidth, activeSMs * 2 * gpu.bandwidth / sms);
  double bytes = (program.bytesLoaded + program.bytesStored) * programs;
  estimate.memorySeconds =
      bytes > 0 ? bytes / (bandwidth * std::max(efficiency, 1e-3)) : 0;

  double lanesPerSecond = activeSMs * 128 * gpu.clock;
  estimate.computeSeconds = program.tileElements * programs *
                                kInstructionsPerElement / lanesPerSecond +
                            program.dotFlops * programs /
                                (activeSMs * gpu.mmaFlopsPerClock * gpu.clock);

  estimate.pipelined = isPipelined(kernel);
  double stepSeconds = kStepSeconds / (estimate.pipelined ? 2 : 1);
  estimate.latencySeconds =
      (program.steps * stepSeconds +
       program.clusterReductions * cluster * kClusterPeerSeconds) *
      rounds;

  double tail = programs > slots ? rounds * slots / programs : 1;
  auto power = [](double x) { return x * x * x * x; };
  estimate.seconds =
      kLaunchSeconds + tail * std::pow(power(estimate.memorySeconds) +
                                           power(estimate.computeSeconds) +
                                           power(estimate.latencySeconds),
                                       0.25);
  return estimate;
}
