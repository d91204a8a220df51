// Layouts and layout conversions round-trip.
// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s > %t.1.mlir && tile-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: tile-opt --mlir-print-op-generic %s | tile-opt | FileCheck %s

// CHECK: #[[B:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[B1:.*]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[S:.*]] = #tilegpu.slice<{dim = 1, parent = #[[B]]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.slice<{dim = 1, parent = #b2}>

// CHECK-LABEL: tile.func @layouts
// CHECK-SAME: tilegpu.num_warps = 4 : i32
tile.func @layouts(%x: f32) attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK: tile.splat %{{.*}} : f32 -> tensor<8x64xf32, #[[B]]>
  %t = tile.splat %x : f32 -> tensor<8x64xf32, #b2>
  // CHECK: tile.reduce sum %{{.*}} axis 1 : tensor<8x64xf32, #[[B]]> -> tensor<8xf32, #[[S]]>
  %r = tile.reduce sum %t axis 1 : tensor<8x64xf32, #b2> -> tensor<8xf32, #s>
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<8xf32, #[[S]]> -> tensor<8xf32, #[[B1]]>
  %c = tilegpu.convert_layout %r : tensor<8xf32, #s> -> tensor<8xf32, #b1>
  tile.return
}
