//===- Names.cpp - The names of a program's kinds and functions -----------===//
//
// getName for every enumeration of the program model (Program.h): the
// words the description (program.json) writes and reads back, which the
// reference passes to its runtime (utils/tile_smith_ref.py), and which
// the kernel uses where MLIR spells a thing the same way (element types,
// predicates, reduction kinds).
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Program.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir::tile;
using namespace mlir::tile::smith;

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

llvm::StringRef smith::getName(Storage storage) {
  switch (storage) {
  case Storage::Element:
    return "element";
  case Storage::F8E4M3FN:
    return "f8E4M3FN";
  case Storage::F8E5M2:
    return "f8E5M2";
  }
  llvm_unreachable("unknown storage");
}

llvm::StringRef smith::getStoredTypeName(const Buffer &buffer) {
  return buffer.storage == Storage::Element ? getName(buffer.type)
                                            : getName(buffer.storage);
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
  case Shape::Lhs:
    return "lhs";
  case Shape::Rhs:
    return "rhs";
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
  case Addressing::Descriptor:
    return "descriptor";
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
  case ReduceFn::Dot:
    return "dot";
  }
  llvm_unreachable("unknown reduction");
}

llvm::StringRef smith::getName(DotPrecision precision) {
  switch (precision) {
  case DotPrecision::Default:
    return "default";
  case DotPrecision::TF32:
    return "tf32";
  case DotPrecision::IEEE:
    return "ieee";
  }
  llvm_unreachable("unknown dot precision");
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
  case OpKind::Dot:
    return "dot";
  case OpKind::Store:
    return "store";
  }
  llvm_unreachable("unknown op kind");
}
