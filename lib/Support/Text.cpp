//===- Text.cpp - Checking and quoting text from outside ------------------===//
//
// See tile/Support/Text.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Support/Text.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

/// The length of the printable character at `i` (a printable ASCII byte or
/// a valid UTF-8 sequence of more than one byte), or 0 if the byte there
/// starts none. Tab, line feed and carriage return count when `layout`.
static size_t printableLength(llvm::StringRef text, size_t i, bool layout) {
  auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x80) {
    if (layout && (byte == '\t' || byte == '\n' || byte == '\r'))
      return 1;
    return byte >= 0x20 && byte != 0x7f ? 1 : 0;
  }
  unsigned length = llvm::getNumBytesForUTF8(byte);
  if (length < 2 || i + length > text.size())
    return 0;
  auto *start = reinterpret_cast<const llvm::UTF8 *>(text.data() + i);
  return llvm::isLegalUTF8Sequence(start, start + length) ? length : 0;
}

llvm::Error tile::checkKernelText(llvm::StringRef text, llvm::StringRef name) {
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < text.size();) {
    size_t length = printableLength(text, i, /*layout=*/true);
    if (length == 0)
      return llvm::createStringError(
          llvm::formatv("{0}: not a kernel file: line {1}, column {2} holds "
                        "the byte 0x{3:x-2}; kernel files are UTF-8 text "
                        "with no control characters but tabs and line breaks",
                        name, line, i - lineStart + 1,
                        static_cast<unsigned char>(text[i]))
              .str());
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
    i += length;
  }
  return llvm::Error::success();
}

std::string tile::escapeForDiagnostic(llvm::StringRef text, bool keepLayout) {
  std::string result;
  for (size_t i = 0; i < text.size();) {
    size_t length = printableLength(text, i, keepLayout);
    if (length == 0) {
      result += llvm::formatv("\\x{0:x-2}", static_cast<unsigned char>(text[i]))
                    .str();
      ++i;
      continue;
    }
    result.append(text.data() + i, length);
    i += length;
  }
  return result;
}
