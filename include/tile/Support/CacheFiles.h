//===- CacheFiles.h - Entries of on-disk caches -----------------*- C++ -*-===//
//
// The compile cache and the tuning cache keep one file per entry under a
// cache directory ($TILE_CACHE_DIR, ~/.cache/tile) that other processes,
// other versions of tile and other users may share. Both read and write
// their entries through these functions, so that a cache cannot be turned
// against the user:
//
// - nothing below the cache directory is followed through a symbolic link:
//   an entry, or a directory holding entries, that is one is refused (the
//   caches never make links), so no read or write lands outside the cache;
// - an entry is written to a temporary file beside it and renamed into
//   place, so a reader sees the old entry or the new one, never a part;
// - a cache directory that is a file or cannot be written is an error the
//   caller reports as a warning and runs on without the cache.
//
// The cache directory itself may be a symbolic link (a cache moved to
// another disk). The checks look at the path before the file is opened: a
// link swapped in between by someone who can write the cache is not
// caught (LLVM opens files with no O_NOFOLLOW).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_CACHEFILES_H
#define TILE_SUPPORT_CACHEFILES_H

#include "tile/Support/FileRead.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace mlir::tile {

/// Reads the entry at `path`, which lies under `cacheDir`: null when there
/// is none; an error when it or a directory between it and `cacheDir` is a
/// symbolic link or not what it should be, or when readBoundedFile fails.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readCacheEntry(llvm::StringRef cacheDir, llvm::StringRef path,
               const FileKind &kind);

/// Writes `contents` as the entry at `path` under `cacheDir`, creating the
/// directories between them: to a unique temporary file in the entry's
/// directory, then renamed over `path`. Errors name the file and the reason;
/// nothing is left behind on failure.
llvm::Error writeCacheEntry(llvm::StringRef cacheDir, llvm::StringRef path,
                            llvm::StringRef contents);

} // namespace mlir::tile

#endif // TILE_SUPPORT_CACHEFILES_H
