// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=chip=sm_90a | FileCheck %s
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=chip=sm_90 | FileCheck %s --check-prefix=SM90

// On sm_90a, a ring of 4 stages feeding a dot wgmma will multiply (f16, a
// 64-row warpgroup) copies 2 iterations ahead, not 3: the first write
// index is 2, the wait leaves 1 group in flight, and the loop says that a
// stage is written 2 iterations after it is read. For sm_90, the usual
// ring: 3 ahead, 2 groups in flight.
// CHECK-LABEL: tile.func @four_stages
// CHECK-COUNT-2: tilegpu.async_commit_group
// CHECK-NOT: tilegpu.async_commit_group
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %c0_i32{{.*}}, %{{.*}} = %c2_i32{{.*}})
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
// CHECK: } {tilegpu.stage_distance = 2 : i32}
// SM90-LABEL: tile.func @four_stages
// SM90: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %c0_i32{{.*}}, %{{.*}} = %c3_i32{{.*}})
// SM90-NEXT: tilegpu.async_wait {pending = 2 : i32}
// SM90-NOT: stage_distance
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
tile.func @four_stages(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %pa = tile.addptr %a, %k : !tile.ptr<f16>, i32
    %ptrs_a = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blk>
    %xa = tile.load %ptrs_a : tensor<64x32x!tile.ptr<f16>, #blk>
    %pb = tile.addptr %b, %k : !tile.ptr<f16>, i32
    %ptrs_b = tile.splat %pb : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blk>
    %xb = tile.load %ptrs_b : tensor<32x64x!tile.ptr<f16>, #blk>
    %da = tilegpu.convert_layout %xa : tensor<64x32xf16, #blk> -> tensor<64x32xf16, #opa>
    %db = tilegpu.convert_layout %xb : tensor<32x64xf16, #blk> -> tensor<32x64xf16, #opb>
    %next = tile.dot %da, %db, %acc : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %next : tensor<64x64xf32, #mma>
  } {tile.num_stages = 4 : i32}
  tile.return
}

// -----

// 32 rows, less than a warpgroup's 64: mma.sync, the usual ring.
// CHECK-LABEL: tile.func @small
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %c0_i32{{.*}}, %{{.*}} = %c3_i32{{.*}})
// CHECK-NEXT: tilegpu.async_wait {pending = 2 : i32}
// CHECK-NOT: stage_distance
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
tile.func @small(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<32x64xf32, #mma>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<32x64xf32, #mma>) : i32 {
    %pa = tile.addptr %a, %k : !tile.ptr<f16>, i32
    %ptrs_a = tile.splat %pa : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blk>
    %xa = tile.load %ptrs_a : tensor<32x64x!tile.ptr<f16>, #blk>
    %pb = tile.addptr %b, %k : !tile.ptr<f16>, i32
    %ptrs_b = tile.splat %pb : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blk>
    %xb = tile.load %ptrs_b : tensor<64x64x!tile.ptr<f16>, #blk>
    %da = tilegpu.convert_layout %xa : tensor<32x64xf16, #blk> -> tensor<32x64xf16, #opa>
    %db = tilegpu.convert_layout %xb : tensor<64x64xf16, #blk> -> tensor<64x64xf16, #opb>
    %next = tile.dot %da, %db, %acc : tensor<32x64xf16, #opa>, tensor<64x64xf16, #opb> -> tensor<32x64xf32, #mma>
    scf.yield %next : tensor<32x64xf32, #mma>
  } {tile.num_stages = 4 : i32}
  tile.return
}
