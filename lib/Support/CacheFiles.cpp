//===- CacheFiles.cpp - Reading and writing entries of on-disk caches -----===//
//
// See tile/Support/CacheFiles.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Support/CacheFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

namespace fs = llvm::sys::fs;

namespace {
/// How the walk from the cache directory to an entry treats what is missing.
enum class Walk { Read, Write };
} // namespace

/// What a file at `path` is, without following a symbolic link; file_not_found
/// when there is nothing.
static fs::file_type getTypeNoFollow(const llvm::Twine &path) {
  fs::file_status status;
  if (fs::status(path, status, /*Follow=*/false))
    return fs::file_type::file_not_found;
  return status.type();
}

/// Walks from `cacheDir` down to `path`, checking that every directory on
/// the way is one (and not a symbolic link) and that the entry is a regular
/// file (for a write, it may also be a link, which the write replaces);
/// for a write, creates the missing directories. Returns whether the entry
/// exists.
static llvm::Expected<bool> walkToEntry(llvm::StringRef cacheDir,
                                        llvm::StringRef path, Walk walk) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  // The cache directory itself may be a link; it must lead to a directory.
  if (!fs::exists(cacheDir)) {
    if (walk == Walk::Read)
      return false;
    if (std::error_code ec = fs::create_directories(cacheDir))
      return fail("cannot create the cache directory '" + cacheDir +
                  "': " + ec.message());
  } else if (!fs::is_directory(cacheDir)) {
    return fail("the cache directory '" + cacheDir + "' is not a directory");
  }
  llvm::StringRef relative = path;
  if (!relative.consume_front(cacheDir) ||
      (!relative.empty() && !llvm::sys::path::is_separator(relative.front())))
    return fail("'" + path + "' is not in the cache directory '" + cacheDir +
                "'");
  relative = relative.ltrim("/");
  if (relative.empty())
    return fail("'" + path + "' names the cache directory, not an entry");

  llvm::SmallString<256> current(cacheDir);
  auto component = llvm::sys::path::begin(relative);
  auto end = llvm::sys::path::end(relative);
  while (component != end) {
    llvm::StringRef name = *component;
    bool isEntry = ++component == end;
    if (name == "." || name == "..")
      return fail("'" + path + "' leaves the cache directory");
    llvm::sys::path::append(current, name);
    switch (getTypeNoFollow(current)) {
    case fs::file_type::file_not_found:
      if (isEntry)
        return false;
      if (walk == Walk::Read)
        return false;
      if (std::error_code ec = fs::create_directory(current))
        return fail("cannot create '" + current + "': " + ec.message());
      // Made now, or by another process in between: either way it must be
      // a directory (not a link someone put there).
      if (getTypeNoFollow(current) != fs::file_type::directory_file)
        return fail("'" + current + "' is not a directory");
      break;
    case fs::file_type::symlink_file:
      // A write replaces a link that stands for the entry (rename does not
      // follow it); nothing is read through one.
      if (isEntry && walk == Walk::Write)
        return true;
      return fail("'" + current +
                  "' is a symbolic link; the cache follows none, so that "
                  "nothing it reads or writes lies outside it");
    case fs::file_type::directory_file:
      if (isEntry)
        return fail("'" + current + "' is a directory, not a cache entry");
      break;
    case fs::file_type::regular_file:
      if (isEntry)
        return true;
      return fail("'" + current +
                  "' is a file, where the cache keeps a "
                  "directory");
    case fs::file_type::status_error:
    case fs::file_type::type_unknown:
    case fs::file_type::block_file:
    case fs::file_type::character_file:
    case fs::file_type::fifo_file:
    case fs::file_type::socket_file:
      return fail("'" + current + "' is not a regular file or directory");
    }
  }
  return false;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
tile::readCacheEntry(llvm::StringRef cacheDir, llvm::StringRef path,
                     const FileKind &kind) {
  llvm::Expected<bool> exists = walkToEntry(cacheDir, path, Walk::Read);
  if (!exists)
    return exists.takeError();
  if (!*exists)
    return nullptr;
  return readBoundedFile(path, kind, /*requiresNullTerminator=*/false);
}

llvm::Error tile::writeCacheEntry(llvm::StringRef cacheDir,
                                  llvm::StringRef path,
                                  llvm::StringRef contents) {
  if (llvm::Expected<bool> exists = walkToEntry(cacheDir, path, Walk::Write);
      !exists)
    return exists.takeError();
  int fd;
  llvm::SmallString<256> temporary;
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (std::error_code ec =
          fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, temporary))
    return llvm::createStringError("cannot write in '" + dir +
                                   "': " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      fs::remove(temporary);
      return llvm::createStringError("cannot write '" + temporary +
                                     "': " + message);
    }
  }
  // rename() replaces whatever is at `path` (a link included) as one step.
  if (std::error_code ec = fs::rename(temporary, path)) {
    fs::remove(temporary);
    return llvm::createStringError("cannot write '" + path +
                                   "': " + ec.message());
  }
  return llvm::Error::success();
}
