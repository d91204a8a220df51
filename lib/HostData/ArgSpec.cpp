//===- ArgSpec.cpp - Kernel arguments written on a command line -----------===//

#include "tile/HostData/ArgSpec.h"

#include "tile/HostData/Npy.h"
#include "tile/HostData/Random.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::tile;

static const char *const kSpecForms =
    "TYPE[SHAPE]=randn:SEED, uniform:SEED, zeros, fill:VALUE or @FILE.npy "
    "for a buffer (f32[1823x781]=randn:0), TYPE=VALUE for a scalar (i32=781)";

llvm::Expected<Scalar> mlir::tile::parseScalar(DataType type,
                                               llvm::StringRef text) {
  llvm::StringRef name = getDataTypeName(type);
  if (isFloatDataType(type)) {
    llvm::StringRef magnitude = text;
    bool negative = magnitude.consume_front("-");
    if (!negative)
      magnitude.consume_front("+");
    if (magnitude.equals_insensitive("inf") && type == DataType::F8E4M3FN)
      return llvm::createStringError(
          "f8E4M3FN has no infinity; its largest value is 448");
    if (magnitude.equals_insensitive("inf"))
      return Scalar{type,
                    llvm::APFloat::getInf(getFloatSemantics(type), negative)
                        .bitcastToAPInt()
                        .getZExtValue()};
    if (magnitude.equals_insensitive("nan"))
      return Scalar{type,
                    llvm::APFloat::getNaN(getFloatSemantics(type), negative)
                        .bitcastToAPInt()
                        .getZExtValue()};
    // APFloat accepts a few more spellings ("1e", "nan(1)"); hold the text
    // to plain decimal and hexadecimal numbers.
    static const llvm::Regex number(
        "^[+-]?(([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?|"
        "0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)$");
    auto notANumber = [&] {
      return llvm::createStringError(
          "'" + text + "' is not " + (type == DataType::BF16 ? "a " : "an ") +
          name +
          " value; expected a number such as 0.5, 1e-3, inf, -inf or "
          "nan");
    };
    if (!number.match(text))
      return notANumber();
    llvm::APFloat value(getFloatSemantics(type));
    llvm::Expected<llvm::APFloat::opStatus> status =
        value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return notANumber();
    }
    if (*status & llvm::APFloat::opOverflow)
      return llvm::createStringError(
          "'" + text + "' overflows " + name +
          (type == DataType::F8E4M3FN
               ? llvm::StringRef("; its largest value is 448")
               : llvm::StringRef("; write inf for an infinity")));
    return Scalar{type, value.bitcastToAPInt().getZExtValue()};
  }

  if (type == DataType::I1) {
    if (text == "true" || text == "1")
      return Scalar{type, 1};
    if (text == "false" || text == "0")
      return Scalar{type, 0};
    return llvm::createStringError("'" + text +
                                   "' is not an i1 value; expected 0, 1, "
                                   "true or false");
  }
  int64_t value;
  llvm::StringRef digits = text;
  digits.consume_front("+");
  if (digits.empty() || digits.getAsInteger(10, value))
    return llvm::createStringError("'" + text + "' is not an " + name +
                                   " value; expected a decimal integer");
  if (type == DataType::I32 && (value < std::numeric_limits<int32_t>::min() ||
                                value > std::numeric_limits<int32_t>::max()))
    return llvm::createStringError("'" + text +
                                   "' does not fit in i32 (-2147483648 to "
                                   "2147483647)");
  return Scalar::getInteger(type, value);
}

/// Parses "1823x781" (or "" for rank 0).
static llvm::Error parseShape(llvm::StringRef text,
                              llvm::SmallVectorImpl<int64_t> &shape) {
  if (text.empty())
    return llvm::Error::success();
  llvm::SmallVector<llvm::StringRef, 4> dims;
  text.split(dims, 'x');
  for (llvm::StringRef dim : dims) {
    int64_t size;
    if (dim.empty() || !llvm::all_of(dim, llvm::isDigit) ||
        dim.getAsInteger(10, size))
      return llvm::createStringError(
          "malformed shape '" + text +
          "'; expected sizes separated by 'x', such as 1823x781");
    shape.push_back(size);
  }
  return llvm::Error::success();
}

static llvm::Expected<uint64_t> parseSeed(llvm::StringRef kind,
                                          llvm::StringRef text) {
  uint64_t seed;
  if (text.empty() || !llvm::all_of(text, llvm::isDigit) ||
      text.getAsInteger(10, seed))
    return llvm::createStringError(
        "'" + text + "' is not a seed; " + kind +
        ":SEED takes a non-negative decimal integer below 2^64");
  return seed;
}

llvm::Expected<ArgSpec> mlir::tile::parseArgSpec(llvm::StringRef text) {
  auto [head, init] = text.split('=');
  if (head.size() == text.size())
    return llvm::createStringError(llvm::Twine("missing '='; expected ") +
                                   kSpecForms);
  ArgSpec spec;
  llvm::StringRef typeName = head;
  bool isBuffer = false;
  if (size_t bracket = head.find('['); bracket != llvm::StringRef::npos) {
    if (!head.ends_with("]"))
      return llvm::createStringError("malformed buffer type '" + head +
                                     "'; expected TYPE[SHAPE], such as "
                                     "f32[1823x781]");
    typeName = head.take_front(bracket);
    if (llvm::Error err =
            parseShape(head.slice(bracket + 1, head.size() - 1), spec.shape))
      return std::move(err);
    isBuffer = true;
  }
  std::optional<DataType> type = parseDataType(typeName);
  if (!type)
    return llvm::createStringError(
        "unknown element type '" + typeName +
        "'; expected f16, bf16, f32, f8E4M3FN, f8E5M2, i1, i32 or i64");
  spec.type = *type;

  if (!isBuffer && isF8DataType(spec.type))
    return llvm::createStringError(
        typeName +
        " is an element type of buffers, not of scalar "
        "arguments: " +
        typeName + "[SHAPE]=...");
  if (!isBuffer) {
    spec.kind = ArgSpec::Kind::Scalar;
    llvm::Expected<Scalar> value = parseScalar(spec.type, init);
    if (!value) {
      if (init == "zeros" || init.starts_with("randn:") ||
          init.starts_with("uniform:") || init.starts_with("fill:") ||
          init.starts_with("@")) {
        llvm::consumeError(value.takeError());
        return llvm::createStringError(
            "'" + init + "' makes a buffer, which needs a shape: " + typeName +
            "[SHAPE]=" + init);
      }
      return value.takeError();
    }
    spec.value = *value;
    return spec;
  }

  if (init == "zeros") {
    spec.kind = ArgSpec::Kind::Zeros;
  } else if (init.consume_front("@")) {
    if (init.empty())
      return llvm::createStringError("'@' must be followed by a .npy file");
    spec.kind = ArgSpec::Kind::File;
    spec.path = init.str();
  } else if (init.consume_front("fill:")) {
    spec.kind = ArgSpec::Kind::Fill;
    llvm::Expected<Scalar> value = parseScalar(spec.type, init);
    if (!value)
      return value.takeError();
    spec.value = *value;
  } else if (init.starts_with("randn:") || init.starts_with("uniform:")) {
    auto [kind, seedText] = init.split(':');
    spec.kind = kind == "randn" ? ArgSpec::Kind::Randn : ArgSpec::Kind::Uniform;
    if (!isFloatDataType(spec.type))
      return llvm::createStringError(
          kind + " makes floats, not " + typeName +
          "; integer buffers take zeros, fill:VALUE or @FILE.npy");
    llvm::Expected<uint64_t> seed = parseSeed(kind, seedText);
    if (!seed)
      return seed.takeError();
    spec.seed = *seed;
  } else {
    return llvm::createStringError("unknown buffer contents '" + init +
                                   "'; expected randn:SEED, uniform:SEED, "
                                   "zeros, fill:VALUE or @FILE.npy");
  }
  // Check the size now, before anything is read or generated.
  int64_t elements = 1;
  for (int64_t dim : spec.shape) {
    if (dim != 0 &&
        elements > static_cast<int64_t>(HostBuffer::kMaxSizeInBytes /
                                        getDataTypeSize(spec.type) / dim))
      return llvm::createStringError(
          "buffer " + head + " is larger than the limit of " +
          llvm::Twine(HostBuffer::kMaxSizeInBytes) + " bytes");
    elements *= dim;
  }
  return spec;
}

llvm::Expected<KernelArg> mlir::tile::createKernelArg(const ArgSpec &spec) {
  if (spec.kind == ArgSpec::Kind::Scalar)
    return KernelArg(spec.value);

  if (spec.kind == ArgSpec::Kind::File) {
    llvm::Expected<HostBuffer> buffer = readNpyFile(spec.path);
    if (!buffer)
      return buffer.takeError();
    // An array of bytes holds either 8-bit float's bits.
    if (isF8DataType(buffer->getDataType()) && isF8DataType(spec.type) &&
        buffer->getDataType() != spec.type) {
      llvm::Expected<HostBuffer> bits =
          HostBuffer::create(spec.type, buffer->getShape());
      if (!bits)
        return bits.takeError();
      if (buffer->getSizeInBytes())
        std::memcpy(bits->getData(), buffer->getData(),
                    buffer->getSizeInBytes());
      *buffer = std::move(*bits);
    }
    if (buffer->getDataType() != spec.type ||
        buffer->getShape() != llvm::ArrayRef<int64_t>(spec.shape)) {
      std::string expected =
          (getDataTypeName(spec.type) + "[" + formatShape(spec.shape) + "]")
              .str();
      return llvm::createStringError(
          spec.path + " holds " + buffer->getDescription() + " (dtype " +
          getNpyDType(buffer->getDataType()) + "), but the spec says " +
          expected + " (dtype " + getNpyDType(spec.type) + ")");
    }
    return KernelArg(std::move(*buffer));
  }

  llvm::Expected<HostBuffer> buffer = HostBuffer::create(spec.type, spec.shape);
  if (!buffer)
    return buffer.takeError();
  switch (spec.kind) {
  case ArgSpec::Kind::Zeros:
    break;
  case ArgSpec::Kind::Fill: {
    unsigned size = getDataTypeSize(spec.type);
    uint8_t *data = buffer->getData();
    for (int64_t i = 0, e = buffer->getNumElements(); i < e; ++i)
      std::memcpy(data + i * size, &spec.value.bits, size);
    break;
  }
  case ArgSpec::Kind::Randn:
  case ArgSpec::Kind::Uniform:
    if (llvm::Error err =
            fillRandom(*buffer, spec.seed, spec.kind == ArgSpec::Kind::Randn))
      return std::move(err);
    break;
  case ArgSpec::Kind::Scalar:
  case ArgSpec::Kind::File:
    llvm_unreachable("handled above");
  }
  return KernelArg(std::move(*buffer));
}

llvm::Expected<OutputSpec> mlir::tile::parseOutputSpec(llvm::StringRef text) {
  auto [indexText, path] = text.split('=');
  OutputSpec spec;
  if (indexText.empty() || !llvm::all_of(indexText, llvm::isDigit) ||
      indexText.getAsInteger(10, spec.index) || path.empty())
    return llvm::createStringError(
        "--out expects INDEX=FILE.npy, such as --out 0=y.npy, got '" + text +
        "'");
  spec.path = path.str();
  return spec;
}

llvm::Expected<std::map<unsigned, std::string>>
mlir::tile::parseOutputSpecs(llvm::ArrayRef<std::string> texts) {
  std::map<unsigned, std::string> outputs;
  for (const std::string &text : texts) {
    llvm::Expected<OutputSpec> spec = parseOutputSpec(text);
    if (!spec)
      return spec.takeError();
    if (!outputs.emplace(spec->index, spec->path).second)
      return llvm::createStringError("--out " + llvm::Twine(spec->index) +
                                     " is given twice");
  }
  return outputs;
}
