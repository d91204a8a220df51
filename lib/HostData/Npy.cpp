//===- Npy.cpp - Reading and writing NumPy .npy files ---------------------===//
//
// The format: the magic string "\x93NUMPY", a major and a minor version
// byte, the length of the header (2 bytes little-endian in version 1, 4 in
// versions 2 and 3), the header (a Python dict literal with the keys 'descr',
// 'fortran_order' and 'shape', padded with spaces and ended by a newline),
// then the elements.
//
//===----------------------------------------------------------------------===//

#include "tile/HostData/Npy.h"
#include "tile/Support/FileRead.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>

using namespace mlir;
using namespace mlir::tile;

static_assert(llvm::sys::IsLittleEndianHost,
              "buffers are read and written in little-endian order");

static constexpr llvm::StringLiteral kMagic("\x93NUMPY");

llvm::StringRef mlir::tile::getNpyDType(DataType type) {
  switch (type) {
  case DataType::F16:
    return "<f2";
  case DataType::BF16:
    return "<u2";
  case DataType::F32:
    return "<f4";
  case DataType::I1:
    return "|b1";
  case DataType::I32:
    return "<i4";
  case DataType::I64:
    return "<i8";
  // NumPy has no 8-bit floats: their bits, as bf16's are.
  case DataType::F8E4M3FN:
  case DataType::F8E5M2:
    return "|u1";
  case DataType::Ptr:
    break;
  }
  llvm_unreachable("host data holds no pointers");
}

/// The type of an array of `descr`: the bits of 8-bit floats ("|u1") read as
/// f8E4M3FN, which createKernelArg takes as f8E5M2 where the spec says so.
static std::optional<DataType> parseNpyDType(llvm::StringRef descr) {
  for (DataType type :
       {DataType::F16, DataType::BF16, DataType::F32, DataType::I1,
        DataType::I32, DataType::I64, DataType::F8E4M3FN})
    if (getNpyDType(type) == descr)
      return type;
  return std::nullopt;
}

namespace {
/// Parses the header of a .npy file: a Python dict literal such as
/// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }.
class HeaderParser {
public:
  explicit HeaderParser(llvm::StringRef text) : text(text) {}

  llvm::Error parse(std::string &descr, bool &fortranOrder,
                    llvm::SmallVectorImpl<int64_t> &shape);

private:
  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  llvm::Error error(const llvm::Twine &what) {
    return llvm::createStringError("malformed header: " + what + " at offset " +
                                   llvm::Twine(pos) + " of \"" + text.rtrim() +
                                   "\"");
  }
  llvm::Error expect(char c) {
    if (consume(c))
      return llvm::Error::success();
    return error(llvm::Twine("expected '") + llvm::Twine(c) + "'");
  }
  llvm::Error parseString(std::string &result);
  llvm::Error parseBool(bool &result);
  llvm::Error parseShape(llvm::SmallVectorImpl<int64_t> &shape);

  llvm::StringRef text;
  size_t pos = 0;
};
} // namespace

llvm::Error HeaderParser::parseString(std::string &result) {
  skipSpace();
  if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
    return error("expected a string");
  char quote = text[pos++];
  size_t end = text.find(quote, pos);
  if (end == llvm::StringRef::npos)
    return error("unterminated string");
  result = text.slice(pos, end).str();
  pos = end + 1;
  return llvm::Error::success();
}

llvm::Error HeaderParser::parseBool(bool &result) {
  skipSpace();
  llvm::StringRef rest = text.drop_front(pos);
  if (rest.starts_with("True")) {
    result = true;
    pos += 4;
  } else if (rest.starts_with("False")) {
    result = false;
    pos += 5;
  } else {
    return error("expected True or False");
  }
  return llvm::Error::success();
}

llvm::Error HeaderParser::parseShape(llvm::SmallVectorImpl<int64_t> &shape) {
  if (llvm::Error err = expect('('))
    return err;
  while (!consume(')')) {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() && llvm::isDigit(text[pos]))
      ++pos;
    int64_t dim;
    if (pos == start || text.slice(start, pos).getAsInteger(10, dim))
      return error("expected a dimension, a non-negative integer");
    shape.push_back(dim);
    if (!consume(',')) {
      if (llvm::Error err = expect(')'))
        return err;
      break;
    }
  }
  return llvm::Error::success();
}

llvm::Error HeaderParser::parse(std::string &descr, bool &fortranOrder,
                                llvm::SmallVectorImpl<int64_t> &shape) {
  bool seenDescr = false, seenOrder = false, seenShape = false;
  if (llvm::Error err = expect('{'))
    return err;
  while (!consume('}')) {
    std::string key;
    if (llvm::Error err = parseString(key))
      return err;
    if (llvm::Error err = expect(':'))
      return err;
    if (key == "descr" && !seenDescr) {
      skipSpace();
      if (pos < text.size() && text[pos] == '[')
        return error("structured dtypes are not supported");
      if (llvm::Error err = parseString(descr))
        return err;
      seenDescr = true;
    } else if (key == "fortran_order" && !seenOrder) {
      if (llvm::Error err = parseBool(fortranOrder))
        return err;
      seenOrder = true;
    } else if (key == "shape" && !seenShape) {
      if (llvm::Error err = parseShape(shape))
        return err;
      seenShape = true;
    } else {
      return error("unexpected or repeated key '" + key + "'");
    }
    if (!consume(',')) {
      if (llvm::Error err = expect('}'))
        return err;
      break;
    }
  }
  skipSpace();
  if (pos != text.size())
    return error("unexpected text after the dict");
  if (!seenDescr || !seenOrder || !seenShape)
    return error("the keys 'descr', 'fortran_order' and 'shape' are required");
  return llvm::Error::success();
}

llvm::Expected<HostBuffer> mlir::tile::parseNpy(llvm::MemoryBufferRef file) {
  llvm::StringRef name = file.getBufferIdentifier();
  llvm::StringRef bytes = file.getBuffer();
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(name + ": " + what);
  };
  if (!bytes.starts_with(kMagic))
    return fail("not a .npy file (it does not start with \"\\x93NUMPY\")");
  if (bytes.size() < 10)
    return fail("truncated .npy header");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  unsigned minor = static_cast<uint8_t>(bytes[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return fail("unsupported .npy version " + llvm::Twine(major) + "." +
                llvm::Twine(minor) + "; expected 1.0, 2.0 or 3.0");
  size_t headerStart = major == 1 ? 10 : 12;
  if (bytes.size() < headerStart)
    return fail("truncated .npy header");
  uint64_t headerLength =
      major == 1 ? llvm::support::endian::read16le(bytes.data() + 8)
                 : llvm::support::endian::read32le(bytes.data() + 8);
  if (headerStart + headerLength > bytes.size())
    return fail("the header is " + llvm::Twine(headerLength) +
                " bytes long but the file ends before it does");
  llvm::StringRef header = bytes.substr(headerStart, headerLength);

  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t, 4> shape;
  if (llvm::Error err = HeaderParser(header).parse(descr, fortranOrder, shape))
    return fail(llvm::toString(std::move(err)));
  std::optional<DataType> type = parseNpyDType(descr);
  if (!type)
    return fail("unsupported dtype '" + descr +
                "'; expected <f4 (f32), <f2 (f16), <u2 (bf16 bits), |u1 "
                "(f8E4M3FN or f8E5M2 bits), <i4 (i32), <i8 (i64) or |b1 "
                "(i1), little-endian");
  if (fortranOrder)
    return fail("Fortran-order arrays are not supported; save a C-order "
                "array (numpy.ascontiguousarray)");

  // The data the header promises must be in the file before anything is
  // allocated for it: a header of a few bytes may declare gigabytes.
  llvm::StringRef data = bytes.drop_front(headerStart + headerLength);
  int64_t needed = getDataTypeSize(*type);
  bool overflow = false;
  for (int64_t dim : shape)
    overflow = overflow || dim < 0 || llvm::MulOverflow(needed, dim, needed);
  if (!overflow && uint64_t(needed) <= HostBuffer::kMaxSizeInBytes &&
      data.size() != uint64_t(needed))
    return fail("holds " + llvm::Twine(data.size()) + " bytes of data, but " +
                getDataTypeName(*type) + "[" + formatShape(shape) + "] needs " +
                llvm::Twine(needed));
  llvm::Expected<HostBuffer> buffer = HostBuffer::create(*type, shape);
  if (!buffer)
    return fail(llvm::toString(buffer.takeError()));
  assert(data.size() == buffer->getSizeInBytes() && "checked above");
  // An array of no elements has no storage to copy into (memcpy's pointers
  // must not be null, even for 0 bytes).
  if (!data.empty())
    std::memcpy(buffer->getData(), data.data(), data.size());
  if (*type == DataType::I1)
    for (int64_t i = 0, e = buffer->getNumElements(); i < e; ++i)
      if (buffer->getData()[i] > 1)
        return fail("element " + llvm::Twine(i) +
                    " of a boolean array is neither 0 nor 1");
  return buffer;
}

llvm::Expected<HostBuffer> mlir::tile::readNpyFile(llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readBoundedFile(path, kNpyFile, /*requiresNullTerminator=*/false);
  if (!file)
    return file.takeError();
  return parseNpy((*file)->getMemBufferRef());
}

void mlir::tile::writeNpy(llvm::raw_ostream &os, const HostBuffer &buffer) {
  std::string header;
  llvm::raw_string_ostream headerOS(header);
  headerOS << "{'descr': '" << getNpyDType(buffer.getDataType())
           << "', 'fortran_order': False, 'shape': (";
  for (int64_t dim : buffer.getShape())
    headerOS << dim << (buffer.getShape().size() == 1 ? "," : ", ");
  if (buffer.getShape().size() > 1)
    header.resize(header.size() - 2);
  headerOS << "), }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes, then
  // end the header with a newline, as NumPy does.
  bool version1 = header.size() + 1 + 10 <= 0xffff;
  size_t prefix = version1 ? 10 : 12;
  size_t total = llvm::alignTo(prefix + header.size() + 1, 64);
  header.append(total - prefix - header.size() - 1, ' ');
  header.push_back('\n');

  os << kMagic;
  os << static_cast<char>(version1 ? 1 : 2) << '\0';
  char length[4];
  if (version1) {
    llvm::support::endian::write16le(length, header.size());
    os.write(length, 2);
  } else {
    llvm::support::endian::write32le(length, header.size());
    os.write(length, 4);
  }
  os << header;
  os.write(reinterpret_cast<const char *>(buffer.getData()),
           buffer.getSizeInBytes());
}

llvm::Error mlir::tile::writeNpyFile(llvm::StringRef path,
                                     const HostBuffer &buffer) {
  llvm::Error err = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    writeNpy(os, buffer);
    return llvm::Error::success();
  });
  // The error names the file: "'PATH': No such file or directory".
  if (err)
    return llvm::createStringError("cannot write " +
                                   llvm::toString(std::move(err)));
  return llvm::Error::success();
}
