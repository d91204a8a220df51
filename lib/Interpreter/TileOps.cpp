//===- TileOps.cpp - Interpreting the tile dialect ------------------------===//
//
// Program ids, tile construction, pointer arithmetic, memory accesses,
// reductions, matrix products and exp.
//
// Loads and stores go through pointers with provenance: each pointer knows
// the kernel argument whose buffer it was derived from and its offset in
// elements, so every lane that the mask enables is checked against that
// buffer's bounds, and a lane out of bounds is an error on the op.
//
// Reductions: `max` propagates NaN, as arith.maximumf does (integers compare
// signed). `sum` of floats adds in f32 (f16 and bf16 are widened first and
// the sum is rounded once) in a fixed tree order: padded with -0.0 to a
// power of two P, then x[i] += x[i + P/2], x[i] += x[i + P/4], ... until one
// value is left. This is the pairwise order of a GPU tree reduction, whose
// rounding error grows with log2(n) rather than n.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "Executor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interpreter;

//===----------------------------------------------------------------------===//
// Making tiles
//===----------------------------------------------------------------------===//

static RuntimeValue splat(const RuntimeValue &scalar, ArrayRef<int64_t> shape) {
  RuntimeValue result = RuntimeValue::allocate(scalar.getDataType(), shape);
  dispatchBySize(getStorageSize(scalar.getDataType()), [&](auto tag) {
    using T = decltype(tag);
    T value = scalar.getData<T>()[0];
    T *out = result.getData<T>();
    std::fill_n(out, result.getNumElements(), value);
  });
  return result;
}

static RuntimeValue broadcast(const RuntimeValue &source,
                              ArrayRef<int64_t> shape) {
  RuntimeValue result = RuntimeValue::allocate(source.getDataType(), shape);
  int64_t rank = shape.size();
  // The source's stride along each dimension, 0 where it is repeated.
  SmallVector<int64_t, 4> strides(rank, 0);
  int64_t stride = 1;
  for (int64_t dim = rank - 1; dim >= 0; --dim) {
    strides[dim] = source.getShape()[dim] == 1 ? 0 : stride;
    stride *= source.getShape()[dim];
  }
  dispatchBySize(getStorageSize(source.getDataType()), [&](auto tag) {
    using T = decltype(tag);
    const T *in = source.getData<T>();
    T *out = result.getData<T>();
    SmallVector<int64_t, 4> position(rank, 0);
    int64_t offset = 0;
    for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
      out[i] = in[offset];
      // Step the position in C order, keeping the source offset in step.
      for (int64_t dim = rank - 1; dim >= 0; --dim) {
        offset += strides[dim];
        if (++position[dim] < shape[dim])
          break;
        offset -= strides[dim] * shape[dim];
        position[dim] = 0;
      }
    }
  });
  return result;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Checks lane `index` of a memory access through `pointer` to elements of
/// `type`, and returns the address of the element it accesses, or null
/// after reporting an error.
static uint8_t *getElementAddress(Executor &executor, Operation *op,
                                  DataType type, ArrayRef<int64_t> shape,
                                  int64_t index, const Pointer &pointer) {
  HostBuffer *buffer = executor.getBuffer(pointer.buffer);
  auto lane = [&] { return describeLane(shape, index, "the pointer"); };
  if (!buffer) {
    executor.emitError(op) << "invalid " << op->getName() << ": " << lane()
                           << " does not point into a buffer";
    return nullptr;
  }
  if (buffer->getDataType() != type) {
    executor.emitError(op) << "type mismatch in " << op->getName() << ": "
                           << lane() << " is a pointer to "
                           << getDataTypeName(type) << " into buffer "
                           << pointer.buffer << " (" << buffer->getDescription()
                           << ")";
    return nullptr;
  }
  if (pointer.offset < 0 || pointer.offset >= buffer->getNumElements()) {
    executor.emitError(op) << "out-of-bounds " << op->getName() << ": buffer "
                           << pointer.buffer << " (" << buffer->getDescription()
                           << ") has " << buffer->getNumElements()
                           << " elements, " << lane() << " accesses element "
                           << pointer.offset;
    return nullptr;
  }
  return buffer->getData() + pointer.offset * getDataTypeSize(type);
}

static Type getPointeeType(Value pointers) {
  return cast<PointerType>(getElementTypeOrSelf(pointers.getType()))
      .getPointeeType();
}

// A tensor descriptor is held as i64 values: the base's buffer and offset,
// then the sizes, then the strides (in elements).
static LogicalResult runMakeTensorDesc(Executor &executor,
                                       MakeTensorDescOp op) {
  TensorDescType type = op.getType();
  unsigned rank = type.getRank();
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  const Pointer &base = *executor.lookup(op.getBase()).getData<Pointer>();
  if (base.offset * elementBytes % 16 != 0) {
    executor.emitError(op) << "invalid tile.make_tensor_desc: the base is "
                           << base.offset * elementBytes
                           << " bytes into its buffer; a descriptor's base "
                              "must be aligned to 16 bytes";
    return failure();
  }
  RuntimeValue desc = RuntimeValue::allocate(DataType::I64, {2 + 2 * rank});
  int64_t *fields = desc.getData<int64_t>();
  fields[0] = base.buffer;
  fields[1] = base.offset;
  std::string broken =
      checkTensorDescValues(op, [&](Value value) -> std::optional<int64_t> {
        return executor.lookup(value).getInteger();
      });
  if (!broken.empty()) {
    executor.emitError(op) << "invalid tile.make_tensor_desc: " << broken;
    return failure();
  }
  for (unsigned d = 0; d < rank; ++d) {
    fields[2 + d] = executor.lookup(op.getShape()[d]).getInteger();
    fields[2 + rank + d] = executor.lookup(op.getStrides()[d]).getInteger();
  }
  executor.bind(op.getResult(), desc);
  return success();
}

/// Reads each lane i of `result` (of `dataType`) from the address
/// `addressOf(i)` gives, checked against its buffer as every access is
/// (getElementAddress); a lane it gives none for keeps `fill`'s element
/// where there is one, else the zero `result` was allocated with. Fails at
/// the first address outside a buffer.
static LogicalResult
readLanes(Executor &executor, Operation *op, DataType dataType,
          RuntimeValue &result, const RuntimeValue *fill,
          llvm::function_ref<std::optional<Pointer>(int64_t)> addressOf) {
  LogicalResult status = success();
  dispatchBySize(getDataTypeSize(dataType), [&](auto tag) {
    using T = decltype(tag);
    T *out = result.getData<T>();
    const T *fillData = fill ? fill->getData<T>() : nullptr;
    for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
      std::optional<Pointer> pointer = addressOf(i);
      if (!pointer) {
        if (fillData)
          out[i] = fillData[i];
        continue;
      }
      uint8_t *address = getElementAddress(executor, op, dataType,
                                           result.getShape(), i, *pointer);
      if (!address) {
        status = failure();
        return;
      }
      std::memcpy(&out[i], address, sizeof(T));
    }
  });
  return status;
}

// The box at the offsets; lanes outside the tensor read as zero, and the
// others are checked against the base's buffer as tile.load's are.
static LogicalResult runDescLoad(Executor &executor, DescLoadOp op) {
  TensorDescType type = op.getDesc().getType();
  unsigned rank = type.getRank();
  const int64_t *fields = executor.lookup(op.getDesc()).getData<int64_t>();
  SmallVector<int64_t, 2> offsets;
  for (Value offset : op.getOffsets())
    offsets.push_back(executor.lookup(offset).getInteger());
  DataType dataType = *getDataType(type.getElementType());
  RuntimeValue result = RuntimeValue::allocate(dataType, type.getBlockShape());
  ArrayRef<int64_t> box = type.getBlockShape();
  auto addressOf = [&](int64_t i) -> std::optional<Pointer> {
    int64_t element = fields[1];
    for (int64_t d = rank - 1, rest = i; d >= 0; --d) {
      int64_t coordinate = offsets[d] + rest % box[d];
      rest /= box[d];
      if (coordinate < 0 || coordinate >= fields[2 + d])
        return std::nullopt;
      element += coordinate * fields[2 + rank + d];
    }
    return Pointer{element, fields[0]};
  };
  if (failed(readLanes(executor, op, dataType, result, /*fill=*/nullptr,
                       addressOf)))
    return failure();
  executor.bind(op.getResult(), result);
  return success();
}

static LogicalResult runLoad(Executor &executor, LoadOp op) {
  const RuntimeValue &pointers = executor.lookup(op.getPtr());
  const uint8_t *mask =
      op.getMask() ? executor.lookup(op.getMask()).getData<uint8_t>() : nullptr;
  const RuntimeValue *other =
      op.getOther() ? &executor.lookup(op.getOther()) : nullptr;
  Type pointee = getPointeeType(op.getPtr());
  DataType type = *getDataType(pointee);
  // Masked lanes without `other` are undefined; they read as zero.
  RuntimeValue result =
      RuntimeValue::allocate(*getElementDataType(pointee), pointers.getShape());
  const Pointer *addresses = pointers.getData<Pointer>();
  auto addressOf = [&](int64_t i) -> std::optional<Pointer> {
    if (mask && !mask[i])
      return std::nullopt;
    return addresses[i];
  };
  if (failed(readLanes(executor, op, type, result, other, addressOf)))
    return failure();
  executor.bind(op.getResult(), result);
  return success();
}

static LogicalResult runStore(Executor &executor, StoreOp op) {
  const RuntimeValue &pointers = executor.lookup(op.getPtr());
  const RuntimeValue &value = executor.lookup(op.getValue());
  const uint8_t *mask =
      op.getMask() ? executor.lookup(op.getMask()).getData<uint8_t>() : nullptr;
  DataType type = *getDataType(getPointeeType(op.getPtr()));
  const Pointer *addresses = pointers.getData<Pointer>();
  // Lanes store in order, so of two lanes storing to one element the last
  // one wins (on a GPU, the winner is unspecified).
  LogicalResult status = success();
  bool record = executor.isRecordingStores();
  SmallVector<int64_t> recorded;
  int64_t recordedBuffer = -1;
  auto flush = [&] {
    executor.recordStores(recordedBuffer, recorded);
    recorded.clear();
  };
  dispatchBySize(getDataTypeSize(type), [&](auto tag) {
    using T = decltype(tag);
    const T *in = value.getData<T>();
    for (int64_t i = 0, e = pointers.getNumElements(); i < e; ++i) {
      if (mask && !mask[i])
        continue;
      uint8_t *address = getElementAddress(
          executor, op, type, pointers.getShape(), i, addresses[i]);
      if (!address) {
        status = failure();
        return;
      }
      std::memcpy(address, &in[i], sizeof(T));
      if (!record)
        continue;
      if (addresses[i].buffer != recordedBuffer) {
        flush();
        recordedBuffer = addresses[i].buffer;
      }
      recorded.push_back(addresses[i].offset);
    }
  });
  if (record)
    flush();
  return status;
}

static LogicalResult runAtomicAdd(Executor &executor, AtomicAddOp op) {
  const RuntimeValue &pointers = executor.lookup(op.getPtr());
  const RuntimeValue &value = executor.lookup(op.getValue());
  const uint8_t *mask =
      op.getMask() ? executor.lookup(op.getMask()).getData<uint8_t>() : nullptr;
  DataType type = *getDataType(getPointeeType(op.getPtr()));
  const Pointer *addresses = pointers.getData<Pointer>();
  bool isFloat = getPointeeType(op.getPtr()).isF32();
  // Programs run one after the other and lanes in order: every addition
  // happens, in that order (on a GPU, in an unspecified one). i32 wraps.
  for (int64_t i = 0, e = pointers.getNumElements(); i < e; ++i) {
    if (mask && !mask[i])
      continue;
    uint8_t *address = getElementAddress(executor, op, type,
                                         pointers.getShape(), i, addresses[i]);
    if (!address)
      return failure();
    if (isFloat) {
      float sum, add = value.getData<float>()[i];
      std::memcpy(&sum, address, sizeof(float));
      sum += add;
      std::memcpy(address, &sum, sizeof(float));
    } else {
      uint32_t sum, add;
      std::memcpy(&add, &value.getData<int32_t>()[i], sizeof(add));
      std::memcpy(&sum, address, sizeof(sum));
      sum += add;
      std::memcpy(address, &sum, sizeof(sum));
    }
    if (executor.isRecordingStores())
      executor.recordStores(addresses[i].buffer, {addresses[i].offset});
  }
  return success();
}

static LogicalResult runAddPtr(Executor &executor, AddPtrOp op) {
  const RuntimeValue &pointers = executor.lookup(op.getPtr());
  IntView offsets(executor.lookup(op.getOffset()));
  RuntimeValue result =
      RuntimeValue::allocate(DataType::Ptr, pointers.getShape());
  const Pointer *in = pointers.getData<Pointer>();
  Pointer *out = result.getData<Pointer>();
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
    int64_t offset;
    if (llvm::AddOverflow(in[i].offset, offsets[i], offset))
      return executor.emitError(op)
             << "pointer arithmetic overflows in tile.addptr at "
             << describeLane(pointers.getShape(), i, "the pointer") << ": "
             << in[i].offset << " + " << offsets[i];
    out[i] = Pointer{offset, in[i].buffer};
  }
  executor.bind(op.getResult(), result);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Sums `values[0, n)` in tree order; `values` has room for n rounded up to
/// a power of two.
static float treeSum(float *values, int64_t n) {
  if (n == 0)
    return 0.0f;
  int64_t padded = llvm::PowerOf2Ceil(n);
  std::fill(values + n, values + padded, -0.0f);
  for (int64_t half = padded / 2; half >= 1; half /= 2)
    for (int64_t i = 0; i < half; ++i)
      values[i] += values[i + half];
  return values[0];
}

static RuntimeValue reduce(const RuntimeValue &source, ReduceKind reduceKind,
                           int64_t axis) {
  ArrayRef<int64_t> shape = source.getShape();
  int64_t outer = 1, inner = 1, length = shape[axis];
  for (int64_t dim = 0; dim < axis; ++dim)
    outer *= shape[dim];
  for (int64_t dim = axis + 1, e = shape.size(); dim < e; ++dim)
    inner *= shape[dim];
  SmallVector<int64_t, 4> resultShape(shape);
  resultShape.erase(resultShape.begin() + axis);
  // Result element r reduces source elements base(r) + j * inner.
  auto base = [&](int64_t r) {
    return (r / inner) * length * inner + r % inner;
  };
  DataType kind = source.getDataType();

  if (isFloatDataType(kind)) {
    FloatView a(source);
    std::vector<float> scratch(
        llvm::PowerOf2Ceil(std::max<int64_t>(length, 1)));
    // One result element, reduced in the order the GPU reduces it.
    struct ReduceFloats {
      FloatView &a;
      std::vector<float> &scratch;
      int64_t start, length, inner;
      float operator()(SumReduction) const {
        for (int64_t j = 0, k = start; j < length; ++j, k += inner)
          scratch[j] = a[k];
        return treeSum(scratch.data(), length);
      }
      float operator()(MaxReduction) const {
        float max = -std::numeric_limits<float>::infinity();
        for (int64_t j = 0, k = start; j < length; ++j, k += inner)
          max = maximumF(max, a[k]);
        return max;
      }
    };
    std::vector<float> results(outer * inner);
    for (int64_t r = 0, e = outer * inner; r < e; ++r)
      results[r] = visitReduceKind(
          reduceKind, ReduceFloats{a, scratch, base(r), length, inner});
    return makeFloats(kind, resultShape, [&](int64_t i) { return results[i]; });
  }

  IntView a(source);
  struct ReduceIntegers {
    IntView &a;
    int64_t start, length, inner;
    int64_t operator()(SumReduction) const {
      uint64_t sum = 0;
      for (int64_t j = 0, k = start; j < length; ++j, k += inner)
        sum += static_cast<uint64_t>(a[k]);
      return static_cast<int64_t>(sum);
    }
    int64_t operator()(MaxReduction) const {
      int64_t max = std::numeric_limits<int64_t>::min();
      for (int64_t j = 0, k = start; j < length; ++j, k += inner)
        max = std::max(max, a[k]);
      return max;
    }
  };
  return makeIntegers(kind, resultShape, [&](int64_t r) {
    return visitReduceKind(reduceKind,
                           ReduceIntegers{a, base(r), length, inner});
  });
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// The values the programs of a cluster brought to a tile.cluster_reduce,
/// combined in order of rank as the GPU combines them (f16 and bf16 in
/// f32, then rounded).
static RuntimeValue combineInRankOrder(ArrayRef<RuntimeValue> values,
                                       ReduceKind reduceKind) {
  DataType kind = values.front().getDataType();
  if (isFloatDataType(kind)) {
    struct Combine {
      float lhs, rhs;
      float operator()(SumReduction) const { return lhs + rhs; }
      float operator()(MaxReduction) const { return maximumF(lhs, rhs); }
    };
    float total = FloatView(values.front())[0];
    for (const RuntimeValue &value : values.drop_front())
      total = visitReduceKind(reduceKind, Combine{total, FloatView(value)[0]});
    return makeFloats(kind, {}, [&](int64_t) { return total; });
  }
  struct Combine {
    int64_t lhs, rhs;
    int64_t operator()(SumReduction) const {
      return static_cast<int64_t>(static_cast<uint64_t>(lhs) +
                                  static_cast<uint64_t>(rhs));
    }
    int64_t operator()(MaxReduction) const { return std::max(lhs, rhs); }
  };
  int64_t total = IntView(values.front())[0];
  for (const RuntimeValue &value : values.drop_front())
    total = visitReduceKind(reduceKind, Combine{total, IntView(value)[0]});
  return makeIntegers(kind, {}, [&](int64_t) { return total; });
}

/// Value `i` of each rank's values.
static SmallVector<RuntimeValue>
getColumn(ArrayRef<SmallVector<RuntimeValue>> byRank, int64_t i) {
  SmallVector<RuntimeValue> column;
  for (const SmallVector<RuntimeValue> &rankValues : byRank)
    column.push_back(rankValues[i]);
  return column;
}

/// Each value of the ranks combined by `kind` in order of rank.
static SmallVector<RuntimeValue>
combineColumns(ArrayRef<SmallVector<RuntimeValue>> byRank, ReduceKind kind) {
  SmallVector<RuntimeValue> combined;
  for (int64_t i = 0, e = byRank.front().size(); i < e; ++i)
    combined.push_back(combineInRankOrder(getColumn(byRank, i), kind));
  return combined;
}

/// The ranks' (maximum, sum of exponentials) pairs merged in order of rank
/// (in f32, then rounded, as the GPU does), from the identity (-inf, -0.0)
/// as on the GPU: the maximum M of the m, and the sum of the s rescaled to
/// it, s exp(m - M), with M taken as 0 in the exponents where it is -inf
/// (a sum of s exp(-inf), 0). An m of NaN or +inf makes the sum NaN.
static SmallVector<RuntimeValue>
mergeLogSumExp(ArrayRef<SmallVector<RuntimeValue>> byRank) {
  const float infinity = std::numeric_limits<float>::infinity();
  SmallVector<RuntimeValue> merged;
  for (int64_t i = 0, e = byRank.front().size(); i + 1 < e; i += 2) {
    SmallVector<RuntimeValue> maxima = getColumn(byRank, i);
    SmallVector<RuntimeValue> sums = getColumn(byRank, i + 1);
    float m = -infinity, s = -0.0f;
    for (size_t r = 0; r < maxima.size(); ++r) {
      float mr = FloatView(maxima[r])[0], sr = FloatView(sums[r])[0];
      float total = maximumF(m, mr);
      float shift = total == -infinity ? 0.0f : total;
      s = s * std::exp(m - shift) + sr * std::exp(mr - shift);
      m = total;
    }
    merged.push_back(makeFloats(maxima.front().getDataType(), {},
                                [&](int64_t) { return m; }));
    merged.push_back(
        makeFloats(sums.front().getDataType(), {}, [&](int64_t) { return s; }));
  }
  return merged;
}

/// The program of rank `rank` brings `values` to `meeting` (its cluster's
/// or its grid's), and gets them combined over the group by `combine` (each
/// rank's values, in order of rank), as `op`'s results.
static LogicalResult meetAndCombine(Executor &executor, Operation *op,
                                    ClusterMeeting &meeting, int64_t rank,
                                    SmallVector<RuntimeValue> values,
                                    ClusterMeeting::Combine combine) {
  FailureOr<SmallVector<RuntimeValue>> combined =
      meeting.meet(executor, op, rank, std::move(values), combine);
  if (failed(combined))
    return failure();
  for (auto [result, value] : llvm::zip_equal(op->getResults(), *combined))
    executor.bind(result, value);
  return success();
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

/// `value` rounded to TF32 (10 mantissa bits) to nearest, ties away from
/// zero, as cvt.rna.tf32.f32 does; NaN and infinities unchanged.
static float roundToTF32(float value) {
  if (!std::isfinite(value))
    return value;
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  bits = (bits + 0x1000u) & ~0x1fffu;
  std::memcpy(&value, &bits, sizeof(bits));
  return value;
}

/// d = a @ b + c with f32 accumulation: for each element, c's value plus
/// the products in order of k, each added with one rounding (an FMA). The
/// inputs are widened exactly to f32 (f16, bf16) or rounded to TF32 first.
static RuntimeValue dot(DotOp op, const RuntimeValue &a, const RuntimeValue &b,
                        const RuntimeValue &c) {
  int64_t m = a.getShape()[0], k = a.getShape()[1], n = b.getShape()[1];
  bool tf32 = a.getDataType() == DataType::F32 &&
              op.getPrecision() == InputPrecision::tf32;
  auto widen = [&](const RuntimeValue &value) {
    FloatView view(value);
    std::vector<float> result(value.getNumElements());
    for (int64_t i = 0, e = value.getNumElements(); i < e; ++i)
      result[i] = tf32 ? roundToTF32(view[i]) : view[i];
    return result;
  };
  std::vector<float> lhs = widen(a), rhs = widen(b);
  RuntimeValue result = RuntimeValue::allocate(DataType::F32, c.getShape());
  const float *acc = c.getData<float>();
  float *out = result.getData<float>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float sum = acc[i * n + j];
      for (int64_t l = 0; l < k; ++l)
        sum = std::fma(lhs[i * k + l], rhs[l * n + j], sum);
      out[i * n + j] = sum;
    }
  return result;
}

void interpreter::registerTileHandlers(HandlerTable &table) {
  auto bindI32 = [](Executor &executor, Operation *op, int32_t value) {
    executor.bind(
        op->getResult(0),
        makeIntegers(DataType::I32, {}, [&](int64_t) { return value; }));
    return success();
  };
  table.add<ClusterRankOp>([=](Executor &executor, Operation *op) {
    return bindI32(executor, op,
                   executor.getProgramId(0) % executor.getClusterSize());
  });
  table.add<ClusterIdOp>([=](Executor &executor, Operation *op) {
    return bindI32(executor, op,
                   executor.getProgramId(0) / executor.getClusterSize());
  });
  table.add<NumClustersOp>([=](Executor &executor, Operation *op) {
    return bindI32(executor, op,
                   executor.getNumPrograms(0) / executor.getClusterSize());
  });
  table.add<ClusterReduceOp>([](Executor &executor,
                                Operation *op) -> LogicalResult {
    auto reduceOp = cast<ClusterReduceOp>(op);
    SmallVector<RuntimeValue> values;
    for (Value value : reduceOp.getValues())
      values.push_back(executor.lookup(value));
    ClusterMeeting *meeting = executor.getClusterMeeting();
    if (executor.getClusterSize() == 1 || !meeting) {
      // A cluster of one: the program's own values (the meeting, if any,
      // is the grid's).
      for (auto [result, value] : llvm::zip(reduceOp.getReduced(), values))
        executor.bind(result, value);
      return success();
    }
    ReduceKind kind = reduceOp.getKind();
    return meetAndCombine(executor, op, *meeting,
                          executor.getProgramId(0) % executor.getClusterSize(),
                          std::move(values),
                          [&](ArrayRef<SmallVector<RuntimeValue>> byRank) {
                            return combineColumns(byRank, kind);
                          });
  });
  table.add<GridReduceOp>([](Executor &executor,
                             Operation *op) -> LogicalResult {
    auto reduceOp = cast<GridReduceOp>(op);
    SmallVector<RuntimeValue> values;
    for (Value value : reduceOp.getValues())
      values.push_back(executor.lookup(value));
    ClusterMeeting *meeting = executor.getClusterMeeting();
    if (!meeting)
      return executor.emitError(op)
             << "the grid's programs do not run together (an interpreter bug)";
    struct Combine {
      ArrayRef<SmallVector<RuntimeValue>> byRank;
      SmallVector<RuntimeValue> operator()(SumReduction) const {
        return combineColumns(byRank, ReduceKind::sum);
      }
      SmallVector<RuntimeValue> operator()(MaxReduction) const {
        return combineColumns(byRank, ReduceKind::max);
      }
      SmallVector<RuntimeValue> operator()(LogSumExpReduction) const {
        return mergeLogSumExp(byRank);
      }
    };
    GridReduceKind kind = reduceOp.getKind();
    return meetAndCombine(executor, op, *meeting, executor.getLinearProgramId(),
                          std::move(values),
                          [&](ArrayRef<SmallVector<RuntimeValue>> byRank) {
                            return visitGridReduceKind(kind, Combine{byRank});
                          });
  });
  table.add<ProgramIdOp>([](Executor &executor,
                            Operation *op) -> LogicalResult {
    int32_t id = executor.getProgramId(
        static_cast<unsigned>(cast<ProgramIdOp>(op).getAxis()));
    executor.bind(op->getResult(0),
                  makeIntegers(DataType::I32, {}, [&](int64_t) { return id; }));
    return success();
  });
  table.add<NumProgramsOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        int32_t size = executor.getNumPrograms(
            static_cast<unsigned>(cast<NumProgramsOp>(op).getAxis()));
        executor.bind(
            op->getResult(0),
            makeIntegers(DataType::I32, {}, [&](int64_t) { return size; }));
        return success();
      });
  table.add<RangeOp>([](Executor &executor, Operation *op) -> LogicalResult {
    auto range = cast<RangeOp>(op);
    int64_t start = static_cast<int32_t>(range.getStart());
    executor.bind(range.getResult(),
                  makeIntegers(DataType::I32, range.getType().getShape(),
                               [&](int64_t i) { return start + i; }));
    return success();
  });
  table.add<SplatOp>([](Executor &executor, Operation *op) -> LogicalResult {
    auto splatOp = cast<SplatOp>(op);
    executor.bind(splatOp.getResult(), splat(executor.lookup(splatOp.getSrc()),
                                             splatOp.getType().getShape()));
    return success();
  });
  table.add<BroadcastOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        auto broadcastOp = cast<BroadcastOp>(op);
        executor.bind(broadcastOp.getResult(),
                      broadcast(executor.lookup(broadcastOp.getSrc()),
                                broadcastOp.getType().getShape()));
        return success();
      });
  table.add<ExpandDimsOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        auto expandOp = cast<ExpandDimsOp>(op);
        executor.bind(expandOp.getResult(),
                      executor.lookup(expandOp.getSrc())
                          .reshape(expandOp.getType().getShape()));
        return success();
      });
  table.add<AddPtrOp>([](Executor &executor, Operation *op) -> LogicalResult {
    return runAddPtr(executor, cast<AddPtrOp>(op));
  });
  table.add<LoadOp>([](Executor &executor, Operation *op) -> LogicalResult {
    return runLoad(executor, cast<LoadOp>(op));
  });
  table.add<MakeTensorDescOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        return runMakeTensorDesc(executor, cast<MakeTensorDescOp>(op));
      });
  table.add<DescLoadOp>([](Executor &executor, Operation *op) -> LogicalResult {
    return runDescLoad(executor, cast<DescLoadOp>(op));
  });
  table.add<StoreOp>([](Executor &executor, Operation *op) -> LogicalResult {
    return runStore(executor, cast<StoreOp>(op));
  });
  table.add<AtomicAddOp>(
      [](Executor &executor, Operation *op) -> LogicalResult {
        return runAtomicAdd(executor, cast<AtomicAddOp>(op));
      });
  table.add<ReduceOp>([](Executor &executor, Operation *op) -> LogicalResult {
    auto reduceOp = cast<ReduceOp>(op);
    executor.bind(reduceOp.getResult(),
                  reduce(executor.lookup(reduceOp.getSrc()), reduceOp.getKind(),
                         static_cast<int32_t>(reduceOp.getAxis())));
    return success();
  });
  table.add<DotOp>([](Executor &executor, Operation *op) -> LogicalResult {
    auto dotOp = cast<DotOp>(op);
    executor.bind(dotOp.getD(), dot(dotOp, executor.lookup(dotOp.getA()),
                                    executor.lookup(dotOp.getB()),
                                    executor.lookup(dotOp.getC())));
    return success();
  });
  table.add<ExpOp>([](Executor &executor, Operation *op) -> LogicalResult {
    const RuntimeValue &source = executor.lookup(op->getOperand(0));
    FloatView a(source);
    executor.bind(op->getResult(0),
                  makeFloats(source.getDataType(), source.getShape(),
                             [&](int64_t i) { return std::exp(a[i]); }));
    return success();
  });
  // Each element widened exactly to f32, then rounded once (to nearest,
  // ties to even) to the result type, as arith.extf and arith.truncf do.
  table.add<CastOp>([](Executor &executor, Operation *op) -> LogicalResult {
    auto castOp = cast<CastOp>(op);
    const RuntimeValue &source = executor.lookup(castOp.getX());
    FloatView a(source);
    executor.bind(castOp.getResult(),
                  makeFloats(*getElementDataType(castOp.getType()),
                             source.getShape(),
                             [&](int64_t i) { return a[i]; }));
    return success();
  });
}
