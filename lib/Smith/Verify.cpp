//===- Verify.cpp - Checking a program, removing dead code ----------------===//
//
// verifyProgram, the invariants every printed program satisfies (operands
// defined before use, shapes and types that match, masks that fit their
// shapes, accesses in bounds, phases in order), and removeDeadOps, which
// drops the operations, buffers and masks no store depends on
// (Program.h). The generator ends with removeDeadOps and tile-smith
// verifies what it made; the reducer offers only candidates that pass
// both.
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
// Checking
//===----------------------------------------------------------------------===//

/// Whether a cut applies to accesses of `shape` in a kernel of `rank`. A
/// cut compares the access's row and column indices: the data's rows and
/// columns, or the block's row and column block where the shape has none
/// (a scalar's mask cuts whole blocks). A scalar's mask is its cut, and so
/// is an rhs's, which the data does not bound.
static bool cutFits(CutKind cut, Shape shape, unsigned rank) {
  switch (cut) {
  case CutKind::None:
    return shape != Shape::Scalar && shape != Shape::Rhs;
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
  case Shape::Rhs:
    return true;
  case Shape::Lhs:
    return rowsExact;
  }
  llvm_unreachable("unknown shape");
}

/// Whether operations of `kind` compute on dot operands (Lhs, Rhs values):
/// loads, constants and elementwise operations do; a dot's operands are not
/// stored, reduced or widened.
static bool takesDotOperands(OpKind kind) {
  switch (kind) {
  case OpKind::Load:
  case OpKind::Constant:
  case OpKind::Unary:
  case OpKind::Binary:
  case OpKind::Fma:
  case OpKind::Compare:
  case OpKind::Logic:
  case OpKind::Select:
  case OpKind::Cast:
  case OpKind::Expand:
    return true;
  case OpKind::Param:
  case OpKind::Index:
  case OpKind::Reduce:
  case OpKind::Accumulate:
  case OpKind::Dot:
  case OpKind::Store:
    return false;
  }
  llvm_unreachable("unknown op kind");
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
  if (program.clusterSize != 1 &&
      (!llvm::isPowerOf2_64(program.clusterSize) || program.clusterSize > 8 ||
       !program.columnLoop || program.grid == GridKind::Blocks2D ||
       (program.grid == GridKind::Persistent &&
        program.programs % program.clusterSize != 0)))
    return "clusters of 2, 4 or 8 programs need a column loop and a 1-D grid "
           "of a multiple of them";
  if (program.gridReduce &&
      (!program.columnLoop || program.grid != GridKind::Persistent ||
       program.clusterSize != 1 || program.programs > 64))
    return "a grid reduction needs a column loop and a persistent grid of at "
           "most 64 programs, without clusters";
  if (program.gridLogSumExp && !program.gridReduce)
    return "grid_logsumexp needs grid_reduce";
  if (!llvm::isPowerOf2_64(program.numWarps) || program.numWarps > 32)
    return "num_warps must be a power of two up to 32";
  if (program.dotK != 0 &&
      (program.rank != 2 || !llvm::isPowerOf2_64(program.dotK) ||
       program.blockRows * program.dotK > (1 << 14) ||
       program.dotK * program.blockCols > (1 << 14)))
    return "dot_k must be a power of two, with operand tiles of at most 2^14 "
           "elements, in a rank-2 program";
  for (const Buffer &buffer : program.buffers) {
    if (isDotOperand(buffer.shape) && (program.dotK == 0 || buffer.isOutput))
      return "dot operand buffers are inputs, with a dot_k";
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
    if (program.splitsRows() && op.kind == OpKind::Accumulate &&
        (op.shape != Shape::Scalar || op.reduce == ReduceFn::Dot))
      return bad("a cluster combines only scalar sums and maxima");
    if (isDotOperand(op.shape) &&
        (program.dotK == 0 || !takesDotOperands(op.kind)))
      return bad("a dot operand's shape, without dot_k or for this kind");
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
    // A dot of operands lhs and rhs, of one float type, into an f32 tile,
    // with an input_precision only for f32.
    auto isDotProduct = [&](unsigned lhs, unsigned rhs) {
      return isFloat(lhs) && isFloat(rhs) && operand(lhs).shape == Shape::Lhs &&
             operand(rhs).shape == Shape::Rhs &&
             operand(lhs).type == operand(rhs).type &&
             !isInteger(operand(lhs).type) && op.shape == Shape::Tile &&
             op.type == ElementType::F32 &&
             (op.precision == DotPrecision::Default ||
              operand(lhs).type == ElementType::F32);
    };
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
      // An rhs's descriptor load reads within the data: unmasked.
      if (op.addressing == Addressing::Descriptor &&
          (isStore || !fitsDescriptor(program, buffer) ||
           (op.shape == Shape::Rhs
                ? op.mask >= 0
                : op.mask < 0 || program.masks[op.mask].cut != CutKind::None ||
                      !op.hasOther || op.value != 0)))
        return bad("a descriptor load other than of an input's tile or dot "
                   "operand, laid out and boxed as TMA takes it, zero "
                   "outside the data");
      if (op.atomic && (!isStore || (op.type != ElementType::F32 &&
                                     op.type != ElementType::I32)))
        return bad("an atomic addition other than a store of f32 or i32");
      // An 8-bit buffer: floats, widened after a load that reads 0 where
      // masked, narrowed before a plain store.
      if (buffer.storage != Storage::Element &&
          (isInteger(buffer.type) || op.atomic ||
           op.addressing == Addressing::Descriptor ||
           (op.hasOther && op.value != 0)))
        return bad("an 8-bit buffer of integers, or accessed atomically, "
                   "through a descriptor, or with an 'other' but 0");
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
      if (op.reduce == ReduceFn::Dot || isDotOperand(operand(0).shape))
        return bad("a reduction of a dot operand, or by a dot");
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
      if (op.reduce == ReduceFn::Dot) {
        if (!expect(2) || op.phase != 1 || !isDotProduct(0, 1))
          return bad("accumulates a dot of the wrong operands");
      } else if (!expect(1) || !sameAsResult(0) || op.phase != 1) {
        return bad("accumulates a value of another shape or type");
      }
      if (!isRepresentable(op.value, op.type) && op.value != 0 &&
          !(std::isinf(op.value) && op.reduce == ReduceFn::Max))
        return bad("start value not representable");
      if (op.restart < 0 ||
          (op.restart && (op.reduce != ReduceFn::Dot || op.value != 0)))
        return bad("restarts, but is not a dot from zero");
      break;
    case OpKind::Dot:
      if (!expect(3) || !isDotProduct(0, 1) || !isFloat(2) ||
          operand(2).shape != Shape::Tile ||
          operand(2).type != ElementType::F32)
        return bad("operands are not an lhs, an rhs and an f32 tile");
      break;
    case OpKind::Expand: {
      if (!expect(1) || !isFloat(0) || operand(0).type != op.type)
        return bad("expands a value of another type");
      Shape from = operand(0).shape;
      bool ok = from == Shape::Scalar
                    ? op.shape != Shape::Scalar
                    : from != Shape::Tile && !isDotOperand(from) &&
                          op.shape == Shape::Tile;
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
