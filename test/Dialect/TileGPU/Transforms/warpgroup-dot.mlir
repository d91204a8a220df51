// RUN: tile-opt %s --split-input-file --tilegpu-warpgroup-dot=chip=sm_90a | FileCheck %s
// RUN: tile-opt %s --split-input-file --tilegpu-warpgroup-dot=chip=sm_90 | FileCheck %s --check-prefix=SM90

// SM90-NOT: tilegpu.warpgroup_dot

// A ring of 3 stages, as tilegpu-pipeline makes it: the dot reads the
// buffers with wgmma; B's rows of 256 bytes are cut into blocks of 64
// columns (128 bytes), A's of 128 bytes stay; the copies and the stages
// follow; the accumulator is converted into version 3 and back (the
// layout-conversion removal carries it in version 3 through the loop);
// every wait fences the async proxy. The product is issued as soon as its
// stage is ready (before the next stage's copies) and waited for where the
// dot stood.

// CHECK-DAG: #[[WG:.*]] = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
// CHECK-DAG: #[[SA:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[SB:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 64}>
// CHECK-LABEL: tile.func @ring
// CHECK: %[[RA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x128x64xf16, #[[SA]]>
// CHECK: %[[RB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x128xf16, #[[SB]]>
// CHECK: scf.for
// CHECK: tilegpu.async_wait {fence_async_proxy, pending = 1 : i32}
// CHECK: %[[A:.*]] = tilegpu.memdesc_index %[[RA]]
// CHECK: %[[B:.*]] = tilegpu.memdesc_index %[[RB]]{{.*}} -> !tilegpu.memdesc<64x128xf16, #[[SB]]>
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %{{.*}} : tensor<128x128xf32, #{{.*}}> -> tensor<128x128xf32, #[[WG]]>
// CHECK-NEXT: %[[D:.*]] = tilegpu.warpgroup_dot %[[A]], %[[B]], %[[C]] : !tilegpu.memdesc<128x64xf16, #[[SA]]>, !tilegpu.memdesc<64x128xf16, #[[SB]]>, tensor<128x128xf32, #[[WG]]>
// CHECK: %[[WB:.*]] = tilegpu.memdesc_index %[[RB]]{{.*}} -> !tilegpu.memdesc<64x128xf16, #[[SB]]>
// CHECK: tilegpu.async_copy %{{.*}}, %[[WB]] : {{.*}}, !tilegpu.memdesc<64x128xf16, #[[SB]]>
// CHECK-NOT: tilegpu.local_load
// CHECK: %[[READY:.*]] = tilegpu.warpgroup_wait %[[D]] {pending = 0 : i32} : tensor<128x128xf32, #[[WG]]>
// CHECK: %[[BACK:.*]] = tilegpu.convert_layout %[[READY]]
// CHECK: scf.yield %[[BACK]]
// CHECK: tilegpu.async_wait {fence_async_proxy, pending = 0 : i32}
#ca = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cb = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @ring(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<3x128x64xf16, #s>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<3x64x128xf16, #s>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %w = %c1) -> (tensor<128x128xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 1 : i32}
    %sa = tilegpu.memdesc_index %ra[%i] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>
    %sb = tilegpu.memdesc_index %rb[%i] : !tilegpu.memdesc<3x64x128xf16, #s> -> !tilegpu.memdesc<64x128xf16, #s>
    %wa = tilegpu.memdesc_index %ra[%w] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>
    %wb = tilegpu.memdesc_index %rb[%w] : !tilegpu.memdesc<3x64x128xf16, #s> -> !tilegpu.memdesc<64x128xf16, #s>
    %ta = tile.splat %pa : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>, #ca>
    %tb = tile.splat %pb : !tile.ptr<f16> -> tensor<64x128x!tile.ptr<f16>, #cb>
    tilegpu.async_copy %ta, %wa : tensor<128x64x!tile.ptr<f16>, #ca>, !tilegpu.memdesc<128x64xf16, #s>
    tilegpu.async_copy %tb, %wb : tensor<64x128x!tile.ptr<f16>, #cb>, !tilegpu.memdesc<64x128xf16, #s>
    tilegpu.async_commit_group
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<128x64xf16, #s> -> tensor<128x64xf16, #opa>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x128xf16, #s> -> tensor<64x128xf16, #opb>
    %d = tile.dot %a, %b, %acc : tensor<128x64xf16, #opa>, tensor<64x128xf16, #opb> -> tensor<128x128xf32, #mma>
    scf.yield %d, %i : tensor<128x128xf32, #mma>, i32
  }
  tilegpu.async_wait {pending = 0 : i32}
  tile.return
}

// -----

// 8 warps on 128 x 256: two warpgroups along M, each m64n256. A is
// contiguous along M (transposed): its rows of 128 elements are cut too.

// CHECK-DAG: #[[WG8:.*]] = #tilegpu.mma<{warpsPerCTA = [8, 1], versionMajor = 3}>
// CHECK-DAG: #[[SAT:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], columnsPerBlock = 64}>
// CHECK-LABEL: tile.func @eight_warps
// CHECK: tilegpu.warpgroup_dot {{.*}} : !tilegpu.memdesc<128x64xbf16, #[[SAT]]>, !tilegpu.memdesc<64x256xbf16{{.*}}, tensor<128x256xf32, #[[WG8]]>
#ca = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 8], order = [0, 1]}>
#cb = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 4]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#sa = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#sb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @eight_warps(%pa: !tile.ptr<bf16>, %pb: !tile.ptr<bf16>, %f: f32) attributes {tilegpu.num_warps = 8 : i32} {
  %sa = tilegpu.local_alloc : !tilegpu.memdesc<128x64xbf16, #sa>
  %sb = tilegpu.local_alloc : !tilegpu.memdesc<64x256xbf16, #sb>
  %ta = tile.splat %pa : !tile.ptr<bf16> -> tensor<128x64x!tile.ptr<bf16>, #ca>
  %tb = tile.splat %pb : !tile.ptr<bf16> -> tensor<64x256x!tile.ptr<bf16>, #cb>
  tilegpu.async_copy %ta, %sa : tensor<128x64x!tile.ptr<bf16>, #ca>, !tilegpu.memdesc<128x64xbf16, #sa>
  tilegpu.async_copy %tb, %sb : tensor<64x256x!tile.ptr<bf16>, #cb>, !tilegpu.memdesc<64x256xbf16, #sb>
  tilegpu.async_commit_group
  tilegpu.async_wait {pending = 0 : i32}
  %a = tilegpu.local_load %sa : !tilegpu.memdesc<128x64xbf16, #sa> -> tensor<128x64xbf16, #opa>
  %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x256xbf16, #sb> -> tensor<64x256xbf16, #opb>
  %c = tile.splat %f : f32 -> tensor<128x256xf32, #mma>
  %d = tile.dot %a, %b, %c : tensor<128x64xbf16, #opa>, tensor<64x256xbf16, #opb> -> tensor<128x256xf32, #mma>
  tile.return
}

// -----

// What stays on mma.sync: 32 rows (less than a warpgroup's 64), and an
// operand not from shared memory.

// CHECK-LABEL: tile.func @stays
// CHECK-NOT: tilegpu.warpgroup_dot
// CHECK: tile.return
#c = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @stays(%p: !tile.ptr<f16>, %f: f32, %h: f16) attributes {tilegpu.num_warps = 4 : i32} {
  %s = tilegpu.local_alloc : !tilegpu.memdesc<32x64xf16, #s>
  %t = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #s>
  %a = tilegpu.local_load %s : !tilegpu.memdesc<32x64xf16, #s> -> tensor<32x64xf16, #opa>
  %b = tilegpu.local_load %t : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opb>
  %c = tile.splat %f : f32 -> tensor<32x64xf32, #mma>
  %d = tile.dot %a, %b, %c : tensor<32x64xf16, #opa>, tensor<64x64xf16, #opb> -> tensor<32x64xf32, #mma>
  %u = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #s>
  %a2 = tile.splat %h : f16 -> tensor<64x64xf16, #opa>
  %b2 = tilegpu.local_load %u : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opb>
  %c2 = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %d2 = tile.dot %a2, %b2, %c2 : tensor<64x64xf16, #opa>, tensor<64x64xf16, #opb> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

// A copy into the very buffer the product reads (not what tilegpu-pipeline
// makes, but valid IR) keeps the product after it.

// CHECK-LABEL: tile.func @after_copy
// CHECK: tilegpu.async_copy
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.async_commit_group
#c = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @after_copy(%p: !tile.ptr<f16>, %f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %sa = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #s>
  %sb = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #s>
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %t = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #c>
  tilegpu.async_copy %t, %sb : tensor<64x64x!tile.ptr<f16>, #c>, !tilegpu.memdesc<64x64xf16, #s>
  tilegpu.async_commit_group
  %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opa>
  %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opb>
  %d = tile.dot %a, %b, %c : tensor<64x64xf16, #opa>, tensor<64x64xf16, #opb> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

// A stage written two iterations after it is read (tilegpu.stage_distance
// = 2) lets the product run into the next iteration: the wait in the loop
// leaves one group in flight, and the loop's result is waited for after
// it, before anything reads it.

// CHECK-LABEL: tile.func @in_flight
// CHECK: %[[LOOP:.*]]:2 = scf.for
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot
// CHECK: %[[W:.*]] = tilegpu.warpgroup_wait %[[D]] {pending = 1 : i32}
// CHECK: } {tilegpu.stage_distance = 2 : i32}
// CHECK: %[[WIDE:.*]] = tilegpu.convert_layout %[[LOOP]]#0
// CHECK-NEXT: %[[DONE:.*]] = tilegpu.warpgroup_wait %[[WIDE]] {pending = 0 : i32}
// CHECK-NEXT: %[[NARROW:.*]] = tilegpu.convert_layout %[[DONE]]
// CHECK: tile.store %{{.*}}, %[[NARROW]]
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @in_flight(%p: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<4x64x64xf16, #s>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<4x64x64xf16, #s>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %j = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 1 : i32}
    %sa = tilegpu.memdesc_index %ra[%j] : !tilegpu.memdesc<4x64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>
    %sb = tilegpu.memdesc_index %rb[%j] : !tilegpu.memdesc<4x64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opa>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opb>
    %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #opa>, tensor<64x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %d, %i : tensor<64x64xf32, #mma>, i32
  } {tilegpu.stage_distance = 2 : i32}
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %r#0 : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// A stage written again the iteration after it is read (the ring
// tilegpu-pipeline makes, tilegpu.stage_distance = 1): the product still
// runs into the next iteration, but right after issuing it the warpgroup
// waits for the previous one and the block meets at a barrier, before the
// copies overwrite the stage that product read.

// CHECK-LABEL: tile.func @in_flight_next
// CHECK: %[[LOOP:.*]]:2 = scf.for
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[W:.*]] = tilegpu.warpgroup_wait %[[D]] {pending = 1 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_copy
// CHECK: %[[BACK:.*]] = tilegpu.convert_layout %[[W]]
// CHECK: scf.yield %[[BACK]]
// CHECK: } {tilegpu.stage_distance = 1 : i32}
// CHECK: %[[WIDE:.*]] = tilegpu.convert_layout %[[LOOP]]#0
// CHECK-NEXT: tilegpu.warpgroup_wait %[[WIDE]] {pending = 0 : i32}
#ca = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cb = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @in_flight_next(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %p: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<3x128x64xf16, #s>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<3x64x128xf16, #s>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %w = %c1) -> (tensor<128x128xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 1 : i32}
    %sa = tilegpu.memdesc_index %ra[%i] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>
    %sb = tilegpu.memdesc_index %rb[%i] : !tilegpu.memdesc<3x64x128xf16, #s> -> !tilegpu.memdesc<64x128xf16, #s>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<128x64xf16, #s> -> tensor<128x64xf16, #opa>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x128xf16, #s> -> tensor<64x128xf16, #opb>
    %wa = tilegpu.memdesc_index %ra[%w] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>
    %wb = tilegpu.memdesc_index %rb[%w] : !tilegpu.memdesc<3x64x128xf16, #s> -> !tilegpu.memdesc<64x128xf16, #s>
    %ta = tile.splat %pa : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>, #ca>
    %tb = tile.splat %pb : !tile.ptr<f16> -> tensor<64x128x!tile.ptr<f16>, #cb>
    tilegpu.async_copy %ta, %wa : tensor<128x64x!tile.ptr<f16>, #ca>, !tilegpu.memdesc<128x64xf16, #s>
    tilegpu.async_copy %tb, %wb : tensor<64x128x!tile.ptr<f16>, #cb>, !tilegpu.memdesc<64x128xf16, #s>
    tilegpu.async_commit_group
    %d = tile.dot %a, %b, %acc : tensor<128x64xf16, #opa>, tensor<64x128xf16, #opb> -> tensor<128x128xf32, #mma>
    scf.yield %d, %i : tensor<128x128xf32, #mma>, i32
  } {tilegpu.stage_distance = 1 : i32}
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %r#0 : tensor<128x128x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// The same ring, but a copy issued before the product (its stages picked
// after the copy): waiting for the previous product after issuing this one
// would come after that copy, so the product is waited for where the dot
// stood, with nothing left in flight.

// CHECK-LABEL: tile.func @copy_first
// CHECK: tilegpu.async_copy
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.warpgroup_wait %[[D]] {pending = 0 : i32}
// CHECK: } {tilegpu.stage_distance = 1 : i32}
#ca = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @copy_first(%pa: !tile.ptr<f16>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<3x128x64xf16, #s>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<3x64x128xf16, #s>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %w = %c1) -> (tensor<128x128xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 1 : i32}
    %wa = tilegpu.memdesc_index %ra[%w] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>
    %ta = tile.splat %pa : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>, #ca>
    tilegpu.async_copy %ta, %wa : tensor<128x64x!tile.ptr<f16>, #ca>, !tilegpu.memdesc<128x64xf16, #s>
    tilegpu.async_commit_group
    %sa = tilegpu.memdesc_index %ra[%i] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>
    %sb = tilegpu.memdesc_index %rb[%i] : !tilegpu.memdesc<3x64x128xf16, #s> -> !tilegpu.memdesc<64x128xf16, #s>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<128x64xf16, #s> -> tensor<128x64xf16, #opa>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x128xf16, #s> -> tensor<64x128xf16, #opb>
    %d = tile.dot %a, %b, %acc : tensor<128x64xf16, #opa>, tensor<64x128xf16, #opb> -> tensor<128x128xf32, #mma>
    scf.yield %d, %i : tensor<128x128xf32, #mma>, i32
  } {tilegpu.stage_distance = 1 : i32}
  tile.return
}

// -----

// A persistent loop over (tile, k-step): the accumulator restarts from
// zeros at a tile's first step (a select between zeros and the last
// product, on a condition computed after the copies) and the finished tile
// is stored in an scf.if. The select becomes the product's `accumulate`
// (scale-d), its condition computed early enough for the product to be
// issued before the copies; the product runs into the next iteration
// (pending 1), and the branch alone waits for all of it.

// CHECK-LABEL: tile.func @restart
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: %[[KB:.*]] = arith.remsi %[[I]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[KB]]
// CHECK: %[[KEEP:.*]] = arith.xori %[[FIRST]], %true
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} accumulate(%[[KEEP]])
// CHECK-NEXT: %[[W:.*]] = tilegpu.warpgroup_wait %[[D]] {pending = 1 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK: tilegpu.async_copy
// CHECK-NOT: arith.select
// CHECK: scf.if
// CHECK-NEXT: %[[FULL:.*]] = tilegpu.warpgroup_wait %[[W]] {pending = 0 : i32}
// CHECK-NEXT: %[[NARROW:.*]] = tilegpu.convert_layout %[[FULL]]
// CHECK: tile.store %{{.*}}, %[[NARROW]]
// CHECK: } {tilegpu.stage_distance = 1 : i32}
#ca = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @restart(%pa: !tile.ptr<f16>, %p: !tile.ptr<f32>, %n: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<3x128x64xf16, #s>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<3x64x128xf16, #s>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %w = %c1) -> (tensor<128x128xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 1 : i32}
    %sa = tilegpu.memdesc_index %ra[%i] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>
    %sb = tilegpu.memdesc_index %rb[%i] : !tilegpu.memdesc<3x64x128xf16, #s> -> !tilegpu.memdesc<64x128xf16, #s>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<128x64xf16, #s> -> tensor<128x64xf16, #opa>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x128xf16, #s> -> tensor<64x128xf16, #opb>
    %wa = tilegpu.memdesc_index %ra[%w] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>
    %ta = tile.splat %pa : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>, #ca>
    tilegpu.async_copy %ta, %wa : tensor<128x64x!tile.ptr<f16>, #ca>, !tilegpu.memdesc<128x64xf16, #s>
    tilegpu.async_commit_group
    %kb = arith.remsi %i, %k : i32
    %first = arith.cmpi eq, %kb, %c0 : i32
    %restart = tile.splat %first : i1 -> tensor<128x128xi1, #mma>
    %in = arith.select %restart, %acc0, %acc : tensor<128x128xi1, #mma>, tensor<128x128xf32, #mma>
    %d = tile.dot %a, %b, %in : tensor<128x64xf16, #opa>, tensor<64x128xf16, #opb> -> tensor<128x128xf32, #mma>
    %last = arith.cmpi eq, %kb, %k : i32
    scf.if %last {
      %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>, #mma>
      tile.store %ptrs, %d : tensor<128x128x!tile.ptr<f32>, #mma>
    }
    scf.yield %d, %i : tensor<128x128xf32, #mma>, i32
  } {tilegpu.stage_distance = 1 : i32}
  tile.return
}

// -----

// A select with anything but zeros stays a select, read before the
// product (which then cannot run into the next iteration); a product read
// in the iteration outside a branch is waited for in full where it stood.

// CHECK-LABEL: tile.func @no_restart
// CHECK: arith.select
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{[^ ]*}} :
// CHECK: tilegpu.warpgroup_wait %[[D]] {pending = 0 : i32}
// CHECK-LABEL: tile.func @read_in_iteration
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot %{{.*}} accumulate
// CHECK: tilegpu.warpgroup_wait %[[D]] {pending = 0 : i32}
// CHECK-NOT: tilegpu.warpgroup_wait
// CHECK: tile.store
// CHECK: } {tilegpu.stage_distance = 2 : i32}
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @no_restart(%n: i32, %first: i1) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<4x64x64xf16, #s>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<4x64x64xf16, #s>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %ones = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %j = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 1 : i32}
    %sa = tilegpu.memdesc_index %ra[%j] : !tilegpu.memdesc<4x64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>
    %sb = tilegpu.memdesc_index %rb[%j] : !tilegpu.memdesc<4x64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opa>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opb>
    %in = arith.select %first, %ones, %acc : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %in : tensor<64x64xf16, #opa>, tensor<64x64xf16, #opb> -> tensor<64x64xf32, #mma>
    scf.yield %d, %i : tensor<64x64xf32, #mma>, i32
  } {tilegpu.stage_distance = 2 : i32}
  tile.return
}
tile.func @read_in_iteration(%p: !tile.ptr<f32>, %n: i32, %first: i1) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<4x64x64xf16, #s>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<4x64x64xf16, #s>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %j = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    tilegpu.async_wait {pending = 1 : i32}
    %sa = tilegpu.memdesc_index %ra[%j] : !tilegpu.memdesc<4x64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>
    %sb = tilegpu.memdesc_index %rb[%j] : !tilegpu.memdesc<4x64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opa>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #opb>
    %in = arith.select %first, %acc, %acc0 : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %in : tensor<64x64xf16, #opa>, tensor<64x64xf16, #opb> -> tensor<64x64xf32, #mma>
    %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
    tile.store %ptrs, %d : tensor<64x64x!tile.ptr<f32>, #mma>
    scf.yield %d, %i : tensor<64x64xf32, #mma>, i32
  } {tilegpu.stage_distance = 2 : i32}
  tile.return
}
