//===- Check.cpp - Checking a run against the interpreter -----------------===//
//
// See tile/Runtime/Check.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Check.h"

#include "tile/Interpreter/Interpreter.h"
#include "tile/Runtime/Timings.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

bool CheckReport::passed() const {
  return llvm::all_of(entries, [](const Entry &entry) {
    return entry.comparison && entry.comparison->passed();
  });
}

void CheckReport::print(llvm::raw_ostream &os) const {
  os << "check against the CPU interpreter:\n";
  for (const Entry &entry : entries) {
    os << "  argument " << entry.index << " (" << entry.description << "): ";
    if (!entry.comparison) {
      os << entry.error << "\n";
      continue;
    }
    const BufferComparison &result = *entry.comparison;
    if (result.identical) {
      os << "identical\n";
      continue;
    }
    os << llvm::format("max abs error %.3g, max rel error %.3g",
                       result.maxAbsError, result.maxRelError);
    if (result.passed()) {
      os << llvm::format(" (rtol %g, atol %g): OK\n", entry.tolerance.rtol,
                         entry.tolerance.atol);
      continue;
    }
    os << llvm::format("; %lld of %lld elements past rtol %g, atol %g; the "
                       "worst, at ",
                       static_cast<long long>(result.mismatches),
                       static_cast<long long>(result.elements),
                       entry.tolerance.rtol, entry.tolerance.atol)
       << formatIndex(entry.shape, result.worstIndex)
       << llvm::format(", is %.9g on the GPU and %.9g on the "
                       "interpreter: FAILED\n",
                       result.worstActual, result.worstExpected);
  }
}

CheckReport mlir::tile::compareWithReference(llvm::ArrayRef<KernelArg> outputs,
                                             llvm::ArrayRef<KernelArg> expected,
                                             const CheckOptions &options) {
  CheckReport report;
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(outputs, expected))) {
    const KernelArg &actual = std::get<0>(pair);
    if (!actual.isBuffer())
      continue;
    const HostBuffer &buffer = actual.getBuffer();
    CheckReport::Entry entry;
    entry.index = index;
    entry.description = buffer.getDescription();
    entry.shape.assign(buffer.getShape().begin(), buffer.getShape().end());
    entry.tolerance = getDefaultTolerance(buffer.getDataType());
    if (options.rtol)
      entry.tolerance.rtol = *options.rtol;
    if (options.atol)
      entry.tolerance.atol = *options.atol;
    llvm::Expected<BufferComparison> result =
        compareBuffers(buffer, std::get<1>(pair).getBuffer(), entry.tolerance);
    if (result)
      entry.comparison = *result;
    else
      entry.error = llvm::toString(result.takeError());
    report.entries.push_back(std::move(entry));
  }
  return report;
}

llvm::Expected<CheckReport> mlir::tile::checkAgainstInterpreter(
    KernelSource &source, llvm::ArrayRef<int64_t> grid,
    llvm::ArrayRef<KernelArg> inputs, llvm::ArrayRef<KernelArg> outputs,
    const CheckOptions &options) {
  if (inputs.size() != outputs.size())
    return llvm::createStringError(
        "the check compares " + llvm::Twine(outputs.size()) + " results with " +
        llvm::Twine(inputs.size()) + " inputs");
  FuncOp kernel = source.getKernel();
  if (failed(checkInterpretable(kernel)))
    return llvm::make_error<DiagnosedError>(
        "the check needs the CPU interpreter, which cannot run @" +
        kernel.getSymName().str());
  SmallVector<KernelArg> expected(inputs.begin(), inputs.end());
  Clock::time_point start = Clock::now();
  if (failed(interpretKernel(kernel, grid, expected)))
    return llvm::make_error<DiagnosedError>(
        "the CPU interpreter failed on the same arguments");
  CheckReport report = compareWithReference(outputs, expected, options);
  report.seconds = secondsSince(start);
  return report;
}
