// What the dot lowering cannot realize: operands not in the dot-operand
// layouts of the result, full-precision f32 or tiles smaller than an
// instruction on tensor cores, and tensor cores on a chip without them.
// RUN: tile-opt %s --convert-tilegpu-to-llvm --split-input-file --verify-diagnostics
// RUN: not tile-opt %s --convert-tilegpu-to-llvm="chip=sm_75" --split-input-file 2>&1 | FileCheck %s --check-prefix=SM75
// SM75: kernel 'f16' multiplies on tensor cores (tile.dot), which need sm_80 or later; compiling for sm_75

#mma = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
tile.func @f16(%x: f16, %f: f32) attributes {tilegpu.num_warps = 1 : i32} {
  %a = tile.splat %x : f16 -> tensor<16x16xf16, #a>
  %c = tile.splat %f : f32 -> tensor<16x16xf32, #mma>
  // expected-error @below {{needs operand 1 in the dot_operand layout 1 of its result's layout; convert it first}}
  %d = tile.dot %a, %a, %c : tensor<16x16xf16, #a>, tensor<16x16xf16, #a> -> tensor<16x16xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
tile.func @ieee_on_mma(%f: f32) attributes {tilegpu.num_warps = 1 : i32} {
  %a = tile.splat %f : f32 -> tensor<16x16xf32, #a>
  %b = tile.splat %f : f32 -> tensor<16x16xf32, #b>
  %c = tile.splat %f : f32 -> tensor<16x16xf32, #mma>
  // expected-error @below {{multiplies f32 in full precision, which tensor cores cannot: give it a blocked layout}}
  %d = tile.dot %a, %b, %c input_precision = ieee : tensor<16x16xf32, #a>, tensor<16x16xf32, #b> -> tensor<16x16xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
tile.func @small(%x: f16, %f: f32) attributes {tilegpu.num_warps = 1 : i32} {
  %a = tile.splat %x : f16 -> tensor<16x8xf16, #a>
  %b = tile.splat %x : f16 -> tensor<8x8xf16, #b>
  %c = tile.splat %f : f32 -> tensor<16x8xf32, #mma>
  // expected-error @below {{on tensor cores needs M >= 16, N >= 8 and K >= 16, got 16 x 8 x 8}}
  %d = tile.dot %a, %b, %c : tensor<16x8xf16, #a>, tensor<8x8xf16, #b> -> tensor<16x8xf32, #mma>
  tile.return
}
