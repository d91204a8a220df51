// tilegpu-pipeline on descriptor loads that tile-expand-tensor-descs kept
// for TMA (the input: a matmul at the tile level after
// --tile-expand-tensor-descs=tma=true --convert-tile-to-tilegpu
// --tilegpu-remove-layout-conversions).
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline | FileCheck %s

// Three stages: a ring of three buffers per operand in the layouts TMA
// writes (B's rows of 256 bytes cut into blocks of 64 columns), three
// mbarriers each expecting both copies of a stage, the first two stages'
// copies before the loop (each only if its iteration exists); in the loop,
// the wait for the stage read with the carried parity, the block's barrier,
// the stage's tiles, and the copies two iterations ahead into the stage
// the previous iteration read, signalling its mbarrier; the parity flips
// when the read index wraps. No cp.async wait after the loop.
// CHECK: #[[SA:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK: #[[SB:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 64}>
// CHECK-LABEL: tile.func @stages
// CHECK: %[[RA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16, #[[SA]]>
// CHECK: %[[RB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x128xf16, #[[SB]]>
// CHECK: %[[BARS:.*]] = tilegpu.mbarrier_alloc {arrivals = 2 : i32} : !tilegpu.mbarriers<3>
// CHECK: tilegpu.tma_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %[[BARS]][%[[S0:.*]]] if %[[OK0:.*]] : !tile.tensor_desc<64x64xf16>
// CHECK: tilegpu.tma_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %[[BARS]][%[[S0]]] if %[[OK0]] : !tile.tensor_desc<64x128xf16>
// CHECK: tilegpu.tma_load %{{.*}}, %[[BARS]][%[[S1:.*]]] if %[[OK1:.*]] : !tile.tensor_desc<64x64xf16>
// CHECK: tilegpu.tma_load %{{.*}}, %[[BARS]][%[[S1]]] if %[[OK1]] : !tile.tensor_desc<64x128xf16>
// CHECK: scf.for %[[IV:.*]] = %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[READ:[^ ]*]] = %{{[^ ]*}}, %[[WRITE:[^ ]*]] = %{{[^ ]*}}, %[[PHASE:[^ ]*]] = %{{[^ ]*}})
// CHECK-NEXT: %[[XA:.*]] = tilegpu.memdesc_index %[[RA]][%[[READ]]]
// CHECK-NEXT: %[[XB:.*]] = tilegpu.memdesc_index %[[RB]][%[[READ]]]
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BARS]][%[[READ]]], %[[PHASE]] : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: %[[A:.*]] = tilegpu.local_load %[[XA]]
// CHECK-NEXT: %[[B:.*]] = tilegpu.local_load %[[XB]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK: %[[OK:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}} : i32
// CHECK: %[[WA:.*]] = tilegpu.memdesc_index %[[RA]][%[[WRITE]]]
// CHECK: tilegpu.tma_load %{{.*}}, %[[WA]], %[[BARS]][%[[WRITE]]] if %[[OK]]
// CHECK: %[[WB:.*]] = tilegpu.memdesc_index %[[RB]][%[[WRITE]]]
// CHECK: tilegpu.tma_load %{{.*}}, %[[WB]], %[[BARS]][%[[WRITE]]] if %[[OK]]
// CHECK-NOT: tilegpu.async
// CHECK: arith.cmpi eq, %[[READ]], %{{.*}} : i32
// CHECK: %[[FLIP:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: %[[NPHASE:.*]] = arith.xori %[[PHASE]], %[[FLIP]] : i32
// CHECK: tile.dot %[[A]], %[[B]]
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %[[NPHASE]]
// CHECK-NEXT: } {tilegpu.stage_distance = 1 : i32}
// CHECK-NOT: tilegpu.async_wait
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#dot_op = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#dot_op1 = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
  tile.func @stages(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {tile.num_warps = 4 : i32, tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tile.make_tensor_desc %arg0, [%arg2, %arg4], [%arg4, %c1_i32] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
    %1 = tile.make_tensor_desc %arg1, [%arg4, %arg3], [%arg3, %c1_i32] : !tile.ptr<f16> -> !tile.tensor_desc<64x128xf16>
    %2 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %cst) -> (tensor<64x128xf32, #mma>)  : i32 {
      %5 = tile.desc_load %0[%c0_i32, %arg5] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16, #blocked>
      %6 = tile.desc_load %1[%arg5, %c0_i32] : !tile.tensor_desc<64x128xf16> -> tensor<64x128xf16, #blocked>
      %7 = tilegpu.convert_layout %5 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #dot_op>
      %8 = tilegpu.convert_layout %6 : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #dot_op1>
      %9 = tile.dot %7, %8, %arg6 : tensor<64x64xf16, #dot_op>, tensor<64x128xf16, #dot_op1> -> tensor<64x128xf32, #mma>
      scf.yield %9 : tensor<64x128xf32, #mma>
    } {tile.num_stages = 3 : i32}
    %3 = arith.truncf %2 : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
    %4 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x128x!tile.ptr<f16>, #mma>
    tile.store %4, %3 : tensor<64x128x!tile.ptr<f16>, #mma>
    tile.return
  }


// -----

// No stages: each descriptor load copied where it stands, into a buffer of
// its own signalling an mbarrier of its own; the iteration starts with the
// block's barrier, each tile is waited for where it is read, and the
// parity flips every iteration.
// CHECK-LABEL: tile.func @in_place
// CHECK: %[[A:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16
// CHECK: %[[B:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf16
// CHECK: %[[BARS:.*]] = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<2>
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[PHASE:[^ ]*]] = %{{[^ ]*}})
// CHECK-NEXT: tilegpu.barrier
// CHECK: tilegpu.tma_load %{{.*}}, %[[A]], %[[BARS]][%[[I0:.*]]] :
// CHECK: tilegpu.tma_load %{{.*}}, %[[B]], %[[BARS]][%[[I1:.*]]] :
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BARS]][%[[I0]]], %[[PHASE]]
// CHECK-NEXT: tilegpu.local_load %[[A]]
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BARS]][%[[I1]]], %[[PHASE]]
// CHECK-NEXT: tilegpu.local_load %[[B]]
// CHECK: %[[NPHASE:.*]] = arith.xori %[[PHASE]], %{{.*}} : i32
// CHECK: scf.yield %{{.*}}, %[[NPHASE]]
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#dot_op = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#dot_op1 = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
  tile.func @in_place(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {tile.num_warps = 4 : i32, tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tile.make_tensor_desc %arg0, [%arg2, %arg4], [%arg4, %c1_i32] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
    %1 = tile.make_tensor_desc %arg1, [%arg4, %arg3], [%arg3, %c1_i32] : !tile.ptr<f16> -> !tile.tensor_desc<64x128xf16>
    %2 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %cst) -> (tensor<64x128xf32, #mma>)  : i32 {
      %5 = tile.desc_load %0[%c0_i32, %arg5] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16, #blocked>
      %6 = tile.desc_load %1[%arg5, %c0_i32] : !tile.tensor_desc<64x128xf16> -> tensor<64x128xf16, #blocked>
      %7 = tilegpu.convert_layout %5 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #dot_op>
      %8 = tilegpu.convert_layout %6 : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #dot_op1>
      %9 = tile.dot %7, %8, %arg6 : tensor<64x64xf16, #dot_op>, tensor<64x128xf16, #dot_op1> -> tensor<64x128xf32, #mma>
      scf.yield %9 : tensor<64x128xf32, #mma>
    }
    %3 = arith.truncf %2 : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
    %4 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x128x!tile.ptr<f16>, #mma>
    tile.store %4, %3 : tensor<64x128x!tile.ptr<f16>, #mma>
    tile.return
  }

