//===- Executor.cpp - The state of a running kernel -----------------------===//

#include "Executor.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interpreter;

const HandlerTable &interpreter::getHandlerTable() {
  static const HandlerTable table = [] {
    HandlerTable result;
    registerArithHandlers(result);
    registerMathHandlers(result);
    registerSCFHandlers(result);
    registerTileHandlers(result);
    return result;
  }();
  return table;
}

Executor::Executor(FuncOp kernel, MutableArrayRef<KernelArg> args,
                   std::array<int32_t, 3> gridSize)
    : kernel(kernel), gridSize(gridSize) {
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (arg.isBuffer()) {
      buffers.push_back(&arg.getBuffer());
      RuntimeValue pointer = RuntimeValue::allocate(DataType::Ptr, {});
      *pointer.getData<Pointer>() = Pointer{0, static_cast<int64_t>(index)};
      arguments.push_back(pointer);
      continue;
    }
    buffers.push_back(nullptr);
    const Scalar &scalar = arg.getScalar();
    DataType kind = *getElementDataType(kernel.getArgumentTypes()[index]);
    RuntimeValue value = RuntimeValue::allocate(kind, {});
    std::memcpy(value.getBytes(), &scalar.bits, getStorageSize(kind));
    arguments.push_back(value);
  }
}

InFlightDiagnostic Executor::emitError(Operation *op) {
  InFlightDiagnostic diag = op->emitError();
  diag.attachNote(kernel.getLoc())
      << "in program (" << programId[0] << ", " << programId[1] << ", "
      << programId[2] << ") of @" << kernel.getSymName() << ", grid ("
      << gridSize[0] << ", " << gridSize[1] << ", " << gridSize[2] << ")";
  return diag;
}

LogicalResult Executor::runBlock(Block &block,
                                 SmallVectorImpl<RuntimeValue> &yielded) {
  const HandlerTable &table = getHandlerTable();
  for (Operation &op : block) {
    if (isa<scf::YieldOp>(op)) {
      yielded.clear();
      for (Value operand : op.getOperands())
        yielded.push_back(lookup(operand));
      return success();
    }
    if (isa<ReturnOp>(op))
      return success();
    const Handler *handler = table.lookup(&op);
    if (!handler)
      return emitError(&op)
             << "the interpreter does not support '" << op.getName() << "'";
    if (failed((*handler)(*this, &op)))
      return failure();
  }
  return success();
}

LogicalResult Executor::run() {
  Block &body = kernel.getBody().front();
  SmallVector<RuntimeValue> yielded;
  for (programId[2] = 0; programId[2] < gridSize[2]; ++programId[2]) {
    for (programId[1] = 0; programId[1] < gridSize[1]; ++programId[1]) {
      for (programId[0] = 0; programId[0] < gridSize[0]; ++programId[0]) {
        for (auto [argument, value] :
             llvm::zip_equal(body.getArguments(), arguments))
          bind(argument, value);
        if (failed(runBlock(body, yielded)))
          return failure();
      }
    }
  }
  return success();
}
