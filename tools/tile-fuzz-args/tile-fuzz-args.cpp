//===- tile-fuzz-args.cpp - A libFuzzer target over argument specs --------===//
//
// Each line of an input is tried as everything a command line's argument
// text goes through: an --arg spec (parseArgSpec; a spec that parses and
// makes a buffer of at most 4096 elements is made, createKernelArg), a
// scalar of every element type (parseScalar), an --out spec
// (parseOutputSpec) and --waves (GridSpec::parseWaves); the lines together
// as one command line's --out specs (parseOutputSpecs). Specs that read a
// .npy file are parsed, not read: tile-fuzz-npy covers the reader. What the
// fuzzer looks for is a crash, a sanitizer report, a leak or a hang. Built
// with -DTILE_ENABLE_FUZZER=ON (scripts/fuzz.sh args); seeds in
// tools/tile-fuzz-args/corpus.
//
//===----------------------------------------------------------------------===//

#include "tile/HostData/ArgSpec.h"
#include "tile/Runtime/Grid.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace mlir::tile;

template <typename T> static void drop(llvm::Expected<T> value) {
  if (!value)
    llvm::consumeError(value.takeError());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  std::vector<std::string> outputs;
  for (llvm::StringRef line : lines) {
    llvm::Expected<ArgSpec> spec = parseArgSpec(line);
    if (spec && spec->kind != ArgSpec::Kind::File) {
      constexpr int64_t kMaxElements = int64_t(1) << 12;
      int64_t elements = 1;
      bool small = true;
      for (int64_t dim : spec->shape) {
        if (dim < 0 || (dim != 0 && elements > kMaxElements / dim)) {
          small = false;
          break;
        }
        elements *= dim;
      }
      if (small)
        drop(createKernelArg(*spec));
    } else if (!spec) {
      llvm::consumeError(spec.takeError());
    }
    for (DataType type : {DataType::F16, DataType::BF16, DataType::F32,
                          DataType::I1, DataType::I32, DataType::I64})
      drop(parseScalar(type, line));
    drop(parseOutputSpec(line));
    drop(GridSpec::parseWaves(line));
    outputs.push_back(line.str());
  }
  drop(parseOutputSpecs(outputs));
  return 0;
}
