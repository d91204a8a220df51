//===- Interpreter.h - A CPU interpreter for tile kernels -------*- C++ -*-===//
//
// Runs a `tile.func` on the CPU, op by op, with the semantics the GPU
// compiler gives it: the reference every GPU result is checked against, and
// the way to execute kernels on machines without a GPU.
//
// Every program of the grid runs in turn (x fastest, then y, then z) over
// host buffers. Tiles are interpreted as whole arrays. Pointers carry their
// provenance (the buffer they were derived from and an offset in elements),
// so every load and store is checked against that buffer's bounds. Errors
// (an access out of bounds, a division by zero, an unsupported op) are
// reported as MLIR diagnostics on the op, with its source location, and stop
// the run. docs/interpreter.md describes the semantics in full.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INTERPRETER_INTERPRETER_H
#define TILE_INTERPRETER_INTERPRETER_H

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/HostData/KernelArg.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/BitVector.h"

#include <cstdint>
#include <vector>

namespace mlir::tile {

/// The largest tile the interpreter allocates, in elements.
constexpr int64_t kMaxInterpretedTileElements = int64_t(1) << 24;

/// Checks, without running it, that the interpreter supports every op and
/// every type in `kernel`; reports the first that it does not support.
LogicalResult checkInterpretable(FuncOp kernel);

/// Runs `kernel` for every program id of `grid` (1 to 3 sizes: x, then y and
/// z, which default to 1; each at least 1 and at most 2^31 - 1) over `args`,
/// one per kernel parameter in order: a buffer for each pointer parameter, a
/// scalar of the parameter's type otherwise. Stores write into the buffers.
/// Reports the first error as a diagnostic and returns failure.
LogicalResult interpretKernel(FuncOp kernel, ArrayRef<int64_t> grid,
                              MutableArrayRef<KernelArg> args);

/// How much of a grid to run: all of it in order, or a sample of it within a
/// time budget (what a check of a large launch can afford).
struct InterpretOptions {
  /// 0 runs every program, x fastest. Otherwise programs (whole clusters,
  /// for a kernel with tile.cluster_size) start until this many seconds have
  /// passed: first the grid's last program and its first (the edges, where
  /// masks bite), then the others in a fixed scattered order.
  double secondsBudget = 0;
  /// When set, receives one mask per argument (empty for scalars and for
  /// buffers nothing stored to): the elements some program stored to.
  std::vector<llvm::BitVector> *stored = nullptr;
};

/// What a run covered.
struct InterpretCoverage {
  int64_t programsRun = 0;
  int64_t programs = 0;

  bool complete() const { return programsRun == programs; }
};

/// interpretKernel, over the programs `options` picks.
FailureOr<InterpretCoverage> interpretKernel(FuncOp kernel,
                                             ArrayRef<int64_t> grid,
                                             MutableArrayRef<KernelArg> args,
                                             const InterpretOptions &options);

} // namespace mlir::tile

#endif // TILE_INTERPRETER_INTERPRETER_H
