// RUN: tile-opt %s --split-input-file --tilegpu-pipeline | FileCheck %s

// A K loop of three stages: two iterations copied before the loop, then in
// each iteration a wait (one group left in flight), the reads of this
// iteration's buffers, and the copies of the iteration two ahead into the
// buffer the previous one read, masked off past the end of the loop. The
// loop records that a stage is written again the iteration after the one
// that read it.
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-DAG: #[[COPYA:.*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SHA:.*]] = #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[SHB:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tile.func @stages
// CHECK: %[[A:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16, #[[SHA]]>
// CHECK: %[[B:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x32x64xf16, #[[SHB]]>
// CHECK: %[[OK0:.*]] = arith.cmpi slt, %{{.*}}, %[[N:.*]] : i32
// CHECK: %[[A0:.*]] = tilegpu.memdesc_index %[[A]][%{{.*}}]
// CHECK: %[[V0:.*]] = tile.splat %[[OK0]] : i1 -> tensor<64x32xi1, #[[COPYA]]>
// CHECK: %[[M0:.*]] = arith.andi %{{.*}}, %[[V0]] : tensor<64x32xi1, #[[COPYA]]>
// CHECK: tilegpu.async_copy %{{.*}}, %[[A0]] mask %[[M0]] : tensor<64x32x!tile.ptr<f16>, #[[COPYA]]>
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.memdesc_index %[[A]][%{{.*}}]
// CHECK: tilegpu.async_commit_group
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[READ:[^ ]*]] = %{{[^ ]*}}, %[[WRITE:[^ ]*]] = %{{[^ ]*}})
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
// CHECK-NEXT: %[[RA:.*]] = tilegpu.memdesc_index %[[A]][%[[READ]]]
// CHECK-NEXT: %[[XA:.*]] = tilegpu.local_load %[[RA]] : !tilegpu.memdesc<64x32xf16, #[[SHA]]> -> tensor<64x32xf16, #{{.*}}>
// CHECK-NEXT: %[[RB:.*]] = tilegpu.memdesc_index %[[B]][%[[READ]]]
// CHECK-NEXT: %[[XB:.*]] = tilegpu.local_load %[[RB]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK: arith.cmpi slt, %[[NEXT]], %[[N]] : i32
// CHECK: tilegpu.memdesc_index %[[A]][%[[WRITE]]]
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_commit_group
// CHECK-NOT: tile.load
// CHECK: tile.dot %[[XA]], %[[XB]]
// CHECK: scf.yield
// CHECK-NEXT: } {tilegpu.stage_distance = 1 : i32}
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
tile.func @stages(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %zero = arith.constant dense<0.0> : tensor<64x32xf16, #blk>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %off = arith.muli %k, %c1 : i32
    %pa = tile.addptr %a, %off : !tile.ptr<f16>, i32
    %ptrs_a = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blk>
    %kk = tile.splat %k : i32 -> tensor<64x32xi32, #blk>
    %nn = tile.splat %n : i32 -> tensor<64x32xi32, #blk>
    %ok = arith.cmpi slt, %kk, %nn : tensor<64x32xi32, #blk>
    %xa = tile.load %ptrs_a, %ok, %zero : tensor<64x32x!tile.ptr<f16>, #blk>
    %pb = tile.addptr %b, %off : !tile.ptr<f16>, i32
    %ptrs_b = tile.splat %pb : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blk>
    %xb = tile.load %ptrs_b : tensor<32x64x!tile.ptr<f16>, #blk>
    %da = tilegpu.convert_layout %xa : tensor<64x32xf16, #blk> -> tensor<64x32xf16, #opa>
    %db = tilegpu.convert_layout %xb : tensor<32x64xf16, #blk> -> tensor<32x64xf16, #opb>
    %next = tile.dot %da, %db, %acc : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %next : tensor<64x64xf32, #mma>
  } {tile.num_stages = 3 : i32}
  tile.return
}

// -----

// Without stages, each load is copied and waited for where it stands, a
// barrier before the copy (the buffer's last readers) and one after it.
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.func @in_place
// CHECK: %[[BUF:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<32x64xf16
// CHECK: scf.for
// CHECK: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: tilegpu.convert_layout %{{.*}} : tensor<32x64x!tile.ptr<f16>
// CHECK-NEXT: tilegpu.async_copy %{{.*}}, %[[BUF]]
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: %[[X:.*]] = tilegpu.local_load %[[BUF]]
// CHECK-NEXT: tile.dot %{{.*}}, %[[X]]
tile.func @in_place(%b: !tile.ptr<f16>, %h: f16, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %da = tile.splat %h : f16 -> tensor<64x32xf16, #opa>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %pb = tile.addptr %b, %k : !tile.ptr<f16>, i32
    %ptrs_b = tile.splat %pb : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blk>
    %xb = tile.load %ptrs_b : tensor<32x64x!tile.ptr<f16>, #blk>
    %db = tilegpu.convert_layout %xb : tensor<32x64xf16, #blk> -> tensor<32x64xf16, #opb>
    %next = tile.dot %da, %db, %acc : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %next : tensor<64x64xf32, #mma>
  }
  tile.return
}

// -----

// A load whose masked-off elements read as something other than 0 stays a
// load: cp.async can only fill with zeros.
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.func @other
// CHECK-NOT: tilegpu.async_copy
// CHECK: tile.load
// CHECK: tilegpu.convert_layout
tile.func @other(%b: !tile.ptr<f16>, %h: f16, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %ones = arith.constant dense<1.0> : tensor<32x64xf16, #blk>
  %ok = arith.constant dense<true> : tensor<32x64xi1, #blk>
  %da = tile.splat %h : f16 -> tensor<64x32xf16, #opa>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %pb = tile.addptr %b, %k : !tile.ptr<f16>, i32
    %ptrs_b = tile.splat %pb : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blk>
    %xb = tile.load %ptrs_b, %ok, %ones : tensor<32x64x!tile.ptr<f16>, #blk>
    %db = tilegpu.convert_layout %xb : tensor<32x64xf16, #blk> -> tensor<32x64xf16, #opb>
    %next = tile.dot %da, %db, %acc : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %next : tensor<64x64xf32, #mma>
  } {tile.num_stages = 3 : i32}
  tile.return
}

// -----

// The copy runs along the dimension whose addresses are contiguous (the
// axis analysis), not the order of the load's layout: a column-major A
// (contiguous along M) gets a copy and a buffer with order [0, 1].
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-DAG: #[[COPY:.*]] = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[SH:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-LABEL: tile.func @column_major
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16, #[[SH]]>
// CHECK: tilegpu.async_copy %{{.*}}, %{{.*}} : tensor<64x32x!tile.ptr<f16>, #[[COPY]]>
tile.func @column_major(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %h: f16, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %db = tile.splat %h : f16 -> tensor<32x64xf16, #opb>
  %rows = tile.range 0, 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blk}>>
  %cols = tile.range 0, 32 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blk}>>
  %r1 = tile.expand_dims %rows axis 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blk}>> -> tensor<64x1xi32, #blk>
  %c1r = tile.expand_dims %cols axis 0 : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blk}>> -> tensor<1x32xi32, #blk>
  %r = tile.broadcast %r1 : tensor<64x1xi32, #blk> -> tensor<64x32xi32, #blk>
  %c = tile.broadcast %c1r : tensor<1x32xi32, #blk> -> tensor<64x32xi32, #blk>
  %stride = arith.constant dense<64> : tensor<64x32xi32, #blk>
  %cs = arith.muli %c, %stride : tensor<64x32xi32, #blk>
  %off = arith.addi %r, %cs : tensor<64x32xi32, #blk>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %pa = tile.addptr %a, %k : !tile.ptr<f16>, i32
    %base = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blk>
    %ptrs = tile.addptr %base, %off : tensor<64x32x!tile.ptr<f16>, #blk>, tensor<64x32xi32, #blk>
    %xa = tile.load %ptrs : tensor<64x32x!tile.ptr<f16>, #blk>
    %da = tilegpu.convert_layout %xa : tensor<64x32xf16, #blk> -> tensor<64x32xf16, #opa>
    %next = tile.dot %da, %db, %acc : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %next : tensor<64x64xf32, #mma>
  } {tile.num_stages = 3 : i32}
  tile.return
}

// -----

// A tile smaller than the block (32 x 8 floats over 16 warps: at four
// per thread, 64 of the 512 threads would do) is not staged: threads would
// copy the same elements. It stays a load, converted in registers.
#blk = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [16, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [16, 1]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.func @small
// CHECK-NOT: tilegpu.async_copy
// CHECK: tile.load
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NOT: tilegpu.async_copy
tile.func @small(%b: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %x: f32, %n: i32) attributes {tilegpu.num_warps = 16 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<256x8xf32, #mma>
  %da = tile.splat %x : f32 -> tensor<256x32xf32, #opa>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<256x8xf32, #mma>) : i32 {
    %pb = tile.addptr %b, %k : !tile.ptr<f32>, i32
    %ptrs = tile.splat %pb : !tile.ptr<f32> -> tensor<32x8x!tile.ptr<f32>, #blk>
    %xb = tile.load %ptrs : tensor<32x8x!tile.ptr<f32>, #blk>
    %db = tilegpu.convert_layout %xb : tensor<32x8xf32, #blk> -> tensor<32x8xf32, #opb>
    %next = tile.dot %da, %db, %acc : tensor<256x32xf32, #opa>, tensor<32x8xf32, #opb> -> tensor<256x8xf32, #mma>
    scf.yield %next : tensor<256x8xf32, #mma>
  } {tile.num_stages = 3 : i32}
  tile.return
}
