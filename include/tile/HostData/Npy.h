//===- Npy.h - Reading and writing NumPy .npy files -------------*- C++ -*-===//
//
// Buffers travel between tile-run and other tools as .npy files: format
// versions 1.0 and 2.0, little-endian, C order. The dtypes map to the
// dialect's element types as follows:
//
//   <f4  f32     <f2  f16     <i4  i32     <i8  i64     |b1  i1
//   <u2  bf16, as the raw 16-bit patterns (NumPy has no bfloat16)
//
// Anything else (big-endian data, Fortran order, other or structured dtypes,
// a truncated or oversized payload) is an error that says what is wrong.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOSTDATA_NPY_H
#define TILE_HOSTDATA_NPY_H

#include "tile/HostData/HostBuffer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tile {

/// The .npy dtype of a buffer of `type` ("<f4", "<u2" for bf16, ...).
llvm::StringRef getNpyDType(DataType type);

/// Parses the contents of a .npy file into a buffer.
llvm::Expected<HostBuffer> parseNpy(llvm::MemoryBufferRef file);

/// Reads a .npy file; errors name the file.
llvm::Expected<HostBuffer> readNpyFile(llvm::StringRef path);

/// Writes `buffer` in .npy format 1.0 (2.0 if the header needs it).
void writeNpy(llvm::raw_ostream &os, const HostBuffer &buffer);

/// Writes `buffer` to a .npy file, replacing it atomically.
llvm::Error writeNpyFile(llvm::StringRef path, const HostBuffer &buffer);

} // namespace mlir::tile

#endif // TILE_HOSTDATA_NPY_H
