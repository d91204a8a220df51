//===- SCFOps.cpp - Interpreting the scf dialect --------------------------===//
//
// scf.for (i32, i64 or index induction variables, with iter_args) and scf.if.
// A loop whose step is not positive would not terminate or is undefined:
// it is an error. A loop stops when the next induction value would
// overflow its type.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "Executor.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interpreter;

static LogicalResult runFor(Executor &executor, scf::ForOp forOp) {
  const RuntimeValue &lowerValue = executor.lookup(forOp.getLowerBound());
  DataType kind = lowerValue.getDataType();
  unsigned width = getIntegerWidth(kind);
  bool isUnsigned = forOp.getUnsignedCmp();
  auto read = [&](Value value) -> uint64_t {
    int64_t integer = executor.lookup(value).getInteger();
    return isUnsigned ? IntView::toUnsigned(integer, width)
                      : static_cast<uint64_t>(integer);
  };
  uint64_t lower = read(forOp.getLowerBound());
  uint64_t upper = read(forOp.getUpperBound());
  uint64_t step = read(forOp.getStep());
  if (isUnsigned ? step == 0 : static_cast<int64_t>(step) <= 0)
    return executor.emitError(forOp)
           << "scf.for step must be positive, got "
           << (isUnsigned ? std::to_string(step)
                          : std::to_string(static_cast<int64_t>(step)));

  SmallVector<RuntimeValue> iterValues;
  for (Value init : forOp.getInitArgs())
    iterValues.push_back(executor.lookup(init));
  Block &body = *forOp.getBody();
  SmallVector<RuntimeValue> yielded;
  auto less = [&](uint64_t a, uint64_t b) {
    return isUnsigned ? a < b
                      : static_cast<int64_t>(a) < static_cast<int64_t>(b);
  };
  for (uint64_t iv = lower; less(iv, upper);) {
    RuntimeValue ivValue = makeIntegers(
        kind, {}, [&](int64_t) { return static_cast<int64_t>(iv); });
    executor.bind(forOp.getInductionVar(), ivValue);
    for (auto [argument, value] :
         llvm::zip_equal(forOp.getRegionIterArgs(), iterValues))
      executor.bind(argument, value);
    if (failed(executor.runBlock(body, yielded)))
      return failure();
    iterValues.assign(yielded.begin(), yielded.end());
    // Stop rather than wrap when the next value overflows the IV's type.
    uint64_t next;
    if (isUnsigned) {
      uint64_t max = IntView::toUnsigned(-1, width);
      if (step > max - iv)
        break;
      next = iv + step;
    } else {
      int64_t sum;
      if (llvm::AddOverflow(static_cast<int64_t>(iv),
                            static_cast<int64_t>(step), sum) ||
          (width < 64 && sum > (int64_t(1) << (width - 1)) - 1))
        break;
      next = static_cast<uint64_t>(sum);
    }
    iv = next;
  }
  for (auto [result, value] : llvm::zip_equal(forOp.getResults(), iterValues))
    executor.bind(result, value);
  return success();
}

static LogicalResult runIf(Executor &executor, scf::IfOp ifOp) {
  bool condition = executor.lookup(ifOp.getCondition()).getBool();
  Region &region = condition ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty())
    return success();
  SmallVector<RuntimeValue> yielded;
  if (failed(executor.runBlock(region.front(), yielded)))
    return failure();
  for (auto [result, value] : llvm::zip_equal(ifOp.getResults(), yielded))
    executor.bind(result, value);
  return success();
}

void interpreter::registerSCFHandlers(HandlerTable &table) {
  table.add<scf::ForOp>([](Executor &executor, Operation *op) -> LogicalResult {
    return runFor(executor, cast<scf::ForOp>(op));
  });
  table.add<scf::IfOp>([](Executor &executor, Operation *op) -> LogicalResult {
    return runIf(executor, cast<scf::IfOp>(op));
  });
}
