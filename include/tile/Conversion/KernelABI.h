//===- KernelABI.h - What a compiled kernel tells its launcher --*- C++ -*-===//
//
// Beyond its parameters, a kernel the compiler emits tells the runtime that
// launches it (lib/Runtime/Cuda.cpp) two things through symbols of its
// module: how much dynamic shared memory it needs, and how to make the
// tensor maps its TMA copies read.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_KERNELABI_H
#define TILE_CONVERSION_KERNELABI_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::tile {

/// Every kernel `K` gives the dynamic shared memory its launches must pass,
/// in bytes, in `.visible .global .u32 K_dynamic_shared`: 0, unless its
/// shared memory is over the 48 KiB a block can have statically; it then
/// declares it `.extern .shared`, and the launch must opt in to that much
/// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) and pass it. (A
/// module without the symbol, such as PTX written by hand, needs none.)
inline constexpr llvm::StringLiteral kDynamicSharedSuffix = "_dynamic_shared";

/// A kernel `K` that reduces across its grid (tile.grid_reduce) keeps its
/// reductions' state in `.visible .global .align 8 .b8 K_grid_reduce[]`,
/// zeroed when the module loads: an epoch (u32, byte 0: the tag of the last
/// reduction a launch completed), then from byte kGridReduceSlotsOffset
/// two buffers, each of kMaxGridReducePrograms 8-byte slots (a 32-bit word
/// and its reduction's tag) for each word of its widest reduction's values
/// (two per 64-bit value), then each buffer's 8-byte result slots, one per
/// word (where program 0 posts the results, with the pass's
/// grid-reduce-leader option), then kGridReducePaddingBytes that the combining
/// loop may read past the grid's end (GridOpToLLVM.cpp). The runtime
/// launches such a kernel cooperatively, all of its programs resident at
/// once, and never on more than kMaxGridReducePrograms. Every reduction of
/// the kernel uses the same buffer offsets (spaced for the widest). One
/// workspace per loaded module: two launches of the kernel from one module
/// must not run at once (on two streams), or they would take each other's
/// tags.
inline constexpr llvm::StringLiteral kGridReduceSuffix = "_grid_reduce";
/// The most programs of a grid that reduces across itself (the interpreter
/// refuses more, too).
inline constexpr int64_t kMaxGridReducePrograms = 8192;
inline constexpr int64_t kGridReduceSlotsOffset = 16;
inline constexpr int64_t kGridReducePaddingBytes = 256 * 8;

/// A kernel `K` whose TMA copies read tensor maps (tilegpu.tma_load) takes
/// each map as a hidden parameter after its own (`.param .align 64 .b8
/// [128]`, __grid_constant__), in the order of `tile.make_tensor_desc` in
/// the kernel, and says how to make them in `.visible .global .u32
/// K_tensor_maps[]`: kTensorMapsMagic, the number of maps, then
/// kTensorMapWords words per map, indexed by TensorMapWord. A size or a
/// stride is a constant (>= 0) or -1 - i for the value of the kernel's i32
/// argument i. (A kernel without the symbol takes no maps.)
inline constexpr llvm::StringLiteral kTensorMapsSuffix = "_tensor_maps";
/// "TMA" and the format's version, 1.
inline constexpr int32_t kTensorMapsMagic = 0x544d4101;

/// The words of one map's recipe.
enum TensorMapWord : int32_t {
  /// The kernel argument holding the tensor's base pointer.
  kTensorMapBaseArg,
  /// The element type: a TensorMapElement.
  kTensorMapElement,
  /// The descriptor's rank, 1 or 2.
  kTensorMapRank,
  /// The tensor's sizes, innermost first (the second 0 for rank 1).
  kTensorMapSize0,
  kTensorMapSize1,
  /// Elements between consecutive rows (0 for rank 1).
  kTensorMapRowStride,
  /// The box one copy moves, innermost first (the second 1 for rank 1).
  kTensorMapBox0,
  kTensorMapBox1,
  /// The swizzle's span in bytes: 0, 32, 64 or 128.
  kTensorMapSwizzle,
  kTensorMapWords
};

/// Element types a tensor map recipe names.
enum class TensorMapElement : int32_t {
  F16 = 1,
  BF16 = 2,
  F32 = 3,
  I32 = 4,
  F8E4M3FN = 5,
  F8E5M2 = 6
};

} // namespace mlir::tile

#endif // TILE_CONVERSION_KERNELABI_H
