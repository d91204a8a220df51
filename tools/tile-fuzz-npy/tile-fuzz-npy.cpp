//===- tile-fuzz-npy.cpp - A libFuzzer target over the .npy reader --------===//
//
// Each input is the contents of a .npy file (tile-run --arg TYPE[SHAPE]=@FILE
// reads them). Most are rejected with an error; one that parses must write
// back (writeNpy) to a file that parses to the same type, shape and bytes.
// What the fuzzer looks for is a crash, a sanitizer report, a leak, a hang,
// or a failed round trip (an abort). Built with -DTILE_ENABLE_FUZZER=ON
// (scripts/fuzz.sh npy); seeds in tools/tile-fuzz-npy/corpus.
//
//===----------------------------------------------------------------------===//

#include "tile/HostData/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace mlir::tile;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<HostBuffer> buffer =
      parseNpy(llvm::MemoryBufferRef(text, "fuzz.npy"));
  if (!buffer) {
    llvm::consumeError(buffer.takeError());
    return 0;
  }
  std::string written;
  llvm::raw_string_ostream os(written);
  writeNpy(os, *buffer);
  llvm::Expected<HostBuffer> again =
      parseNpy(llvm::MemoryBufferRef(written, "written.npy"));
  if (!again) {
    llvm::errs() << "a parsed .npy does not parse once written: "
                 << llvm::toString(again.takeError()) << "\n";
    std::abort();
  }
  if (again->getDataType() != buffer->getDataType() ||
      again->getShape() != buffer->getShape() ||
      again->getSizeInBytes() != buffer->getSizeInBytes() ||
      (buffer->getSizeInBytes() > 0 &&
       std::memcmp(again->getData(), buffer->getData(),
                   buffer->getSizeInBytes()) != 0)) {
    llvm::errs() << "a parsed .npy reads back differently once written: "
                 << buffer->getDescription() << " vs "
                 << again->getDescription() << "\n";
    std::abort();
  }
  return 0;
}
