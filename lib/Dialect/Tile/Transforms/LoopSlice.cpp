//===- LoopSlice.cpp - What a loop body computes from its counter ---------===//

#include "tile/Dialect/Tile/Transforms/LoopSlice.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

/// Whether `value` is at least 1 wherever it is computed: a positive
/// constant, a program count, the maximum of anything and such a value, the
/// minimum of two such values.
static bool isKnownPositive(Value value, unsigned depth = 0) {
  if (depth > 8)
    return false;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.isStrictlyPositive();
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<tile::NumProgramsOp, tile::NumClustersOp>(def))
    return true;
  if (isa<arith::MaxSIOp>(def))
    return isKnownPositive(def->getOperand(0), depth + 1) ||
           isKnownPositive(def->getOperand(1), depth + 1);
  if (isa<arith::MinSIOp>(def))
    return isKnownPositive(def->getOperand(0), depth + 1) &&
           isKnownPositive(def->getOperand(1), depth + 1);
  return false;
}

/// Whether `op` may be cloned to run where the loop body would not (for an
/// iteration past the end, or before the first): pure, or a signed or
/// unsigned division or remainder free of memory effects whose divisor is
/// known to be at least 1 (MLIR counts a division by a value it cannot see
/// as not speculatable: it may divide by 0, or overflow dividing by -1).
static bool mayCloneAhead(Operation *op) {
  if (isPure(op))
    return true;
  if (!isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
           arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return false;
  return isMemoryEffectFree(op) && isKnownPositive(op->getOperand(1));
}

bool tile::collectInductionSlice(scf::ForOp loop, ValueRange roots,
                                 llvm::SetVector<Operation *> &slice) {
  Block *body = loop.getBody();
  SmallVector<Value> worklist(roots);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (value == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // A block argument of the loop or of a region in it: carried.
      if (loop->isAncestor(arg.getOwner()->getParentOp()))
        return false;
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (!loop->isAncestor(def))
      continue; // From outside the loop.
    if (def->getBlock() != body || !mayCloneAhead(def) || def->getNumRegions())
      return false;
    if (slice.insert(def))
      worklist.append(def->operand_begin(), def->operand_end());
  }
  return true;
}

Value tile::createIsInRange(OpBuilder &builder, scf::ForOp loop, Value iv) {
  auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt;
  return arith::CmpIOp::create(builder, loop.getLoc(), predicate, iv,
                               loop.getUpperBound());
}
