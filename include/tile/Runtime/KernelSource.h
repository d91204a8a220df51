//===- KernelSource.h - A kernel file, loaded and checked -------*- C++ -*-===//
//
// A kernel file preprocessed (its meta-parameters set), parsed and verified
// once, with the kernel chosen from it: its signature, the checks of a
// launch's arguments against it, its specialization on them, and its
// compilation (through the on-disk cache).
//
// KernelSource owns the MLIR context the kernel lives in and prints the
// diagnostics of the kernel file (preprocessing, parsing, verification, and
// the interpreter's runtime errors, each with its source line) to the
// stream it is given. Errors that were printed that way come back as a
// DiagnosedError, whose message the caller need not print again; every other
// error is an llvm::Error with a message for the user.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_KERNELSOURCE_H
#define TILE_RUNTIME_KERNELSOURCE_H

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/HostData/ArgSpec.h"
#include "tile/HostData/KernelArg.h"
#include "tile/Preprocessor/Preprocessor.h"
#include "tile/Runtime/Compiler.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace tile {

//===----------------------------------------------------------------------===//
// Errors already reported
//===----------------------------------------------------------------------===//

/// An error whose details were printed as diagnostics (with the kernel's
/// source lines) to the KernelSource's stream; its message only summarizes.
class DiagnosedError : public llvm::ErrorInfo<DiagnosedError> {
public:
  static char ID;
  explicit DiagnosedError(std::string summary) : summary(std::move(summary)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string summary;
};

//===----------------------------------------------------------------------===//
// Kernel sources
//===----------------------------------------------------------------------===//

/// A kernel file, preprocessed (its meta-parameters set), parsed and
/// verified once, and the kernel chosen from it.
class KernelSource {
public:
  struct Options {
    /// -D NAME=VALUE, as "NAME=VALUE".
    std::vector<std::string> defines;
    /// The kernel to pick; empty for the only one in the file.
    std::string kernelName;
    /// Where diagnostics of the file go (null: llvm::errs()).
    llvm::raw_ostream *diagnostics = nullptr;
  };

  /// Reads `path` ("-" for stdin).
  static llvm::Expected<std::unique_ptr<KernelSource>>
  loadFile(llvm::StringRef path, const Options &options);
  /// The same from text, named `bufferName` in diagnostics.
  static llvm::Expected<std::unique_ptr<KernelSource>>
  loadString(llvm::StringRef text, llvm::StringRef bufferName,
             const Options &options);
  ~KernelSource();

  FuncOp getKernel() const { return kernel; }
  llvm::StringRef getKernelName() const;
  /// The file's name, as given, and its text before preprocessing.
  llvm::StringRef getFileName() const { return fileName; }
  llvm::StringRef getText() const { return text; }
  /// The meta-parameters the file declares, with their values.
  llvm::ArrayRef<KernelParam> getParams() const { return params; }
  /// "@softmax(!tile.ptr<f32>, i32)".
  std::string getSignature() const;
  /// The names the kernel file gives its parameters ("output" for
  /// `%output: !tile.ptr<f32>`), one per parameter; empty where the file
  /// does not say.
  std::vector<std::string> getParameterNames() const;
  /// Where diagnostics go.
  llvm::raw_ostream &getDiagnosticStream() const { return *diagnostics; }

  /// Checks that a launch gives `count` arguments.
  llvm::Error checkArgumentCount(size_t count) const;
  /// Checks `spec` against parameter `index` (a buffer of the pointee type
  /// for a pointer, a scalar of the parameter's type otherwise).
  llvm::Error checkArgSpec(unsigned index, const ArgSpec &spec) const;
  /// Checks the values of a launch's integer arguments against the promises
  /// of their attributes (tile.divisibility, tile.max_value), naming the
  /// meta-parameter a broken bound comes from. KernelRunner::run does this.
  llvm::Error checkArgumentValues(llvm::ArrayRef<KernelArg> args) const;
  /// Checks that parameter `index` exists and is a pointer, whose buffer a
  /// run can write out.
  llvm::Error checkOutputIndex(unsigned index) const;

  /// The specialization (tile-specialize-arguments) a launch with `args`
  /// gets: Triton's divisibility of buffers and integers.
  llvm::Expected<KernelSpecialization>
  getSpecialization(llvm::ArrayRef<KernelArg> args) const;
  /// The same from specs alone: their scalar values and which are buffers
  /// (what compiling ahead of a run, --emit, knows).
  llvm::Expected<KernelSpecialization>
  getSpecialization(llvm::ArrayRef<ArgSpec> specs) const;

  /// Compiles the kernel (or takes it from the cache) for `options.chip`.
  /// A cache that cannot be written is a warning on the diagnostic stream.
  llvm::Expected<CompiledKernel>
  compile(const KernelSpecialization &specialization,
          const CompileOptions &options) const;
  /// The same ahead of a run (tile-run --emit), specialized on `specs` when
  /// there are any, without when there are none.
  llvm::Expected<CompiledKernel> compile(llvm::ArrayRef<ArgSpec> specs,
                                         const CompileOptions &options) const;
  /// The same for a launch with `args`: specialized on them.
  llvm::Expected<CompiledKernel> compile(llvm::ArrayRef<KernelArg> args,
                                         const CompileOptions &options) const;

private:
  KernelSource();
  llvm::Error load(std::unique_ptr<llvm::MemoryBuffer> buffer,
                   const Options &options);

  struct Impl;
  std::unique_ptr<Impl> impl;
  std::string fileName;
  std::string text;
  std::vector<KernelParam> params;
  llvm::raw_ostream *diagnostics = nullptr;
  mutable FuncOp kernel;
};

/// Loads each file of `paths` (stdin when there are none) with `options`:
/// the variants of one launch, each checked to take `argumentCount`
/// arguments where that is given.
llvm::Expected<std::vector<std::unique_ptr<KernelSource>>>
loadKernelSources(llvm::ArrayRef<std::string> paths,
                  const KernelSource::Options &options,
                  std::optional<size_t> argumentCount);

/// Parses one argument spec per text (tile-run's --arg) and checks each
/// against the parameter it is for in every one of `variants`; the errors
/// name the spec: "--arg 1 ('f32[4]=zeros'): ...".
llvm::Expected<llvm::SmallVector<ArgSpec>>
parseArgSpecs(llvm::ArrayRef<std::string> texts,
              llvm::ArrayRef<std::unique_ptr<KernelSource>> variants);

/// Makes the argument of each spec (random data, files, ...); the errors
/// name the spec by its index and `texts`' text, as parseArgSpecs does.
llvm::Expected<llvm::SmallVector<KernelArg>>
createKernelArgs(llvm::ArrayRef<ArgSpec> specs,
                 llvm::ArrayRef<std::string> texts);

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_KERNELSOURCE_H
