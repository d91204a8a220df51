//===- RegisterEstimate.cpp - Registers a kernel's tiles need -------------===//
//
// See RegisterEstimate.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/RegisterEstimate.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tile;

unsigned mlir::tile::getRegisterBudget(unsigned numWarps,
                                       unsigned blocksPerSM) {
  unsigned threads = std::max(1u, numWarps) * 32 * std::max(1u, blocksPerSM);
  return std::min(255u, 65536u / threads);
}

unsigned mlir::tile::estimateRegisters(Type type, unsigned numWarps) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !isa<FloatType>(tensor.getElementType()))
    return 0;
  uint64_t threads = std::max(1u, numWarps) * 32;
  uint64_t perThread =
      std::max<uint64_t>(1, llvm::divideCeil(tensor.getNumElements(), threads));
  uint64_t bits = perThread * tensor.getElementTypeBitWidth();
  return static_cast<unsigned>(llvm::divideCeil(bits, 32));
}

/// Whether the results of `op` take no registers of their own: constants
/// are immediates, splats and broadcasts repeat a value held once per row
/// or per thread, expand_dims reshapes a tile already counted.
static bool takesNoRegisters(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<SplatOp, BroadcastOp, ExpandDimsOp>(op);
}

/// The operation of `block` that holds `user`, or null.
static Operation *getAncestorIn(Block &block, Operation *user) {
  return block.findAncestorOpInBlock(*user);
}

unsigned mlir::tile::estimatePeakRegisters(Block &block, unsigned numWarps) {
  // The position in `block` of each value's last use.
  llvm::DenseMap<Operation *, unsigned> position;
  unsigned index = 0;
  for (Operation &op : block)
    position[&op] = index++;
  auto lastUse = [&](Value value) {
    unsigned last = 0;
    bool used = false;
    for (Operation *user : value.getUsers())
      if (Operation *holder = getAncestorIn(block, user)) {
        last = std::max(last, position[holder]);
        used = true;
      }
    return used ? last : ~0u; // Unused: dies where it is born.
  };

  // Registers freed after each position, by the values whose last use it is.
  llvm::DenseMap<unsigned, unsigned> freed;
  unsigned live = 0, peak = 0;
  for (BlockArgument arg : block.getArguments()) {
    unsigned size = estimateRegisters(arg.getType(), numWarps);
    unsigned last = lastUse(arg);
    if (size == 0 || last == ~0u)
      continue;
    live += size;
    freed[last] += size;
  }
  peak = live;
  for (Operation &op : block) {
    unsigned here = position[&op];
    // Inside a nested region, its own tiles on top of what is live here.
    unsigned nested = 0;
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        nested = std::max(nested, estimatePeakRegisters(inner, numWarps));
    peak = std::max(peak, live + nested);
    // Operands whose last use this is give their registers to the results.
    live -= freed.lookup(here);
    unsigned born = 0;
    if (takesNoRegisters(&op)) {
      peak = std::max(peak, live);
      continue;
    }
    for (Value result : op.getResults()) {
      unsigned size = estimateRegisters(result.getType(), numWarps);
      unsigned last = lastUse(result);
      if (size == 0)
        continue;
      born += size;
      if (last != ~0u)
        freed[last] += size;
      else
        peak = std::max(peak, live + born); // Dead at once.
    }
    live += born;
    peak = std::max(peak, live);
    if (born)
      for (Value result : op.getResults())
        if (lastUse(result) == ~0u)
          live -= estimateRegisters(result.getType(), numWarps);
  }
  return peak;
}
