//===- SharedMemoryPlacement.cpp - Where shared memory goes ---------------===//
//
// Every operation that needs shared-memory scratch (a reduction across
// warps, a layout conversion, a cluster reduction's slots) gets a byte range
// of its own, and so does every buffer (tilegpu.local_alloc, the rings
// tilegpu-pipeline makes, and their mbarriers), in the kernel's one
// shared-memory global:
//
//   [ scratch ... ][ buffers (128- or 1024-byte aligned) ... ]
//
// Pieces that are never live together share bytes (see SharedMemoryPlacer).
// A layout conversion where no buffer is live any more (the epilogue's, after
// the pipelined loop: its accumulator converted for coalesced stores) goes
// over the buffers' bytes, first fit, with a barrier before it writes (other
// warps may still be reading the last stage), and before that a wait for the
// block's cp.async copies (those past the loop's end, zero-filled, may still
// be landing); it never covers an mbarrier
// (PTX wants mbarrier.inval before such memory is used otherwise).
//
//===----------------------------------------------------------------------===//

#include "PatternTileGPUToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tilegpu;

/// True when an operation of type OpTy uses `alloc`'s buffer (or one of its
/// ring): a warpgroup_dot that reads it, or a TMA copy that writes it, both
/// of which follow the swizzle's address bits of 8 rows of up to 128 bytes.
template <typename OpTy> static bool isBufferUsedBy(LocalAllocOp alloc) {
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<OpTy>(user))
        return true;
      if (auto index = dyn_cast<MemDescIndexOp>(user))
        worklist.push_back(index.getResult());
    }
  }
  return false;
}

namespace {
/// Which blocks a block reaches (itself included), memoized.
class Reachability {
public:
  bool reaches(Block *from, Block *to) {
    auto [it, inserted] = reachable.try_emplace(from);
    if (inserted) {
      SmallVector<Block *> worklist = {from};
      while (!worklist.empty()) {
        Block *block = worklist.pop_back_val();
        if (it->second.insert(block).second)
          worklist.append(block->succ_begin(), block->succ_end());
      }
    }
    return it->second.contains(to);
  }

private:
  llvm::DenseMap<Block *, llvm::SmallPtrSet<Block *, 8>> reachable;
};

/// Places shared memory in program order: each piece after the pieces placed
/// before it that may be live with it. Two pieces in blocks neither of which
/// reaches the other never are (a use is dominated by its piece's block, and
/// of two blocks that dominate one point one reaches the other): the two
/// versions of a loop that tile-loads-to-descs makes, say, share their
/// space, since a program runs one of them.
class SharedMemoryPlacer {
public:
  explicit SharedMemoryPlacer(int64_t start = 0) : start(start), end(start) {}

  /// The offset of `bytes` at `align` for `op`. A cluster reduction's
  /// slots hold mbarriers the kernel's entry initializes (and the cluster's
  /// other blocks write into): live from the entry on, whatever its block.
  int64_t place(Operation *op, int64_t bytes, int64_t align) {
    Block *block = isa<tile::ClusterReduceOp>(op)
                       ? &op->getParentRegion()->front()
                       : op->getBlock();
    int64_t offset = start;
    for (const Piece &piece : pieces)
      if (mayBeLiveTogether(piece.block, block))
        offset = std::max(offset, piece.end);
    offset = llvm::alignTo(offset, align);
    pieces.push_back({block, offset + bytes});
    end = std::max(end, offset + bytes);
    return offset;
  }
  int64_t getEnd() const { return end; }

private:
  struct Piece {
    Block *block;
    int64_t end;
  };
  bool mayBeLiveTogether(Block *a, Block *b) {
    // Blocks of different regions (a region not yet in branches): only
    // those of one region are compared.
    if (a->getParent() != b->getParent())
      return true;
    return reach.reaches(a, b) || reach.reaches(b, a);
  }

  int64_t start, end;
  SmallVector<Piece> pieces;
  Reachability reach;
};
} // namespace

/// The blocks of the operations that use `alloc`'s buffer, through the
/// views of it (a ring's stages).
static llvm::SmallPtrSet<Block *, 8> getUseBlocks(Operation *alloc) {
  llvm::SmallPtrSet<Block *, 8> blocks;
  SmallVector<Value> worklist(alloc->getResults());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      blocks.insert(user->getBlock());
      for (Value result : user->getResults())
        if (isa<MemDescType>(result.getType()))
          worklist.push_back(result);
    }
  }
  return blocks;
}

int64_t mlir::tilegpu::placeSharedMemory(tile::FuncOp func,
                                         LoweringInfo &info) {
  // Layout conversions that no buffer is live at: control reaches them from
  // no buffer's allocation, or reaches no use of it from them (blocks of
  // one region; the pass runs after scf-to-cf).
  Reachability reach;
  SmallVector<std::pair<Operation *, llvm::SmallPtrSet<Block *, 8>>> allocs;
  func.walk([&](Operation *op) {
    if (isa<LocalAllocOp, MBarrierAllocOp>(op))
      allocs.push_back({op, getUseBlocks(op)});
  });
  auto isLiveAt = [&](Operation *alloc,
                      const llvm::SmallPtrSet<Block *, 8> &uses,
                      Operation *op) {
    Block *block = op->getBlock();
    if (block->getParent() != alloc->getBlock()->getParent() ||
        llvm::any_of(uses, [&](Block *use) {
          return use->getParent() != block->getParent();
        }))
      return true;
    return reach.reaches(alloc->getBlock(), block) &&
           llvm::any_of(uses,
                        [&](Block *use) { return reach.reaches(block, use); });
  };
  llvm::SmallSetVector<Operation *, 4> overBuffers;
  bool hasAsyncCopies = false;
  func.walk([&](AsyncCopyOp) { hasAsyncCopies = true; });
  if (llvm::any_of(allocs,
                   [](auto &entry) { return isa<LocalAllocOp>(entry.first); }))
    func.walk([&](ConvertLayoutOp op) {
      if (getSharedMemoryBytes(op) && llvm::none_of(allocs, [&](auto &entry) {
            return isa<LocalAllocOp>(entry.first) &&
                   isLiveAt(entry.first, entry.second, op);
          }))
        overBuffers.insert(op);
    });

  // Each operation's scratch, then the buffers that live as long as the
  // kernel, each placed after those it may be live with.
  SharedMemoryPlacer scratch;
  func.walk([&](Operation *op) {
    if (overBuffers.contains(op))
      return;
    if (int64_t bytes = getSharedMemoryBytes(op))
      info.sharedOffset[op] = scratch.place(op, llvm::alignTo(bytes, 16), 16);
  });
  // Buffers after the scratch (128-byte aligned, which the swizzle's eight
  // 16-byte rows assume; 1024 for those wgmma reads, whose swizzle follows
  // the address bits of 8 rows of 128 bytes).
  SharedMemoryPlacer buffers(scratch.getEnd());
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      int64_t align = isBufferUsedBy<WarpgroupDotOp>(alloc) ||
                              isBufferUsedBy<TmaLoadOp>(alloc)
                          ? 1024
                          : 128;
      info.bufferOffset[alloc] =
          buffers.place(op, alloc.getType().getSizeInBytes(), align);
    } else if (auto bars = dyn_cast<MBarrierAllocOp>(op)) {
      info.bufferOffset[bars] =
          buffers.place(op, 8 * bars.getType().getCount(), 8);
    }
  });
  int64_t end = buffers.getEnd();

  // The conversions over the buffers: first fit among the mbarriers and the
  // other scratch live with them.
  for (Operation *op : overBuffers) {
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (auto &[alloc, uses] : allocs)
      if (isa<MBarrierAllocOp>(alloc))
        taken.push_back(
            {info.bufferOffset.lookup(alloc),
             info.bufferOffset.lookup(alloc) +
                 8 * cast<MBarrierAllocOp>(alloc).getType().getCount()});
    for (auto &[other, offset] : info.sharedOffset) {
      if (other->getParentOfType<tile::FuncOp>() != func ||
          (!isa<tile::ClusterReduceOp>(other) &&
           other->getBlock()->getParent() == op->getBlock()->getParent() &&
           !reach.reaches(other->getBlock(), op->getBlock()) &&
           !reach.reaches(op->getBlock(), other->getBlock())))
        continue;
      taken.push_back(
          {offset, offset + llvm::alignTo(getSharedMemoryBytes(other), 16)});
    }
    int64_t bytes = llvm::alignTo(getSharedMemoryBytes(op), 16);
    int64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (auto [begin, stop] : taken)
        if (offset < stop && begin < offset + bytes) {
          offset = llvm::alignTo(stop, 16);
          moved = true;
        }
    }
    info.sharedOffset[op] = offset;
    info.leadingBarrier.insert(op);
    // cp.async copies past a pipelined loop's end (zero-filled) may still
    // be in flight: the wait after the loop can come after this conversion
    // (tilegpu-warpgroup-dot's conversions of the result stand before it).
    if (hasAsyncCopies)
      info.leadingAsyncWait.insert(op);
    end = std::max(end, offset + bytes);
  }
  return end;
}
