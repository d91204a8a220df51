// RUN: tile-opt %s --split-input-file --tilegpu-split-dot | FileCheck %s

// A dot over K = 32 of halves becomes two, one per m16n8k16 step, each
// loading its slices of the two buffers just before it - past the copies
// started in between - and adding onto the previous one's result.
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sha = #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tile.func @split
// CHECK: tilegpu.async_copy
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NEXT: %[[A0:.*]] = tilegpu.local_load %[[SA:.*]] offsets [0, 0] : !tilegpu.memdesc<64x32xf16, #{{.*}}> -> tensor<64x16xf16, #{{.*}}>
// CHECK-NEXT: %[[B0:.*]] = tilegpu.local_load %[[SB:.*]] offsets [0, 0] : !tilegpu.memdesc<32x64xf16, #{{.*}}> -> tensor<16x64xf16, #{{.*}}>
// CHECK-NEXT: %[[D0:.*]] = tile.dot %[[A0]], %[[B0]], %[[C:.*]] : tensor<64x16xf16, #{{.*}}>, tensor<16x64xf16, #{{.*}}> -> tensor<64x64xf32, #{{.*}}>
// CHECK-NEXT: %[[A1:.*]] = tilegpu.local_load %[[SA]] offsets [0, 16]
// CHECK-NEXT: %[[B1:.*]] = tilegpu.local_load %[[SB]] offsets [16, 0]
// CHECK-NEXT: %[[D1:.*]] = tile.dot %[[A1]], %[[B1]], %[[D0]]
// CHECK: tile.store %{{.*}}, %[[D1]]
tile.func @split(%p: !tile.ptr<f16>, %out: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %sa = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sha>
  %sb = tilegpu.local_alloc : !tilegpu.memdesc<32x64xf16, #shb>
  %next = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sha>
  %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x32xf16, #sha> -> tensor<64x32xf16, #opa>
  %b = tilegpu.local_load %sb : !tilegpu.memdesc<32x64xf16, #shb> -> tensor<32x64xf16, #opb>
  %ptrs = tile.splat %p : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blk>
  tilegpu.async_copy %ptrs, %next : tensor<64x32x!tile.ptr<f16>, #blk>, !tilegpu.memdesc<64x32xf16, #sha>
  tilegpu.async_commit_group
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
  %o = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %o, %d : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// TF32: steps of 8 (m16n8k8), the precision kept on each dot.
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#sh = #tilegpu.shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
// CHECK-LABEL: tile.func @tf32
// CHECK: tilegpu.local_load %{{.*}} offsets [0, 0] {{.*}} -> tensor<64x8xf32
// CHECK: tile.dot {{.*}} input_precision = tf32
// CHECK: tilegpu.local_load %{{.*}} offsets [0, 8]
// CHECK: tilegpu.local_load %{{.*}} offsets [8, 0]
// CHECK: tile.dot {{.*}} input_precision = tf32
// CHECK-NOT: tile.dot
tile.func @tf32(%out: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %sa = tilegpu.local_alloc : !tilegpu.memdesc<64x16xf32, #sh>
  %sb = tilegpu.local_alloc : !tilegpu.memdesc<16x64xf32, #sh>
  %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x16xf32, #sh> -> tensor<64x16xf32, #opa>
  %b = tilegpu.local_load %sb : !tilegpu.memdesc<16x64xf32, #sh> -> tensor<16x64xf32, #opb>
  %d = tile.dot %a, %b, %c input_precision = tf32 : tensor<64x16xf32, #opa>, tensor<16x64xf32, #opb> -> tensor<64x64xf32, #mma>
  %o = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %o, %d : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// Left whole: a wait (and its barrier) between the loads and the dot; an
// operand with another use; a K of one step.
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#sh16 = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]}>
// CHECK-LABEL: tile.func @whole
// CHECK-NOT: offsets
// CHECK-COUNT-3: tile.dot %{{.*}} : tensor<64x32xf16
// CHECK: tile.dot %{{.*}} : tensor<64x16xf16
// CHECK-NOT: offsets
tile.func @whole(%out: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %sa = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  %sb = tilegpu.local_alloc : !tilegpu.memdesc<32x64xf16, #sh>
  %a = tilegpu.local_load %sa : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #opa>
  %b = tilegpu.local_load %sb : !tilegpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #opb>
  tilegpu.async_wait {pending = 0 : i32}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
  %a2 = tilegpu.local_load %sa : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #opa>
  %b2 = tilegpu.local_load %sb : !tilegpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #opb>
  %d2 = tile.dot %a2, %b2, %d : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
  %e1 = tile.dot %a2, %b2, %d2 : tensor<64x32xf16, #opa>, tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
  %sc = tilegpu.local_alloc : !tilegpu.memdesc<64x16xf16, #sh16>
  %sd = tilegpu.local_alloc : !tilegpu.memdesc<16x64xf16, #sh>
  %a3 = tilegpu.local_load %sc : !tilegpu.memdesc<64x16xf16, #sh16> -> tensor<64x16xf16, #opa>
  %b3 = tilegpu.local_load %sd : !tilegpu.memdesc<16x64xf16, #sh> -> tensor<16x64xf16, #opb>
  %e = tile.dot %a3, %b3, %e1 : tensor<64x16xf16, #opa>, tensor<16x64xf16, #opb> -> tensor<64x64xf32, #mma>
  %o = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %o, %e : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}
