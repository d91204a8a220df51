// RUN: tile-opt %s --split-input-file --tilegpu-prefetch | FileCheck %s

// A pipelined loop of two K steps, as tilegpu-pipeline and
// tilegpu-split-dot leave it: the wait moves from the top of the loop to
// just before the last step's dot, followed by the loads of the next
// iteration's first step (at the index the loop yields), which the loop
// carries; before the loop, a wait and the first iteration's first step
// (at the index the loop starts from).
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#sha = #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tile.func @rotate
// CHECK: %[[RA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16
// CHECK: %[[RB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x32x64xf16
// CHECK: tilegpu.async_commit_group
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
// CHECK-NEXT: %[[SA0:.*]] = tilegpu.memdesc_index %[[RA]][%[[START:.*]]]
// CHECK-NEXT: %[[A0I:.*]] = tilegpu.local_load %[[SA0]] offsets [0, 0]
// CHECK-NEXT: %[[SB0:.*]] = tilegpu.memdesc_index %[[RB]][%[[START]]]
// CHECK-NEXT: %[[B0I:.*]] = tilegpu.local_load %[[SB0]] offsets [0, 0]
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[READ:.*]] = %[[START]], %{{.*}} = %{{.*}}, %[[A0:.*]] = %[[A0I]], %[[B0:.*]] = %[[B0I]])
// CHECK-NOT: tilegpu.async_wait
// CHECK: %[[SA:.*]] = tilegpu.memdesc_index %[[RA]][%[[READ]]]
// CHECK: %[[SB:.*]] = tilegpu.memdesc_index %[[RB]][%[[READ]]]
// CHECK: tilegpu.async_commit_group
// CHECK: %[[NEXT:.*]] = arith.select
// CHECK-NOT: tilegpu.async_wait
// CHECK: %[[D0:.*]] = tile.dot %[[A0]], %[[B0]], %[[ACC]]
// CHECK-NEXT: %[[A1:.*]] = tilegpu.local_load %[[SA]] offsets [0, 16]
// CHECK-NEXT: %[[B1:.*]] = tilegpu.local_load %[[SB]] offsets [16, 0]
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
// CHECK-NEXT: %[[NA:.*]] = tilegpu.memdesc_index %[[RA]][%[[NEXT]]]
// CHECK-NEXT: %[[A0N:.*]] = tilegpu.local_load %[[NA]] offsets [0, 0]
// CHECK-NEXT: %[[NB:.*]] = tilegpu.memdesc_index %[[RB]][%[[NEXT]]]
// CHECK-NEXT: %[[B0N:.*]] = tilegpu.local_load %[[NB]] offsets [0, 0]
// CHECK-NEXT: %[[D1:.*]] = tile.dot %[[A1]], %[[B1]], %[[D0]]
// CHECK-NEXT: scf.yield %[[D1]], %[[NEXT]], %{{.*}}, %[[A0N]], %[[B0N]]
// CHECK: tilegpu.async_wait {pending = 0 : i32}
tile.func @rotate(%p: !tile.ptr<f16>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16, #sha>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<3x32x64xf16, #shb>
  tilegpu.async_commit_group
  %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %read = %c0, %write = %c2) -> (tensor<64x64xf32, #mma>, i32, i32) : i32 {
    tilegpu.async_wait {pending = 1 : i32}
    %sa = tilegpu.memdesc_index %ra[%read] : !tilegpu.memdesc<3x64x32xf16, #sha> -> !tilegpu.memdesc<64x32xf16, #sha>
    %sb = tilegpu.memdesc_index %rb[%read] : !tilegpu.memdesc<3x32x64xf16, #shb> -> !tilegpu.memdesc<32x64xf16, #shb>
    tilegpu.async_commit_group
    %wraps = arith.cmpi eq, %read, %c2 : i32
    %plus = arith.addi %read, %c1 : i32
    %next = arith.select %wraps, %c0, %plus : i32
    %a0 = tilegpu.local_load %sa offsets [0, 0] : !tilegpu.memdesc<64x32xf16, #sha> -> tensor<64x16xf16, #opa>
    %b0 = tilegpu.local_load %sb offsets [0, 0] : !tilegpu.memdesc<32x64xf16, #shb> -> tensor<16x64xf16, #opb>
    %d0 = tile.dot %a0, %b0, %acc : tensor<64x16xf16, #opa>, tensor<16x64xf16, #opb> -> tensor<64x64xf32, #mma>
    %a1 = tilegpu.local_load %sa offsets [0, 16] : !tilegpu.memdesc<64x32xf16, #sha> -> tensor<64x16xf16, #opa>
    %b1 = tilegpu.local_load %sb offsets [16, 0] : !tilegpu.memdesc<32x64xf16, #shb> -> tensor<16x64xf16, #opb>
    %d1 = tile.dot %a1, %b1, %d0 : tensor<64x16xf16, #opa>, tensor<16x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %d1, %next, %read : tensor<64x64xf32, #mma>, i32, i32
  }
  tilegpu.async_wait {pending = 0 : i32}
  tile.return
}

// -----

// One step of K (the dot was not split): its loads are the first step and
// the last reads at once; the dot multiplies the carried operands and the
// next ones load before it.
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}>
#shb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tile.func @one_step
// CHECK: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[READ:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}})
// CHECK-NEXT: %[[NEXT:.*]] = arith.xori %[[READ]]
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: tilegpu.memdesc_index %{{.*}}[%[[NEXT]]]
// CHECK-NEXT: %[[AN:.*]] = tilegpu.local_load
// CHECK-NEXT: tilegpu.memdesc_index %{{.*}}[%[[NEXT]]]
// CHECK-NEXT: %[[BN:.*]] = tilegpu.local_load
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: scf.yield %[[D]], %[[NEXT]], %[[AN]], %[[BN]]
tile.func @one_step(%n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = tilegpu.local_alloc : !tilegpu.memdesc<2x64x16xf16, #sh>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<2x16x64xf16, #shb>
  %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %read = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 0 : i32}
    %next = arith.xori %read, %c1 : i32
    %sa = tilegpu.memdesc_index %r[%read] : !tilegpu.memdesc<2x64x16xf16, #sh> -> !tilegpu.memdesc<64x16xf16, #sh>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x16xf16, #sh> -> tensor<64x16xf16, #opa>
    %sb = tilegpu.memdesc_index %rb[%read] : !tilegpu.memdesc<2x16x64xf16, #shb> -> !tilegpu.memdesc<16x64xf16, #shb>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<16x64xf16, #shb> -> tensor<16x64xf16, #opb>
    %d = tile.dot %a, %b, %acc : tensor<64x16xf16, #opa>, tensor<16x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
  }
  tilegpu.async_wait {pending = 0 : i32}
  tile.return
}

// -----

// Left as they are: a store after the last read (the barrier would move
// past it); no wait at the top; reads at two indices; the next index
// computed after the last read.
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}>
#shb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tile.func @left
// CHECK-COUNT-4: scf.for {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}) -> (tensor<64x64xf32, #{{.*}}>, i32)
// CHECK-NOT: scf.for
tile.func @left(%n: i32, %out: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = tilegpu.local_alloc : !tilegpu.memdesc<2x64x16xf16, #sh>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<2x16x64xf16, #shb>
  %o = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
  %s:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %read = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 0 : i32}
    %next = arith.xori %read, %c1 : i32
    %sa = tilegpu.memdesc_index %r[%read] : !tilegpu.memdesc<2x64x16xf16, #sh> -> !tilegpu.memdesc<64x16xf16, #sh>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x16xf16, #sh> -> tensor<64x16xf16, #opa>
    %sb = tilegpu.memdesc_index %rb[%read] : !tilegpu.memdesc<2x16x64xf16, #shb> -> !tilegpu.memdesc<16x64xf16, #shb>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<16x64xf16, #shb> -> tensor<16x64xf16, #opb>
    %d = tile.dot %a, %b, %acc : tensor<64x16xf16, #opa>, tensor<16x64xf16, #opb> -> tensor<64x64xf32, #mma>
    tile.store %o, %d : tensor<64x64x!tile.ptr<f32>, #mma>
    scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
  }
  %w:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %read = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    %next = arith.xori %read, %c1 : i32
    %sa = tilegpu.memdesc_index %r[%read] : !tilegpu.memdesc<2x64x16xf16, #sh> -> !tilegpu.memdesc<64x16xf16, #sh>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x16xf16, #sh> -> tensor<64x16xf16, #opa>
    %sb = tilegpu.memdesc_index %rb[%read] : !tilegpu.memdesc<2x16x64xf16, #shb> -> !tilegpu.memdesc<16x64xf16, #shb>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<16x64xf16, #shb> -> tensor<16x64xf16, #opb>
    %d = tile.dot %a, %b, %acc : tensor<64x16xf16, #opa>, tensor<16x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
  }
  %t:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %read = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 0 : i32}
    %next = arith.xori %read, %c1 : i32
    %sa = tilegpu.memdesc_index %r[%read] : !tilegpu.memdesc<2x64x16xf16, #sh> -> !tilegpu.memdesc<64x16xf16, #sh>
    %sb = tilegpu.memdesc_index %rb[%next] : !tilegpu.memdesc<2x16x64xf16, #shb> -> !tilegpu.memdesc<16x64xf16, #shb>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x16xf16, #sh> -> tensor<64x16xf16, #opa>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<16x64xf16, #shb> -> tensor<16x64xf16, #opb>
    %d = tile.dot %a, %b, %acc : tensor<64x16xf16, #opa>, tensor<16x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
  }
  %u:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %read = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 0 : i32}
    %sa = tilegpu.memdesc_index %r[%read] : !tilegpu.memdesc<2x64x16xf16, #sh> -> !tilegpu.memdesc<64x16xf16, #sh>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x16xf16, #sh> -> tensor<64x16xf16, #opa>
    %sb = tilegpu.memdesc_index %rb[%read] : !tilegpu.memdesc<2x16x64xf16, #shb> -> !tilegpu.memdesc<16x64xf16, #shb>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<16x64xf16, #shb> -> tensor<16x64xf16, #opb>
    %next = arith.xori %read, %c1 : i32
    %d = tile.dot %a, %b, %acc : tensor<64x16xf16, #opa>, tensor<16x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
  }
  tile.return
}
