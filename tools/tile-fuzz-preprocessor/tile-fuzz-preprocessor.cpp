//===- tile-fuzz-preprocessor.cpp - A libFuzzer target over the preprocessor
//==//
//
// Each input is a command line's -D arguments and a kernel file: its first
// line, split at spaces, is the arguments (checked as a tool checks them,
// checkDefineArguments, then each "-DNAME=VALUE" or "NAME=VALUE" given to
// the preprocessor); the rest is the file, whose `tile.param` declarations
// (defaults, `in` lists) and `${...}` uses are preprocessed. What the fuzzer
// looks for is a crash, a sanitizer report, a leak or a hang. Built with
// -DTILE_ENABLE_FUZZER=ON (scripts/fuzz.sh preprocessor); seeds in
// tools/tile-fuzz-preprocessor/corpus.
//
//===----------------------------------------------------------------------===//

#include "tile/Preprocessor/Preprocessor.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace mlir::tile;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto [commandLine, file] = text.split('\n');

  llvm::SmallVector<llvm::StringRef> words;
  commandLine.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::vector<std::string> storage = {"tile-run"};
  for (llvm::StringRef word : words)
    storage.push_back(word.str());
  std::vector<const char *> args;
  for (const std::string &arg : storage)
    args.push_back(arg.c_str());
  llvm::raw_null_ostream errors;
  (void)checkDefineArguments(args, "tile-run", errors);

  std::vector<std::string> defines;
  for (llvm::StringRef word : words) {
    word.consume_front("-D");
    defines.push_back(word.str());
  }
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBuffer(file, "fuzz.mlir",
                                       /*RequiresNullTerminator=*/false);
  std::string specialized;
  std::vector<KernelParam> params;
  (void)preprocess(*buffer, defines, specialized, params, errors);
  return 0;
}
