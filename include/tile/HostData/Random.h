//===- Random.h - Reproducible random data for kernel arguments -*- C++ -*-===//
//
// The generators behind the argument specs `randn:SEED` and `uniform:SEED`.
// Their output depends only on the seed, not on the C++ library: the engine
// is std::mt19937_64, whose sequence the C++ standard fixes, and the
// transforms to [0, 1) and to a normal distribution are written here rather
// than taken from <random>'s distributions, which differ between libraries.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOSTDATA_RANDOM_H
#define TILE_HOSTDATA_RANDOM_H

#include "tile/HostData/HostBuffer.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <random>

namespace mlir::tile {

/// A stream of pseudo-random doubles from one seed.
class RandomStream {
public:
  explicit RandomStream(uint64_t seed) : engine(seed) {}

  /// Uniform on [0, 1): the top 53 bits of the next 64-bit draw, times 2^-53.
  double nextUniform();

  /// Standard normal (mean 0, variance 1), by the Box-Muller transform: two
  /// uniforms u1, u2 give r = sqrt(-2 ln(1 - u1)) and the pair
  /// (r cos(2 pi u2), r sin(2 pi u2)), returned one after the other.
  double nextNormal();

private:
  std::mt19937_64 engine;
  std::optional<double> pendingNormal;
};

/// Fills a float buffer, in C order, with nextNormal() (`normal`) or
/// nextUniform() values of RandomStream(seed), each rounded to the buffer's
/// element type (to nearest, ties to even). Fails on integer buffers.
llvm::Error fillRandom(HostBuffer &buffer, uint64_t seed, bool normal);

} // namespace mlir::tile

#endif // TILE_HOSTDATA_RANDOM_H
