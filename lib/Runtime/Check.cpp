//===- Check.cpp - Checking a run against the interpreter -----------------===//
//
// See tile/Runtime/Check.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Check.h"

#include "tile/Interpreter/Interpreter.h"
#include "tile/Runtime/Timings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tile;

/// Whether a sampled check's programs stored nothing: it compared nothing.
static bool comparedNothing(llvm::ArrayRef<CheckReport::Entry> entries) {
  return !entries.empty() &&
         llvm::all_of(entries, [](const CheckReport::Entry &entry) {
           return entry.skipped;
         });
}

bool CheckReport::passed() const {
  if (comparedNothing(entries))
    return false;
  return llvm::all_of(entries, [](const Entry &entry) {
    return entry.skipped || (entry.comparison && entry.comparison->passed());
  });
}

void CheckReport::print(llvm::raw_ostream &os) const {
  os << "check against the CPU interpreter";
  if (programsRun < programs)
    os << " on " << programsRun << " of the grid's " << programs
       << " programs (what the check's time budget allowed; only the "
          "elements they stored are compared)";
  os << ":\n";
  if (comparedNothing(entries))
    os << "  the programs run stored nothing, so nothing was compared: "
          "FAILED (give the check more time: --check-seconds)\n";
  for (const Entry &entry : entries) {
    os << "  argument " << entry.index << " (" << entry.description << "): ";
    if (entry.skipped) {
      os << "not compared (the programs run stored nothing to it)\n";
      continue;
    }
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

/// Compares each buffer of `outputs` with `expected`'s, where `stored`
/// (when given) holds a mask of what to compare per argument.
static CheckReport compare(llvm::ArrayRef<KernelArg> outputs,
                           llvm::ArrayRef<KernelArg> expected,
                           const std::vector<llvm::BitVector> *stored,
                           const CheckOptions &options,
                           llvm::ArrayRef<bool> summed = {}) {
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
    const llvm::BitVector *only = stored ? &(*stored)[index] : nullptr;
    if (options.atol) {
      entry.tolerance.atol = *options.atol;
    } else if (index < summed.size() && summed[index] &&
               isFloatDataType(buffer.getDataType())) {
      // Sums: rtol of the largest finite |element| compared.
      const HostBuffer &reference = std::get<1>(pair).getBuffer();
      double largest = 0;
      for (int64_t i = 0, e = reference.getNumElements(); i < e; ++i) {
        if (only && !only->empty() && !(*only)[i])
          continue;
        double value = std::fabs(reference.getElementAsDouble(i));
        if (std::isfinite(value))
          largest = std::max(largest, value);
      }
      entry.tolerance.atol =
          std::max(entry.tolerance.atol, entry.tolerance.rtol * largest);
    }
    if (only && only->empty()) {
      entry.skipped = true;
      report.entries.push_back(std::move(entry));
      continue;
    }
    llvm::Expected<BufferComparison> result = compareBuffers(
        buffer, std::get<1>(pair).getBuffer(), entry.tolerance, only);
    if (result)
      entry.comparison = *result;
    else
      entry.error = llvm::toString(result.takeError());
    report.entries.push_back(std::move(entry));
  }
  return report;
}

/// Whether result `index` of `op` is a sum of many terms in an order of the
/// kernel's own, and which of `op`'s operands it is computed from (all of
/// them but for the reductions of several values, whose result i is
/// operand i's). With `contract` (tile.fp_contract), an addition or
/// subtraction of a product counts too: the GPU may fuse the two into one
/// FMA, rounded once where the interpreter rounds twice, which differs by
/// amounts that scale with the terms (a running `acc + a * b` over a loop's
/// rows, as the backward norms' partial sums of dw).
static bool sumsTerms(Operation *op, unsigned index, bool contract,
                      llvm::SmallVectorImpl<Value> &from) {
  if (auto reduce = dyn_cast<ClusterReduceOp>(op)) {
    from.push_back(reduce.getValues()[index]);
    return reduce.getKind() == ReduceKind::sum;
  }
  if (auto reduce = dyn_cast<GridReduceOp>(op)) {
    from.push_back(reduce.getValues()[index]);
    // logsumexp's pairs: the maximum (even) is exact, the sum (odd) not.
    switch (reduce.getKind()) {
    case GridReduceKind::max:
      return false;
    case GridReduceKind::sum:
      return true;
    case GridReduceKind::logsumexp:
      return index % 2 == 1;
    }
    llvm_unreachable("unknown grid reduction");
  }
  llvm::append_range(from, op->getOperands());
  if (isa<DotOp, AtomicAddOp>(op))
    return true;
  if (contract && isa<arith::AddFOp, arith::SubFOp>(op))
    return llvm::any_of(op->getOperands(), [](Value operand) {
      return operand.getDefiningOp<arith::MulFOp>() != nullptr;
    });
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.getKind() == ReduceKind::sum;
  return false;
}

/// What `root` is computed from: whether any of it sums terms, and the
/// arguments of `kernel` it reaches. With `pointersOnly`, only pointers are
/// followed (where a pointer comes from, not the offsets and masks it was
/// computed with). A value an scf.for carries comes from its initial value
/// and what the body yields in its place; one of an scf.if, from the
/// condition and what each branch yields; one of any other op with regions,
/// from every op inside and what they use. Memory is not followed: a value
/// loaded from a buffer that the kernel stored a sum to does not count as a
/// sum.
static void traceValue(FuncOp kernel, Value root, bool pointersOnly, bool &sums,
                       llvm::SmallVectorImpl<unsigned> &arguments) {
  Block *entry = &kernel.getBody().front();
  bool contract = TileDialect::allowsFPContract(kernel);
  llvm::SmallVector<Value> worklist;
  llvm::DenseSet<Value> seen;
  auto push = [&](Value value) {
    if (!pointersOnly || isa<PointerType>(getElementTypeOrSelf(value)))
      worklist.push_back(value);
  };
  auto pushAll = [&](ValueRange values) {
    for (Value value : values)
      push(value);
  };
  auto visitWhole = [&](Operation *op) {
    op->walk([&](Operation *inner) {
      llvm::SmallVector<Value> from;
      for (unsigned i = 0, e = std::max(1u, inner->getNumResults()); i < e; ++i)
        sums |= sumsTerms(inner, i, contract, from);
      pushAll(inner->getOperands());
    });
  };
  auto carried = [&](scf::ForOp loop, unsigned index) {
    push(loop.getInitArgs()[index]);
    push(loop.getBody()->getTerminator()->getOperand(index));
  };
  push(root);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      Operation *parent = argument.getOwner()->getParentOp();
      if (argument.getOwner() == entry) {
        arguments.push_back(argument.getArgNumber());
      } else if (auto loop = dyn_cast_if_present<scf::ForOp>(parent)) {
        if (argument.getArgNumber() == 0)
          pushAll(ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                             loop.getStep()});
        else
          carried(loop, argument.getArgNumber() - 1);
      } else if (parent) {
        visitWhole(parent);
      }
      continue;
    }
    Operation *op = value.getDefiningOp();
    unsigned index = cast<OpResult>(value).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      carried(loop, index);
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      push(branch.getCondition());
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          push(region->front().getTerminator()->getOperand(index));
    } else if (op->getNumRegions() > 0) {
      visitWhole(op);
    } else {
      llvm::SmallVector<Value> from;
      sums |= sumsTerms(op, index, contract, from);
      pushAll(from);
    }
  }
}

llvm::SmallVector<bool> mlir::tile::findSummedArguments(FuncOp kernel) {
  llvm::SmallVector<bool> summed(kernel.getNumArguments(), false);
  kernel.walk([&](Operation *op) {
    Value ptr, stored;
    if (auto store = dyn_cast<StoreOp>(op)) {
      ptr = store.getPtr();
      stored = store.getValue();
    } else if (auto add = dyn_cast<AtomicAddOp>(op)) {
      ptr = add.getPtr();
      stored = add.getValue();
    } else {
      return;
    }
    bool sums = isa<AtomicAddOp>(op);
    llvm::SmallVector<unsigned> unused;
    traceValue(kernel, stored, /*pointersOnly=*/false, sums, unused);
    if (!sums)
      return;
    bool ignored = false;
    llvm::SmallVector<unsigned> arguments;
    traceValue(kernel, ptr, /*pointersOnly=*/true, ignored, arguments);
    for (unsigned index : arguments)
      summed[index] = true;
  });
  return summed;
}

CheckReport mlir::tile::compareWithReference(llvm::ArrayRef<KernelArg> outputs,
                                             llvm::ArrayRef<KernelArg> expected,
                                             const CheckOptions &options) {
  return compare(outputs, expected, nullptr, options);
}

CheckReport mlir::tile::compareWithReference(llvm::ArrayRef<KernelArg> outputs,
                                             const Reference &reference,
                                             const CheckOptions &options) {
  CheckReport report =
      compare(outputs, reference.args,
              reference.complete() ? nullptr : &reference.stored, options,
              reference.summed);
  report.seconds = reference.seconds;
  report.programsRun = reference.programsRun;
  report.programs = reference.programs;
  return report;
}

llvm::Expected<Reference> mlir::tile::interpretReference(
    const KernelSource &source, llvm::ArrayRef<int64_t> grid,
    llvm::ArrayRef<KernelArg> inputs, const CheckOptions &options) {
  FuncOp kernel = source.getKernel();
  if (failed(checkInterpretable(kernel)))
    return llvm::make_error<DiagnosedError>(
        "the check needs the CPU interpreter, which cannot run @" +
        kernel.getSymName().str());
  Reference reference;
  reference.args.assign(inputs.begin(), inputs.end());
  reference.summed = findSummedArguments(kernel);
  InterpretOptions interpret;
  interpret.secondsBudget = options.seconds;
  // A mask of a buffer's elements holds up to 2^32 - 1 of them (BitVector):
  // a larger buffer's launch is interpreted whole.
  for (const KernelArg &arg : inputs)
    if (arg.isBuffer() &&
        arg.getBuffer().getNumElements() > std::numeric_limits<unsigned>::max())
      interpret.secondsBudget = 0;
  // What tile.atomic_add leaves in an element is the sum of every
  // program's additions, which no sample of the programs can say: such a
  // launch is interpreted whole.
  if (kernel.walk([](AtomicAddOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    interpret.secondsBudget = 0;
  // Only a sampled run needs to know what its programs stored.
  if (interpret.secondsBudget > 0)
    interpret.stored = &reference.stored;
  Clock::time_point start = Clock::now();
  FailureOr<InterpretCoverage> coverage =
      interpretKernel(kernel, grid, reference.args, interpret);
  if (failed(coverage))
    return llvm::make_error<DiagnosedError>(
        "the CPU interpreter failed on the same arguments");
  reference.seconds = secondsSince(start);
  reference.programsRun = coverage->programsRun;
  reference.programs = coverage->programs;
  return reference;
}

llvm::Expected<CheckReport> mlir::tile::checkAgainstInterpreter(
    KernelSource &source, llvm::ArrayRef<int64_t> grid,
    llvm::ArrayRef<KernelArg> inputs, llvm::ArrayRef<KernelArg> outputs,
    const CheckOptions &options) {
  if (inputs.size() != outputs.size())
    return llvm::createStringError(
        "the check compares " + llvm::Twine(outputs.size()) + " results with " +
        llvm::Twine(inputs.size()) + " inputs");
  llvm::Expected<Reference> reference =
      interpretReference(source, grid, inputs, options);
  if (!reference)
    return reference.takeError();
  return compareWithReference(outputs, *reference, options);
}
