// tilegpu-warpgroup-dot where TMA copies the stages (tilegpu-pipeline's
// output for a 64 x 64 by 64 x 128 product over three stages, from
// pipeline-tma.mlir): the product is issued right after the stage's
// mbarrier wait, the previous one waited for after it (pending 1), then
// one block barrier (tilegpu-pipeline's own, now redundant, is gone) before
// the next stage's copies; no cp.async fence.
// RUN: tile-opt %s --tilegpu-warpgroup-dot=chip=sm_90a | FileCheck %s

// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: %[[D:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.warpgroup_wait %[[D]] {pending = 1 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.tma_load
// CHECK: tilegpu.tma_load
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
// CHECK: tilegpu.warpgroup_wait %{{.*}} {pending = 0 : i32}
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#shared = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 64}>
#dot_op = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#dot_op1 = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
  tile.func @tma(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {tile.num_warps = 4 : i32, tilegpu.num_warps = 4 : i32} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tile.make_tensor_desc %arg0, [%arg2, %arg4], [%arg4, %c1_i32] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
    %1 = tile.make_tensor_desc %arg1, [%arg4, %arg3], [%arg3, %c1_i32] : !tile.ptr<f16> -> !tile.tensor_desc<64x128xf16>
    %2 = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16, #shared>
    %3 = tilegpu.local_alloc : !tilegpu.memdesc<3x64x128xf16, #shared1>
    %4 = tilegpu.mbarrier_alloc {arrivals = 2 : i32} : !tilegpu.mbarriers<3>
    %5 = arith.cmpi slt, %c0_i32, %arg4 : i32
    %c0_i32_0 = arith.constant 0 : i32
    %6 = tilegpu.memdesc_index %2[%c0_i32_0] : !tilegpu.memdesc<3x64x64xf16, #shared> -> !tilegpu.memdesc<64x64xf16, #shared>
    tilegpu.tma_load %0[%c0_i32, %c0_i32], %6, %4[%c0_i32_0] if %5 : !tile.tensor_desc<64x64xf16>, !tilegpu.memdesc<64x64xf16, #shared>, !tilegpu.mbarriers<3>
    %7 = tilegpu.memdesc_index %3[%c0_i32_0] : !tilegpu.memdesc<3x64x128xf16, #shared1> -> !tilegpu.memdesc<64x128xf16, #shared1>
    tilegpu.tma_load %1[%c0_i32, %c0_i32], %7, %4[%c0_i32_0] if %5 : !tile.tensor_desc<64x128xf16>, !tilegpu.memdesc<64x128xf16, #shared1>, !tilegpu.mbarriers<3>
    %8 = arith.addi %c0_i32, %c64_i32 : i32
    %9 = arith.cmpi slt, %8, %arg4 : i32
    %c1_i32_1 = arith.constant 1 : i32
    %10 = tilegpu.memdesc_index %2[%c1_i32_1] : !tilegpu.memdesc<3x64x64xf16, #shared> -> !tilegpu.memdesc<64x64xf16, #shared>
    tilegpu.tma_load %0[%c0_i32, %8], %10, %4[%c1_i32_1] if %9 : !tile.tensor_desc<64x64xf16>, !tilegpu.memdesc<64x64xf16, #shared>, !tilegpu.mbarriers<3>
    %11 = tilegpu.memdesc_index %3[%c1_i32_1] : !tilegpu.memdesc<3x64x128xf16, #shared1> -> !tilegpu.memdesc<64x128xf16, #shared1>
    tilegpu.tma_load %1[%8, %c0_i32], %11, %4[%c1_i32_1] if %9 : !tile.tensor_desc<64x128xf16>, !tilegpu.memdesc<64x128xf16, #shared1>, !tilegpu.mbarriers<3>
    %c0_i32_2 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %c0_i32_3 = arith.constant 0 : i32
    %12:4 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %cst, %arg7 = %c0_i32_2, %arg8 = %c2_i32, %arg9 = %c0_i32_3) -> (tensor<64x128xf32, #mma>, i32, i32, i32)  : i32 {
      %15 = tilegpu.memdesc_index %2[%arg7] : !tilegpu.memdesc<3x64x64xf16, #shared> -> !tilegpu.memdesc<64x64xf16, #shared>
      %16 = tilegpu.memdesc_index %3[%arg7] : !tilegpu.memdesc<3x64x128xf16, #shared1> -> !tilegpu.memdesc<64x128xf16, #shared1>
      tilegpu.mbarrier_wait %4[%arg7], %arg9 : !tilegpu.mbarriers<3>
      tilegpu.barrier
      %17 = tilegpu.local_load %15 : !tilegpu.memdesc<64x64xf16, #shared> -> tensor<64x64xf16, #dot_op>
      %18 = tilegpu.local_load %16 : !tilegpu.memdesc<64x128xf16, #shared1> -> tensor<64x128xf16, #dot_op1>
      %c2_i32_4 = arith.constant 2 : i32
      %19 = arith.muli %c64_i32, %c2_i32_4 : i32
      %20 = arith.addi %arg5, %19 : i32
      %21 = arith.cmpi slt, %20, %arg4 : i32
      %22 = tilegpu.memdesc_index %2[%arg8] : !tilegpu.memdesc<3x64x64xf16, #shared> -> !tilegpu.memdesc<64x64xf16, #shared>
      tilegpu.tma_load %0[%c0_i32, %20], %22, %4[%arg8] if %21 : !tile.tensor_desc<64x64xf16>, !tilegpu.memdesc<64x64xf16, #shared>, !tilegpu.mbarriers<3>
      %23 = tilegpu.memdesc_index %3[%arg8] : !tilegpu.memdesc<3x64x128xf16, #shared1> -> !tilegpu.memdesc<64x128xf16, #shared1>
      tilegpu.tma_load %1[%20, %c0_i32], %23, %4[%arg8] if %21 : !tile.tensor_desc<64x128xf16>, !tilegpu.memdesc<64x128xf16, #shared1>, !tilegpu.mbarriers<3>
      %c2_i32_5 = arith.constant 2 : i32
      %24 = arith.cmpi eq, %arg7, %c2_i32_5 : i32
      %c1_i32_6 = arith.constant 1 : i32
      %25 = arith.addi %arg7, %c1_i32_6 : i32
      %c0_i32_7 = arith.constant 0 : i32
      %26 = arith.select %24, %c0_i32_7, %25 : i32
      %27 = arith.cmpi eq, %arg8, %c2_i32_5 : i32
      %c1_i32_8 = arith.constant 1 : i32
      %28 = arith.addi %arg8, %c1_i32_8 : i32
      %c0_i32_9 = arith.constant 0 : i32
      %29 = arith.select %27, %c0_i32_9, %28 : i32
      %30 = arith.cmpi eq, %arg7, %c2_i32_5 : i32
      %31 = arith.extui %30 : i1 to i32
      %32 = arith.xori %arg9, %31 : i32
      %33 = tile.dot %17, %18, %arg6 : tensor<64x64xf16, #dot_op>, tensor<64x128xf16, #dot_op1> -> tensor<64x128xf32, #mma>
      scf.yield %33, %26, %29, %32 : tensor<64x128xf32, #mma>, i32, i32, i32
    } {tilegpu.stage_distance = 1 : i32}
    %13 = arith.truncf %12#0 : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
    %14 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x128x!tile.ptr<f16>, #mma>
    tile.store %14, %13 : tensor<64x128x!tile.ptr<f16>, #mma>
    tile.return
  }

