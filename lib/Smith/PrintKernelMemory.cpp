//===- PrintKernelMemory.cpp - Indices, pointers and masks of a kernel ----===//
//
// The kernel's address arithmetic: i32 constants and arguments, splats,
// arith on index values, the block's row and column (from the program id,
// the persistent loop's block or the column loop's), the row and column
// indices of each element of a value, the pointers a load or a store
// reads or writes through (for each kind of addressing), and the masks
// that bound its accesses. All of them are made on first use and reused,
// keyed by what they compute.
//
//===----------------------------------------------------------------------===//

#include "KernelPrinter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <optional>

using namespace mlir::tile;
using namespace mlir::tile::smith;

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

Value KernelPrinter::constI32(int64_t value) {
  std::string name = "c" + std::string(value < 0 ? "m" : "") +
                     std::to_string(std::llabs(value)) + "_";
  return define(name, {}, "i32", Top,
                "arith.constant " + std::to_string(value) + " : i32",
                "const:" + std::to_string(value));
}

Value KernelPrinter::argOrConst(ArgKind kind, int index, int64_t value,
                                bool isArg) {
  if (!isArg)
    return constI32(value);
  for (const Arg &arg : args)
    if (arg.kind == kind && arg.index == index)
      return Value{"%" + arg.name, {}, "i32", Top};
  llvm_unreachable("no such argument");
}

Value KernelPrinter::splat(const Value &scalar, llvm::ArrayRef<int64_t> dims) {
  return define("splat", dims, scalar.element, scalar.level,
                "tile.splat " + scalar.name + " : " + scalar.element + " -> " +
                    getTypeText(dims, scalar.element),
                "splat:" + scalar.name + ":" + getTypeText(dims, "x"));
}

Value KernelPrinter::toDims(const Value &value, llvm::ArrayRef<int64_t> dims) {
  if (llvm::ArrayRef<int64_t>(value.dims) == dims)
    return value;
  assert(value.isScalar() && "only scalars are splat to other shapes");
  return splat(value, dims);
}

Value KernelPrinter::widen(const Value &value, int axis) {
  return widen(value, axis, getDims(Shape::Tile));
}

Value KernelPrinter::widen(const Value &value, int axis,
                           llvm::ArrayRef<int64_t> dims) {
  std::vector<int64_t> expanded = axis == 1 ? std::vector<int64_t>{dims[0], 1}
                                            : std::vector<int64_t>{1, dims[1]};
  Value e = define("e", expanded, value.element, value.level,
                   "tile.expand_dims " + value.name + " axis " +
                       std::to_string(axis) + " : " + getTypeText(value) +
                       " -> " + getTypeText(expanded, value.element),
                   "expand:" + value.name + ":" + std::to_string(axis));
  return define("b", dims, value.element, value.level,
                "tile.broadcast " + e.name + " : " + getTypeText(e) + " -> " +
                    getTypeText(dims, value.element),
                "broadcast:" + e.name + ":" + getTypeText(dims, "x"));
}

Value KernelPrinter::arith(llvm::StringRef op, const Value &lhs,
                           const Value &rhs) {
  std::vector<int64_t> dims =
      lhs.dims.size() >= rhs.dims.size() ? lhs.dims : rhs.dims;
  Value a = lhs.isScalar() && !dims.empty() ? splat(lhs, dims) : lhs;
  Value b = rhs.isScalar() && !dims.empty() ? splat(rhs, dims) : rhs;
  std::string text = ("arith." + op + " ").str() + a.name + ", " + b.name +
                     " : " + getTypeText(a);
  return define(op.take_front(3), dims, a.element, std::max(a.level, b.level),
                text, text);
}

Value KernelPrinter::times(const Value &value, int64_t factor) {
  Value constant = constI32(factor);
  return arith("muli", value, constant);
}

Value KernelPrinter::ceilDiv(const Value &value, int64_t divisor) {
  Value constant = constI32(divisor);
  return arith("ceildivsi", value, constant);
}

Value KernelPrinter::indicesFrom(const Value &first, int64_t size) {
  Value start = splat(first, {size});
  Value offsets = range(size);
  return arith("addi", start, offsets);
}

Value KernelPrinter::compare(llvm::StringRef predicate, const Value &lhs,
                             const Value &rhs) {
  std::vector<int64_t> dims =
      lhs.dims.size() >= rhs.dims.size() ? lhs.dims : rhs.dims;
  Value a = toDims(lhs, dims), b = toDims(rhs, dims);
  std::string text = ("arith.cmpi " + predicate + ", ").str() + a.name + ", " +
                     b.name + " : " + getTypeText(a);
  return define("cmp", dims, "i1", std::max(a.level, b.level), text, text);
}

Value KernelPrinter::range(int64_t size) {
  return define("range", {size}, "i32", Top,
                "tile.range 0, " + std::to_string(size) + " : " +
                    getTypeText({size}, "i32"),
                "range:" + std::to_string(size));
}

//===----------------------------------------------------------------------===//
// Blocks and indices
//===----------------------------------------------------------------------===//

std::vector<int64_t> KernelPrinter::getDims(Shape shape) const {
  switch (shape) {
  case Shape::Tile:
    if (p.rank == 2)
      return {p.blockRows, p.blockCols};
    return {p.blockCols};
  case Shape::Rows:
    return {p.blockRows};
  case Shape::Cols:
    return {p.blockCols};
  case Shape::Scalar:
    return {};
  case Shape::Lhs:
    return {p.blockRows, p.dotK};
  case Shape::Rhs:
    return {p.dotK, p.blockCols};
  }
  llvm_unreachable("unknown shape");
}

Value KernelPrinter::blockRow() {
  if (p.grid == GridKind::Blocks2D)
    return define("bi", {}, "i32", Top, "tile.program_id y : i32", "bi");
  if (p.columnLoop)
    return item;
  return arith("divsi", item, colBlocks());
}

Value KernelPrinter::blockCol() {
  if (p.grid == GridKind::Blocks2D)
    return define("bj", {}, "i32", Top, "tile.program_id x : i32", "bj");
  if (p.columnLoop)
    return phase == 0 ? Value{"%col_block", {}, "i32", Inner} : constI32(0);
  if (p.rank == 1)
    return item;
  return arith("remsi", item, colBlocks());
}

Value KernelPrinter::colBlocks() {
  if (!p.sizesAreArgs)
    return constI32(p.getColBlocks());
  return ceilDiv(argOrConst(ArgKind::Cols, 0, 0, true), p.blockCols);
}

/// The row index of each element of a value of `shape`: the data's row for
/// tiles and rows, the row block for columns and scalars.
Value KernelPrinter::rowIndex(Shape shape) {
  if (shape == Shape::Rhs)
    return widen(depthIndex(), 1, getDims(shape));
  Value bi = blockRow();
  if (shape == Shape::Cols || shape == Shape::Scalar)
    return bi;
  Value rows = indicesFrom(times(bi, p.blockRows), p.blockRows);
  if (shape == Shape::Rows)
    return rows;
  return widen(rows, 1, getDims(shape));
}

/// The column index: the data's column for tiles and columns, the column
/// block for rows and scalars; along K for an lhs, the block's own column
/// for an rhs.
Value KernelPrinter::colIndex(Shape shape) {
  if (shape == Shape::Lhs)
    return widen(depthIndex(), 0, getDims(shape));
  if (shape == Shape::Rhs)
    return widen(range(p.blockCols), 0, getDims(shape));
  Value bj = blockCol();
  if (shape == Shape::Rows || shape == Shape::Scalar)
    return bj;
  Value cols = indicesFrom(times(bj, p.blockCols), p.blockCols);
  if (shape == Shape::Cols || p.rank == 1)
    return cols;
  return widen(cols, 0);
}

Value KernelPrinter::depthIndex() {
  return indicesFrom(times(blockCol(), p.dotK), p.dotK);
}

//===----------------------------------------------------------------------===//
// Pointers and masks
//===----------------------------------------------------------------------===//

Value KernelPrinter::pointers(const Op &op) {
  const Buffer &buffer = p.buffers[op.buffer];
  int b = op.buffer;
  std::string element = getStoredTypeName(buffer).str();
  std::string pointer = "!tile.ptr<" + element + ">";
  Value base{"%" + args[b].name, {}, pointer, Top};
  auto offset = [&] {
    return argOrConst(ArgKind::Offset, b, buffer.offset, buffer.layoutIsArgs);
  };
  auto rowStride = [&] {
    return argOrConst(ArgKind::RowStride, b, getRowStride(p, buffer),
                      buffer.layoutIsArgs && p.rank == 2);
  };
  auto colStride = [&] {
    return argOrConst(ArgKind::ColStride, b, getColStride(p, buffer),
                      buffer.layoutIsArgs);
  };
  bool unitCols = !buffer.layoutIsArgs && getColStride(p, buffer) == 1;
  bool zeroOffset = !buffer.layoutIsArgs && buffer.offset == 0;
  std::vector<int64_t> dims = getDims(op.shape);
  std::string key = "ptrs:" + std::to_string(b) + ":" +
                    getName(op.addressing).str() + ":" +
                    getName(op.shape).str() + ":" + std::to_string(phase);

  auto sum = [&](std::optional<Value> rows, std::optional<Value> cols,
                 bool withOffset) -> std::optional<Value> {
    std::optional<Value> total;
    auto addTerm = [&](Value term) {
      total = total ? arith("addi", *total, term) : term;
    };
    if (rows)
      addTerm(arith("muli", *rows, rowStride()));
    if (cols)
      addTerm(unitCols ? *cols : arith("muli", *cols, colStride()));
    if (withOffset && !zeroOffset)
      addTerm(offset());
    return total;
  };

  std::optional<Value> offsets;
  Value start = base;
  switch (op.addressing) {
  case Addressing::Global:
  case Addressing::Global64: {
    std::optional<Value> rows;
    if (hasRowIndex(op.shape))
      rows = rowIndex(op.shape);
    offsets = sum(rows, colIndex(op.shape), /*withOffset=*/true);
    if (!offsets)
      offsets = constI32(0);
    if (!dims.empty())
      offsets = toDims(*offsets, dims);
    break;
  }
  case Addressing::BlockBase: {
    // The block's first element, as a scalar pointer, then the offsets
    // within the block.
    std::optional<Value> firstRow, firstCol, localRows, localCols;
    if (isDotOperand(op.shape)) {
      // An lhs starts at the block's first row and its slice of K; an rhs
      // at that slice's first row.
      Value depth = times(blockCol(), p.dotK);
      if (op.shape == Shape::Lhs) {
        firstRow = times(blockRow(), p.blockRows);
        firstCol = depth;
      } else {
        firstRow = depth;
      }
    } else if (op.shape == Shape::Tile || op.shape == Shape::Rows) {
      if (p.rank == 2)
        firstRow = times(blockRow(), p.blockRows);
    } else if (hasRowIndex(op.shape)) {
      firstRow = blockRow();
    }
    if (op.shape == Shape::Tile || op.shape == Shape::Cols)
      firstCol = times(blockCol(), p.blockCols);
    else if (!isDotOperand(op.shape))
      firstCol = blockCol();
    std::optional<Value> first = sum(firstRow, firstCol, /*withOffset=*/true);
    if (first)
      start = define("row_ptr", {}, pointer, first->level,
                     "tile.addptr " + base.name + ", " + first->name + " : " +
                         pointer + ", i32",
                     "addptr:" + base.name + ":" + first->name);
    if (op.shape == Shape::Scalar)
      return start;
    if (op.shape == Shape::Rows)
      localRows = range(p.blockRows);
    if (op.shape == Shape::Cols)
      localCols = range(p.blockCols);
    if (isDotOperand(op.shape)) {
      localRows = widen(range(dims[0]), 1, dims);
      localCols = widen(range(dims[1]), 0, dims);
    }
    if (op.shape == Shape::Tile) {
      if (p.rank == 2) {
        Value r = range(p.blockRows), c = range(p.blockCols);
        localRows = widen(r, 1);
        localCols = widen(c, 0);
      } else {
        localCols = range(p.blockCols);
      }
    }
    offsets = sum(localRows, localCols, /*withOffset=*/false);
    break;
  }
  case Addressing::Descriptor:
    llvm_unreachable("a descriptor load has no pointers (descriptor())");
  }

  if (dims.empty())
    return define("ptr", {}, pointer, offsets->level,
                  "tile.addptr " + base.name + ", " + offsets->name + " : " +
                      pointer + ", i32",
                  key);
  std::string offsetType = "i32";
  if (op.addressing == Addressing::Global64) {
    offsets =
        define("wide", dims, "i64", offsets->level,
               "arith.extsi " + offsets->name + " : " + getTypeText(*offsets) +
                   " to " + getTypeText(dims, "i64"),
               "extsi:" + offsets->name);
    offsetType = "i64";
  }
  Value starts = splat(start, dims);
  return define("ptrs", dims, pointer, std::max(starts.level, offsets->level),
                "tile.addptr " + starts.name + ", " + offsets->name + " : " +
                    getTypeText(dims, pointer) + ", " +
                    getTypeText(dims, offsetType),
                "addptr:" + starts.name + ":" + offsets->name);
}

Value KernelPrinter::descriptor(const Op &op) {
  const Buffer &buffer = p.buffers[op.buffer];
  int b = op.buffer;
  std::string element = getStoredTypeName(buffer).str();
  std::string type = "!tile.tensor_desc<";
  for (int64_t dim : getDims(op.shape))
    type += std::to_string(dim) + "x";
  type += element + ">";
  // A phase-1 buffer holds the first column block only (Layout.cpp).
  Value cols = buffer.phase == 1
                   ? constI32(std::min(p.cols, p.blockCols))
                   : argOrConst(ArgKind::Cols, 0, p.cols, p.sizesAreArgs);
  // A dot operand's K, its column blocks' slices (Program.h): a constant
  // (a descriptor's sizes are arguments or constants), the launch's.
  auto depth = [&] {
    return constI32(op.shape == Shape::Lhs ? getBufferWidth(p, buffer)
                                           : getBufferHeight(p, buffer));
  };
  if (op.shape == Shape::Lhs)
    cols = depth();
  if (op.shape == Shape::Rhs)
    cols = constI32(p.blockCols);
  std::string sizes = cols.name, strides = constI32(1).name;
  if (p.rank == 2) {
    // (Rank 1 has no rows, nor dots.)
    Value rows = op.shape == Shape::Rhs
                     ? depth()
                     : argOrConst(ArgKind::Rows, 0, p.rows, p.sizesAreArgs);
    sizes = rows.name + ", " + sizes;
    strides = argOrConst(ArgKind::RowStride, b, getRowStride(p, buffer),
                         buffer.layoutIsArgs)
                  .name +
              ", " + strides;
  }
  return define("desc", {}, type, Top,
                "tile.make_tensor_desc %" + args[b].name + ", [" + sizes +
                    "], [" + strides + "] : !tile.ptr<" + element + "> -> " +
                    type,
                "desc:" + std::to_string(b));
}

Value KernelPrinter::mask(int index, Shape shape) {
  const Mask &m = p.masks[index];
  std::string key = "mask:" + std::to_string(index) + ":" +
                    getName(shape).str() + ":" + std::to_string(phase);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  std::optional<Value> result;
  auto both = [&](Value cond) {
    result = result ? arith("andi", *result, cond) : cond;
  };
  bool rows = (shape == Shape::Tile && p.rank == 2) || shape == Shape::Rows ||
              shape == Shape::Lhs;
  bool cols = shape == Shape::Tile || shape == Shape::Cols;
  if (rows) {
    Value rowIdx = rowIndex(shape);
    both(compare("slt", rowIdx,
                 argOrConst(ArgKind::Rows, 0, p.rows, p.sizesAreArgs)));
  }
  if (cols) {
    Value colIdx = colIndex(shape);
    both(compare("slt", colIdx,
                 argOrConst(ArgKind::Cols, 0, p.cols, p.sizesAreArgs)));
  }
  Value bound = argOrConst(ArgKind::MaskBound, index, m.bound, m.boundIsArg);
  switch (m.cut) {
  case CutKind::None:
    break;
  case CutKind::ColsBelow:
    both(compare("slt", colIndex(shape), bound));
    break;
  case CutKind::RowsBelow:
    both(compare("slt", rowIndex(shape), bound));
    break;
  case CutKind::ColsFrom:
    both(compare("sge", colIndex(shape), bound));
    break;
  case CutKind::Diagonal: {
    Value row = rowIndex(shape);
    Value col = colIndex(shape);
    both(compare("sle", col, arith("addi", row, bound)));
    break;
  }
  }
  cache[key] = *result;
  return *result;
}
