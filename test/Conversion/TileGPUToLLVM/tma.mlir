// TMA copies in NVVM. The descriptor becomes a hidden parameter after the
// kernel's own (byval, 64-byte aligned, grid_constant), and the module says
// how the runtime makes its tensor map (@K_tensor_maps, KernelABI.h): magic
// 0x544d4101 = 1414349057, one map, base argument 1, bf16 (2), rank 2, sizes
// [k (argument 3: -4), m (argument 2: -3)] innermost first, row stride 64 (a
// constant), the box [64, 128] innermost first and a 128-byte swizzle.
// Thread 0 first prefetches the map (prefetch.param.tensormap), so that its
// fetch overlaps the kernel's start rather than the first copy. The
// buffer is 1024-byte aligned (after the mbarriers' 16 bytes); the block
// meets, thread 0 initializes the two mbarriers for one arrival each, fences,
// and the block meets again; the copy is thread 0's arrive.expect_tx of the
// box's 16384 bytes and one cp.async.bulk.tensor at (k, m), innermost first;
// the wait spins on try_wait.parity.
// RUN: tile-opt %s --split-input-file --convert-tilegpu-to-llvm=chip=sm_90a --verify-diagnostics | FileCheck %s

// CHECK: llvm.mlir.global external constant @tma_tensor_maps(dense<[1414349057, 1, 1, 2, 2, -4, -3, 64, 64, 128, 128]> : tensor<11xi32>) {addr_space = 1 : i32, alignment = 4 : i64} : !llvm.array<11 x i32>
// CHECK: llvm.mlir.global internal @tma_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<33792 x i8>
// CHECK-LABEL: llvm.func @tma(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %[[ZERO]]
// CHECK-NEXT: llvm.cond_br %[[FIRST]], ^bb1, ^bb2
// CHECK-NEXT: ^bb1:
// CHECK-NEXT: nvvm.prefetch tensormap in_param_space, %[[MAP]] : !llvm.ptr
// CHECK-NEXT: llvm.br ^bb2
// CHECK-NOT: nvvm.prefetch
// CHECK: nvvm.barrier0
// CHECK-NEXT: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.cond_br
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// CHECK: ^bb5:
// CHECK-NEXT: %[[BYTES:.*]] = llvm.mlir.constant(16384 : i32) : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK: %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[MAP]], %{{.*}}, box[%arg3, %arg2] : !llvm.ptr<7>, !llvm.ptr
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.func @tma(%out: !tile.ptr<bf16>, %x: !tile.ptr<bf16> {tile.divisibility = 16 : i64}, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c64 = arith.constant 64 : i32
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%c64, %c1] : !tile.ptr<bf16> -> !tile.tensor_desc<128x64xbf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<2>
  %ring = tilegpu.local_alloc : !tilegpu.memdesc<2x128x64xbf16, #sh>
  %stage = tilegpu.memdesc_index %ring[%c1] : !tilegpu.memdesc<2x128x64xbf16, #sh> -> !tilegpu.memdesc<128x64xbf16, #sh>
  tilegpu.tma_load %desc[%m, %k], %stage, %bars[%c1] : !tile.tensor_desc<128x64xbf16>, !tilegpu.memdesc<128x64xbf16, #sh>, !tilegpu.mbarriers<2>
  tilegpu.mbarrier_wait %bars[%c1], %c0 : !tilegpu.mbarriers<2>
  %v = tilegpu.local_load %stage : !tilegpu.memdesc<128x64xbf16, #sh> -> tensor<128x64xbf16, #blk>
  %p = tile.splat %out : !tile.ptr<bf16> -> tensor<128x64x!tile.ptr<bf16>, #blk>
  tile.store %p, %v : tensor<128x64x!tile.ptr<bf16>, #blk>
  tile.return
}

// -----

// A 64 x 128 box in blocks of 64 columns: two copies of 64 x 64, the
// second at column k + 64 and byte 8192 of the buffer; 16384 bytes
// expected in all. With `if`, thread 0 issues only where the predicate
// holds.
// CHECK-LABEL: llvm.func @blocks(
// CHECK: llvm.and %{{.*}}, %arg4 : i1
// CHECK: ^bb5:
// CHECK-NEXT: %[[BYTES:.*]] = llvm.mlir.constant(16384 : i32) : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%arg3, %arg2] : !llvm.ptr<7>, !llvm.ptr
// CHECK: llvm.getelementptr %{{.*}}[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK: %[[K64:.*]] = llvm.add %arg3, %[[C64]] : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%[[K64]], %arg2] : !llvm.ptr<7>, !llvm.ptr
#sb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 64}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.func @blocks(%out: !tile.ptr<f16>, %x: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %m: i32, %k: i32, %ok: i1) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x128xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<1>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf16, #sb>
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c0] if %ok : !tile.tensor_desc<64x128xf16>, !tilegpu.memdesc<64x128xf16, #sb>, !tilegpu.mbarriers<1>
  tilegpu.mbarrier_wait %bars[%c0], %c0 : !tilegpu.mbarriers<1>
  %v = tilegpu.local_load %buf : !tilegpu.memdesc<64x128xf16, #sb> -> tensor<64x128xf16, #blk>
  %p = tile.splat %out : !tile.ptr<f16> -> tensor<64x128x!tile.ptr<f16>, #blk>
  tile.store %p, %v : tensor<64x128x!tile.ptr<f16>, #blk>
  tile.return
}

// -----

// One tensor map serves one box and swizzle.
#s128 = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#none = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @two_layouts(%x: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 2 : i32} : !tilegpu.mbarriers<1>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #s128>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #none>
  // expected-error @below {{'tilegpu.tma_load' op copies the descriptor into a buffer laid out unlike its other copies': one tensor map serves one box and swizzle}}
  tilegpu.tma_load %desc[%m, %k], %a, %bars[%c0] : !tile.tensor_desc<64x64xf16>, !tilegpu.memdesc<64x64xf16, #s128>, !tilegpu.mbarriers<1>
  tilegpu.tma_load %desc[%m, %k], %b, %bars[%c0] : !tile.tensor_desc<64x64xf16>, !tilegpu.memdesc<64x64xf16, #none>, !tilegpu.mbarriers<1>
  tile.return
}

// -----

// A descriptor load left unexpanded.
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.func @desc_load(%x: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  // expected-error @below {{a tensor descriptor reaches the GPU lowering only through TMA copies (tilegpu.tma_load); tile-expand-tensor-descs expands the others}}
  %v = tile.desc_load %desc[%m, %k] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16, #blk>
  tile.return
}

// -----

// A descriptor of i64 elements: TMA has the type, a tensor map recipe does
// not.
#sh = #tilegpu.shared<{vec = 2, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @i64(%x: !tile.ptr<i64> {tile.divisibility = 16 : i64}, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  // expected-error @below {{'tile.make_tensor_desc' op cannot be made into a tensor map: its base must be a kernel argument and its elements f16, bf16, f32, i32, f8E4M3FN or f8E5M2}}
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<i64> -> !tile.tensor_desc<8x16xi64>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<1>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<8x16xi64, #sh>
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c0] : !tile.tensor_desc<8x16xi64>, !tilegpu.memdesc<8x16xi64, #sh>, !tilegpu.mbarriers<1>
  tile.return
}
