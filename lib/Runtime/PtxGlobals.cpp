//===- PtxGlobals.cpp - The globals a PTX image declares ------------------===//
//
// Reads the names of a PTX text's global variables, without the driver
// (include/tile/Runtime/PtxGlobals.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/PtxGlobals.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tile;

std::optional<llvm::StringSet<>>
mlir::tile::getPtxGlobals(llvm::StringRef image) {
  if (image.starts_with("\x7f"
                        "ELF"))
    return std::nullopt;
  llvm::StringSet<> names;
  while (!image.empty()) {
    llvm::StringRef line;
    std::tie(line, image) = image.split('\n');
    line = line.split("//").first;
    llvm::SmallVector<llvm::StringRef> tokens;
    llvm::SplitString(line, tokens);
    // `.visible .global .align 4 .b8 name[80] = {...};`: the state space
    // after the linkage, then the first identifier (`.global` elsewhere, as
    // in a kernel's `.param .u64 .ptr .global` parameter, is not one).
    auto *global = llvm::find_if_not(tokens, [](llvm::StringRef token) {
      return token == ".visible" || token == ".extern" || token == ".weak" ||
             token == ".common";
    });
    if (global == tokens.end() || *global != ".global")
      continue;
    for (llvm::StringRef token : llvm::make_range(global + 1, tokens.end())) {
      if (!(llvm::isAlpha(token.front()) || token.front() == '_' ||
            token.front() == '$'))
        continue;
      names.insert(token.take_until(
          [](char c) { return c == '[' || c == '=' || c == ';'; }));
      break;
    }
  }
  return names;
}
