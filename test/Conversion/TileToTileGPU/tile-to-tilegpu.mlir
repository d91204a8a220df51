// convert-tile-to-tilegpu: every tile gets a blocked layout, one per rank,
// made for the largest tile of the rank; reductions produce slices, and
// conversions surround reductions to tiles and expand_dims.
// RUN: tile-opt %s --convert-tile-to-tilegpu --split-input-file | FileCheck %s
// RUN: tile-opt %s --convert-tile-to-tilegpu="num-warps=8" --split-input-file | FileCheck %s --check-prefix=WARPS8

// 1024 elements over 4 warps: one element per thread at a time, 32 threads
// per warp, 4 warps, all along the only dimension.
// CHECK: #[[B1:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @rank1
// CHECK-SAME: attributes {tilegpu.num_warps = 4 : i32}
// CHECK: arith.constant dense<0xFF800000> : tensor<1024xf32, #[[B1]]>
// CHECK: tile.range 0, 1024 : tensor<1024xi32, #[[B1]]>
// CHECK: tile.load {{.*}} : tensor<1024x!tile.ptr<f32>, #[[B1]]>
// CHECK: tile.reduce max {{.*}} : tensor<1024xf32, #[[B1]]> -> f32
// WARPS8: #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// WARPS8: tilegpu.num_warps = 8 : i32
tile.func @rank1(%p: !tile.ptr<f32>) {
  %neg_inf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %t = arith.constant dense<true> : tensor<1024xi1>
  %x = tile.load %addrs, %t, %neg_inf : tensor<1024x!tile.ptr<f32>>
  %m = tile.reduce max %x axis 0 : tensor<1024xf32> -> f32
  tile.store %p, %m : !tile.ptr<f32>
  tile.return
}

// -----

// The kernel's own tile.num_warps wins over the pass option.
// CHECK: #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: tile.func @two_warps
// CHECK-SAME: tilegpu.num_warps = 2 : i32
// WARPS8-LABEL: tile.func @two_warps
// WARPS8-SAME: tilegpu.num_warps = 2 : i32
tile.func @two_warps() attributes {tile.num_warps = 2 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32>
  tile.return
}

// -----

// Rank 2: lanes along the rows (the last dimension), warps one row each, so
// that a reduction along axis 1 stays within a warp. The reduction produces
// the slice of its source's layout, converted to the rank-1 layout; the
// expand_dims takes the slice of its result's layout.
// CHECK-DAG: #[[R1:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[R2:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S1:.*]] = #tilegpu.slice<{dim = 1, parent = #[[R2]]}>
// CHECK-LABEL: tile.func @rank2
// CHECK: %[[MAX:.*]] = tile.reduce max %{{.*}} axis 1 : tensor<4x256xf32, #[[R2]]> -> tensor<4xf32, #[[S1]]>
// CHECK-NEXT: %[[M1:.*]] = tilegpu.convert_layout %[[MAX]] : tensor<4xf32, #[[S1]]> -> tensor<4xf32, #[[R1]]>
// CHECK-NEXT: %[[BACK:.*]] = tilegpu.convert_layout %[[M1]] : tensor<4xf32, #[[R1]]> -> tensor<4xf32, #[[S1]]>
// CHECK-NEXT: tile.expand_dims %[[BACK]] axis 1 : tensor<4xf32, #[[S1]]> -> tensor<4x1xf32, #[[R2]]>
tile.func @rank2(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<4x256xf32>
  %m = tile.reduce max %t axis 1 : tensor<4x256xf32> -> tensor<4xf32>
  %e = tile.expand_dims %m axis 1 : tensor<4xf32> -> tensor<4x1xf32>
  %b = tile.broadcast %e : tensor<4x1xf32> -> tensor<4x256xf32>
  tile.return
}

// -----

// Loop-carried tiles get the layout too.
// CHECK-LABEL: tile.func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<128xf32, #{{.*}}>) : i32
// CHECK: scf.yield %{{.*}} : tensor<128xf32, #{{.*}}>
tile.func @loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32>) : i32 {
    %e = tile.exp %acc : tensor<128xf32>
    scf.yield %e : tensor<128xf32>
  }
  tile.return
}
