//===- Preprocessor.cpp - The meta-parameters of kernel files -------------===//
//
// Declarations are comment lines of the form `// tile.param NAME = VALUE`
// (an integer or an element type name); uses are `${NAME}`. See Preprocessor.h
// and docs/preprocessor.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Preprocessor/Preprocessor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::tile;

namespace {
/// Reports diagnostics located in the kernel's text.
class Reporter {
public:
  Reporter(const MemoryBuffer &source, raw_ostream &errs) : errs(errs) {
    sourceMgr.AddNewSourceBuffer(
        MemoryBuffer::getMemBuffer(source.getBuffer(),
                                   source.getBufferIdentifier(),
                                   /*RequiresNullTerminator=*/false),
        SMLoc());
  }

  bool error(const char *loc, const Twine &message) {
    sourceMgr.PrintMessage(errs, SMLoc::getFromPointer(loc),
                           SourceMgr::DK_Error, message);
    return false;
  }

private:
  SourceMgr sourceMgr;
  raw_ostream &errs;
};
} // namespace

/// The element types a type parameter may name.
static bool isTypeName(StringRef value) {
  return llvm::is_contained({"f16", "bf16", "f32", "i32", "i64"}, value);
}

/// Checks an integer or type-name value; the text to substitute in `out`.
static bool parseValue(StringRef value, std::string &out, bool &isType) {
  int64_t number;
  if (!value.getAsInteger(10, number)) {
    out = std::to_string(number);
    isType = false;
    return true;
  }
  if (isTypeName(value)) {
    out = value.str();
    isType = true;
    return true;
  }
  return false;
}

static bool isIdentifier(StringRef name) {
  if (name.empty() || !(isAlpha(name.front()) || name.front() == '_'))
    return false;
  return all_of(name, [](char c) { return isAlnum(c) || c == '_'; });
}

static std::string listNames(ArrayRef<KernelParam> params) {
  if (params.empty())
    return "it declares none";
  std::string names = "it declares ";
  interleave(
      params, [&](const KernelParam &p) { names += p.name; },
      [&] { names += ", "; });
  return names;
}

/// Parses the declarations: lines whose first token is `// tile.param`.
static bool parseDeclarations(StringRef text, Reporter &reporter,
                              std::vector<KernelParam> &params) {
  static constexpr StringLiteral keyword = "tile.param";
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    StringRef body = line.ltrim();
    if (!body.consume_front("//"))
      continue;
    body = body.ltrim();
    if (!body.starts_with(keyword))
      continue;
    StringRef decl = body.drop_front(keyword.size());
    if (!decl.empty() && !isSpace(decl.front()))
      continue; // Some other word that starts with "tile.param".
    auto [lhs, rhs] = decl.split('=');
    StringRef name = lhs.trim(), value = rhs.trim();
    KernelParam param;
    if (!decl.contains('=') || !isIdentifier(name) ||
        !parseValue(value, param.value, param.isType))
      return reporter.error(body.data(),
                            "malformed parameter declaration; expected "
                            "'// tile.param NAME = INTEGER' or "
                            "'// tile.param NAME = TYPE' (f16, bf16, f32, "
                            "i32, i64)");
    if (any_of(params, [&](auto &p) { return p.name == name; }))
      return reporter.error(name.data(),
                            "parameter '" + name + "' is declared twice");
    param.name = name.str();
    params.push_back(std::move(param));
  }
  return true;
}

/// Applies `-D NAME=VALUE` definitions to the declared parameters.
static bool applyDefines(ArrayRef<std::string> defines,
                         std::vector<KernelParam> &params, raw_ostream &errs) {
  SmallVector<StringRef> seen;
  for (StringRef define : defines) {
    auto [name, value] = define.split('=');
    name = name.trim();
    value = value.trim();
    if (!define.contains('=') || !isIdentifier(name)) {
      errs << "error: -D expects NAME=VALUE, got '" << define << "'\n";
      return false;
    }
    std::string parsed;
    bool isType;
    if (!parseValue(value, parsed, isType)) {
      errs << "error: -D " << name << ": '" << value
           << "' is neither an integer nor a type (f16, bf16, f32, i32, "
              "i64)\n";
      return false;
    }
    if (is_contained(seen, name)) {
      errs << "error: -D " << name << " is given twice\n";
      return false;
    }
    seen.push_back(name);
    auto param = find_if(params, [&](auto &p) { return p.name == name; });
    if (param == params.end()) {
      errs << "error: -D " << name << ": the kernel has no parameter '" << name
           << "' (" << listNames(params) << ")\n";
      return false;
    }
    if (param->isType != isType) {
      errs << "error: -D " << name << ": the kernel declares '" << name
           << "' as " << (param->isType ? "a type" : "an integer") << ", not "
           << (isType ? "a type" : "an integer") << "\n";
      return false;
    }
    param->value = parsed;
  }
  return true;
}

/// Replaces every `${NAME}` outside comments and string literals.
static bool substitute(StringRef text, Reporter &reporter,
                       ArrayRef<KernelParam> params, std::string &out) {
  out.reserve(text.size());
  bool inString = false, inComment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      inString = inComment = false;
    } else if (inComment) {
      // Copied as is.
    } else if (inString) {
      if (c == '\\' && i + 1 < text.size()) {
        out += c;
        c = text[++i];
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '/' && text.substr(i).starts_with("//")) {
      inComment = true;
    } else if (c == '$' && text.substr(i).starts_with("${")) {
      size_t close = text.find_first_of("}\n", i);
      StringRef name = close == StringRef::npos
                           ? StringRef()
                           : text.slice(i + 2, close).trim();
      if (close == StringRef::npos || text[close] != '}' || !isIdentifier(name))
        return reporter.error(text.data() + i,
                              "malformed parameter use; expected '${NAME}'");
      auto param = find_if(params, [&](auto &p) { return p.name == name; });
      if (param == params.end())
        return reporter.error(text.data() + i,
                              "unknown specialization parameter '" + name +
                                  "' (" + listNames(params) +
                                  "; declare it with '// tile.param " + name +
                                  " = DEFAULT')");
      out += param->value;
      i = close;
      continue;
    }
    out += c;
  }
  return true;
}

bool mlir::tile::preprocess(const MemoryBuffer &source,
                            ArrayRef<std::string> defines,
                            std::string &specialized,
                            std::vector<KernelParam> &params,
                            raw_ostream &errs) {
  Reporter reporter(source, errs);
  StringRef text = source.getBuffer();
  params.clear();
  specialized.clear();
  return parseDeclarations(text, reporter, params) &&
         applyDefines(defines, params, errs) &&
         substitute(text, reporter, params, specialized);
}

std::unique_ptr<MemoryBuffer>
mlir::tile::preprocess(std::unique_ptr<MemoryBuffer> source,
                       ArrayRef<std::string> defines, raw_ostream &errs) {
  std::string text;
  std::vector<KernelParam> params;
  if (!preprocess(*source, defines, text, params, errs))
    return nullptr;
  if (text == source->getBuffer())
    return source;
  return MemoryBuffer::getMemBufferCopy(text, source->getBufferIdentifier());
}
