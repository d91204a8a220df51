//===- Text.h - Small text helpers of the runtime ---------------*- C++ -*-===//
//
// Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_RUNTIME_TEXT_H
#define LIB_RUNTIME_TEXT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tile {

/// The first line of `text`, trimmed.
inline std::string firstLine(llvm::StringRef text) {
  return text.trim().split('\n').first.trim().str();
}

} // namespace mlir::tile

#endif // LIB_RUNTIME_TEXT_H
