//===- AxisInfo.h - Contiguity, divisibility and constancy ------*- C++ -*-===//
//
// A forward dataflow analysis over integer and pointer tiles, in the spirit of
// Triton's AxisInfo. For every value and every dimension it bounds:
//
//  - contiguity: the values come in runs of this many consecutive integers
//    (addresses one element apart, for pointers) along the dimension;
//  - divisibility: the first value of each such run is a multiple of this
//    power of two (in bytes, for pointers);
//  - constancy: the values come in runs of this many equal values.
//
// Scalars count as tiles of one element. The facts come from `tile.range`,
// `tile.splat`, constants, `tile.divisibility` hints on kernel arguments and
// the arithmetic between them. The coalescing pass and the lowering use them
// to prove that a load or store can move 128 bits at a time.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_AXISINFO_H
#define TILE_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tile {

class AxisInfo {
public:
  /// Divisibility given to 0 and to what is known to be a multiple of every
  /// power of two that matters.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  AxisInfo() = default;
  AxisInfo(SmallVector<int64_t> contiguity, SmallVector<int64_t> divisibility,
           SmallVector<int64_t> constancy,
           std::optional<int64_t> constant = std::nullopt)
      : contiguity(std::move(contiguity)),
        divisibility(std::move(divisibility)), constancy(std::move(constancy)),
        constant(constant) {}

  /// What is known of a value nothing is known about.
  static AxisInfo getPessimistic(Type type);

  bool isUninitialized() const { return contiguity.empty(); }
  int64_t getRank() const { return contiguity.size(); }
  int64_t getContiguity(int64_t dim) const { return contiguity[dim]; }
  int64_t getDivisibility(int64_t dim) const { return divisibility[dim]; }
  int64_t getConstancy(int64_t dim) const { return constancy[dim]; }
  std::optional<int64_t> getConstant() const { return constant; }
  /// The same facts with another constant.
  AxisInfo withConstant(std::optional<int64_t> value) const {
    return AxisInfo(contiguity, divisibility, constancy, value);
  }

  /// What holds on both paths: the smaller runs, the common divisibility.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy &&
           constant == other.constant;
  }
  void print(raw_ostream &os) const;

private:
  SmallVector<int64_t> contiguity, divisibility, constancy;
  std::optional<int64_t> constant;
};

using AxisInfoLattice = dataflow::Lattice<AxisInfo>;

class AxisInfoAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override;
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override;
  void setToEntryState(AxisInfoLattice *lattice) override;
};

/// Runs the analysis on `op` (with the dead-code and constant analyses it
/// relies on) and answers questions about the values inside it.
class AxisInfoResult {
public:
  explicit AxisInfoResult(Operation *op);
  LogicalResult getStatus() const { return status; }

  /// The facts about `value`, pessimistic if the analysis did not reach it.
  AxisInfo get(Value value) const;

  /// How many consecutive elements along `dim` a load or store through the
  /// pointer tile `ptr` under `mask` (null if none) can move as one access:
  /// a power of two bounded by the contiguity of the addresses, their
  /// alignment, the mask's constancy and 16 bytes.
  int64_t getAccessWidth(Value ptr, Value mask, int64_t dim) const;

private:
  DataFlowSolver solver;
  LogicalResult status = success();
};

} // namespace mlir::tile

#endif // TILE_ANALYSIS_AXISINFO_H
