//===- Functions.cpp - The C API's functions: launches and packets --------===//
//
// What a prepared tile_function says of itself, its persistent grid, and
// its launches: on a stream from its arguments, from a packed launch
// (tile_launch_packed), or on the CPU interpreter.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "tile/Runtime/TensorMapRecipe.h"

#include "tile/Runtime/Check.h"

#include <algorithm>
#include <array>
#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::capi;

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
    result.shared_bytes = cuda.sharedBytes + cuda.dynamicSharedBytes;
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
      // The waves the tuner timed (all of them need a cap: without one,
      // one wave).
      int64_t waves = function->waves.value_or(1);
      if (waves == GridSpec::kAllWaves && cap == 0)
        waves = 1;
      llvm::Expected<int64_t> programs =
          getPersistentGrid(*function->cudaDevice, function->loaded->function,
                            function->blockSize, cap, /*note=*/nullptr, waves);
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
  // A kernel with `tile.persistent`: the grid names its work along x, which
  // the programs that fit at once run (clusters of them: whole clusters).
  std::array<unsigned, 3> launchGrid = {grid[0], grid[1], grid[2]};
  if (int64_t fit = function->persistentPrograms) {
    int64_t cluster = function->loaded->function.clusterSize;
    llvm::Expected<int64_t> work = getPersistentWork(
        {grid[0], grid[1], grid[2]}, cluster, function->kernel->name);
    if (!work)
      return fail(TILE_ERROR_ARGUMENTS, llvm::toString(work.takeError()));
    launchGrid[0] = static_cast<unsigned>(std::min(*work * cluster, fit));
  }
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
  llvm::ArrayRef<void *> paramRefs(params, numValues);
  llvm::Error err =
      launchKernel(*function->cudaDevice, function->loaded->function,
                   launchGrid, function->blockSize, paramRefs, stream);
  // Tensor maps the compiler chose (tile-loads-to-descs) that this launch's
  // arguments cannot make: the kernel compiled without them (once, kept).
  if (err && function->compileOptions.tma &&
      !hasOwnTensorDescs(*function->source))
    err = llvm::handleErrors(
        std::move(err), [&](const TensorMapError &why) -> llvm::Error {
          // The compile writes to the kernel's diagnostics, which its calls
          // read under its lock.
          std::lock_guard<std::mutex> kernelLock(function->kernel->mutex);
          std::lock_guard<std::mutex> lock(function->withoutTmaMutex);
          if (!function->withoutTma) {
            CompileOptions options = function->compileOptions;
            options.tma = false;
            llvm::Expected<LoadedKernel> loaded = loadKernel(
                *function->source, *function->cudaDevice,
                function->specializationFacts, options, function->numParams);
            if (!loaded)
              return llvm::joinErrors(
                  llvm::make_error<TensorMapError>(why.message()),
                  loaded.takeError());
            function->withoutTma = std::move(*loaded);
          }
          return launchKernel(
              *function->cudaDevice, function->withoutTma->function, launchGrid,
              function->withoutTma->getBlockSize(), paramRefs, stream);
        });
  if (err)
    return fail(TILE_ERROR_CUDA, llvm::toString(std::move(err)));
  return succeed();
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
    // Only the bytes the kernel changed go back: the interpreter ran on a
    // copy of each buffer, so one array passed as two arguments (softmax in
    // place: y and x the same) was two buffers, and copying back the whole
    // of the one it only read would undo what it wrote into the other.
    for (size_t index = 0; index < num_args; ++index) {
      if (!args[index].is_buffer || !args[index].writable)
        continue;
      const auto *before = (*copied)[index].getBuffer().getData();
      const auto *after = run->outputs[index].getBuffer().getData();
      auto *target =
          reinterpret_cast<char *>(static_cast<uintptr_t>(args[index].value));
      size_t size = run->outputs[index].getBuffer().getSizeInBytes();
      for (size_t at = 0; at < size;) {
        if (before[at] == after[at]) {
          ++at;
          continue;
        }
        size_t end = at + 1;
        while (end < size && before[end] != after[end])
          ++end;
        std::memcpy(target + at, after + at, end - at);
        at = end;
      }
    }
    return succeed();
  });
}
