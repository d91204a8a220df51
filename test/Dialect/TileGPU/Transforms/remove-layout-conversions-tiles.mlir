// tilegpu-remove-layout-conversions on a loop over several tiles of C (a
// persistent matmul's flattened loop): the accumulator, reset by a select
// at a tile's last step, is carried in #mma (the select made there, from a
// constant and a splat, which cost nothing in any layout), and the store's
// conversion moves into the scf.if of the last step, below the cast to f16:
// it runs once per tile, on half the bytes.
// RUN: tile-opt %s --tilegpu-remove-layout-conversions | FileCheck %s

#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sa = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tile.func @tiles
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32, #mma>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[SUM:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %[[ACC]]
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.if
// CHECK-NEXT: %[[HALF:.*]] = arith.truncf %[[SUM]] : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
// CHECK-NEXT: %[[STORED:.*]] = tilegpu.convert_layout %[[HALF]] : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: tile.store %{{.*}}, %[[STORED]]
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[SUM]] : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
tile.func @tiles(%p: !tile.ptr<f16>, %n: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #blk>
  %ma = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sa>
  %mb = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sa>
  %ptrs = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blk>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blk>) : i32 {
    %a = tilegpu.convert_layout %acc : tensor<64x64xf32, #blk> -> tensor<64x64xf32, #mma>
    %sum_mma = tilegpu.warpgroup_dot %ma, %mb, %a : !tilegpu.memdesc<64x64xf16, #sa>, !tilegpu.memdesc<64x64xf16, #sa>, tensor<64x64xf32, #mma>
    %sum = tilegpu.convert_layout %sum_mma : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blk>
    %kb = arith.remsi %i, %k : i32
    %last = arith.cmpi eq, %kb, %c0 : i32
    scf.if %last {
      %half = arith.truncf %sum : tensor<64x64xf32, #blk> to tensor<64x64xf16, #blk>
      tile.store %ptrs, %half : tensor<64x64x!tile.ptr<f16>, #blk>
    }
    %reset = tile.splat %last : i1 -> tensor<64x64xi1, #blk>
    %next = arith.select %reset, %zero, %sum : tensor<64x64xi1, #blk>, tensor<64x64xf32, #blk>
    scf.yield %next : tensor<64x64xf32, #blk>
  }
  tile.return
}
