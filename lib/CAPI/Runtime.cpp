//===- Runtime.cpp - The C API of tile's runtime --------------------------===//
//
// A thin layer over the C++ runtime (KernelSource, loadTunedKernel,
// loadKernel, launchKernel, KernelRunner): C types in and out, every
// llvm::Error turned into a status and a message (tile_last_error), every C++
// exception caught at the boundary. This file is compiled with exceptions so
// that it can catch them; the rest of the project is not.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Runtime.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/HostData/ArgSpec.h"
#include "tile/HostData/KernelArg.h"
#include "tile/Runtime/Compiler.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/KernelRunner.h"
#include "tile/Runtime/Tuner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::tile;

static_assert(TILE_DTYPE_F16 == static_cast<int>(DataType::F16) &&
                  TILE_DTYPE_BF16 == static_cast<int>(DataType::BF16) &&
                  TILE_DTYPE_F32 == static_cast<int>(DataType::F32) &&
                  TILE_DTYPE_I1 == static_cast<int>(DataType::I1) &&
                  TILE_DTYPE_I32 == static_cast<int>(DataType::I32) &&
                  TILE_DTYPE_I64 == static_cast<int>(DataType::I64),
              "tile_dtype mirrors DataType");
static_assert(sizeof(tile_launch_packet) == 32,
              "the packet's values start 32 bytes in");

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

namespace {
/// The message of the last error on this thread.
thread_local std::string lastError;

/// An error of a kind, on its way to the C boundary.
struct Failure {
  tile_status status;
  std::string message;
};
} // namespace

static tile_status succeed() {
  lastError.clear();
  return TILE_SUCCESS;
}

static tile_status fail(tile_status status, const llvm::Twine &message) {
  lastError = message.str();
  return status;
}

static tile_status fail(const Failure &failure) {
  return fail(failure.status, failure.message);
}

/// Runs `body` (returning a tile_status), turning every exception into an
/// error: nothing is thrown across the C boundary.
template <typename Body> static tile_status guard(Body &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return fail(TILE_ERROR_INTERNAL, "out of memory");
  } catch (const std::exception &e) {
    return fail(TILE_ERROR_INTERNAL,
                llvm::Twine("internal error: ") + e.what());
  } catch (...) {
    return fail(TILE_ERROR_INTERNAL, "internal error");
  }
}

/// The integer `value` of a tile_dtype, as a DataType; none when it is not
/// one.
static std::optional<DataType> toDataType(int32_t value) {
  switch (value) {
  case TILE_DTYPE_F16:
  case TILE_DTYPE_BF16:
  case TILE_DTYPE_F32:
  case TILE_DTYPE_I1:
  case TILE_DTYPE_I32:
  case TILE_DTYPE_I64:
    return static_cast<DataType>(value);
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Parameter tables
//===----------------------------------------------------------------------===//

namespace {
/// A kernel's parameters as tile_param_info, with the strings they point to.
struct ParamTable {
  std::vector<std::string> names;
  std::vector<tile_param_info> infos;

  void fill(FuncOp kernel, std::vector<std::string> paramNames) {
    names = std::move(paramNames);
    names.resize(kernel.getNumArguments());
    infos.clear();
    for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
      tile_param_info info{};
      info.name = names[index].c_str();
      std::optional<DataType> dtype;
      if (auto pointer = dyn_cast<PointerType>(type)) {
        info.is_pointer = 1;
        dtype = getDataType(pointer.getPointeeType());
      } else {
        dtype = getDataType(type);
      }
      info.dtype =
          dtype && isHostDataType(*dtype) ? static_cast<int32_t>(*dtype) : -1;
      auto divisibility = kernel.getArgAttrOfType<IntegerAttr>(
          index, TileDialect::getDivisibilityAttrName());
      info.divisibility = divisibility ? divisibility.getInt() : 0;
      auto maxValue = kernel.getArgAttrOfType<IntegerAttr>(
          index, TileDialect::getMaxValueAttrName());
      info.max_value = maxValue ? maxValue.getInt() : INT64_MAX;
      infos.push_back(info);
    }
  }
};

/// Meta-parameters as tile_meta_param_info, with their strings.
struct MetaTable {
  std::vector<KernelParam> params;
  std::vector<std::string> values;
  std::vector<tile_meta_param_info> infos;

  void fill(llvm::ArrayRef<KernelParam> from) {
    params.assign(from.begin(), from.end());
    values.clear();
    for (const KernelParam &param : params)
      values.push_back(llvm::join(param.values, ","));
    infos.clear();
    for (auto [param, allowed] : llvm::zip_equal(params, values))
      infos.push_back({param.name.c_str(), param.value.c_str(),
                       param.isType ? 1 : 0, param.isDefined ? 1 : 0,
                       allowed.c_str()});
  }

  /// "NAME=VALUE ..." of every parameter.
  std::string str() const {
    return llvm::join(llvm::map_range(params,
                                      [](const KernelParam &param) {
                                        return param.name + "=" + param.value;
                                      }),
                      " ");
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Kernels and functions
//===----------------------------------------------------------------------===//

struct tile_kernel {
  std::mutex mutex;
  /// What the kernel's sources print (diagnostics, warnings), during a call.
  std::string diagnosticsText;
  llvm::raw_string_ostream diagnostics{diagnosticsText};
  /// tile_kernel_messages: the last call's notes and diagnostics.
  std::string messages;
  /// The options every variant (and every configuration of one) is loaded
  /// with: the -D set by hand, the kernel's name, the diagnostic stream.
  KernelSource::Options options;
  /// The kernel files as loaded, each the base of its configurations.
  std::vector<std::unique_ptr<KernelSource>> variants;
  std::string name, signature;
  ParamTable params;
  MetaTable meta;
  /// Functions by the key of the launches they serve (see prepareKey), and
  /// the functions themselves by what was compiled.
  std::map<std::string, tile_function *> prepared;
  std::map<std::string, std::unique_ptr<tile_function>> functions;
  /// tile_kernel_compile's result.
  std::string binary;
};

struct tile_function {
  tile_kernel *kernel = nullptr;
  Target target = Target::CPU;
  int device = 0;
  unsigned variant = 0;
  /// The kernel with its meta-parameters as chosen.
  std::unique_ptr<KernelSource> source;
  std::string config;
  std::string specialization;
  ParamTable params;
  MetaTable meta;
  size_t numParams = 0;
  // The CUDA target.
  CudaDevice *cudaDevice = nullptr;
  std::optional<LoadedKernel> loaded;
  unsigned blockSize = 0;
  /// Persistent grids by their cap.
  std::map<int64_t, int64_t> persistentGrids;

  ~tile_function() {
    // A module unloads from its context, which must be current.
    if (cudaDevice) {
      CudaContextScope scope(*cudaDevice);
      loaded.reset();
    }
  }
};

namespace {
/// One call on a kernel: holds its lock, starts its diagnostics afresh, and
/// leaves what was printed in its messages.
class KernelCall {
public:
  explicit KernelCall(tile_kernel &kernel)
      : kernel(kernel), lock(kernel.mutex) {
    kernel.diagnosticsText.clear();
  }
  ~KernelCall() { kernel.messages = notesText + kernel.diagnosticsText; }

  /// Where notes on the choices made go.
  llvm::raw_ostream &notes() { return notesStream; }

  /// A Failure of `status` from `err`: the message, after the diagnostics
  /// printed for it where the library printed them.
  Failure toFailure(tile_status status, llvm::Error err,
                    const llvm::Twine &context = "") {
    std::string message;
    bool diagnosed = false;
    llvm::handleAllErrors(
        std::move(err),
        [&](const DiagnosedError &error) {
          diagnosed = true;
          message = error.message();
        },
        [&](const llvm::ErrorInfoBase &error) { message = error.message(); });
    std::string prefix = context.str();
    if (diagnosed && !kernel.diagnosticsText.empty())
      message += ":\n" + llvm::StringRef(kernel.diagnosticsText).rtrim().str();
    return {status, prefix + message};
  }

private:
  tile_kernel &kernel;
  std::lock_guard<std::mutex> lock;
  std::string notesText;
  llvm::raw_string_ostream notesStream{notesText};
};
} // namespace

/// The GPU `ordinal`, opened once per process and never closed (a function
/// loaded on it may live until the process ends).
static llvm::Expected<CudaDevice &> getDevice(int ordinal) {
  static std::mutex mutex;
  static auto *devices = new std::map<int, std::unique_ptr<CudaDevice>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto found = devices->find(ordinal);
  if (found != devices->end())
    return *found->second;
  llvm::Expected<std::unique_ptr<CudaDevice>> device =
      CudaDevice::open(ordinal);
  if (!device)
    return device.takeError();
  CudaDevice &result = **device;
  devices->emplace(ordinal, std::move(*device));
  return result;
}

//===----------------------------------------------------------------------===//
// Status, errors and types
//===----------------------------------------------------------------------===//

const char *tile_last_error(void) { return lastError.c_str(); }

const char *tile_version(void) { return getCompilerVersion().data(); }

const char *tile_dtype_name(int32_t dtype) {
  std::optional<DataType> type = toDataType(dtype);
  return type ? getDataTypeName(*type).data() : "";
}

tile_status tile_cuda_device_count(int32_t *count) {
  return guard([&] {
    if (!count)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_cuda_device_count: null count");
    *count = 0;
    CudaContextScope scope;
    llvm::Expected<int> devices = getCudaDeviceCount();
    if (!devices)
      return fail(TILE_ERROR_CUDA, llvm::toString(devices.takeError()));
    *count = *devices;
    return succeed();
  });
}

tile_status tile_cuda_synchronize(int32_t device) {
  return guard([&] {
    CudaContextScope saved;
    llvm::Expected<CudaDevice &> opened = getDevice(device);
    if (!opened)
      return fail(TILE_ERROR_CUDA, llvm::toString(opened.takeError()));
    CudaContextScope scope(*opened);
    if (llvm::Error err = opened->synchronize())
      return fail(TILE_ERROR_CUDA, llvm::toString(std::move(err)));
    return succeed();
  });
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Loads `texts` (or `paths`, when `texts` is empty) into a new kernel.
static tile_status loadKernel(llvm::ArrayRef<std::string> paths,
                              llvm::ArrayRef<std::string> texts,
                              const tile_load_options *options,
                              tile_kernel **result) {
  if (!result)
    return fail(TILE_ERROR_INVALID_CALL, "tile_kernel_load: null result");
  *result = nullptr;
  if (options && options->num_defines && !options->defines)
    return fail(TILE_ERROR_INVALID_CALL, "tile_kernel_load: null defines");
  auto kernel = std::make_unique<tile_kernel>();
  KernelCall call(*kernel);
  kernel->options.diagnostics = &kernel->diagnostics;
  if (options) {
    if (options->kernel_name)
      kernel->options.kernelName = options->kernel_name;
    for (size_t i = 0; i < options->num_defines; ++i) {
      if (!options->defines[i])
        return fail(TILE_ERROR_INVALID_CALL, "tile_kernel_load: null define");
      kernel->options.defines.push_back(options->defines[i]);
    }
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    llvm::Expected<std::unique_ptr<KernelSource>> source =
        texts.empty()
            ? KernelSource::loadFile(paths[i], kernel->options)
            : KernelSource::loadString(texts[i], paths[i], kernel->options);
    if (!source)
      return fail(call.toFailure(TILE_ERROR_KERNEL, source.takeError()));
    if (!kernel->variants.empty()) {
      const KernelSource &first = *kernel->variants.front();
      // Each variant has a context of its own: compare the types' text.
      auto types = [](const KernelSource &source) {
        std::string text;
        llvm::raw_string_ostream os(text);
        llvm::interleaveComma(source.getKernel().getArgumentTypes(), os);
        return text;
      };
      if (types(**source) != types(first))
        return fail(TILE_ERROR_KERNEL,
                    "the variants of a launch take the same arguments: " +
                        paths[i] + " has " + (*source)->getSignature() + ", " +
                        first.getFileName() + " " + first.getSignature());
    }
    kernel->variants.push_back(std::move(*source));
  }
  const KernelSource &first = *kernel->variants.front();
  kernel->name = first.getKernelName().str();
  kernel->signature = first.getSignature();
  kernel->params.fill(first.getKernel(), first.getParameterNames());
  kernel->meta.fill(first.getParams());
  *result = kernel.release();
  return succeed();
}

tile_status tile_kernel_load_file(const char *path,
                                  const tile_load_options *options,
                                  tile_kernel **kernel) {
  return tile_kernel_load_files(&path, 1, options, kernel);
}

tile_status tile_kernel_load_files(const char *const *paths, size_t num_paths,
                                   const tile_load_options *options,
                                   tile_kernel **kernel) {
  return guard([&] {
    if (!paths || num_paths == 0)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_kernel_load_files: no kernel file");
    std::vector<std::string> files;
    for (size_t i = 0; i < num_paths; ++i) {
      if (!paths[i])
        return fail(TILE_ERROR_INVALID_CALL,
                    "tile_kernel_load_files: null path");
      files.push_back(paths[i]);
    }
    return loadKernel(files, {}, options, kernel);
  });
}

tile_status tile_kernel_load_string(const char *text, const char *name,
                                    const tile_load_options *options,
                                    tile_kernel **kernel) {
  return guard([&] {
    if (!text)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_kernel_load_string: null text");
    std::string bufferName = name && *name ? name : "<string>";
    return loadKernel({bufferName}, {text}, options, kernel);
  });
}

void tile_kernel_destroy(tile_kernel *kernel) {
  if (!kernel)
    return;
  try {
    CudaContextScope saved;
    delete kernel;
  } catch (...) {
    // Nothing can be reported from a destructor.
  }
}

const char *tile_kernel_name(const tile_kernel *kernel) {
  return kernel ? kernel->name.c_str() : "";
}

const char *tile_kernel_signature(const tile_kernel *kernel) {
  return kernel ? kernel->signature.c_str() : "";
}

const char *tile_kernel_messages(const tile_kernel *kernel) {
  return kernel ? kernel->messages.c_str() : "";
}

size_t tile_kernel_num_params(const tile_kernel *kernel) {
  return kernel ? kernel->params.infos.size() : 0;
}

static tile_status getParam(const ParamTable &table, size_t index,
                            tile_param_info *info) {
  if (!info)
    return fail(TILE_ERROR_INVALID_CALL, "null tile_param_info");
  if (index >= table.infos.size())
    return fail(TILE_ERROR_INVALID_CALL, "no parameter " + llvm::Twine(index) +
                                             ": there are " +
                                             llvm::Twine(table.infos.size()));
  *info = table.infos[index];
  return succeed();
}

static tile_status getMetaParam(const MetaTable &table, size_t index,
                                tile_meta_param_info *info) {
  if (!info)
    return fail(TILE_ERROR_INVALID_CALL, "null tile_meta_param_info");
  if (index >= table.infos.size())
    return fail(TILE_ERROR_INVALID_CALL,
                "no meta-parameter " + llvm::Twine(index) + ": there are " +
                    llvm::Twine(table.infos.size()));
  *info = table.infos[index];
  return succeed();
}

tile_status tile_kernel_get_param(const tile_kernel *kernel, size_t index,
                                  tile_param_info *info) {
  if (!kernel)
    return fail(TILE_ERROR_INVALID_CALL, "tile_kernel_get_param: null kernel");
  return getParam(kernel->params, index, info);
}

size_t tile_kernel_num_meta_params(const tile_kernel *kernel) {
  return kernel ? kernel->meta.infos.size() : 0;
}

tile_status tile_kernel_get_meta_param(const tile_kernel *kernel, size_t index,
                                       tile_meta_param_info *info) {
  if (!kernel)
    return fail(TILE_ERROR_INVALID_CALL,
                "tile_kernel_get_meta_param: null kernel");
  return getMetaParam(kernel->meta, index, info);
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

/// "argument 1 (input)".
static std::string describeArgument(const tile_kernel &kernel, size_t index) {
  std::string text = "argument " + std::to_string(index);
  if (index < kernel.params.names.size() && !kernel.params.names[index].empty())
    text += " (" + kernel.params.names[index] + ")";
  return text;
}

/// The largest power of two up to 16 that divides `value` (16 for 0).
static int64_t getAlignment(uint64_t value) {
  return value == 0
             ? 16
             : std::min<int64_t>(16, int64_t(1) << llvm::countr_zero(value));
}

/// Checks the number and kinds of `args` against the kernel's signature.
static std::optional<Failure> checkArguments(const tile_kernel &kernel,
                                             const tile_arg *args,
                                             size_t numArgs) {
  if (numArgs && !args)
    return Failure{TILE_ERROR_INVALID_CALL, "null arguments"};
  const KernelSource &source = *kernel.variants.front();
  if (llvm::Error err = source.checkArgumentCount(numArgs)) {
    llvm::consumeError(std::move(err));
    return Failure{TILE_ERROR_ARGUMENTS,
                   kernel.signature + " takes " +
                       std::to_string(kernel.params.infos.size()) +
                       " arguments; the launch gives " +
                       std::to_string(numArgs)};
  }
  for (size_t index = 0; index < numArgs; ++index) {
    const tile_arg &arg = args[index];
    std::optional<DataType> type = toDataType(arg.dtype);
    if (!type)
      return Failure{TILE_ERROR_INVALID_CALL, describeArgument(kernel, index) +
                                                  " has dtype " +
                                                  std::to_string(arg.dtype) +
                                                  ", which is no tile_dtype"};
    if (arg.is_buffer &&
        (arg.extent < 0 || arg.rank < 0 || (arg.rank > 0 && !arg.shape)))
      return Failure{TILE_ERROR_INVALID_CALL,
                     describeArgument(kernel, index) +
                         ": a buffer needs an extent and a shape"};
    if (llvm::Error err =
            checkArgumentType(source.getKernel().getArgumentTypes()[index],
                              *type, arg.is_buffer != 0))
      return Failure{TILE_ERROR_ARGUMENTS, describeArgument(kernel, index) +
                                               " of " + kernel.signature +
                                               ": " +
                                               llvm::toString(std::move(err))};
  }
  return std::nullopt;
}

/// A scalar argument.
static Scalar getScalar(const tile_arg &arg) {
  DataType type = static_cast<DataType>(arg.dtype);
  unsigned bits =
      isFloatDataType(type) ? 8 * getDataTypeSize(type) : getIntegerWidth(type);
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  return Scalar{type, arg.value & mask};
}

/// A buffer's shape: its own, or one dimension of its extent where the
/// shape does not hold exactly the extent's elements.
static SmallVector<int64_t> getBufferShape(const tile_arg &arg) {
  SmallVector<int64_t> shape(arg.shape, arg.shape + arg.rank);
  int64_t elements = 1;
  for (int64_t dim : shape)
    elements *= dim;
  if (arg.rank == 0 || elements != arg.extent)
    return {arg.extent};
  return shape;
}

/// The shape bucket of an argument for the tuning cache: by its shape, as
/// tile-run's would be for the same launch.
static std::string getBucket(const tile_arg &arg) {
  ArgSpec spec;
  spec.type = static_cast<DataType>(arg.dtype);
  if (arg.is_buffer) {
    spec.kind = ArgSpec::Kind::Zeros;
    if (arg.rank > 0)
      spec.shape.assign(arg.shape, arg.shape + arg.rank);
    else
      spec.shape.push_back(arg.extent);
  } else {
    spec.kind = ArgSpec::Kind::Scalar;
    spec.value = getScalar(arg);
  }
  return getShapeBucket(spec);
}

/// KernelArgs for choosing and specializing: the scalars, and an empty
/// buffer for each buffer (neither needs their contents).
static SmallVector<KernelArg> getShapeArgs(const tile_arg *args,
                                           size_t numArgs) {
  SmallVector<KernelArg> result;
  for (size_t index = 0; index < numArgs; ++index) {
    const tile_arg &arg = args[index];
    if (arg.is_buffer)
      result.push_back(llvm::cantFail(
          HostBuffer::create(static_cast<DataType>(arg.dtype), {0})));
    else
      result.push_back(getScalar(arg));
  }
  return result;
}

/// KernelArgs holding copies of the buffers: from host memory, or with
/// `device`, from its memory.
static llvm::Expected<SmallVector<KernelArg>>
copyArgs(const tile_arg *args, size_t numArgs, const CudaDevice *device) {
  SmallVector<KernelArg> result;
  for (size_t index = 0; index < numArgs; ++index) {
    const tile_arg &arg = args[index];
    if (!arg.is_buffer) {
      result.push_back(getScalar(arg));
      continue;
    }
    llvm::Expected<HostBuffer> buffer = HostBuffer::create(
        static_cast<DataType>(arg.dtype), getBufferShape(arg));
    if (!buffer)
      return llvm::createStringError("argument " + llvm::Twine(index) + ": " +
                                     llvm::toString(buffer.takeError()));
    size_t bytes = buffer->getSizeInBytes();
    if (bytes && !arg.value)
      return llvm::createStringError("argument " + llvm::Twine(index) +
                                     " is a buffer at address 0");
    if (device) {
      if (llvm::Error err =
              device->copyToHost(buffer->getData(), arg.value, bytes))
        return std::move(err);
    } else if (bytes) {
      std::memcpy(
          buffer->getData(),
          reinterpret_cast<const void *>(static_cast<uintptr_t>(arg.value)),
          bytes);
    }
    result.push_back(std::move(*buffer));
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Preparing
//===----------------------------------------------------------------------===//

tile_prepare_options tile_prepare_options_default(void) {
  tile_prepare_options options{};
  options.target = TILE_TARGET_CUDA;
  options.device = 0;
  options.tuning = TILE_TUNING_CACHE;
  options.num_warps = 4;
  return options;
}

/// The key of the launches a prepared function serves: what decides its
/// meta-parameters (the options, each argument's type and shape bucket) and
/// its specialization (each integer's and address's divisibility).
static std::string prepareKey(const tile_prepare_options &options,
                              const tile_arg *args, size_t numArgs) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << options.target << "/" << options.device << "/" << options.tuning << "/"
     << options.num_warps << "/"
     << (options.cache_dir ? "=" + std::string(options.cache_dir) : "default");
  for (size_t index = 0; index < numArgs; ++index) {
    const tile_arg &arg = args[index];
    os << " " << getBucket(arg);
    if (arg.is_buffer)
      os << "@" << getAlignment(arg.value);
    else if (!isFloatDataType(static_cast<DataType>(arg.dtype)))
      os << "%" << getAlignment(getScalar(arg).getSExtValue());
  }
  return key;
}

/// Checks the options of a prepare.
static std::optional<Failure>
checkOptions(const tile_prepare_options &options) {
  if (options.target != TILE_TARGET_CPU && options.target != TILE_TARGET_CUDA)
    return Failure{TILE_ERROR_INVALID_CALL, "target " +
                                                std::to_string(options.target) +
                                                " is no tile_target"};
  if (options.tuning < TILE_TUNING_CACHE || options.tuning > TILE_TUNING_AUTO)
    return Failure{TILE_ERROR_INVALID_CALL, "tuning " +
                                                std::to_string(options.tuning) +
                                                " is no tile_tuning"};
  if (!TileDialect::isValidNumWarps(options.num_warps))
    return Failure{TILE_ERROR_INVALID_CALL,
                   "num_warps expects a power of two from 1 to 32, got " +
                       std::to_string(options.num_warps)};
  return std::nullopt;
}

/// The specialization of a launch on the GPU: Triton's divisibility of each
/// integer (KernelSource::getSpecialization), and of each buffer's address
/// as it is, which must keep the kernel's promise.
static llvm::Expected<KernelSpecialization>
specialize(const tile_kernel &kernel, const KernelSource &source,
           llvm::ArrayRef<KernelArg> shapeArgs, const tile_arg *args) {
  llvm::Expected<KernelSpecialization> specialization =
      source.getSpecialization(shapeArgs);
  if (!specialization)
    return specialization.takeError();
  for (auto [index, divisibility] :
       llvm::enumerate(specialization->divisibility)) {
    if (!args[index].is_buffer)
      continue;
    int64_t alignment = getAlignment(args[index].value);
    auto promise = source.getKernel().getArgAttrOfType<IntegerAttr>(
        index, TileDialect::getDivisibilityAttrName());
    if (promise && alignment < promise.getInt())
      return llvm::createStringError(
          describeArgument(kernel, index) + " is at address " +
          llvm::utohexstr(args[index].value, /*LowerCase=*/true) +
          ", which breaks its promise 'tile.divisibility = " +
          llvm::Twine(promise.getInt()) + "': the kernel needs buffers " +
          "aligned to " + llvm::Twine(promise.getInt()) + " bytes");
    divisibility = alignment > 1 ? alignment : 0;
  }
  return specialization;
}

/// The mode of loadTunedKernel for a prepare.
static TuningMode getTuningMode(const tile_kernel &kernel,
                                const tile_prepare_options &options,
                                const TuneOptions &tuning) {
  switch (static_cast<tile_tuning>(options.tuning)) {
  case TILE_TUNING_CACHE:
    return TuningMode::UseCache;
  case TILE_TUNING_DEFAULTS:
    return TuningMode::IgnoreCache;
  case TILE_TUNING_TUNE:
    return TuningMode::Tune;
  case TILE_TUNING_AUTO: {
    // Tune only where the tuning cache has nothing for the launch.
    llvm::StringRef cacheDir = tuning.run.compile.cacheDir;
    if (cacheDir.empty())
      return TuningMode::Tune;
    SmallVector<const KernelSource *> variants;
    for (const auto &variant : kernel.variants)
      variants.push_back(variant.get());
    llvm::Expected<TuningKey> key =
        getTuningKey(variants, tuning.buckets, tuning.run.device);
    if (!key) {
      llvm::consumeError(key.takeError());
      return TuningMode::Tune;
    }
    std::string ignored;
    llvm::raw_string_ostream warnings(ignored);
    return lookupTuning(cacheDir, *key, warnings) ? TuningMode::UseCache
                                                  : TuningMode::Tune;
  }
  }
  llvm_unreachable("checked by checkOptions");
}

/// Prepares a launch (tile_kernel_prepare, under the kernel's lock).
static tile_status prepare(tile_kernel &kernel, KernelCall &call,
                           const tile_prepare_options &options,
                           const tile_arg *args, size_t numArgs,
                           tile_function **result) {
  if (std::optional<Failure> failure = checkOptions(options))
    return fail(*failure);
  if (std::optional<Failure> failure = checkArguments(kernel, args, numArgs))
    return fail(*failure);
  Target target =
      options.target == TILE_TARGET_CUDA ? Target::CUDA : Target::CPU;
  SmallVector<KernelArg> shapeArgs = getShapeArgs(args, numArgs);

  // The same launch as before: its function, unless a bound that is not a
  // power of two splits the shape bucket.
  std::string key = prepareKey(options, args, numArgs);
  if (options.tuning != TILE_TUNING_TUNE) {
    auto found = kernel.prepared.find(key);
    if (found != kernel.prepared.end()) {
      FuncOp chosen = found->second->source->getKernel();
      bool admitted = true;
      for (auto [index, arg] : llvm::enumerate(shapeArgs))
        if (!arg.isBuffer() && !isFloatDataType(arg.getDataType()))
          admitted &= checkIntegerArgument(chosen, index,
                                           arg.getScalar().getSExtValue())
                          .empty();
      if (admitted) {
        *result = found->second;
        return succeed();
      }
    }
  }

  // The GPU, opened once.
  CudaDevice *device = nullptr;
  if (target == Target::CUDA) {
    llvm::Expected<CudaDevice &> opened = getDevice(options.device);
    if (!opened)
      return fail(TILE_ERROR_CUDA, llvm::toString(opened.takeError()));
    device = &*opened;
  }
  // The steps below that need the device's context make it current each:
  // choosing meta-parameters may open and close the device (the tuning
  // cache's key, the tuner), which leaves no context current.

  // The meta-parameters: the tuning cache's, fitted, or tuned.
  TuneOptions tuning;
  tuning.source = kernel.options;
  tuning.run.target = target;
  tuning.run.device = options.device;
  tuning.run.compile.numWarps = options.num_warps;
  tuning.run.compile.cacheDir =
      options.cache_dir ? options.cache_dir : getDefaultCacheDir();
  llvm::Expected<GridSpec> grid =
      GridSpec::parse(options.tune_grid ? options.tune_grid : "persistent");
  if (!grid)
    return fail(TILE_ERROR_INVALID_CALL,
                "tune_grid: " + llvm::toString(grid.takeError()));
  tuning.run.grid = *grid;
  if (options.tune_warmup)
    tuning.bench.warmup = options.tune_warmup;
  if (options.tune_repetitions)
    tuning.bench.repetitions = options.tune_repetitions;
  tuning.progress = options.tune_progress ? &llvm::errs() : nullptr;
  for (size_t index = 0; index < numArgs; ++index)
    tuning.buckets.push_back(getBucket(args[index]));
  TuningMode mode = target == Target::CPU
                        ? TuningMode::IgnoreCache
                        : getTuningMode(kernel, options, tuning);
  SmallVector<KernelArg> dataArgs;
  if (mode == TuningMode::Tune) {
    // The tuner times each configuration on copies of the arguments.
    CudaContextScope scope(*device);
    llvm::Expected<SmallVector<KernelArg>> copied =
        copyArgs(args, numArgs, device);
    if (!copied)
      return fail(TILE_ERROR_CUDA, "copying the arguments for the tuner: " +
                                       llvm::toString(copied.takeError()));
    dataArgs = std::move(*copied);
  }
  std::vector<std::unique_ptr<KernelSource>> variants;
  for (const auto &base : kernel.variants) {
    // loadTunedKernel takes its variants: give it fresh copies.
    llvm::Expected<std::unique_ptr<KernelSource>> copy =
        KernelSource::loadString(base->getText(), base->getFileName(),
                                 kernel.options);
    if (!copy)
      return fail(call.toFailure(TILE_ERROR_KERNEL, copy.takeError()));
    variants.push_back(std::move(*copy));
  }
  llvm::Expected<std::unique_ptr<KernelSource>> chosen = loadTunedKernel(
      std::move(variants), mode == TuningMode::Tune ? dataArgs : shapeArgs,
      tuning, mode, call.notes());
  if (!chosen)
    return fail(call.toFailure(mode == TuningMode::Tune ? TILE_ERROR_RUN
                                                        : TILE_ERROR_KERNEL,
                               chosen.takeError()));
  if (llvm::Error err = (*chosen)->checkArgumentValues(shapeArgs))
    return fail(call.toFailure(TILE_ERROR_ARGUMENTS, std::move(err)));
  if (mode == TuningMode::Tune) {
    // Launches prepared before may have another choice now.
    kernel.prepared.clear();
  }

  auto function = std::make_unique<tile_function>();
  function->kernel = &kernel;
  function->target = target;
  function->device = options.device;
  function->numParams = numArgs;
  for (auto [index, variant] : llvm::enumerate(kernel.variants))
    if (variant->getFileName() == (*chosen)->getFileName())
      function->variant = index;
  function->meta.fill((*chosen)->getParams());
  function->config = function->meta.str();
  function->params.fill((*chosen)->getKernel(), kernel.params.names);
  std::string identity =
      std::to_string(options.target) + "/" + std::to_string(options.device) +
      "/" + std::to_string(function->variant) + "/" + function->config + "/" +
      std::to_string(options.num_warps) + "/" + tuning.run.compile.cacheDir;
  if (target == Target::CUDA) {
    llvm::Expected<KernelSpecialization> specialization =
        specialize(kernel, **chosen, shapeArgs, args);
    if (!specialization)
      return fail(
          call.toFailure(TILE_ERROR_ARGUMENTS, specialization.takeError()));
    function->specialization = specialization->str();
    identity += "/" + function->specialization;
    auto existing = kernel.functions.find(identity);
    if (existing != kernel.functions.end()) {
      kernel.prepared[key] = existing->second.get();
      *result = existing->second.get();
      return succeed();
    }
    CudaContextScope scope(*device);
    llvm::Expected<LoadedKernel> loaded =
        loadKernel(**chosen, *device, *specialization, tuning.run.compile,
                   numArgs, /*timings=*/nullptr);
    if (!loaded) {
      // Compiling is the step that fails on a bad kernel; the rest is the
      // driver's, whose messages name it or its error.
      std::string message = llvm::toString(loaded.takeError());
      llvm::StringRef text = message;
      bool driver = text.contains("CUDA driver") ||
                    text.contains("CUDA_ERROR_") ||
                    text.contains("the loaded module");
      return fail(driver ? TILE_ERROR_CUDA : TILE_ERROR_COMPILE,
                  "@" + kernel.name + ": " + message);
    }
    function->cudaDevice = device;
    function->blockSize = loaded->getBlockSize();
    if (loaded->function.localBytes > 0)
      llvm::WithColor::warning(kernel.diagnostics, "tile")
          << describeSpill(**chosen, function->blockSize / 32,
                           loaded->function.localBytes)
          << "\n";
    function->loaded = std::move(*loaded);
  } else {
    auto existing = kernel.functions.find(identity);
    if (existing != kernel.functions.end()) {
      kernel.prepared[key] = existing->second.get();
      *result = existing->second.get();
      return succeed();
    }
  }
  function->source = std::move(*chosen);
  tile_function *prepared = function.get();
  kernel.functions[identity] = std::move(function);
  kernel.prepared[key] = prepared;
  *result = prepared;
  return succeed();
}

tile_status tile_kernel_prepare(tile_kernel *kernel,
                                const tile_prepare_options *options,
                                const tile_arg *args, size_t num_args,
                                tile_function **function) {
  return guard([&] {
    if (!kernel || !function)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_kernel_prepare: null kernel or result");
    *function = nullptr;
    tile_prepare_options defaults = tile_prepare_options_default();
    CudaContextScope saved;
    KernelCall call(*kernel);
    return prepare(*kernel, call, options ? *options : defaults, args, num_args,
                   function);
  });
}

tile_status tile_kernel_compile(tile_kernel *kernel, const char *chip,
                                int32_t format, const tile_arg *args,
                                size_t num_args, const char **binary,
                                size_t *size) {
  return guard([&] {
    if (!kernel || !chip || !binary || !size)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_kernel_compile: null kernel, chip or result");
    *binary = nullptr;
    *size = 0;
    if (format != 0 && format != 1)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_kernel_compile: format is 0 (PTX) or 1 (cubin), not " +
                      llvm::Twine(format));
    if (llvm::Error err = checkChipName(chip))
      return fail(TILE_ERROR_INVALID_CALL, llvm::toString(std::move(err)));
    KernelCall call(*kernel);
    CompileOptions compile;
    compile.chip = chip;
    compile.format = format ? OutputFormat::Cubin : OutputFormat::PTX;
    compile.cacheDir = getDefaultCacheDir();
    const KernelSource &base = *kernel->variants.front();
    std::unique_ptr<KernelSource> fitted;
    KernelSpecialization specialization;
    if (num_args) {
      if (std::optional<Failure> failure =
              checkArguments(*kernel, args, num_args))
        return fail(*failure);
      SmallVector<KernelArg> shapeArgs = getShapeArgs(args, num_args);
      TuneOptions tuning;
      tuning.source = kernel->options;
      tuning.run.target = Target::CUDA;
      tuning.run.compile = compile;
      llvm::Expected<std::unique_ptr<KernelSource>> copy =
          KernelSource::loadString(base.getText(), base.getFileName(),
                                   kernel->options);
      if (!copy)
        return fail(call.toFailure(TILE_ERROR_KERNEL, copy.takeError()));
      llvm::Expected<std::unique_ptr<KernelSource>> chosen =
          loadTunedKernel(std::move(*copy), shapeArgs, tuning,
                          TuningMode::IgnoreCache, call.notes());
      if (!chosen)
        return fail(call.toFailure(TILE_ERROR_KERNEL, chosen.takeError()));
      fitted = std::move(*chosen);
      if (llvm::Error err = fitted->checkArgumentValues(shapeArgs))
        return fail(call.toFailure(TILE_ERROR_ARGUMENTS, std::move(err)));
      llvm::Expected<KernelSpecialization> specialized =
          specialize(*kernel, *fitted, shapeArgs, args);
      if (!specialized)
        return fail(
            call.toFailure(TILE_ERROR_ARGUMENTS, specialized.takeError()));
      specialization = *specialized;
    }
    const KernelSource &source = fitted ? *fitted : base;
    llvm::Expected<CompiledKernel> compiled =
        source.compile(specialization, compile);
    if (!compiled)
      return fail(call.toFailure(TILE_ERROR_COMPILE, compiled.takeError()));
    kernel->binary = std::move(compiled->binary);
    *binary = kernel->binary.data();
    *size = kernel->binary.size();
    return succeed();
  });
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

tile_status tile_function_get_info(const tile_function *function,
                                   tile_function_info *info) {
  if (!function || !info)
    return fail(TILE_ERROR_INVALID_CALL,
                "tile_function_get_info: null function or info");
  tile_function_info result{};
  result.name = function->kernel->name.c_str();
  result.variant = static_cast<int32_t>(function->variant);
  result.target =
      function->target == Target::CUDA ? TILE_TARGET_CUDA : TILE_TARGET_CPU;
  result.device = function->device;
  result.config = function->config.c_str();
  result.specialization = function->specialization.c_str();
  result.cluster_size = 1;
  if (function->loaded) {
    const CudaFunction &cuda = function->loaded->function;
    result.block_size = function->blockSize;
    result.cluster_size = cuda.clusterSize;
    result.num_registers = cuda.numRegisters;
    result.shared_bytes = cuda.sharedBytes;
    result.local_bytes = cuda.localBytes;
  }
  *info = result;
  return succeed();
}

tile_status tile_function_get_param(const tile_function *function, size_t index,
                                    tile_param_info *info) {
  if (!function)
    return fail(TILE_ERROR_INVALID_CALL,
                "tile_function_get_param: null function");
  return getParam(function->params, index, info);
}

size_t tile_function_num_meta_params(const tile_function *function) {
  return function ? function->meta.infos.size() : 0;
}

tile_status tile_function_get_meta_param(const tile_function *function,
                                         size_t index,
                                         tile_meta_param_info *info) {
  if (!function)
    return fail(TILE_ERROR_INVALID_CALL,
                "tile_function_get_meta_param: null function");
  return getMetaParam(function->meta, index, info);
}

/// Checks that `function` runs on `target`.
static std::optional<Failure> checkTarget(const tile_function *function,
                                          Target target, const char *call) {
  if (!function)
    return Failure{TILE_ERROR_INVALID_CALL,
                   std::string(call) + ": null function"};
  if (function->target == target)
    return std::nullopt;
  return Failure{TILE_ERROR_INVALID_CALL,
                 std::string(call) + ": @" + function->kernel->name +
                     (target == Target::CUDA
                          ? " was prepared for the CPU interpreter "
                            "(TILE_TARGET_CPU): run it with "
                            "tile_function_run_cpu"
                          : " was prepared for a GPU (TILE_TARGET_CUDA): "
                            "launch it with tile_function_launch")};
}

tile_status tile_function_persistent_grid(const tile_function *function,
                                          int64_t cap, uint32_t grid[3]) {
  return guard([&] {
    if (std::optional<Failure> failure = checkTarget(
            function, Target::CUDA, "tile_function_persistent_grid"))
      return fail(*failure);
    if (!grid || cap < 0)
      return fail(TILE_ERROR_INVALID_CALL,
                  "tile_function_persistent_grid: null grid or negative cap");
    tile_kernel &kernel = *function->kernel;
    std::lock_guard<std::mutex> lock(kernel.mutex);
    auto &grids = const_cast<tile_function *>(function)->persistentGrids;
    auto found = grids.find(cap);
    if (found == grids.end()) {
      CudaContextScope scope(*function->cudaDevice);
      llvm::Expected<int64_t> programs =
          getPersistentGrid(*function->cudaDevice, function->loaded->function,
                            function->blockSize, cap);
      if (!programs)
        return fail(TILE_ERROR_CUDA, llvm::toString(programs.takeError()));
      found = grids.emplace(cap, *programs).first;
    }
    grid[0] = static_cast<uint32_t>(found->second);
    grid[1] = grid[2] = 1;
    return succeed();
  });
}

/// The launch itself: no lock, no allocation but for the message of an
/// error.
static tile_status launch(const tile_function *function, const uint32_t *grid,
                          void *stream, const uint64_t *values,
                          size_t numValues) {
  if (std::optional<Failure> failure =
          checkTarget(function, Target::CUDA, "tile_function_launch"))
    return fail(*failure);
  if (!grid || (numValues && !values))
    return fail(TILE_ERROR_INVALID_CALL,
                "tile_function_launch: null grid or values");
  if (numValues != function->numParams)
    return fail(TILE_ERROR_ARGUMENTS, function->kernel->signature + " takes " +
                                          llvm::Twine(function->numParams) +
                                          " arguments; the launch gives " +
                                          llvm::Twine(numValues));
  // cuLaunchKernel's parameters: a pointer to each value, in an aligned
  // copy of them.
  constexpr size_t kInline = 32;
  uint64_t inlineValues[kInline];
  void *inlineParams[kInline];
  std::vector<uint64_t> heapValues;
  std::vector<void *> heapParams;
  uint64_t *slots = inlineValues;
  void **params = inlineParams;
  if (numValues > kInline) {
    heapValues.resize(numValues);
    heapParams.resize(numValues);
    slots = heapValues.data();
    params = heapParams.data();
  }
  if (numValues)
    std::memcpy(slots, values, numValues * sizeof(uint64_t));
  for (size_t i = 0; i < numValues; ++i)
    params[i] = &slots[i];
  CudaContextScope scope(*function->cudaDevice);
  if (llvm::Error err =
          launchKernel(*function->cudaDevice, function->loaded->function,
                       {grid[0], grid[1], grid[2]}, function->blockSize,
                       llvm::ArrayRef<void *>(params, numValues), stream))
    return fail(TILE_ERROR_CUDA, llvm::toString(std::move(err)));
  if (!lastError.empty())
    lastError.clear();
  return TILE_SUCCESS;
}

tile_status tile_function_launch(const tile_function *function,
                                 const uint32_t grid[3], void *stream,
                                 const uint64_t *values, size_t num_values) {
  return guard(
      [&] { return launch(function, grid, stream, values, num_values); });
}

tile_status tile_launch_packed(const void *packet) {
  return guard([&] {
    if (!packet)
      return fail(TILE_ERROR_INVALID_CALL, "tile_launch_packed: null packet");
    tile_launch_packet header;
    std::memcpy(&header, packet, sizeof(header));
    const auto *values = reinterpret_cast<const uint64_t *>(
        static_cast<const char *>(packet) + sizeof(header));
    // The values may be unaligned: launch() copies them.
    return launch(header.function, header.grid, header.stream, values,
                  header.num_values);
  });
}

tile_status tile_function_run_cpu(const tile_function *function,
                                  const uint32_t grid[3], const tile_arg *args,
                                  size_t num_args) {
  return guard([&] {
    if (std::optional<Failure> failure =
            checkTarget(function, Target::CPU, "tile_function_run_cpu"))
      return fail(*failure);
    if (!grid)
      return fail(TILE_ERROR_INVALID_CALL, "tile_function_run_cpu: null grid");
    tile_kernel &kernel = *function->kernel;
    KernelCall call(kernel);
    if (std::optional<Failure> failure = checkArguments(kernel, args, num_args))
      return fail(*failure);
    llvm::Expected<SmallVector<KernelArg>> copied =
        copyArgs(args, num_args, nullptr);
    if (!copied)
      return fail(TILE_ERROR_ARGUMENTS, llvm::toString(copied.takeError()));
    RunOptions options;
    options.target = Target::CPU;
    // Trailing programs of 1 are no dimension.
    size_t rank = 3;
    while (rank > 1 && grid[rank - 1] == 1)
      --rank;
    for (size_t axis = 0; axis < rank; ++axis) {
      if (grid[axis] == 0 || grid[axis] > INT32_MAX)
        return fail(TILE_ERROR_INVALID_CALL,
                    "the grid takes 1 to 2147483647 programs along " +
                        llvm::Twine("xyz"[axis]) + ", not " +
                        llvm::Twine(grid[axis]));
      options.grid.sizes.push_back(grid[axis]);
    }
    llvm::Expected<std::unique_ptr<KernelRunner>> runner =
        KernelRunner::create(*function->source, options);
    if (!runner)
      return fail(call.toFailure(TILE_ERROR_RUN, runner.takeError()));
    llvm::Expected<RunResult> run = (*runner)->run(*copied);
    if (!run)
      return fail(call.toFailure(TILE_ERROR_RUN, run.takeError()));
    // Nothing is copied back unless every buffer the kernel wrote may be.
    for (size_t index = 0; index < num_args; ++index) {
      if (!args[index].is_buffer || args[index].writable)
        continue;
      const HostBuffer &before = (*copied)[index].getBuffer();
      const HostBuffer &after = run->outputs[index].getBuffer();
      if (std::memcmp(before.getData(), after.getData(),
                      before.getSizeInBytes()))
        return fail(TILE_ERROR_RUN, "@" + kernel.name + " wrote " +
                                        describeArgument(kernel, index) +
                                        ", which is read-only");
    }
    for (size_t index = 0; index < num_args; ++index) {
      if (!args[index].is_buffer || !args[index].writable)
        continue;
      const HostBuffer &after = run->outputs[index].getBuffer();
      if (after.getSizeInBytes())
        std::memcpy(
            reinterpret_cast<void *>(static_cast<uintptr_t>(args[index].value)),
            after.getData(), after.getSizeInBytes());
    }
    return succeed();
  });
}
