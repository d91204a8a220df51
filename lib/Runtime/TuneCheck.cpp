//===- TuneCheck.cpp - A tune's check against the interpreter -------------===//
//
// A tune's check of one configuration against the interpreter. See
// Tuner.h (checkTuneResult).
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Tuner.h"

#include "Text.h"
#include "tile/Runtime/Check.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

/// "argument 0: 12 of 1048576 elements differ" from a failed check.
static std::string describeMismatch(const CheckReport &report) {
  for (const CheckReport::Entry &entry : report.entries) {
    if (entry.skipped || (entry.comparison && entry.comparison->passed()))
      continue;
    if (!entry.comparison)
      return "argument " + std::to_string(entry.index) + ": " + entry.error;
    return llvm::formatv("argument {0}: {1} of {2} elements differ from the "
                         "interpreter's",
                         entry.index, entry.comparison->mismatches,
                         entry.comparison->elements)
        .str();
  }
  if (llvm::all_of(report.entries,
                   [](const CheckReport::Entry &e) { return e.skipped; }))
    return "the check's programs stored nothing: nothing was compared";
  return "the results differ from the interpreter's";
}

void mlir::tile::checkTuneResult(const KernelSource &source,
                                 const RunResult &result,
                                 llvm::ArrayRef<KernelArg> args,
                                 const TuneOptions &options,
                                 llvm::StringRef log,
                                 ReferenceCache &references, TuneEntry &entry) {
  // Most kernels store the same whatever their configuration: results that
  // match an interpreter run kept from an earlier configuration pass. A
  // kernel that writes partial results per program stores other rows on
  // another grid or with other parameters (LayerNorm backward's rows of dw,
  // run 116: every configuration off the first one's grid failed the check
  // against it): results that match none are checked against the
  // interpreter's run of their own kernel and grid.
  for (const Reference &reference : references) {
    if (compareWithReference(result.outputs, reference, options.check)
            .passed()) {
      entry.checked = true;
      return;
    }
  }
  // On a sample of the programs of a large launch.
  llvm::Expected<Reference> made =
      interpretReference(source, result.grid, args, options.check);
  if (!made) {
    std::string message = llvm::toString(made.takeError());
    log = log.trim();
    entry.outcome = TuneEntry::Outcome::RunFailed;
    entry.reason = "the CPU interpreter failed on its kernel: " +
                   firstLine(log.empty() ? llvm::StringRef(message) : log);
    return;
  }
  if (options.progress && !made->complete())
    *options.progress << "tune: the interpreter's check covers "
                      << made->programsRun << " of " << made->programs
                      << " programs (its time budget)\n";
  CheckReport check =
      compareWithReference(result.outputs, *made, options.check);
  if (references.size() == kMaxTuneReferences)
    references.erase(references.begin());
  references.push_back(std::move(*made));
  if (!check.passed()) {
    entry.outcome = TuneEntry::Outcome::Wrong;
    entry.reason = describeMismatch(check);
    return;
  }
  entry.checked = true;
}
