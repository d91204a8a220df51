// The shared-memory type and operations print and parse back.
// RUN: tile-opt %s | tile-opt | FileCheck %s

#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#shared = #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>

// CHECK: #[[WG:.*]] = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
// CHECK: #[[SHARED:.*]] = #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK: #[[SB:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 64}>
// CHECK-LABEL: tile.func @stage
// CHECK: %[[RING:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16, #[[SHARED]]>
// CHECK: %[[ONE:.*]] = tilegpu.memdesc_index %[[RING]][%{{.*}}] : !tilegpu.memdesc<3x64x32xf16, #[[SHARED]]> -> !tilegpu.memdesc<64x32xf16, #[[SHARED]]>
// CHECK: tilegpu.async_copy %{{.*}}, %[[ONE]] mask %{{.*}} : tensor<64x32x!tile.ptr<f16>, #{{.*}}>, !tilegpu.memdesc<64x32xf16, #[[SHARED]]>, tensor<64x32xi1, #{{.*}}>
// CHECK: tilegpu.async_copy %{{.*}}, %[[ONE]] : tensor<64x32x!tile.ptr<f16>
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.async_wait {pending = 1 : i32}
// CHECK: tilegpu.local_load %[[ONE]] : !tilegpu.memdesc<64x32xf16, #[[SHARED]]> -> tensor<64x32xf16, #{{.*}}>
// CHECK: tilegpu.local_load %[[ONE]] offsets [0, 16] : !tilegpu.memdesc<64x32xf16, #[[SHARED]]> -> tensor<64x16xf16, #{{.*}}>
tile.func @stage(%p: !tile.ptr<f16>, %i: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %ring = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16, #shared>
  %one = tilegpu.memdesc_index %ring[%i] : !tilegpu.memdesc<3x64x32xf16, #shared> -> !tilegpu.memdesc<64x32xf16, #shared>
  %ptrs = tile.splat %p : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked>
  %ok = arith.constant dense<true> : tensor<64x32xi1, #blocked>
  tilegpu.async_copy %ptrs, %one mask %ok : tensor<64x32x!tile.ptr<f16>, #blocked>, !tilegpu.memdesc<64x32xf16, #shared>, tensor<64x32xi1, #blocked>
  tilegpu.async_copy %ptrs, %one : tensor<64x32x!tile.ptr<f16>, #blocked>, !tilegpu.memdesc<64x32xf16, #shared>
  tilegpu.async_commit_group
  tilegpu.async_wait {pending = 1 : i32}
  %a = tilegpu.local_load %one : !tilegpu.memdesc<64x32xf16, #shared> -> tensor<64x32xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>>
  %a1 = tilegpu.local_load %one offsets [0, 16] : !tilegpu.memdesc<64x32xf16, #shared> -> tensor<64x16xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>>
  tile.return
}

// wgmma's layouts and product.
#wg = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sa = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 64}>
// CHECK-LABEL: tile.func @warpgroup
// CHECK: tilegpu.async_wait {fence_async_proxy, pending = 0 : i32}
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} : !tilegpu.memdesc<64x64xf16, #{{.*}}>, !tilegpu.memdesc<64x128xf16, #[[SB]]>, tensor<64x128xf32, #[[WG]]>
// CHECK: tilegpu.warpgroup_wait %[[D]] {pending = 0 : i32} : tensor<64x128xf32, #[[WG]]>
// CHECK-NEXT: tilegpu.barrier
tile.func @warpgroup(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sa>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf16, #sb>
  %c = tile.splat %f : f32 -> tensor<64x128xf32, #wg>
  tilegpu.async_wait {fence_async_proxy, pending = 0 : i32}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #sa>, !tilegpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #wg>
  %e = tilegpu.warpgroup_wait %d {pending = 0 : i32} : tensor<64x128xf32, #wg>
  tilegpu.barrier
  tile.return
}
