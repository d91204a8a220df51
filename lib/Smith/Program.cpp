//===- Program.cpp - tile-smith's description of a random kernel ----------===//
//
// Names, the layout of buffers and arguments, the checks every printed
// program passes, and dead-code removal.
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Program.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir::tile;
using namespace mlir::tile::smith;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

llvm::StringRef smith::getName(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "f32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  }
  llvm_unreachable("unknown element type");
}

llvm::StringRef smith::getName(Shape shape) {
  switch (shape) {
  case Shape::Tile:
    return "tile";
  case Shape::Rows:
    return "rows";
  case Shape::Cols:
    return "cols";
  case Shape::Scalar:
    return "scalar";
  }
  llvm_unreachable("unknown shape");
}

llvm::StringRef smith::getName(GridKind grid) {
  switch (grid) {
  case GridKind::Blocks:
    return "blocks";
  case GridKind::Blocks2D:
    return "blocks2d";
  case GridKind::Persistent:
    return "persistent";
  }
  llvm_unreachable("unknown grid kind");
}

llvm::StringRef smith::getName(CutKind cut) {
  switch (cut) {
  case CutKind::None:
    return "none";
  case CutKind::ColsBelow:
    return "cols_below";
  case CutKind::RowsBelow:
    return "rows_below";
  case CutKind::ColsFrom:
    return "cols_from";
  case CutKind::Diagonal:
    return "diagonal";
  }
  llvm_unreachable("unknown cut");
}

llvm::StringRef smith::getName(Addressing addressing) {
  switch (addressing) {
  case Addressing::Global:
    return "global";
  case Addressing::Global64:
    return "global64";
  case Addressing::BlockBase:
    return "block_base";
  }
  llvm_unreachable("unknown addressing");
}

llvm::StringRef smith::getName(UnaryFn fn) {
  switch (fn) {
  case UnaryFn::Neg:
    return "neg";
  case UnaryFn::Abs:
    return "abs";
  case UnaryFn::Exp:
    return "exp";
  case UnaryFn::MathExp:
    return "math_exp";
  case UnaryFn::Exp2:
    return "exp2";
  case UnaryFn::Log:
    return "log";
  case UnaryFn::Log2:
    return "log2";
  case UnaryFn::Log1p:
    return "log1p";
  case UnaryFn::Expm1:
    return "expm1";
  case UnaryFn::Sqrt:
    return "sqrt";
  case UnaryFn::Rsqrt:
    return "rsqrt";
  case UnaryFn::Tanh:
    return "tanh";
  case UnaryFn::Sin:
    return "sin";
  case UnaryFn::Cos:
    return "cos";
  case UnaryFn::Erf:
    return "erf";
  case UnaryFn::Atan:
    return "atan";
  case UnaryFn::Floor:
    return "floor";
  case UnaryFn::Ceil:
    return "ceil";
  case UnaryFn::AbsI:
    return "absi";
  case UnaryFn::Ctlz:
    return "ctlz";
  case UnaryFn::Cttz:
    return "cttz";
  case UnaryFn::Ctpop:
    return "ctpop";
  }
  llvm_unreachable("unknown unary function");
}

llvm::StringRef smith::getName(BinaryFn fn) {
  switch (fn) {
  case BinaryFn::Add:
    return "add";
  case BinaryFn::Sub:
    return "sub";
  case BinaryFn::Mul:
    return "mul";
  case BinaryFn::Div:
    return "div";
  case BinaryFn::Maximum:
    return "maximum";
  case BinaryFn::Minimum:
    return "minimum";
  case BinaryFn::MaxNum:
    return "maxnum";
  case BinaryFn::MinNum:
    return "minnum";
  case BinaryFn::Rem:
    return "rem";
  case BinaryFn::Copysign:
    return "copysign";
  case BinaryFn::AddI:
    return "addi";
  case BinaryFn::SubI:
    return "subi";
  case BinaryFn::MulI:
    return "muli";
  case BinaryFn::DivSI:
    return "divsi";
  case BinaryFn::RemSI:
    return "remsi";
  case BinaryFn::DivUI:
    return "divui";
  case BinaryFn::RemUI:
    return "remui";
  case BinaryFn::CeilDivSI:
    return "ceildivsi";
  case BinaryFn::FloorDivSI:
    return "floordivsi";
  case BinaryFn::AndI:
    return "andi";
  case BinaryFn::OrI:
    return "ori";
  case BinaryFn::XorI:
    return "xori";
  case BinaryFn::ShLI:
    return "shli";
  case BinaryFn::ShRSI:
    return "shrsi";
  case BinaryFn::ShRUI:
    return "shrui";
  case BinaryFn::MaxSI:
    return "maxsi";
  case BinaryFn::MinSI:
    return "minsi";
  case BinaryFn::MaxUI:
    return "maxui";
  case BinaryFn::MinUI:
    return "minui";
  }
  llvm_unreachable("unknown binary function");
}

llvm::StringRef smith::getName(ReduceFn fn) {
  switch (fn) {
  case ReduceFn::Sum:
    return "sum";
  case ReduceFn::Max:
    return "max";
  }
  llvm_unreachable("unknown reduction");
}

llvm::StringRef smith::getName(Predicate predicate) {
  switch (predicate) {
  case Predicate::OLT:
    return "olt";
  case Predicate::OLE:
    return "ole";
  case Predicate::OGT:
    return "ogt";
  case Predicate::OGE:
    return "oge";
  case Predicate::UNE:
    return "une";
  case Predicate::ULT:
    return "ult";
  }
  llvm_unreachable("unknown predicate");
}

llvm::StringRef smith::getName(IntPredicate predicate) {
  switch (predicate) {
  case IntPredicate::EQ:
    return "eq";
  case IntPredicate::NE:
    return "ne";
  case IntPredicate::SLT:
    return "slt";
  case IntPredicate::SLE:
    return "sle";
  case IntPredicate::SGT:
    return "sgt";
  case IntPredicate::SGE:
    return "sge";
  case IntPredicate::ULT:
    return "ult";
  case IntPredicate::ULE:
    return "ule";
  case IntPredicate::UGT:
    return "ugt";
  case IntPredicate::UGE:
    return "uge";
  }
  llvm_unreachable("unknown predicate");
}

llvm::StringRef smith::getName(IndexCond cond) {
  switch (cond) {
  case IndexCond::ColBelowRow:
    return "col_below_row";
  case IndexCond::OddCol:
    return "odd_col";
  case IndexCond::OddRow:
    return "odd_row";
  }
  llvm_unreachable("unknown index condition");
}

llvm::StringRef smith::getName(LogicFn fn) {
  switch (fn) {
  case LogicFn::And:
    return "and";
  case LogicFn::Or:
    return "or";
  case LogicFn::Xor:
    return "xor";
  }
  llvm_unreachable("unknown logic function");
}

llvm::StringRef smith::getName(CastStyle style) {
  switch (style) {
  case CastStyle::TileCast:
    return "tile_cast";
  case CastStyle::Arith:
    return "arith";
  case CastStyle::Signed:
    return "signed";
  case CastStyle::Unsigned:
    return "unsigned";
  }
  llvm_unreachable("unknown cast style");
}

llvm::StringRef smith::getName(ExpandStyle style) {
  switch (style) {
  case ExpandStyle::Direct:
    return "direct";
  case ExpandStyle::ViaVector:
    return "via_vector";
  }
  llvm_unreachable("unknown expand style");
}

llvm::StringRef smith::getName(OpKind kind) {
  switch (kind) {
  case OpKind::Load:
    return "load";
  case OpKind::Param:
    return "param";
  case OpKind::Constant:
    return "constant";
  case OpKind::Unary:
    return "unary";
  case OpKind::Binary:
    return "binary";
  case OpKind::Fma:
    return "fma";
  case OpKind::Compare:
    return "compare";
  case OpKind::Index:
    return "index";
  case OpKind::Logic:
    return "logic";
  case OpKind::Select:
    return "select";
  case OpKind::Cast:
    return "cast";
  case OpKind::Reduce:
    return "reduce";
  case OpKind::Expand:
    return "expand";
  case OpKind::Accumulate:
    return "accumulate";
  case OpKind::Store:
    return "store";
  }
  llvm_unreachable("unknown op kind");
}

double smith::getMaxValue(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return 3.4028234663852886e38;
  case ElementType::F16:
    return 65504.0;
  case ElementType::BF16:
    return 3.3895313892515355e38;
  case ElementType::I32:
    return 2147483647.0;
  case ElementType::I64:
    // 2^63 - 1 is no double; the one below it is.
    return 9223372036854774784.0;
  }
  llvm_unreachable("unknown element type");
}

double smith::getMinValue(ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::F16:
  case ElementType::BF16:
    return -getMaxValue(type);
  case ElementType::I32:
    return -2147483648.0;
  case ElementType::I64:
    return -9223372036854775808.0;
  }
  llvm_unreachable("unknown element type");
}

double smith::getMinNormal(ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::BF16:
    return std::ldexp(1.0, -126);
  case ElementType::F16:
    return std::ldexp(1.0, -14);
  case ElementType::I32:
  case ElementType::I64:
    return 1;
  }
  llvm_unreachable("unknown element type");
}

int smith::getPrecision(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return 24;
  case ElementType::F16:
    return 11;
  case ElementType::BF16:
    return 8;
  case ElementType::I32:
    return 32;
  case ElementType::I64:
    return 64;
  }
  llvm_unreachable("unknown element type");
}

bool smith::isIntegerFn(UnaryFn fn) {
  switch (fn) {
  case UnaryFn::AbsI:
  case UnaryFn::Ctlz:
  case UnaryFn::Cttz:
  case UnaryFn::Ctpop:
    return true;
  case UnaryFn::Neg:
  case UnaryFn::Abs:
  case UnaryFn::Exp:
  case UnaryFn::MathExp:
  case UnaryFn::Exp2:
  case UnaryFn::Log:
  case UnaryFn::Log2:
  case UnaryFn::Log1p:
  case UnaryFn::Expm1:
  case UnaryFn::Sqrt:
  case UnaryFn::Rsqrt:
  case UnaryFn::Tanh:
  case UnaryFn::Sin:
  case UnaryFn::Cos:
  case UnaryFn::Erf:
  case UnaryFn::Atan:
  case UnaryFn::Floor:
  case UnaryFn::Ceil:
    return false;
  }
  llvm_unreachable("unknown unary function");
}

bool smith::isIntegerFn(BinaryFn fn) {
  switch (fn) {
  case BinaryFn::Add:
  case BinaryFn::Sub:
  case BinaryFn::Mul:
  case BinaryFn::Div:
  case BinaryFn::Maximum:
  case BinaryFn::Minimum:
  case BinaryFn::MaxNum:
  case BinaryFn::MinNum:
  case BinaryFn::Rem:
  case BinaryFn::Copysign:
    return false;
  case BinaryFn::AddI:
  case BinaryFn::SubI:
  case BinaryFn::MulI:
  case BinaryFn::DivSI:
  case BinaryFn::RemSI:
  case BinaryFn::DivUI:
  case BinaryFn::RemUI:
  case BinaryFn::CeilDivSI:
  case BinaryFn::FloorDivSI:
  case BinaryFn::AndI:
  case BinaryFn::OrI:
  case BinaryFn::XorI:
  case BinaryFn::ShLI:
  case BinaryFn::ShRSI:
  case BinaryFn::ShRUI:
  case BinaryFn::MaxSI:
  case BinaryFn::MinSI:
  case BinaryFn::MaxUI:
  case BinaryFn::MinUI:
    return true;
  }
  llvm_unreachable("unknown binary function");
}

bool smith::isRepresentable(double value, ElementType type) {
  if (!std::isfinite(value))
    return false;
  if (isInteger(type))
    return value == std::floor(value) && value <= getMaxValue(type) &&
           value >= getMinValue(type);
  if (value == 0)
    return true;
  if (std::fabs(value) > getMaxValue(type) ||
      std::fabs(value) < getMinNormal(type))
    return false;
  // value = m * 2^e with m in [0.5, 1): representable when m has at most
  // `precision` significant bits.
  int exponent;
  double mantissa = std::frexp(std::fabs(value), &exponent);
  double scaled = std::ldexp(mantissa, getPrecision(type));
  return scaled == std::floor(scaled);
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

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
    arg.type = "!tile.ptr<" + getName(buffer.type).str() + ">";
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
    return std::to_string(program.getNumWorkItems());
  case GridKind::Blocks2D:
    return std::to_string(program.getColBlocks()) + "," +
           std::to_string(program.getRowBlocks());
  case GridKind::Persistent:
    return std::to_string(program.programs);
  }
  llvm_unreachable("unknown grid kind");
}

//===----------------------------------------------------------------------===//
// Checking
//===----------------------------------------------------------------------===//

/// Whether a cut applies to accesses of `shape` in a kernel of `rank`. A
/// cut compares the access's row and column indices: the data's rows and
/// columns, or the block's row and column block where the shape has none
/// (a scalar's mask cuts whole blocks). A scalar's mask is its cut.
static bool cutFits(CutKind cut, Shape shape, unsigned rank) {
  switch (cut) {
  case CutKind::None:
    return shape != Shape::Scalar;
  case CutKind::ColsBelow:
  case CutKind::ColsFrom:
    return true;
  case CutKind::RowsBelow:
  case CutKind::Diagonal:
    return rank == 2;
  }
  llvm_unreachable("unknown cut");
}

/// Whether the blocks cover the data exactly along the dimensions of
/// `shape`, so that an access without a mask stays in bounds.
static bool coversExactly(const Program &program, Shape shape, int phase) {
  int64_t cols =
      phase == 1 ? std::min(program.cols, program.blockCols) : program.cols;
  bool rowsExact = program.rows % program.blockRows == 0;
  bool colsExact = cols % program.blockCols == 0;
  switch (shape) {
  case Shape::Tile:
    return rowsExact && colsExact;
  case Shape::Rows:
    return rowsExact;
  case Shape::Cols:
    return colsExact;
  case Shape::Scalar:
    return true;
  }
  llvm_unreachable("unknown shape");
}

std::string smith::verifyProgram(const Program &program) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (program.rank != 1 && program.rank != 2)
    return "rank must be 1 or 2";
  if (!llvm::isPowerOf2_64(program.blockRows) ||
      !llvm::isPowerOf2_64(program.blockCols))
    return "block sizes must be powers of two";
  if (program.rank == 1 && (program.blockRows != 1 || program.rows != 1))
    return "a rank-1 program has one row";
  if (program.blockRows * program.blockCols > (1 << 14))
    return "tile too large";
  if (program.rows < 1 || program.cols < 1)
    return "empty data";
  if (program.grid == GridKind::Blocks2D &&
      (program.rank != 2 || program.columnLoop))
    return "a 2-D grid needs rank 2 and no column loop";
  if (program.programs < 1)
    return "no programs";
  if (!llvm::isPowerOf2_64(program.numWarps) || program.numWarps > 32)
    return "num_warps must be a power of two up to 32";
  for (const Buffer &buffer : program.buffers) {
    if (program.rank == 1 &&
        (buffer.shape == Shape::Rows || buffer.shape == Shape::Cols))
      return "a rank-1 program has no row or column buffers";
    if (program.rank == 1 && buffer.columnMajor)
      return "a rank-1 program has no column-major buffers";
    if (buffer.innerStride < 1 || buffer.offset < 0 || buffer.rowPad < 0 ||
        buffer.tailPad < 0)
      return "bad buffer layout";
    if (getBufferSize(program, buffer) > (int64_t(1) << 26))
      return "buffer too large";
  }
  int numStores = 0;
  int lastPhase = 0;
  for (size_t index = 0, e = program.ops.size(); index < e; ++index) {
    const Op &op = program.ops[index];
    auto bad = [&](llvm::StringRef what) {
      os << "op " << index << " (" << getName(op.kind) << "): " << what;
      return message;
    };
    if (op.phase < 0 || op.phase > 1 || (op.phase == 1 && !program.columnLoop))
      return bad("phase 1 needs a column loop");
    if (op.phase < lastPhase)
      return bad("a phase-0 operation after phase 1");
    lastPhase = op.phase;
    for (int operand : op.operands) {
      if (operand < 0 || operand >= static_cast<int>(index))
        continue;
      int expected = op.kind == OpKind::Accumulate ? 0 : op.phase;
      if (program.ops[operand].phase != expected)
        return bad(op.kind == OpKind::Accumulate
                       ? "accumulates a value after the column loop"
                       : "uses a value of the other phase");
    }
    if (program.rank == 1 &&
        (op.shape == Shape::Rows || op.shape == Shape::Cols))
      return bad("rows and columns in a rank-1 program");
    for (int operand : op.operands) {
      if (operand < 0 || operand >= static_cast<int>(index) ||
          !program.ops[operand].hasResult())
        return bad("operand not defined before");
    }
    auto operand = [&](unsigned i) -> const Op & {
      return program.ops[op.operands[i]];
    };
    auto isFloat = [&](unsigned i) { return !operand(i).isCondition(); };
    auto sameAsResult = [&](unsigned i) {
      return isFloat(i) && operand(i).shape == op.shape &&
             operand(i).type == op.type;
    };
    auto expect = [&](size_t count) { return op.operands.size() == count; };
    switch (op.kind) {
    case OpKind::Load:
    case OpKind::Store: {
      bool isStore = op.kind == OpKind::Store;
      if (!expect(isStore ? 1 : 0))
        return bad("wrong number of operands");
      if (op.buffer < 0 ||
          op.buffer >= static_cast<int>(program.buffers.size()))
        return bad("no such buffer");
      const Buffer &buffer = program.buffers[op.buffer];
      if (buffer.isOutput != isStore)
        return bad(isStore ? "stores into an input" : "loads from an output");
      if (buffer.shape != op.shape || buffer.type != op.type)
        return bad("shape or type differs from the buffer's");
      if (isStore && !sameAsResult(0))
        return bad("stored value differs from the buffer");
      if (op.mask >= static_cast<int>(program.masks.size()))
        return bad("no such mask");
      if (buffer.phase != op.phase)
        return bad("accesses a buffer of the other phase");
      if (op.mask < 0 && !coversExactly(program, op.shape, op.phase))
        return bad("unmasked access past the data");
      if (op.mask >= 0 &&
          !cutFits(program.masks[op.mask].cut, op.shape, program.rank))
        return bad("mask does not fit the shape");
      if (op.hasOther && op.mask < 0)
        return bad("'other' without a mask");
      if (op.hasOther && !isRepresentable(op.value, op.type) && op.value != 0 &&
          !std::isinf(op.value))
        return bad("'other' not representable");
      if (isStore)
        ++numStores;
      break;
    }
    case OpKind::Param:
    case OpKind::Constant:
      if (!expect(0))
        return bad("wrong number of operands");
      if (op.kind == OpKind::Param && op.shape != Shape::Scalar)
        return bad("parameters are scalars");
      if (op.value != 0 && !isRepresentable(op.value, op.type))
        return bad("value not representable");
      break;
    case OpKind::Unary:
      if (!expect(1) || !sameAsResult(0))
        return bad("operand differs from the result");
      if (isIntegerFn(op.unary) != isInteger(op.type))
        return bad("a function of the other kind of number");
      break;
    case OpKind::Binary:
      if (!expect(2) || !sameAsResult(0) || !sameAsResult(1))
        return bad("operands differ from the result");
      if (isIntegerFn(op.binary) != isInteger(op.type))
        return bad("a function of the other kind of number");
      break;
    case OpKind::Fma:
      if (!expect(3) || !sameAsResult(0) || !sameAsResult(1) ||
          !sameAsResult(2) || isInteger(op.type))
        return bad("operands differ from the result");
      break;
    case OpKind::Compare:
      if (op.operands.empty() || op.operands.size() > 2 || !isFloat(0) ||
          operand(0).shape != op.shape)
        return bad("compares a value of another shape");
      if (op.operands.size() == 2 &&
          (!isFloat(1) || operand(1).shape != op.shape ||
           operand(1).type != operand(0).type))
        return bad("compares values of different shapes or types");
      if (op.value != 0 && !isRepresentable(op.value, operand(0).type))
        return bad("value not representable");
      break;
    case OpKind::Index:
      if (!expect(0))
        return bad("wrong number of operands");
      if (op.index == IndexCond::ColBelowRow &&
          !(op.shape == Shape::Tile && program.rank == 2))
        return bad("col < row needs a rank-2 tile");
      if (op.index == IndexCond::OddCol &&
          !(op.shape == Shape::Tile || op.shape == Shape::Cols))
        return bad("odd columns need columns");
      if (op.index == IndexCond::OddRow &&
          !((op.shape == Shape::Tile && program.rank == 2) ||
            op.shape == Shape::Rows))
        return bad("odd rows need rows");
      break;
    case OpKind::Logic:
      if (!expect(2) || isFloat(0) || isFloat(1) ||
          operand(0).shape != op.shape || operand(1).shape != op.shape)
        return bad("operands are not conditions of the shape");
      break;
    case OpKind::Select:
      if (!expect(3) || isFloat(0) || operand(0).shape != op.shape ||
          !sameAsResult(1) || !sameAsResult(2))
        return bad("operands differ from the result");
      break;
    case OpKind::Cast:
      if (!expect(1) || !isFloat(0) || operand(0).shape != op.shape ||
          operand(0).type == op.type)
        return bad("casts between shapes or to the same type");
      if (op.cast == CastStyle::Arith && operand(0).type != ElementType::F32 &&
          op.type != ElementType::F32)
        return bad("arith casts go to or from f32");
      if ((op.cast == CastStyle::TileCast || op.cast == CastStyle::Arith) !=
          (!isInteger(op.type) && !isInteger(operand(0).type)))
        return bad("tile.cast, extf and truncf cast between floats");
      break;
    case OpKind::Reduce: {
      if (!expect(1) || !isFloat(0) || operand(0).type != op.type)
        return bad("reduces a value of another type");
      Shape from = operand(0).shape;
      bool ok = false;
      if (from == Shape::Tile && program.rank == 2)
        ok = (op.axis == 1 && op.shape == Shape::Rows) ||
             (op.axis == 0 && op.shape == Shape::Cols);
      else if (from != Shape::Scalar)
        ok = op.axis == 0 && op.shape == Shape::Scalar;
      if (!ok)
        return bad("reduction between these shapes");
      break;
    }
    case OpKind::Accumulate:
      if (!expect(1) || !sameAsResult(0) || op.phase != 1)
        return bad("accumulates a value of another shape or type");
      if (!isRepresentable(op.value, op.type) && op.value != 0 &&
          !(std::isinf(op.value) && op.reduce == ReduceFn::Max))
        return bad("start value not representable");
      break;
    case OpKind::Expand: {
      if (!expect(1) || !isFloat(0) || operand(0).type != op.type)
        return bad("expands a value of another type");
      Shape from = operand(0).shape;
      bool ok = from == Shape::Scalar
                    ? op.shape != Shape::Scalar
                    : from != Shape::Tile && op.shape == Shape::Tile;
      if (!ok)
        return bad("expansion between these shapes");
      if (op.expand == ExpandStyle::ViaVector &&
          !(from == Shape::Scalar && op.shape == Shape::Tile &&
            program.rank == 2))
        return bad("only a scalar expands through a vector to a tile");
      break;
    }
    }
  }
  if (numStores == 0)
    return "no stores";
  for (const Mask &mask : program.masks)
    if (mask.cut == CutKind::None && mask.boundIsArg)
      return "a bound argument without a cut";
  return "";
}

//===----------------------------------------------------------------------===//
// Dead code
//===----------------------------------------------------------------------===//

void smith::removeDeadOps(Program &program) {
  size_t count = program.ops.size();
  std::vector<bool> live(count, false);
  for (size_t i = count; i-- > 0;) {
    const Op &op = program.ops[i];
    if (op.kind == OpKind::Store)
      live[i] = true;
    if (!live[i])
      continue;
    for (int operand : op.operands)
      live[operand] = true;
  }
  std::vector<int> newIndex(count, -1);
  std::vector<Op> ops;
  for (size_t i = 0; i < count; ++i) {
    if (!live[i])
      continue;
    newIndex[i] = static_cast<int>(ops.size());
    Op op = program.ops[i];
    for (int &operand : op.operands)
      operand = newIndex[operand];
    ops.push_back(std::move(op));
  }
  program.ops = std::move(ops);

  // Buffers and masks nothing uses any more.
  std::vector<int> bufferIndex(program.buffers.size(), -1);
  std::vector<int> maskIndex(program.masks.size(), -1);
  for (const Op &op : program.ops) {
    if (op.buffer >= 0)
      bufferIndex[op.buffer] = 0;
    if (op.mask >= 0)
      maskIndex[op.mask] = 0;
  }
  std::vector<Buffer> buffers;
  for (auto [index, buffer] : llvm::enumerate(program.buffers)) {
    if (bufferIndex[index] < 0)
      continue;
    bufferIndex[index] = static_cast<int>(buffers.size());
    buffers.push_back(buffer);
  }
  std::vector<Mask> masks;
  for (auto [index, mask] : llvm::enumerate(program.masks)) {
    if (maskIndex[index] < 0)
      continue;
    maskIndex[index] = static_cast<int>(masks.size());
    masks.push_back(mask);
  }
  for (Op &op : program.ops) {
    if (op.buffer >= 0)
      op.buffer = bufferIndex[op.buffer];
    if (op.mask >= 0)
      op.mask = maskIndex[op.mask];
  }
  program.buffers = std::move(buffers);
  program.masks = std::move(masks);
}
