//===- TestLayoutBits.cpp - Print the bits of tilegpu layouts -------------===//
//
// tilegpu-test-print-layout-bits: a remark on every operation whose results
// have tilegpu layouts, giving for each result which coordinate bit each
// register, lane and warp bit holds (Layout.h), for lit tests with
// --verify-diagnostics. Dimensions 0, 1 and 2 print as x, y and z ("y3" is
// bit 3 of the coordinate along dimension 1), a free bit as "-".
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/Layout.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
std::string formatBits(ArrayRef<LayoutBit> bits) {
  return "[" +
         llvm::join(llvm::map_range(bits,
                                    [](LayoutBit bit) -> std::string {
                                      if (bit.isFree())
                                        return "-";
                                      return std::string(1, "xyz"[bit.dim]) +
                                             std::to_string(bit.bit);
                                    }),
                    " ") +
         "]";
}

struct TestLayoutBitsPass
    : PassWrapper<TestLayoutBitsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestLayoutBitsPass)

  StringRef getArgument() const final {
    return "tilegpu-test-print-layout-bits";
  }
  StringRef getDescription() const final {
    return "Print the register, lane and warp bits of every tile's layout, "
           "as remarks";
  }

  void runOnOperation() override {
    getOperation().walk([&](Operation *op) {
      for (Type type : op->getResultTypes()) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        if (!tensor || !tensor.getEncoding() || tensor.getRank() > 3)
          continue;
        FailureOr<LayoutBits> bits = getLayoutBits(tensor);
        if (failed(bits)) {
          op->emitRemark("no layout bits");
          continue;
        }
        op->emitRemark() << "reg " << formatBits(bits->reg) << " lane "
                         << formatBits(bits->lane) << " warp "
                         << formatBits(bits->warp);
      }
    });
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestLayoutBitsPass() { PassRegistration<TestLayoutBitsPass>(); }
} // namespace mlir::tile::test
