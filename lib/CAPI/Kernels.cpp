//===- Kernels.cpp - The C API's kernels and their parameters -------------===//
//
// Loading kernel files (one or several variants) into a tile_kernel, and
// what it says of itself: its name, signature, messages, parameters and
// meta-parameters.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::capi;

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

tile_status capi::getParam(const ParamTable &table, size_t index,
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

tile_status capi::getMetaParam(const MetaTable &table, size_t index,
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
