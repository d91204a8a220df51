//===- SpecializeArguments.cpp - Promise divisibilities of arguments ------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESPECIALIZEARGUMENTS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct TileSpecializeArgumentsPass
    : tile::impl::TileSpecializeArgumentsBase<TileSpecializeArgumentsPass> {
  using TileSpecializeArgumentsBase::TileSpecializeArgumentsBase;

  void runOnOperation() override {
    SmallVector<std::pair<unsigned, int64_t>> hints;
    for (StringRef entry : divisibility) {
      auto [index, value] = entry.split(':');
      unsigned argIndex;
      int64_t divisor;
      if (index.trim().getAsInteger(10, argIndex) ||
          value.trim().getAsInteger(10, divisor) || divisor <= 0 ||
          !llvm::isPowerOf2_64(divisor)) {
        getOperation().emitError()
            << "tile-specialize-arguments: expected ARGUMENT:DIVISIBILITY "
               "with a power-of-two divisibility, got '"
            << entry << "'";
        return signalPassFailure();
      }
      hints.push_back({argIndex, divisor});
    }
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<FuncOp>()) {
      for (auto [index, divisor] : hints) {
        if (index >= func.getNumArguments()) {
          func.emitError() << "tile-specialize-arguments: kernel '"
                           << func.getSymName() << "' has no argument "
                           << index;
          return signalPassFailure();
        }
        Type type = func.getArgument(index).getType();
        if (!isa<PointerType, IntegerType>(type)) {
          func.emitError() << "tile-specialize-arguments: argument " << index
                           << " of kernel '" << func.getSymName() << "' is "
                           << type
                           << "; divisibility applies to pointers and "
                              "integers";
          return signalPassFailure();
        }
        func.setArgAttr(index, TileDialect::getDivisibilityAttrName(),
                        builder.getI64IntegerAttr(divisor));
      }
      for (unsigned index : ones) {
        if (index >= func.getNumArguments()) {
          func.emitError() << "tile-specialize-arguments: kernel '"
                           << func.getSymName() << "' has no argument "
                           << index;
          return signalPassFailure();
        }
        BlockArgument arg = func.getArgument(index);
        auto type = dyn_cast<IntegerType>(arg.getType());
        if (!type || type.getWidth() < 8) {
          func.emitError() << "tile-specialize-arguments: argument " << index
                           << " of kernel '" << func.getSymName() << "' is "
                           << arg.getType()
                           << "; only integers can be known to equal 1";
          return signalPassFailure();
        }
        OpBuilder at = OpBuilder::atBlockBegin(&func.getBody().front());
        Value one = arith::ConstantOp::create(at, func.getLoc(), type,
                                              builder.getIntegerAttr(type, 1));
        arg.replaceAllUsesWith(one);
      }
    }
  }
};
} // namespace
