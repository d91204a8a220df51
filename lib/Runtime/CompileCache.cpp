//===- CompileCache.cpp - The compile cache's entries ---------------------===//
//
// See tile/Runtime/CompileCache.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SHA256.h"

#include <optional>

using namespace mlir;
using namespace mlir::tile;

static constexpr llvm::StringLiteral kHeader = "tile compile cache 1";

static std::string getDigest(llvm::StringRef binary) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(binary)),
                     /*LowerCase=*/true);
}

std::string mlir::tile::formatCompileCacheEntry(llvm::StringRef key,
                                                llvm::StringRef binary) {
  return (kHeader + "\nkey " + key + "\nbytes " + llvm::Twine(binary.size()) +
          "\nsha256 " + getDigest(binary) + "\n\n" + binary)
      .str();
}

llvm::Expected<llvm::StringRef>
mlir::tile::parseCompileCacheEntry(llvm::StringRef entry, llvm::StringRef key) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  // The header's lines, each NAME VALUE; at most a few hundred bytes.
  llvm::StringRef rest = entry;
  auto nextLine = [&]() -> std::optional<llvm::StringRef> {
    size_t newline = rest.take_front(256).find('\n');
    if (newline == llvm::StringRef::npos)
      return std::nullopt;
    llvm::StringRef line = rest.take_front(newline);
    rest = rest.drop_front(newline + 1);
    return line;
  };
  std::optional<llvm::StringRef> header = nextLine();
  if (!header || *header != kHeader)
    return fail("not a compile cache entry");
  auto field = [&](llvm::StringRef name) -> llvm::Expected<llvm::StringRef> {
    std::optional<llvm::StringRef> line = nextLine();
    if (!line || !line->consume_front(name) || !line->consume_front(" "))
      return fail("corrupt (no '" + name + "' line where it belongs)");
    return *line;
  };
  llvm::Expected<llvm::StringRef> storedKey = field("key");
  if (!storedKey)
    return storedKey.takeError();
  if (*storedKey != key)
    return fail("corrupt (its key is not its name)");
  llvm::Expected<llvm::StringRef> bytes = field("bytes");
  if (!bytes)
    return bytes.takeError();
  uint64_t size;
  // Digits as the writer writes them: no sign, no leading zero.
  if (bytes->getAsInteger(10, size) || std::to_string(size) != *bytes)
    return fail("corrupt (size '" + *bytes + "')");
  llvm::Expected<llvm::StringRef> digest = field("sha256");
  if (!digest)
    return digest.takeError();
  std::optional<llvm::StringRef> blank = nextLine();
  if (!blank || !blank->empty())
    return fail("corrupt (no empty line after the header)");
  if (rest.size() != size)
    return fail("truncated or padded (" + llvm::Twine(rest.size()) +
                " bytes of binary where the header says " + llvm::Twine(size) +
                ")");
  if (*digest != getDigest(rest))
    return fail("corrupt (the binary's SHA-256 is not the header's)");
  return rest;
}
