//===- CudaAPICheck.cpp - The runtime's driver API against cuda.h ---------===//
//
// Compiled (never run) where CMake finds cuda.h: checks at compile time that
// lib/Runtime/CudaAPI.h, which the runtime uses instead of cuda.h, declares
// the driver's ABI as cuda.h does. For every constant, the same value; for
// every function, the symbol cuda.h's macros select (cuMemAlloc is
// cuMemAlloc_v2) and the same number of parameters, each of the same size
// and the same kind (pointer or not), and a result of the same size. A
// mismatch is a compile error that names the constant or the function.
//
//===----------------------------------------------------------------------===//

// Our declarations first: cuda.h's macros must not rename them.
#include "CudaAPI.h"

#include <cuda.h>

#include <type_traits>

namespace {
namespace ours = mlir::tile::cuda;

constexpr bool equal(const char *a, const char *b) {
  for (; *a && *a == *b; ++a, ++b)
    ;
  return *a == *b;
}

template <typename A, typename B> constexpr bool sameClass() {
  return sizeof(A) == sizeof(B) && std::is_pointer_v<A> == std::is_pointer_v<B>;
}

template <typename R1, typename... A1, typename R2, typename... A2>
constexpr bool sameABI(R1 (*)(A1...), R2 (*)(A2...)) {
  if constexpr (sizeof...(A1) != sizeof...(A2))
    return false;
  else
    return sameClass<R1, R2>() && (sameClass<A1, A2>() && ...);
}

#define TILE_STRINGIFY_(x) #x
#define TILE_STRINGIFY(x) TILE_STRINGIFY_(x)

#define CHECK_CONSTANT(name, value)                                            \
  static_assert(ours::name == static_cast<int>(::name) && ours::name == value, \
                "CudaAPI.h: " #name " differs from cuda.h");
TILE_CUDA_API_CONSTANTS(CHECK_CONSTANT)

// `name` expands to cuda.h's versioned symbol here.
#define CHECK_FUNCTION(name, symbol, signature)                                \
  static_assert(equal(TILE_STRINGIFY(name), #symbol),                          \
                "CudaAPI.h: cuda.h calls " #symbol " by another symbol");      \
  static_assert(sameABI(&::name, static_cast<ours::name##_t *>(nullptr)),      \
                "CudaAPI.h: the signature of " #symbol                         \
                " differs from cuda.h");
TILE_CUDA_API_FUNCTIONS(CHECK_FUNCTION)
TILE_CUDA_API_OPTIONAL_FUNCTIONS(CHECK_FUNCTION)

static_assert(sameClass<ours::CUdeviceptr, ::CUdeviceptr>() &&
              sameClass<ours::CUcontext, ::CUcontext>() &&
              sameClass<ours::CUresult, ::CUresult>());
static_assert(sizeof(ours::CUtensorMap) == sizeof(::CUtensorMap) &&
                  alignof(ours::CUtensorMap) == alignof(::CUtensorMap),
              "CudaAPI.h: CUtensorMap differs from cuda.h");
} // namespace
