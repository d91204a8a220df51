//===- CompileCache.h - The compile cache's entries -------------*- C++ -*-===//
//
// A compiled kernel (PTX or cubin) is kept in the compile cache under the
// SHA-256 of everything it depends on (compileKernel). The entry holds the
// binary after a short header that lets a reader check it before the driver
// sees it:
//
//   tile compile cache 1
//   key 3f9a...           the entry's key (its file name)
//   bytes 48213           the binary's size
//   sha256 b71c...        the binary's SHA-256
//                         an empty line, then the binary
//
// An entry whose header, key, size or digest does not match (a truncated
// write from an older tile, a disk error, someone's edit) is not used: the
// kernel is compiled again and the entry replaced.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_COMPILECACHE_H
#define TILE_RUNTIME_COMPILECACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tile {

/// The entry that keeps `binary` under `key`.
std::string formatCompileCacheEntry(llvm::StringRef key,
                                    llvm::StringRef binary);

/// The binary an entry keeps, after checking that it is one, that it was
/// stored under `key`, and the binary's size and SHA-256; the error says
/// what does not match. The result points into `entry`.
llvm::Expected<llvm::StringRef> parseCompileCacheEntry(llvm::StringRef entry,
                                                       llvm::StringRef key);

} // namespace mlir::tile

#endif // TILE_RUNTIME_COMPILECACHE_H
