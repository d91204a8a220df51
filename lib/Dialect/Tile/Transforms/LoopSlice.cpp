//===- LoopSlice.cpp - What a loop body computes from its counter ---------===//

#include "tile/Dialect/Tile/Transforms/LoopSlice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

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
    if (def->getBlock() != body || !isPure(def) || def->getNumRegions())
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
