// convert-tile-to-tilegpu on tile.dot: a tensor-core dot's result gets an
// mma layout (warps split about square over 16 x 8 instruction tiles) and
// its operands the matching dot-operand layouts, each through a conversion;
// f32 in full precision, and tiles smaller than an instruction, stay blocked
// for FMAs, with dot-operand layouts of the blocked result.
// RUN: tile-opt %s --convert-tile-to-tilegpu --split-input-file | FileCheck %s

// CHECK-DAG: #[[B:.*]] = #tilegpu.blocked<{{.*}}>
// CHECK-DAG: #[[MMA:.*]] = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
// CHECK-DAG: #[[A:.*]] = #tilegpu.dot_operand<{opIdx = 0, parent = #[[MMA]]}>
// CHECK-DAG: #[[BOP:.*]] = #tilegpu.dot_operand<{opIdx = 1, parent = #[[MMA]]}>
// CHECK-LABEL: tile.func @f16
// CHECK: %[[CA:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x32xf16, #[[B]]> -> tensor<64x32xf16, #[[A]]>
// CHECK: %[[CB:.*]] = tilegpu.convert_layout %{{.*}} : tensor<32x64xf16, #[[B]]> -> tensor<32x64xf16, #[[BOP]]>
// CHECK: %[[CC:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #[[B]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[D:.*]] = tile.dot %[[CA]], %[[CB]], %[[CC]] : {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK: tilegpu.convert_layout %[[D]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[B]]>
tile.func @f16(%h: f16, %f: f32, %p: !tile.ptr<f32>) {
  %a = tile.splat %h : f16 -> tensor<64x32xf16>
  %b = tile.splat %h : f16 -> tensor<32x64xf16>
  %c = tile.splat %f : f32 -> tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %s = tile.reduce sum %d axis 0 : tensor<64x64xf32> -> tensor<64xf32>
  %t = tile.reduce sum %s axis 0 : tensor<64xf32> -> f32
  tile.store %p, %t : !tile.ptr<f32>
  tile.return
}

// -----

// A tall tile on 8 warps: the warps go along M while each one's share stays
// at least as tall as wide.
// CHECK: #tilegpu.mma<{warpsPerCTA = [4, 2]}>
// CHECK-LABEL: tile.func @tall
tile.func @tall(%h: bf16, %f: f32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 8 : i32} {
  %a = tile.splat %h : bf16 -> tensor<128x32xbf16>
  %b = tile.splat %h : bf16 -> tensor<32x64xbf16>
  %c = tile.splat %f : f32 -> tensor<128x64xf32>
  %d = tile.dot %a, %b, %c : tensor<128x32xbf16>, tensor<32x64xbf16> -> tensor<128x64xf32>
  %s = tile.reduce sum %d axis 0 : tensor<128x64xf32> -> tensor<64xf32>
  %t = tile.reduce sum %s axis 0 : tensor<64xf32> -> f32
  tile.store %p, %t : !tile.ptr<f32>
  tile.return
}

// -----

// f32 in full precision: FMAs on the blocked layout, no mma.
// CHECK-DAG: #[[B:.*]] = #tilegpu.blocked<{{.*}}>
// CHECK-DAG: #[[FA:.*]] = #tilegpu.dot_operand<{opIdx = 0, parent = #[[B]]}>
// CHECK-DAG: #[[FB:.*]] = #tilegpu.dot_operand<{opIdx = 1, parent = #[[B]]}>
// CHECK-LABEL: tile.func @ieee
// CHECK-NOT: #tilegpu.mma
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} input_precision = ieee : tensor<32x16xf32, #[[FA]]>, tensor<16x32xf32, #[[FB]]> -> tensor<32x32xf32, #[[B]]>
tile.func @ieee(%f: f32, %p: !tile.ptr<f32>) {
  %a = tile.splat %f : f32 -> tensor<32x16xf32>
  %b = tile.splat %f : f32 -> tensor<16x32xf32>
  %c = tile.splat %f : f32 -> tensor<32x32xf32>
  %d = tile.dot %a, %b, %c input_precision = ieee : tensor<32x16xf32>, tensor<16x32xf32> -> tensor<32x32xf32>
  %s = tile.reduce sum %d axis 0 : tensor<32x32xf32> -> tensor<32xf32>
  %t = tile.reduce sum %s axis 0 : tensor<32xf32> -> f32
  tile.store %p, %t : !tile.ptr<f32>
  tile.return
}

// -----

// K = 8 is less than one m16n8k16 instruction: FMAs.
// CHECK-LABEL: tile.func @small_k
// CHECK-NOT: #tilegpu.mma
// CHECK: tile.dot {{.*}} -> tensor<16x16xf32, #blocked
tile.func @small_k(%h: f16, %f: f32, %p: !tile.ptr<f32>) {
  %a = tile.splat %h : f16 -> tensor<16x8xf16>
  %b = tile.splat %h : f16 -> tensor<8x16xf16>
  %c = tile.splat %f : f32 -> tensor<16x16xf32>
  %d = tile.dot %a, %b, %c : tensor<16x8xf16>, tensor<8x16xf16> -> tensor<16x16xf32>
  %s = tile.reduce sum %d axis 0 : tensor<16x16xf32> -> tensor<16xf32>
  %t = tile.reduce sum %s axis 0 : tensor<16xf32> -> f32
  tile.store %p, %t : !tile.ptr<f32>
  tile.return
}

// -----

// The FMA path's result takes the layout fitted to its own shape, not the
// rank's (chosen here by the 32x64 operand): in the rank's, each of the 256
// threads holds 4 rows of the 32x8 result (8 rows once coalescing reorders
// it, as in random kernel seed 14540), and so 4 x 64 = 256 elements of A,
// all the registers a thread has; in the fitted one, one row.
// CHECK-DAG: #[[RANK:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1]{{.*}}}>
// CHECK-DAG: #[[FIT:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1]{{.*}}}>
// CHECK-DAG: #[[FITA:.*]] = #tilegpu.dot_operand<{opIdx = 0, parent = #[[FIT]]}>
// CHECK-LABEL: tile.func @fma_result_layout
// CHECK: %[[D:.*]] = tile.dot {{.*}} : tensor<32x64xf32, #[[FITA]]>, {{.*}} -> tensor<32x8xf32, #[[FIT]]>
// CHECK: tilegpu.convert_layout %[[D]] : tensor<32x8xf32, #[[FIT]]> -> tensor<32x8xf32, #[[RANK]]>
tile.func @fma_result_layout(%f: f32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 8 : i32} {
  %a = tile.splat %f : f32 -> tensor<32x64xf32>
  %b = tile.splat %f : f32 -> tensor<64x8xf32>
  %c = tile.splat %f : f32 -> tensor<32x8xf32>
  %d = tile.dot %a, %b, %c input_precision = ieee : tensor<32x64xf32>, tensor<64x8xf32> -> tensor<32x8xf32>
  %s = tile.reduce sum %d axis 0 : tensor<32x8xf32> -> tensor<8xf32>
  %t = tile.reduce sum %s axis 0 : tensor<8xf32> -> f32
  tile.store %p, %t : !tile.ptr<f32>
  tile.return
}
