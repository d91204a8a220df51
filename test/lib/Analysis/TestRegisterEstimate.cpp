//===- TestRegisterEstimate.cpp - Print the register estimate -------------===//
//
// tile-test-print-register-estimate: a remark on every kernel and every
// scf.for giving the registers per thread their floating-point tiles keep
// live at most, and the budget, for lit tests with --verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/RegisterEstimate.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestRegisterEstimatePass
    : PassWrapper<TestRegisterEstimatePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestRegisterEstimatePass)

  StringRef getArgument() const final {
    return "tile-test-print-register-estimate";
  }
  StringRef getDescription() const final {
    return "Print the registers per thread the floating-point tiles of each "
           "kernel and loop keep live at most, as remarks";
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<tile::FuncOp>()) {
      if (func.getBody().empty())
        continue;
      unsigned warps = tile::TileDialect::getNumWarps(func, 4);
      unsigned budget = tile::getRegisterBudget(warps);
      func.emitRemark() << "peak "
                        << tile::estimatePeakRegisters(func.getBody().front(),
                                                       warps)
                        << ", budget " << budget;
      func.walk([&](scf::ForOp loop) {
        loop.emitRemark() << "peak "
                          << tile::estimatePeakRegisters(*loop.getBody(), warps)
                          << ", budget " << budget;
      });
    }
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestRegisterEstimatePass() {
  PassRegistration<TestRegisterEstimatePass>();
}
} // namespace mlir::tile::test
