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

/// The bits of an mma accumulator on `shape` (M x N): the m16n8 instruction
/// tile's registers [n0, m3] and lanes [n1, n2, m0, m1, m2]; warps along N
/// from n3, then along M from m4; the rest of N, then of M, in registers.
static LayoutBits getMmaBits(MmaEncodingAttr layout, ArrayRef<int64_t> shape);

/// The bits of a wgmma accumulator on `shape` (M x N): per warpgroup, its
/// N / wn columns in registers after the m16n8 piece's [n0, m3]; lanes as
/// mma.sync's; warps [m4, m5] within the warpgroup, then warpgroups along M,
/// then along N; the rest of M in registers.
static LayoutBits getWgmmaBits(MmaEncodingAttr layout,
                               ArrayRef<int64_t> shape) {
  LayoutBits bits;
  bits.shape.assign(shape.begin(), shape.end());
  auto log2 = [](int64_t v) { return static_cast<int>(llvm::Log2_64(v)); };
  int wm = log2(layout.getWarpsPerCTA()[0]),
      wn = log2(layout.getWarpsPerCTA()[1]);
  int columns = std::max(log2(shape[1]) - wn, 0); // bits of one share
  auto target = [&](int d, int k) {
    return k < log2(shape[d]) ? LayoutBit{d, k} : LayoutBit{};
  };
  for (LayoutBit bit : {target(1, 0), target(0, 3)})
    if (!bit.isFree())
      bits.reg.push_back(bit);
  for (int k = 3; k < columns; ++k)
    bits.reg.push_back({1, k});
  bits.lane = {target(1, 1), target(1, 2), target(0, 0), target(0, 1),
               target(0, 2)};
  for (int k = 4; k < 4 + wm; ++k)
    bits.warp.push_back(target(0, k));
  for (int k = columns; k < columns + wn; ++k)
    bits.warp.push_back(target(1, k));
  for (int k = 4 + wm; k < log2(shape[0]); ++k)
    bits.reg.push_back({0, k});
  return bits;
}

static LayoutBits getMmaBits(MmaEncodingAttr layout, ArrayRef<int64_t> shape) {
  if (layout.isHopper())
    return getWgmmaBits(layout, shape);
  LayoutBits bits;
  bits.shape.assign(shape.begin(), shape.end());
  auto log2 = [](int64_t v) { return static_cast<int>(llvm::Log2_64(v)); };
  int wm = log2(layout.getWarpsPerCTA()[0]),
      wn = log2(layout.getWarpsPerCTA()[1]);
  auto target = [&](int d, int k) {
    return k < log2(shape[d]) ? LayoutBit{d, k} : LayoutBit{};
  };
  for (LayoutBit bit : {target(1, 0), target(0, 3)})
    if (!bit.isFree())
      bits.reg.push_back(bit);
  bits.lane = {target(1, 1), target(1, 2), target(0, 0), target(0, 1),
               target(0, 2)};
  for (int k = 3; k < 3 + wn; ++k)
    bits.warp.push_back(target(1, k));
  for (int k = 4; k < 4 + wm; ++k)
    bits.warp.push_back(target(0, k));
  for (int k = 3 + wn; k < log2(shape[1]); ++k)
    bits.reg.push_back({1, k});
  for (int k = 4 + wm; k < log2(shape[0]); ++k)
    bits.reg.push_back({0, k});
  return bits;
}

/// The bits of operand `opIdx` of a dot whose result has the mma layout
/// `parent`, for `shape` and elements of `elementBits` bits (16: m16n8k16;
/// 32: TF32, m16n8k8). `m` names A's dimension 0 and B's dimension 1 (the
/// one the parent's warps split), `k` the other.
static LayoutBits getMmaOperandBits(MmaEncodingAttr parent, unsigned opIdx,
                                    ArrayRef<int64_t> shape,
                                    unsigned elementBits) {
  LayoutBits bits;
  bits.shape.assign(shape.begin(), shape.end());
  auto log2 = [](int64_t v) { return static_cast<int>(llvm::Log2_64(v)); };
  int wm = log2(parent.getWarpsPerCTA()[0]),
      wn = log2(parent.getWarpsPerCTA()[1]);
  int kDim = opIdx == 0 ? 1 : 0, mDim = opIdx == 0 ? 0 : 1;
  auto target = [&](int d, int k) {
    return k < log2(shape[d]) ? LayoutBit{d, k} : LayoutBit{};
  };
  LayoutBit k0 = target(kDim, 0), k1 = target(kDim, 1), k2 = target(kDim, 2),
            k3 = target(kDim, 3);
  LayoutBit m0 = target(mDim, 0), m1 = target(mDim, 1), m2 = target(mDim, 2);
  // The instruction's fragment: its registers, then its lanes.
  SmallVector<LayoutBit> fragment;
  int fragmentK;
  if (elementBits == 16) {
    fragment = opIdx == 0 ? SmallVector<LayoutBit>{k0, target(mDim, 3), k3}
                          : SmallVector<LayoutBit>{k0, k3};
    bits.lane = {k1, k2, m0, m1, m2};
    fragmentK = 4;
  } else {
    fragment = opIdx == 0 ? SmallVector<LayoutBit>{target(mDim, 3), k2}
                          : SmallVector<LayoutBit>{k2};
    bits.lane = {k0, k1, m0, m1, m2};
    fragmentK = 3;
  }
  for (LayoutBit bit : fragment)
    if (!bit.isFree())
      bits.reg.push_back(bit);
  // Warps: the parent's warp ids, bits along N first, then along M; an
  // operand follows those along its own `m` and ignores the others.
  int firstM = opIdx == 0 ? 4 : 3;
  for (int k = 0; k < wn; ++k)
    bits.warp.push_back(opIdx == 0 ? LayoutBit{} : target(mDim, firstM + k));
  for (int k = 0; k < wm; ++k)
    bits.warp.push_back(opIdx == 0 ? target(mDim, firstM + k) : LayoutBit{});
  // The rest of K, then of `m`, in registers.
  for (int k = fragmentK; k < log2(shape[kDim]); ++k)
    bits.reg.push_back({kDim, k});
  int warpsAlongM = opIdx == 0 ? wm : wn;
  for (int k = firstM + warpsAlongM; k < log2(shape[mDim]); ++k)
    bits.reg.push_back({mDim, k});
  return bits;
}

/// The bits of operand `opIdx` of a dot whose result has the blocked layout
/// `parent` (the FMA path): the parent's bits along M (A) or N (B), free
/// along the other, and all of K in registers.
static LayoutBits getBlockedOperandBits(BlockedEncodingAttr parent,
                                        unsigned opIdx,
                                        ArrayRef<int64_t> shape) {
  int kDim = opIdx == 0 ? 1 : 0;
  SmallVector<int64_t> parentShape(shape);
  parentShape[kDim] = 1;
  LayoutBits bits = getBlockedBits(parent, parentShape);
  bits.shape.assign(shape.begin(), shape.end());
  for (int k = 0; k < static_cast<int>(llvm::Log2_64(shape[kDim])); ++k)
    bits.reg.push_back({kDim, k});
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
    FailureOr<LayoutBits> parentBits = getLayoutBits(RankedTensorType::get(
        parentShape, type.getElementType(), slice.getParent()));
    if (failed(parentBits))
      return failure();
    LayoutBits bits = std::move(*parentBits);
    bits.shape.assign(type.getShape().begin(), type.getShape().end());
    for (auto *list : {&bits.reg, &bits.lane, &bits.warp})
      for (LayoutBit &bit : *list)
        if (bit.dim > dim)
          --bit.dim;
    return bits;
  }
  if (auto mma = dyn_cast_or_null<MmaEncodingAttr>(type.getEncoding()))
    return getMmaBits(mma, type.getShape());
  if (auto operand =
          dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding())) {
    if (auto mma = dyn_cast<MmaEncodingAttr>(operand.getParent())) {
      // wgmma reads its operands from shared memory, never from registers.
      if (mma.isHopper())
        return failure();
      return getMmaOperandBits(mma, operand.getOpIdx(), type.getShape(),
                               type.getElementType().getIntOrFloatBitWidth());
    }
    return getBlockedOperandBits(cast<BlockedEncodingAttr>(operand.getParent()),
                                 operand.getOpIdx(), type.getShape());
  }
  return failure();
}

std::optional<unsigned> mlir::tilegpu::getLayoutNumWarps(Attribute layout) {
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(layout))
    return blocked.getNumWarps();
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return getLayoutNumWarps(slice.getParent());
  if (auto mma = dyn_cast_or_null<MmaEncodingAttr>(layout))
    return mma.getNumWarps();
  if (auto operand = dyn_cast_or_null<DotOperandEncodingAttr>(layout))
    return getLayoutNumWarps(operand.getParent());
  return std::nullopt;
}

SmallVector<unsigned, 2>
mlir::tilegpu::getMmaWarpsPerCTA(ArrayRef<int64_t> shape, unsigned numWarps) {
  // Double the warps along M while a warp's share is at least as tall (in
  // 16-row instruction tiles) as it is wide (in pairs of 8-column ones),
  // and along N otherwise; never past the tile where the other side can
  // still take them.
  unsigned wm = 1, wn = 1;
  int64_t tilesM = std::max<int64_t>(shape[0] / 16, 1),
          tilesN = std::max<int64_t>(shape[1] / 8, 1);
  while (wm * wn < numWarps) {
    bool alongM = tilesM / wm >= tilesN / 2 / wn;
    if (alongM && wm >= tilesM && wn < tilesN)
      alongM = false;
    if (!alongM && wn >= tilesN && wm < tilesM)
      alongM = true;
    if (alongM)
      wm *= 2;
    else
      wn *= 2;
  }
  return {wm, wn};
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
