//===- Internal.h - What the C API's files share ----------------*- C++ -*-===//
//
// Private to lib/CAPI: the objects behind the C API's handles (tile_kernel,
// tile_function), the parameter tables they hand out, a call's lock and
// diagnostics (KernelCall), turning errors into a status (Failure, fail,
// guard), and the argument helpers that preparing and launching share.
//
// The C API is a thin layer over the C++ runtime (KernelSource,
// loadTunedKernel, loadKernel, launchKernel, KernelRunner): C types in and
// out, every llvm::Error turned into a status and a message
// (tile_last_error), every C++ exception caught at the boundary (guard). Its
// files are compiled with exceptions so that they can catch them; the rest
// of the project is not.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CAPI_INTERNAL_H
#define LIB_CAPI_INTERNAL_H

#include "tile-c/Runtime.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/HostData/ArgSpec.h"
#include "tile/HostData/KernelArg.h"
#include "tile/Runtime/Cuda.h"
#include "tile/Runtime/KernelRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tile::capi {

//===----------------------------------------------------------------------===//
// Errors (Errors.cpp)
//===----------------------------------------------------------------------===//

/// An error of a kind, on its way to the C boundary.
struct Failure {
  tile_status status;
  std::string message;
};

/// Clears this thread's last error (tile_last_error); TILE_SUCCESS.
tile_status succeed();
/// Sets this thread's last error to `message`; `status`.
tile_status fail(tile_status status, const llvm::Twine &message);
inline tile_status fail(const Failure &failure) {
  return fail(failure.status, failure.message);
}

/// Runs `body` (returning a tile_status), turning every exception into an
/// error: nothing is thrown across the C boundary.
template <typename Body> tile_status guard(Body &&body) {
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
std::optional<DataType> toDataType(int32_t value);

//===----------------------------------------------------------------------===//
// Parameter tables (Kernels.cpp)
//===----------------------------------------------------------------------===//

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

/// Entry `index` of `table` into `info`, or an error.
tile_status getParam(const ParamTable &table, size_t index,
                     tile_param_info *info);
tile_status getMetaParam(const MetaTable &table, size_t index,
                         tile_meta_param_info *info);

} // namespace mlir::tile::capi

//===----------------------------------------------------------------------===//
// The objects behind the handles
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
  mlir::tile::KernelSource::Options options;
  /// The kernel files as loaded, each the base of its configurations.
  std::vector<std::unique_ptr<mlir::tile::KernelSource>> variants;
  std::string name, signature;
  mlir::tile::capi::ParamTable params;
  mlir::tile::capi::MetaTable meta;
  /// Functions by the key of the launches they serve (see prepareKey), and
  /// the functions themselves by what was compiled.
  std::map<std::string, tile_function *> prepared;
  std::map<std::string, std::unique_ptr<tile_function>> functions;
  /// tile_kernel_compile's result.
  std::string binary;
};

struct tile_function {
  tile_kernel *kernel = nullptr;
  mlir::tile::Target target = mlir::tile::Target::CPU;
  int device = 0;
  unsigned variant = 0;
  /// The kernel with its meta-parameters as chosen.
  std::unique_ptr<mlir::tile::KernelSource> source;
  std::string config;
  std::string specialization;
  mlir::tile::capi::ParamTable params;
  mlir::tile::capi::MetaTable meta;
  size_t numParams = 0;
  // The CUDA target.
  mlir::tile::CudaDevice *cudaDevice = nullptr;
  std::optional<mlir::tile::LoadedKernel> loaded;
  unsigned blockSize = 0;
  /// What `loaded` was compiled with, and the kernel compiled without TMA
  /// (made by the first launch whose tensor maps, the compiler's own,
  /// cannot be made: KernelLoader.h, hasOwnTensorDescs).
  mlir::tile::KernelSpecialization specializationFacts;
  mlir::tile::CompileOptions compileOptions;
  mutable std::mutex withoutTmaMutex;
  mutable std::optional<mlir::tile::LoadedKernel> withoutTma;
  /// The chosen configuration's waves (GridSpec::waves: a tuned choice's or
  /// the cost model's), which its persistent grids launch; unset: one.
  std::optional<int64_t> waves;
  /// Persistent grids by their cap.
  std::map<int64_t, int64_t> persistentGrids;
  /// For a kernel with `tile.persistent`: the programs that fit on the GPU
  /// at once, which a launch of more runs on (0: not such a kernel).
  int64_t persistentPrograms = 0;

  ~tile_function() {
    // A module unloads from its context, which must be current.
    if (cudaDevice) {
      mlir::tile::CudaContextScope scope(*cudaDevice);
      loaded.reset();
      withoutTma.reset();
    }
  }
};

namespace mlir::tile::capi {

//===----------------------------------------------------------------------===//
// A call on a kernel
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Devices (Devices.cpp)
//===----------------------------------------------------------------------===//

/// The GPU `ordinal`, opened once per process and never closed (a function
/// loaded on it may live until the process ends).
llvm::Expected<CudaDevice &> getDevice(int ordinal);

//===----------------------------------------------------------------------===//
// Arguments (Arguments.cpp)
//===----------------------------------------------------------------------===//

/// "argument 1 (input)".
std::string describeArgument(const tile_kernel &kernel, size_t index);
/// The largest power of two up to 16 that divides `value` (16 for 0).
int64_t getAlignment(uint64_t value);
/// Checks the number and kinds of `args` against the kernel's signature.
std::optional<Failure> checkArguments(const tile_kernel &kernel,
                                      const tile_arg *args, size_t numArgs);
/// A scalar argument.
Scalar getScalar(const tile_arg &arg);
/// The shape bucket of an argument for the tuning cache: by its shape, as
/// tile-run's would be for the same launch.
std::string getBucket(const tile_arg &arg);
/// KernelArgs for choosing and specializing: the scalars, and an empty
/// buffer for each buffer (neither needs their contents).
SmallVector<KernelArg> getShapeArgs(const tile_arg *args, size_t numArgs);
/// KernelArgs holding copies of the buffers: from host memory, or with
/// `device`, from its memory.
llvm::Expected<SmallVector<KernelArg>>
copyArgs(const tile_arg *args, size_t numArgs, const CudaDevice *device);

} // namespace mlir::tile::capi

#endif // LIB_CAPI_INTERNAL_H
