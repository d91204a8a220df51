//===- PrintReference.cpp - A program as a NumPy reference ----------------===//
//
// The reference is a Python module: LAUNCH describes the launch (what
// tile-run is given, how each buffer is filled, how the runtime specializes
// the kernel), and reference(R, buf) computes, for every block at once, what
// the kernel stores, one line per operation of the program, through the
// runtime R (utils/tile_smith_ref.py). It imports nothing; R brings NumPy.
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Print.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir::tile;
using namespace mlir::tile::smith;

/// A float as a Python expression that gives exactly this double.
static std::string pythonFloat(double value) {
  if (std::isnan(value))
    return "float('nan')";
  if (std::isinf(value))
    return value > 0 ? "float('inf')" : "float('-inf')";
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.17g", value);
  return text;
}

/// A constant of `type` as a Python expression: an int for integers.
static std::string pythonNumber(double value, ElementType type) {
  if (isInteger(type))
    return std::to_string(static_cast<int64_t>(value));
  return pythonFloat(value);
}

static std::string quote(llvm::StringRef text) {
  return ("\"" + text + "\"").str();
}

/// How a dot multiplies f32 inputs, as the runtime names it: TF32 unless
/// the kernel asks for IEEE.
static llvm::StringRef getDotPrecision(DotPrecision precision) {
  return precision == DotPrecision::IEEE ? "ieee" : "tf32";
}

void smith::printReference(const Program &p, llvm::raw_ostream &os) {
  std::vector<Arg> args = getArguments(p);
  os << "# The NumPy reference of tile-smith --seed " << p.seed
     << " (kernel.mlir beside it): what the\n"
     << "# kernel stores, computed in float64 for every block at once by "
        "the runtime R\n"
     << "# (utils/tile_smith_ref.py), with a bound on each element's "
        "error.\n\n";

  os << "LAUNCH = {\n";
  os << "    \"seed\": " << p.seed << ",\n";
  os << "    \"grid\": " << quote(getGrid(p)) << ",\n";
  os << "    \"args\": [\n";
  for (const Arg &arg : args) {
    os << "        ";
    switch (arg.kind) {
    case ArgKind::Pointer: {
      const Buffer &buffer = p.buffers[arg.index];
      os << "{\"buffer\": " << arg.index
         << ", \"type\": " << quote(getStoredTypeName(buffer))
         << ", \"size\": " << getBufferSize(p, buffer)
         << ", \"output\": " << (buffer.isOutput ? "True" : "False")
         << ", \"lo\": " << pythonNumber(buffer.lo, buffer.type)
         << ", \"hi\": " << pythonNumber(buffer.hi, buffer.type) << "},\n";
      break;
    }
    case ArgKind::FloatParam:
      os << "{\"scalar\": " << quote(arg.type)
         << ", \"value\": " << pythonNumber(arg.value, p.ops[arg.index].type)
         << "},\n";
      break;
    case ArgKind::Rows:
    case ArgKind::Cols:
    case ArgKind::Offset:
    case ArgKind::RowStride:
    case ArgKind::ColStride:
    case ArgKind::MaskBound:
      os << "{\"scalar\": \"i32\", \"value\": "
         << static_cast<int64_t>(arg.value) << "},\n";
      break;
    }
  }
  os << "    ],\n";
  os << "    \"specials\": " << (p.specials ? "True" : "False") << ",\n";
  os << "    \"specialize\": " << quote(getSpecialization(p)) << ",\n";
  os << "}\n\n\n";

  os << "def reference(R, buf):\n";
  // K, where the program has dots.
  std::string depth = p.dotK ? ", k=" + std::to_string(p.dotK) : "";
  os << "    g = R.Blocks(rank=" << p.rank << ", rows=" << p.rows
     << ", cols=" << p.cols << ", block_rows=" << p.blockRows
     << ", block_cols=" << p.blockCols << depth << ")\n";
  if (p.columnLoop) {
    // After the column loop: the row blocks, at their first column block.
    os << "    g1 = R.Blocks(rank=" << p.rank << ", rows=" << p.rows
       << ", cols=" << std::min(p.cols, p.blockCols)
       << ", block_rows=" << p.blockRows << ", block_cols=" << p.blockCols
       << depth << ")\n";
  }
  for (auto [index, mask] : llvm::enumerate(p.masks)) {
    os << "    m" << index << " = dict(cut=" << quote(getName(mask.cut))
       << ", bound=" << mask.bound << ")\n";
  }
  auto access = [&](const Op &op) {
    const Buffer &buffer = p.buffers[op.buffer];
    std::string text;
    llvm::raw_string_ostream s(text);
    s << "buf[" << op.buffer << "], " << quote(getName(op.shape))
      << ", offset=" << buffer.offset
      << ", row_stride=" << getRowStride(p, buffer)
      << ", col_stride=" << getColStride(p, buffer) << ", mask=";
    if (op.mask >= 0)
      s << "m" << op.mask;
    else
      s << "None";
    return text;
  };
  for (size_t index = 0, e = p.ops.size(); index < e; ++index) {
    const Op &op = p.ops[index];
    std::string name = (op.isCondition() ? "c" : "v") + std::to_string(index);
    std::string g = op.phase == 1 ? "g1" : "g";
    auto operand = [&](unsigned i) {
      int value = op.operands[i];
      return (p.ops[value].isCondition() ? "c" : "v") + std::to_string(value);
    };
    os << "    ";
    switch (op.kind) {
    case OpKind::Load:
      os << name << " = R.load(" << g << ", " << access(op);
      if (op.hasOther)
        os << ", other=" << pythonNumber(op.value, op.type);
      // An 8-bit buffer's elements, widened to its values' type.
      if (p.buffers[op.buffer].storage != Storage::Element)
        os << ", t=" << quote(getName(op.type));
      os << ")\n";
      break;
    case OpKind::Param:
      os << name << " = R.constant(" << g << ", \"scalar\", "
         << pythonNumber(op.value, op.type) << ", " << quote(getName(op.type))
         << ")  # %p" << index << "\n";
      break;
    case OpKind::Constant:
      os << name << " = R.constant(" << g << ", " << quote(getName(op.shape))
         << ", " << pythonNumber(op.value, op.type) << ", "
         << quote(getName(op.type)) << ")\n";
      break;
    case OpKind::Unary:
      os << name << " = R.unary(" << quote(getName(op.unary)) << ", "
         << operand(0) << ")\n";
      break;
    case OpKind::Binary:
      os << name << " = R.binary(" << quote(getName(op.binary)) << ", "
         << operand(0) << ", " << operand(1) << ")\n";
      break;
    case OpKind::Fma:
      os << name << " = R.fma(" << operand(0) << ", " << operand(1) << ", "
         << operand(2) << ")\n";
      break;
    case OpKind::Compare: {
      ElementType type = p.ops[op.operands[0]].type;
      os << name << " = R.compare("
         << quote(isInteger(type) ? getName(op.intPredicate)
                                  : getName(op.predicate))
         << ", " << operand(0) << ", "
         << (op.operands.size() == 2 ? operand(1)
                                     : pythonNumber(op.value, type))
         << ")\n";
      break;
    }
    case OpKind::Index:
      os << name << " = R.index(" << g << ", " << quote(getName(op.shape))
         << ", " << quote(getName(op.index)) << ")\n";
      break;
    case OpKind::Logic:
      os << name << " = R.logic(" << quote(getName(op.logic)) << ", "
         << operand(0) << ", " << operand(1) << ")\n";
      break;
    case OpKind::Select:
      os << name << " = R.select(" << operand(0) << ", " << operand(1) << ", "
         << operand(2) << ")\n";
      break;
    case OpKind::Cast:
      os << name << " = R.cast(" << operand(0) << ", "
         << quote(getName(op.type)) << ", " << quote(getName(op.cast)) << ")\n";
      break;
    case OpKind::Reduce: {
      // The depth of the kernel's summation tree: registers and lanes in a
      // tree, the partials of the warps one after another.
      const Op &x = p.ops[op.operands[0]];
      int64_t length =
          x.shape == Shape::Tile && p.rank == 2 && op.axis == 0
              ? p.blockRows
              : (x.shape == Shape::Rows ? p.blockRows : p.blockCols);
      int64_t depth = llvm::Log2_64_Ceil(length) + p.numWarps + 2;
      os << name << " = R.reduce(" << quote(getName(op.reduce)) << ", "
         << operand(0) << ", axis=" << op.axis << ", depth=" << depth << ")\n";
      break;
    }
    case OpKind::Expand:
      os << name << " = R.expand(" << g << ", " << operand(0) << ", "
         << quote(getName(p.ops[op.operands[0]].shape)) << ", "
         << quote(getName(op.shape)) << ")\n";
      break;
    case OpKind::Accumulate:
      if (op.reduce == ReduceFn::Dot) {
        os << name << " = R.accumulate_dot(g, " << operand(0) << ", "
           << operand(1) << ", " << pythonNumber(op.value, op.type) << ", "
           << quote(getDotPrecision(op.precision));
        if (op.restart)
          os << ", restart=" << op.restart;
        os << ")\n";
        break;
      }
      os << name << " = R.accumulate(g, " << operand(0) << ", "
         << quote(getName(op.reduce)) << ", " << pythonNumber(op.value, op.type)
         << ")\n";
      break;
    case OpKind::Dot:
      os << name << " = R.dot(" << operand(0) << ", " << operand(1) << ", "
         << operand(2) << ", " << quote(getDotPrecision(op.precision)) << ")\n";
      break;
    case OpKind::Store:
      os << "R.store(" << g << ", " << access(op) << ", value=" << operand(0)
         << (op.atomic ? ", atomic=True" : "") << ")\n";
      break;
    }
  }
}
