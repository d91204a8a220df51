//===- KernelPrinter.h - Printing a program as a tile kernel ----*- C++ -*-===//
//
// The kernel printer's private declarations, shared by the PrintKernel*.cpp
// files: the levels a value is defined at, the kernel's values, and the
// KernelPrinter class. printKernel (tile/Smith/Print.h) is its only entry
// point.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_SMITH_KERNELPRINTER_H
#define LIB_SMITH_KERNELPRINTER_H

#include "tile/Smith/Program.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::tile::smith {

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

/// The MLIR type of a value of `dims` (a scalar without any) and `element`:
/// "f32", "tensor<16x32xf16>".
std::string getTypeText(llvm::ArrayRef<int64_t> dims, llvm::StringRef element);
std::string getTypeText(const Value &value);

/// Prints one program's kernel. Its members are defined by what they print:
/// the kernel's frame (the header, the signature, the persistent and the
/// column loops) in PrintKernel.cpp; integers, indices, pointers and masks in
/// PrintKernelMemory.cpp; the program's operations in PrintKernelOps.cpp.
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
  /// block's tile, or a vector widened to the 2-D `dims` along `axis`.
  Value widen(const Value &value, int axis);
  Value widen(const Value &value, int axis, llvm::ArrayRef<int64_t> dims);
  Value arith(llvm::StringRef op, const Value &lhs, const Value &rhs);
  Value compare(llvm::StringRef predicate, const Value &lhs, const Value &rhs);
  Value range(int64_t size);
  // The helpers below emit their operands one after another: as arguments
  // of one call they would be emitted in the compiler's order (GCC and
  // Clang printed the same seed's lines in different orders).
  /// `value` * `factor` (arith.muli).
  Value times(const Value &value, int64_t factor);
  /// ceil(`value` / `divisor`) (arith.ceildivsi).
  Value ceilDiv(const Value &value, int64_t divisor);
  /// `first` + [0, size): the `size` consecutive indices from `first`.
  Value indicesFrom(const Value &first, int64_t size);

  // Blocks and indices.
  std::vector<int64_t> getDims(Shape shape) const;
  Value blockRow();
  Value blockCol();
  Value colBlocks();
  Value rowIndex(Shape shape);
  Value colIndex(Shape shape);
  /// The index along K of a dot operand's elements: the column block's
  /// slice, bj * K + k ([K]).
  Value depthIndex();
  bool hasRowIndex(Shape shape) const {
    return p.rank == 2 || shape == Shape::Cols || shape == Shape::Rows;
  }

  // Memory.
  Value pointers(const Op &op);
  /// The tensor descriptor of a load's buffer (Addressing::Descriptor).
  Value descriptor(const Op &op);
  Value mask(int index, Shape shape);

  // Operations.
  void emitOp(size_t index);
  std::string elementOf(const Op &op) const { return getName(op.type).str(); }
  std::string typeOf(const Op &op) const {
    return getTypeText(getDims(op.shape), elementOf(op));
  }
  Value floatConstant(Shape shape, ElementType type, double value);
  /// tile.dot of `a` and `b` onto the accumulator named `c`, after `=`.
  std::string dotText(const Value &a, const Value &b, const std::string &c,
                      DotPrecision precision) const;
  /// Prints the column loop: its iter_args, its body, the yield.
  void printColumnLoop(llvm::raw_ostream &os, const std::string &indent);
  /// The Accumulate operations, in order: the column loop's iter_args, and
  /// their start values.
  std::vector<size_t> accumulators;
  std::vector<Value> initials;
  Value columnCount, zero, one;
  /// Each accumulator's value after the loop: the loop's result, or with
  /// clusters the cluster's (Program::clusterSize).
  std::vector<std::string> accumulatorResults;
  /// With clusters: the program's rank, whether it is 0, and the
  /// tile.cluster_reduce lines after the column loop.
  Value rank, firstRank, clusterStep;
  std::vector<std::string> clusterReduces;

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

} // namespace mlir::tile::smith

#endif // LIB_SMITH_KERNELPRINTER_H
