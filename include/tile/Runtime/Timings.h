//===- Timings.h - The steps of a run and their times -----------*- C++ -*-===//
//
// The clock the runtime times its steps with, and the table of steps that
// tile-run --timing prints.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TIMINGS_H
#define TILE_RUNTIME_TIMINGS_H

#include "tile/Runtime/Compiler.h"

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace tile {

using Clock = std::chrono::steady_clock;

/// Seconds since `start`.
double secondsSince(Clock::time_point start);

//===----------------------------------------------------------------------===//
// Timings
//===----------------------------------------------------------------------===//

/// The steps of a run and how long each took (tile-run --timing).
struct Timings {
  struct Row {
    std::string label;
    double seconds = 0;
    std::string detail;
    unsigned depth = 0;
  };
  std::vector<Row> rows;

  void add(llvm::StringRef label, double seconds, llvm::StringRef detail = "",
           unsigned depth = 0);
  /// A row for the compilation (where it came from), then one per pass.
  void addCompile(const CompiledKernel &compiled);
  void print(llvm::raw_ostream &os) const;
};

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_TIMINGS_H
