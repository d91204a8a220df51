//===- tile-tensor-map-test.cpp - TMA tensor maps, for the lit tests ------===//
//
// Checks (and on a GPU, encodes) the tensor map of a region, through the
// runtime library's TensorMap.h, as a launch will:
//
//   tile-tensor-map-test check|encode DTYPE --dims 4096x8192
//       [--strides 16384] --box 128x64 [--swizzle none|32|64|128]
//       [--address 0x10000] [--chip sm_90]
//
// Sizes are written outermost first, as shapes are; --strides gives the
// bytes between consecutive elements of each dimension but the innermost
// (default: the rows packed). `check` needs no GPU (--chip, default sm_90;
// --address, default 0x10000); `encode` allocates the region on GPU 0
// (at --address bytes past a 256-byte aligned allocation, default 0) and
// has the driver encode its tensor map. Prints "ok: REGION" and exits 0,
// or "error: MESSAGE" and exits 1.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/TensorMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir::tile;

static int fail(const llvm::Twine &message) {
  llvm::outs() << "error: " << message << "\n";
  return 1;
}

/// "4096x8192" (outermost first) as sizes innermost first.
template <typename T>
static std::optional<llvm::SmallVector<T, 5>> parseSizes(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, 'x');
  llvm::SmallVector<T, 5> sizes;
  for (llvm::StringRef part : llvm::reverse(parts)) {
    unsigned long long value;
    if (part.getAsInteger(0, value))
      return std::nullopt;
    sizes.push_back(static_cast<T>(value));
  }
  return sizes;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return fail("usage: tile-tensor-map-test check|encode DTYPE --dims D "
                "[--strides S] --box B [--swizzle none|32|64|128] [--address "
                "A] [--chip sm_XY]");
  llvm::StringRef mode = argv[1];
  // "ptr" too, which no host buffer has, to show TMA's refusal of it.
  std::optional<DataType> type = llvm::StringRef(argv[2]) == "ptr"
                                     ? std::optional(DataType::Ptr)
                                     : parseDataType(argv[2]);
  if (!type || (mode != "check" && mode != "encode"))
    return fail(llvm::Twine("bad mode or element type: ") + argv[1] + " " +
                argv[2]);
  TensorMapSpec spec;
  spec.elementType = *type;
  bool hasStrides = false, hasAddress = false;
  int major = 9, minor = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    llvm::StringRef option = argv[i], value = argv[i + 1];
    bool bad = false;
    if (option == "--dims") {
      auto sizes = parseSizes<uint64_t>(value);
      bad = !sizes;
      if (sizes)
        spec.dims = *sizes;
    } else if (option == "--strides") {
      auto sizes = parseSizes<uint64_t>(value);
      bad = !sizes;
      if (sizes)
        spec.strides.assign(sizes->begin(), sizes->end());
      hasStrides = true;
    } else if (option == "--box") {
      auto sizes = parseSizes<uint32_t>(value);
      bad = !sizes;
      if (sizes)
        spec.box = *sizes;
    } else if (option == "--swizzle") {
      std::optional<TensorMapSwizzle> swizzle =
          llvm::StringSwitch<std::optional<TensorMapSwizzle>>(value)
              .Case("none", TensorMapSwizzle::None)
              .Case("32", TensorMapSwizzle::Bytes32)
              .Case("64", TensorMapSwizzle::Bytes64)
              .Case("128", TensorMapSwizzle::Bytes128)
              .Default(std::nullopt);
      bad = !swizzle;
      if (swizzle)
        spec.swizzle = *swizzle;
    } else if (option == "--address") {
      bad = value.getAsInteger(0, spec.address);
      hasAddress = true;
    } else if (option == "--chip") {
      unsigned number;
      bad = !value.consume_front("sm_") || value.getAsInteger(10, number);
      major = number / 10;
      minor = number % 10;
    } else {
      bad = true;
    }
    if (bad)
      return fail("bad option: " + option + " " + value);
  }
  unsigned elementBytes = getDataTypeSize(spec.elementType);
  if (!hasStrides && !spec.dims.empty()) {
    uint64_t stride = spec.dims[0] * elementBytes;
    for (size_t i = 1; i < spec.dims.size(); ++i) {
      spec.strides.push_back(stride);
      stride *= spec.dims[i];
    }
  }

  if (mode == "check") {
    if (!hasAddress)
      spec.address = 0x10000;
    if (llvm::Error err = checkTensorMap(spec, major, minor))
      return fail(llvm::toString(std::move(err)));
    llvm::outs() << "ok: " << spec.str() << "\n";
    return 0;
  }

  llvm::Expected<std::unique_ptr<CudaDevice>> device = CudaDevice::open(0);
  if (!device)
    return fail(llvm::toString(device.takeError()));
  uint64_t bytes = spec.dims.empty() ? 0 : spec.dims.back() * elementBytes;
  if (!spec.strides.empty() && !spec.dims.empty())
    bytes = spec.strides.back() * spec.dims.back();
  uint64_t offset = spec.address;
  llvm::Expected<DeviceBuffer> buffer = (*device)->allocate(bytes + offset);
  if (!buffer)
    return fail(llvm::toString(buffer.takeError()));
  spec.address = buffer->getAddress() + offset;
  llvm::Expected<TensorMap> map = encodeTensorMap(**device, spec);
  if (!map)
    return fail(llvm::toString(map.takeError()));
  bool nonzero = llvm::any_of(map->opaque, [](uint64_t word) { return word; });
  llvm::outs() << "ok: encoded " << (nonzero ? "" : "(all zero!) ")
               << "128 bytes\n";
  return nonzero ? 0 : 1;
}
