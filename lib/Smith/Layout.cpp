//===- Layout.cpp - The layout of buffers and arguments -------------------===//
//
// Where a program's buffers put their elements (heights, widths, strides,
// sizes as allocated), the kernel's arguments in order with their launch
// values and divisibility hints, the divisibilities the runtime
// specializes a launch on, and the launch grid: what the kernel, the
// command lines in its header and the reference's LAUNCH all agree on
// (Program.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Program.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::tile;
using namespace mlir::tile::smith;

/// The data a buffer's accesses see: in phase 1, one column block.
static int64_t getCols(const Program &program, const Buffer &buffer) {
  return buffer.phase == 1 ? std::min(program.cols, program.blockCols)
                           : program.cols;
}
static int64_t getColBlocks(const Program &program, const Buffer &buffer) {
  return buffer.phase == 1 ? 1 : program.getColBlocks();
}

int64_t smith::getBufferHeight(const Program &program, const Buffer &buffer) {
  switch (buffer.shape) {
  case Shape::Tile:
  case Shape::Rows:
    return program.rows;
  case Shape::Cols:
  case Shape::Scalar:
    return program.getRowBlocks();
  case Shape::Lhs:
    return program.rows;
  case Shape::Rhs:
    return getColBlocks(program, buffer) * program.dotK;
  }
  llvm_unreachable("unknown shape");
}

int64_t smith::getBufferWidth(const Program &program, const Buffer &buffer) {
  switch (buffer.shape) {
  case Shape::Tile:
  case Shape::Cols:
    return getCols(program, buffer);
  case Shape::Rows:
  case Shape::Scalar:
    return getColBlocks(program, buffer);
  case Shape::Lhs:
    return getColBlocks(program, buffer) * program.dotK;
  case Shape::Rhs:
    return program.blockCols;
  }
  llvm_unreachable("unknown shape");
}

/// The stride between rows (row-major) or columns (column-major).
static int64_t getOuterStride(const Program &program, const Buffer &buffer) {
  int64_t inner = buffer.columnMajor ? getBufferHeight(program, buffer)
                                     : getBufferWidth(program, buffer);
  int64_t stride = (inner - 1) * buffer.innerStride + 1 + buffer.rowPad;
  if (buffer.alignRows)
    stride = llvm::alignTo(stride, 16);
  return stride;
}

int64_t smith::getRowStride(const Program &program, const Buffer &buffer) {
  return buffer.columnMajor ? buffer.innerStride
                            : getOuterStride(program, buffer);
}

int64_t smith::getColStride(const Program &program, const Buffer &buffer) {
  return buffer.columnMajor ? getOuterStride(program, buffer)
                            : buffer.innerStride;
}

int64_t smith::getBufferSize(const Program &program, const Buffer &buffer) {
  return buffer.offset +
         (getBufferHeight(program, buffer) - 1) *
             getRowStride(program, buffer) +
         (getBufferWidth(program, buffer) - 1) * getColStride(program, buffer) +
         1 + buffer.tailPad;
}

/// The divisibility the runtime promises for an integer argument: the
/// largest power of two up to 16 that divides it (16 for 0).
static int64_t getRuntimeDivisibility(int64_t value) {
  if (value == 0)
    return 16;
  int64_t divisibility = 1;
  while (divisibility < 16 && value % (divisibility * 2) == 0)
    divisibility *= 2;
  return divisibility;
}

std::vector<Arg> smith::getArguments(const Program &program) {
  std::vector<Arg> args;
  for (auto [index, buffer] : llvm::enumerate(program.buffers)) {
    Arg arg(ArgKind::Pointer, static_cast<int>(index));
    arg.name = (buffer.isOutput ? "out" : "in") + std::to_string(index);
    arg.type = "!tile.ptr<" + getStoredTypeName(buffer).str() + ">";
    arg.divisibility = buffer.pointerHint ? 16 : 0;
    args.push_back(arg);
  }
  for (auto [index, op] : llvm::enumerate(program.ops)) {
    if (op.kind != OpKind::Param)
      continue;
    Arg arg(ArgKind::FloatParam, static_cast<int>(index));
    arg.name = "p" + std::to_string(index);
    arg.type = getName(op.type).str();
    arg.value = op.value;
    args.push_back(arg);
  }
  // An integer argument may carry a divisibility hint where it holds: every
  // other one of those that are multiples of 16 (decided by the value, so
  // the reducer keeps it stable).
  auto addInt = [&](ArgKind kind, int index, std::string name, int64_t value,
                    bool hint) {
    Arg arg(kind, index);
    arg.name = std::move(name);
    arg.type = "i32";
    arg.value = static_cast<double>(value);
    if (hint && value % 16 == 0)
      arg.divisibility = 16;
    args.push_back(arg);
  };
  if (program.sizesAreArgs) {
    if (program.rank == 2)
      addInt(ArgKind::Rows, 0, "M", program.rows, false);
    addInt(ArgKind::Cols, 0, "N", program.cols, program.seed % 2 == 0);
  }
  for (auto [index, buffer] : llvm::enumerate(program.buffers)) {
    if (!buffer.layoutIsArgs)
      continue;
    int i = static_cast<int>(index);
    addInt(ArgKind::Offset, i, "off" + std::to_string(i), buffer.offset,
           buffer.pointerHint);
    if (program.rank == 2)
      addInt(ArgKind::RowStride, i, "rs" + std::to_string(i),
             getRowStride(program, buffer), buffer.pointerHint);
    addInt(ArgKind::ColStride, i, "cs" + std::to_string(i),
           getColStride(program, buffer), buffer.columnMajor);
  }
  for (auto [index, mask] : llvm::enumerate(program.masks))
    if (mask.boundIsArg && mask.cut != CutKind::None)
      addInt(ArgKind::MaskBound, static_cast<int>(index),
             "k" + std::to_string(index), mask.bound, false);
  return args;
}

std::string smith::getSpecialization(const Program &program) {
  std::string text;
  for (auto [index, arg] : llvm::enumerate(getArguments(program))) {
    int64_t divisibility = 16;
    switch (arg.kind) {
    case ArgKind::FloatParam:
      // Integer parameters are specialized as the runtime does.
      if (arg.type != "i32" && arg.type != "i64")
        continue;
      divisibility = getRuntimeDivisibility(static_cast<int64_t>(arg.value));
      break;
    case ArgKind::Pointer:
      divisibility = 16;
      break;
    case ArgKind::Rows:
    case ArgKind::Cols:
    case ArgKind::Offset:
    case ArgKind::RowStride:
    case ArgKind::ColStride:
    case ArgKind::MaskBound:
      divisibility =
          std::max(arg.divisibility,
                   getRuntimeDivisibility(static_cast<int64_t>(arg.value)));
      break;
    }
    // Like the runtime, no hint for divisibility 1.
    if (divisibility < 2)
      continue;
    if (!text.empty())
      text += ",";
    text += std::to_string(index) + ":" + std::to_string(divisibility);
  }
  return text;
}

std::string smith::getGrid(const Program &program) {
  switch (program.grid) {
  case GridKind::Blocks:
    // A cluster of programs per work item with clusters.
    return std::to_string(program.getNumWorkItems() * program.clusterSize);
  case GridKind::Blocks2D:
    return std::to_string(program.getColBlocks()) + "," +
           std::to_string(program.getRowBlocks());
  case GridKind::Persistent:
    return std::to_string(program.programs);
  }
  llvm_unreachable("unknown grid kind");
}

bool smith::fitsDescriptor(const Program &program, const Buffer &buffer) {
  int64_t bytes = 4;
  switch (buffer.type) {
  case ElementType::F16:
  case ElementType::BF16:
    bytes = 2;
    break;
  case ElementType::F32:
  case ElementType::I32:
    bytes = 4;
    break;
  case ElementType::I64:
    bytes = 8;
    break;
  }
  if (buffer.isOutput ||
      (buffer.shape != Shape::Tile && !isDotOperand(buffer.shape)) ||
      buffer.offset != 0 || buffer.columnMajor || buffer.innerStride != 1)
    return false;
  // The box: the value's rows and columns (Program.h).
  int64_t boxRows = program.blockRows, boxCols = program.blockCols;
  if (buffer.shape == Shape::Lhs)
    boxCols = program.dotK;
  else if (buffer.shape == Shape::Rhs)
    boxRows = program.dotK;
  if ((program.rank == 2 && boxRows > 256) || boxCols > 256 ||
      boxCols * bytes < 16)
    return false;
  return program.rank == 1 || getRowStride(program, buffer) * bytes % 16 == 0;
}
