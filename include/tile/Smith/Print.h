//===- Print.h - A program as a kernel, a reference, a description -*- C++ -*-//
//
// The three texts tile-smith writes for a Program (Program.h):
//
// - the kernel: a `tile` kernel file, with a comment header that gives the
//   launch as tile-run and tile-opt command lines;
// - the reference: a Python module that describes the launch (LAUNCH: the
//   grid, the arguments, the buffers and how to fill them) and computes what
//   the kernel writes (reference(R, buffers)), as NumPy calls on float64
//   arrays of every block at once, through the small runtime in
//   utils/tile_smith_ref.py, which also bounds each value's error;
// - the description: the Program itself as JSON, which tile-smith reads back
//   (--from) to print the same kernel again, or a simplification of it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SMITH_PRINT_H
#define TILE_SMITH_PRINT_H

#include "tile/Smith/Program.h"

#include "llvm/Support/Error.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tile::smith {

/// Prints the kernel file. `fileName` is what the header's command lines
/// call it.
void printKernel(const Program &program, llvm::raw_ostream &os,
                 llvm::StringRef fileName = "kernel.mlir");

/// Prints the reference module (Python 3 with NumPy).
void printReference(const Program &program, llvm::raw_ostream &os);

/// Prints the description (JSON).
void printDescription(const Program &program, llvm::raw_ostream &os);

/// Reads a description; the error says what is malformed.
llvm::Expected<Program> parseDescription(llvm::StringRef text);

} // namespace mlir::tile::smith

#endif // TILE_SMITH_PRINT_H
