// A layout conversion through shared memory writes its tile row-major, each
// row padded by 16 bytes where the row is a multiple of 64 bytes (against
// bank conflicts: the threads of an #mma layout hold the same columns of 8
// consecutive rows); shorter rows are not padded.
// RUN: tile-opt %s --split-input-file --convert-tilegpu-to-llvm | FileCheck %s

#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
// 64 rows of 256 f16 (512 bytes) padded to 264: 64 x 264 x 2 bytes.
// CHECK: llvm.mlir.global internal @padded_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<33792 x i8>
// CHECK-LABEL: llvm.func @padded
// CHECK: llvm.mlir.constant(264 : i32) : i32
// CHECK: nvvm.barrier0
tile.func @padded(%p: !tile.ptr<f16> {tile.divisibility = 16 : i64}) attributes {tilegpu.num_warps = 4 : i32} {
  %src = tile.splat %p : !tile.ptr<f16> -> tensor<64x256x!tile.ptr<f16>, #mma>
  %x = tile.load %src : tensor<64x256x!tile.ptr<f16>, #mma>
  %y = tilegpu.convert_layout %x : tensor<64x256xf16, #mma> -> tensor<64x256xf16, #blk>
  %dst = tile.splat %p : !tile.ptr<f16> -> tensor<64x256x!tile.ptr<f16>, #blk>
  tile.store %dst, %y : tensor<64x256x!tile.ptr<f16>, #blk>
  tile.return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// 64 rows of 16 f16 (32 bytes): not padded, 64 x 16 x 2 bytes.
// CHECK: llvm.mlir.global internal @unpadded_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2048 x i8>
tile.func @unpadded(%p: !tile.ptr<f16> {tile.divisibility = 16 : i64}) attributes {tilegpu.num_warps = 4 : i32} {
  %src = tile.splat %p : !tile.ptr<f16> -> tensor<64x16x!tile.ptr<f16>, #b1>
  %x = tile.load %src : tensor<64x16x!tile.ptr<f16>, #b1>
  %y = tilegpu.convert_layout %x : tensor<64x16xf16, #b1> -> tensor<64x16xf16, #b2>
  %dst = tile.splat %p : !tile.ptr<f16> -> tensor<64x16x!tile.ptr<f16>, #b2>
  tile.store %dst, %y : tensor<64x16x!tile.ptr<f16>, #b2>
  tile.return
}
