//===- Text.h - Checking and quoting text from outside ----------*- C++ -*-===//
//
// Kernel files and values on command lines come from users (or from files
// they did not write): before a diagnostic quotes them, bytes a terminal
// would act on are escaped, and a kernel file that is not text is an error
// that names where, rather than a parse error that prints the bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_TEXT_H
#define TILE_SUPPORT_TEXT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tile {

/// Checks that `text`, the kernel file `name`, is text: UTF-8 with no
/// control characters but tab, line feed and carriage return. The error
/// names the line and column of the first byte that is not, and its value.
llvm::Error checkKernelText(llvm::StringRef text, llvm::StringRef name);

/// `text` with every byte that is not printable UTF-8 (control characters,
/// DEL, bytes of no valid sequence) written as \xHH (a backslash stays
/// one: messages write escapes of their own); with `keepLayout`, tabs and
/// line breaks are kept (a message of several lines).
std::string escapeForDiagnostic(llvm::StringRef text, bool keepLayout = false);

} // namespace mlir::tile

#endif // TILE_SUPPORT_TEXT_H
