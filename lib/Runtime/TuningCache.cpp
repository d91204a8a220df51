//===- TuningCache.cpp - The tuning cache: buckets, keys, entries ---------===//
//
// See tile/Runtime/TuningCache.h and docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TuningCache.h"

#include "tile/Runtime/Target.h"
#include "tile/Support/CacheFiles.h"
#include "tile/Support/FileRead.h"
#include "tile/Support/Text.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;

static constexpr llvm::StringLiteral kCacheHeader = "tile tuning cache 1";

/// A file's name as an entry keeps it: one word of printable ASCII ("-"
/// when empty), for people reading the entry.
static std::string sanitizeFileName(llvm::StringRef name) {
  std::string word;
  for (char c : name)
    word += llvm::isPrint(c) && c != ' ' ? c : '_';
  return word.empty() ? "-" : word;
}

/// `value` rounded up to a quarter of an octave: 2^k x 1, 1.25, 1.5 or 1.75
/// (itself up to 4, and when not positive). One bucket spans at most 25% of
/// its values, so that its tuned choice suits every shape in it: with
/// buckets of an octave, rows of 20000 f16 shared 32768's entry and ran it
/// at 0.885 of their own tuned speed (run 28d, docs/tuning.md).
static int64_t roundUp(int64_t value) {
  if (value <= 4)
    return value;
  uint64_t floor = llvm::bit_floor(static_cast<uint64_t>(value));
  uint64_t step = floor / 4;
  return static_cast<int64_t>(llvm::divideCeil(uint64_t(value), step) * step);
}

static std::string formatBucket(DataType type, bool isBuffer,
                                llvm::ArrayRef<int64_t> shape, int64_t value) {
  std::string bucket = getDataTypeName(type).str();
  if (isBuffer) {
    SmallVector<std::string> dims;
    for (int64_t dim : shape)
      dims.push_back(std::to_string(roundUp(dim)));
    return bucket + "[" + llvm::join(dims, "x") + "]";
  }
  if (isFloatDataType(type))
    return bucket;
  return bucket + ":" + std::to_string(roundUp(value));
}

std::string mlir::tile::getShapeBucket(const ArgSpec &spec) {
  return formatBucket(spec.type, spec.isBuffer(), spec.shape,
                      spec.isBuffer() ? 0 : spec.value.getSExtValue());
}

std::string mlir::tile::getShapeBucket(const KernelArg &arg) {
  if (arg.isBuffer())
    return formatBucket(arg.getDataType(), true, arg.getBuffer().getShape(), 0);
  return formatBucket(arg.getDataType(), false, {},
                      arg.getScalar().getSExtValue());
}

std::string TuningKey::getDigest() const {
  llvm::SHA256 hash;
  auto add = [&](llvm::StringRef field) {
    hash.update(field);
    hash.update(llvm::StringRef("\0", 1));
  };
  add(kCacheHeader);
  add(getCompilerVersion());
  for (auto [text, name] : llvm::zip_equal(fileTexts, kernelNames)) {
    add(text);
    add(name);
  }
  add(llvm::join(fixedDefines, " "));
  add(device);
  add(llvm::join(buckets, " "));
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::string mlir::tile::getTextDigest(llvm::StringRef text) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true);
}

std::string TuningRecord::getDigest() const {
  llvm::SHA256 hash;
  auto add = [&](llvm::StringRef field) {
    hash.update(field);
    hash.update(llvm::StringRef("\0", 1));
  };
  add("tile tuning record 1");
  for (auto [text, name] : llvm::zip_equal(textDigests, kernelNames)) {
    add(text);
    add(name);
  }
  add(llvm::join(fixedDefines, " "));
  add(gpu);
  add(llvm::join(buckets, " "));
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

TuningRecord TuningRecord::fromKey(const TuningKey &key,
                                   const TuningChoice &choice) {
  TuningRecord record;
  for (const std::string &text : key.fileTexts)
    record.textDigests.push_back(getTextDigest(text));
  record.kernelNames = key.kernelNames;
  for (const std::string &name : key.fileNames)
    record.fileNames.push_back(sanitizeFileName(name));
  record.fileNames.resize(record.kernelNames.size(), "-");
  record.fixedDefines = key.fixedDefines;
  record.gpu = key.gpu;
  record.buckets = key.buckets;
  record.choice = choice;
  return record;
}

std::vector<std::string>
mlir::tile::getFixedDefines(llvm::ArrayRef<KernelParam> params) {
  std::vector<std::string> fixed;
  for (const KernelParam &param : params)
    if (param.isType || (param.isDefined && param.values.empty()))
      fixed.push_back(param.name + "=" + param.value);
  llvm::sort(fixed);
  return fixed;
}

std::string mlir::tile::getTuningCachePath(llvm::StringRef cacheDir,
                                           const TuningKey &key) {
  llvm::SmallString<256> path(cacheDir);
  llvm::sys::path::append(path, "tuning", key.getDigest() + ".txt");
  return path.str().str();
}

/// Checks a define read back from the cache: NAME=VALUE, an identifier and
/// an integer.
static bool isWellFormedDefine(llvm::StringRef define) {
  auto [name, value] = define.split('=');
  int64_t number;
  return define.contains('=') && !name.empty() &&
         (llvm::isAlpha(name.front()) || name.front() == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; }) &&
         !value.getAsInteger(10, number);
}

llvm::Expected<TuningChoice> mlir::tile::parseTuningEntry(
    llvm::StringRef entry, llvm::StringRef compilerVersion,
    llvm::StringRef digest, unsigned numVariants, TuningRecord *record) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  SmallVector<llvm::StringRef> lines;
  entry.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (lines.empty() || lines.front() != kCacheHeader)
    return fail("not a tuning cache entry");
  llvm::StringMap<llvm::StringRef> fields;
  for (llvm::StringRef line : llvm::drop_begin(lines)) {
    auto [name, value] = line.split(' ');
    if (name.empty() || !fields.try_emplace(name, value).second)
      return fail("corrupt (line '" + line + "')");
  }
  for (llvm::StringRef required : {"compiler", "key", "choice", "time"})
    if (!fields.count(required))
      return fail("corrupt (no '" + required + "' line)");
  if (fields["compiler"] != compilerVersion)
    return fail("written by another version of tile (" + fields["compiler"] +
                ")");
  if (fields["key"] != digest)
    return fail("corrupt (its key is not its name)");
  TuningChoice choice;
  if (fields["time"].getAsDouble(choice.milliseconds) ||
      !(choice.milliseconds > 0))
    return fail("corrupt (time '" + fields["time"] + "')");
  SmallVector<llvm::StringRef> defines;
  fields["choice"].split(defines, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef define : defines) {
    if (!isWellFormedDefine(define))
      return fail("corrupt (choice '" + define + "')");
    choice.defines.push_back(define.str());
  }
  choice.tunedOn = fields.lookup("shapes").str();
  if (fields.count("waves")) {
    llvm::Expected<int64_t> waves = GridSpec::parseWaves(fields["waves"]);
    if (!waves) {
      llvm::consumeError(waves.takeError());
      return fail("corrupt (waves '" + fields["waves"] + "')");
    }
    choice.waves = *waves;
  }
  if (fields.count("variant") &&
      (fields["variant"].getAsInteger(10, choice.variant) ||
       choice.variant >= numVariants))
    return fail("corrupt (variant '" + fields["variant"] + "')");
  if (!record)
    return choice;
  // What a tuning database keeps of it: an entry without these fields is
  // of no use there (tile writes them all).
  for (llvm::StringRef required : {"kernel", "texts", "gpu", "shapes"})
    if (!fields.count(required))
      return fail("corrupt (no '" + required + "' line)");
  *record = TuningRecord();
  auto words = [](llvm::StringRef line) {
    SmallVector<llvm::StringRef> split;
    line.split(split, ' ', -1, /*KeepEmpty=*/false);
    return std::vector<std::string>(split.begin(), split.end());
  };
  for (std::string &name : words(fields["kernel"])) {
    if (!llvm::StringRef(name).starts_with("@"))
      return fail("corrupt (kernel '" + name + "')");
    record->kernelNames.push_back(name.substr(1));
  }
  record->textDigests = words(fields["texts"]);
  record->fileNames = words(fields.lookup("files"));
  if (record->fileNames.empty())
    record->fileNames.assign(record->kernelNames.size(), "-");
  record->fixedDefines = words(fields.lookup("fixed"));
  record->buckets = words(fields["shapes"]);
  record->gpu = fields["gpu"].str();
  record->choice = choice;
  if (llvm::Error err = checkTuningRecord(*record))
    return fail("corrupt (" + toString(std::move(err)) + ")");
  return choice;
}

/// Whether `word` is printable ASCII without spaces.
static bool isWord(llvm::StringRef word) {
  return !word.empty() && llvm::all_of(word, [](char c) {
    return llvm::isPrint(c) && c != ' ';
  });
}

static bool isIdentifier(llvm::StringRef word) {
  return !word.empty() &&
         (llvm::isAlpha(word.front()) || word.front() == '_') &&
         llvm::all_of(word,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

llvm::Error mlir::tile::checkTuningRecord(const TuningRecord &record) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  size_t variants = record.kernelNames.size();
  if (variants == 0 || record.textDigests.size() != variants ||
      record.fileNames.size() != variants)
    return fail("not one kernel, text and file per variant");
  for (size_t i = 0; i < variants; ++i) {
    llvm::StringRef digest = record.textDigests[i];
    if (digest.size() != 64 || !llvm::all_of(digest, [](char c) {
          return llvm::isDigit(c) || (c >= 'a' && c <= 'f');
        }))
      return fail("text digest '" + digest + "'");
    if (!isWord(record.kernelNames[i]))
      return fail("kernel name '" + record.kernelNames[i] + "'");
    if (!isWord(record.fileNames[i]))
      return fail("file name '" + record.fileNames[i] + "'");
  }
  if (record.gpu.empty() || llvm::StringRef(record.gpu).trim() != record.gpu ||
      !llvm::all_of(record.gpu, llvm::isPrint))
    return fail("gpu '" + record.gpu + "'");
  for (llvm::StringRef define : record.fixedDefines) {
    auto [name, value] = define.split('=');
    if (!define.contains('=') || !isIdentifier(name) || !isWord(value))
      return fail("fixed define '" + define + "'");
  }
  for (llvm::StringRef bucket : record.buckets)
    if (!isWord(bucket))
      return fail("shape '" + bucket + "'");
  for (llvm::StringRef define : record.choice.defines)
    if (!isWellFormedDefine(define))
      return fail("choice '" + define + "'");
  if (record.choice.variant >= variants)
    return fail("variant " + llvm::Twine(record.choice.variant) + " of " +
                llvm::Twine(variants) + " kernels");
  if (!(record.choice.milliseconds > 0) ||
      !std::isfinite(record.choice.milliseconds))
    return fail(llvm::formatv("time {0} is not a positive number of "
                              "milliseconds",
                              record.choice.milliseconds));
  return llvm::Error::success();
}

std::optional<TuningChoice>
mlir::tile::lookupTuning(llvm::StringRef cacheDir, const TuningKey &key,
                         llvm::raw_ostream &warnings) {
  if (cacheDir.empty())
    return std::nullopt;
  std::string path = getTuningCachePath(cacheDir, key);
  auto ignore = [&](llvm::Error why) -> std::optional<TuningChoice> {
    llvm::WithColor::warning(warnings, "tile")
        << "ignoring the tuning cache entry " << path << ": "
        << escapeForDiagnostic(llvm::toString(std::move(why))) << "\n";
    return std::nullopt;
  };
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readCacheEntry(cacheDir, path, kTuningCacheEntry);
  if (!file)
    return ignore(file.takeError());
  if (!*file)
    return std::nullopt;
  llvm::Expected<TuningChoice> choice =
      parseTuningEntry((*file)->getBuffer(), getCompilerVersion(),
                       key.getDigest(), key.kernelNames.size());
  if (!choice)
    return ignore(choice.takeError());
  return std::move(*choice);
}

std::string mlir::tile::formatTuningEntry(const TuningKey &key,
                                          const TuneEntry &best) {
  std::string entry;
  llvm::raw_string_ostream os(entry);
  os << kCacheHeader << "\n";
  os << "compiler " << getCompilerVersion() << "\n";
  os << "key " << key.getDigest() << "\n";
  os << "kernel";
  for (const std::string &name : key.kernelNames)
    os << " @" << name;
  os << "\n";
  os << "texts";
  for (const std::string &text : key.fileTexts)
    os << " " << getTextDigest(text);
  os << "\n";
  os << "files";
  for (const std::string &name : key.fileNames)
    os << " " << sanitizeFileName(name);
  os << "\n";
  if (!key.fixedDefines.empty())
    os << "fixed " << llvm::join(key.fixedDefines, " ") << "\n";
  os << "variant " << best.variant << "\n";
  os << "device " << key.device << "\n";
  os << "gpu " << key.gpu << "\n";
  os << "shapes " << llvm::join(key.buckets, " ") << "\n";
  os << "choice " << llvm::join(best.config.defines, " ") << "\n";
  if (best.config.waves)
    os << "waves " << formatWaves(*best.config.waves) << "\n";
  os << llvm::formatv("time {0:e6}\n", best.milliseconds);
  return entry;
}

llvm::Error mlir::tile::storeTuning(llvm::StringRef cacheDir,
                                    const TuningKey &key,
                                    const TuneEntry &best) {
  return writeCacheEntry(cacheDir, getTuningCachePath(cacheDir, key),
                         formatTuningEntry(key, best));
}

llvm::Expected<TuningKey>
mlir::tile::getTuningKey(llvm::ArrayRef<const KernelSource *> variants,
                         llvm::ArrayRef<KernelArg> args, int device) {
  std::vector<std::string> buckets;
  for (const KernelArg &arg : args)
    buckets.push_back(getShapeBucket(arg));
  return getTuningKey(variants, buckets, device);
}

llvm::Expected<TuningKey>
mlir::tile::getTuningKey(llvm::ArrayRef<const KernelSource *> variants,
                         llvm::ArrayRef<std::string> buckets, int device) {
  // The GPU as tile-run --list-devices describes it; only this one is opened.
  llvm::Expected<std::unique_ptr<CudaDevice>> opened = CudaDevice::open(device);
  if (!opened)
    return opened.takeError();
  TuningKey key;
  key.device = describeCudaDevice((*opened)->getInfo());
  key.gpu = (*opened)->getInfo().getDescription();
  for (const KernelSource *variant : variants) {
    key.fileTexts.push_back(variant->getText().str());
    key.fileNames.push_back(
        llvm::sys::path::filename(variant->getFileName()).str());
    key.kernelNames.push_back(variant->getKernelName().str());
    for (std::string &define : getFixedDefines(variant->getParams()))
      if (!llvm::is_contained(key.fixedDefines, define))
        key.fixedDefines.push_back(std::move(define));
  }
  llvm::sort(key.fixedDefines);
  key.buckets.assign(buckets.begin(), buckets.end());
  return key;
}
