/*===- tile-capi-test.c - The C API from a C program ----------------------===*\
|*                                                                            *|
|*   tile-capi-test cpu EXAMPLES         softmax and vector_add on the CPU    *|
|*                                       interpreter, checked in double       *|
|*   tile-capi-test errors EXAMPLES      each error a status and a message    *|
|*   tile-capi-test compile EXAMPLES     PTX for sm_90 without a GPU          *|
|*   tile-capi-test cuda EXAMPLES        softmax (a persistent grid, on a     *|
|*                                       stream) and softmax_cluster (in      *|
|*                                       clusters) on GPU 0, checked          *|
|*                                                                            *|
|* A C99 program that uses include/tile-c/Runtime.h and nothing else of      *|
|* tile (test/CAPI, test/cuda/capi.test). In `cuda` mode it takes device     *|
|* memory from the CUDA driver itself (dlopen), in the GPU's primary context, *|
|* as a framework would, and hands the C API raw device pointers.           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tile-c/Runtime.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char examples[4096];

static const char *example(const char *name) {
  static char path[8192];
  snprintf(path, sizeof(path), "%s/%s", examples, name);
  return path;
}

/* Prints the status and message of a call expected to fail. */
static void expectError(const char *what, tile_status status) {
  if (status == TILE_SUCCESS) {
    printf("%s: succeeded, expected an error\n", what);
    exit(1);
  }
  printf("%s: status %d: %s\n", what, (int)status, tile_last_error());
}

static void check(const char *what, tile_status status) {
  if (status != TILE_SUCCESS) {
    printf("%s failed (status %d): %s\n", what, (int)status,
           tile_last_error());
    exit(1);
  }
}

static tile_kernel *load(const char *file, const char **defines,
                         size_t numDefines) {
  tile_load_options options = {NULL, defines, numDefines};
  tile_kernel *kernel = NULL;
  check("tile_kernel_load_file",
        tile_kernel_load_file(example(file), &options, &kernel));
  return kernel;
}

static uint64_t address(const void *pointer) {
  return (uint64_t)(uintptr_t)pointer;
}

static tile_arg buffer(int32_t dtype, uint64_t at, const int64_t *shape,
                       int32_t rank) {
  tile_arg arg;
  int64_t extent = 1;
  for (int32_t i = 0; i < rank; ++i)
    extent *= shape[i];
  memset(&arg, 0, sizeof(arg));
  arg.is_buffer = 1;
  arg.dtype = dtype;
  arg.value = at;
  arg.shape = shape;
  arg.rank = rank;
  arg.writable = 1;
  arg.extent = extent;
  return arg;
}

static tile_arg i32(int32_t value) {
  tile_arg arg;
  memset(&arg, 0, sizeof(arg));
  arg.dtype = TILE_DTYPE_I32;
  arg.value = (uint32_t)value;
  return arg;
}

/* The largest error of `y` (rows x cols, row stride `stride`) against a
 * softmax of `x` in double. */
static double softmaxError(const float *x, const float *y, int rows, int cols,
                           int stride) {
  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    const float *in = x + (size_t)r * stride;
    const float *out = y + (size_t)r * stride;
    double max = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      max = in[c] > max ? in[c] : max;
    for (int c = 0; c < cols; ++c)
      sum += exp(in[c] - max);
    for (int c = 0; c < cols; ++c) {
      double error = fabs(out[c] - exp(in[c] - max) / sum);
      worst = error > worst ? error : worst;
    }
  }
  return worst;
}

static float *randomFloats(size_t count, unsigned seed) {
  float *data = malloc(count * sizeof(float));
  srand(seed);
  for (size_t i = 0; i < count; ++i)
    data[i] = (float)rand() / RAND_MAX * 8.0f - 4.0f;
  return data;
}

static void printKernel(const tile_kernel *kernel) {
  printf("kernel %s: %s\n", tile_kernel_name(kernel),
         tile_kernel_signature(kernel));
  for (size_t i = 0; i < tile_kernel_num_params(kernel); ++i) {
    tile_param_info info;
    check("tile_kernel_get_param", tile_kernel_get_param(kernel, i, &info));
    printf("  param %zu %s: %s %s", i, info.name,
           info.is_pointer ? "pointer to" : "scalar",
           tile_dtype_name(info.dtype));
    if (info.divisibility)
      printf(", divisibility %lld", (long long)info.divisibility);
    if (info.max_value != INT64_MAX)
      printf(", max %lld", (long long)info.max_value);
    printf("\n");
  }
  for (size_t i = 0; i < tile_kernel_num_meta_params(kernel); ++i) {
    tile_meta_param_info info;
    check("tile_kernel_get_meta_param",
          tile_kernel_get_meta_param(kernel, i, &info));
    printf("  meta %s = %s%s%s (%s)\n", info.name, info.value,
           info.is_type ? ", a type" : "", info.is_defined ? ", set" : "",
           info.values);
  }
}

static void printFunction(const tile_function *function) {
  tile_function_info info;
  check("tile_function_get_info", tile_function_get_info(function, &info));
  printf("function @%s (variant %d) on %s: %s", info.name, info.variant,
         info.target == TILE_TARGET_CUDA ? "cuda" : "cpu", info.config);
  if (info.target == TILE_TARGET_CUDA)
    printf(", %u threads per block, clusters of %d, divisibility {%s}",
           info.block_size, info.cluster_size, info.specialization);
  printf("\n");
}

/*===----------------------------------------------------------------------===
 * cpu
 *===----------------------------------------------------------------------===*/

static int runCpu(void) {
  const char *defines[] = {"BLOCK_SIZE=1024"};
  tile_kernel *kernel = load("softmax.mlir", defines, 1);
  printKernel(kernel);

  enum { Rows = 37, Cols = 1000 };
  int64_t shape[2] = {Rows, Cols};
  float *x = randomFloats(Rows * Cols, 1);
  float *y = calloc(Rows * Cols, sizeof(float));
  tile_arg args[6] = {buffer(TILE_DTYPE_F32, address(y), shape, 2),
                      buffer(TILE_DTYPE_F32, address(x), shape, 2),
                      i32(Cols),
                      i32(Cols),
                      i32(Rows),
                      i32(Cols)};
  args[1].writable = 0;
  tile_prepare_options options = tile_prepare_options_default();
  options.target = TILE_TARGET_CPU;
  tile_function *function = NULL;
  check("tile_kernel_prepare",
        tile_kernel_prepare(kernel, &options, args, 6, &function));
  printFunction(function);
  tile_function *again = NULL;
  check("tile_kernel_prepare",
        tile_kernel_prepare(kernel, &options, args, 6, &again));
  printf("prepared again: %s\n", again == function ? "the same function"
                                                   : "another function");
  uint32_t grid[3] = {Rows, 1, 1};
  check("tile_function_run_cpu", tile_function_run_cpu(function, grid, args, 6));
  printf("softmax %dx%d on the CPU: max error %s 1e-6\n", Rows, Cols,
         softmaxError(x, y, Rows, Cols, Cols) < 1e-6 ? "below" : "ABOVE");
  free(x);
  free(y);
  tile_kernel_destroy(kernel);

  /* vector_add: its default block, and a grid that covers it. */
  tile_kernel *add = load("vector_add.mlir", NULL, 0);
  enum { N = 5000 };
  int64_t length[1] = {N};
  float *a = randomFloats(N, 2), *b = randomFloats(N, 3);
  float *sum = calloc(N, sizeof(float));
  tile_arg addArgs[4] = {buffer(TILE_DTYPE_F32, address(a), length, 1),
                         buffer(TILE_DTYPE_F32, address(b), length, 1),
                         buffer(TILE_DTYPE_F32, address(sum), length, 1),
                         i32(N)};
  check("tile_kernel_prepare",
        tile_kernel_prepare(add, &options, addArgs, 4, &function));
  uint32_t blocks[3] = {(N + 1023) / 1024, 1, 1};
  check("tile_function_run_cpu",
        tile_function_run_cpu(function, blocks, addArgs, 4));
  int exact = 1;
  for (int i = 0; i < N; ++i)
    exact &= sum[i] == a[i] + b[i];
  printf("vector_add of %d on the CPU: %s\n", N, exact ? "exact" : "WRONG");
  free(a);
  free(b);
  free(sum);
  tile_kernel_destroy(add);
  return 0;
}

/*===----------------------------------------------------------------------===
 * errors
 *===----------------------------------------------------------------------===*/

static int runErrors(void) {
  tile_kernel *kernel = NULL;
  expectError("a missing file",
              tile_kernel_load_file(example("missing.mlir"), NULL, &kernel));
  printf("kernel after a failed load: %s\n", kernel ? "set" : "null");
  expectError("a kernel that does not parse",
              tile_kernel_load_string("tile.func @f() {\n  tile.nope\n}\n",
                                      "broken.mlir", NULL, &kernel));
  expectError("a kernel with a typo",
              tile_kernel_load_string("tile.func @f(%p: !tile.ptr<f32>) {\n"
                                      "  %x = tile.lod %p : !tile.ptr<f32>\n"
                                      "  tile.return\n}\n",
                                      "typo.mlir", NULL, &kernel));
  const char *badDefine[] = {"BLOCK_SIZE=100"};
  tile_load_options badOptions = {NULL, badDefine, 1};
  expectError("a bad -D", tile_kernel_load_file(example("softmax.mlir"),
                                                &badOptions, &kernel));

  const char *defines[] = {"BLOCK_SIZE=256"};
  kernel = load("softmax.mlir", defines, 1);
  int64_t shape[2] = {4, 300};
  float *x = calloc(4 * 300, sizeof(float));
  tile_arg args[6] = {buffer(TILE_DTYPE_F32, address(x), shape, 2),
                      buffer(TILE_DTYPE_F32, address(x), shape, 2),
                      i32(300),
                      i32(300),
                      i32(4),
                      i32(300)};
  tile_prepare_options options = tile_prepare_options_default();
  options.target = TILE_TARGET_CPU;
  tile_function *function = NULL;
  expectError("too few arguments",
              tile_kernel_prepare(kernel, &options, args, 5, &function));
  args[0].dtype = TILE_DTYPE_F16;
  expectError("a buffer of the wrong type",
              tile_kernel_prepare(kernel, &options, args, 6, &function));
  args[0].dtype = TILE_DTYPE_F32;
  args[2].dtype = TILE_DTYPE_I64;
  expectError("a scalar of the wrong type",
              tile_kernel_prepare(kernel, &options, args, 6, &function));
  args[2].dtype = TILE_DTYPE_I32;
  expectError("a bound broken",
              tile_kernel_prepare(kernel, &options, args, 6, &function));
  options.num_warps = 3;
  expectError("a bad option",
              tile_kernel_prepare(kernel, &options, args, 6, &function));
  options.num_warps = 4;
  options.tma = 2;
  expectError("a bad tma",
              tile_kernel_prepare(kernel, &options, args, 6, &function));
  options.tma = 0;

  /* Rows of 200 in buffers of 4 x 150: the interpreter names the access. */
  args[2] = args[3] = args[5] = i32(200);
  shape[1] = 150;
  args[0].extent = args[1].extent = 4 * 150;
  check("tile_kernel_prepare",
        tile_kernel_prepare(kernel, &options, args, 6, &function));
  uint32_t grid[3] = {4, 1, 1};
  expectError("an access outside the buffers",
              tile_function_run_cpu(function, grid, args, 6));
  expectError("a CPU function launched on a GPU",
              tile_function_launch(function, grid, NULL, NULL, 0));
  expectError("a persistent grid of a CPU function",
              tile_function_persistent_grid(function, 0, grid));
  expectError("a null kernel", tile_kernel_prepare(NULL, NULL, NULL, 0, NULL));
  expectError("a null packet", tile_launch_packed(NULL));
  tile_function_info info;
  check("tile_function_get_info", tile_function_get_info(function, &info));
  printf("the last error after a success: '%s'\n", tile_last_error());
  int32_t count = -1;
  tile_status status = tile_cuda_device_count(&count);
  printf("tile_cuda_device_count: status %d, %d GPUs%s%s\n", (int)status,
         (int)count, status ? ": " : "", status ? tile_last_error() : "");
  free(x);
  tile_kernel_destroy(kernel);
  tile_kernel_destroy(NULL);
  return 0;
}

/*===----------------------------------------------------------------------===
 * compile
 *===----------------------------------------------------------------------===*/

static int runCompile(void) {
  tile_kernel *kernel = load("softmax.mlir", NULL, 0);
  const char *binary = NULL;
  size_t size = 0;
  check("tile_kernel_compile",
        tile_kernel_compile(kernel, "sm_90", 0, NULL, 0, &binary, &size));
  printf("PTX of %zu bytes: %s\n", size,
         strstr(binary, ".entry softmax") ? "has .entry softmax"
                                          : "NO ENTRY");
  /* Specialized on a launch with rows of 8192 floats: fitted to
   * BLOCK_SIZE=8192, and 128-bit loads. */
  int64_t shape[2] = {64, 8192};
  tile_arg args[6] = {buffer(TILE_DTYPE_F32, 0x10000, shape, 2),
                      buffer(TILE_DTYPE_F32, 0x20000, shape, 2),
                      i32(8192),
                      i32(8192),
                      i32(64),
                      i32(8192)};
  check("tile_kernel_compile",
        tile_kernel_compile(kernel, "sm_90", 0, args, 6, &binary, &size));
  printf("specialized: %s, %s\n",
         strstr(binary, "ld.global.v4") ? "ld.global.v4" : "NO v4 LOADS",
         strstr(tile_kernel_messages(kernel), "BLOCK_SIZE=8192")
             ? "fitted to BLOCK_SIZE=8192"
             : "NOT FITTED");
  /* An address that breaks the kernel's promise of 16-byte buffers. */
  args[1].value = 0x20004;
  expectError("a misaligned buffer",
              tile_kernel_compile(kernel, "sm_90", 0, args, 6, &binary, &size));
  expectError("a bad chip",
              tile_kernel_compile(kernel, "gfx90a", 0, NULL, 0, &binary, &size));
  tile_kernel_destroy(kernel);
  /* A tensor descriptor's base must be 16-byte aligned, though its kernel
   * promises nothing of the argument (test/Interpreter/tensor-desc.mlir). */
  tile_kernel *boxes = load("../test/Interpreter/tensor-desc.mlir", NULL, 0);
  int64_t outShape[3] = {4, 16, 8}, xShape[2] = {20, 12};
  tile_arg boxArgs[5] = {buffer(TILE_DTYPE_F32, 0x10000, outShape, 3),
                         buffer(TILE_DTYPE_F32, 0x20008, xShape, 2), i32(20),
                         i32(10), i32(12)};
  expectError("a misaligned descriptor base",
              tile_kernel_compile(boxes, "sm_90", 0, boxArgs, 5, &binary,
                                  &size));
  boxArgs[1].value = 0x20010;
  check("tile_kernel_compile",
        tile_kernel_compile(boxes, "sm_90", 0, boxArgs, 5, &binary, &size));
  printf("an aligned descriptor base: PTX of %s\n",
         strstr(binary, ".entry boxes") ? "boxes" : "NO ENTRY");
  tile_kernel_destroy(boxes);
  return 0;
}

/*===----------------------------------------------------------------------===
 * cuda
 *===----------------------------------------------------------------------===*/

/* The few driver calls a framework would make, declared here. */
typedef int CUresult;
typedef int (*cuInit_t)(unsigned);
typedef int (*cuDeviceGet_t)(int *, int);
typedef int (*cuDevicePrimaryCtxRetain_t)(void **, int);
typedef int (*cuCtxSetCurrent_t)(void *);
typedef int (*cuCtxGetCurrent_t)(void **);
typedef int (*cuMemAlloc_t)(uint64_t *, size_t);
typedef int (*cuMemFree_t)(uint64_t);
typedef int (*cuMemcpyHtoD_t)(uint64_t, const void *, size_t);
typedef int (*cuMemcpyDtoH_t)(void *, uint64_t, size_t);
typedef int (*cuStreamCreate_t)(void **, unsigned);
typedef int (*cuStreamSynchronize_t)(void *);

static struct {
  cuInit_t init;
  cuDeviceGet_t deviceGet;
  cuDevicePrimaryCtxRetain_t retain;
  cuCtxSetCurrent_t setCurrent;
  cuCtxGetCurrent_t getCurrent;
  cuMemAlloc_t alloc;
  cuMemFree_t free;
  cuMemcpyHtoD_t htod;
  cuMemcpyDtoH_t dtoh;
  cuStreamCreate_t streamCreate;
  cuStreamSynchronize_t streamSynchronize;
} cu;

static void *symbol(void *library, const char *name) {
  void *found = dlsym(library, name);
  if (!found) {
    printf("the driver lacks %s\n", name);
    exit(1);
  }
  return found;
}

static void cuCheck(const char *call, CUresult result) {
  if (result) {
    printf("%s failed: CUresult %d\n", call, result);
    exit(1);
  }
}

/* Softmax over rows x cols floats with `kernel` on GPU memory, `grid` from
 * the function (persistent, at most `cap`), on `stream`; checked in double. */
static void softmaxOnGpu(tile_kernel *kernel, int rows, int cols, int64_t cap,
                         void *stream) {
  size_t count = (size_t)rows * cols;
  float *x = randomFloats(count, 7);
  float *y = calloc(count, sizeof(float));
  uint64_t dx = 0, dy = 0;
  cuCheck("cuMemAlloc", cu.alloc(&dx, count * sizeof(float)));
  cuCheck("cuMemAlloc", cu.alloc(&dy, count * sizeof(float)));
  cuCheck("cuMemcpyHtoD", cu.htod(dx, x, count * sizeof(float)));
  int64_t shape[2] = {rows, cols};
  tile_arg args[6] = {buffer(TILE_DTYPE_F32, dy, shape, 2),
                      buffer(TILE_DTYPE_F32, dx, shape, 2),
                      i32(cols),
                      i32(cols),
                      i32(rows),
                      i32(cols)};
  tile_prepare_options options = tile_prepare_options_default();
  tile_function *function = NULL;
  check("tile_kernel_prepare",
        tile_kernel_prepare(kernel, &options, args, 6, &function));
  printFunction(function);
  uint32_t grid[3];
  check("tile_function_persistent_grid",
        tile_function_persistent_grid(function, cap, grid));
  uint64_t values[6];
  for (int i = 0; i < 6; ++i)
    values[i] = args[i].value;
  check("tile_function_launch",
        tile_function_launch(function, grid, stream, values, 6));
  /* The packed form, as the Python package launches. */
  struct {
    tile_launch_packet header;
    uint64_t values[6];
  } packet;
  packet.header.function = function;
  packet.header.stream = stream;
  memcpy(packet.header.grid, grid, sizeof(grid));
  packet.header.num_values = 6;
  memcpy(packet.values, values, sizeof(values));
  check("tile_launch_packed", tile_launch_packed(&packet));
  if (stream)
    cuCheck("cuStreamSynchronize", cu.streamSynchronize(stream));
  check("tile_cuda_synchronize", tile_cuda_synchronize(0));
  cuCheck("cuMemcpyDtoH", cu.dtoh(y, dy, count * sizeof(float)));
  double error = softmaxError(x, y, rows, cols, cols);
  printf("@%s %dx%d on the GPU, grid %u: max error %.2g: %s\n",
         tile_kernel_name(kernel), rows, cols, grid[0], error,
         error < 1e-6 ? "ok" : "WRONG");
  cu.free(dx);
  cu.free(dy);
  free(x);
  free(y);
  if (error >= 1e-6)
    exit(1);
}

static int runCuda(void) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    printf("no CUDA driver: %s\n", dlerror());
    return 1;
  }
  cu.init = (cuInit_t)symbol(library, "cuInit");
  cu.deviceGet = (cuDeviceGet_t)symbol(library, "cuDeviceGet");
  cu.retain =
      (cuDevicePrimaryCtxRetain_t)symbol(library, "cuDevicePrimaryCtxRetain");
  cu.setCurrent = (cuCtxSetCurrent_t)symbol(library, "cuCtxSetCurrent");
  cu.getCurrent = (cuCtxGetCurrent_t)symbol(library, "cuCtxGetCurrent");
  cu.alloc = (cuMemAlloc_t)symbol(library, "cuMemAlloc_v2");
  cu.free = (cuMemFree_t)symbol(library, "cuMemFree_v2");
  cu.htod = (cuMemcpyHtoD_t)symbol(library, "cuMemcpyHtoD_v2");
  cu.dtoh = (cuMemcpyDtoH_t)symbol(library, "cuMemcpyDtoH_v2");
  cu.streamCreate = (cuStreamCreate_t)symbol(library, "cuStreamCreate");
  cu.streamSynchronize =
      (cuStreamSynchronize_t)symbol(library, "cuStreamSynchronize");
  /* The GPU's primary context, current: what the CUDA runtime (and so
   * PyTorch) would have made. */
  int device = 0;
  void *context = NULL, *stream = NULL;
  cuCheck("cuInit", cu.init(0));
  cuCheck("cuDeviceGet", cu.deviceGet(&device, 0));
  cuCheck("cuDevicePrimaryCtxRetain", cu.retain(&context, device));
  cuCheck("cuCtxSetCurrent", cu.setCurrent(context));
  cuCheck("cuStreamCreate", cu.streamCreate(&stream, 1 /* non-blocking */));

  tile_kernel *softmax = load("softmax.mlir", NULL, 0);
  softmaxOnGpu(softmax, 4096, 1024, 4096, stream);
  softmaxOnGpu(softmax, 1000, 781, 1000, NULL);
  tile_kernel_destroy(softmax);
  /* Clusters, through the same launch (cuLaunchKernelEx): rows of 65536
   * floats over clusters of 8 programs of 8192 columns. */
  const char *defines[] = {"CLUSTER=8", "BLOCK_SIZE=8192"};
  tile_kernel *cluster = load("softmax_cluster.mlir", defines, 2);
  softmaxOnGpu(cluster, 64, 65536, 64, stream);
  tile_kernel_destroy(cluster);

  void *current = NULL;
  cuCheck("cuCtxGetCurrent", cu.getCurrent(&current));
  printf("the primary context is still current: %s\n",
         current == context ? "yes" : "NO");
  return current == context ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: tile-capi-test cpu|errors|compile|cuda EXAMPLES\n");
    return 2;
  }
  snprintf(examples, sizeof(examples), "%s", argv[2]);
  if (!strcmp(argv[1], "cpu"))
    return runCpu();
  if (!strcmp(argv[1], "errors"))
    return runErrors();
  if (!strcmp(argv[1], "compile"))
    return runCompile();
  if (!strcmp(argv[1], "cuda"))
    return runCuda();
  fprintf(stderr, "tile-capi-test: unknown mode '%s'\n", argv[1]);
  return 2;
}
