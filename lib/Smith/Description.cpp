//===- Description.cpp - A program as JSON, and back ----------------------===//
//
// Every field of the Program, enums by their names (Program.h's getName),
// so that a description can be read, edited and fed back by hand.
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Print.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir::tile;
using namespace mlir::tile::smith;
namespace json = llvm::json;

/// JSON has no inf or NaN: those are strings; and so is -0, which a JSON
/// reader takes for the integer 0.
static json::Value toJSON(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  if (value == 0 && std::signbit(value))
    return "-0";
  return value;
}

void smith::printDescription(const Program &p, llvm::raw_ostream &os) {
  json::Array buffers;
  for (const Buffer &b : p.buffers)
    buffers.push_back(json::Object{
        {"output", b.isOutput},
        {"type", getName(b.type)},
        {"shape", getName(b.shape)},
        {"offset", b.offset},
        {"column_major", b.columnMajor},
        {"inner_stride", b.innerStride},
        {"row_pad", b.rowPad},
        {"align_rows", b.alignRows},
        {"tail_pad", b.tailPad},
        {"layout_is_args", b.layoutIsArgs},
        {"pointer_hint", b.pointerHint},
        {"lo", b.lo},
        {"hi", b.hi},
        {"phase", b.phase},
        {"storage", getName(b.storage)},
    });
  json::Array masks;
  for (const Mask &m : p.masks)
    masks.push_back(json::Object{{"cut", getName(m.cut)},
                                 {"bound", m.bound},
                                 {"bound_is_arg", m.boundIsArg}});
  json::Array ops;
  for (const Op &op : p.ops) {
    json::Object o{{"kind", getName(op.kind)},
                   {"shape", getName(op.shape)},
                   {"type", getName(op.type)}};
    if (op.phase)
      o["phase"] = op.phase;
    if (!op.operands.empty())
      o["operands"] = json::Array(op.operands);
    switch (op.kind) {
    case OpKind::Load:
    case OpKind::Store:
      o["buffer"] = op.buffer;
      o["mask"] = op.mask;
      o["addressing"] = getName(op.addressing);
      if (op.hasOther)
        o["other"] = toJSON(op.value);
      if (op.atomic)
        o["atomic"] = true;
      break;
    case OpKind::Param:
    case OpKind::Constant:
      o["value"] = toJSON(op.value);
      break;
    case OpKind::Unary:
      o["fn"] = getName(op.unary);
      break;
    case OpKind::Binary:
      o["fn"] = getName(op.binary);
      break;
    case OpKind::Fma:
    case OpKind::Select:
      break;
    case OpKind::Compare:
      o["predicate"] = getName(op.predicate);
      o["int_predicate"] = getName(op.intPredicate);
      o["value"] = toJSON(op.value);
      break;
    case OpKind::Index:
      o["fn"] = getName(op.index);
      break;
    case OpKind::Logic:
      o["fn"] = getName(op.logic);
      break;
    case OpKind::Cast:
      o["style"] = getName(op.cast);
      break;
    case OpKind::Reduce:
      o["fn"] = getName(op.reduce);
      o["axis"] = op.axis;
      break;
    case OpKind::Expand:
      o["style"] = getName(op.expand);
      break;
    case OpKind::Accumulate:
      o["fn"] = getName(op.reduce);
      o["value"] = toJSON(op.value);
      if (op.reduce == ReduceFn::Dot) {
        o["precision"] = getName(op.precision);
        o["restart"] = op.restart;
      }
      break;
    case OpKind::Dot:
      o["precision"] = getName(op.precision);
      break;
    }
    ops.push_back(std::move(o));
  }
  json::Object root{
      {"seed", static_cast<int64_t>(p.seed)},
      {"rank", static_cast<int64_t>(p.rank)},
      {"block_rows", p.blockRows},
      {"block_cols", p.blockCols},
      {"rows", p.rows},
      {"cols", p.cols},
      {"grid", getName(p.grid)},
      {"programs", p.programs},
      {"num_stages", p.numStages},
      {"num_warps", p.numWarps},
      {"sizes_are_args", p.sizesAreArgs},
      {"column_loop", p.columnLoop},
      {"inner_stages", p.innerStages},
      {"specials", p.specials},
      {"buffers", std::move(buffers)},
      {"masks", std::move(masks)},
      {"ops", std::move(ops)},
  };
  // Only programs with dots say K (older descriptions have none).
  if (p.dotK)
    root["dot_k"] = p.dotK;
  // Only kernels that keep each float operation rounded say so.
  if (!p.fpContract)
    root["fp_contract"] = false;
  if (p.clusterSize != 1)
    root["cluster_size"] = p.clusterSize;
  if (p.gridReduce)
    root["grid_reduce"] = true;
  if (p.gridLogSumExp)
    root["grid_logsumexp"] = true;
  os << llvm::formatv("{0:2}", json::Value(std::move(root))) << "\n";
}

namespace {
/// Reads fields of JSON objects, remembering the first problem.
class Reader {
public:
  std::string error;

  const json::Object *object(const json::Value &value, llvm::StringRef what) {
    const json::Object *o = value.getAsObject();
    if (!o)
      fail(what + " is not an object");
    return o;
  }
  int64_t integer(const json::Object &o, llvm::StringRef key,
                  std::optional<int64_t> fallback = std::nullopt) {
    if (const json::Value *v = o.get(key))
      if (std::optional<int64_t> i = v->getAsInteger())
        return *i;
    if (fallback)
      return *fallback;
    fail("'" + key + "' is missing or not an integer");
    return 0;
  }
  double number(const json::Object &o, llvm::StringRef key,
                std::optional<double> fallback = std::nullopt) {
    if (const json::Value *v = o.get(key)) {
      if (std::optional<double> d = v->getAsNumber())
        return *d;
      if (std::optional<llvm::StringRef> s = v->getAsString()) {
        if (*s == "inf")
          return std::numeric_limits<double>::infinity();
        if (*s == "-inf")
          return -std::numeric_limits<double>::infinity();
        if (*s == "nan")
          return std::numeric_limits<double>::quiet_NaN();
        if (*s == "-0")
          return -0.0;
      }
    }
    if (fallback)
      return *fallback;
    fail("'" + key + "' is missing or not a number");
    return 0;
  }
  bool boolean(const json::Object &o, llvm::StringRef key,
               bool fallback = false) {
    if (const json::Value *v = o.get(key)) {
      if (std::optional<bool> b = v->getAsBoolean())
        return *b;
      fail("'" + key + "' is not a boolean");
    }
    return fallback;
  }
  /// An enumerator named by a string field, one of `all`.
  template <typename E>
  E name(const json::Object &o, llvm::StringRef key, llvm::ArrayRef<E> all) {
    std::optional<llvm::StringRef> text = o.getString(key);
    if (!text) {
      fail("'" + key + "' is missing or not a string");
      return all.front();
    }
    for (E value : all)
      if (getName(value) == *text)
        return value;
    fail("'" + key + "' has an unknown value '" + *text + "'");
    return all.front();
  }
  void fail(const llvm::Twine &message) {
    if (error.empty())
      error = message.str();
  }
};
} // namespace

static const ElementType allTypes[] = {ElementType::F32, ElementType::F16,
                                       ElementType::BF16, ElementType::I32,
                                       ElementType::I64};
static const Storage allStorages[] = {Storage::Element, Storage::F8E4M3FN,
                                      Storage::F8E5M2};
static const Shape allShapes[] = {Shape::Tile,   Shape::Rows, Shape::Cols,
                                  Shape::Scalar, Shape::Lhs,  Shape::Rhs};
static const GridKind allGrids[] = {GridKind::Blocks, GridKind::Blocks2D,
                                    GridKind::Persistent};
static const CutKind allCuts[] = {CutKind::None, CutKind::ColsBelow,
                                  CutKind::RowsBelow, CutKind::ColsFrom,
                                  CutKind::Diagonal};
static const Addressing allAddressings[] = {
    Addressing::Global, Addressing::Global64, Addressing::BlockBase,
    Addressing::Descriptor};
static const UnaryFn allUnary[] = {
    UnaryFn::Neg,   UnaryFn::Abs,  UnaryFn::Exp,   UnaryFn::MathExp,
    UnaryFn::Exp2,  UnaryFn::Log,  UnaryFn::Log2,  UnaryFn::Log1p,
    UnaryFn::Expm1, UnaryFn::Sqrt, UnaryFn::Rsqrt, UnaryFn::Tanh,
    UnaryFn::Sin,   UnaryFn::Cos,  UnaryFn::Erf,   UnaryFn::Atan,
    UnaryFn::Floor, UnaryFn::Ceil, UnaryFn::AbsI,  UnaryFn::Ctlz,
    UnaryFn::Cttz,  UnaryFn::Ctpop};
static const BinaryFn allBinary[] = {
    BinaryFn::Add,        BinaryFn::Sub,     BinaryFn::Mul,
    BinaryFn::Div,        BinaryFn::Maximum, BinaryFn::Minimum,
    BinaryFn::MaxNum,     BinaryFn::MinNum,  BinaryFn::Rem,
    BinaryFn::Copysign,   BinaryFn::AddI,    BinaryFn::SubI,
    BinaryFn::MulI,       BinaryFn::DivSI,   BinaryFn::RemSI,
    BinaryFn::DivUI,      BinaryFn::RemUI,   BinaryFn::CeilDivSI,
    BinaryFn::FloorDivSI, BinaryFn::AndI,    BinaryFn::OrI,
    BinaryFn::XorI,       BinaryFn::ShLI,    BinaryFn::ShRSI,
    BinaryFn::ShRUI,      BinaryFn::MaxSI,   BinaryFn::MinSI,
    BinaryFn::MaxUI,      BinaryFn::MinUI};
static const ReduceFn allReduce[] = {ReduceFn::Sum, ReduceFn::Max,
                                     ReduceFn::Dot};
static const DotPrecision allPrecisions[] = {
    DotPrecision::Default, DotPrecision::TF32, DotPrecision::IEEE};
static const Predicate allPredicates[] = {Predicate::OLT, Predicate::OLE,
                                          Predicate::OGT, Predicate::OGE,
                                          Predicate::UNE, Predicate::ULT};
static const IntPredicate allIntPredicates[] = {
    IntPredicate::EQ,  IntPredicate::NE,  IntPredicate::SLT, IntPredicate::SLE,
    IntPredicate::SGT, IntPredicate::SGE, IntPredicate::ULT, IntPredicate::ULE,
    IntPredicate::UGT, IntPredicate::UGE};
static const IndexCond allIndex[] = {IndexCond::ColBelowRow, IndexCond::OddCol,
                                     IndexCond::OddRow};
static const LogicFn allLogic[] = {LogicFn::And, LogicFn::Or, LogicFn::Xor};
static const CastStyle allCasts[] = {CastStyle::TileCast, CastStyle::Arith,
                                     CastStyle::Signed, CastStyle::Unsigned};
static const ExpandStyle allExpands[] = {ExpandStyle::Direct,
                                         ExpandStyle::ViaVector};
static const OpKind allKinds[] = {
    OpKind::Load,   OpKind::Param,      OpKind::Constant, OpKind::Unary,
    OpKind::Binary, OpKind::Fma,        OpKind::Compare,  OpKind::Index,
    OpKind::Logic,  OpKind::Select,     OpKind::Cast,     OpKind::Reduce,
    OpKind::Expand, OpKind::Accumulate, OpKind::Dot,      OpKind::Store};

llvm::Expected<Program> smith::parseDescription(llvm::StringRef text) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return parsed.takeError();
  Reader r;
  Program p;
  const json::Object *root = r.object(*parsed, "the description");
  if (!root)
    return llvm::createStringError(r.error);
  p.seed = static_cast<uint64_t>(r.integer(*root, "seed", 0));
  p.rank = static_cast<unsigned>(r.integer(*root, "rank"));
  p.blockRows = r.integer(*root, "block_rows");
  p.blockCols = r.integer(*root, "block_cols");
  p.rows = r.integer(*root, "rows");
  p.cols = r.integer(*root, "cols");
  p.grid = r.name<GridKind>(*root, "grid", allGrids);
  p.programs = r.integer(*root, "programs", 1);
  p.numStages = r.integer(*root, "num_stages", 0);
  p.numWarps = r.integer(*root, "num_warps", 4);
  p.sizesAreArgs = r.boolean(*root, "sizes_are_args");
  p.columnLoop = r.boolean(*root, "column_loop");
  p.innerStages = r.integer(*root, "inner_stages", 0);
  p.specials = r.boolean(*root, "specials");
  p.dotK = r.integer(*root, "dot_k", 0);
  p.fpContract = r.boolean(*root, "fp_contract", true);
  p.clusterSize = r.integer(*root, "cluster_size", 1);
  p.gridReduce = r.boolean(*root, "grid_reduce", false);
  p.gridLogSumExp = r.boolean(*root, "grid_logsumexp", false);
  auto array = [&](llvm::StringRef key) -> const json::Array * {
    const json::Array *a = root->getArray(key);
    if (!a)
      r.fail("'" + key + "' is missing or not an array");
    return a;
  };
  if (const json::Array *buffers = array("buffers")) {
    for (const json::Value &value : *buffers) {
      const json::Object *o = r.object(value, "a buffer");
      if (!o)
        break;
      Buffer b;
      b.isOutput = r.boolean(*o, "output");
      b.type = r.name<ElementType>(*o, "type", allTypes);
      b.shape = r.name<Shape>(*o, "shape", allShapes);
      b.offset = r.integer(*o, "offset", 0);
      b.columnMajor = r.boolean(*o, "column_major");
      b.innerStride = r.integer(*o, "inner_stride", 1);
      b.rowPad = r.integer(*o, "row_pad", 0);
      b.alignRows = r.boolean(*o, "align_rows");
      b.tailPad = r.integer(*o, "tail_pad", 0);
      b.layoutIsArgs = r.boolean(*o, "layout_is_args");
      b.pointerHint = r.boolean(*o, "pointer_hint");
      b.lo = r.number(*o, "lo", -1);
      b.hi = r.number(*o, "hi", 1);
      b.phase = static_cast<int>(r.integer(*o, "phase", 0));
      // (Descriptions from before 8-bit buffers have no storage.)
      if (o->get("storage"))
        b.storage = r.name<Storage>(*o, "storage", allStorages);
      p.buffers.push_back(b);
    }
  }
  if (const json::Array *masks = array("masks")) {
    for (const json::Value &value : *masks) {
      const json::Object *o = r.object(value, "a mask");
      if (!o)
        break;
      Mask m;
      m.cut = r.name<CutKind>(*o, "cut", allCuts);
      m.bound = r.integer(*o, "bound", 0);
      m.boundIsArg = r.boolean(*o, "bound_is_arg");
      p.masks.push_back(m);
    }
  }
  if (const json::Array *ops = array("ops")) {
    for (const json::Value &value : *ops) {
      const json::Object *o = r.object(value, "an op");
      if (!o)
        break;
      Op op;
      op.kind = r.name<OpKind>(*o, "kind", allKinds);
      op.shape = r.name<Shape>(*o, "shape", allShapes);
      op.type = r.name<ElementType>(*o, "type", allTypes);
      op.phase = static_cast<int>(r.integer(*o, "phase", 0));
      if (const json::Array *operands = o->getArray("operands"))
        for (const json::Value &operand : *operands)
          op.operands.push_back(
              static_cast<int>(operand.getAsInteger().value_or(-1)));
      switch (op.kind) {
      case OpKind::Load:
      case OpKind::Store:
        op.buffer = static_cast<int>(r.integer(*o, "buffer"));
        op.mask = static_cast<int>(r.integer(*o, "mask", -1));
        op.addressing = r.name<Addressing>(*o, "addressing", allAddressings);
        op.hasOther = o->get("other") != nullptr;
        op.value = r.number(*o, "other", 0);
        op.atomic = o->getBoolean("atomic").value_or(false);
        break;
      case OpKind::Param:
      case OpKind::Constant:
        op.value = r.number(*o, "value");
        break;
      case OpKind::Unary:
        op.unary = r.name<UnaryFn>(*o, "fn", allUnary);
        break;
      case OpKind::Binary:
        op.binary = r.name<BinaryFn>(*o, "fn", allBinary);
        break;
      case OpKind::Fma:
      case OpKind::Select:
        break;
      case OpKind::Compare:
        op.predicate = r.name<Predicate>(*o, "predicate", allPredicates);
        op.intPredicate =
            r.name<IntPredicate>(*o, "int_predicate", allIntPredicates);
        op.value = r.number(*o, "value");
        break;
      case OpKind::Index:
        op.index = r.name<IndexCond>(*o, "fn", allIndex);
        break;
      case OpKind::Logic:
        op.logic = r.name<LogicFn>(*o, "fn", allLogic);
        break;
      case OpKind::Cast:
        op.cast = r.name<CastStyle>(*o, "style", allCasts);
        break;
      case OpKind::Reduce:
        op.reduce = r.name<ReduceFn>(*o, "fn", allReduce);
        op.axis = static_cast<int>(r.integer(*o, "axis"));
        break;
      case OpKind::Expand:
        op.expand = r.name<ExpandStyle>(*o, "style", allExpands);
        break;
      case OpKind::Accumulate:
        op.reduce = r.name<ReduceFn>(*o, "fn", allReduce);
        op.value = r.number(*o, "value");
        if (op.reduce == ReduceFn::Dot) {
          op.precision = r.name<DotPrecision>(*o, "precision", allPrecisions);
          op.restart = static_cast<int>(r.integer(*o, "restart", 0));
        }
        break;
      case OpKind::Dot:
        op.precision = r.name<DotPrecision>(*o, "precision", allPrecisions);
        break;
      }
      p.ops.push_back(std::move(op));
    }
  }
  if (!r.error.empty())
    return llvm::createStringError(r.error);
  std::string problem = verifyProgram(p);
  if (!problem.empty())
    return llvm::createStringError("invalid program: " + problem);
  return p;
}
