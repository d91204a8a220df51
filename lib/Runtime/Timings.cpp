//===- Timings.cpp - The steps of a run and their times -------------------===//
//
// See tile/Runtime/Timings.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Timings.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

double mlir::tile::secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void Timings::add(llvm::StringRef label, double seconds, llvm::StringRef detail,
                  unsigned depth) {
  rows.push_back({label.str(), seconds, detail.str(), depth});
}

void Timings::addCompile(const CompiledKernel &compiled) {
  std::string detail =
      compiled.chip + ", divisibility {" + compiled.specialization + "}, ";
  if (compiled.fromCache)
    detail += "from the cache: " + compiled.cachePath;
  else if (!compiled.cachePath.empty())
    detail += "stored in the cache: " + compiled.cachePath;
  else
    detail += "not cached";
  add("compile", compiled.seconds, detail);
  for (const PassTiming &pass : compiled.passTimings)
    add(pass.pass, pass.seconds, "", 1);
}

void Timings::print(llvm::raw_ostream &os) const {
  os << "timing:\n";
  for (const Row &row : rows) {
    std::string label = std::string(2 + 2 * row.depth, ' ') + row.label;
    os << llvm::left_justify(label, 40)
       << llvm::format("%10.3f ms", row.seconds * 1e3);
    if (!row.detail.empty())
      os << "  " << row.detail;
    os << "\n";
  }
}
