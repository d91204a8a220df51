// convert-tilegpu-to-llvm on kernels with layouts: each tile becomes the
// vector of what one thread holds.
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm --split-input-file | FileCheck %s

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The kernel: an llvm.func in gpu.module @tile_kernels, at most 128 threads.
// Aligned unmasked accesses of 4 x f32 are vector loads and stores.
// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @tile_kernels
// CHECK: llvm.func @copy(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>}
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: llvm.return
tile.func @copy(%dst: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                %src: !tile.ptr<f32> {tile.divisibility = 16 : i64})
    attributes {tilegpu.num_warps = 4 : i32} {
  %pid = tile.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tile.range 0, 1024 : tensor<1024xi32, #b>
  %s = tile.splat %start : i32 -> tensor<1024xi32, #b>
  %offs = arith.addi %r, %s : tensor<1024xi32, #b>
  %sp = tile.splat %src : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b>
  %sa = tile.addptr %sp, %offs : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
  %x = tile.load %sa : tensor<1024x!tile.ptr<f32>, #b>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b>
  %da = tile.addptr %dp, %offs : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
  tile.store %da, %x : tensor<1024x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Masked accesses are predicated PTX: nothing is read or written where the
// mask is false, and the load fills in `other`.
// CHECK-LABEL: llvm.func @masked
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $6;\0A\09mov.b32 $1, $7;\0A\09mov.b32 $2, $8;\0A\09mov.b32 $3, $9;\0A\09@$4 ld.global.v4.b32 {$0, $1, $2, $3}, [ $5 + 0 ];", "=r,=r,=r,=r,b,l,r,r,r,r"
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.v4.b32 [ $1 + 0 ], {$2, $3, $4, $5};", "b,l,r,r,r,r"
tile.func @masked(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                  %n: i32 {tile.divisibility = 16 : i64})
    attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 512 : tensor<512xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<512xi32, #b>
  %mask = arith.cmpi slt, %r, %ns : tensor<512xi32, #b>
  %zero = arith.constant dense<0.0> : tensor<512xf32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b>
  %pa = tile.addptr %ps, %r : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
  %x = tile.load %pa, %mask, %zero : tensor<512x!tile.ptr<f32>, #b>
  tile.store %pa, %x, %mask : tensor<512x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Without proof of alignment: one element per access.
// CHECK-LABEL: llvm.func @unaligned
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NOT: vector<4xf32>
tile.func @unaligned(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %pa = tile.addptr %ps, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  %x = tile.load %pa : tensor<256x!tile.ptr<f32>, #b>
  %s = tile.reduce sum %x axis 0 : tensor<256xf32, #b> -> f32
  tile.store %p, %s : !tile.ptr<f32>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A reduction over all 1024 elements: 8 registers combined in the thread,
// then 5 butterfly shuffles across the warp, then the 4 warps' partials
// through shared memory after a barrier. max propagates NaN. exp is exp2
// of x * log2(e), one flush-to-zero ex2 per element (the intrinsic is
// scalar).
// CHECK-LABEL: gpu.module @tile_kernels
// CHECK: llvm.mlir.global internal @reduce_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<512 x i8>
// CHECK-LABEL: llvm.func @reduce
// CHECK-COUNT-7: llvm.intr.maximum
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-COUNT-4: nvvm.shfl.sync bfly
// CHECK: llvm.mlir.addressof @reduce_shared : !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// Lane bits 0 and 1 pick which of the 4 warps' partials to read; two
// butterflies over those lanes combine them.
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK-COUNT-2: nvvm.shfl.sync bfly
// The reduction runs once: nothing writes its scratch again, so no second
// barrier.
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[LOG2E:.*]] = llvm.mlir.constant(dense<1.44269502> : vector<8xf32>) : vector<8xf32>
// CHECK: %[[SCALED:.*]] = llvm.fmul %{{.*}}, %[[LOG2E]] {fastmathFlags = #llvm.fastmath<contract>} : vector<8xf32>
// CHECK: %[[S0:.*]] = llvm.extractelement %[[SCALED]]
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[S0]]) : (f32) -> f32
// CHECK-COUNT-7: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT: llvm.call_intrinsic "llvm.nvvm.ex2
// CHECK: llvm.insertelement
tile.func @reduce(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b>
  %pa = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
  %x = tile.load %pa : tensor<1024x!tile.ptr<f32>, #b>
  %m = tile.reduce max %x axis 0 : tensor<1024xf32, #b> -> f32
  %e = tile.exp %x : tensor<1024xf32, #b>
  tile.store %pa, %e : tensor<1024x!tile.ptr<f32>, #b>
  tile.store %p, %m : !tile.ptr<f32>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 1, parent = #b}>

// One row per warp: a reduction along the rows needs no shared memory.
// The row results are broadcast back with a shuffle of registers.
// CHECK-LABEL: llvm.func @rows
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.shufflevector
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tile.func @rows(%x: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %t = tile.splat %x : f32 -> tensor<4x256xf32, #b>
  %s = tile.reduce sum %t axis 1 : tensor<4x256xf32, #b> -> tensor<4xf32, #s>
  %e = tile.expand_dims %s axis 1 : tensor<4xf32, #s> -> tensor<4x1xf32, #b>
  %bc = tile.broadcast %e : tensor<4x1xf32, #b> -> tensor<4x256xf32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4x256x!tile.ptr<f32>, #b>
  tile.store %ps, %bc : tensor<4x256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A conversion that moves elements between threads goes through shared
// memory; one that keeps lanes and warps is a register shuffle.
// CHECK-LABEL: llvm.func @convert
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tile.func @convert(%p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 512 : tensor<512xi32, #b1>
  %c = tilegpu.convert_layout %r : tensor<512xi32, #b1> -> tensor<512xi32, #b4>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<512x!tile.ptr<i32>, #b4>
  tile.store %ps, %c : tensor<512x!tile.ptr<i32>, #b4>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A tile smaller than the block is held by several threads; only one of
// them stores each element.
// CHECK-LABEL: llvm.func @replicated
// CHECK: %[[LANE:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: llvm.icmp "eq"
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.b32 [ $1 + 0 ], $2;", "b,l,r"
tile.func @replicated(%p: !tile.ptr<f32>, %x: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 16 : tensor<16xi32, #b>
  %v = tile.splat %x : f32 -> tensor<16xf32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>, #b>
  %pa = tile.addptr %ps, %r : tensor<16x!tile.ptr<f32>, #b>, tensor<16xi32, #b>
  tile.store %pa, %v : tensor<16x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// f16 moves 8 elements per 128-bit access; exp and sums work in f32.
// CHECK-LABEL: llvm.func @half
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.fpext %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK: llvm.fptrunc %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: llvm.fpext %{{.*}} : f16 to f32
tile.func @half(%p: !tile.ptr<f16> {tile.divisibility = 16 : i64}) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32, #b>
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #b>
  %pa = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f16>, #b>, tensor<1024xi32, #b>
  %x = tile.load %pa : tensor<1024x!tile.ptr<f16>, #b>
  %e = tile.exp %x : tensor<1024xf16, #b>
  %s = tile.reduce sum %e axis 0 : tensor<1024xf16, #b> -> f16
  tile.store %p, %s : !tile.ptr<f16>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// In a loop, a reduction alone needs a second barrier before its next
// iteration overwrites the scratch; two reductions in the same loop body
// guard each other's scratch with their first barriers.
// CHECK-LABEL: llvm.func @loop_one
// CHECK-COUNT-2: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK-LABEL: llvm.func @loop_two
// CHECK-COUNT-2: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tile.func @loop_one(%p: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tile.load %p : !tile.ptr<f32>
    %t = tile.splat %x : f32 -> tensor<256xf32, #b>
    %s = tile.reduce sum %t axis 0 : tensor<256xf32, #b> -> f32
    tile.store %p, %s : !tile.ptr<f32>
  }
  tile.return
}
tile.func @loop_two(%p: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tile.load %p : !tile.ptr<f32>
    %t = tile.splat %x : f32 -> tensor<256xf32, #b>
    %m = tile.reduce max %t axis 0 : tensor<256xf32, #b> -> f32
    %s = tile.reduce sum %t axis 0 : tensor<256xf32, #b> -> f32
    %a = arith.addf %m, %s : f32
    tile.store %p, %a : !tile.ptr<f32>
  }
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#s = #tilegpu.slice<{dim = 1, parent = #b}>

// Warps along the axis but no lanes: every thread reads all 4 partials.
// CHECK-LABEL: llvm.func @warps_only
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
tile.func @warps_only(%x: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %t = tile.splat %x : f32 -> tensor<32x4xf32, #b>
  %s = tile.reduce sum %t axis 1 : tensor<32x4xf32, #b> -> tensor<32xf32, #s>
  %e = tile.expand_dims %s axis 1 : tensor<32xf32, #s> -> tensor<32x1xf32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x1x!tile.ptr<f32>, #b>
  tile.store %ps, %e : tensor<32x1x!tile.ptr<f32>, #b>
  tile.return
}
