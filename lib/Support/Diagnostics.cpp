//===- Diagnostics.cpp - Hints on the diagnostics of kernel files ---------===//
//
// See tile/Support/Diagnostics.h. The hints recognize MLIR's diagnostics by
// their text and their arguments (the types of a type mismatch are type
// arguments), and only ever add notes: a diagnostic they do not recognize
// is passed on as it came.
//
//===----------------------------------------------------------------------===//

#include "tile/Support/Diagnostics.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::tile;

/// `type` as the assembly writes it.
static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// A name for the value made from `name` (`%alpha`): `%alpha_tile`, or
/// `%tile` where `name` is a number (`%0`) or has no letters to start from.
static std::string getTileName(StringRef name) {
  StringRef base = name.drop_front().take_while(
      [](char c) { return llvm::isAlnum(c) || c == '_'; });
  if (base.empty() || !(llvm::isAlpha(base.front()) || base.front() == '_'))
    return "%tile";
  return ("%" + base + "_tile").str();
}

/// "use of value '%alpha' expects different type than prior uses:
/// 'tensor<256xf32>' vs 'f32'": a scalar where a tile is expected (splat
/// it), or a tile where a larger one is expected (broadcast it).
static void addTypeMismatchHint(Diagnostic &diag, StringRef message) {
  StringRef name = message;
  if (!name.consume_front("use of value '") ||
      !message.contains("' expects different type than prior uses: "))
    return;
  name = name.take_until([](char c) { return c == '\''; });
  SmallVector<Type, 2> types;
  for (const DiagnosticArgument &arg : diag.getArguments())
    if (arg.getKind() == DiagnosticArgument::DiagnosticArgumentKind::Type)
      types.push_back(arg.getAsType());
  if (types.size() != 2 || name.size() < 2)
    return;
  auto expected = dyn_cast<RankedTensorType>(types[0]);
  Type actual = types[1];
  if (!expected)
    return;
  std::string tileName = getTileName(name);
  if (!isa<ShapedType>(actual) && expected.getElementType() == actual) {
    diag.attachNote(diag.getLocation())
        << "'" << name
        << "' is a scalar; to use it as a tile, splat it: " << tileName
        << " = tile.splat " << name << " : " << printType(actual) << " -> "
        << printType(expected);
    return;
  }
  auto source = dyn_cast<RankedTensorType>(actual);
  if (!source || source.getElementType() != expected.getElementType() ||
      source.getRank() != expected.getRank() || !source.hasStaticShape() ||
      !expected.hasStaticShape())
    return;
  for (auto [from, to] : llvm::zip(source.getShape(), expected.getShape()))
    if (from != 1 && from != to)
      return;
  diag.attachNote(diag.getLocation())
      << "'" << name << "' is a tile of another shape; to repeat its "
      << "size-1 dimensions, broadcast it: " << tileName << " = tile.broadcast "
      << name << " : " << printType(actual) << " -> " << printType(expected);
}

/// What Triton calls an operation that the tile dialect spells otherwise,
/// for `name` after `tile.`: the note, or none.
static std::optional<std::string> getTritonNameHint(StringRef name) {
  if (name == "sum" || name == "max")
    return ("Triton's tl." + name + " is a reduction here: %r = tile.reduce " +
            name + " %x axis 0 : tensor<256xf32> -> f32")
        .str();
  if (name == "where")
    return std::string("Triton's tl.where is 'arith.select' here: %r = "
                       "arith.select %mask, %a, %b : tensor<256xi1>, "
                       "tensor<256xf32>");
  if (name == "maximum" || name == "minimum")
    return ("Triton's tl." + name + " is 'arith." + name +
            "f' here (for floats; 'arith." + name.take_front(3) +
            "si' for integers)")
        .str();
  return std::nullopt;
}

/// The registered operation of `name`'s dialect nearest to `name` by edit
/// distance, when it is close enough: at most a third of the letters after
/// the dialect's prefix apart, and at least one. A name without a dialect, or
/// of one that is not loaded (`tl.load`, as Triton writes it), is looked for
/// among the tile dialect's operations.
static std::optional<std::string> suggestOperation(MLIRContext *context,
                                                   StringRef name) {
  auto [dialectName, opName] = name.split('.');
  if (opName.empty())
    opName = dialectName;
  Dialect *dialect =
      name.contains('.') ? context->getLoadedDialect(dialectName) : nullptr;
  if (!dialect)
    dialect = context->getLoadedDialect(TileDialect::getDialectNamespace());
  if (!dialect || opName.empty())
    return std::nullopt;
  unsigned limit = std::max<unsigned>(1, opName.size() / 3);
  std::optional<std::string> best;
  unsigned bestDistance = limit + 1;
  for (RegisteredOperationName op : context->getRegisteredOperations()) {
    if (&op.getDialect() != dialect || op.getStringRef() == name)
      continue;
    StringRef candidate =
        op.getStringRef().drop_front(dialect->getNamespace().size() + 1);
    unsigned distance = opName.edit_distance(
        candidate, /*AllowReplacements=*/true, /*MaxEditDistance=*/limit);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = op.getStringRef().str();
    }
  }
  return best;
}

/// The name of the unknown operation that `message` reports, or "":
/// "custom op 'tile.lod' is unknown", "Dialect `tl' not found for custom op
/// 'tl.load'", or in generic form "unregistered operation 'tile.lod' found
/// in dialect ('tile') ...".
static StringRef getUnknownOperation(StringRef message) {
  StringRef rest = message;
  if (rest.consume_front("Dialect `")) {
    size_t at = rest.find("' not found for custom op '");
    if (at == StringRef::npos)
      return "";
    rest = rest.drop_front(at).drop_front(
        StringRef("' not found for custom op '").size());
  } else if (!(rest.consume_front("custom op '") &&
               message.contains("' is unknown")) &&
             !(rest.consume_front("unregistered operation '") &&
               message.contains("' found in dialect"))) {
    return "";
  }
  return rest.take_until([](char c) { return c == '\''; });
}

/// An unknown operation: Triton's name of a tile operation, or a nearby
/// name.
static void addUnknownOperationHint(Diagnostic &diag, StringRef message) {
  StringRef name = getUnknownOperation(message);
  if (name.empty())
    return;
  MLIRContext *context = diag.getLocation()->getContext();
  auto [dialectName, opName] = name.split('.');
  if (!opName.empty() && (dialectName == TileDialect::getDialectNamespace() ||
                          !context->getLoadedDialect(dialectName)))
    if (std::optional<std::string> hint = getTritonNameHint(opName)) {
      diag.attachNote(diag.getLocation()) << *hint;
      return;
    }
  if (std::optional<std::string> nearest = suggestOperation(context, name))
    diag.attachNote(diag.getLocation()) << "did you mean '" << *nearest << "'?";
}

static constexpr StringLiteral kCurrentOperation = "see current operation: ";

/// The operation `text` (MLIR's generic form, over several lines when it has
/// regions) on one line, its regions elided: `"tile.func"() <{...}> ({...})
/// : () -> ()`.
static std::string shortenOperation(StringRef text) {
  // An operation with regions comes on a line of its own.
  text = text.trim();
  if (!text.contains('\n'))
    return text.str();
  StringRef first = text.take_until([](char c) { return c == '\n'; });
  StringRef last = text.rsplit('\n').second.trim();
  return (first.rtrim() + "..." + last).str();
}

/// Appends `arg` to `diag`, with a copy of its text where it has one (the
/// diagnostic it came from owns that text).
static void appendArgument(Diagnostic &diag, const DiagnosticArgument &arg) {
  if (arg.getKind() == DiagnosticArgument::DiagnosticArgumentKind::String)
    diag << llvm::Twine(arg.getAsString());
  else
    diag << arg;
}

/// Drops the "see current operation" notes whose location is in a file (the
/// printing handler shows that line: the operation as written), and cuts the
/// others to the operation alone.
static void shortenOperationNotes(Diagnostic &diag) {
  bool found = false;
  for (Diagnostic &note : diag.getNotes())
    found |= StringRef(note.str()).starts_with(kCurrentOperation);
  // Metadata strings would not survive the copy below: leave such a
  // diagnostic as it is.
  for (const DiagnosticArgument &arg : diag.getMetadata())
    if (arg.getKind() == DiagnosticArgument::DiagnosticArgumentKind::String)
      return;
  if (!found)
    return;
  Diagnostic shortened(diag.getLocation(), diag.getSeverity());
  for (const DiagnosticArgument &arg : diag.getArguments())
    appendArgument(shortened, arg);
  for (const DiagnosticArgument &arg : diag.getMetadata())
    shortened.getMetadata().push_back(arg);
  for (Diagnostic &note : diag.getNotes()) {
    std::string text = note.str();
    if (!StringRef(text).starts_with(kCurrentOperation)) {
      Diagnostic &copy = shortened.attachNote(note.getLocation());
      for (const DiagnosticArgument &arg : note.getArguments())
        appendArgument(copy, arg);
      continue;
    }
    if (note.getLocation()->findInstanceOf<FileLineColRange>())
      continue;
    shortened.attachNote(note.getLocation())
        << kCurrentOperation
        << shortenOperation(
               StringRef(text).drop_front(kCurrentOperation.size()));
  }
  diag = std::move(shortened);
}

void mlir::tile::addDiagnosticHints(Diagnostic &diag) {
  if (diag.getSeverity() == DiagnosticSeverity::Error) {
    std::string message = diag.str();
    addTypeMismatchHint(diag, message);
    addUnknownOperationHint(diag, message);
  }
  shortenOperationNotes(diag);
}

DiagnosticHintHandler::DiagnosticHintHandler(MLIRContext *context)
    : ScopedDiagnosticHandler(context, [](Diagnostic &diag) {
        addDiagnosticHints(diag);
        return failure(); // On to the handler that prints it.
      }) {}

void mlir::tile::registerDiagnosticHints(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, TileDialect *) {
    // Lives as long as the context: it is never unregistered.
    context->getDiagEngine().registerHandler([](Diagnostic &diag) {
      addDiagnosticHints(diag);
      return failure();
    });
  });
}
