//===- Layout.cpp - Where each element of a tile lives --------------------===//

#include "tile/Dialect/TileGPU/IR/Layout.h"

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

SmallVector<int64_t> LayoutBits::getRegisterCoords(int64_t r) const {
  SmallVector<int64_t> coords(shape.size(), 0);
  for (auto [i, bit] : llvm::enumerate(reg))
    if (r & (int64_t(1) << i))
      coords[bit.dim] |= int64_t(1) << bit.bit;
  return coords;
}

std::optional<int64_t>
LayoutBits::getRegisterAt(ArrayRef<int64_t> coords) const {
  int64_t r = 0;
  for (auto [i, bit] : llvm::enumerate(reg))
    if (coords[bit.dim] & (int64_t(1) << bit.bit))
      r |= int64_t(1) << i;
  if (ArrayRef<int64_t>(getRegisterCoords(r)) != coords)
    return std::nullopt;
  return r;
}

static unsigned getFreeMask(ArrayRef<LayoutBit> bits) {
  unsigned mask = 0;
  for (auto [i, bit] : llvm::enumerate(bits))
    if (bit.isFree())
      mask |= 1u << i;
  return mask;
}

unsigned LayoutBits::getFreeLaneMask() const { return getFreeMask(lane); }
unsigned LayoutBits::getFreeWarpMask() const { return getFreeMask(warp); }

int64_t LayoutBits::getContiguousRegisters(int dim) const {
  int count = 0;
  while (count < static_cast<int>(reg.size()) && reg[count].dim == dim &&
         reg[count].bit == count)
    ++count;
  return int64_t(1) << count;
}

/// The bits of a blocked layout on `shape`. Along each dimension, from the
/// lowest coordinate bit up: sizePerThread (registers), threadsPerWarp
/// (lanes), warpsPerCTA (warps), then repetitions (registers again).
/// Hardware bits take dimensions in `order`, fastest first. Coordinate bits
/// beyond the shape do not exist: lane and warp bits aimed at them are free,
/// register bits aimed at them are dropped.
static LayoutBits getBlockedBits(BlockedEncodingAttr layout,
                                 ArrayRef<int64_t> shape) {
  LayoutBits bits;
  bits.shape.assign(shape.begin(), shape.end());
  auto log2 = [](int64_t v) { return static_cast<int>(llvm::Log2_64(v)); };
  ArrayRef<unsigned> order = layout.getOrder();
  auto target = [&](unsigned d, int k) {
    return k < log2(shape[d]) ? LayoutBit{static_cast<int>(d), k} : LayoutBit{};
  };
  for (unsigned d : order)
    for (int k = 0, e = log2(layout.getSizePerThread()[d]); k < e; ++k)
      if (!target(d, k).isFree())
        bits.reg.push_back(target(d, k));
  for (unsigned d : order) {
    int first = log2(layout.getSizePerThread()[d]);
    for (int k = first, e = first + log2(layout.getThreadsPerWarp()[d]); k < e;
         ++k)
      bits.lane.push_back(target(d, k));
  }
  for (unsigned d : order) {
    int first = log2(layout.getSizePerThread()[d]) +
                log2(layout.getThreadsPerWarp()[d]);
    for (int k = first, e = first + log2(layout.getWarpsPerCTA()[d]); k < e;
         ++k)
      bits.warp.push_back(target(d, k));
  }
  for (unsigned d : order) {
    int first = log2(layout.getSizePerThread()[d]) +
                log2(layout.getThreadsPerWarp()[d]) +
                log2(layout.getWarpsPerCTA()[d]);
    for (int k = first; k < log2(shape[d]); ++k)
      bits.reg.push_back(LayoutBit{static_cast<int>(d), k});
  }
  return bits;
}

FailureOr<LayoutBits> mlir::tilegpu::getLayoutBits(RankedTensorType type) {
  for (int64_t size : type.getShape())
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return failure();
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding()))
    return getBlockedBits(blocked, type.getShape());
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(type.getEncoding())) {
    // The parent's bits on the shape with a dimension of size 1 put back,
    // then the dimensions after it renumbered.
    SmallVector<int64_t> parentShape(type.getShape());
    int dim = slice.getDim();
    parentShape.insert(parentShape.begin() + dim, 1);
    LayoutBits bits = getBlockedBits(slice.getParent(), parentShape);
    bits.shape.assign(type.getShape().begin(), type.getShape().end());
    for (auto *list : {&bits.reg, &bits.lane, &bits.warp})
      for (LayoutBit &bit : *list)
        if (bit.dim > dim)
          --bit.dim;
    return bits;
  }
  return failure();
}

int64_t mlir::tilegpu::getElementsPerThread(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 1;
  FailureOr<LayoutBits> bits = getLayoutBits(tensor);
  return succeeded(bits) ? bits->getNumRegisters() : tensor.getNumElements();
}

Attribute mlir::tilegpu::getDefaultBlockedLayout(
    MLIRContext *context, ArrayRef<int64_t> shape, unsigned numWarps,
    unsigned sizePerThreadFastest, ArrayRef<unsigned> givenOrder) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order(givenOrder), sizePerThread(rank, 1),
      threadsPerWarp(rank, 1), warpsPerCTA(rank, 1);
  if (order.empty())
    for (unsigned d = rank; d-- > 0;)
      order.push_back(d);
  sizePerThread[order[0]] = std::max<int64_t>(
      1, std::min<int64_t>(sizePerThreadFastest, shape[order[0]]));

  // Spread the lanes, fastest dimension first, then the warps, over what the
  // previous level left uncovered; what remains replicates along the first
  // dimension visited.
  auto spread = [&](unsigned count, SmallVectorImpl<unsigned> &result,
                    auto covered) {
    unsigned remaining = count;
    for (unsigned d : order) {
      int64_t room = std::max<int64_t>(1, shape[d] / covered(d));
      unsigned here = static_cast<unsigned>(
          std::min<int64_t>(remaining, std::max<int64_t>(1, room)));
      result[d] = here;
      remaining /= here;
    }
    result[order[0]] *= remaining;
  };
  spread(TileGPUDialect::kThreadsPerWarp, threadsPerWarp,
         [&](unsigned d) { return int64_t(sizePerThread[d]); });
  // Warps go to the slowest dimension first: a reduction along the fastest
  // (contiguous) dimension then stays within a warp, with no shared memory.
  SmallVector<unsigned> fastOrder(order);
  std::reverse(order.begin(), order.end());
  spread(numWarps, warpsPerCTA, [&](unsigned d) {
    return int64_t(sizePerThread[d]) * threadsPerWarp[d];
  });
  order = fastOrder;
  return BlockedEncodingAttr::get(context, sizePerThread, threadsPerWarp,
                                  warpsPerCTA, order);
}
