//===- PrintKernelOps.cpp - The operations of a kernel --------------------===//
//
// Each operation of the program as the kernel's lines: constants as MLIR
// writes them (the bits of infinities and NaNs), the arith, math or tile
// operation each unary, binary, cast and logic function prints as, dots,
// and
// emitOp, which prints one operation at its level (in the column loop in
// phase 0, in the work item's body otherwise).
//
//===----------------------------------------------------------------------===//

#include "KernelPrinter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir::tile;
using namespace mlir::tile::smith;

/// A constant of `type` as MLIR writes it: an integer, a float with enough
/// digits to round back exactly, or the bits of an infinity or a NaN.
static std::string formatValue(double value, ElementType type) {
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

std::string KernelPrinter::dotText(const Value &a, const Value &b,
                                   const std::string &c,
                                   DotPrecision precision) const {
  std::string text = "tile.dot " + a.name + ", " + b.name + ", " + c;
  if (precision != DotPrecision::Default)
    text += (" input_precision = " + getName(precision)).str();
  return text + " : " + getTypeText(a) + ", " + getTypeText(b) + " -> " +
         getTypeText(getDims(Shape::Tile), "f32");
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
    if (op.addressing == Addressing::Descriptor) {
      // Its mask is the data's bounds and 'other' 0, which the descriptor
      // holds itself (Program.h).
      Value desc = descriptor(op);
      std::string offsets;
      switch (op.shape) {
      case Shape::Lhs:
        // The block's rows, and its column block's slice of K.
        offsets = times(blockRow(), p.blockRows).name + ", ";
        offsets += times(blockCol(), p.dotK).name;
        break;
      case Shape::Rhs:
        offsets = times(blockCol(), p.dotK).name + ", ";
        offsets += constI32(0).name;
        break;
      case Shape::Tile:
        offsets = times(blockCol(), p.blockCols).name;
        if (p.rank == 2)
          offsets = times(blockRow(), p.blockRows).name + ", " + offsets;
        break;
      case Shape::Rows:
      case Shape::Cols:
      case Shape::Scalar:
        llvm_unreachable("a descriptor load of a tile or a dot operand only");
      }
      result("tile.desc_load " + desc.name + "[" + offsets +
                 "] : " + desc.element + " -> " + type,
             element);
      return;
    }
    Value ptrs = pointers(op);
    std::string text = "tile.load " + ptrs.name;
    if (op.mask >= 0) {
      text += ", " + mask(op.mask, op.shape).name;
      if (op.hasOther)
        text += ", " + floatConstant(op.shape, op.type, op.value).name;
    }
    const Buffer &buffer = p.buffers[op.buffer];
    if (buffer.storage != Storage::Element) {
      // 8-bit floats, widened to the buffer's type (masked lanes read 0).
      std::string stored = getStoredTypeName(buffer).str();
      Value raw =
          define("f8_", dims, stored, level, text + " : " + getTypeText(ptrs));
      result("tile.cast " + raw.name + " : " + getTypeText(raw) + " to " + type,
             element);
      return;
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
    case IndexCond::ColBelowRow: {
      Value col = colIndex(op.shape);
      cond = compare("slt", col, rowIndex(op.shape));
      break;
    }
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
    Value stored = operand(0);
    const Buffer &buffer = p.buffers[op.buffer];
    if (buffer.storage != Storage::Element) {
      // Narrowed to 8-bit floats: one rounding, saturating.
      std::string element = getStoredTypeName(buffer).str();
      stored = define("n8_", dims, element, level,
                      "tile.cast " + stored.name + " : " + getTypeText(stored) +
                          " to " + getTypeText(dims, element));
    }
    std::string text = (op.atomic ? "tile.atomic_add " : "tile.store ") +
                       ptrs.name + ", " + stored.name;
    if (op.mask >= 0)
      text += ", " + mask(op.mask, op.shape).name;
    emitLine(level, text + " : " + getTypeText(ptrs));
    return;
  }
  case OpKind::Dot:
    result(dotText(operand(0), operand(1), operand(2).name, op.precision),
           element);
    return;
  case OpKind::Accumulate: {
    // An iter_arg of the column loop; its value after the loop.
    int k = static_cast<int>(llvm::find(accumulators, index) -
                             accumulators.begin());
    values[index] = Value{accumulatorResults[k], dims, element, Item};
    return;
  }
  }
}
