//===- TuningDatabase.cpp - Tuned choices that travel ---------------------===//
//
// See tile/Runtime/TuningDatabase.h and docs/tuning.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TuningDatabase.h"

#include "tile/Runtime/Compiler.h"
#include "tile/Runtime/Grid.h"
#include "tile/Support/CacheFiles.h"
#include "tile/Support/FileRead.h"
#include "tile/Support/Text.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

static constexpr llvm::StringLiteral kDatabaseHeader = "tile tuning database 1";
static constexpr llvm::StringLiteral kHeaderPrefix = "tile tuning database ";

/// A tuning database: 16 MiB, some 30000 records.
static const FileKind kTuningDatabase = {"tuning database", 16 << 20, false};

//===----------------------------------------------------------------------===//
// Records as text
//===----------------------------------------------------------------------===//

static std::vector<std::string> splitWords(llvm::StringRef line) {
  SmallVector<llvm::StringRef> words;
  line.split(words, ' ', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(words.begin(), words.end());
}

/// The record of one entry's lines (after its "entry KEY" line); the error
/// says what is wrong with it.
static llvm::Expected<TuningRecord>
parseRecord(llvm::StringRef key, llvm::ArrayRef<llvm::StringRef> lines) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  TuningRecord record;
  llvm::StringSet<> seen;
  for (llvm::StringRef line : lines) {
    auto [name, value] = line.split(' ');
    if (name != "kernel" && !seen.insert(name).second)
      return fail("'" + name + "' given twice");
    if (name == "gpu") {
      record.gpu = value.str();
    } else if (name == "kernel") {
      std::vector<std::string> words = splitWords(value);
      if (words.size() != 3 || !llvm::StringRef(words[1]).starts_with("@"))
        return fail("a kernel line is 'kernel DIGEST @NAME FILE'");
      record.textDigests.push_back(words[0]);
      record.kernelNames.push_back(words[1].substr(1));
      record.fileNames.push_back(words[2]);
    } else if (name == "fixed") {
      record.fixedDefines = splitWords(value);
    } else if (name == "shapes") {
      record.buckets = splitWords(value);
    } else if (name == "variant") {
      if (value.getAsInteger(10, record.choice.variant))
        return fail("variant '" + value + "' is not a number");
    } else if (name == "choice") {
      record.choice.defines = splitWords(value);
    } else if (name == "waves") {
      llvm::Expected<int64_t> waves = GridSpec::parseWaves(value);
      if (!waves) {
        llvm::consumeError(waves.takeError());
        return fail("waves '" + value + "'");
      }
      record.choice.waves = *waves;
    } else if (name == "time") {
      if (value.getAsDouble(record.choice.milliseconds))
        return fail("time '" + value + "' is not a number");
    } else {
      return fail("unknown line '" + name + "'");
    }
  }
  for (llvm::StringRef required :
       {"gpu", "shapes", "variant", "choice", "time"})
    if (!seen.contains(required))
      return fail("no '" + required + "' line");
  if (record.kernelNames.empty())
    return fail("no 'kernel' line");
  if (llvm::Error err = checkTuningRecord(record))
    return std::move(err);
  if (key != record.getDigest())
    return fail("its key is not the digest of its fields (edited or "
                "corrupt)");
  record.choice.tunedOn = llvm::join(record.buckets, " ");
  return record;
}

/// One record as text.
static void printRecord(llvm::raw_ostream &os, const TuningRecord &record) {
  os << "entry " << record.getDigest() << "\n";
  os << "gpu " << record.gpu << "\n";
  for (size_t i = 0; i < record.kernelNames.size(); ++i)
    os << "kernel " << record.textDigests[i] << " @" << record.kernelNames[i]
       << " " << record.fileNames[i] << "\n";
  if (!record.fixedDefines.empty())
    os << "fixed " << llvm::join(record.fixedDefines, " ") << "\n";
  os << "shapes " << llvm::join(record.buckets, " ") << "\n";
  os << "variant " << record.choice.variant << "\n";
  os << "choice " << llvm::join(record.choice.defines, " ") << "\n";
  if (record.choice.waves)
    os << "waves " << formatWaves(*record.choice.waves) << "\n";
  os << llvm::formatv("time {0:e6}\n", record.choice.milliseconds);
}

//===----------------------------------------------------------------------===//
// TuningDatabase
//===----------------------------------------------------------------------===//

llvm::Expected<TuningDatabase>
TuningDatabase::parse(llvm::StringRef text, std::vector<std::string> &ignored) {
  SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  llvm::StringRef first = lines.front().rtrim("\r");
  if (!first.starts_with(kHeaderPrefix))
    return llvm::createStringError(
        "not a tuning database (its first line is not '" + kDatabaseHeader +
        "')");
  if (first != kDatabaseHeader)
    return llvm::createStringError(
        "a tuning database of another version of tile ('" +
        escapeForDiagnostic(first) + "'; this tile reads '" + kDatabaseHeader +
        "')");
  TuningDatabase database;
  // Each record: its "entry" line's number and key, and its lines.
  size_t at = 0;
  llvm::StringRef key;
  SmallVector<llvm::StringRef> fields;
  bool stray = false;
  auto finish = [&] {
    if (at == 0)
      return;
    llvm::Expected<TuningRecord> record = parseRecord(key, fields);
    if (record)
      database.add(std::move(*record));
    else
      ignored.push_back("the record at line " + std::to_string(at) + ": " +
                        escapeForDiagnostic(toString(record.takeError())));
    at = 0;
    fields.clear();
  };
  for (size_t i = 1; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i].rtrim("\r");
    if (line.trim().empty() || line.starts_with("#"))
      continue;
    if (line.consume_front("entry ")) {
      finish();
      at = i + 1;
      key = line;
      continue;
    }
    if (at == 0) {
      if (!stray)
        ignored.push_back("line " + std::to_string(i + 1) +
                          ": outside any record");
      stray = true;
      continue;
    }
    fields.push_back(line);
  }
  finish();
  return database;
}

llvm::Expected<TuningDatabase>
TuningDatabase::read(llvm::StringRef path, std::vector<std::string> &ignored) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readBoundedFile(path, kTuningDatabase);
  if (!file)
    return file.takeError();
  llvm::Expected<TuningDatabase> database =
      parse((*file)->getBuffer(), ignored);
  if (!database)
    return llvm::createStringError(path + ": " +
                                   toString(database.takeError()));
  return database;
}

const TuningRecord *TuningDatabase::lookup(llvm::StringRef digest) const {
  auto it = index.find(digest);
  return it == index.end() ? nullptr : &records[it->second];
}

void TuningDatabase::add(TuningRecord record) {
  auto [it, inserted] = index.try_emplace(record.getDigest(), records.size());
  if (inserted)
    records.push_back(std::move(record));
  else
    records[it->second] = std::move(record);
}

std::string TuningDatabase::format() const {
  std::vector<std::pair<std::string, size_t>> order;
  for (auto [i, record] : llvm::enumerate(records))
    order.push_back({record.getDigest(), i});
  llvm::sort(order);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kDatabaseHeader << "\n";
  for (auto &[digest, i] : order) {
    os << "\n";
    printRecord(os, records[i]);
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Lookup: the cache, the imported databases, the shipped ones
//===----------------------------------------------------------------------===//

std::string mlir::tile::getImportedDatabasePath(llvm::StringRef cacheDir) {
  llvm::SmallString<256> path(cacheDir);
  llvm::sys::path::append(path, "tuning-imported.txt");
  return path.str().str();
}

/// Whether `record`'s choice sets only parameters the variant it names
/// declares, each to a declared value; else why not.
static std::string
checkDeclared(const TuningRecord &record,
              llvm::ArrayRef<const KernelSource *> variants) {
  const KernelSource &variant = *variants[record.choice.variant];
  for (llvm::StringRef define : record.choice.defines) {
    auto [name, value] = define.split('=');
    const KernelParam *param = findParam(variant.getParams(), name);
    if (!param)
      return ("@" + variant.getKernelName() + " declares no parameter " + name)
          .str();
    if (!param->values.empty() && !llvm::is_contained(param->values, value))
      return (name + "=" + value + " is not among the values @" +
              variant.getKernelName() + " declares for it")
          .str();
  }
  return "";
}

/// The record for `key` in `database` that names only what the kernels
/// declare; a record that names more is reported once on `warnings`.
static std::optional<TuningChoice>
lookupRecord(const TuningDatabase &database, const TuningKey &key,
             llvm::ArrayRef<const KernelSource *> variants,
             llvm::StringRef where, llvm::raw_ostream &warnings) {
  TuningRecord wanted = TuningRecord::fromKey(key, TuningChoice());
  const TuningRecord *record = database.lookup(wanted.getDigest());
  if (!record)
    return std::nullopt;
  std::string why = variants.size() == record->kernelNames.size()
                        ? checkDeclared(*record, variants)
                        : "it names another number of kernels";
  if (!why.empty()) {
    llvm::WithColor::warning(warnings, "tile")
        << "ignoring the record " << record->getDigest().substr(0, 12) << " of "
        << where << ": " << escapeForDiagnostic(why) << "\n";
    return std::nullopt;
  }
  return record->choice;
}

namespace {
/// A shipped database, parsed: its records, and what it left out.
struct ParsedDatabase {
  std::string name;
  std::optional<TuningDatabase> database;
  std::string problem;
};
} // namespace

/// The shipped databases, parsed once per process.
static llvm::ArrayRef<ParsedDatabase> getParsedShippedDatabases() {
  static const std::vector<ParsedDatabase> parsed = [] {
    std::vector<ParsedDatabase> result;
    for (const ShippedDatabase &shipped : getShippedDatabases()) {
      ParsedDatabase entry;
      entry.name = shipped.name.str();
      std::vector<std::string> ignored;
      llvm::Expected<TuningDatabase> database =
          TuningDatabase::parse(shipped.text, ignored);
      if (!database) {
        entry.problem = toString(database.takeError());
      } else {
        entry.database = std::move(*database);
        if (!ignored.empty())
          entry.problem =
              "ignoring " + ignored.front() +
              (ignored.size() > 1
                   ? " (and " + std::to_string(ignored.size() - 1) + " more)"
                   : "");
      }
      result.push_back(std::move(entry));
    }
    return result;
  }();
  return parsed;
}

std::optional<StoredChoice>
mlir::tile::lookupStoredChoice(llvm::StringRef cacheDir, const TuningKey &key,
                               llvm::ArrayRef<const KernelSource *> variants,
                               TuningStores stores,
                               llvm::raw_ostream &warnings) {
  if (stores.cache)
    if (std::optional<TuningChoice> choice =
            lookupTuning(cacheDir, key, warnings))
      return StoredChoice{*choice, "the tuning cache"};
  if (!stores.databases)
    return std::nullopt;
  if (!cacheDir.empty()) {
    std::string path = getImportedDatabasePath(cacheDir);
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
        readCacheEntry(cacheDir, path, kTuningDatabase);
    if (!file) {
      llvm::WithColor::warning(warnings, "tile")
          << "ignoring the imported tuning database: "
          << escapeForDiagnostic(toString(file.takeError())) << "\n";
    } else if (*file) {
      std::vector<std::string> ignored;
      llvm::Expected<TuningDatabase> database =
          TuningDatabase::parse((*file)->getBuffer(), ignored);
      if (!database)
        llvm::WithColor::warning(warnings, "tile")
            << "ignoring the imported tuning database " << path << ": "
            << escapeForDiagnostic(toString(database.takeError())) << "\n";
      else if (std::optional<TuningChoice> choice =
                   lookupRecord(*database, key, variants, path, warnings))
        return StoredChoice{*choice, "the imported tuning database"};
    }
  }
  // A shipped database that lost records says so at each lookup (a test
  // checks that none does).
  for (const ParsedDatabase &shipped : getParsedShippedDatabases()) {
    if (!shipped.problem.empty())
      llvm::WithColor::warning(warnings, "tile")
          << "the shipped tuning database " << shipped.name << ": "
          << escapeForDiagnostic(shipped.problem) << "\n";
    if (!shipped.database)
      continue;
    if (std::optional<TuningChoice> choice =
            lookupRecord(*shipped.database, key, variants,
                         "the shipped " + shipped.name, warnings))
      return StoredChoice{*choice,
                          "the shipped tuning database (" + shipped.name + ")"};
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Export and import
//===----------------------------------------------------------------------===//

llvm::Error mlir::tile::exportTuning(llvm::StringRef cacheDir,
                                     llvm::StringRef path,
                                     llvm::raw_ostream &os) {
  if (cacheDir.empty())
    return llvm::createStringError("--tune-export needs a tuning cache");
  llvm::SmallString<256> dir(cacheDir);
  llvm::sys::path::append(dir, "tuning");
  TuningDatabase database;
  unsigned skipped = 0;
  std::error_code ec;
  std::vector<std::string> entries;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".txt")
      entries.push_back(it->path());
  if (ec && ec != std::errc::no_such_file_or_directory)
    return llvm::createStringError(dir + ": " + ec.message());
  llvm::sort(entries);
  for (const std::string &entry : entries) {
    llvm::StringRef digest = llvm::sys::path::stem(entry);
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
        readCacheEntry(cacheDir, entry, kTuningCacheEntry);
    if (!file || !*file) {
      if (!file)
        os << "tune-export: left out " << escapeForDiagnostic(entry) << ": "
           << escapeForDiagnostic(toString(file.takeError())) << "\n";
      ++skipped;
      continue;
    }
    // The variants' count is the kernel line's: any is accepted here.
    TuningRecord record;
    llvm::Expected<TuningChoice> choice = parseTuningEntry(
        (*file)->getBuffer(), getCompilerVersion(), digest, ~0u, &record);
    if (!choice) {
      os << "tune-export: left out " << escapeForDiagnostic(entry) << ": "
         << escapeForDiagnostic(toString(choice.takeError())) << "\n";
      ++skipped;
      continue;
    }
    database.add(std::move(record));
  }
  // Through a temporary file renamed into place, as the caches write.
  std::string text = database.format();
  if (llvm::Error err =
          llvm::writeToOutput(path, [&](llvm::raw_ostream &out) -> llvm::Error {
            out << text;
            return llvm::Error::success();
          }))
    return llvm::createStringError("cannot write " + path + ": " +
                                   toString(std::move(err)));
  os << "tune-export: wrote " << database.getRecords().size() << " records to "
     << path;
  if (skipped)
    os << " (" << skipped << " cache entries left out)";
  os << "\n";
  return llvm::Error::success();
}

llvm::Error mlir::tile::importTuning(llvm::StringRef cacheDir,
                                     llvm::StringRef path,
                                     llvm::raw_ostream &os) {
  if (cacheDir.empty())
    return llvm::createStringError("--tune-import needs a tuning cache");
  std::vector<std::string> ignored;
  llvm::Expected<TuningDatabase> imported = TuningDatabase::read(path, ignored);
  if (!imported)
    return imported.takeError();
  for (const std::string &why : ignored)
    os << "tune-import: ignoring " << why << "\n";
  std::string target = getImportedDatabasePath(cacheDir);
  TuningDatabase merged;
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readCacheEntry(cacheDir, target, kTuningDatabase);
  if (!file)
    return file.takeError();
  if (*file) {
    std::vector<std::string> dropped;
    llvm::Expected<TuningDatabase> old =
        TuningDatabase::parse((*file)->getBuffer(), dropped);
    if (old)
      merged = std::move(*old);
    else
      os << "tune-import: replacing " << target << " ("
         << escapeForDiagnostic(toString(old.takeError())) << ")\n";
    if (old && !dropped.empty())
      os << "tune-import: dropping " << dropped.size() << " corrupt records of "
         << target << "\n";
  }
  for (const TuningRecord &record : imported->getRecords())
    merged.add(record);
  if (llvm::Error err = writeCacheEntry(cacheDir, target, merged.format()))
    return err;
  os << "tune-import: " << imported->getRecords().size() << " records from "
     << path << " into " << target;
  if (!ignored.empty())
    os << " (" << ignored.size() << " ignored)";
  os << "\n";
  return llvm::Error::success();
}
