//===- Preprocessor.h - The meta-parameters of kernel files -----*- C++ -*-===//
//
// The text preprocessor that runs before a kernel file is parsed. A kernel
// file names its meta-parameters (tile sizes, warps, element types) with a
// default, and uses them where a number or a type is needed:
//
//   // tile.param BLOCK_SIZE = 1024
//   ...
//   %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
//
// Before the file is parsed, every `${NAME}` outside comments and string
// literals is replaced by the parameter's value: its default, or the value
// given with `-D NAME=VALUE`. This is the counterpart of Triton's
// `tl.constexpr` arguments, which specialize a kernel for each value. A value
// is an integer, or the name of an element type (f16, bf16, f32, i32, i64):
// a parameter declared with a type takes only types, one declared with an
// integer only integers.
//
// A declaration may also list the values the parameter may take, the space a
// tuner searches (tile-run --tune):
//
//   // tile.param NUM_WARPS = 4 in 1, 2, 4, 8, 16
//
// The default must be one of them, and so must a value given with -D.
//
// A default may instead name a parameter declared above, whose value it then
// takes unless given its own with -D (the type of a matmul's output, the
// type of its inputs unless said otherwise):
//
//   // tile.param DTYPE = f16 in f16, bf16, f8E4M3FN
//   // tile.param C_DTYPE = DTYPE in f32, f16, bf16
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PREPROCESSOR_PREPROCESSOR_H
#define TILE_PREPROCESSOR_PREPROCESSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tile {

/// A meta-parameter declared by a kernel file.
struct KernelParam {
  std::string name;
  /// The value as substituted: an integer's decimal digits, or a type name.
  std::string value;
  bool isType = false;
  /// The values the declaration allows (`in ...`), in the order written;
  /// empty when it lists none (any value of the parameter's kind).
  std::vector<std::string> values;
  /// Whether `value` was given with -D rather than being the default.
  bool isDefined = false;
  /// The parameter declared above whose value is this one's default (`NAME
  /// = OTHER`); empty when the default is written as a value.
  std::string defaultFrom;
  /// The line of the declaration (1-based).
  unsigned line = 0;
};

/// Finds the parameter named `name`, or null.
const KernelParam *findParam(llvm::ArrayRef<KernelParam> params,
                             llvm::StringRef name);

/// Returns the parameters `source` declares, with their values after applying
/// `defines` (each `NAME=VALUE`), in declaration order, and the specialized
/// text in `specialized`. On bad input (a malformed declaration, a default
/// outside its declared values, an unknown or malformed definition, a value
/// outside the declared ones, a use of an undeclared parameter) prints a
/// diagnostic with the file, line and column to `errs` and returns false.
bool preprocess(const llvm::MemoryBuffer &source,
                llvm::ArrayRef<std::string> defines, std::string &specialized,
                std::vector<KernelParam> &params, llvm::raw_ostream &errs);

/// Checks the -D arguments of a command line (`args`, the program's name
/// first) before the command line parser sees them: each must be NAME=VALUE,
/// given as `-D NAME=VALUE` or `-DNAME=VALUE`. On the first that is not
/// (`-D BLOCK 512`, where the parser would take 512 for an input file),
/// prints `TOOL: error: -D expects NAME=VALUE, got 'BLOCK'` to `errs` (with
/// how to write it, when the next argument is a value) and returns false.
bool checkDefineArguments(llvm::ArrayRef<const char *> args,
                          llvm::StringRef tool, llvm::raw_ostream &errs);

/// Convenience wrapper: returns a buffer holding the specialized text under
/// the source's name, or null after printing a diagnostic to `errs`.
std::unique_ptr<llvm::MemoryBuffer>
preprocess(std::unique_ptr<llvm::MemoryBuffer> source,
           llvm::ArrayRef<std::string> defines, llvm::raw_ostream &errs);

} // namespace mlir::tile

#endif // TILE_PREPROCESSOR_PREPROCESSOR_H
