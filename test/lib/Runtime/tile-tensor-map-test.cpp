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
//   tile-tensor-map-test recipe KERNEL.ptx KERNEL [--chip sm_90] PARAM...
//
// reads the recipes of KERNEL's tensor maps from the initializer of its
// `KERNEL_tensor_maps` global in the PTX (tile/Conversion/KernelABI.h; a
// launch reads the same words with cuModuleGetGlobal) and makes each map's
// region from a launch's parameters, each `ptr:ADDRESS` or `i32:VALUE`, as
// launchKernel does: prints "ok: map N: REGION" per map, or "error: ...".
//
//   tile-tensor-map-test cache
//
// runs TensorMapCache through lookups with an encoder of its own (no GPU)
// and prints, per lookup, "hit" or "encoded N" (the encoder's count), then
// the cache's size, hits and misses: the same region twice, regions that
// differ in one field each, a failing encoding (not kept), and more regions
// than the cache holds (the least recently used dropped).
//
//   tile-tensor-map-test globals KERNEL.ptx
//
// prints the names of the globals the PTX declares (getPtxGlobals, which
// spares the driver the questions for those a kernel lacks), sorted, one
// per line, or "not PTX" for a cubin.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/PtxGlobals.h"
#include "tile/Runtime/TensorMap.h"
#include "tile/Runtime/TensorMapRecipe.h"

#include "llvm/Support/MemoryBuffer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
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

/// The `cache` mode (see the file's comment).
static int cacheMode() {
  TensorMapCache cache;
  unsigned encoded = 0;
  bool failNext = false;
  auto lookup = [&](llvm::StringRef what, const TensorMapSpec &spec) {
    unsigned before = encoded;
    llvm::Expected<TensorMap> map = cache.get(
        spec, [&](const TensorMapSpec &) -> llvm::Expected<TensorMap> {
          if (failNext) {
            failNext = false;
            return llvm::createStringError("the encoder failed");
          }
          TensorMap result;
          result.opaque[0] = ++encoded;
          return result;
        });
    if (!map && what.empty())
      llvm::consumeError(map.takeError());
    if (what.empty())
      return;
    llvm::outs() << what << ": ";
    if (!map)
      llvm::outs() << "error: " << llvm::toString(map.takeError()) << "\n";
    else if (encoded == before)
      llvm::outs() << "hit " << map->opaque[0] << "\n";
    else
      llvm::outs() << "encoded " << map->opaque[0] << "\n";
  };
  TensorMapSpec a;
  a.elementType = DataType::F16;
  a.address = 0x10000;
  a.dims = {256, 512};
  a.strides = {512};
  a.box = {64, 128};
  a.swizzle = TensorMapSwizzle::Bytes128;
  lookup("a", a);
  lookup("a again", a);
  TensorMapSpec other = a;
  other.address = 0x20000;
  lookup("another address", other);
  other = a;
  other.dims = {256, 513};
  lookup("another size", other);
  other = a;
  other.strides = {1024};
  lookup("another stride", other);
  other = a;
  other.box = {64, 64};
  lookup("another box", other);
  other = a;
  other.swizzle = TensorMapSwizzle::Bytes64;
  lookup("another swizzle", other);
  other = a;
  other.elementType = DataType::BF16;
  lookup("another type", other);
  other = a;
  other.address = 0x30000;
  failNext = true;
  lookup("failing", other);
  lookup("failing again", other);
  lookup("a, a third time", a);
  llvm::outs() << "size " << cache.size() << ", hits " << cache.getHits()
               << ", misses " << cache.getMisses() << "\n";
  // More regions than the cache holds: after kCapacity - 1 others, a is the
  // least recently used of a full cache, and a new region drops it.
  auto fill = [&](uint64_t address) {
    other = a;
    other.address = address;
    return other;
  };
  for (size_t i = 0; i + 1 < TensorMapCache::kCapacity; ++i)
    lookup("", fill(0x100000 + 0x1000 * i));
  llvm::outs() << "size " << cache.size() << "\n";
  lookup("one region more", fill(0x900000));
  lookup("a, dropped", a);
  lookup("the last region filled, kept", fill(0x100000 + 0x1000 * 254));
  llvm::outs() << "size " << cache.size() << "\n";
  return 0;
}

/// The `globals` mode (see the file's comment).
static int globalsMode(int argc, char **argv) {
  if (argc != 3)
    return fail("usage: tile-tensor-map-test globals KERNEL.ptx");
  auto file = llvm::MemoryBuffer::getFile(argv[2]);
  if (!file)
    return fail(llvm::Twine("cannot read ") + argv[2]);
  std::optional<llvm::StringSet<>> globals =
      getPtxGlobals((*file)->getBuffer());
  if (!globals) {
    llvm::outs() << "not PTX\n";
    return 0;
  }
  std::vector<std::string> names;
  for (const auto &entry : *globals)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  for (const std::string &name : names)
    llvm::outs() << name << "\n";
  return 0;
}

/// The `recipe` mode (see the file's comment).
static int recipeMode(int argc, char **argv) {
  if (argc < 4)
    return fail("usage: tile-tensor-map-test recipe KERNEL.ptx KERNEL "
                "[--chip sm_XY] PARAM...");
  llvm::StringRef kernel = argv[3];
  auto file = llvm::MemoryBuffer::getFile(argv[2]);
  if (!file)
    return fail(llvm::Twine("cannot read ") + argv[2]);
  // `.visible .global .align 4 .b8 K_tensor_maps[N] = {b0, b1, ...};`, the
  // trailing zero bytes left out.
  std::string symbol = (kernel + "_tensor_maps[").str();
  llvm::StringRef text = (*file)->getBuffer();
  size_t at = text.find(symbol);
  if (at == llvm::StringRef::npos)
    return fail("the PTX has no " + symbol + "...]");
  llvm::StringRef rest = text.drop_front(at + symbol.size());
  unsigned long long size = 0;
  llvm::StringRef sizeText = rest.take_until([](char c) { return c == ']'; });
  if (sizeText.getAsInteger(10, size) || size % 4 != 0 || size > 65536)
    return fail("bad size: " + sizeText);
  std::vector<uint8_t> bytes(size, 0);
  size_t open = rest.find('{'), close = rest.find('}');
  if (open == llvm::StringRef::npos || close == llvm::StringRef::npos ||
      close < open)
    return fail("no initializer");
  llvm::SmallVector<llvm::StringRef> parts;
  rest.slice(open + 1, close).split(parts, ',');
  if (parts.size() > size)
    return fail("more bytes than the global holds");
  for (auto [i, part] : llvm::enumerate(parts)) {
    unsigned value;
    if (part.trim().getAsInteger(10, value) || value > 255)
      return fail("bad byte: " + part);
    bytes[i] = static_cast<uint8_t>(value);
  }
  std::vector<int32_t> words(size / 4);
  std::memcpy(words.data(), bytes.data(), size);
  llvm::Expected<std::vector<TensorMapRecipe>> recipes =
      parseTensorMapRecipes(words, kernel);
  if (!recipes)
    return fail(llvm::toString(recipes.takeError()));

  int major = 9, minor = 0;
  // Each parameter's value, 8 bytes of storage apiece.
  std::vector<uint64_t> values;
  for (int i = 4; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--chip" && i + 1 < argc) {
      llvm::StringRef chip = argv[++i];
      unsigned number;
      if (!chip.consume_front("sm_") || chip.getAsInteger(10, number))
        return fail("bad chip");
      major = number / 10;
      minor = number % 10;
      continue;
    }
    auto [kind, value] = arg.split(':');
    if (kind == "ptr") {
      uint64_t address;
      if (value.getAsInteger(0, address))
        return fail("bad parameter: " + arg);
      values.push_back(address);
    } else if (kind == "i32") {
      int32_t number;
      if (value.getAsInteger(0, number))
        return fail("bad parameter: " + arg);
      uint64_t slot = 0;
      std::memcpy(&slot, &number, sizeof(number));
      values.push_back(slot);
    } else {
      return fail("bad parameter: " + arg);
    }
  }
  std::vector<void *> params;
  for (uint64_t &value : values)
    params.push_back(&value);
  for (auto [index, recipe] : llvm::enumerate(*recipes)) {
    llvm::Expected<TensorMapSpec> spec =
        getTensorMapSpec(recipe, params, kernel, major, minor);
    if (!spec)
      return fail(llvm::toString(spec.takeError()));
    llvm::outs() << "ok: map " << index << ": " << spec->str() << "\n";
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && llvm::StringRef(argv[1]) == "cache")
    return cacheMode();
  if (argc >= 2 && llvm::StringRef(argv[1]) == "globals")
    return globalsMode(argc, argv);
  if (argc >= 2 && llvm::StringRef(argv[1]) == "recipe")
    return recipeMode(argc, argv);
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
