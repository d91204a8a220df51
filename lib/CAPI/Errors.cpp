//===- Errors.cpp - The C API's status, errors and types ------------------===//
//
// The last error of each thread (tile_last_error), the library's version,
// and the element types' names.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "tile/Runtime/Compiler.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::capi;

static_assert(TILE_DTYPE_F16 == static_cast<int>(DataType::F16) &&
                  TILE_DTYPE_BF16 == static_cast<int>(DataType::BF16) &&
                  TILE_DTYPE_F32 == static_cast<int>(DataType::F32) &&
                  TILE_DTYPE_I1 == static_cast<int>(DataType::I1) &&
                  TILE_DTYPE_I32 == static_cast<int>(DataType::I32) &&
                  TILE_DTYPE_I64 == static_cast<int>(DataType::I64) &&
                  TILE_DTYPE_F8E4M3FN == static_cast<int>(DataType::F8E4M3FN) &&
                  TILE_DTYPE_F8E5M2 == static_cast<int>(DataType::F8E5M2),
              "tile_dtype mirrors DataType");
static_assert(sizeof(tile_launch_packet) == 32,
              "the packet's values start 32 bytes in");

/// The message of the last error on this thread.
static thread_local std::string lastError;

tile_status capi::succeed() {
  // A launch's hot path: no write when there is nothing to clear.
  if (!lastError.empty())
    lastError.clear();
  return TILE_SUCCESS;
}

tile_status capi::fail(tile_status status, const llvm::Twine &message) {
  lastError = message.str();
  return status;
}

std::optional<DataType> capi::toDataType(int32_t value) {
  switch (value) {
  case TILE_DTYPE_F16:
  case TILE_DTYPE_BF16:
  case TILE_DTYPE_F32:
  case TILE_DTYPE_I1:
  case TILE_DTYPE_I32:
  case TILE_DTYPE_I64:
  case TILE_DTYPE_F8E4M3FN:
  case TILE_DTYPE_F8E5M2:
    return static_cast<DataType>(value);
  default:
    return std::nullopt;
  }
}

const char *tile_last_error(void) { return lastError.c_str(); }

const char *tile_version(void) { return getCompilerVersion().data(); }

const char *tile_dtype_name(int32_t dtype) {
  std::optional<DataType> type = toDataType(dtype);
  return type ? getDataTypeName(*type).data() : "";
}
