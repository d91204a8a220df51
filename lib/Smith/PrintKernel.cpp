//===- PrintKernel.cpp - A program as a tile kernel -----------------------===//
//
// The kernel is printed in parts: the top of the kernel holds what does not
// depend on the block (constants, ranges, splats of arguments, block-local
// offsets); the work item's body computes a block (or, with a column loop,
// a row block: before the loop, what the loop needs of the row block; the
// column loop, computing a block and carrying the accumulators; after it,
// what is computed from them). With a persistent grid the work item's body
// is the persistent loop's; otherwise it is at the kernel's top level.
// Helper values (index tiles, masks, pointers) are made on first use and
// reused, keyed by what they compute.
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Print.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>

using namespace mlir::tile;
using namespace mlir::tile::smith;

namespace {

/// Where a value is defined: at the top of the kernel, in the work item's
/// body (a block, or a row block with a column loop: the persistent loop's
/// body, else the top), or in the column loop's body.
enum Level { Top = 0, Item = 1, Inner = 2 };

/// A value of the kernel: its SSA name, its dimensions (none for a scalar),
/// its element type, and the level it is defined at.
struct Value {
  std::string name;
  std::vector<int64_t> dims;
  std::string element;
  int level = Top;

  bool isScalar() const { return dims.empty(); }
};

std::string getTypeText(llvm::ArrayRef<int64_t> dims, llvm::StringRef element) {
  if (dims.empty())
    return element.str();
  std::string text = "tensor<";
  for (int64_t dim : dims)
    text += std::to_string(dim) + "x";
  return text + element.str() + ">";
}

std::string getTypeText(const Value &value) {
  return getTypeText(value.dims, value.element);
}

/// A constant of `type` as MLIR writes it: an integer, a float with enough
/// digits to round back exactly, or the bits of an infinity or a NaN.
std::string formatValue(double value, ElementType type) {
  if (isInteger(type))
    return std::to_string(static_cast<int64_t>(value));
  if (std::isnan(value))
    return type == ElementType::F32
               ? "0x7FC00000"
               : (type == ElementType::F16 ? "0x7E00" : "0x7FC0");
  if (std::isinf(value)) {
    bool negative = value < 0;
    switch (type) {
    case ElementType::F32:
      return negative ? "0xFF800000" : "0x7F800000";
    case ElementType::F16:
      return negative ? "0xFC00" : "0x7C00";
    case ElementType::BF16:
      return negative ? "0xFF80" : "0x7F80";
    case ElementType::I32:
    case ElementType::I64:
      llvm_unreachable("integers are finite");
    }
  }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.9e", value);
  return text;
}

std::string formatNumber(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.9g", value);
  return text;
}

class KernelPrinter {
public:
  explicit KernelPrinter(const Program &program)
      : p(program), args(getArguments(program)),
        persistent(program.grid == GridKind::Persistent) {}

  void print(llvm::raw_ostream &os, llvm::StringRef fileName);

private:
  // Emitting.
  std::string freshName(llvm::StringRef hint) {
    return "%" + hint.str() + std::to_string(counter++);
  }
  /// Defines a value computed by `text` (the part after `=`) at `level`; a
  /// `key` reuses an earlier definition.
  Value define(llvm::StringRef hint, std::vector<int64_t> dims,
               llvm::StringRef element, int level, const std::string &text,
               const std::string &key = "");
  /// Adds a line (without indentation) at `level`: the work item's lines
  /// go before the column loop in phase 0, after it in phase 1.
  void emitLine(int level, const std::string &line) {
    if (level == Top)
      top.push_back(line);
    else if (level == Inner)
      inner.push_back(line);
    else
      (phase == 1 ? after : before).push_back(line);
  }

  // Integers.
  Value constI32(int64_t value);
  Value argOrConst(ArgKind kind, int index, int64_t value, bool isArg);
  Value splat(const Value &scalar, llvm::ArrayRef<int64_t> dims);
  Value toDims(const Value &value, llvm::ArrayRef<int64_t> dims);
  /// A row ([BM], axis 1) or column ([BN], axis 0) index widened to the
  /// block's tile.
  Value widen(const Value &value, int axis);
  Value arith(llvm::StringRef op, const Value &lhs, const Value &rhs);
  Value compare(llvm::StringRef predicate, const Value &lhs, const Value &rhs);
  Value range(int64_t size);

  // Blocks and indices.
  std::vector<int64_t> getDims(Shape shape) const;
  Value blockRow();
  Value blockCol();
  Value colBlocks();
  Value rowIndex(Shape shape);
  Value colIndex(Shape shape);
  bool hasRowIndex(Shape shape) const {
    return p.rank == 2 || shape == Shape::Cols || shape == Shape::Rows;
  }

  // Memory.
  Value pointers(const Op &op);
  Value mask(int index, Shape shape);

  // Operations.
  void emitOp(size_t index);
  std::string elementOf(const Op &op) const { return getName(op.type).str(); }
  std::string typeOf(const Op &op) const {
    return getTypeText(getDims(op.shape), elementOf(op));
  }
  Value floatConstant(Shape shape, ElementType type, double value);
  /// Prints the column loop: its iter_args, its body, the yield.
  void printColumnLoop(llvm::raw_ostream &os, const std::string &indent);
  /// The Accumulate operations, in order: the column loop's iter_args, and
  /// their start values.
  std::vector<size_t> accumulators;
  std::vector<Value> initials;
  Value columnCount, zero, one;

  const Program &p;
  std::vector<Arg> args;
  bool persistent;
  std::vector<std::string> top, before, inner, after;
  int phase = 0;
  std::map<std::string, Value> cache;
  std::vector<Value> values;
  unsigned counter = 0;
  /// The work item: a block, or a row block with a column loop.
  Value item;
  Value programId, numPrograms;
};

} // namespace

Value KernelPrinter::define(llvm::StringRef hint, std::vector<int64_t> dims,
                            llvm::StringRef element, int level,
                            const std::string &text, const std::string &key) {
  if (!key.empty()) {
    auto it = cache.find(key);
    if (it != cache.end())
      return it->second;
  }
  Value value{freshName(hint), std::move(dims), element.str(), level};
  emitLine(level, value.name + " = " + text);
  if (!key.empty())
    cache[key] = value;
  return value;
}

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
  std::vector<int64_t> tile = getDims(Shape::Tile);
  std::vector<int64_t> expanded = axis == 1 ? std::vector<int64_t>{tile[0], 1}
                                            : std::vector<int64_t>{1, tile[1]};
  Value e = define("e", expanded, value.element, value.level,
                   "tile.expand_dims " + value.name + " axis " +
                       std::to_string(axis) + " : " + getTypeText(value) +
                       " -> " + getTypeText(expanded, value.element),
                   "expand:" + value.name + ":" + std::to_string(axis));
  return define("b", tile, value.element, value.level,
                "tile.broadcast " + e.name + " : " + getTypeText(e) + " -> " +
                    getTypeText(tile, value.element),
                "broadcast:" + e.name);
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
  return arith("ceildivsi", argOrConst(ArgKind::Cols, 0, 0, true),
               constI32(p.blockCols));
}

/// The row index of each element of a value of `shape`: the data's row for
/// tiles and rows, the row block for columns and scalars.
Value KernelPrinter::rowIndex(Shape shape) {
  Value bi = blockRow();
  if (shape == Shape::Cols || shape == Shape::Scalar)
    return bi;
  Value first = arith("muli", bi, constI32(p.blockRows));
  Value rows = arith("addi", splat(first, {p.blockRows}), range(p.blockRows));
  if (shape == Shape::Rows)
    return rows;
  return widen(rows, 1);
}

Value KernelPrinter::colIndex(Shape shape) {
  Value bj = blockCol();
  if (shape == Shape::Rows || shape == Shape::Scalar)
    return bj;
  Value first = arith("muli", bj, constI32(p.blockCols));
  Value cols = arith("addi", splat(first, {p.blockCols}), range(p.blockCols));
  if (shape == Shape::Cols || p.rank == 1)
    return cols;
  return widen(cols, 0);
}

Value KernelPrinter::pointers(const Op &op) {
  const Buffer &buffer = p.buffers[op.buffer];
  int b = op.buffer;
  std::string element = getName(buffer.type).str();
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
    if (op.shape == Shape::Tile || op.shape == Shape::Rows) {
      if (p.rank == 2)
        firstRow = arith("muli", blockRow(), constI32(p.blockRows));
    } else if (hasRowIndex(op.shape)) {
      firstRow = blockRow();
    }
    if (op.shape == Shape::Tile || op.shape == Shape::Cols)
      firstCol = arith("muli", blockCol(), constI32(p.blockCols));
    else
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
  bool rows = (shape == Shape::Tile && p.rank == 2) || shape == Shape::Rows;
  bool cols = shape == Shape::Tile || shape == Shape::Cols;
  if (rows)
    both(compare("slt", rowIndex(shape),
                 argOrConst(ArgKind::Rows, 0, p.rows, p.sizesAreArgs)));
  if (cols)
    both(compare("slt", colIndex(shape),
                 argOrConst(ArgKind::Cols, 0, p.cols, p.sizesAreArgs)));
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
    both(compare("sle", colIndex(shape), arith("addi", row, bound)));
    break;
  }
  }
  cache[key] = *result;
  return *result;
}

Value KernelPrinter::floatConstant(Shape shape, ElementType type,
                                   double value) {
  std::vector<int64_t> dims = getDims(shape);
  std::string element = getName(type).str();
  std::string literal = formatValue(value, type);
  std::string text = dims.empty()
                         ? "arith.constant " + literal + " : " + element
                         : "arith.constant dense<" + literal +
                               "> : " + getTypeText(dims, element);
  return define("cst", dims, element, Top, text, text);
}

static llvm::StringRef getUnaryOpName(UnaryFn fn) {
  switch (fn) {
  case UnaryFn::Neg:
    return "arith.negf";
  case UnaryFn::Abs:
    return "math.absf";
  case UnaryFn::Exp:
    return "tile.exp";
  case UnaryFn::MathExp:
    return "math.exp";
  case UnaryFn::Exp2:
    return "math.exp2";
  case UnaryFn::Log:
    return "math.log";
  case UnaryFn::Log2:
    return "math.log2";
  case UnaryFn::Log1p:
    return "math.log1p";
  case UnaryFn::Expm1:
    return "math.expm1";
  case UnaryFn::Sqrt:
    return "math.sqrt";
  case UnaryFn::Rsqrt:
    return "math.rsqrt";
  case UnaryFn::Tanh:
    return "math.tanh";
  case UnaryFn::Sin:
    return "math.sin";
  case UnaryFn::Cos:
    return "math.cos";
  case UnaryFn::Erf:
    return "math.erf";
  case UnaryFn::Atan:
    return "math.atan";
  case UnaryFn::Floor:
    return "math.floor";
  case UnaryFn::Ceil:
    return "math.ceil";
  case UnaryFn::AbsI:
    return "math.absi";
  case UnaryFn::Ctlz:
    return "math.ctlz";
  case UnaryFn::Cttz:
    return "math.cttz";
  case UnaryFn::Ctpop:
    return "math.ctpop";
  }
  llvm_unreachable("unknown unary function");
}

static llvm::StringRef getBinaryOpName(BinaryFn fn) {
  switch (fn) {
  case BinaryFn::Add:
    return "arith.addf";
  case BinaryFn::Sub:
    return "arith.subf";
  case BinaryFn::Mul:
    return "arith.mulf";
  case BinaryFn::Div:
    return "arith.divf";
  case BinaryFn::Maximum:
    return "arith.maximumf";
  case BinaryFn::Minimum:
    return "arith.minimumf";
  case BinaryFn::MaxNum:
    return "arith.maxnumf";
  case BinaryFn::MinNum:
    return "arith.minnumf";
  case BinaryFn::Rem:
    return "arith.remf";
  case BinaryFn::Copysign:
    return "math.copysign";
  case BinaryFn::AddI:
    return "arith.addi";
  case BinaryFn::SubI:
    return "arith.subi";
  case BinaryFn::MulI:
    return "arith.muli";
  case BinaryFn::DivSI:
    return "arith.divsi";
  case BinaryFn::RemSI:
    return "arith.remsi";
  case BinaryFn::DivUI:
    return "arith.divui";
  case BinaryFn::RemUI:
    return "arith.remui";
  case BinaryFn::CeilDivSI:
    return "arith.ceildivsi";
  case BinaryFn::FloorDivSI:
    return "arith.floordivsi";
  case BinaryFn::AndI:
    return "arith.andi";
  case BinaryFn::OrI:
    return "arith.ori";
  case BinaryFn::XorI:
    return "arith.xori";
  case BinaryFn::ShLI:
    return "arith.shli";
  case BinaryFn::ShRSI:
    return "arith.shrsi";
  case BinaryFn::ShRUI:
    return "arith.shrui";
  case BinaryFn::MaxSI:
    return "arith.maxsi";
  case BinaryFn::MinSI:
    return "arith.minsi";
  case BinaryFn::MaxUI:
    return "arith.maxui";
  case BinaryFn::MinUI:
    return "arith.minui";
  }
  llvm_unreachable("unknown binary function");
}

static std::string getCastOpName(CastStyle style, ElementType from,
                                 ElementType to) {
  bool sign = style == CastStyle::Signed;
  switch (style) {
  case CastStyle::TileCast:
    return "tile.cast";
  case CastStyle::Arith:
    return to == ElementType::F32 ? "arith.extf" : "arith.truncf";
  case CastStyle::Signed:
  case CastStyle::Unsigned:
    if (isInteger(from) && isInteger(to))
      return getPrecision(to) > getPrecision(from)
                 ? (sign ? "arith.extsi" : "arith.extui")
                 : "arith.trunci";
    if (isInteger(from))
      return sign ? "arith.sitofp" : "arith.uitofp";
    return sign ? "arith.fptosi" : "arith.fptoui";
  }
  llvm_unreachable("unknown cast style");
}

static llvm::StringRef getLogicOpName(LogicFn fn) {
  switch (fn) {
  case LogicFn::And:
    return "arith.andi";
  case LogicFn::Or:
    return "arith.ori";
  case LogicFn::Xor:
    return "arith.xori";
  }
  llvm_unreachable("unknown logic function");
}

void KernelPrinter::emitOp(size_t index) {
  const Op &op = p.ops[index];
  std::string name = "%v" + std::to_string(index);
  std::vector<int64_t> dims = getDims(op.shape);
  std::string type = typeOf(op);
  std::string element = elementOf(op);
  auto operand = [&](unsigned i) -> const Value & {
    return values[op.operands[i]];
  };
  // Operations compute a block in the column loop (phase 0) or in the work
  // item's body.
  int level = p.columnLoop && op.phase == 0 ? Inner : Item;
  auto result = [&](const std::string &text, llvm::StringRef resultElement,
                    int at = -1) {
    at = at < 0 ? level : at;
    emitLine(at, name + " = " + text);
    values[index] = Value{name, dims, resultElement.str(), at};
  };
  switch (op.kind) {
  case OpKind::Load: {
    Value ptrs = pointers(op);
    std::string text = "tile.load " + ptrs.name;
    if (op.mask >= 0) {
      text += ", " + mask(op.mask, op.shape).name;
      if (op.hasOther)
        text += ", " + floatConstant(op.shape, op.type, op.value).name;
    }
    result(text + " : " + getTypeText(ptrs), element);
    return;
  }
  case OpKind::Param:
    for (const Arg &arg : args)
      if (arg.kind == ArgKind::FloatParam &&
          arg.index == static_cast<int>(index))
        values[index] = Value{"%" + arg.name, {}, element, Top};
    return;
  case OpKind::Constant: {
    std::string literal = formatValue(op.value, op.type);
    result(dims.empty() ? "arith.constant " + literal + " : " + element
                        : "arith.constant dense<" + literal + "> : " + type,
           element, Top);
    return;
  }
  case OpKind::Unary:
    result((getUnaryOpName(op.unary) + " ").str() + operand(0).name + " : " +
               type,
           element);
    return;
  case OpKind::Binary:
    result((getBinaryOpName(op.binary) + " ").str() + operand(0).name + ", " +
               operand(1).name + " : " + type,
           element);
    return;
  case OpKind::Fma:
    result("math.fma " + operand(0).name + ", " + operand(1).name + ", " +
               operand(2).name + " : " + type,
           element);
    return;
  case OpKind::Compare: {
    const Op &x = p.ops[op.operands[0]];
    std::string rhs = op.operands.size() == 2
                          ? operand(1).name
                          : floatConstant(x.shape, x.type, op.value).name;
    std::string compare =
        isInteger(x.type)
            ? ("arith.cmpi " + getName(op.intPredicate) + ", ").str()
            : ("arith.cmpf " + getName(op.predicate) + ", ").str();
    result(compare + operand(0).name + ", " + rhs + " : " + typeOf(x), "i1");
    return;
  }
  case OpKind::Index: {
    Value cond;
    switch (op.index) {
    case IndexCond::ColBelowRow:
      cond = compare("slt", colIndex(op.shape), rowIndex(op.shape));
      break;
    case IndexCond::OddCol:
    case IndexCond::OddRow: {
      Value idx = op.index == IndexCond::OddCol ? colIndex(op.shape)
                                                : rowIndex(op.shape);
      Value low = arith("andi", idx, constI32(1));
      cond = compare("ne", low, constI32(0));
      break;
    }
    }
    values[index] = cond;
    return;
  }
  case OpKind::Logic:
    result((getLogicOpName(op.logic) + " ").str() + operand(0).name + ", " +
               operand(1).name + " : " + getTypeText(dims, "i1"),
           "i1");
    return;
  case OpKind::Select:
    result("arith.select " + operand(0).name + ", " + operand(1).name + ", " +
               operand(2).name + " : " +
               (dims.empty() ? type : getTypeText(dims, "i1") + ", " + type),
           element);
    return;
  case OpKind::Cast: {
    const Value &x = operand(0);
    std::string opName =
        getCastOpName(op.cast, p.ops[op.operands[0]].type, op.type);
    result(opName + " " + x.name + " : " + getTypeText(x) + " to " + type,
           element);
    return;
  }
  case OpKind::Reduce: {
    const Value &x = operand(0);
    result(("tile.reduce " + getName(op.reduce) + " ").str() + x.name +
               " axis " + std::to_string(op.axis) + " : " + getTypeText(x) +
               " -> " + type,
           element);
    return;
  }
  case OpKind::Expand: {
    Value x = operand(0);
    if (x.isScalar() && op.expand == ExpandStyle::ViaVector) {
      std::vector<int64_t> vector{p.blockRows};
      Value v = define("splat", vector, element, level,
                       "tile.splat " + x.name + " : " + element + " -> " +
                           getTypeText(vector, element));
      x = v;
    }
    if (x.isScalar()) {
      result("tile.splat " + x.name + " : " + element + " -> " + type, element);
      return;
    }
    // A row ([BM], axis 1) or a column ([BN], axis 0) to the tile.
    bool isRow = p.ops[op.operands[0]].shape == Shape::Rows ||
                 op.expand == ExpandStyle::ViaVector;
    int axis = isRow ? 1 : 0;
    std::vector<int64_t> expanded = isRow
                                        ? std::vector<int64_t>{p.blockRows, 1}
                                        : std::vector<int64_t>{1, p.blockCols};
    Value e = define("e", expanded, element, level,
                     "tile.expand_dims " + x.name + " axis " +
                         std::to_string(axis) + " : " + getTypeText(x) +
                         " -> " + getTypeText(expanded, element));
    result("tile.broadcast " + e.name + " : " + getTypeText(e) + " -> " + type,
           element);
    return;
  }
  case OpKind::Store: {
    Value ptrs = pointers(op);
    std::string text = "tile.store " + ptrs.name + ", " + operand(0).name;
    if (op.mask >= 0)
      text += ", " + mask(op.mask, op.shape).name;
    emitLine(level, text + " : " + getTypeText(ptrs));
    return;
  }
  case OpKind::Accumulate: {
    // An iter_arg of the column loop; its value after the loop.
    int k = static_cast<int>(llvm::find(accumulators, index) -
                             accumulators.begin());
    values[index] = Value{"%accs#" + std::to_string(k), dims, element, Item};
    return;
  }
  }
}

void KernelPrinter::print(llvm::raw_ostream &os, llvm::StringRef fileName) {
  // The work item this program (or this iteration) handles.
  int64_t numItems = p.getNumWorkItems();
  Value numItemsValue;
  switch (p.grid) {
  case GridKind::Blocks:
    item = define("pid", {}, "i32", Top, "tile.program_id x : i32", "pid");
    break;
  case GridKind::Blocks2D:
    break;
  case GridKind::Persistent: {
    programId = define("pid", {}, "i32", Top, "tile.program_id x : i32", "pid");
    numPrograms =
        define("nprog", {}, "i32", Top, "tile.num_programs x : i32", "nprog");
    if (!p.sizesAreArgs) {
      numItemsValue = constI32(numItems);
    } else if (p.columnLoop) {
      numItemsValue = p.rank == 2 ? arith("ceildivsi",
                                          argOrConst(ArgKind::Rows, 0, 0, true),
                                          constI32(p.blockRows))
                                  : constI32(1);
    } else {
      numItemsValue = colBlocks();
      if (p.rank == 2)
        numItemsValue =
            arith("muli", numItemsValue,
                  arith("ceildivsi", argOrConst(ArgKind::Rows, 0, 0, true),
                        constI32(p.blockRows)));
    }
    item = Value{p.columnLoop ? "%row_block" : "%block", {}, "i32", Item};
    break;
  }
  }
  if (p.columnLoop) {
    columnCount = colBlocks();
    zero = constI32(0);
    one = constI32(1);
    for (auto [index, op] : llvm::enumerate(p.ops)) {
      if (op.kind != OpKind::Accumulate)
        continue;
      accumulators.push_back(index);
      initials.push_back(floatConstant(op.shape, op.type, op.value));
    }
  }
  values.resize(p.ops.size());
  for (size_t i = 0; i < p.ops.size(); ++i) {
    if (p.ops[i].phase == 1 && phase == 0) {
      // The column loop ends: each accumulator's next value, yielded.
      for (auto [k, index] : llvm::enumerate(accumulators)) {
        const Op &op = p.ops[index];
        std::string type = typeOf(op);
        std::string next = "%next" + std::to_string(k);
        inner.push_back(
            next + " = " +
            (op.reduce == ReduceFn::Sum
                 ? (isInteger(op.type) ? "arith.addi " : "arith.addf ")
                 : (isInteger(op.type) ? "arith.maxsi " : "arith.maximumf ")) +
            "%acc" + std::to_string(k) + ", " + values[op.operands[0]].name +
            " : " + type);
      }
      phase = 1;
    }
    emitOp(i);
  }

  // The header: what the program is, and how to run and compile it.
  os << "// Generated by tile-smith --seed " << p.seed << ": rank " << p.rank
     << ", blocks of ";
  if (p.rank == 2)
    os << p.blockRows << " x ";
  os << p.blockCols << " over ";
  if (p.rank == 2)
    os << p.rows << " x ";
  int64_t numBlocks = p.getNumBlocks();
  os << p.cols << " elements (" << numBlocks << " block"
     << (numBlocks == 1 ? "" : "s") << "), ";
  if (p.columnLoop)
    os << "a loop over the column blocks of each row block"
       << (p.innerStages
               ? " (tile.num_stages = " + std::to_string(p.innerStages) + ")"
               : std::string())
       << ", ";
  switch (p.grid) {
  case GridKind::Blocks:
    os << "one program per " << (p.columnLoop ? "row block" : "block");
    break;
  case GridKind::Blocks2D:
    os << "a 2-D grid of one program per block";
    break;
  case GridKind::Persistent:
    os << "a persistent grid of " << p.programs << " program"
       << (p.programs == 1 ? "" : "s");
    if (p.numStages)
      os << " (tile.num_stages = " << p.numStages << ")";
    break;
  }
  os << ", " << p.numWarps << " warp" << (p.numWarps == 1 ? "" : "s")
     << (p.specials ? "; some inputs are inf or NaN" : "") << ".\n";
  os << "//\n// Its inputs are arg<N>.npy beside it (python3 utils/difftest.py "
        "--replay DIR\n// writes them, runs it and checks it against ref.py, "
        "the NumPy reference).\n// On the interpreter:\n//\n//   tile-run "
     << fileName << " --target=cpu --grid " << getGrid(p);
  for (const Arg &arg : args) {
    os << " \\\n//     --arg ";
    if (arg.kind == ArgKind::Pointer) {
      const Buffer &buffer = p.buffers[arg.index];
      os << "'" << getName(buffer.type) << "[" << getBufferSize(p, buffer)
         << "]=@arg" << arg.index << ".npy'";
    } else if (arg.kind == ArgKind::FloatParam) {
      os << arg.type << "="
         << (arg.type == "i32" || arg.type == "i64"
                 ? std::to_string(static_cast<int64_t>(arg.value))
                 : formatNumber(arg.value));
    } else {
      os << "i32=" << static_cast<int64_t>(arg.value);
    }
  }
  for (auto [index, buffer] : llvm::enumerate(p.buffers))
    if (buffer.isOutput)
      os << " \\\n//     --out " << index << "=out" << index << ".npy";
  os << "\n//\n// Compiled as the runtime compiles it for this launch:\n//\n"
     << "//   tile-opt " << fileName
     << " --tile-specialize-arguments=\"divisibility=" << getSpecialization(p)
     << "\" \\\n//     --tile-to-ptx=\"chip=sm_90 dump-ptx=kernel.ptx\" -o "
        "/dev/null\n\n";

  // The signature.
  os << "tile.func @smith(";
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (index)
      os << ",\n                ";
    os << "%" << arg.name << ": " << arg.type;
    if (arg.divisibility)
      os << " {tile.divisibility = " << arg.divisibility << " : i64}";
  }
  os << ")\n    attributes {tile.num_warps = " << p.numWarps << " : i32} {\n";
  auto lines = [&](llvm::ArrayRef<std::string> text, llvm::StringRef indent) {
    for (const std::string &line : text)
      os << indent << line << "\n";
  };
  lines(top, "  ");
  std::string indent = persistent ? "    " : "  ";
  if (persistent)
    os << "  scf.for " << item.name << " = " << programId.name << " to "
       << numItemsValue.name << " step " << numPrograms.name << " : i32 {\n";
  lines(before, indent);
  if (p.columnLoop)
    printColumnLoop(os, indent);
  lines(after, indent);
  if (persistent) {
    os << "  }";
    if (p.numStages)
      os << " {tile.num_stages = " << p.numStages << " : i32}";
    os << "\n";
  }
  os << "  tile.return\n}\n";
}

void KernelPrinter::printColumnLoop(llvm::raw_ostream &os,
                                    const std::string &indent) {
  os << indent;
  if (!accumulators.empty())
    os << "%accs:" << accumulators.size() << " = ";
  os << "scf.for %col_block = " << zero.name << " to " << columnCount.name
     << " step " << one.name;
  if (!accumulators.empty()) {
    os << " iter_args(";
    for (auto [k, index] : llvm::enumerate(accumulators)) {
      const Op &op = p.ops[index];
      (void)op;
      os << (k ? ", " : "") << "%acc" << k << " = " << initials[k].name;
    }
    os << ")\n" << indent << "    -> (";
    for (auto [k, index] : llvm::enumerate(accumulators))
      os << (k ? ", " : "") << typeOf(p.ops[index]);
    os << ")";
  }
  os << " : i32 {\n";
  for (const std::string &line : inner)
    os << indent << "  " << line << "\n";
  if (!accumulators.empty()) {
    os << indent << "  scf.yield ";
    for (size_t k = 0; k < accumulators.size(); ++k)
      os << (k ? ", " : "") << "%next" << k;
    os << " : ";
    for (auto [k, index] : llvm::enumerate(accumulators))
      os << (k ? ", " : "") << typeOf(p.ops[index]);
    os << "\n";
  }
  os << indent << "}";
  if (p.innerStages)
    os << " {tile.num_stages = " << p.innerStages << " : i32}";
  os << "\n";
}

void smith::printKernel(const Program &program, llvm::raw_ostream &os,
                        llvm::StringRef fileName) {
  KernelPrinter(program).print(os, fileName);
}
