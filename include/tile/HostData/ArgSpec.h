//===- ArgSpec.h - Kernel arguments written on a command line ---*- C++ -*-===//
//
// A runner takes one spec per kernel parameter, in parameter order:
//
//   f32[1823x781]=randn:SEED   a buffer of normal(0, 1) values
//   f32[1823x781]=uniform:SEED a buffer of uniform [0, 1) values
//   i32[64]=zeros              a zero-filled buffer
//   f16[8x8]=fill:VALUE        a buffer holding VALUE everywhere (also -inf,
//                              nan)
//   f32[1823x781]=@FILE.npy    a buffer read from a .npy file, whose dtype
//                              and shape must be the spec's
//   i32=781  f32=0.5  i1=true  scalars
//
// Element types are those of the dialect: f16, bf16, f32, i1, i32, i64.
// randn and uniform make floats only (see Random.h for the generators).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOSTDATA_ARGSPEC_H
#define TILE_HOSTDATA_ARGSPEC_H

#include "tile/HostData/KernelArg.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>

namespace mlir::tile {

/// A parsed argument spec.
struct ArgSpec {
  enum class Kind { Scalar, Randn, Uniform, Zeros, Fill, File };

  DataType type;
  Kind kind;
  /// The buffer's shape; empty for a scalar.
  llvm::SmallVector<int64_t, 4> shape;
  /// The value of a Scalar, or the filler of a Fill.
  Scalar value{DataType::I32, 0};
  /// The seed of Randn and Uniform.
  uint64_t seed = 0;
  /// The .npy file of File.
  std::string path;

  bool isBuffer() const { return kind != Kind::Scalar; }
};

/// Parses a spec; the error says what is wrong and what is expected.
llvm::Expected<ArgSpec> parseArgSpec(llvm::StringRef text);

/// Parses a scalar value of `type`: a decimal integer (also true and false
/// for i1), or a float (decimal, hexadecimal, inf, -inf, nan) rounded to
/// nearest, ties to even. Integers must fit the type; a finite float that
/// overflows the type is an error.
llvm::Expected<Scalar> parseScalar(DataType type, llvm::StringRef text);

/// Makes the argument a spec describes: generates or reads the buffer.
llvm::Expected<KernelArg> createKernelArg(const ArgSpec &spec);

/// Where a run writes a buffer: `INDEX=FILE.npy` (tile-run --out).
struct OutputSpec {
  unsigned index = 0;
  std::string path;
};

/// Parses "INDEX=FILE.npy"; the error says what is expected.
llvm::Expected<OutputSpec> parseOutputSpec(llvm::StringRef text);

/// Parses every "INDEX=FILE.npy" into a map from index to file; an index
/// given twice is an error.
llvm::Expected<std::map<unsigned, std::string>>
parseOutputSpecs(llvm::ArrayRef<std::string> texts);

} // namespace mlir::tile

#endif // TILE_HOSTDATA_ARGSPEC_H
