/*===- tile-c/Runtime.h - The C API of tile's runtime -------------*- C -*-===*\
|*                                                                            *|
|* Loading, specializing, compiling and launching tile kernels from C, and   *|
|* from any language that calls C (the Python package `tile` does, through  *|
|* ctypes). A thin layer over the C++ runtime (tile/Runtime/KernelRunner.h,  *|
|* tile/Runtime/Tuner.h), built as the shared library libtile-c.so, which    *|
|* exports these functions only. See docs/python.md.                         *|
|*                                                                            *|
|*   tile_kernel *kernel;                                                     *|
|*   const char *defines[] = {"BLOCK_SIZE=1024"};                             *|
|*   tile_load_options load = {NULL, defines, 1};                             *|
|*   if (tile_kernel_load_file("softmax.mlir", &load, &kernel))               *|
|*     fprintf(stderr, "%s\n", tile_last_error());                            *|
|*   // One tile_arg per parameter: device addresses and scalars.             *|
|*   tile_prepare_options options = tile_prepare_options_default();           *|
|*   options.target = TILE_TARGET_CUDA;                                       *|
|*   tile_function *function;                                                 *|
|*   tile_kernel_prepare(kernel, &options, args, 6, &function);               *|
|*   uint32_t grid[3];                                                        *|
|*   tile_function_persistent_grid(function, n_rows, grid);                   *|
|*   uint64_t values[6] = {y, x, stride, stride, n_rows, n_cols};             *|
|*   tile_function_launch(function, grid, stream, values, 6);                 *|
|*   tile_kernel_destroy(kernel);                                             *|
|*                                                                            *|
|* Errors. Every function that can fail returns a tile_status: TILE_SUCCESS  *|
|* (0) or the kind of failure, and then tile_last_error() is the message,    *|
|* with the kernel file's diagnostics (file:line:col) where it has them. No  *|
|* function aborts or lets a C++ exception out on bad input.                  *|
|*                                                                            *|
|* Threads. Calls on different kernels may run on different threads at      *|
|* once; calls on one kernel (and its functions) are serialized by a lock,   *|
|* but for tile_function_launch and tile_launch_packed, which take none.     *|
|*                                                                            *|
|* The GPU. The CUDA driver is loaded at run time (libcuda.so.1); a machine  *|
|* without one runs kernels on the CPU interpreter. A function of the CUDA   *|
|* target is loaded in the primary context of its GPU, the context the CUDA  *|
|* runtime (and so PyTorch) uses, and is launched with that context current; *|
|* a thread that had another context current gets it back after the call.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_RUNTIME_H
#define TILE_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TILE_C_EXPORT __attribute__((visibility("default")))
#else
#define TILE_C_EXPORT
#endif

/* The version of this API: a change that breaks a caller increments it. */
#define TILE_C_API_VERSION 2

/*===----------------------------------------------------------------------===
 * Status, errors and types
 *===----------------------------------------------------------------------===*/

typedef enum tile_status {
  TILE_SUCCESS = 0,
  /* A call the API does not take: a null pointer, an index out of range, a
   * bad option, a function of the wrong target. */
  TILE_ERROR_INVALID_CALL = 1,
  /* The kernel file: unreadable, bad meta-parameters (-D), does not parse
   * or verify, no kernel of the name asked for. */
  TILE_ERROR_KERNEL = 2,
  /* A launch's arguments do not fit the kernel: their number, their types,
   * a value above its tile.max_value, a pointer or integer that breaks its
   * tile.divisibility. */
  TILE_ERROR_ARGUMENTS = 3,
  /* Compiling the kernel failed. */
  TILE_ERROR_COMPILE = 4,
  /* The GPU: no driver, no GPU, a driver call that failed, a module the
   * driver rejects, a grid or block the GPU cannot launch. */
  TILE_ERROR_CUDA = 5,
  /* The run failed: the interpreter's runtime error (an access outside the
   * buffers, ...), or no configuration could be timed while tuning. */
  TILE_ERROR_RUN = 6,
  /* Anything else (out of memory, ...). */
  TILE_ERROR_INTERNAL = 7
} tile_status;

/* The message of the last error on the calling thread (empty when the last
 * call succeeded). Valid until the thread's next call into this API. */
TILE_C_EXPORT const char *tile_last_error(void);

/* The compiler's version, as compile-cache keys name it: "tile <hash> LLVM
 * 22.1.8". */
TILE_C_EXPORT const char *tile_version(void);

/* Element types, of buffers (a pointer parameter's pointee) and scalars
 * (the 8-bit floats: of buffers only). */
typedef enum tile_dtype {
  TILE_DTYPE_F16 = 0,
  TILE_DTYPE_BF16 = 1,
  TILE_DTYPE_F32 = 2,
  TILE_DTYPE_I1 = 3,
  TILE_DTYPE_I32 = 4,
  TILE_DTYPE_I64 = 5,
  TILE_DTYPE_F8E4M3FN = 6,
  TILE_DTYPE_F8E5M2 = 7
} tile_dtype;

/* "f16", "bf16", "f32", "i1", "i32", "i64", "f8E4M3FN", "f8E5M2"; "" for
 * another value. */
TILE_C_EXPORT const char *tile_dtype_name(int32_t dtype);

/* Where a kernel runs. */
typedef enum tile_target {
  /* The CPU interpreter, over host memory. */
  TILE_TARGET_CPU = 0,
  /* An NVIDIA GPU, over device memory. */
  TILE_TARGET_CUDA = 1
} tile_target;

/* The number of GPUs the CUDA driver sees, in *count; an error (and 0)
 * without a driver or a GPU. */
TILE_C_EXPORT tile_status tile_cuda_device_count(int32_t *count);

/*===----------------------------------------------------------------------===
 * Kernels
 *===----------------------------------------------------------------------===*/

/* A kernel file, preprocessed with its -D values, parsed and verified, and
 * the kernel chosen from it; with several files, the variants of one launch
 * (kernels that compute the same with the same signature), between which
 * the tuning cache or the tuner chooses. */
typedef struct tile_kernel tile_kernel;

typedef struct tile_load_options {
  /* The kernel to pick; null or "" for the only one in the file. */
  const char *kernel_name;
  /* The meta-parameters set by hand (-D), "NAME=VALUE" each. */
  const char *const *defines;
  size_t num_defines;
} tile_load_options;

/* Loads a kernel file (options may be null: no -D, the only kernel). */
TILE_C_EXPORT tile_status tile_kernel_load_file(
    const char *path, const tile_load_options *options, tile_kernel **kernel);
/* Loads several files as the variants of one launch: every one must have
 * the same signature. */
TILE_C_EXPORT tile_status
tile_kernel_load_files(const char *const *paths, size_t num_paths,
                       const tile_load_options *options, tile_kernel **kernel);
/* Loads a kernel from text; `name` names it in diagnostics (and in the
 * tuning cache's key, with the text). */
TILE_C_EXPORT tile_status
tile_kernel_load_string(const char *text, const char *name,
                        const tile_load_options *options, tile_kernel **kernel);
/* Destroys a kernel and every function prepared from it. Null is a no-op. */
TILE_C_EXPORT void tile_kernel_destroy(tile_kernel *kernel);

/* The kernel's name ("softmax") and signature ("@softmax(!tile.ptr<f32>,
 * i32)"), valid while the kernel lives. */
TILE_C_EXPORT const char *tile_kernel_name(const tile_kernel *kernel);
TILE_C_EXPORT const char *tile_kernel_signature(const tile_kernel *kernel);

/* What the last call on the kernel printed besides its result: notes on the
 * meta-parameters chosen ("fitted: ...", "tuned: ... from the tuning
 * cache"), the tuner's table, warnings (a kernel that spills, a tuning cache
 * entry ignored). Valid until the next call on the kernel. */
TILE_C_EXPORT const char *tile_kernel_messages(const tile_kernel *kernel);

/* A kernel parameter. */
typedef struct tile_param_info {
  /* The name the kernel file gives it ("output"); "" when it gives none. */
  const char *name;
  /* 1 for a pointer (a buffer argument), 0 for a scalar. */
  int32_t is_pointer;
  /* The pointee type of a pointer, the type of a scalar (tile_dtype); -1
   * for a type no argument can have. */
  int32_t dtype;
  /* The kernel's promise `tile.divisibility` (a power of two; bytes for a
   * pointer), or 0. */
  int64_t divisibility;
  /* The kernel's bound `tile.max_value`, or INT64_MAX. */
  int64_t max_value;
} tile_param_info;

TILE_C_EXPORT size_t tile_kernel_num_params(const tile_kernel *kernel);
/* Parameter `index`; its strings are valid while the kernel lives. */
TILE_C_EXPORT tile_status tile_kernel_get_param(const tile_kernel *kernel,
                                                size_t index,
                                                tile_param_info *info);

/* A meta-parameter the kernel file declares (`// tile.param NAME = VALUE
 * in ...`). */
typedef struct tile_meta_param_info {
  const char *name;
  /* Its value: the default, or the value set by hand (-D), or (for a
   * function) the value it was compiled with. */
  const char *value;
  /* 1 for an element type, 0 for an integer. */
  int32_t is_type;
  /* 1 when set by hand (-D). */
  int32_t is_defined;
  /* The values it may take, comma-separated; "" when the file lists none. */
  const char *values;
} tile_meta_param_info;

/* The meta-parameters of the (first) kernel file, with their values. */
TILE_C_EXPORT size_t tile_kernel_num_meta_params(const tile_kernel *kernel);
TILE_C_EXPORT tile_status tile_kernel_get_meta_param(
    const tile_kernel *kernel, size_t index, tile_meta_param_info *info);

/*===----------------------------------------------------------------------===
 * Arguments
 *===----------------------------------------------------------------------===*/

/* One argument of a launch. */
typedef struct tile_arg {
  /* 1 for a buffer (a pointer parameter), 0 for a scalar. */
  int32_t is_buffer;
  /* The buffer's element type, or the scalar's type (tile_dtype). */
  int32_t dtype;
  /* A scalar: its bits, in the low bits (f32: the float's bits, f16 and
   * bf16: their 16 bits, integers: two's complement, truncated to their
   * width). A buffer: the address of its first element, in device memory
   * on the CUDA target, in host memory on the CPU. */
  uint64_t value;
  /* A buffer: its shape, `rank` sizes (the tuning cache's shape bucket; the
   * interpreter's messages). Null with rank 0: one dimension of `extent`. */
  const int64_t *shape;
  int32_t rank;
  /* A buffer on the CPU: 1 when the kernel may write it; a kernel that
   * writes a buffer not writable fails and leaves it as it was. */
  int32_t writable;
  /* A buffer: the elements from `value` on that the kernel may access (a
   * strided view spans more than its elements). The interpreter checks
   * every access against it; the tuner copies that much. */
  int64_t extent;
} tile_arg;

/*===----------------------------------------------------------------------===
 * Preparing a launch: the meta-parameters, specialization, compilation
 *===----------------------------------------------------------------------===*/

/* A kernel ready to launch: its meta-parameters chosen for a launch, and on
 * the CUDA target specialized on the launch's arguments, compiled (through
 * the compile cache) and loaded on the GPU. Owned by its kernel. */
typedef struct tile_function tile_function;

/* Where a launch's meta-parameters come from (docs/tuning.md). */
typedef enum tile_tuning {
  /* The tuning cache's choice for the launch's shape bucket where it has
   * one, else an imported or shipped tuning database's (-D set by hand wins
   * over either), else as TILE_TUNING_DEFAULTS. */
  TILE_TUNING_CACHE = 0,
  /* No stored choice: on the CUDA target the cost model's choice
   * (docs/tuning.md), on the CPU the defaults and -D fitted to the launch. */
  TILE_TUNING_DEFAULTS = 1,
  /* Tune now: time every configuration on the GPU (on copies of the
   * arguments), check the fastest against the interpreter, store it in the
   * tuning cache and use it. */
  TILE_TUNING_TUNE = 2,
  /* A stored choice (as TILE_TUNING_CACHE) where there is one, else tune
   * now. */
  TILE_TUNING_AUTO = 3
} tile_tuning;

typedef struct tile_prepare_options {
  /* tile_target. */
  int32_t target;
  /* The GPU, by ordinal (the CUDA target). */
  int32_t device;
  /* tile_tuning (the CUDA target; the CPU fits the defaults). */
  int32_t tuning;
  /* Warps per program for kernels without tile.num_warps (1 to 32). */
  uint32_t num_warps;
  /* The grid the tuner launches every configuration on, and the cost model
   * estimates on: "X[,Y[,Z]]" or "persistent[:N]"; null: "persistent". Give
   * a persistent launch's grid here: a choice of all waves (one program
   * per row) needs its cap. */
  const char *tune_grid;
  /* The tuner's benchmark of each configuration: warm-up and timed runs
   * (0: 10 and 100). */
  uint32_t tune_warmup;
  uint32_t tune_repetitions;
  /* 1: print the tuner's progress, a line per configuration, to stderr. */
  int32_t tune_progress;
  /* The compile cache's (and the tuning cache's) directory; null: the
   * default ($TILE_CACHE_DIR, ...); "": no cache. */
  const char *cache_dir;
  /* 1: a stored choice may come from the tuning databases imported into
   * the cache and those built into the library (where the tuning cache has
   * none); 0: from the tuning cache only. */
  int32_t tuning_databases;
  /* The tuner times only the configurations the cost model ranks first, this
   * many of each kernel (tile_prepare_options_default: 32); 0: every one it
   * keeps. */
  uint32_t tune_top;
  /* 1 (the default): on an sm_90a GPU, copy the descriptor loads that feed
   * wgmma dots in loops, and the loads of dot operands proven to be boxes,
   * with TMA (the pipeline's `tma` option, tile-run --tma); a launch whose
   * tensor maps cannot be made runs the kernel compiled without TMA. 0: with
   * cp.async, as on other GPUs (which ignore the option). */
  int32_t tma;
} tile_prepare_options;

/* Writes the entries of the tuning cache under `cache_dir` (null: the
 * default) as a tuning database at `path`; `report` (optional) receives
 * what was written, valid until the thread's next call into this API. */
TILE_C_EXPORT tile_status tile_tuning_export(const char *cache_dir,
                                             const char *path,
                                             const char **report);

/* Merges the tuning database at `path` into the databases imported into
 * the cache under `cache_dir` (null: the default). A file that is not a
 * tuning database is TILE_ERROR_INVALID_CALL; its corrupt records are
 * left out and named in `report`. */
TILE_C_EXPORT tile_status tile_tuning_import(const char *cache_dir,
                                             const char *path,
                                             const char **report);

/* The defaults: the CUDA target, GPU 0, TILE_TUNING_CACHE, 4 warps, the
 * tuning databases consulted. */
TILE_C_EXPORT tile_prepare_options tile_prepare_options_default(void);

/* Prepares the kernel for a launch with `args` (one per parameter, checked
 * against the signature): chooses its meta-parameters, and on the CUDA
 * target specializes it on the arguments (the divisibility of each integer
 * and each buffer's address, as Triton does), compiles it for the GPU and
 * loads it. A launch in the same shape bucket with the same divisibilities
 * gets the same function back without any work; another that needs the same
 * compiled kernel shares its function. */
TILE_C_EXPORT tile_status tile_kernel_prepare(
    tile_kernel *kernel, const tile_prepare_options *options,
    const tile_arg *args, size_t num_args, tile_function **function);

/* Compiles the kernel for `chip` ("sm_90") without a GPU: PTX (format 0) or
 * a cubin (format 1, through the CUDA toolkit's ptxas), specialized on
 * `args` as tile_kernel_prepare specializes (none: only on the kernel
 * file's hints) with its defaults fitted to them. *binary and *size are
 * valid until the next call on the kernel. */
TILE_C_EXPORT tile_status tile_kernel_compile(
    tile_kernel *kernel, const char *chip, int32_t format, const tile_arg *args,
    size_t num_args, const char **binary, size_t *size);

/* What a function is. */
typedef struct tile_function_info {
  /* The kernel's name, and which variant (file) of the kernel it is. */
  const char *name;
  int32_t variant;
  int32_t target;
  int32_t device;
  /* Its meta-parameters as compiled: "BLOCK_SIZE=1024 NUM_WARPS=4 ...",
   * then the waves its persistent grids launch where the chosen
   * configuration has more than one: "... waves=all". */
  const char *config;
  /* The CUDA target: threads per block, blocks per cluster, and the
   * compiled kernel's registers per thread, shared memory per block and
   * local memory (spills) per thread. */
  uint32_t block_size;
  int32_t cluster_size;
  int32_t num_registers;
  int32_t shared_bytes;
  int32_t local_bytes;
  /* The divisibility the kernel was specialized on, "0:16,1:16,3:16". */
  const char *specialization;
} tile_function_info;

TILE_C_EXPORT tile_status tile_function_get_info(const tile_function *function,
                                                 tile_function_info *info);
/* The function's parameters, with the promises of the configuration it
 * was compiled with (a launch must keep each tile.max_value). */
TILE_C_EXPORT tile_status tile_function_get_param(const tile_function *function,
                                                  size_t index,
                                                  tile_param_info *info);
/* Its meta-parameters, with the values it was compiled with. */
TILE_C_EXPORT size_t
tile_function_num_meta_params(const tile_function *function);
TILE_C_EXPORT tile_status tile_function_get_meta_param(
    const tile_function *function, size_t index, tile_meta_param_info *info);

/*===----------------------------------------------------------------------===
 * Launching
 *===----------------------------------------------------------------------===*/

/* The grid of a persistent launch (CUDA): as many programs as fit on the
 * GPU at once (SMs x blocks per SM, from the compiled kernel's occupancy),
 * at most `cap` (0: no cap); for a kernel in clusters, every cluster that
 * fits, at most `cap` clusters. Times the waves of the function's chosen
 * configuration (a tuned choice's or the cost model's "waves=N"; "waves=all":
 * `cap`, one program or cluster per row, where `cap` is not 0), as the
 * tuner timed it. */
TILE_C_EXPORT tile_status tile_function_persistent_grid(
    const tile_function *function, int64_t cap, uint32_t grid[3]);

/* Launches a CUDA function on `grid` (x, y, z programs) on `stream` (a
 * CUstream; null: the default stream), asynchronously. `values` holds one
 * 8-byte slot per parameter: a buffer's device address, a scalar's bits as
 * tile_arg.value has them. The arguments must be of the kind the function
 * was prepared for (the same types, divisibilities and bounds): no check is
 * made but of the grid and the number of values. */
TILE_C_EXPORT tile_status tile_function_launch(const tile_function *function,
                                               const uint32_t grid[3],
                                               void *stream,
                                               const uint64_t *values,
                                               size_t num_values);

/* The same in one buffer, for bindings that want a single cheap call (the
 * Python package): a tile_launch_packet, then its num_values 8-byte slots. */
typedef struct tile_launch_packet {
  const tile_function *function;
  void *stream;
  uint32_t grid[3];
  uint32_t num_values;
} tile_launch_packet;
TILE_C_EXPORT tile_status tile_launch_packed(const void *packet);

/* Runs a CPU function on the interpreter over host buffers (`args` as for
 * tile_kernel_prepare): each buffer is copied in, the kernel runs on `grid`,
 * and the bytes it changed in each writable buffer are copied back (only
 * those: one array passed as two arguments, as an operation in place passes
 * it, is two copies on the interpreter). */
TILE_C_EXPORT tile_status tile_function_run_cpu(const tile_function *function,
                                                const uint32_t grid[3],
                                                const tile_arg *args,
                                                size_t num_args);

/* Waits for all work on GPU `device` (cuCtxSynchronize in its primary
 * context): a kernel's fault surfaces here. */
TILE_C_EXPORT tile_status tile_cuda_synchronize(int32_t device);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_RUNTIME_H */
