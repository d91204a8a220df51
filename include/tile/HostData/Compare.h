//===- Compare.h - Comparing a result with a reference ----------*- C++ -*-===//
//
// How `tile-run --check` compares the buffers a GPU wrote with those the
// interpreter wrote. An element passes when
//
//   |actual - expected| <= atol + rtol * |expected|
//
// (numpy.isclose), or when both are NaN, or both the same infinity. Integer
// and i1 buffers must match exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOSTDATA_COMPARE_H
#define TILE_HOSTDATA_COMPARE_H

#include "tile/HostData/HostBuffer.h"

#include "llvm/ADT/BitVector.h"

#include <cstdint>
#include <string>

namespace mlir::tile {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

/// The default tolerance of an element type: a few units in the last place
/// of the type, which covers the GPU's approximate exp (ex2.approx) and a
/// different rounding of the last conversion. f32: rtol 1e-5, atol 1e-7;
/// f16: rtol 2e-3, atol 1e-6; bf16: rtol 1.6e-2, atol 1e-6; integers: exact.
Tolerance getDefaultTolerance(DataType type);

/// The result of comparing two buffers of one type and shape.
struct BufferComparison {
  int64_t elements = 0;
  /// Elements past the tolerance.
  int64_t mismatches = 0;
  /// The bytes are the same.
  bool identical = false;
  /// The largest |actual - expected|, and the largest of that over
  /// |expected| (among elements with expected != 0), over elements that are
  /// not both NaN or the same infinity. Infinite where one side is NaN or
  /// infinite and the other is not.
  double maxAbsError = 0;
  double maxRelError = 0;
  /// The worst element past the tolerance (-1 if none), by its error over
  /// its tolerance, with both values.
  int64_t worstIndex = -1;
  double worstActual = 0;
  double worstExpected = 0;

  bool passed() const { return mismatches == 0; }
};

/// Compares `actual` with `expected`, which must have the same type and
/// shape (an error otherwise); with `only`, just the elements it holds (a
/// mask of the buffer's elements), counted in `elements`.
llvm::Expected<BufferComparison>
compareBuffers(const HostBuffer &actual, const HostBuffer &expected,
               Tolerance tolerance, const llvm::BitVector *only = nullptr);

/// The position of element `index` of a buffer of `shape`, as "[3, 17]".
std::string formatIndex(llvm::ArrayRef<int64_t> shape, int64_t index);

} // namespace mlir::tile

#endif // TILE_HOSTDATA_COMPARE_H
