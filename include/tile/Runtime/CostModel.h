//===- CostModel.h - How long a launch should take --------------*- C++ -*-===//
//
// A model of a launch's time on a GPU, from the kernel's IR and the launch
// alone (nothing compiled, nothing run), for the choices a launch makes
// before anyone tunes it (LaunchConfig) and the order in which the tuner
// times configurations (Tuner). See docs/tuning.md, "The model".
//
// The kernel's first program is counted (tile/Analysis/ProgramCost.h): the
// bytes it moves, the bytes its loads have in flight, its tile elements,
// its dot FLOPs and its dependent steps. Which of its loops are pipelined,
// and how, is asked of tile-pipeline-loops on the kernel specialized as the
// launch compiles it (specializeArguments: the divisibility of its integer
// arguments decides whether rows can be staged through shared memory). Its
// registers per thread come from the register estimate
// (tile/Analysis/RegisterEstimate.h), and with its threads they give the
// programs an SM holds. Of a one-dimensional grid, the programs with work
// count (P; a grid-stride loop leaves those past the last item idle, found
// by bisection over the programs' counts). Then, for
// P programs on S SMs, each holding B of them:
//
//   memory   = P x bytes / (bandwidth x min(1, in flight per SM /
//              kBytesInFlightPerSM)), in flight per SM = the programs an SM
//              runs at once x the bytes each has in flight; with fewer
//              programs than SMs, each SM draws at most kSMShare times its
//              share of the bandwidth;
//   compute  = P x tile elements x kInstructionsPerElement / (S x 128
//              lanes x clock x min(1, resident warps per SM / (4 x
//              kIssueWarpsPerScheduler))), and the dots at the tensor
//              cores' rate;
//   latency  = (the program's steps x kStepSeconds, halved for a loop
//              pipelined two stages deep or more, + its cluster reductions
//              x the cluster's size x kClusterPeerSeconds, + its grid
//              reductions x (kGridReduceSeconds + the grid's programs x
//              kGridReduceProgramSeconds)) x the rounds of programs an SM
//              runs one after the other;
//   chain    = ramp + memory / the programs an SM runs at once + latency:
//              one program's own path, its loads and its steps one after
//              the other (a program alone on its SM cannot hide its steps
//              behind another's loads), started when the SM has launched
//              its first round's blocks (ramp = those blocks x
//              kBlockLaunchSeconds);
//   time     = kLaunchSeconds + the tail (the last round of programs, part
//              full) x (memory^4 + compute^4 + chain^4)^(1/4): the
//              largest of the three, the others breaking its ties.
//
// With clusters, the programs that run at once are whole clusters within a
// GPC for a persistent grid (GpuModel::getClustersThatFit), every SM's
// slots for a grid of more clusters than fit; a cluster kernel's pipelined
// loops get credit only in a persistent grid, whose clusters step over
// several rows (docs/tuning.md says what measured this).
//
// The constants were fitted to the exhaustive measurements of the softmax
// kernels on the H100 (bench/model_eval.py); docs/tuning.md shows how well
// the model ranks them.
//
// A configuration whose tiles cannot fit in registers by the estimate
// spills: its time is infinite, so that it is never chosen over one that
// fits; of two that spill, the one whose estimate exceeds its register
// budget by less ranks first (isRankedBefore), so that a search that times
// spilling configurations at all times the nearest to fitting first.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_COSTMODEL_H
#define TILE_RUNTIME_COSTMODEL_H

#include "tile/Analysis/ProgramCost.h"
#include "tile/Runtime/Grid.h"
#include "tile/Runtime/KernelSource.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tile {

struct CudaDeviceInfo;

/// The bytes an SM must have in flight to draw its share of the H100's
/// bandwidth (Little's law: about a microsecond of latency at 22 GB/s per
/// SM, doubled for the time a program spends computing between its loads).
inline constexpr double kBytesInFlightPerSM = 64 * 1024;
/// What a copy kernel reaches of the memory's peak bandwidth: the H100
/// 80GB HBM3's 2.95 TB/s of 3.35 (5120 bits at 2619 MHz), so that the
/// H100's model is the same whether the driver's figures or the defaults
/// make it. The H200 (6016 bits at 3201 MHz: 4.81 TB/s,
/// bench/results/2026-11-29-h200-run64-device-attributes.log) copies at
/// 4.1-4.2 TB/s, 0.86-0.87 of its peak; the model takes 4.24.
inline constexpr double kCopyEfficiency = 2.95e12 / (2 * 2619e6 * 5120 / 8);

/// What the model knows of a GPU.
struct GpuModel {
  int multiprocessors = 132;
  int registersPerMultiprocessor = 65536;
  int maxThreadsPerMultiprocessor = 2048;
  int maxBlocksPerMultiprocessor = 32;
  int64_t sharedMemoryPerMultiprocessor = 228 * 1024;
  /// What a copy kernel reaches, in bytes per second, and the bytes an SM
  /// must have in flight to draw its share of it.
  double bandwidth = 2.95e12;
  double bytesInFlightPerSM = kBytesInFlightPerSM;
  /// The SM clock, in Hz, and the dense f16 FLOPs per SM per clock of
  /// mma.sync.
  double clock = 1.755e9;
  double mmaFlopsPerClock = 2048;

  /// How many clusters of `cluster` blocks run at once with `blocksPerSM`
  /// blocks per SM (the programs that fit, without clusters). A cluster's
  /// blocks share one GPC, and the driver does not tell the GPCs: the model
  /// takes multiprocessors / kMultiprocessorsPerGpc GPCs of equal size (the
  /// H100 SXM's 132 SMs as 7 GPCs of 18), so that a cluster of 16 leaves a
  /// GPC's other SMs idle. On the H100 the driver fits 15 clusters of 8
  /// blocks of one per SM, and 14 of 16 at two per SM (the model: 14 and
  /// 14; bench/results/2026-11-26-h100-run27a-gpu-tests.log).
  int64_t getClustersThatFit(int64_t cluster, int64_t blocksPerSM) const;

  /// The H100 80GB HBM3 (sm_90), as measured: the default.
  static GpuModel h100();
  /// The GPU `info` describes: its SMs and limits from the driver; its
  /// bandwidth kCopyEfficiency times the memory's peak (the H100's where
  /// the driver does not say), and the bytes in flight that draw it scaled
  /// from the H100's by the bandwidth per SM (Little's law, the latency
  /// taken as the H100's); its clock by chip (sm_90: the H100's; sm_80: the
  /// A100's).
  static GpuModel fromDevice(const CudaDeviceInfo &info);
};

/// The model's constants (their origin: docs/tuning.md). The critical path
/// of one
/// dependent step (a load, reductions across warps, a store); a launch's
/// fixed cost as CUDA events see it; instructions per element of each tile
/// operation (address and predicate arithmetic included); the price of a
/// cluster reduction per program of the cluster (a message to each peer
/// through distributed shared memory and a barrier).
inline constexpr double kStepSeconds = 1.5e-6;
inline constexpr double kLaunchSeconds = 5e-6;
inline constexpr double kInstructionsPerElement = 2.5;
inline constexpr double kClusterPeerSeconds = 0.1e-6;
/// A grid reduction (tile.grid_reduce): a fixed part and a part per program
/// of the grid. From run 107 (H100, slots tagged, one warp a program
/// polling: softmax_grid.mlir at 64 x 2^20 f32 took about 2.6 us a
/// reduction over 132 programs, 3.8 over 264 and 5.3 over 528, beyond a
/// copy's time; bench/results/2026-12-07-h100-run107-report.md). Those
/// figures give 1.9 us + 6.8 ns a program, but with the rest of this
/// model (which puts the kernel at about twice its measured time) that
/// ranked 264 programs first; 16 ns a program keeps run 107's order
/// (132 programs fastest, then 264, then 528). Run 119 timed the leader's
/// protocol, the default since, at about 1.4 us + 3.8 ns a program for an
/// exchange alone (f32 and bf16 together; f32 alone 1.37 us + 3.4 ns);
/// fitted to that, the model ranks 396 programs of 4096
/// columns first at 64 x 2^20, a grid no run has timed (run 120's fastest
/// was 256 programs of 4096, level with 128 of 8192), so these keep run
/// 107's ranking until a run times the leader over grids at long rows.
inline constexpr double kGridReduceSeconds = 1.9e-6;
inline constexpr double kGridReduceProgramSeconds = 16e-9;
/// The time an SM takes to launch one more block of its first round (the
/// last block's chain starts that much later), and the share of the
/// bandwidth one SM can draw when fewer programs than SMs run, both fitted
/// to run 28d's tune logs (bench/model_eval.py; docs/tuning.md): one warp
/// per row of 256 halves (31 blocks per SM) ran 7.4 us where two rows per
/// warp (15.5) ran 6.5, and 64 programs of 16 rows each ran 1.3x slower
/// than the fastest at 1024 x 1024 f16.
inline constexpr double kBlockLaunchSeconds = 60e-9;
inline constexpr double kSMShare = 1.2;
/// The warps each of an SM's four schedulers needs resident to issue an
/// instruction every cycle (the latency of dependent arithmetic, of
/// shuffles and exponentials, hidden by the other warps): with fewer, the
/// compute term slows in proportion. Run 34 (2026-11-27, H100): online
/// softmax alone on its SM (64 rows of 2^20) ran 7-14% faster with 16 warps
/// than with 8, whose estimates were otherwise equal.
inline constexpr double kIssueWarpsPerScheduler = 4;
/// What each warp of a block adds to a step's critical path (the barrier
/// and the reduction over the warps' partial results): with the issue rate
/// above, this keeps a program alone on its SM from taking more warps than
/// it can keep busy (run 32: the cluster kernel at 128 rows of 2^19 f16 ran
/// 0.62 as fast with 32 warps as with 8).
inline constexpr double kWarpStepSeconds = 5e-9;
/// SMs per GPC, as GpuModel::getClustersThatFit counts them.
inline constexpr int kMultiprocessorsPerGpc = 18;
/// One cluster per row, against the persistent grid, for clusters that take
/// a whole GPC (more than a quarter of its block slots) whose row loop is
/// not pipelined and whose programs each take a slice of 64 KiB or more
/// (kQueuedClusterSliceBytes): run 52 measured the queued grid 1-12% faster
/// (median 4%) at f32 rows of 262144 and 524288 and f16 rows of 524288, and
/// 4-9% slower at f16 rows of 262144 (32 KiB slices). The model's terms
/// rank the two within 1% of each other there; this factor scales the
/// queued estimate. bench/results/2026-11-27-h100-run52-report.md.
inline constexpr double kQueuedClusterFactor = 0.96;
inline constexpr double kQueuedClusterSliceBytes = 64 * 1024;

/// The model's estimate of one launch.
struct LaunchEstimate {
  /// Infinite when the configuration spills by the register estimate.
  double seconds = 0;
  double memorySeconds = 0, computeSeconds = 0, latencySeconds = 0;
  /// Registers per thread (the estimate, with the reserve), threads per
  /// program, programs per SM, programs.
  unsigned registers = 0, threads = 0, blocksPerSM = 0;
  /// The registers per thread ptxas may use (getRegisterBudget): `spills`
  /// where `registers` is above it.
  unsigned budget = 0;
  /// Of blocksPerSM, those the kernel's tile.min_blocks_per_sm guarantees:
  /// ptxas holds a kernel to the registers that many blocks leave each
  /// thread, but may give one that asks for fewer blocks more registers
  /// than the estimate counts, and so fewer blocks per SM.
  unsigned guaranteedBlocksPerSM = 1;
  /// The threads an active SM holds at once (its programs at once times
  /// their threads).
  double residentThreadsPerSM = 0;
  int64_t programs = 0;
  /// Of programs, those with work (the others' loops run no iteration).
  int64_t activePrograms = 0;
  bool spills = false;
  /// A loop of the kernel is pipelined two stages deep or more.
  bool pipelined = false;
  ProgramCost program;

  /// "12.3 us (memory 10.1, compute 2.0, latency 3.0; 40 regs, 8 blocks
  /// per SM, 1056 programs)".
  std::string str() const;
};

/// Whether the model ranks launch `a` before launch `b`: faster; of two
/// that spill by the register estimate (both infinite), the one whose
/// estimate is the smaller multiple of its budget (LayerNorm backward at
/// rows of 16384: 8 and 16 warps, 1.6-1.75 times, before 1 and 2, 6-12
/// times, which ptxas could not compile or spilled 8-10 KB a thread, and
/// which took all 32 of run 99's tune slots, in the space's order); or as
/// fast with more of its blocks per SM guaranteed (guaranteedBlocksPerSM); or
/// as fast and as guaranteed with more threads resident per SM, whose
/// warps hide one another's latency (measured with Nsight Compute on the
/// H100, run 28h: RMSNorm backward bf16 at 4096 x 4096 with 8 warps per SM
/// left 68% of the schedulers' cycles without an eligible warp; the model
/// estimates it alike with 16). Except that of two programs each alone on
/// its SM, the one of fewer threads ranks first: each barrier of its
/// block-wide reductions waits on fewer warps while the SM has nothing else
/// to run (run 32: rows of 2^19 f16 on clusters of 16 ran 32 warps at 0.62
/// of 8).
bool isRankedBefore(const LaunchEstimate &a, const LaunchEstimate &b);

/// The estimate of a launch of `source`'s kernel with `args` on `grid` (a
/// persistent grid sized by the estimated occupancy, times its waves) on
/// `gpu`; `numWarps` for kernels that name none. An error when the grid
/// cannot be resolved.
llvm::Expected<LaunchEstimate>
estimateLaunch(const KernelSource &source, llvm::ArrayRef<KernelArg> args,
               const GridSpec &grid, const GpuModel &gpu, unsigned numWarps);

} // namespace mlir::tile

#endif // TILE_RUNTIME_COSTMODEL_H
