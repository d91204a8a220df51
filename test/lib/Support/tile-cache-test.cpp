//===- tile-cache-test.cpp - Cache entries from a program -----------------===//
//
//   tile-cache-test write DIR ENTRY TEXT
//   tile-cache-test read DIR ENTRY
//   tile-cache-test race DIR WRITERS ROUNDS BYTES
//
// The lit tests' window on tile/Support/CacheFiles.h (test/Support):
//
//   write   writeCacheEntry(DIR, DIR/ENTRY, TEXT); prints "written".
//   read    readCacheEntry(DIR, DIR/ENTRY); prints the entry, or "no entry".
//   race    forks WRITERS processes, each writing the entry DIR/race/entry
//           ROUNDS times, BYTES bytes of its own letter, while this process
//           reads it over and over until they are done. Every read must
//           find no entry or a whole one (BYTES bytes of one letter): a
//           write that is not atomic shows as a short or mixed entry.
//           Prints how many reads saw an entry.
//
// Errors print the library's message and exit with status 1.
//
//===----------------------------------------------------------------------===//

#include "tile/Support/CacheFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace mlir::tile;

static int fail(llvm::Error error) {
  llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
  return 1;
}

static std::string entryPath(llvm::StringRef dir, llvm::StringRef entry) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, entry);
  return path.str().str();
}

/// Checks one read of the race's entry; an error says what was seen.
static llvm::Error checkRead(const llvm::MemoryBuffer *entry, size_t bytes,
                             unsigned writers) {
  if (!entry)
    return llvm::Error::success();
  llvm::StringRef text = entry->getBuffer();
  if (text.size() != bytes)
    return llvm::createStringError("read an entry of " +
                                   llvm::Twine(text.size()) + " bytes, not " +
                                   llvm::Twine(bytes));
  char letter = text.front();
  if (letter < 'a' || letter >= char('a' + writers) ||
      text.find_first_not_of(letter) != llvm::StringRef::npos)
    return llvm::createStringError("read an entry mixed from two writes");
  return llvm::Error::success();
}

static int race(llvm::StringRef dir, unsigned writers, unsigned rounds,
                size_t bytes) {
  std::string path = entryPath(dir, "race/entry");
  std::vector<pid_t> children;
  for (unsigned writer = 0; writer < writers; ++writer) {
    pid_t pid = fork();
    if (pid < 0) {
      llvm::errs() << "error: cannot fork\n";
      return 1;
    }
    if (pid == 0) {
      std::string text(bytes, char('a' + writer));
      for (unsigned round = 0; round < rounds; ++round)
        if (llvm::Error error = writeCacheEntry(dir, path, text)) {
          llvm::errs() << "error: writer " << writer << ": "
                       << llvm::toString(std::move(error)) << "\n";
          _exit(1);
        }
      _exit(0);
    }
    children.push_back(pid);
  }
  unsigned reads = 0, seen = 0;
  int status = 0;
  size_t running = children.size();
  while (running > 0) {
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> entry =
        readCacheEntry(dir, path, kCompileCacheEntry);
    if (!entry)
      return fail(entry.takeError());
    ++reads;
    seen += *entry != nullptr;
    if (llvm::Error error = checkRead(entry->get(), bytes, writers))
      return fail(std::move(error));
    for (pid_t &child : children) {
      int childStatus;
      if (child > 0 && waitpid(child, &childStatus, WNOHANG) == child) {
        child = 0;
        --running;
        if (!WIFEXITED(childStatus) || WEXITSTATUS(childStatus) != 0)
          status = 1;
      }
    }
  }
  if (status != 0) {
    llvm::errs() << "error: a writer failed\n";
    return 1;
  }
  llvm::outs() << reads << " reads, " << seen
               << " of them of a whole entry, none of a part\n";
  return 0;
}

int main(int argc, char **argv) {
  llvm::StringRef mode = argc > 1 ? argv[1] : "";
  if (mode == "write" && argc == 5) {
    if (llvm::Error error =
            writeCacheEntry(argv[2], entryPath(argv[2], argv[3]), argv[4]))
      return fail(std::move(error));
    llvm::outs() << "written\n";
    return 0;
  }
  if (mode == "read" && argc == 4) {
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> entry =
        readCacheEntry(argv[2], entryPath(argv[2], argv[3]), kTuningCacheEntry);
    if (!entry)
      return fail(entry.takeError());
    if (!*entry)
      llvm::outs() << "no entry\n";
    else
      llvm::outs() << (*entry)->getBuffer() << "\n";
    return 0;
  }
  unsigned writers, rounds;
  size_t bytes;
  if (mode == "race" && argc == 6 &&
      !llvm::StringRef(argv[3]).getAsInteger(10, writers) &&
      !llvm::StringRef(argv[4]).getAsInteger(10, rounds) &&
      !llvm::StringRef(argv[5]).getAsInteger(10, bytes) && writers > 0 &&
      writers <= 26 && bytes > 0)
    return race(argv[2], writers, rounds, bytes);
  llvm::errs() << "usage: tile-cache-test write DIR ENTRY TEXT\n"
                  "       tile-cache-test read DIR ENTRY\n"
                  "       tile-cache-test race DIR WRITERS ROUNDS BYTES\n";
  return 1;
}
