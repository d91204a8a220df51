// tilegpu.warpgroup_dot in NVVM: a wgmma.fence, one wgmma.mma_async per
// 16 of K (m64n128k16 for a 64 x 128 accumulator on one warpgroup), then
// the commit; tilegpu.warpgroup_wait is wgmma.wait_group as inline PTX
// whose operands and results are the accumulator's 64 registers, tied.
// The descriptors' fixed fields (LBO, SBO, swizzle) are constants:
//   A, K-major, 128-byte swizzle: LBO 16 bytes (1, unused), SBO 1024 (64),
//     swizzle 1: 1 << 16 | 64 << 32 | 1 << 62 = 4611686293305360384;
//   B, N-major, blocks of 64 columns by 64 rows (8192 bytes): LBO 8192
//     (512), SBO 1024: 512 << 16 | 64 << 32 | 1 << 62 = 4611686293338849280.
// Both buffers 1024-byte aligned, in a global aligned to 1024; the wait
// fences the async proxy before its barrier.
// RUN: tile-opt %s --split-input-file --convert-tilegpu-to-llvm=chip=sm_90a --verify-diagnostics | FileCheck %s

// CHECK: llvm.mlir.global internal @wgmma_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<25600 x i8>
// CHECK-LABEL: llvm.func @wgmma
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// The warpgroup's warp id, read from lane 0 so that ptxas keeps the
// descriptors on the uniform datapath:
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-DAG: llvm.mlir.constant(4611686293305360384 : i64)
// CHECK-DAG: llvm.mlir.constant(4611686293338849280 : i64)
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=f,=f,{{.*}},=f,0,1,2,{{.*}},62,63" {{.*}} -> !llvm.struct<(f32, f32
#wg = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sa = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 64}>
#blk = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @wgmma(%p: !tile.ptr<f32>, %f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %x = tile.splat %f : f32 -> tensor<128xf32, #blk>
  %s = tile.reduce sum %x axis 0 : tensor<128xf32, #blk> -> f32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sa>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf16, #sb>
  %c = tile.splat %s : f32 -> tensor<64x128xf32, #wg>
  tilegpu.async_wait {fence_async_proxy, pending = 0 : i32}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #sa>, !tilegpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #wg>
  %e = tilegpu.warpgroup_wait %d {pending = 0 : i32} : tensor<64x128xf32, #wg>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>, #wg>
  tile.store %ptrs, %e : tensor<64x128x!tile.ptr<f32>, #wg>
  tile.return
}

// -----

// CHECK-LABEL: llvm.func @transposed_a
// A contiguous along M (one block of 64 rows): wgmma's A is col
// (transposed), LBO 4096 bytes (256), SBO 1024, swizzle 128 bytes; B
// contiguous along K in rows of 32 elements (64 bytes): col, K-major, LBO
// unused, SBO 512 (32), swizzle 64 bytes (2 << 62, negative as an i64).
// CHECK-DAG: llvm.mlir.constant(4611686293322072064 : i64)
// CHECK-DAG: llvm.mlir.constant(-9223371899415756800 : i64)
// CHECK: nvvm.wgmma.mma_async {{.*}}, A[<bf16>, <one>, <col>], B[<bf16>, <one>, <col>]
#wg = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sa = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#sb = #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
tile.func @transposed_a(%p: !tile.ptr<f32>, %f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x32xbf16, #sa>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<32x64xbf16, #sb>
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #wg>
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x32xbf16, #sa>, !tilegpu.memdesc<32x64xbf16, #sb>, tensor<64x64xf32, #wg>
  %e = tilegpu.warpgroup_wait %d {pending = 0 : i32} : tensor<64x64xf32, #wg>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #wg>
  tile.store %ptrs, %e : tensor<64x64x!tile.ptr<f32>, #wg>
  tile.return
}

// -----

// 8-bit floats: 32 of K per instruction (two for K = 64), both operands
// contiguous along K (A row, B col), rows of 64 bytes: LBO unused, SBO 512
// (32), swizzle 64 bytes; element offsets are byte offsets (no shift).
// CHECK-LABEL: llvm.func @float8
// CHECK: llvm.mlir.constant(-9223371899415756800 : i64)
// CHECK-NOT: llvm.shl
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
#wg = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sa = #tilegpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#sb = #tilegpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [0, 1]}>
tile.func @float8(%p: !tile.ptr<f32>, %f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf8E4M3FN, #sa>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf8E4M3FN, #sb>
  %c = tile.splat %f : f32 -> tensor<64x128xf32, #wg>
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf8E4M3FN, #sa>, !tilegpu.memdesc<64x128xf8E4M3FN, #sb>, tensor<64x128xf32, #wg>
  %e = tilegpu.warpgroup_wait %d {pending = 0 : i32} : tensor<64x128xf32, #wg>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>, #wg>
  tile.store %ptrs, %e : tensor<64x128x!tile.ptr<f32>, #wg>
  tile.return
}

// -----

// With `accumulate`, the first K step's instructions (one per 16 of K: the
// first of four here) take it as wgmma's scale-d predicate, in inline PTX
// (the NVVM op has scale-d only as an attribute): the 64 registers tied,
// the descriptors as $128 and $129, the i1 widened to $130. The later
// steps accumulate onto the first's result through the NVVM op.
// CHECK-LABEL: llvm.func @accumulate
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[KEEP:.*]] = llvm.zext %{{.*}} : i1 to i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $130, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, $1, {{.*}}, $63}, $128, $129, p, 1, 1, 0, 1;\0A}", "=f,{{.*}},=f,0,1,{{.*}},63,l,l,r" {{.*}}, %[[KEEP]] :
// CHECK-NOT: setp.ne.b32
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
#wg = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sa = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 64}>
tile.func @accumulate(%p: !tile.ptr<f32>, %f: f32, %keep: i1) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sa>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf16, #sb>
  %c = tile.splat %f : f32 -> tensor<64x128xf32, #wg>
  %d = tilegpu.warpgroup_dot %a, %b, %c accumulate(%keep) : !tilegpu.memdesc<64x64xf16, #sa>, !tilegpu.memdesc<64x128xf16, #sb>, tensor<64x128xf32, #wg>
  %e = tilegpu.warpgroup_wait %d {pending = 0 : i32} : tensor<64x128xf32, #wg>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>, #wg>
  tile.store %ptrs, %e : tensor<64x128x!tile.ptr<f32>, #wg>
  tile.return
}

// -----

// 8-bit floats take no imm-trans-a or imm-trans-b.
// CHECK-LABEL: llvm.func @accumulate_float8
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {$0, {{.*}}}, $128, $129, p, 1, 1;\0A}"
// CHECK-COUNT-1: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 32>
#wg = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sa = #tilegpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#sb = #tilegpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [0, 1]}>
tile.func @accumulate_float8(%p: !tile.ptr<f32>, %f: f32, %keep: i1) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf8E4M3FN, #sa>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf8E4M3FN, #sb>
  %c = tile.splat %f : f32 -> tensor<64x128xf32, #wg>
  %d = tilegpu.warpgroup_dot %a, %b, %c accumulate(%keep) : !tilegpu.memdesc<64x64xf8E4M3FN, #sa>, !tilegpu.memdesc<64x128xf8E4M3FN, #sb>, tensor<64x128xf32, #wg>
  %e = tilegpu.warpgroup_wait %d {pending = 0 : i32} : tensor<64x128xf32, #wg>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>, #wg>
  tile.store %ptrs, %e : tensor<64x128x!tile.ptr<f32>, #wg>
  tile.return
}
