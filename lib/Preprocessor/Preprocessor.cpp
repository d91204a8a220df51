//===- Preprocessor.cpp - The meta-parameters of kernel files -------------===//
//
// Declarations are comment lines of the form
// `// tile.param NAME = VALUE [in VALUE, VALUE, ...]` (integers or element
// type names); uses are `${NAME}`. See Preprocessor.h and
// docs/preprocessor.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Preprocessor/Preprocessor.h"

#include "tile/Support/Text.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
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

  unsigned getLine(const char *loc) const {
    return sourceMgr.getLineAndColumn(SMLoc::getFromPointer(loc)).first;
  }

private:
  SourceMgr sourceMgr;
  raw_ostream &errs;
};
} // namespace

/// The element types a type parameter may name.
static bool isTypeName(StringRef value) {
  return llvm::is_contained(
      {"f16", "bf16", "f32", "f8E4M3FN", "f8E5M2", "i32", "i64"}, value);
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

/// Whether `define` is of the form NAME=VALUE.
static bool isDefinition(StringRef define) {
  return define.contains('=') && isIdentifier(define.split('=').first.trim());
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

static std::string joinValues(ArrayRef<std::string> values) {
  return join(values, ", ");
}

static constexpr StringLiteral kDeclarationSyntax =
    "expected '// tile.param NAME = DEFAULT' or "
    "'// tile.param NAME = DEFAULT in VALUE, VALUE, ...', each value an "
    "integer or a type (f16, bf16, f32, i32, i64)";

/// Parses `DEFAULT [in VALUE, ...]` into `param`, DEFAULT a value or the
/// name of a parameter of `earlier`; the location of a bad part in `badLoc`
/// and a message in `message` on failure.
static bool parseValues(StringRef text, KernelParam &param,
                        ArrayRef<KernelParam> earlier, const char *&badLoc,
                        std::string &message) {
  StringRef defaultText = text, list;
  // The default ends at the first blank; what follows must be `in LIST`.
  size_t blank = text.find_first_of(" \t");
  if (blank != StringRef::npos) {
    defaultText = text.take_front(blank);
    StringRef rest = text.drop_front(blank).ltrim();
    const char *inLoc = rest.data();
    if (!rest.consume_front("in") ||
        (!rest.empty() && !isSpace(rest.front()))) {
      badLoc = inLoc;
      message = "expected 'in' and a list of values after the default";
      return false;
    }
    list = rest.trim();
    if (list.empty()) {
      badLoc = inLoc;
      message = "expected a list of values after 'in'";
      return false;
    }
  }
  if (!parseValue(defaultText, param.value, param.isType)) {
    const KernelParam *from = findParam(earlier, defaultText);
    if (!from) {
      badLoc = defaultText.data();
      message =
          isIdentifier(defaultText)
              ? "the default '" + defaultText.str() + "' of '" + param.name +
                    "' is no parameter declared above it (" +
                    listNames(earlier) + "), nor an integer or a type"
              : "malformed parameter declaration; " + kDeclarationSyntax.str();
      return false;
    }
    // The value (default or -D) of the parameter named: applyDefines takes
    // it again after the definitions.
    param.value = from->value;
    param.isType = from->isType;
    param.defaultFrom = from->name;
  }
  if (list.empty())
    return true;
  SmallVector<StringRef> items;
  list.split(items, ',');
  for (StringRef item : items) {
    StringRef trimmed = item.trim();
    std::string value;
    bool isType;
    if (!parseValue(trimmed, value, isType) || isType != param.isType) {
      badLoc = trimmed.empty() ? item.data() : trimmed.data();
      message =
          "'" + trimmed.str() + "' is not " +
          (param.isType ? "a type (f16, bf16, f32, i32, i64)" : "an integer") +
          ", as the default '" + param.value + "' is";
      return false;
    }
    if (is_contained(param.values, value)) {
      badLoc = trimmed.data();
      message = "value " + value + " is listed twice";
      return false;
    }
    param.values.push_back(value);
  }
  if (!is_contained(param.values, param.value)) {
    badLoc = defaultText.data();
    message = "the default " + param.value + " of '" + param.name + "' " +
              (param.defaultFrom.empty()
                   ? std::string()
                   : "(the default of '" + param.defaultFrom + "') ") +
              "is not one of its values (" + joinValues(param.values) + ")";
    return false;
  }
  return true;
}

/// Parses the declarations: lines whose first token is `// tile.param`.
/// Records where each was written in `locations`.
static bool parseDeclarations(StringRef text, Reporter &reporter,
                              std::vector<KernelParam> &params,
                              std::vector<const char *> &locations) {
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
    if (!decl.contains('=') || !isIdentifier(name) || value.empty())
      return reporter.error(body.data(), "malformed parameter declaration; " +
                                             kDeclarationSyntax);
    KernelParam param;
    param.name = name.str();
    param.line = reporter.getLine(body.data());
    const char *badLoc = nullptr;
    std::string message;
    if (!parseValues(value, param, params, badLoc, message))
      return reporter.error(badLoc, message);
    if (findParam(params, name))
      return reporter.error(name.data(),
                            "parameter '" + name + "' is declared twice");
    params.push_back(std::move(param));
    locations.push_back(name.data());
  }
  return true;
}

/// Applies `-D NAME=VALUE` definitions to the declared parameters.
static bool applyDefines(ArrayRef<std::string> defines,
                         std::vector<KernelParam> &params,
                         ArrayRef<const char *> locations, Reporter &reporter,
                         raw_ostream &errs) {
  SmallVector<StringRef> seen;
  for (StringRef define : defines) {
    auto [name, value] = define.split('=');
    name = name.trim();
    value = value.trim();
    if (!isDefinition(define)) {
      errs << "error: -D expects NAME=VALUE, got '"
           << escapeForDiagnostic(define) << "'\n";
      return false;
    }
    std::string parsed;
    bool isType;
    if (!parseValue(value, parsed, isType)) {
      errs << "error: -D " << escapeForDiagnostic(name) << ": '"
           << escapeForDiagnostic(value)
           << "' is neither an integer nor a type (f16, bf16, f32, "
              "f8E4M3FN, f8E5M2, i32, i64)\n";
      return false;
    }
    if (is_contained(seen, name)) {
      errs << "error: -D " << escapeForDiagnostic(name) << " is given twice\n";
      return false;
    }
    seen.push_back(name);
    auto param = find_if(params, [&](auto &p) { return p.name == name; });
    if (param == params.end()) {
      errs << "error: -D " << escapeForDiagnostic(name)
           << ": the kernel has no parameter '" << escapeForDiagnostic(name)
           << "' (" << listNames(params) << ")\n";
      return false;
    }
    if (param->isType != isType) {
      errs << "error: -D " << name << ": the kernel declares '" << name
           << "' as " << (param->isType ? "a type" : "an integer") << ", not "
           << (isType ? "a type" : "an integer") << "\n";
      return false;
    }
    if (!param->values.empty() && !is_contained(param->values, parsed))
      return reporter.error(locations[param - params.begin()],
                            "-D " + name + "=" + parsed +
                                " is not one of the "
                                "values '" +
                                name + "' declares here (" +
                                joinValues(param->values) + ")");
    param->value = parsed;
    param->isDefined = true;
  }
  // A default naming another parameter takes that one's value, as given
  // (declarations name only parameters above them, so one pass in order
  // resolves chains).
  for (auto [index, param] : llvm::enumerate(params)) {
    if (param.defaultFrom.empty() || param.isDefined)
      continue;
    param.value = findParam(params, param.defaultFrom)->value;
    if (!param.values.empty() && !is_contained(param.values, param.value))
      return reporter.error(locations[index],
                            "'" + param.name + "' takes the value " +
                                param.value + " of '" + param.defaultFrom +
                                "', which is not one of the values it "
                                "declares here (" +
                                joinValues(param.values) +
                                "); give it one "
                                "with -D " +
                                param.name + "=VALUE");
  }
  return true;
}

/// Whether the use `${...}` in `text[begin, end]` is a dimension of a shape,
/// `tensor<${BLOCK}xf32>` or `tensor<4x${BLOCK}xf32>`: after `<` or `x`,
/// before `x`. Such a parameter is a tile size.
static bool isShapeDimension(StringRef text, size_t begin, size_t end) {
  return begin > 0 && (text[begin - 1] == '<' || text[begin - 1] == 'x') &&
         end + 1 < text.size() && text[end + 1] == 'x';
}

/// The error for a use in a shape whose value is negative: `param` is the
/// parameter of a use of one, null for a product.
static std::string getNegativeSizeMessage(StringRef use, StringRef value,
                                          const KernelParam *param) {
  if (!param)
    return ("'" + use + "' is " + value +
            " here, a negative tile size: the dimensions of a shape are "
            "non-negative integers")
        .str();
  std::string what = param->isDefined ? "-D " + param->name + "=" + value.str()
                                      : "the default " + value.str() + " of '" +
                                            param->name + "'";
  return what + " is a negative tile size: '" + param->name +
         "' is a dimension of this shape, and the dimensions of a shape are "
         "non-negative integers";
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
      if (close == StringRef::npos || text[close] != '}')
        return reporter.error(text.data() + i,
                              "malformed parameter use; expected '${NAME}' "
                              "or a product '${NAME * NAME}'");
      // A name, or a product of names and integers.
      SmallVector<StringRef> factors;
      text.slice(i + 2, close).split(factors, '*');
      std::string value;
      int64_t product = 1;
      const KernelParam *named = nullptr;
      for (StringRef factor : factors) {
        factor = factor.trim();
        int64_t number = 0;
        if (!factor.empty() && !factor.getAsInteger(10, number)) {
          value.clear();
        } else if (!isIdentifier(factor)) {
          return reporter.error(text.data() + i,
                                "malformed parameter use; expected '${NAME}' "
                                "or a product '${NAME * NAME}'");
        } else {
          auto param =
              find_if(params, [&](auto &p) { return p.name == factor; });
          if (param == params.end())
            return reporter.error(text.data() + i,
                                  "unknown specialization parameter '" +
                                      factor + "' (" + listNames(params) +
                                      "; declare it with '// tile.param " +
                                      factor + " = DEFAULT')");
          value = param->value;
          named = &*param;
          if (factors.size() > 1 &&
              StringRef(param->value).getAsInteger(10, number))
            return reporter.error(text.data() + i,
                                  "parameter '" + factor + "' is the type '" +
                                      param->value +
                                      "'; a product needs integers");
        }
        if (factors.size() > 1 && llvm::MulOverflow(product, number, product))
          return reporter.error(text.data() + i,
                                "the product overflows 64 bits");
      }
      std::string substituted =
          factors.size() > 1 ? std::to_string(product) : value;
      if (factors.size() == 1 && value.empty())
        substituted = factors.front().trim().str();
      if (isShapeDimension(text, i, close) &&
          StringRef(substituted).starts_with("-"))
        return reporter.error(
            text.data() + i,
            getNegativeSizeMessage(text.slice(i, close + 1), substituted,
                                   factors.size() == 1 ? named : nullptr));
      out += substituted;
      i = close;
      continue;
    }
    out += c;
  }
  return true;
}

bool mlir::tile::checkDefineArguments(ArrayRef<const char *> args,
                                      StringRef tool, raw_ostream &errs) {
  for (size_t i = 1; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (arg == "--")
      break;
    StringRef define;
    size_t next = i + 1;
    if (arg == "-D" || arg == "--D") {
      if (next >= args.size())
        continue; // The command line parser says that -D needs a value.
      define = args[next];
      ++next;
      ++i;
    } else if (!arg.consume_front("-D")) {
      continue;
    } else {
      define = arg;
    }
    if (isDefinition(define))
      continue;
    WithColor::error(errs, tool)
        << "-D expects NAME=VALUE, got '" << escapeForDiagnostic(define) << "'";
    // `-D BLOCK 512`: the value came as an argument of its own.
    std::string value;
    bool isType;
    if (isIdentifier(define) && next < args.size() &&
        parseValue(args[next], value, isType))
      errs << "; to set " << define << " to " << args[next] << ", write -D "
           << define << "=" << args[next];
    errs << "\n";
    return false;
  }
  return true;
}

const KernelParam *mlir::tile::findParam(ArrayRef<KernelParam> params,
                                         StringRef name) {
  auto it =
      find_if(params, [&](const KernelParam &p) { return p.name == name; });
  return it == params.end() ? nullptr : &*it;
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
  std::vector<const char *> locations;
  return parseDeclarations(text, reporter, params, locations) &&
         applyDefines(defines, params, locations, reporter, errs) &&
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
