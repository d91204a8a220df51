//===- FileRead.cpp - Bounded reads of the files tile is given ------------===//

#include "tile/Support/FileRead.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::tile;

constexpr uint64_t kMiB = uint64_t(1) << 20;

const FileKind tile::kKernelFile = {"kernel file", 16 * kMiB, true};
const FileKind tile::kNpyFile = {".npy file", 64 * 1024 * kMiB, false};
const FileKind tile::kBinaryFile = {"PTX or cubin file", 256 * kMiB, false};
const FileKind tile::kCompileCacheEntry = {"compile-cache entry", 256 * kMiB,
                                           false};
const FileKind tile::kTuningCacheEntry = {"tuning-cache entry", kMiB, false};
const FileKind tile::kSmithProgram = {"tile-smith program description",
                                      16 * kMiB, true};

static std::string formatBytes(uint64_t bytes) {
  if (bytes >= kMiB && bytes % kMiB == 0)
    return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

/// Standard input, read until its end or until it holds more than the limit.
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readStdin(const FileKind &kind) {
  llvm::SmallString<4096> data;
  char chunk[65536];
  while (true) {
    llvm::Expected<size_t> n =
        llvm::sys::fs::readNativeFile(llvm::sys::fs::getStdinHandle(), chunk);
    if (!n)
      return llvm::createStringError("cannot read standard input: " +
                                     llvm::toString(n.takeError()));
    if (*n == 0)
      break;
    data.append(chunk, chunk + *n);
    if (data.size() > kind.maxBytes)
      return llvm::createStringError("standard input holds more than " +
                                     formatBytes(kind.maxBytes) +
                                     ", the most a " + kind.name + " may have");
  }
  return llvm::MemoryBuffer::getMemBufferCopy(data, "<stdin>");
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
tile::readBoundedFile(llvm::StringRef path, const FileKind &kind,
                      bool requiresNullTerminator) {
  if (path == "-" && kind.allowStdin)
    return readStdin(kind);
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError("cannot read '" + path + "': " + why);
  };
  // Open first, then look at what was opened: the checks and the read see
  // the same file even if the path changes in between.
  llvm::Expected<llvm::sys::fs::file_t> file =
      llvm::sys::fs::openNativeFileForRead(path);
  if (!file)
    return fail(llvm::toString(file.takeError()));
  auto close = llvm::make_scope_exit([&] { llvm::sys::fs::closeFile(*file); });
  llvm::sys::fs::file_status status;
  if (std::error_code error = llvm::sys::fs::status(*file, status))
    return fail(error.message());
  switch (status.type()) {
  case llvm::sys::fs::file_type::regular_file:
    break;
  case llvm::sys::fs::file_type::directory_file:
    return fail("it is a directory, not a " + kind.name);
  case llvm::sys::fs::file_type::status_error:
  case llvm::sys::fs::file_type::file_not_found:
  case llvm::sys::fs::file_type::type_unknown:
  case llvm::sys::fs::file_type::symlink_file:
  case llvm::sys::fs::file_type::block_file:
  case llvm::sys::fs::file_type::character_file:
  case llvm::sys::fs::file_type::fifo_file:
  case llvm::sys::fs::file_type::socket_file:
    return fail(llvm::Twine("it is not a regular file (a device, pipe or "
                            "socket); a ") +
                kind.name + " is read from a regular file" +
                (kind.allowStdin ? " or '-' for standard input" : ""));
  }
  uint64_t size = status.getSize();
  if (size > kind.maxBytes)
    return fail(llvm::Twine(size) + " bytes is more than the " +
                formatBytes(kind.maxBytes) + " a " + kind.name + " may have");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getOpenFile(*file, path, size,
                                      requiresNullTerminator);
  if (!buffer)
    return fail(buffer.getError().message());
  return std::move(*buffer);
}
