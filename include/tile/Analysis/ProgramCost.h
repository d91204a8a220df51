//===- ProgramCost.h - What one program of a launch does --------*- C++ -*-===//
//
// A count, from a tile-dialect kernel's IR and the values of a launch, of
// what one of its programs does: the bytes its loads and stores move, the
// bytes its loads have outstanding at once, the elements of the tiles it
// computes and the FLOPs of its dots. The runtime's cost model
// (tile/Runtime/CostModel.h) turns it into a time for a GPU.
//
// Each operation counts once per iteration of the loops around it: a loop's
// trip count is evaluated from its bounds, which are scalars computed from
// constants, integer arguments, the program's id and the grid's size
// (tile.num_programs); a loop whose trip count cannot be evaluated counts
// once, and the count says it is not exact. An induction variable is taken
// at its first value; an scf.if counts both branches, and is not exact.
//
// A load or store counts its lanes that its mask leaves on. The fraction is
// evaluated for masks of the shape Triton's kernels use: a comparison of
// `start + tile.range` (through tile.splat, tile.expand_dims and
// tile.broadcast) with a splatted scalar bound, and the conjunction (andi) of
// such masks along different dimensions. Any other mask counts every lane
// (not exact).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_PROGRAMCOST_H
#define TILE_ANALYSIS_PROGRAMCOST_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Support/LLVM.h"

#include <array>
#include <cstdint>
#include <optional>

namespace mlir::tile {

struct ProgramCost {
  /// Global-memory bytes of the program's loads and stores (active lanes,
  /// each operation times the trip counts of the loops around it).
  double bytesLoaded = 0;
  double bytesStored = 0;
  /// The bytes the loads of one iteration of a loop ask for, times the
  /// loop's tile.num_stages (iterations in flight); the largest over the
  /// loops that load, or the loads outside any loop together.
  double bytesInFlight = 0;
  /// Iterations, one after the other, of the loops that load (the largest
  /// product of trip counts around a load): the program's dependent steps.
  double steps = 1;
  /// Elements of every tile the program computes (floating-point results
  /// of arithmetic, math, casts and reductions), times trip counts: the
  /// work its threads share.
  double tileElements = 0;
  /// 2 M N K of each tile.dot, times trip counts.
  double dotFlops = 0;
  /// tile.cluster_reduce operations, times trip counts: each a round of
  /// messages between the programs of a cluster, in the critical path.
  double clusterReductions = 0;
  /// tile.grid_reduce operations, times trip counts: each a meeting of
  /// every program of the grid through global memory, in the critical
  /// path.
  double gridReductions = 0;
  /// Every trip count and mask fraction was evaluated.
  bool exact = true;
};

/// What a program of a launch of `kernel` does: `args` holds each kernel
/// argument's value where it is an integer (nullopt otherwise), `grid` the
/// programs along x, y and z, `program` the program's id along x (its id
/// along y and z is 0; clusters run along x, so its cluster rank and
/// cluster id follow from it). The programs of a cluster take different
/// slices of a row and only together say what a row costs; the programs
/// of a grid-stride loop past the last item do nothing.
///
/// `pipelined` says whether the loops that ask for stages
/// (`tile.num_stages`) get them: tile-pipeline-loops leaves a loop alone
/// where its next iteration's tiles do not fit in registers, and then only
/// one iteration's loads are in flight (tile/Dialect/Tile/Transforms/
/// PipelineLoops.h; the cost model asks it).
ProgramCost estimateProgramCost(FuncOp kernel,
                                ArrayRef<std::optional<int64_t>> args,
                                std::array<int64_t, 3> grid,
                                int64_t program = 0, bool pipelined = true);

} // namespace mlir::tile

#endif // TILE_ANALYSIS_PROGRAMCOST_H
