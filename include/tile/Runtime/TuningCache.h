//===- TuningCache.h - The tuning cache: buckets, keys, entries -*- C++ -*-===//
//
// A tuned choice is kept on disk per launch bucket: the kernel files' texts,
// the -D that change the kernel, the GPU, and each argument's shape rounded
// up to a quarter of an octave (its bucket). Entries are written atomically and
// read back with every field checked; a corrupt or foreign entry is ignored
// with a warning. See docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TUNINGCACHE_H
#define TILE_RUNTIME_TUNINGCACHE_H

#include "tile/Runtime/KernelSource.h"
#include "tile/Runtime/Tuner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tile {

//===----------------------------------------------------------------------===//
// The tuning cache
//===----------------------------------------------------------------------===//

/// The shape bucket of an argument: its element type, and for a buffer its
/// dimensions, for an integer its value, each rounded up to 2^k x 1, 1.25,
/// 1.5 or 1.75 (itself up to 4): "f32[4096x8192]", "i32:20480" for 20000.
/// A float scalar is its type alone.
std::string getShapeBucket(const ArgSpec &spec);
std::string getShapeBucket(const KernelArg &arg);

/// What a tuning cache entry is keyed by.
struct TuningKey {
  /// Per variant (one kernel, or the kernels a launch chooses between), its
  /// file's text as written and the kernel's name.
  std::vector<std::string> fileTexts;
  std::vector<std::string> kernelNames;
  /// The parameters the search does not vary (getFixedDefines), sorted:
  /// they change the kernel.
  std::vector<std::string> fixedDefines;
  /// The GPU, as listCudaDevices describes it (with its driver), and as a
  /// tuning database names it (CudaDeviceInfo::getDescription).
  std::string device;
  std::string gpu;
  /// Per variant, the name of its file (for people: not in the digest).
  std::vector<std::string> fileNames;
  /// One shape bucket per argument.
  std::vector<std::string> buckets;

  /// A SHA-256 of all of the above and the compiler's version, in hex.
  std::string getDigest() const;
};

/// The parameters that belong in a TuningKey, as NAME=VALUE: every type
/// parameter at its value (set by hand or its default: DTYPE=f32 either
/// way), and the -D set by hand on parameters without declared values.
std::vector<std::string> getFixedDefines(llvm::ArrayRef<KernelParam> params);

/// A tuned choice read back from the cache.
struct TuningChoice {
  /// "NAME=VALUE" per tuned parameter.
  std::vector<std::string> defines;
  /// The persistent grid's waves, where they were tuned.
  std::optional<int64_t> waves;
  /// Which of the key's variants.
  unsigned variant = 0;
  /// Its median time when it was tuned, and the shapes it was tuned on.
  double milliseconds = 0;
  std::string tunedOn;
};

/// One tuned choice and what it was tuned for.
struct TuningRecord {
  /// Per variant: the SHA-256 of its file's text (hex), the kernel's name,
  /// and the file's name when it was tuned (for people; not in the key).
  std::vector<std::string> textDigests;
  std::vector<std::string> kernelNames;
  std::vector<std::string> fileNames;
  /// As TuningKey's.
  std::vector<std::string> fixedDefines;
  std::string gpu;
  std::vector<std::string> buckets;
  /// The choice: its variant, defines, waves and time.
  TuningChoice choice;

  /// A SHA-256 of everything above but the file names and the choice.
  std::string getDigest() const;

  /// The record of a launch's key and its tuned choice.
  static TuningRecord fromKey(const TuningKey &key, const TuningChoice &choice);
};

/// Checks every field of `record` as a tuning database writes it: one text
/// digest (64 lowercase hex digits), kernel name and file name (printable,
/// no spaces) per variant, at least one; a printable GPU
/// name; fixed defines NAME=WORD, tuned ones NAME=INTEGER; shape buckets of
/// printable words; a variant among the kernels; a positive time. The error
/// says what is wrong.
llvm::Error checkTuningRecord(const TuningRecord &record);

/// The SHA-256 of `text`, in hex: a record's text digest.
std::string getTextDigest(llvm::StringRef text);

/// The cached choice for `key` under `cacheDir`, or none. An entry that is
/// corrupt, unreadable, or written by another version of tile is ignored
/// with one warning on `warnings`.
std::optional<TuningChoice> lookupTuning(llvm::StringRef cacheDir,
                                         const TuningKey &key,
                                         llvm::raw_ostream &warnings);

/// The choice a tuning cache entry holds, every field checked: it must have
/// been written by the compiler `compilerVersion` under the key `digest`,
/// and its variant must be below `numVariants`. The error says what is
/// wrong. With `record`, also what it was tuned for (as a tuning database
/// keeps it).
llvm::Expected<TuningChoice> parseTuningEntry(llvm::StringRef entry,
                                              llvm::StringRef compilerVersion,
                                              llvm::StringRef digest,
                                              unsigned numVariants,
                                              TuningRecord *record = nullptr);

/// The entry that keeps `best` for `key`.
std::string formatTuningEntry(const TuningKey &key, const TuneEntry &best);

/// Stores `best` for `key` (atomically: a temporary file, then a rename;
/// see tile/Support/CacheFiles.h).
llvm::Error storeTuning(llvm::StringRef cacheDir, const TuningKey &key,
                        const TuneEntry &best);

/// Where the entry for `key` lives.
std::string getTuningCachePath(llvm::StringRef cacheDir, const TuningKey &key);

/// The key of a launch of `source`'s kernel with `args` on GPU `device`.
llvm::Expected<TuningKey>
getTuningKey(llvm::ArrayRef<const KernelSource *> variants,
             llvm::ArrayRef<KernelArg> args, int device);
/// The same from the arguments' shape buckets (getShapeBucket).
llvm::Expected<TuningKey>
getTuningKey(llvm::ArrayRef<const KernelSource *> variants,
             llvm::ArrayRef<std::string> buckets, int device);

} // namespace mlir::tile

#endif // TILE_RUNTIME_TUNINGCACHE_H
