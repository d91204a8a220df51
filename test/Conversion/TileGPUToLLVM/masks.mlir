// Arith operations on tiles of i1 (comparisons, and/or/xor of masks,
// select's condition, extensions) are converted element by element: NVPTX
// has no vectors of predicates, and packs and unpacks them in 16-bit
// integers otherwise. Operations on other tiles stay vector operations.
// RUN: tile-opt %s --convert-tilegpu-to-llvm | FileCheck %s

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: llvm.func @masks
// CHECK-NOT: llvm.{{(icmp|xor|and|or|select|zext)}} {{.*}}vector<4xi1>
// CHECK: llvm.add %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK-COUNT-4: llvm.icmp "slt" %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-4: llvm.xor %{{.*}}, %{{.*}} : i1
// CHECK-COUNT-4: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
// CHECK-COUNT-4: llvm.zext %{{.*}} : i1 to i32
// CHECK-NOT: llvm.{{(icmp|xor|and|or|select|zext)}} {{.*}}vector<4xi1>
// CHECK: llvm.return
tile.func @masks(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>, %n: i32) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.range 0, 128 : tensor<128xi32, #b>
  %r2 = arith.addi %r, %r : tensor<128xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<128xi32, #b>
  %lt = arith.cmpi slt, %r2, %ns : tensor<128xi32, #b>
  %t = arith.constant dense<true> : tensor<128xi1, #b>
  %ge = arith.xori %lt, %t : tensor<128xi1, #b>
  %one = arith.constant dense<1.0> : tensor<128xf32, #b>
  %zero = arith.constant dense<0.0> : tensor<128xf32, #b>
  %v = arith.select %ge, %one, %zero : tensor<128xi1, #b>, tensor<128xf32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #b>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #b>, tensor<128xi32, #b>
  tile.store %pp, %v : tensor<128x!tile.ptr<f32>, #b>
  %i = arith.extui %lt : tensor<128xi1, #b> to tensor<128xi32, #b>
  %qs = tile.splat %q : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>, #b>
  %qp = tile.addptr %qs, %r : tensor<128x!tile.ptr<i32>, #b>, tensor<128xi32, #b>
  tile.store %qp, %i : tensor<128x!tile.ptr<i32>, #b>
  tile.return
}
