//===- TuningDatabase.h - Tuned choices that travel -------------*- C++ -*-===//
//
// A tuning database is a text file of tuned choices that can be moved to
// another machine: what `tile-run --tune-export` writes from the tuning
// cache, what `--tune-import` merges into another cache, and what the
// repository ships for the GPUs it was tuned on (tuning/*.txt, built into
// the library). Unlike a cache entry, a record names no compiler version and
// no driver: it is keyed by the SHA-256 of each kernel file's text, the
// kernels' names, the type parameters and other -D that change the kernel
// (getFixedDefines), the GPU (its name, chip,
// SMs and L2) and the launch's shape buckets. A choice stays a valid
// configuration of an unchanged kernel whatever the compiler; a kernel whose
// text changed no longer matches its records.
//
//   tile tuning database 1
//
//   entry 5d41...            the record's key (TuningRecord::getDigest)
//   gpu NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MiB L2)
//   kernel 9f86... @softmax softmax.mlir     text digest, name, file name
//   fixed DTYPE=f32                          optional
//   shapes f32[4096x1024] f32[4096x1024] i32:1024 ...
//   variant 0
//   choice BLOCK_SIZE=1024 NUM_STAGES=2 NUM_WARPS=8
//   waves 2                                  optional
//   time 1.234000e-02
//
// Blank lines and lines starting with '#' are ignored. A record with a
// field missing, repeated or malformed, or whose key is not the digest of
// its fields, is ignored (and reported); a file without the first line is
// not a database. See docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TUNINGDATABASE_H
#define TILE_RUNTIME_TUNINGDATABASE_H

#include "tile/Runtime/TuningCache.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tile {

/// A database's records, by key; later records replace earlier ones.
class TuningDatabase {
public:
  /// Parses `text`. A text that is not a database (its first line) is an
  /// error; a record that is corrupt is left out and described in `ignored`
  /// ("record at line N: why").
  static llvm::Expected<TuningDatabase>
  parse(llvm::StringRef text, std::vector<std::string> &ignored);

  /// Reads and parses the file at `path` (a regular file of at most 16 MiB).
  static llvm::Expected<TuningDatabase> read(llvm::StringRef path,
                                             std::vector<std::string> &ignored);

  /// The record whose key is `digest`, or null.
  const TuningRecord *lookup(llvm::StringRef digest) const;

  /// Adds `record`, replacing one with the same key.
  void add(TuningRecord record);

  llvm::ArrayRef<TuningRecord> getRecords() const { return records; }

  /// The database as text, its records in order of key.
  std::string format() const;

private:
  std::vector<TuningRecord> records;
  llvm::StringMap<size_t> index;
};

/// The databases built into the library (tuning/*.txt in the repository):
/// each file's name and text.
struct ShippedDatabase {
  llvm::StringRef name;
  llvm::StringRef text;
};
llvm::ArrayRef<ShippedDatabase> getShippedDatabases();

/// Where a choice for a launch came from.
struct StoredChoice {
  TuningChoice choice;
  /// "the tuning cache", "an imported tuning database" or "the shipped
  /// tuning database (h100.txt)".
  std::string source;
};

/// The choice for `key` (a launch of `variants`) from the stores `stores`
/// allows, or none. Entries and records that cannot be used (corrupt, of
/// another tile version, or naming a parameter or value its kernel does not
/// declare) are ignored with one warning each on `warnings`.
std::optional<StoredChoice>
lookupStoredChoice(llvm::StringRef cacheDir, const TuningKey &key,
                   llvm::ArrayRef<const KernelSource *> variants,
                   TuningStores stores, llvm::raw_ostream &warnings);

/// Writes every current entry of the tuning cache under `cacheDir` as a
/// database at `path` (atomically). Says on `os` how many it wrote, and
/// which it left out and why (entries of another tile version, or corrupt).
llvm::Error exportTuning(llvm::StringRef cacheDir, llvm::StringRef path,
                         llvm::raw_ostream &os);

/// Merges the database at `path` into the databases imported into the cache
/// under `cacheDir` (its records replace those with the same key). A file
/// that is not a database is an error; its corrupt records are left out,
/// each named on `os`, with the count merged.
llvm::Error importTuning(llvm::StringRef cacheDir, llvm::StringRef path,
                         llvm::raw_ostream &os);

/// Where the databases imported into the cache under `cacheDir` live.
std::string getImportedDatabasePath(llvm::StringRef cacheDir);

} // namespace mlir::tile

#endif // TILE_RUNTIME_TUNINGDATABASE_H
