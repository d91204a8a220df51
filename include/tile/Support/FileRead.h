//===- FileRead.h - Bounded reads of the files tile is given ----*- C++ -*-===//
//
// Every file the host side reads (kernel files, .npy inputs, compile-cache
// and tuning-cache entries) goes through readBoundedFile: it must be a
// regular file (or standard input, where "-" is documented) no larger than
// the limit of its kind, so that /dev/zero, a FIFO or a huge file is an
// error naming it rather than an out-of-memory abort.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_FILEREAD_H
#define TILE_SUPPORT_FILEREAD_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace mlir::tile {

/// What is being read, for its limit and the messages.
struct FileKind {
  /// "kernel file", ".npy file", ...
  llvm::StringRef name;
  /// The largest file of this kind that is read.
  uint64_t maxBytes;
  /// Whether "-" means standard input.
  bool allowStdin;
};

/// A kernel file (tile-opt, tile-run, tile-smith): 16 MiB.
extern const FileKind kKernelFile;
/// A .npy array (--arg TYPE[SHAPE]=@FILE): 64 GiB, more than one GPU holds.
extern const FileKind kNpyFile;
/// A PTX or cubin file given to tile-run --ptx/--cubin: 256 MiB.
extern const FileKind kBinaryFile;
/// A compile-cache entry (PTX or cubin): 256 MiB.
extern const FileKind kCompileCacheEntry;
/// A tuning-cache entry: 1 MiB.
extern const FileKind kTuningCacheEntry;
/// A tile-smith program description (tile-smith --from, or '-'): 16 MiB.
extern const FileKind kSmithProgram;

/// The contents of `path`, checked to be a regular file (or, where `kind`
/// allows, "-" for standard input) of at most `kind.maxBytes` bytes.
/// `requiresNullTerminator` as for llvm::MemoryBuffer.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readBoundedFile(llvm::StringRef path, const FileKind &kind,
                bool requiresNullTerminator = true);

} // namespace mlir::tile

#endif // TILE_SUPPORT_FILEREAD_H
