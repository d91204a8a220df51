//===- SharedMemory.cpp - Tiles in shared memory
//---------------------------===//
//
// The shared layout, the memdesc type and the operations that allocate,
// fill (cp.async) and read (ldmatrix) tiles in shared memory.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/Layout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"

void TileGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// SharedEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           ArrayRef<unsigned> order, unsigned columnsPerBlock) {
  for (auto [name, value] : {std::pair<StringRef, unsigned>{"vec", vec},
                             {"perPhase", perPhase},
                             {"maxPhase", maxPhase}})
    if (value == 0 || !llvm::isPowerOf2_32(value))
      return emitError() << "a shared layout's " << name
                         << " is a power of two, got " << value;
  if (order.size() != 2 ||
      !((order[0] == 0 && order[1] == 1) || (order[0] == 1 && order[1] == 0)))
    return emitError() << "a shared layout lays out rank-2 tiles; its order "
                          "is [1, 0] or [0, 1]";
  if (columnsPerBlock != 0 && !llvm::isPowerOf2_32(columnsPerBlock))
    return emitError() << "a shared layout's columnsPerBlock is 0 or a power "
                          "of two, got "
                       << columnsPerBlock;
  return success();
}

//===----------------------------------------------------------------------===//
// MemDescType
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseGreater())
    return {};
  return MemDescType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType, encoding);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t size : getShape())
    printer << size << "x";
  printer << getElementType() << ", " << getEncoding() << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding) {
  if (!isa<SharedEncodingAttr>(encoding))
    return emitError() << "a memdesc's layout is a #tilegpu.shared layout, "
                          "not "
                       << encoding;
  if (shape.size() != 2 && shape.size() != 3)
    return emitError() << "a memdesc holds a rank-2 tile, or a ring of them "
                          "(rank 3), not rank "
                       << shape.size();
  if (shape.front() <= 0)
    return emitError() << "a memdesc's dimensions are positive, got "
                       << shape.front();
  for (int64_t size : shape.take_back(2))
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return emitError() << "a memdesc's tile dimensions are powers of two, "
                            "got "
                         << size;
  auto shared = cast<SharedEncodingAttr>(encoding);
  int64_t rowLength = shape.take_back(2)[shared.getOrder()[0]];
  if (int64_t block = shared.getColumnsPerBlock()) {
    if (block > rowLength)
      return emitError() << "a row of " << rowLength
                         << " elements cannot be cut into blocks of " << block
                         << " columns";
    rowLength = block;
  }
  if (int64_t(shared.getVec()) * shared.getMaxPhase() > rowLength)
    return emitError() << "a row of " << rowLength
                       << " elements cannot hold the swizzle's "
                       << shared.getMaxPhase() << " groups of "
                       << shared.getVec() << " elements";
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() < 8)
    return emitError() << "a memdesc holds integers or floats of at least a "
                          "byte, not "
                       << elementType;
  return success();
}

int64_t MemDescType::getSizeInBytes() const {
  int64_t elements = 1;
  for (int64_t size : getShape())
    elements *= size;
  return elements * getElementType().getIntOrFloatBitWidth() / 8;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getRank() != 3 || result.getRank() != 2 ||
      src.getShape().drop_front() != result.getShape() ||
      src.getElementType() != result.getElementType() ||
      src.getEncoding() != result.getEncoding())
    return emitOpError("picks a ")
           << result << " from a " << src
           << "; expected the source's shape without its leading dimension, "
              "and its element type and layout";
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  RankedTensorType ptr = getPtr().getType();
  MemDescType dst = getDst().getType();
  auto pointer = dyn_cast<tile::PointerType>(ptr.getElementType());
  if (!pointer)
    return emitOpError("copies from a tile of pointers, not ") << ptr;
  if (ptr.getShape() != dst.getShape() ||
      pointer.getPointeeType() != dst.getElementType())
    return emitOpError("copies ")
           << ptr << " into " << dst
           << "; expected the same shape and the pointers' element type";
  if (!ptr.getEncoding())
    return emitOpError("needs pointers with a layout");
  // Threads holding the same elements would all copy them: racing writes
  // of one address (and a masked-off copy writes zeros).
  FailureOr<LayoutBits> bits = getLayoutBits(ptr);
  if (succeeded(bits) && (bits->getFreeLaneMask() || bits->getFreeWarpMask()))
    return emitOpError("needs a layout that gives each element to one "
                       "thread; ")
           << ptr.getEncoding()
           << " gives some to several threads, which would all write them";
  if (Value mask = getMask()) {
    auto type = cast<RankedTensorType>(mask.getType());
    if (type.getShape() != ptr.getShape() ||
        !type.getElementType().isInteger(1) ||
        type.getEncoding() != ptr.getEncoding())
      return emitOpError("needs a mask of i1 in the pointers' shape and "
                         "layout, got ")
             << type;
  }
  return success();
}

LogicalResult LocalLoadOp::verify() {
  MemDescType src = getSrc().getType();
  RankedTensorType result = getType();
  if (src.getElementType() != result.getElementType() ||
      src.getRank() != result.getRank() ||
      (!getOffsets() && src.getShape() != result.getShape()))
    return emitOpError("loads ")
           << result << " from " << src
           << "; expected the buffer's shape and element type";
  if (std::optional<ArrayRef<int64_t>> offsets = getOffsets()) {
    if (offsets->size() != src.getShape().size())
      return emitOpError("has ")
             << offsets->size() << " offsets for a buffer of rank "
             << src.getRank();
    for (auto [offset, size, whole] :
         llvm::zip_equal(*offsets, result.getShape(), src.getShape()))
      if (offset < 0 || offset % size != 0 || offset + size > whole)
        return emitOpError("loads a part of ")
               << size << " at " << offset << " of a dimension of " << whole
               << "; expected a multiple of the part's size, within the "
                  "buffer";
  }
  if (!result.getEncoding())
    return emitOpError("needs a result with a layout");
  return success();
}
