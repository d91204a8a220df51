//===- Generate.h - Random programs for differential testing ----*- C++ -*-===//
//
// generateProgram(seed) makes a random, valid Program (Program.h): the same
// seed gives the same program on every machine (the generator draws from
// std::mt19937_64, whose sequence the C++ standard fixes, through
// arithmetic of its own rather than <random>'s distributions).
//
// The generator follows the range of every value it makes (an interval
// over all lanes, masked ones included) and picks operations that keep
// floats finite and well away from the edges of their functions' domains:
// exp of at most 8, logs and reciprocal square roots of at least 1/8,
// divisors at least 1/4 from zero, magnitudes below 4096 (a dot's K
// products included), so that f16 never overflows. Comparisons, floor and ceil
// mostly see exact values (loaded, constant, or computed without rounding),
// whose outcome does not depend on how an implementation rounds; the reference
// (utils/tile_smith_ref.py) treats the remaining lanes whose outcome rounding
// can change as unchecked. Integers wrap, as arith defines them; their ranges
// keep away only from what arith leaves undefined (and the interpreter
// reports): a division by zero, the minimum divided by -1, a shift by the width
// or more.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SMITH_GENERATE_H
#define TILE_SMITH_GENERATE_H

#include "tile/Smith/Program.h"

namespace mlir::tile::smith {

/// A random program: verifyProgram passes on it.
Program generateProgram(uint64_t seed);

} // namespace mlir::tile::smith

#endif // TILE_SMITH_GENERATE_H
