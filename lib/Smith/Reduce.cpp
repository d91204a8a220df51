//===- Reduce.cpp - Simplifications of a program --------------------------===//
//
// The candidates, in the order they are offered: the biggest cuts first
// (stores, then operations from the last to the first), then the geometry
// and the launch, then the details of accesses, buffers and masks.
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Reduce.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir::tile;
using namespace mlir::tile::smith;

namespace {
/// Counts valid candidates until the k-th.
class Offers {
public:
  Offers(const Program &program, unsigned k) : program(program), k(k) {}

  /// Applies `edit` to a copy of the program; an edit that returns false
  /// does not apply. Returns true once the k-th valid candidate is found.
  template <typename F> bool offer(F edit) {
    Program candidate = program;
    if (!edit(candidate))
      return false;
    removeDeadOps(candidate);
    if (!verifyProgram(candidate).empty())
      return false;
    if (seen++ != k)
      return false;
    found = std::move(candidate);
    return true;
  }

  std::optional<Program> found;

private:
  const Program &program;
  unsigned k;
  unsigned seen = 0;
};

/// Makes every use of value `from` a use of value `to`.
void replaceUses(Program &p, int from, int to) {
  for (Op &op : p.ops)
    for (int &operand : op.operands)
      if (operand == from)
        operand = to;
}

/// The index of a mask without a cut, made if there is none.
int getPlainMask(Program &p) {
  for (auto [index, mask] : llvm::enumerate(p.masks))
    if (mask.cut == CutKind::None)
      return static_cast<int>(index);
  p.masks.push_back(Mask{});
  return static_cast<int>(p.masks.size() - 1);
}
} // namespace

std::optional<Program> smith::getSimplification(const Program &program,
                                                unsigned k) {
  Offers offers(program, k);
  const Program &p = program;
  int numOps = static_cast<int>(p.ops.size());
  auto isStore = [&](int i) { return p.ops[i].kind == OpKind::Store; };

  // Drop a store (of several).
  int stores = static_cast<int>(llvm::count_if(
      p.ops, [](const Op &op) { return op.kind == OpKind::Store; }));
  for (int i = numOps - 1; i >= 0 && stores > 1; --i)
    if (isStore(i) && offers.offer([&](Program &q) {
          q.ops.erase(q.ops.begin() + i);
          return true;
        }))
      return offers.found;

  // Replace an operation by a value it depends on (an operand, or further
  // up) of the same shape and type: nearest first.
  for (int i = numOps - 1; i >= 0; --i) {
    const Op &op = p.ops[i];
    if (!op.hasResult() || op.isCondition())
      continue;
    std::vector<bool> above(i, false);
    for (int operand : op.operands)
      above[operand] = true;
    for (int j = i - 1; j >= 0; --j) {
      if (!above[j])
        continue;
      for (int operand : p.ops[j].operands)
        above[operand] = true;
      const Op &x = p.ops[j];
      if (x.isCondition() || x.shape != op.shape || x.type != op.type)
        continue;
      if (offers.offer([&](Program &q) {
            replaceUses(q, i, j);
            return true;
          }))
        return offers.found;
    }
  }
  // Replace an operation by a constant.
  for (int i = numOps - 1; i >= 0; --i) {
    const Op &op = p.ops[i];
    if (!op.hasResult() || op.isCondition() || op.kind == OpKind::Constant)
      continue;
    if (offers.offer([&](Program &q) {
          Op &c = q.ops[i];
          c.kind = OpKind::Constant;
          c.operands.clear();
          c.buffer = c.mask = -1;
          c.hasOther = false;
          c.value = 1;
          return true;
        }))
      return offers.found;
  }

  // The launch and the geometry.
  auto edits = {
      +[](Program &q) {
        if (q.grid == GridKind::Blocks)
          return false;
        q.grid = GridKind::Blocks;
        return true;
      },
      +[](Program &q) {
        if (q.getRowBlocks() < 2)
          return false;
        q.rows = (q.getRowBlocks() - 1) * q.blockRows;
        return true;
      },
      +[](Program &q) {
        if (q.getColBlocks() < 2)
          return false;
        q.cols = (q.getColBlocks() - 1) * q.blockCols;
        return true;
      },
      +[](Program &q) {
        if (q.blockRows < 2)
          return false;
        q.blockRows /= 2;
        q.rows = std::min(q.rows, q.blockRows * q.getRowBlocks());
        return true;
      },
      +[](Program &q) {
        if (q.blockCols < 2)
          return false;
        q.blockCols /= 2;
        return true;
      },
      +[](Program &q) {
        if (q.dotK < 2)
          return false;
        q.dotK /= 2;
        return true;
      },
      +[](Program &q) {
        // No K where nothing is a dot's operand any more.
        if (q.dotK == 0 || llvm::any_of(q.ops, [](const Op &op) {
              return isDotOperand(op.shape);
            }))
          return false;
        q.dotK = 0;
        return true;
      },
      +[](Program &q) {
        if (q.rows < 2)
          return false;
        q.rows = (q.rows + 1) / 2;
        return true;
      },
      +[](Program &q) {
        if (q.cols < 2)
          return false;
        q.cols = (q.cols + 1) / 2;
        return true;
      },
      +[](Program &q) {
        // Whole clusters: half the programs, rounded down to a multiple
        // of the cluster size.
        if (q.grid != GridKind::Persistent || q.programs < 2 * q.clusterSize)
          return false;
        q.programs = q.programs / 2 / q.clusterSize * q.clusterSize;
        return true;
      },
      +[](Program &q) {
        if (q.numStages == 0)
          return false;
        q.numStages = 0;
        return true;
      },
      +[](Program &q) {
        if (q.numWarps < 2)
          return false;
        q.numWarps /= 2;
        return true;
      },
      +[](Program &q) {
        if (!q.specials)
          return false;
        q.specials = false;
        return true;
      },
      +[](Program &q) {
        if (q.fpContract)
          return false;
        q.fpContract = true;
        return true;
      },
      +[](Program &q) {
        if (q.clusterSize == 1)
          return false;
        q.clusterSize = 1;
        return true;
      },
      +[](Program &q) {
        if (!q.gridReduce)
          return false;
        q.gridReduce = false;
        q.gridLogSumExp = false;
        return true;
      },
      +[](Program &q) {
        if (!q.gridLogSumExp)
          return false;
        q.gridLogSumExp = false;
        return true;
      },
      +[](Program &q) {
        if (!q.sizesAreArgs)
          return false;
        q.sizesAreArgs = false;
        return true;
      },
  };
  for (auto edit : edits)
    if (offers.offer(edit))
      return offers.found;

  // Accesses: no cut, no mask, no `other`, plain addresses.
  for (int i = 0; i < numOps; ++i) {
    const Op &op = p.ops[i];
    if (op.kind != OpKind::Load && op.kind != OpKind::Store)
      continue;
    if (op.mask >= 0 && p.masks[op.mask].cut != CutKind::None &&
        offers.offer([&](Program &q) {
          q.ops[i].mask = getPlainMask(q);
          return true;
        }))
      return offers.found;
    if (op.mask >= 0 && offers.offer([&](Program &q) {
          q.ops[i].mask = -1;
          q.ops[i].hasOther = false;
          q.ops[i].value = 0;
          return true;
        }))
      return offers.found;
    if (op.hasOther && offers.offer([&](Program &q) {
          q.ops[i].hasOther = false;
          q.ops[i].value = 0;
          return true;
        }))
      return offers.found;
    if (op.addressing != Addressing::Global && offers.offer([&](Program &q) {
          q.ops[i].addressing = Addressing::Global;
          return true;
        }))
      return offers.found;
  }
  // Casts, expansions and dots written the plain way.
  for (int i = 0; i < numOps; ++i) {
    const Op &op = p.ops[i];
    if (op.kind == OpKind::Cast && op.cast != CastStyle::TileCast &&
        offers.offer([&](Program &q) {
          q.ops[i].cast = CastStyle::TileCast;
          return true;
        }))
      return offers.found;
    if (op.kind == OpKind::Expand && op.expand != ExpandStyle::Direct &&
        offers.offer([&](Program &q) {
          q.ops[i].expand = ExpandStyle::Direct;
          return true;
        }))
      return offers.found;
    if (op.precision != DotPrecision::Default && offers.offer([&](Program &q) {
          q.ops[i].precision = DotPrecision::Default;
          return true;
        }))
      return offers.found;
  }
  // Buffers: the plainest layout.
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const Buffer &buffer = p.buffers[b];
    auto field = [&](bool applies, auto set) {
      return applies && offers.offer([&](Program &q) {
        set(q.buffers[b]);
        return true;
      });
    };
    if (field(buffer.layoutIsArgs, [](Buffer &x) { x.layoutIsArgs = false; }) ||
        field(buffer.offset != 0, [](Buffer &x) { x.offset = 0; }) ||
        field(buffer.columnMajor, [](Buffer &x) { x.columnMajor = false; }) ||
        field(buffer.innerStride != 1, [](Buffer &x) { x.innerStride = 1; }) ||
        field(buffer.rowPad != 0, [](Buffer &x) { x.rowPad = 0; }) ||
        field(buffer.alignRows, [](Buffer &x) { x.alignRows = false; }) ||
        field(buffer.tailPad != 0, [](Buffer &x) { x.tailPad = 0; }) ||
        field(buffer.pointerHint, [](Buffer &x) { x.pointerHint = false; }))
      return offers.found;
  }
  for (size_t m = 0; m < p.masks.size(); ++m)
    if (p.masks[m].boundIsArg && offers.offer([&](Program &q) {
          q.masks[m].boundIsArg = false;
          return true;
        }))
      return offers.found;
  return std::nullopt;
}
