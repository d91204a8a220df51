//===- CudaAPI.h - The part of the CUDA driver API tile calls ---*- C++ -*-===//
//
// Private to lib/Runtime. The types, constants and function signatures of
// the CUDA driver API that the runtime uses, declared here rather than taken
// from cuda.h, so that the runtime builds the same with or without a CUDA
// toolkit: the driver (libcuda.so.1) is opened with dlopen at run time
// (CudaDriver.cpp), and that is the one place that says "no CUDA driver
// found" where there is none.
//
// Each declaration is the driver's ABI as cuda.h (CUDA 12.4 to 13.0)
// describes it: handles are opaque pointers, enums are C ints, and the
// symbols are the versioned names cuda.h's macros select (cuMemAlloc is
// cuMemAlloc_v2). Where cuda.h is found at configure time,
// test/lib/Runtime/CudaAPICheck.cpp checks every constant, every symbol name
// and the size and kind of every parameter against it at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_CUDAAPI_H
#define TILE_LIB_RUNTIME_CUDAAPI_H

#include <cstddef>

namespace mlir::tile::cuda {

// Handles and plain types.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUstream_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUevent = CUevent_st *;
using CUstream = CUstream_st *;
// Enums, passed as C ints.
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;

/// cuLaunchKernelEx's attributes (cuda.h's layout: an 8-byte id slot, then
/// a 64-byte union).
struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  union {
    char bytes[64];
    struct {
      unsigned int x, y, z;
    } clusterDim;
    int cooperative;
    void *align; // the union holds pointers in cuda.h
  } value;
};
static_assert(sizeof(CUlaunchAttribute) == 72, "cuda.h's CUlaunchAttribute");
struct CUlaunchConfig {
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned int numAttrs;
};

/// A TMA tensor map: 128 opaque bytes, 128-byte aligned (cuda.h 13.0; the
/// driver needs 64).
struct alignas(128) CUtensorMap {
  unsigned long long opaque[16];
};
static_assert(sizeof(CUtensorMap) == 128, "cuda.h's CUtensorMap");
using CUtensorMapDataType = int;
using CUtensorMapInterleave = int;
using CUtensorMapSwizzle = int;
using CUtensorMapL2promotion = int;
using CUtensorMapFloatOOBfill = int;

// The constants the runtime uses, with cuda.h's names and values.
#define TILE_CUDA_API_CONSTANTS(X)                                             \
  X(CUDA_SUCCESS, 0)                                                           \
  X(CUDA_ERROR_INVALID_VALUE, 1)                                               \
  X(CUDA_ERROR_STUB_LIBRARY, 34)                                               \
  X(CUDA_ERROR_NO_DEVICE, 100)                                                 \
  X(CUDA_ERROR_NOT_FOUND, 500)                                                 \
  X(CU_EVENT_DEFAULT, 0)                                                       \
  X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1)                              \
  X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 5)                                     \
  X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 6)                                     \
  X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 7)                                     \
  X(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 10)                                         \
  X(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 16)                              \
  X(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 36)                                 \
  X(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 37)                           \
  X(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 38)                                     \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 75)                          \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 76)                          \
  X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 81)              \
  X(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 82)                  \
  X(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0)                                \
  X(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 1)                                    \
  X(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 3)                                     \
  X(CU_FUNC_ATTRIBUTE_NUM_REGS, 4)                                             \
  X(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 8)                        \
  X(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 14)                   \
  X(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, 2)                                        \
  X(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, 4)                                  \
  X(CU_JIT_WALL_TIME, 2)                                                       \
  X(CU_JIT_INFO_LOG_BUFFER, 3)                                                 \
  X(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, 4)                                      \
  X(CU_JIT_ERROR_LOG_BUFFER, 5)                                                \
  X(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, 6)                                     \
  X(CU_JIT_LOG_VERBOSE, 12)                                                    \
  X(CU_TENSOR_MAP_DATA_TYPE_UINT8, 0)                                          \
  X(CU_TENSOR_MAP_DATA_TYPE_INT32, 3)                                          \
  X(CU_TENSOR_MAP_DATA_TYPE_INT64, 5)                                          \
  X(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 6)                                        \
  X(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 7)                                        \
  X(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 9)                                       \
  X(CU_TENSOR_MAP_INTERLEAVE_NONE, 0)                                          \
  X(CU_TENSOR_MAP_SWIZZLE_NONE, 0)                                             \
  X(CU_TENSOR_MAP_SWIZZLE_32B, 1)                                              \
  X(CU_TENSOR_MAP_SWIZZLE_64B, 2)                                              \
  X(CU_TENSOR_MAP_SWIZZLE_128B, 3)                                             \
  X(CU_TENSOR_MAP_L2_PROMOTION_L2_128B, 2)                                     \
  X(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 0)

#define TILE_CUDA_API_CONSTANT(name, value) constexpr int name = value;
TILE_CUDA_API_CONSTANTS(TILE_CUDA_API_CONSTANT)
#undef TILE_CUDA_API_CONSTANT

// Every driver function the runtime calls: X(name, symbol, signature), the
// symbol being the versioned name the driver exports.
#define TILE_CUDA_API_FUNCTIONS(X)                                             \
  X(cuInit, cuInit, CUresult(unsigned int))                                    \
  X(cuDriverGetVersion, cuDriverGetVersion, CUresult(int *))                   \
  X(cuDeviceGetCount, cuDeviceGetCount, CUresult(int *))                       \
  X(cuDeviceGet, cuDeviceGet, CUresult(CUdevice *, int))                       \
  X(cuDeviceGetName, cuDeviceGetName, CUresult(char *, int, CUdevice))         \
  X(cuDeviceGetAttribute, cuDeviceGetAttribute,                                \
    CUresult(int *, CUdevice_attribute, CUdevice))                             \
  X(cuDeviceTotalMem, cuDeviceTotalMem_v2, CUresult(size_t *, CUdevice))       \
  X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain,                        \
    CUresult(CUcontext *, CUdevice))                                           \
  X(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2,                   \
    CUresult(CUdevice))                                                        \
  X(cuCtxGetCurrent, cuCtxGetCurrent, CUresult(CUcontext *))                   \
  X(cuCtxSetCurrent, cuCtxSetCurrent, CUresult(CUcontext))                     \
  X(cuCtxSynchronize, cuCtxSynchronize, CUresult())                            \
  X(cuModuleLoadDataEx, cuModuleLoadDataEx,                                    \
    CUresult(CUmodule *, const void *, unsigned int, CUjit_option *, void **)) \
  X(cuModuleUnload, cuModuleUnload, CUresult(CUmodule))                        \
  X(cuModuleGetFunction, cuModuleGetFunction,                                  \
    CUresult(CUfunction *, CUmodule, const char *))                            \
  X(cuFuncGetAttribute, cuFuncGetAttribute,                                    \
    CUresult(int *, CUfunction_attribute, CUfunction))                         \
  X(cuModuleGetGlobal, cuModuleGetGlobal_v2,                                   \
    CUresult(CUdeviceptr *, size_t *, CUmodule, const char *))                 \
  X(cuMemAlloc, cuMemAlloc_v2, CUresult(CUdeviceptr *, size_t))                \
  X(cuMemFree, cuMemFree_v2, CUresult(CUdeviceptr))                            \
  X(cuMemcpyHtoD, cuMemcpyHtoD_v2,                                             \
    CUresult(CUdeviceptr, const void *, size_t))                               \
  X(cuMemcpyDtoH, cuMemcpyDtoH_v2, CUresult(void *, CUdeviceptr, size_t))      \
  X(cuMemsetD8, cuMemsetD8_v2, CUresult(CUdeviceptr, unsigned char, size_t))   \
  X(cuMemsetD32Async, cuMemsetD32Async,                                        \
    CUresult(CUdeviceptr, unsigned int, size_t, CUstream))                     \
  X(cuLaunchKernel, cuLaunchKernel,                                            \
    CUresult(CUfunction, unsigned int, unsigned int, unsigned int,             \
             unsigned int, unsigned int, unsigned int, unsigned int, CUstream, \
             void **, void **))                                                \
  X(cuEventCreate, cuEventCreate, CUresult(CUevent *, unsigned int))           \
  X(cuEventRecord, cuEventRecord, CUresult(CUevent, CUstream))                 \
  X(cuEventSynchronize, cuEventSynchronize, CUresult(CUevent))                 \
  X(cuEventElapsedTime, cuEventElapsedTime_v2,                                 \
    CUresult(float *, CUevent, CUevent))                                       \
  X(cuEventDestroy, cuEventDestroy_v2, CUresult(CUevent))                      \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor,                               \
    cuOccupancyMaxActiveBlocksPerMultiprocessor,                               \
    CUresult(int *, CUfunction, int, size_t))                                  \
  X(cuGetErrorString, cuGetErrorString, CUresult(CUresult, const char **))     \
  X(cuGetErrorName, cuGetErrorName, CUresult(CUresult, const char **))

// Functions the runtime uses where the driver has them (CUDA 12.4 and
// later; tensor maps since 12.0, on sm_90), and does without otherwise.
#define TILE_CUDA_API_OPTIONAL_FUNCTIONS(X)                                    \
  X(cuFuncGetParamInfo, cuFuncGetParamInfo,                                    \
    CUresult(CUfunction, size_t, size_t *, size_t *))                          \
  X(cuLaunchKernelEx, cuLaunchKernelEx,                                        \
    CUresult(const CUlaunchConfig *, CUfunction, void **, void **))            \
  X(cuOccupancyMaxActiveClusters, cuOccupancyMaxActiveClusters,                \
    CUresult(int *, CUfunction, const CUlaunchConfig *))                       \
  X(cuFuncSetAttribute, cuFuncSetAttribute,                                    \
    CUresult(CUfunction, CUfunction_attribute, int))                           \
  X(cuTensorMapEncodeTiled, cuTensorMapEncodeTiled,                            \
    CUresult(CUtensorMap *, CUtensorMapDataType, unsigned int, void *,         \
             const unsigned long long *, const unsigned long long *,           \
             const unsigned int *, const unsigned int *,                       \
             CUtensorMapInterleave, CUtensorMapSwizzle,                        \
             CUtensorMapL2promotion, CUtensorMapFloatOOBfill))

// The function types, such as cuMemAlloc_t.
#define TILE_CUDA_API_FUNCTION_TYPE(name, symbol, signature)                   \
  using name##_t = signature;
TILE_CUDA_API_FUNCTIONS(TILE_CUDA_API_FUNCTION_TYPE)
TILE_CUDA_API_OPTIONAL_FUNCTIONS(TILE_CUDA_API_FUNCTION_TYPE)
#undef TILE_CUDA_API_FUNCTION_TYPE

} // namespace mlir::tile::cuda

#endif // TILE_LIB_RUNTIME_CUDAAPI_H
