//===- Program.h - tile-smith's description of a random kernel --*- C++ -*-===//
//
// tile-smith generates random, valid `tile` kernels for differential testing
// (scripts/difftest.sh). A kernel is generated as a `Program`: a description
// small enough to mutate (the reducer deletes operations and shrinks shapes
// on it), from which the kernel's text, its launch and a NumPy reference are
// printed. Nothing here depends on MLIR: the description is the generator's
// own, and the text it prints is checked by tile-opt.
//
// The kernels all have one shape of computation. The data is a grid of
// M x N elements (rank 2) or N elements (rank 1), cut into blocks of
// BM x BN (or BN); each block is handled by one program, or by one iteration
// of a program's persistent loop. Per block, the kernel loads tiles from its
// input buffers (masked where a block overhangs the data, and where a mask
// cuts the tile further), computes on them (elementwise arith and math
// operations, tile.exp, reductions along either axis, splats, broadcasts,
// expand_dims, selects, casts between f32, f16 and bf16, matrix products of
// operand tiles with tile.dot), and stores tiles (a float buffer may hold
// 8-bit floats: Storage)
// into its output buffers under masks. Every block writes elements of its
// own, so the result does not depend on the order in which blocks run.
//
// A program may also loop over the column blocks of each row block
// (`columnLoop`, as online softmax walks a row): the grid (or the persistent
// loop) covers row blocks, and an inner scf.for walks their column blocks,
// carrying accumulators (`Accumulate`: a sum or a maximum of a value over
// the column blocks) in its iter_args. Operations then come in two phases:
// phase 0 computes a block inside the inner loop, phase 1 computes a row
// block after it, from the accumulators and from loads of the row block's
// first column block (bj = 0).
//
// Values have one of four shapes relative to a block (`Shape`): the block's
// tile, one element per row or per column of it (what a reduction along an
// axis leaves), or a scalar; or, in rank 2, one of the two operands of a
// matrix product (tile.dot) whose result is the block's tile: Lhs, BM x K,
// and Rhs, K x BN, where K (`dotK`, a power of two) is the program's. A
// buffer holds values of one shape, indexed by a row and a column index:
//
//   shape    row index i        column index j     elements
//   Tile     row r (0..M-1)     column c (0..N-1)  M x N
//   Rows     row r              column block bj    M x NBN
//   Cols     row block bi       column c           NBM x N
//   Scalar   row block bi       column block bj    NBM x NBN
//   Lhs      row r              bj * K + k         M x (NBN * K)
//   Rhs      bj * K + k         c - bj * BN        (NBN * K) x BN
//
// at element offset + i * rowStride + j * colStride of the buffer (rank 1
// has no rows: i is 0, and there are no Rows or Cols values). A buffer is
// row-major (colStride is its inner stride, rowStride spans a row and a
// pad) or column-major (the other way round).
//
// In the operands, k runs over 0..K-1 within the block, and an Rhs's
// columns are the block's own (0..BN-1, the same for every block). Column
// block bj reads its own slice of K from both operands, so a column loop that
// adds up the blocks' products walks K as a matrix multiply's K loop does,
// giving the row block's tile of A[rows, :] @ B. A column-major operand
// buffer holds the operand transposed.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SMITH_PROGRAM_H
#define TILE_SMITH_PROGRAM_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tile::smith {

/// The element types of values and buffers.
enum class ElementType { F32, F16, BF16, I32, I64 };

inline bool isInteger(ElementType type) {
  return type == ElementType::I32 || type == ElementType::I64;
}

/// Where a value lives relative to a block.
enum class Shape {
  /// The block's tile: BM x BN (rank 2) or BN (rank 1).
  Tile,
  /// One element per row of the block: BM (rank 2 only).
  Rows,
  /// One element per column of the block: BN (rank 2 only).
  Cols,
  /// One value per block.
  Scalar,
  /// The left operand of a dot: BM x K (rank 2 only).
  Lhs,
  /// The right operand of a dot: K x BN (rank 2 only).
  Rhs,
};

/// Whether a shape is one of a dot's operands (Lhs, Rhs).
inline bool isDotOperand(Shape shape) {
  return shape == Shape::Lhs || shape == Shape::Rhs;
}

/// How programs map to blocks.
enum class GridKind {
  /// One program per block, along x: block b = program_id x.
  Blocks,
  /// One program per block: x the column block, y the row block (rank 2).
  Blocks2D,
  /// `programs` programs; program p handles blocks p, p + programs, ... in
  /// an scf.for loop (with `tile.num_stages` when numStages > 0).
  Persistent,
};

/// A condition that cuts a mask further than the data's bounds.
enum class CutKind {
  None,
  /// column < bound
  ColsBelow,
  /// row < bound
  RowsBelow,
  /// column >= bound
  ColsFrom,
  /// column <= row + bound (rank 2 tiles)
  Diagonal,
};

/// How a load or store forms its addresses.
enum class Addressing {
  /// offset + i * rowStride + j * colStride on whole index tiles, in i32.
  Global,
  /// The same, the offsets tile extended to i64.
  Global64,
  /// A scalar pointer to the block's first element, plus the block-local
  /// offsets (Triton's row pointer, then `+ tl.arange`).
  BlockBase,
  /// Loads of the block's tile only: a tile.make_tensor_desc of the buffer
  /// (the data's rows and columns, its row stride) and a tile.desc_load of
  /// the block, which reads 0 outside the data: the load masked to the data
  /// with 'other' 0 (fitsDescriptor says which buffers it takes).
  Descriptor,
};

/// Elementwise functions of one operand.
enum class UnaryFn {
  Neg,
  Abs,
  /// tile.exp
  Exp,
  /// math.exp
  MathExp,
  Exp2,
  Log,
  Log2,
  Log1p,
  Expm1,
  Sqrt,
  Rsqrt,
  Tanh,
  Sin,
  Cos,
  Erf,
  Atan,
  Floor,
  Ceil,
  // Integers:
  /// math.absi
  AbsI,
  Ctlz,
  Cttz,
  Ctpop,
};

/// Elementwise functions of two operands.
enum class BinaryFn {
  Add,
  Sub,
  Mul,
  Div,
  Maximum,
  Minimum,
  MaxNum,
  MinNum,
  Rem,
  Copysign,
  // Integers (arith.*i, wrapping at the type's width):
  AddI,
  SubI,
  MulI,
  DivSI,
  RemSI,
  DivUI,
  RemUI,
  CeilDivSI,
  FloorDivSI,
  AndI,
  OrI,
  XorI,
  ShLI,
  ShRSI,
  ShRUI,
  MaxSI,
  MinSI,
  MaxUI,
  MinUI,
};

/// tile.reduce's kinds; Accumulate's, which add Dot: tile.dot of two
/// operands onto the iter_arg.
enum class ReduceFn { Sum, Max, Dot };

/// How a dot multiplies f32 inputs (f16 and bf16 are multiplied exactly).
enum class DotPrecision {
  /// No input_precision: TF32, tile.dot's default.
  Default,
  /// input_precision = tf32
  TF32,
  /// input_precision = ieee
  IEEE,
};

/// arith.cmpf predicates the generator uses.
enum class Predicate { OLT, OLE, OGT, OGE, UNE, ULT };

/// arith.cmpi predicates.
enum class IntPredicate { EQ, NE, SLT, SLE, SGT, SGE, ULT, ULE, UGT, UGE };

/// Conditions computed from the indices alone.
enum class IndexCond {
  /// column < row (Tile, rank 2)
  ColBelowRow,
  /// the column is odd (Tile, Cols)
  OddCol,
  /// the row is odd (Tile, Rows)
  OddRow,
};

/// arith.andi, ori, xori on conditions.
enum class LogicFn { And, Or, Xor };

/// How a cast is written.
enum class CastStyle {
  /// tile.cast (between floats)
  TileCast,
  /// arith.extf or arith.truncf (floats, to or from f32)
  Arith,
  /// arith.extsi, trunci, sitofp, fptosi (integers read as signed)
  Signed,
  /// arith.extui, trunci, uitofp, fptoui (integers read as unsigned)
  Unsigned,
};

/// How a scalar, row or column value is widened to a larger shape.
enum class ExpandStyle {
  /// tile.splat of a scalar; tile.expand_dims then tile.broadcast otherwise.
  Direct,
  /// A scalar splat to a row or column first, then expanded (scalars only).
  ViaVector,
};

enum class OpKind {
  /// A tile (or scalar) loaded from an input buffer.
  Load,
  /// A float argument of the kernel (a scalar).
  Param,
  /// A splat constant.
  Constant,
  Unary,
  Binary,
  /// math.fma
  Fma,
  /// arith.cmpf of an operand against a constant, or against a second
  /// operand of its shape and type (an i1 value).
  Compare,
  /// A condition of the indices (an i1 value).
  Index,
  /// andi, ori or xori of two conditions.
  Logic,
  /// arith.select
  Select,
  Cast,
  Reduce,
  /// A value widened to a larger shape (splat, expand_dims + broadcast).
  Expand,
  /// The sum or maximum (`reduce`) of a phase-0 value over the column
  /// blocks, starting from `value`: an iter_arg of the column loop. With
  /// reduce = Dot, the operands are a phase-0 Lhs and Rhs, and each column
  /// block adds their product (tile.dot onto the iter_arg, an f32 tile).
  Accumulate,
  /// tile.dot: operands Lhs, Rhs (f16, bf16 or f32, the same) and an f32
  /// tile; an f32 tile.
  Dot,
  /// A store into an output buffer (no result).
  Store,
};

/// A mask of loads and stores: the data's bounds, cut further by `cut`.
struct Mask {
  CutKind cut = CutKind::None;
  int64_t bound = 0;
  /// The bound is a kernel argument (else a constant in the IR).
  bool boundIsArg = false;
};

/// What a float buffer's elements are stored as: its values' type, or an
/// 8-bit float (sm_89 and later on a GPU). A load of an 8-bit buffer reads
/// tile.load's 8-bit tile and widens it (tile.cast) to the buffer's type; a
/// store narrows its value (tile.cast: one rounding to nearest, saturating)
/// first. The arithmetic stays in the buffer's type: the verifier refuses
/// any on 8-bit floats but casts, selects and dots.
enum class Storage { Element, F8E4M3FN, F8E5M2 };

/// A buffer the kernel reads or writes.
struct Buffer {
  bool isOutput = false;
  ElementType type = ElementType::F32;
  /// An 8-bit float buffer of `type` values (floats only).
  Storage storage = Storage::Element;
  Shape shape = Shape::Tile;
  int64_t offset = 0;
  /// Column-major: element (i, j) at offset + i * innerStride + j * outer.
  bool columnMajor = false;
  /// The distance between neighbours in a row (column-major: a column).
  int64_t innerStride = 1;
  /// Elements between one row's last element and the next row's first
  /// (column-major: columns).
  int64_t rowPad = 0;
  /// The outer stride is rounded up to a multiple of 16 elements.
  bool alignRows = false;
  /// Elements after the last one the kernel may touch.
  int64_t tailPad = 0;
  /// The offset and the strides are kernel arguments (else constants).
  bool layoutIsArgs = false;
  /// The pointer carries tile.divisibility = 16.
  bool pointerHint = false;
  /// Inputs: the values are uniform in [lo, hi], rounded to `type`.
  double lo = -1, hi = 1;
  /// The phase of the operations that access it: a phase-1 buffer is
  /// indexed as if the data had one column block.
  int phase = 0;
};

/// An operation of the block's computation. Operation i defines value i
/// (a Store defines none); operands are earlier values.
struct Op {
  OpKind kind = OpKind::Constant;
  Shape shape = Shape::Tile;
  /// The result's element type (unused for conditions and stores).
  ElementType type = ElementType::F32;
  std::vector<int> operands;
  UnaryFn unary = UnaryFn::Neg;
  BinaryFn binary = BinaryFn::Add;
  ReduceFn reduce = ReduceFn::Sum;
  Predicate predicate = Predicate::OLT;
  IntPredicate intPredicate = IntPredicate::EQ;
  IndexCond index = IndexCond::OddCol;
  LogicFn logic = LogicFn::And;
  CastStyle cast = CastStyle::TileCast;
  ExpandStyle expand = ExpandStyle::Direct;
  Addressing addressing = Addressing::Global;
  /// Load and Store: the buffer; the mask (-1: none).
  int buffer = -1;
  int mask = -1;
  /// Constant, Param and Compare: the value; Load: `other` (which may be
  /// -inf, as softmax's masked loads have it).
  double value = 0;
  /// Load: whether masked lanes read `value` (else no `other`: 0).
  bool hasOther = false;
  /// Store of f32 or i32: as tile.atomic_add, which adds the value to what
  /// the output held (each element once: stores never overlap).
  bool atomic = false;
  /// Reduce: the axis.
  int axis = 0;
  /// Dot, and Accumulate with reduce = Dot: how f32 inputs are multiplied.
  DotPrecision precision = DotPrecision::Default;
  /// Accumulate with reduce = Dot (from 0): restarts from zeros at every
  /// column block whose index is a multiple of `restart` (0: never), a
  /// select between zeros and the accumulator before the dot, as a
  /// persistent matmul's first k-step (wgmma's scale-d on sm_90a). After
  /// the loop it holds the sum over the blocks since the last restart.
  int restart = 0;
  /// With a column loop: 0 inside it (per block), 1 after it (per row
  /// block).
  int phase = 0;

  bool isCondition() const {
    return kind == OpKind::Compare || kind == OpKind::Index ||
           kind == OpKind::Logic;
  }
  bool hasResult() const { return kind != OpKind::Store; }
};

/// A whole kernel and its launch.
struct Program {
  uint64_t seed = 0;
  unsigned rank = 2;
  /// BM (1 for rank 1) and BN: powers of two.
  int64_t blockRows = 1, blockCols = 1;
  /// M (1 for rank 1) and N.
  int64_t rows = 1, cols = 1;
  GridKind grid = GridKind::Blocks;
  /// Persistent: the number of programs.
  int64_t programs = 1;
  /// Persistent: tile.num_stages on the loop (0: none).
  int64_t numStages = 0;
  int64_t numWarps = 4;
  /// M and N are kernel arguments (else constants).
  bool sizesAreArgs = true;
  /// An inner loop over the column blocks (see above), and its
  /// tile.num_stages (0: none).
  bool columnLoop = false;
  int64_t innerStages = 0;
  /// With a column loop: the programs of a row block, in clusters of this
  /// many along x (tile.cluster_size; 1: no clusters). Program `rank` of a
  /// cluster walks column blocks rank, rank + clusterSize, ...; its
  /// accumulators, all scalars, are then combined across the cluster
  /// (tile.cluster_reduce, one per kind), so every program holds what one
  /// program walking every column block would; sums start from the
  /// accumulator's initial value in rank 0 only. Rank 0 alone computes and
  /// stores the second phase. The grid (or the persistent loop) counts
  /// clusters.
  int64_t clusterSize = 1;
  /// With a column loop on a persistent grid, without clusters: the whole
  /// grid splits each row block, as a cluster would (tile.persistent, its
  /// accumulators combined by tile.grid_reduce, one per kind, or in
  /// logsumexp pairs: gridLogSumExp): program
  /// `pid` walks column blocks pid, pid + programs, ...; every program
  /// visits every row block; program 0 alone computes and stores the
  /// second phase.
  bool gridReduce = false;
  /// With gridReduce: the float accumulators are combined by
  /// `tile.grid_reduce logsumexp` pairs whose merge is exact (a maximum
  /// beside a sum of 0, a sum beside maxima of 0), the others by kind.
  bool gridLogSumExp = false;
  /// Whether the programs of a row block combine their accumulators
  /// (clusters or the grid).
  bool splitsRows() const { return clusterSize > 1 || gridReduce; }
  /// Some input elements are inf, -inf or NaN.
  bool specials = false;
  /// Float multiplies and adds may fuse into FMAs (the default); false
  /// prints `tile.fp_contract = false` on the kernel.
  bool fpContract = true;
  /// K, the inner dimension of dots (Lhs and Rhs values): a power of two,
  /// 0 in a program without them.
  int64_t dotK = 0;
  std::vector<Buffer> buffers;
  std::vector<Mask> masks;
  std::vector<Op> ops;

  int64_t getRowBlocks() const { return (rows + blockRows - 1) / blockRows; }
  int64_t getColBlocks() const { return (cols + blockCols - 1) / blockCols; }
  int64_t getNumBlocks() const { return getRowBlocks() * getColBlocks(); }
  /// What the grid covers: blocks, or row blocks with a column loop.
  int64_t getNumWorkItems() const {
    return columnLoop ? getRowBlocks() : getNumBlocks();
  }
};

//===----------------------------------------------------------------------===//
// Layout of buffers and arguments
//===----------------------------------------------------------------------===//

/// The number of row and column indices of a buffer's elements.
int64_t getBufferHeight(const Program &program, const Buffer &buffer);
int64_t getBufferWidth(const Program &program, const Buffer &buffer);
/// The distance between rows and between columns of a buffer, in elements.
int64_t getRowStride(const Program &program, const Buffer &buffer);
int64_t getColStride(const Program &program, const Buffer &buffer);
/// The number of elements of the buffer as allocated.
int64_t getBufferSize(const Program &program, const Buffer &buffer);

/// What a kernel argument is.
enum class ArgKind {
  /// Buffer `index`.
  Pointer,
  /// The float parameter defined by op `index`.
  FloatParam,
  Rows,
  Cols,
  /// Buffer `index`'s offset, row stride, column stride.
  Offset,
  RowStride,
  ColStride,
  /// Mask `index`'s bound.
  MaskBound,
};

struct Arg {
  Arg(ArgKind kind, int index) : kind(kind), index(index) {}
  ArgKind kind;
  int index = 0;
  /// The SSA name of the argument, without '%'.
  std::string name;
  /// The type: "!tile.ptr<f16>", "i32", "f32", ...
  std::string type;
  /// The launch's value (integers and float parameters).
  double value = 0;
  /// A tile.divisibility hint on the argument (0: none).
  int64_t divisibility = 0;
};

/// The kernel's arguments, in order: buffers, float parameters, then i32s.
std::vector<Arg> getArguments(const Program &program);

/// The divisibilities a launch with these arguments promises the compiler,
/// as tile-opt's --tile-specialize-arguments takes them ("0:16,1:16,4:2"):
/// 16 bytes for pointers, the largest power of two up to 16 that divides an
/// integer (as the runtime specializes, docs/runner.md).
std::string getSpecialization(const Program &program);

/// The launch grid, "X" or "X,Y".
std::string getGrid(const Program &program);

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

llvm::StringRef getName(ElementType type);
/// "f8E4M3FN", "f8E5M2", or "element".
llvm::StringRef getName(Storage storage);
/// The type a buffer's pointer points to: its storage's, else its type's.
llvm::StringRef getStoredTypeName(const Buffer &buffer);
llvm::StringRef getName(Shape shape);
llvm::StringRef getName(GridKind grid);
llvm::StringRef getName(CutKind cut);
llvm::StringRef getName(Addressing addressing);

/// Whether loads of `buffer` may go through a tensor descriptor: the block's
/// tile or a dot operand of an input laid out as TMA takes it (no offset,
/// unit inner stride, rows a multiple of 16 bytes apart), in a box TMA can
/// copy (the value's dimensions: at most 256, the inner one at least 16
/// bytes).
bool fitsDescriptor(const Program &program, const Buffer &buffer);
llvm::StringRef getName(UnaryFn fn);
llvm::StringRef getName(BinaryFn fn);
llvm::StringRef getName(ReduceFn fn);
llvm::StringRef getName(DotPrecision precision);
llvm::StringRef getName(Predicate predicate);
llvm::StringRef getName(IntPredicate predicate);
llvm::StringRef getName(IndexCond cond);
llvm::StringRef getName(LogicFn fn);
llvm::StringRef getName(CastStyle style);
llvm::StringRef getName(ExpandStyle style);
llvm::StringRef getName(OpKind kind);

/// A float type's largest finite value, smallest normal value and precision
/// (significand bits, the implicit one included); an integer type's largest
/// value (for i64, the largest double below 2^63), 1 and its width.
double getMaxValue(ElementType type);
/// The smallest (most negative) value of an integer type; -max for floats.
double getMinValue(ElementType type);
double getMinNormal(ElementType type);
int getPrecision(ElementType type);

/// Whether a function computes on integers (else on floats).
bool isIntegerFn(UnaryFn fn);
bool isIntegerFn(BinaryFn fn);

/// Whether `value` is exactly representable in `type` (finite values; an
/// integer of the type's range for integers).
bool isRepresentable(double value, ElementType type);

//===----------------------------------------------------------------------===//
// Checking, simplifying
//===----------------------------------------------------------------------===//

/// Checks the invariants the printers rely on (operands defined before use,
/// shapes and types that match, masks that fit their shapes, accesses in
/// bounds); returns a message naming the first problem, or "" when valid.
std::string verifyProgram(const Program &program);

/// Removes operations whose results nothing uses (stores are used).
void removeDeadOps(Program &program);

} // namespace mlir::tile::smith

#endif // TILE_SMITH_PROGRAM_H
