//===- TestAxisInfo.cpp - Print the axis analysis's facts -----------------===//
//
// tile-test-print-axis-info: a remark on every operation with an integer or
// pointer result, giving what the axis analysis knows of it, for lit tests
// with --verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestAxisInfoPass
    : PassWrapper<TestAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)

  StringRef getArgument() const final { return "tile-test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Print the contiguity, divisibility and constancy of integer and "
           "pointer values as remarks";
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<tile::FuncOp>()) {
      tile::AxisInfoResult result(func);
      func.walk([&](Operation *op) {
        if (op->getNumResults() != 1)
          return;
        Type element = getElementTypeOrSelf(op->getResult(0).getType());
        if (!isa<IntegerType, tile::PointerType>(element))
          return;
        std::string text;
        llvm::raw_string_ostream os(text);
        result.get(op->getResult(0)).print(os);
        op->emitRemark() << text;
      });
    }
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestAxisInfoPass() { PassRegistration<TestAxisInfoPass>(); }
} // namespace mlir::tile::test
