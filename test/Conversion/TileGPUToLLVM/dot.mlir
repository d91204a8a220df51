// tile.dot on tensor cores and with FMAs. A 32 x 16 tile in #mma on one
// warp is 2 x 2 instruction tiles; K = 32 is 2 steps of m16n8k16 (4 of
// m16n8k8 in TF32), so 8 (16) mma.sync per dot. The f16 fragments are pairs
// of halves, bf16 pairs go as i32, and f32 is rounded to TF32 first.
// RUN: tile-opt %s --convert-tilegpu-to-llvm --split-input-file | FileCheck %s

#mma = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: llvm.func @f16
// CHECK-COUNT-8: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
tile.func @f16(%x: f16, %f: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %a = tile.splat %x : f16 -> tensor<32x32xf16, #a>
  %b = tile.splat %x : f16 -> tensor<32x16xf16, #b>
  %c = tile.splat %f : f32 -> tensor<32x16xf32, #mma>
  %d = tile.dot %a, %b, %c : tensor<32x32xf16, #a>, tensor<32x16xf16, #b> -> tensor<32x16xf32, #mma>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x16x!tile.ptr<f32>, #mma>
  tile.store %ps, %d : tensor<32x16x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: llvm.func @bf16
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK-COUNT-8: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32)
tile.func @bf16(%x: bf16, %f: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %a = tile.splat %x : bf16 -> tensor<32x32xbf16, #a>
  %b = tile.splat %x : bf16 -> tensor<32x16xbf16, #b>
  %c = tile.splat %f : f32 -> tensor<32x16xf32, #mma>
  %d = tile.dot %a, %b, %c : tensor<32x32xbf16, #a>, tensor<32x16xbf16, #b> -> tensor<32x16xf32, #mma>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x16x!tile.ptr<f32>, #mma>
  tile.store %ps, %d : tensor<32x16x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: llvm.func @tf32
// CHECK: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-COUNT-16: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
tile.func @tf32(%f: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %a = tile.splat %f : f32 -> tensor<32x32xf32, #a>
  %b = tile.splat %f : f32 -> tensor<32x16xf32, #b>
  %c = tile.splat %f : f32 -> tensor<32x16xf32, #mma>
  %d = tile.dot %a, %b, %c : tensor<32x32xf32, #a>, tensor<32x16xf32, #b> -> tensor<32x16xf32, #mma>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x16x!tile.ptr<f32>, #mma>
  tile.store %ps, %d : tensor<32x16x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// FMAs: each of a thread's 2 result elements adds 4 products.
#blk = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#fa = #tilegpu.dot_operand<{opIdx = 0, parent = #blk}>
#fb = #tilegpu.dot_operand<{opIdx = 1, parent = #blk}>
// CHECK-LABEL: llvm.func @fma
// CHECK-NOT: nvvm.mma.sync
// CHECK-COUNT-8: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
tile.func @fma(%f: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %a = tile.splat %f : f32 -> tensor<8x4xf32, #fa>
  %b = tile.splat %f : f32 -> tensor<4x8xf32, #fb>
  %c = tile.splat %f : f32 -> tensor<8x8xf32, #blk>
  %d = tile.dot %a, %b, %c input_precision = ieee : tensor<8x4xf32, #fa>, tensor<4x8xf32, #fb> -> tensor<8x8xf32, #blk>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<8x8x!tile.ptr<f32>, #blk>
  tile.store %ps, %d : tensor<8x8x!tile.ptr<f32>, #blk>
  tile.return
}

// -----

// A small f32 dot in the default precision takes the FMA path and still
// rounds its inputs to TF32, as the tensor cores and the interpreter do.
#blk = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#fa = #tilegpu.dot_operand<{opIdx = 0, parent = #blk}>
#fb = #tilegpu.dot_operand<{opIdx = 1, parent = #blk}>
// CHECK-LABEL: llvm.func @fma_tf32
// CHECK: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: llvm.intr.fma
tile.func @fma_tf32(%f: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %a = tile.splat %f : f32 -> tensor<8x4xf32, #fa>
  %b = tile.splat %f : f32 -> tensor<4x8xf32, #fb>
  %c = tile.splat %f : f32 -> tensor<8x8xf32, #blk>
  %d = tile.dot %a, %b, %c : tensor<8x4xf32, #fa>, tensor<4x8xf32, #fb> -> tensor<8x8xf32, #blk>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<8x8x!tile.ptr<f32>, #blk>
  tile.store %ps, %d : tensor<8x8x!tile.ptr<f32>, #blk>
  tile.return
}
