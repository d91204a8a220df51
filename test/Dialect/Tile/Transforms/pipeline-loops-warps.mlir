// Without tile.num_warps, the pass's num-warps option sets the threads the
// register estimate shares a tile among: 16384 floats are 32 registers per
// thread over 16 warps (pipelined), 128 over the default 4 (128 + 128 + 32
// is more than 255: left alone).
// RUN: tile-opt %s --tile-pipeline-loops=num-warps=16 | FileCheck %s --check-prefix=WARPS16
// RUN: tile-opt %s --tile-pipeline-loops | FileCheck %s --check-prefix=WARPS4

// WARPS16: scf.for {{.*}} iter_args
// WARPS4: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// WARPS4-NEXT: tile.addptr
tile.func @rows(%p: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 16384 : tensor<16384xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<16384x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<16384x!tile.ptr<f32>>, tensor<16384xi32>
    %x = tile.load %ptrs : tensor<16384x!tile.ptr<f32>>
    %e = tile.exp %x : tensor<16384xf32>
    tile.store %ptrs, %e : tensor<16384x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}
