// Round trip of every op of the tile dialect: the printed form matches, and
// printing, parsing and printing again gives the same text, in the custom and
// the generic form.
// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s > %t.1.mlir && tile-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: tile-opt --mlir-print-op-generic %s > %t.g1.mlir && tile-opt --mlir-print-op-generic %t.g1.mlir > %t.g2.mlir && diff %t.g1.mlir %t.g2.mlir
// RUN: tile-opt --mlir-print-op-generic %s | tile-opt | FileCheck %s
// RUN: tile-opt --verify-roundtrip %s > /dev/null

// CHECK-LABEL: tile.func @types
// CHECK-SAME: %{{.*}}: !tile.ptr<f32>, %{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<bf16>, %{{.*}}: !tile.ptr<i32>, %{{.*}}: !tile.ptr<i64>
// CHECK-SAME: %{{.*}}: i1, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: f16, %{{.*}}: bf16, %{{.*}}: f32
tile.func @types(%a: !tile.ptr<f32>, %b: !tile.ptr<f16>, %c: !tile.ptr<bf16>,
                 %d: !tile.ptr<i32>, %e: !tile.ptr<i64>, %f: i1, %g: i32,
                 %h: i64, %i: f16, %j: bf16, %k: f32) {
  // CHECK-NEXT: tile.return
  tile.return
}

// CHECK-LABEL: tile.func @hints
// CHECK-SAME: (%{{.*}}: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %{{.*}}: i32 {tile.divisibility = 8 : i64})
tile.func @hints(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                 %n: i32 {tile.divisibility = 8 : i64}) {
  tile.return
}

// CHECK-LABEL: tile.func @program_ids
tile.func @program_ids() {
  // CHECK: tile.program_id x : i32
  // CHECK: tile.program_id y : i32
  // CHECK: tile.program_id z : i32
  // CHECK: tile.num_programs x : i32
  // CHECK: tile.num_programs y : i32
  // CHECK: tile.num_programs z : i32
  %0 = tile.program_id x : i32
  %1 = tile.program_id y : i32
  %2 = tile.program_id z : i32
  %3 = tile.num_programs x : i32
  %4 = tile.num_programs y : i32
  %5 = tile.num_programs z : i32
  tile.return
}

// CHECK-LABEL: tile.func @make_tiles
tile.func @make_tiles(%p: !tile.ptr<f32>, %x: f32, %n: i64) {
  // CHECK: tile.range 0, 1024 : tensor<1024xi32>
  %r = tile.range 0, 1024 : tensor<1024xi32>
  // CHECK: tile.range 16, 32 : tensor<16xi32>
  %r2 = tile.range 16, 32 : tensor<16xi32>
  // CHECK: tile.splat %{{.*}} : f32 -> tensor<4x8xf32>
  %s = tile.splat %x : f32 -> tensor<4x8xf32>
  // CHECK: tile.splat %{{.*}} : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %sp = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  // CHECK: tile.splat %{{.*}} : i64 -> tensor<2xi64>
  %si = tile.splat %n : i64 -> tensor<2xi64>
  // CHECK: tile.expand_dims %{{.*}} axis 0 : tensor<16xi32> -> tensor<1x16xi32>
  %row = tile.expand_dims %r2 axis 0 : tensor<16xi32> -> tensor<1x16xi32>
  // CHECK: tile.expand_dims %{{.*}} axis 1 : tensor<16xi32> -> tensor<16x1xi32>
  %col = tile.expand_dims %r2 axis 1 : tensor<16xi32> -> tensor<16x1xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<1x16xi32> -> tensor<4x16xi32>
  %b = tile.broadcast %row : tensor<1x16xi32> -> tensor<4x16xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<16x1xi32> -> tensor<16x16xi32>
  %b2 = tile.broadcast %col : tensor<16x1xi32> -> tensor<16x16xi32>
  tile.return
}

// CHECK-LABEL: tile.func @pointers
tile.func @pointers(%p: !tile.ptr<f16>, %off: i32, %off64: i64) {
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f16>, i32
  %q = tile.addptr %p, %off : !tile.ptr<f16>, i32
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f16>, i64
  %q64 = tile.addptr %q, %off64 : !tile.ptr<f16>, i64
  %ptrs = tile.splat %q64 : !tile.ptr<f16> -> tensor<2x8x!tile.ptr<f16>>
  %offs = tile.splat %off : i32 -> tensor<2x8xi32>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<2x8x!tile.ptr<f16>>, tensor<2x8xi32>
  %addrs = tile.addptr %ptrs, %offs : tensor<2x8x!tile.ptr<f16>>, tensor<2x8xi32>
  tile.return
}

// CHECK-LABEL: tile.func @memory
tile.func @memory(%p: !tile.ptr<f32>, %q: !tile.ptr<bf16>, %c: i1) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %mask = arith.constant dense<true> : tensor<128xi1>
  %other = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: %[[A:.*]] = tile.load %{{.*}} : tensor<128x!tile.ptr<f32>>
  %a = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
  // CHECK: %[[B:.*]] = tile.load %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>
  %b = tile.load %ptrs, %mask : tensor<128x!tile.ptr<f32>>
  // CHECK: %[[C:.*]] = tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>
  %c2 = tile.load %ptrs, %mask, %other : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %[[A]] : tensor<128x!tile.ptr<f32>>
  tile.store %ptrs, %a : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %[[B]], %{{.*}} : tensor<128x!tile.ptr<f32>>
  tile.store %ptrs, %b, %mask : tensor<128x!tile.ptr<f32>>
  // Scalar pointers load and store scalars.
  // CHECK: %[[S:.*]] = tile.load %{{.*}}, %{{.*}} : !tile.ptr<bf16>
  %s = tile.load %q, %c : !tile.ptr<bf16>
  // CHECK: tile.store %{{.*}}, %[[S]] : !tile.ptr<bf16>
  tile.store %q, %s : !tile.ptr<bf16>
  // CHECK: tile.atomic_add %{{.*}}, %[[A]] : tensor<128x!tile.ptr<f32>>
  tile.atomic_add %ptrs, %a : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.atomic_add %{{.*}}, %[[B]], %{{.*}} : tensor<128x!tile.ptr<f32>>
  tile.atomic_add %ptrs, %b, %mask : tensor<128x!tile.ptr<f32>>
  // Attributes other than the operands' are kept.
  // CHECK: tile.load %{{.*}} {note = "kept"} : tensor<128x!tile.ptr<f32>>
  %d = tile.load %ptrs {note = "kept"} : tensor<128x!tile.ptr<f32>>
  tile.return
}

// CHECK-LABEL: tile.func @tensor_descs
// CHECK-SAME: (%[[A:.*]]: !tile.ptr<bf16>, %[[M:.*]]: i32, %[[K:.*]]: i32, %[[S:.*]]: i32, %[[V:.*]]: !tile.ptr<i64>)
tile.func @tensor_descs(%a: !tile.ptr<bf16>, %m: i32, %k: i32, %s: i32,
                        %v: !tile.ptr<i64>) {
  // CHECK: %[[ONE:.*]] = arith.constant 1 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: %[[D:.*]] = tile.make_tensor_desc %[[A]], [%[[M]], %[[K]]], [%[[S]], %[[ONE]]] : !tile.ptr<bf16> -> !tile.tensor_desc<128x64xbf16>
  %d = tile.make_tensor_desc %a, [%m, %k], [%s, %c1]
      : !tile.ptr<bf16> -> !tile.tensor_desc<128x64xbf16>
  // CHECK: tile.desc_load %[[D]][%[[M]], %[[K]]] : !tile.tensor_desc<128x64xbf16> -> tensor<128x64xbf16>
  %t = tile.desc_load %d[%m, %k] : !tile.tensor_desc<128x64xbf16> -> tensor<128x64xbf16>
  // CHECK: %[[E:.*]] = tile.make_tensor_desc %[[V]], [%[[K]]], [%[[ONE]]] : !tile.ptr<i64> -> !tile.tensor_desc<2xi64>
  %e = tile.make_tensor_desc %v, [%k], [%c1] : !tile.ptr<i64> -> !tile.tensor_desc<2xi64>
  // CHECK: tile.desc_load %[[E]][%[[M]]] : !tile.tensor_desc<2xi64> -> tensor<2xi64>
  %u = tile.desc_load %e[%m] : !tile.tensor_desc<2xi64> -> tensor<2xi64>
  tile.return
}

// CHECK-LABEL: tile.func @compute
tile.func @compute(%f: f32, %h: f16) {
  %x = tile.splat %f : f32 -> tensor<4x256xf32>
  // CHECK: tile.reduce max %{{.*}} axis 1 : tensor<4x256xf32> -> tensor<4xf32>
  %m = tile.reduce max %x axis 1 : tensor<4x256xf32> -> tensor<4xf32>
  // CHECK: tile.reduce sum %{{.*}} axis 0 : tensor<4x256xf32> -> tensor<256xf32>
  %s = tile.reduce sum %x axis 0 : tensor<4x256xf32> -> tensor<256xf32>
  // CHECK: tile.reduce sum %{{.*}} axis 0 : tensor<4xf32> -> f32
  %t = tile.reduce sum %m axis 0 : tensor<4xf32> -> f32
  %i = tile.range 0, 8 : tensor<8xi32>
  // CHECK: tile.reduce max %{{.*}} axis 0 : tensor<8xi32> -> i32
  %im = tile.reduce max %i axis 0 : tensor<8xi32> -> i32
  // CHECK: tile.exp %{{.*}} : tensor<4x256xf32>
  %e = tile.exp %x : tensor<4x256xf32>
  // CHECK: tile.exp %{{.*}} : f16
  %eh = tile.exp %h : f16
  tile.return
}

// A kernel that runs in clusters, and the cluster operations.
// CHECK-LABEL: tile.func @clustered
// CHECK-SAME: attributes {tile.cluster_size = 4 : i32}
// CHECK: tile.cluster_rank : i32
// CHECK: tile.cluster_id : i32
// CHECK: tile.num_clusters : i32
// CHECK: tile.cluster_reduce max %{{.*}} : f32
// CHECK: tile.cluster_reduce sum %{{.*}} : i32
// CHECK: %{{.*}}:3 = tile.cluster_reduce sum %{{.*}}, %{{.*}}, %{{.*}} : f32, i32, i64
tile.func @clustered(%x: f32, %n: i32, %l: i64) attributes {tile.cluster_size = 4 : i32} {
  %rank = tile.cluster_rank : i32
  %id = tile.cluster_id : i32
  %count = tile.num_clusters : i32
  %m = tile.cluster_reduce max %x : f32
  %s = tile.cluster_reduce sum %n : i32
  %a, %b, %c = tile.cluster_reduce sum %x, %n, %l : f32, i32, i64
  tile.return
}

// CHECK-LABEL: tile.func @grid
// CHECK: tile.grid_reduce max %{{.*}} : f32
// CHECK: %{{.*}}:3 = tile.grid_reduce sum %{{.*}}, %{{.*}}, %{{.*}} : bf16, i32, i64
// CHECK: %{{.*}}:4 = tile.grid_reduce logsumexp %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, bf16, bf16
tile.func @grid(%x: f32, %h: bf16, %n: i32, %l: i64) attributes {tile.persistent} {
  %m = tile.grid_reduce max %x : f32
  %a, %b, %c = tile.grid_reduce sum %h, %n, %l : bf16, i32, i64
  %lm, %ls, %hm, %hs = tile.grid_reduce logsumexp %x, %x, %h, %h : f32, f32, bf16, bf16
  tile.return
}

// Matrix products: f16 and bf16 inputs, f32 inputs in both precisions.
// CHECK-LABEL: tile.func @dots
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} input_precision = ieee : tensor<16x8xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} input_precision = tf32 : tensor<16x8xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
tile.func @dots(%h: f16, %x: bf16, %f: f32) {
  %a = tile.splat %h : f16 -> tensor<32x16xf16>
  %b = tile.splat %h : f16 -> tensor<16x64xf16>
  %c = tile.splat %f : f32 -> tensor<32x64xf32>
  %y = tile.splat %x : bf16 -> tensor<16x16xbf16>
  %e = tile.splat %f : f32 -> tensor<16x16xf32>
  %p = tile.splat %f : f32 -> tensor<16x8xf32>
  %q = tile.splat %f : f32 -> tensor<8x16xf32>
  %0 = tile.dot %a, %b, %c : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
  %1 = tile.dot %y, %y, %e : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  %2 = tile.dot %p, %q, %e : tensor<16x8xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
  %3 = tile.dot %p, %q, %e input_precision = ieee : tensor<16x8xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
  %4 = tile.dot %p, %q, %e input_precision = tf32 : tensor<16x8xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
  tile.return
}

// 8-bit floats: pointers to them, loads, stores, casts both ways (and
// between the two formats), dots.
// CHECK-LABEL: tile.func @float8
// CHECK: tile.load %{{.*}} : tensor<16x!tile.ptr<f8E4M3FN>>
// CHECK: tile.cast %{{.*}} : tensor<16xf8E4M3FN> to tensor<16xf32>
// CHECK: tile.cast %{{.*}} : tensor<16xf32> to tensor<16xf8E5M2>
// CHECK: tile.cast %{{.*}} : tensor<16xf8E4M3FN> to tensor<16xf8E5M2>
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f8E5M2>>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
tile.func @float8(%x: !tile.ptr<f8E4M3FN>, %y: !tile.ptr<f8E5M2>, %f: f32) {
  %xp = tile.splat %x : !tile.ptr<f8E4M3FN> -> tensor<16x!tile.ptr<f8E4M3FN>>
  %r = tile.range 0, 16 : tensor<16xi32>
  %xs = tile.addptr %xp, %r : tensor<16x!tile.ptr<f8E4M3FN>>, tensor<16xi32>
  %v = tile.load %xs : tensor<16x!tile.ptr<f8E4M3FN>>
  %w = tile.cast %v : tensor<16xf8E4M3FN> to tensor<16xf32>
  %n = tile.cast %w : tensor<16xf32> to tensor<16xf8E5M2>
  %m = tile.cast %v : tensor<16xf8E4M3FN> to tensor<16xf8E5M2>
  %yp = tile.splat %y : !tile.ptr<f8E5M2> -> tensor<16x!tile.ptr<f8E5M2>>
  %ys = tile.addptr %yp, %r : tensor<16x!tile.ptr<f8E5M2>>, tensor<16xi32>
  tile.store %ys, %m : tensor<16x!tile.ptr<f8E5M2>>
  %s = tile.splat %f : f32 -> tensor<16x32xf32>
  %a = tile.cast %s : tensor<16x32xf32> to tensor<16x32xf8E4M3FN>
  %t = tile.splat %f : f32 -> tensor<32x16xf32>
  %b = tile.cast %t : tensor<32x16xf32> to tensor<32x16xf8E4M3FN>
  %c = tile.splat %f : f32 -> tensor<16x16xf32>
  %d = tile.dot %a, %b, %c : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
  tile.return
}
