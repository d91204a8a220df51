//===- Interpreter.cpp - A CPU interpreter for tile kernels ---------------===//
//
// The entry points: checking that a kernel can be interpreted, checking the
// launch (grid and arguments), and running it.
//
//===----------------------------------------------------------------------===//

#include "tile/Interpreter/Interpreter.h"

#include "Executor.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interpreter;

/// Checks that the interpreter can hold values of `type`.
static LogicalResult checkType(Operation *op, Type type) {
  // A tensor descriptor is held as its fields (TileOps.cpp).
  if (isa<TensorDescType>(type))
    return success();
  if (!getElementDataType(type))
    return op->emitError("the interpreter does not support values of type ")
           << type;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.hasStaticShape())
      return op->emitError("the interpreter needs static shapes, got ") << type;
    if (tensor.getNumElements() > kMaxInterpretedTileElements)
      return op->emitError("the tile ")
             << type << " has " << tensor.getNumElements()
             << " elements; the interpreter handles tiles of up to "
             << kMaxInterpretedTileElements;
  }
  return success();
}

LogicalResult mlir::tile::checkInterpretable(FuncOp kernel) {
  const HandlerTable &table = getHandlerTable();
  for (BlockArgument argument : kernel.getArguments())
    if (failed(checkType(kernel, argument.getType())))
      return failure();
  WalkResult result = kernel.getBody().walk([&](Operation *op) {
    bool supported = op->hasTrait<OpTrait::IsTerminator>()
                         ? isa<ReturnOp, scf::YieldOp>(op)
                         : table.lookup(op) != nullptr;
    if (!supported) {
      op->emitError("the interpreter does not support '")
          << op->getName() << "'";
      return WalkResult::interrupt();
    }
    for (Type type : op->getOperandTypes())
      if (failed(checkType(op, type)))
        return WalkResult::interrupt();
    for (Type type : op->getResultTypes())
      if (failed(checkType(op, type)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (failed(checkType(op, argument.getType())))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Checks the launch: the grid, the arguments' number and types, and the
/// divisibility promises of integer arguments.
static LogicalResult checkLaunch(FuncOp kernel, ArrayRef<int64_t> grid,
                                 ArrayRef<KernelArg> args,
                                 std::array<int32_t, 3> &gridSize) {
  if (grid.empty() || grid.size() > 3)
    return kernel.emitError("a grid has 1 to 3 sizes, got ") << grid.size();
  gridSize = {1, 1, 1};
  for (auto [axis, size] : llvm::enumerate(grid)) {
    if (size < 1 || size > std::numeric_limits<int32_t>::max())
      return kernel.emitError("grid size ")
             << size << " along "
             << "xyz"[axis] << " is out of range; expected 1 to 2147483647";
    gridSize[axis] = static_cast<int32_t>(size);
  }
  int64_t programs = 1;
  for (int32_t size : gridSize)
    if (llvm::MulOverflow(programs, int64_t(size), programs))
      return kernel.emitError("a grid of ")
             << gridSize[0] << " x " << gridSize[1] << " x " << gridSize[2]
             << " programs is more than the interpreter can count";
  int64_t clusterSize = TileDialect::getClusterSize(kernel);
  if (gridSize[0] % clusterSize)
    return kernel.emitError("@")
           << kernel.getSymName() << " runs in clusters of " << clusterSize
           << " programs along x ('" << TileDialect::getClusterSizeAttrName()
           << "'); the grid's " << gridSize[0]
           << " programs along x are not a multiple of it";
  ArrayRef<Type> paramTypes = kernel.getArgumentTypes();
  if (args.size() != paramTypes.size())
    return kernel.emitError("@")
           << kernel.getSymName() << " takes " << paramTypes.size()
           << " arguments, got " << args.size();
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (llvm::Error err = checkArgumentType(paramTypes[index],
                                            arg.getDataType(), arg.isBuffer()))
      return kernel.emitError("argument ")
             << index << ": " << llvm::toString(std::move(err));
    if (arg.isBuffer() || isFloatDataType(arg.getDataType()))
      continue;
    std::string broken =
        checkIntegerArgument(kernel, index, arg.getScalar().getSExtValue());
    if (!broken.empty())
      return kernel.emitError(broken);
  }
  return success();
}

FailureOr<InterpretCoverage>
mlir::tile::interpretKernel(FuncOp kernel, ArrayRef<int64_t> grid,
                            MutableArrayRef<KernelArg> args,
                            const InterpretOptions &options) {
  std::array<int32_t, 3> gridSize;
  if (failed(checkLaunch(kernel, grid, args, gridSize)) ||
      failed(checkInterpretable(kernel)))
    return failure();
  Executor executor(kernel, args, gridSize);
  return executor.run(options);
}

LogicalResult mlir::tile::interpretKernel(FuncOp kernel, ArrayRef<int64_t> grid,
                                          MutableArrayRef<KernelArg> args) {
  return interpretKernel(kernel, grid, args, InterpretOptions());
}
