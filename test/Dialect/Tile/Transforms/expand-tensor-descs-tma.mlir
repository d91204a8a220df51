// With tma=true (the tile-to-ptx pipeline's tma option on sm_90a), the
// descriptor loads a TMA copy serves stay: in a loop, only operands of a
// dot wgmma computes, 16-bit, rows of at least 32 bytes and a multiple of
// 8 rows. Every other one is expanded as without the option; a descriptor
// whose loads are all expanded is erased.
// RUN: tile-opt %s --tile-expand-tensor-descs=tma=true | FileCheck %s
// RUN: tile-opt %s --tile-expand-tensor-descs | FileCheck %s --check-prefix=ALL
// A kernel without tile.num_warps runs on the pass's num-warps: on 2, half a
// warpgroup, @kept's dot is not wgmma's, and its loads are expanded (a kernel
// that says 8 keeps its own).
// RUN: tile-opt %s --tile-expand-tensor-descs="tma=true num-warps=2" | FileCheck %s --check-prefix=WARPS2
// WARPS2-LABEL: tile.func @kept
// WARPS2-NOT: tile.desc_load
// WARPS2-LABEL: tile.func @expanded
// WARPS2-LABEL: tile.func @eight_warps
// WARPS2: tile.desc_load

// ALL-NOT: tile.desc_load
// ALL-NOT: tile.make_tensor_desc

// CHECK-LABEL: tile.func @kept
// CHECK: %[[DA:.*]] = tile.make_tensor_desc
// CHECK: %[[DB:.*]] = tile.make_tensor_desc
// CHECK: scf.for
// CHECK: %[[A:.*]] = tile.desc_load %[[DA]]
// CHECK: %[[B:.*]] = tile.desc_load %[[DB]]
// CHECK: tile.dot %[[A]], %[[B]]
tile.func @kept(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %m: i32, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %da = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %db = tile.make_tensor_desc %b, [%k, %n], [%n, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %i = %c0 to %k step %c64 iter_args(%c = %zero) -> (tensor<64x64xf32>) : i32 {
    %x = tile.desc_load %da[%c0, %i] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %y = tile.desc_load %db[%i, %c0] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %d = tile.dot %x, %y, %c : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.num_stages = 3 : i32}
  tile.return
}

// Expanded: a load outside a loop, a load used by more than a dot, f32
// elements, rows of 16 bytes (8 x f16), and 4 rows.
// CHECK-LABEL: tile.func @expanded
// CHECK-NOT: tile.desc_load
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.return
tile.func @expanded(%a: !tile.ptr<f16>, %f: !tile.ptr<f32>, %out: !tile.ptr<f32>, %m: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %da = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<16x16xf16>
  %df = tile.make_tensor_desc %f, [%m, %k], [%k, %c1] : !tile.ptr<f32> -> !tile.tensor_desc<16x16xf32>
  %dn = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<16x8xf16>
  %dr = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<4x16xf16>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %zero4 = arith.constant dense<0.0> : tensor<4x16xf32>
  %zero8 = arith.constant dense<0.0> : tensor<16x8xf32>
  %outside = tile.desc_load %da[%c0, %c0] : !tile.tensor_desc<16x16xf16> -> tensor<16x16xf16>
  %p = tile.splat %out : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  %acc = scf.for %i = %c0 to %k step %c16 iter_args(%c = %zero) -> (tensor<16x16xf32>) : i32 {
    %x = tile.desc_load %da[%c0, %i] : !tile.tensor_desc<16x16xf16> -> tensor<16x16xf16>
    %d = tile.dot %x, %outside, %c : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    %xf = tile.cast %x : tensor<16x16xf16> to tensor<16x16xf32>
    %d1 = arith.addf %d, %xf : tensor<16x16xf32>
    %y = tile.desc_load %df[%c0, %i] : !tile.tensor_desc<16x16xf32> -> tensor<16x16xf32>
    %d2 = tile.dot %y, %y, %d1 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
    %n = tile.desc_load %dn[%c0, %i] : !tile.tensor_desc<16x8xf16> -> tensor<16x8xf16>
    %r = tile.desc_load %dr[%c0, %i] : !tile.tensor_desc<4x16xf16> -> tensor<4x16xf16>
    %dn2 = tile.dot %r, %x, %zero4 : tensor<4x16xf16>, tensor<16x16xf16> -> tensor<4x16xf32>
    %dn3 = tile.dot %x, %n, %zero8 : tensor<16x16xf16>, tensor<16x8xf16> -> tensor<16x8xf32>
    %dd = tile.dot %x, %x, %d2 : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %dd : tensor<16x16xf32>
  }
  tile.store %p, %acc : tensor<16x16x!tile.ptr<f32>>
  tile.return
}

// Expanded too: operands of dots wgmma does not compute, which its staging
// could not take (tile-smith's seed 47 was a 1 x 16 product whose kept load
// tilegpu-pipeline then refused). A 32 x 64 product (wgmma takes 64 rows a
// warpgroup), a 64 x 64 one on 2 warps (half a warpgroup), and a K of 8
// (wgmma's is 16).
// CHECK-LABEL: tile.func @not_wgmma
// CHECK-NOT: tile.desc_load
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.return
tile.func @not_wgmma(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %m: i32, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %da = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<32x64xf16>
  %db = tile.make_tensor_desc %b, [%k, %n], [%n, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %acc = scf.for %i = %c0 to %k step %c64 iter_args(%c = %zero) -> (tensor<32x64xf32>) : i32 {
    %x = tile.desc_load %da[%c0, %i] : !tile.tensor_desc<32x64xf16> -> tensor<32x64xf16>
    %y = tile.desc_load %db[%i, %c0] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %d = tile.dot %x, %y, %c : tensor<32x64xf16>, tensor<64x64xf16> -> tensor<32x64xf32>
    scf.yield %d : tensor<32x64xf32>
  }
  tile.return
}

// CHECK-LABEL: tile.func @two_warps
// CHECK-NOT: tile.desc_load
// CHECK: tile.return
tile.func @two_warps(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %m: i32, %n: i32, %k: i32)
    attributes {tile.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %da = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %db = tile.make_tensor_desc %b, [%k, %n], [%n, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %i = %c0 to %k step %c64 iter_args(%c = %zero) -> (tensor<64x64xf32>) : i32 {
    %x = tile.desc_load %da[%c0, %i] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %y = tile.desc_load %db[%i, %c0] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %d = tile.dot %x, %y, %c : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}

// CHECK-LABEL: tile.func @k_of_8
// CHECK-NOT: tile.desc_load
// CHECK: tile.return
tile.func @k_of_8(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %db = tile.make_tensor_desc %b, [%k, %n], [%n, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<8x64xf16>
  %x = arith.constant dense<1.0> : tensor<64x8xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %i = %c0 to %k step %c8 iter_args(%c = %zero) -> (tensor<64x64xf32>) : i32 {
    %y = tile.desc_load %db[%i, %c0] : !tile.tensor_desc<8x64xf16> -> tensor<8x64xf16>
    %d = tile.dot %x, %y, %c : tensor<64x8xf16>, tensor<8x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}

// Two warpgroups (tile.num_warps = 8) over a 128 x 128 product: kept.
// CHECK-LABEL: tile.func @eight_warps
// CHECK: scf.for
// CHECK: tile.desc_load
// CHECK: tile.desc_load
// CHECK: tile.dot
tile.func @eight_warps(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %m: i32, %n: i32, %k: i32)
    attributes {tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %da = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<bf16> -> !tile.tensor_desc<128x64xbf16>
  %db = tile.make_tensor_desc %b, [%k, %n], [%n, %c1] : !tile.ptr<bf16> -> !tile.tensor_desc<64x128xbf16>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %i = %c0 to %k step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) : i32 {
    %x = tile.desc_load %da[%c0, %i] : !tile.tensor_desc<128x64xbf16> -> tensor<128x64xbf16>
    %y = tile.desc_load %db[%i, %c0] : !tile.tensor_desc<64x128xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %x, %y, %c : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  tile.return
}

// Expanded: a loop of one iteration, which canonicalization inlines (the
// load would then be outside any loop, where tilegpu-pipeline cannot stage
// it: tile-smith's seed 3158).
// CHECK-LABEL: tile.func @one_iteration
// CHECK-NOT: tile.desc_load
// CHECK: tile.return
tile.func @one_iteration(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %m: i32, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %da = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %db = tile.make_tensor_desc %b, [%k, %n], [%n, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %i = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (tensor<64x64xf32>) : i32 {
    %x = tile.desc_load %da[%c0, %i] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %y = tile.desc_load %db[%i, %c0] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %d = tile.dot %x, %y, %c : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}

// A tile two wgmma dots read (each converts it to its operand layout, which
// tilegpu-pipeline does not stage: tile-smith's seed 3613) is expanded; the
// A operands, one dot's each, stay.
// CHECK-LABEL: tile.func @two_dots
// CHECK: tile.desc_load
// CHECK: tile.desc_load
// CHECK-NOT: tile.desc_load
// CHECK: tile.load
// CHECK: tile.return
tile.func @two_dots(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %m: i32, %n: i32, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %da = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %db = tile.make_tensor_desc %b, [%k, %n], [%n, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc:2 = scf.for %i = %c0 to %k step %c64 iter_args(%c = %zero, %e = %zero) -> (tensor<64x64xf32>, tensor<64x64xf32>) : i32 {
    %x = tile.desc_load %da[%c0, %i] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %x2 = tile.desc_load %da[%c64, %i] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %y = tile.desc_load %db[%i, %c0] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %d = tile.dot %x, %y, %c : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %f = tile.dot %x2, %y, %e : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d, %f : tensor<64x64xf32>, tensor<64x64xf32>
  } {tile.num_stages = 3 : i32}
  tile.return
}
