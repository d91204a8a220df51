//===- KernelABI.h - What a compiled kernel tells its launcher --*- C++ -*-===//
//
// Beyond its parameters, a kernel the compiler emits tells the runtime that
// launches it (lib/Runtime/Cuda.cpp) one thing through a symbol of its
// module: how much dynamic shared memory it needs.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_KERNELABI_H
#define TILE_CONVERSION_KERNELABI_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tile {

/// Every kernel `K` gives the dynamic shared memory its launches must pass,
/// in bytes, in `.visible .global .u32 K_dynamic_shared`: 0, unless its
/// shared memory is over the 48 KiB a block can have statically; it then
/// declares it `.extern .shared`, and the launch must opt in to that much
/// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) and pass it. (A
/// module without the symbol, such as PTX written by hand, needs none.)
inline constexpr llvm::StringLiteral kDynamicSharedSuffix = "_dynamic_shared";

} // namespace mlir::tile

#endif // TILE_CONVERSION_KERNELABI_H
