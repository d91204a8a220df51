//===- KernelSource.cpp - A kernel file, loaded and checked ---------------===//
//
// See tile/Runtime/KernelSource.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/KernelSource.h"

#include "tile/Support/Diagnostics.h"
#include "tile/Support/FileRead.h"
#include "tile/Support/Text.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// DiagnosedError
//===----------------------------------------------------------------------===//

char DiagnosedError::ID = 0;

void DiagnosedError::log(llvm::raw_ostream &os) const { os << summary; }

std::error_code DiagnosedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

//===----------------------------------------------------------------------===//
// KernelSource
//===----------------------------------------------------------------------===//

struct KernelSource::Impl {
  // One kernel to a context, and contexts made and compiled on threads of
  // their own (the tuner's candidates): none needs a thread pool of its own.
  Impl() : context(makeRegistry(), MLIRContext::Threading::DISABLED) {
    // Runtime errors name the op by its source line; the generic form of
    // the op would only repeat it.
    context.printOpOnDiagnostic(false);
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerCompilerDialects(registry);
    return registry;
  }
  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
  /// Registered after `handler`, so it sees each diagnostic first.
  std::unique_ptr<DiagnosticHintHandler> hints;
  OwningOpRef<ModuleOp> module;
};

KernelSource::KernelSource() : impl(std::make_unique<Impl>()) {}
KernelSource::~KernelSource() = default;

llvm::Expected<std::unique_ptr<KernelSource>>
KernelSource::loadFile(llvm::StringRef path, const Options &options) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> input =
      readBoundedFile(path, kKernelFile);
  if (!input)
    return input.takeError();
  std::unique_ptr<KernelSource> source(new KernelSource());
  source->fileName = path.str();
  if (llvm::Error err = source->load(std::move(*input), options))
    return std::move(err);
  return std::move(source);
}

llvm::Expected<std::unique_ptr<KernelSource>>
KernelSource::loadString(llvm::StringRef text, llvm::StringRef bufferName,
                         const Options &options) {
  std::unique_ptr<KernelSource> source(new KernelSource());
  source->fileName = bufferName.str();
  if (llvm::Error err = source->load(
          llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), options))
    return std::move(err);
  return std::move(source);
}

llvm::Error KernelSource::load(std::unique_ptr<llvm::MemoryBuffer> buffer,
                               const Options &options) {
  diagnostics = options.diagnostics ? options.diagnostics : &llvm::errs();
  if (llvm::Error err =
          checkKernelText(buffer->getBuffer(), buffer->getBufferIdentifier()))
    return err;
  text = buffer->getBuffer().str();
  std::string specialized;
  if (!preprocess(*buffer, options.defines, specialized, params, *diagnostics))
    return llvm::make_error<DiagnosedError>(
        "the kernel file's meta-parameters are wrong");
  impl->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(specialized,
                                           buffer->getBufferIdentifier()),
      llvm::SMLoc());
  impl->handler = std::make_unique<SourceMgrDiagnosticHandler>(
      impl->sourceMgr, &impl->context, *diagnostics);
  impl->hints = std::make_unique<DiagnosticHintHandler>(&impl->context);
  impl->module =
      parseSourceFile<ModuleOp>(impl->sourceMgr, ParserConfig(&impl->context));
  if (!impl->module)
    return llvm::make_error<DiagnosedError>(
        "the kernel file does not parse or verify");

  SmallVector<FuncOp> kernels(impl->module->getOps<FuncOp>());
  std::string names =
      llvm::join(llvm::map_range(kernels,
                                 [](FuncOp kernel) {
                                   return "@" + kernel.getSymName().str();
                                 }),
                 ", ");
  if (!options.kernelName.empty()) {
    for (FuncOp candidate : kernels)
      if (candidate.getSymName() == options.kernelName)
        kernel = candidate;
    if (!kernel)
      return llvm::createStringError(
          "no kernel named '" + options.kernelName + "' in " + fileName +
          (kernels.empty() ? llvm::Twine(" (it has none)")
                           : llvm::Twine(" (it has ") + names + ")"));
    return llvm::Error::success();
  }
  if (kernels.size() == 1) {
    kernel = kernels.front();
    return llvm::Error::success();
  }
  if (kernels.empty())
    return llvm::createStringError(fileName + " has no kernel (no tile.func)");
  return llvm::createStringError(fileName + " has " +
                                 llvm::Twine(kernels.size()) + " kernels (" +
                                 names + "); choose one with --kernel NAME");
}

llvm::StringRef KernelSource::getKernelName() const {
  return kernel.getSymName();
}

std::string KernelSource::getSignature() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "@" << kernel.getSymName() << "(";
  llvm::interleaveComma(kernel.getArgumentTypes(), os);
  os << ")";
  return result;
}

std::vector<std::string> KernelSource::getParameterNames() const {
  // Each argument's location is where the file names it: `%output`.
  std::vector<std::string> names;
  for (BlockArgument argument : kernel.getArguments()) {
    std::string name;
    if (auto loc = dyn_cast<FileLineColLoc>(argument.getLoc())) {
      unsigned buffer = impl->sourceMgr.getMainFileID();
      llvm::SMLoc at = impl->sourceMgr.FindLocForLineAndColumn(
          buffer, loc.getLine(), loc.getColumn());
      if (at.isValid()) {
        llvm::StringRef rest(
            at.getPointer(),
            impl->sourceMgr.getMemoryBuffer(buffer)->getBufferEnd() -
                at.getPointer());
        if (rest.consume_front("%"))
          name = rest.take_while([](char c) {
                       return llvm::isAlnum(c) || c == '_' || c == '$' ||
                              c == '.' || c == '-';
                     })
                     .str();
      }
    }
    names.push_back(std::move(name));
  }
  return names;
}

llvm::Expected<std::vector<std::unique_ptr<KernelSource>>>
mlir::tile::loadKernelSources(llvm::ArrayRef<std::string> paths,
                              const KernelSource::Options &options,
                              std::optional<size_t> argumentCount) {
  std::vector<std::string> files(paths.begin(), paths.end());
  if (files.empty())
    files.push_back("-");
  std::vector<std::unique_ptr<KernelSource>> sources;
  for (const std::string &path : files) {
    llvm::Expected<std::unique_ptr<KernelSource>> source =
        KernelSource::loadFile(path, options);
    if (!source)
      return source.takeError();
    if (argumentCount)
      if (llvm::Error err = (*source)->checkArgumentCount(*argumentCount))
        return std::move(err);
    sources.push_back(std::move(*source));
  }
  return sources;
}

llvm::Error KernelSource::checkArgumentCount(size_t count) const {
  size_t expected = kernel.getNumArguments();
  if (count == expected)
    return llvm::Error::success();
  return llvm::createStringError(getSignature() + " takes " +
                                 llvm::Twine(expected) +
                                 " arguments; --arg "
                                 "gives " +
                                 llvm::Twine(count));
}

llvm::Error KernelSource::checkArgSpec(unsigned index,
                                       const ArgSpec &spec) const {
  if (index >= kernel.getNumArguments())
    return llvm::createStringError(getSignature() + " has no parameter " +
                                   llvm::Twine(index));
  return checkArgumentType(kernel.getArgumentTypes()[index], spec.type,
                           spec.isBuffer());
}

llvm::Error
KernelSource::checkArgumentValues(llvm::ArrayRef<KernelArg> args) const {
  // Tensor descriptors follow TMA's rules on every path the launch may take
  // (tile/Dialect/Tile/IR/Tile.h, checkTensorDescValues).
  MakeTensorDescOp brokenDesc;
  std::string brokenRule;
  kernel.walk([&](MakeTensorDescOp desc) {
    brokenRule =
        checkTensorDescValues(desc, [&](Value value) -> std::optional<int64_t> {
          if (auto argument = dyn_cast<BlockArgument>(value)) {
            unsigned index = argument.getArgNumber();
            if (index >= args.size() || args[index].isBuffer() ||
                isFloatDataType(args[index].getDataType()))
              return std::nullopt;
            return args[index].getScalar().getSExtValue();
          }
          llvm::APInt constant;
          if (matchPattern(value, m_ConstantInt(&constant)))
            return constant.getSExtValue();
          return std::nullopt;
        });
    if (brokenRule.empty())
      return WalkResult::advance();
    brokenDesc = desc;
    return WalkResult::interrupt();
  });
  if (brokenDesc) {
    brokenDesc.emitOpError(brokenRule);
    return llvm::make_error<DiagnosedError>(
        "a launch argument breaks a rule of a tensor descriptor");
  }

  for (auto [index, arg] : llvm::enumerate(args)) {
    if (index >= kernel.getNumArguments() || arg.isBuffer() ||
        isFloatDataType(arg.getDataType()))
      continue;
    int64_t value = arg.getScalar().getSExtValue();
    std::string broken = checkIntegerArgument(kernel, index, value);
    if (broken.empty())
      continue;
    // A bound usually comes from a meta-parameter: name the ones whose
    // value it is.
    auto bound = kernel.getArgAttrOfType<IntegerAttr>(
        index, TileDialect::getMaxValueAttrName());
    SmallVector<std::string> setters;
    if (bound && value > bound.getInt())
      for (const KernelParam &param : params)
        if (!param.isType && param.value == std::to_string(bound.getInt()))
          setters.push_back(param.name);
    if (!setters.empty())
      broken += " (the value of " + llvm::join(setters, ", ") +
                ": set a larger value, or tune the kernel)";
    kernel.emitError(broken);
    return llvm::make_error<DiagnosedError>("a launch argument breaks a "
                                            "promise of the kernel");
  }
  return llvm::Error::success();
}

llvm::Error KernelSource::checkOutputIndex(unsigned index) const {
  if (index >= kernel.getNumArguments())
    return llvm::createStringError(getSignature() + " has no parameter " +
                                   llvm::Twine(index));
  if (!isa<PointerType>(kernel.getArgumentTypes()[index]))
    return llvm::createStringError("parameter " + llvm::Twine(index) +
                                   " is a scalar; only buffers can be written");
  return llvm::Error::success();
}

llvm::Expected<KernelSpecialization>
KernelSource::getSpecialization(llvm::ArrayRef<KernelArg> args) const {
  return specializeArguments(kernel, args);
}

llvm::Expected<KernelSpecialization>
KernelSource::getSpecialization(llvm::ArrayRef<ArgSpec> specs) const {
  // The values of scalars and which arguments are buffers are all the
  // specialization needs: the buffers stay empty.
  SmallVector<KernelArg> args;
  for (const ArgSpec &spec : specs) {
    if (spec.isBuffer())
      args.push_back(llvm::cantFail(HostBuffer::create(spec.type, {0})));
    else
      args.push_back(spec.value);
  }
  return specializeArguments(kernel, args);
}

llvm::Expected<CompiledKernel>
KernelSource::compile(const KernelSpecialization &specialization,
                      const CompileOptions &options) const {
  llvm::Expected<CompiledKernel> compiled =
      compileKernel(kernel, specialization, options);
  if (compiled && !compiled->cacheWarning.empty())
    llvm::WithColor::warning(*diagnostics, "tile-run")
        << "compile cache: " << escapeForDiagnostic(compiled->cacheWarning)
        << "\n";
  return compiled;
}

llvm::Expected<CompiledKernel>
KernelSource::compile(llvm::ArrayRef<ArgSpec> specs,
                      const CompileOptions &options) const {
  KernelSpecialization specialization;
  if (!specs.empty()) {
    llvm::Expected<KernelSpecialization> fromSpecs = getSpecialization(specs);
    if (!fromSpecs)
      return fromSpecs.takeError();
    specialization = *fromSpecs;
  }
  return compile(specialization, options);
}

llvm::Expected<CompiledKernel>
KernelSource::compile(llvm::ArrayRef<KernelArg> args,
                      const CompileOptions &options) const {
  llvm::Expected<KernelSpecialization> specialization = getSpecialization(args);
  if (!specialization)
    return specialization.takeError();
  return compile(*specialization, options);
}

llvm::Expected<SmallVector<ArgSpec>> mlir::tile::parseArgSpecs(
    llvm::ArrayRef<std::string> texts,
    llvm::ArrayRef<std::unique_ptr<KernelSource>> variants) {
  SmallVector<ArgSpec> specs;
  for (auto [index, text] : llvm::enumerate(texts)) {
    llvm::Expected<ArgSpec> spec = parseArgSpec(text);
    llvm::Error err = spec ? llvm::Error::success() : spec.takeError();
    for (const auto &variant : variants)
      if (!err)
        err = variant->checkArgSpec(index, *spec);
    if (err)
      return llvm::createStringError("--arg " + llvm::Twine(index) + " ('" +
                                     text +
                                     "'): " + llvm::toString(std::move(err)));
    specs.push_back(std::move(*spec));
  }
  return specs;
}

llvm::Expected<SmallVector<KernelArg>>
mlir::tile::createKernelArgs(llvm::ArrayRef<ArgSpec> specs,
                             llvm::ArrayRef<std::string> texts) {
  SmallVector<KernelArg> args;
  for (auto [index, spec] : llvm::enumerate(specs)) {
    llvm::Expected<KernelArg> arg = createKernelArg(spec);
    if (!arg)
      return llvm::createStringError(
          "--arg " + llvm::Twine(index) + " ('" +
          (index < texts.size() ? texts[index] : std::string()) +
          "'): " + llvm::toString(arg.takeError()));
    args.push_back(std::move(*arg));
  }
  return args;
}
