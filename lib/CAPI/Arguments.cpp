//===- Arguments.cpp - The C API's arguments ------------------------------===//
//
// tile_arg checked against a kernel's signature, and turned into the
// runtime's KernelArgs: scalars, shapes alone (for choosing and
// specializing), or copies of the buffers (for the interpreter's check).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "tile/Runtime/TuningCache.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::capi;

/// "argument 1 (input)".
std::string capi::describeArgument(const tile_kernel &kernel, size_t index) {
  std::string text = "argument " + std::to_string(index);
  if (index < kernel.params.names.size() && !kernel.params.names[index].empty())
    text += " (" + kernel.params.names[index] + ")";
  return text;
}

/// The largest power of two up to 16 that divides `value` (16 for 0).
int64_t capi::getAlignment(uint64_t value) {
  return value == 0
             ? 16
             : std::min<int64_t>(16, int64_t(1) << llvm::countr_zero(value));
}

/// Checks the number and kinds of `args` against the kernel's signature.
std::optional<Failure> capi::checkArguments(const tile_kernel &kernel,
                                            const tile_arg *args,
                                            size_t numArgs) {
  if (numArgs && !args)
    return Failure{TILE_ERROR_INVALID_CALL, "null arguments"};
  const KernelSource &source = *kernel.variants.front();
  if (llvm::Error err = source.checkArgumentCount(numArgs)) {
    llvm::consumeError(std::move(err));
    return Failure{TILE_ERROR_ARGUMENTS,
                   kernel.signature + " takes " +
                       std::to_string(kernel.params.infos.size()) +
                       " arguments; the launch gives " +
                       std::to_string(numArgs)};
  }
  for (size_t index = 0; index < numArgs; ++index) {
    const tile_arg &arg = args[index];
    std::optional<DataType> type = toDataType(arg.dtype);
    if (!type)
      return Failure{TILE_ERROR_INVALID_CALL, describeArgument(kernel, index) +
                                                  " has dtype " +
                                                  std::to_string(arg.dtype) +
                                                  ", which is no tile_dtype"};
    if (arg.is_buffer &&
        (arg.extent < 0 || arg.rank < 0 || (arg.rank > 0 && !arg.shape)))
      return Failure{TILE_ERROR_INVALID_CALL,
                     describeArgument(kernel, index) +
                         ": a buffer needs an extent and a shape"};
    if (llvm::Error err =
            checkArgumentType(source.getKernel().getArgumentTypes()[index],
                              *type, arg.is_buffer != 0))
      return Failure{TILE_ERROR_ARGUMENTS, describeArgument(kernel, index) +
                                               " of " + kernel.signature +
                                               ": " +
                                               llvm::toString(std::move(err))};
  }
  return std::nullopt;
}

/// A scalar argument.
Scalar capi::getScalar(const tile_arg &arg) {
  DataType type = static_cast<DataType>(arg.dtype);
  unsigned bits =
      isFloatDataType(type) ? 8 * getDataTypeSize(type) : getIntegerWidth(type);
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  return Scalar{type, arg.value & mask};
}

/// A buffer's shape: its own, or one dimension of its extent where the
/// shape does not hold exactly the extent's elements.
static SmallVector<int64_t> getBufferShape(const tile_arg &arg) {
  SmallVector<int64_t> shape(arg.shape, arg.shape + arg.rank);
  int64_t elements = 1;
  for (int64_t dim : shape)
    elements *= dim;
  if (arg.rank == 0 || elements != arg.extent)
    return {arg.extent};
  return shape;
}

/// The shape bucket of an argument for the tuning cache: by its shape, as
/// tile-run's would be for the same launch.
std::string capi::getBucket(const tile_arg &arg) {
  ArgSpec spec;
  spec.type = static_cast<DataType>(arg.dtype);
  if (arg.is_buffer) {
    spec.kind = ArgSpec::Kind::Zeros;
    if (arg.rank > 0)
      spec.shape.assign(arg.shape, arg.shape + arg.rank);
    else
      spec.shape.push_back(arg.extent);
  } else {
    spec.kind = ArgSpec::Kind::Scalar;
    spec.value = getScalar(arg);
  }
  return getShapeBucket(spec);
}

/// KernelArgs for choosing and specializing: the scalars, and an empty
/// buffer for each buffer (neither needs their contents).
SmallVector<KernelArg> capi::getShapeArgs(const tile_arg *args,
                                          size_t numArgs) {
  SmallVector<KernelArg> result;
  for (size_t index = 0; index < numArgs; ++index) {
    const tile_arg &arg = args[index];
    if (arg.is_buffer)
      result.push_back(llvm::cantFail(
          HostBuffer::create(static_cast<DataType>(arg.dtype), {0})));
    else
      result.push_back(getScalar(arg));
  }
  return result;
}

/// KernelArgs holding copies of the buffers: from host memory, or with
/// `device`, from its memory.
llvm::Expected<SmallVector<KernelArg>>
capi::copyArgs(const tile_arg *args, size_t numArgs, const CudaDevice *device) {
  SmallVector<KernelArg> result;
  for (size_t index = 0; index < numArgs; ++index) {
    const tile_arg &arg = args[index];
    if (!arg.is_buffer) {
      result.push_back(getScalar(arg));
      continue;
    }
    llvm::Expected<HostBuffer> buffer = HostBuffer::create(
        static_cast<DataType>(arg.dtype), getBufferShape(arg));
    if (!buffer)
      return llvm::createStringError("argument " + llvm::Twine(index) + ": " +
                                     llvm::toString(buffer.takeError()));
    size_t bytes = buffer->getSizeInBytes();
    if (bytes && !arg.value)
      return llvm::createStringError("argument " + llvm::Twine(index) +
                                     " is a buffer at address 0");
    if (device) {
      if (llvm::Error err =
              device->copyToHost(buffer->getData(), arg.value, bytes))
        return std::move(err);
    } else if (bytes) {
      std::memcpy(
          buffer->getData(),
          reinterpret_cast<const void *>(static_cast<uintptr_t>(arg.value)),
          bytes);
    }
    result.push_back(std::move(*buffer));
  }
  return result;
}
