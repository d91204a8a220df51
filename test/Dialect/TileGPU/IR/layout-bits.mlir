// Which coordinate bit each register, lane and warp bit of a layout holds.
// The mma accumulator and the dot operands are checked against the fragment
// tables of the PTX ISA (mma.m16n8k16 and mma.m16n8k8, "Matrix fragments"),
// with g = lane / 4 and t = lane % 4 (x: rows, y: columns):
//   m16n8k16 A: a0,a1 at (g, 2t), (g, 2t+1); a2,a3 at row g+8; a4..a7 at
//     columns +8: registers [k0 m3 k3], lanes [k1 k2 m0 m1 m2].
//   m16n8k16 B: b0,b1 at rows (2t, 2t+1), column g; b2,b3 at rows +8:
//     registers [k0 k3], lanes [k1 k2 n0 n1 n2].
//   C/D: c0,c1 at (g, 2t), (g, 2t+1); c2,c3 at row g+8: registers [n0 m3],
//     lanes [n1 n2 m0 m1 m2].
//   m16n8k8 (tf32) A: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4):
//     registers [m3 k2], lanes [k0 k1 m0 m1 m2]; B: b0 (t, g), b1 (t+4, g):
//     registers [k2], lanes [k0 k1 n0 n1 n2].
// RUN: tile-opt %s --tilegpu-test-print-layout-bits --verify-diagnostics -o /dev/null

#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
#mma1 = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#a1 = #tilegpu.dot_operand<{opIdx = 0, parent = #mma1}>
#b1 = #tilegpu.dot_operand<{opIdx = 1, parent = #mma1}>
#mma8 = #tilegpu.mma<{warpsPerCTA = [4, 2]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#fa = #tilegpu.dot_operand<{opIdx = 0, parent = #blocked}>
#fb = #tilegpu.dot_operand<{opIdx = 1, parent = #blocked}>

// One warp, one instruction tile: the fragments alone.
tile.func @one_instruction(%h: f16, %f: f32) attributes {tilegpu.num_warps = 1 : i32} {
  // expected-remark @below {{reg [y0 x3] lane [y1 y2 x0 x1 x2] warp []}}
  %d = tile.splat %f : f32 -> tensor<16x8xf32, #mma1>
  // expected-remark @below {{reg [y0 x3 y3] lane [y1 y2 x0 x1 x2] warp []}}
  %a = tile.splat %h : f16 -> tensor<16x16xf16, #a1>
  // expected-remark @below {{reg [x0 x3] lane [x1 x2 y0 y1 y2] warp []}}
  %b = tile.splat %h : f16 -> tensor<16x8xf16, #b1>
  // expected-remark @below {{reg [x3 y2] lane [y0 y1 x0 x1 x2] warp []}}
  %at = tile.splat %f : f32 -> tensor<16x8xf32, #a1>
  // expected-remark @below {{reg [x2] lane [x0 x1 y0 y1 y2] warp []}}
  %bt = tile.splat %f : f32 -> tensor<8x8xf32, #b1>
  tile.return
}

// 2 x 2 warps over 64 x 64: warps along N (y3) first, then M (x4); the rest
// of N, then of M, in registers. A follows the warps along M and is free
// along N; B the other way round; both repeat K in registers.
tile.func @two_by_two(%h: f16, %f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  // expected-remark @below {{reg [y0 x3 y4 y5 x5] lane [y1 y2 x0 x1 x2] warp [y3 x4]}}
  %d = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  // expected-remark @below {{reg [y0 x3 y3 y4 x5] lane [y1 y2 x0 x1 x2] warp [- x4]}}
  %a = tile.splat %h : f16 -> tensor<64x32xf16, #a>
  // expected-remark @below {{reg [x0 x3 x4 y4 y5] lane [x1 x2 y0 y1 y2] warp [y3 -]}}
  %b = tile.splat %h : f16 -> tensor<32x64xf16, #b>
  tile.return
}

// 8 warps, 4 along M and 2 along N, over a 64 x 32 tile: N has one
// repetition left (y4), M none.
tile.func @eight_warps(%f: f32) attributes {tilegpu.num_warps = 8 : i32} {
  // expected-remark @below {{reg [y0 x3 y4] lane [y1 y2 x0 x1 x2] warp [y3 x4 x5]}}
  %d = tile.splat %f : f32 -> tensor<64x32xf32, #mma8>
  tile.return
}

// The FMA path: operands of a blocked result hold whole rows of A (columns
// of B) along K, and follow the result's threads along M (N).
tile.func @fma(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  // expected-remark @below {{reg [y0 x3] lane [y1 y2 y3 x0 x1] warp [y4 x2]}}
  %d = tile.splat %f : f32 -> tensor<16x32xf32, #blocked>
  // expected-remark @below {{reg [x3 y0 y1 y2] lane [- - - x0 x1] warp [- x2]}}
  %a = tile.splat %f : f32 -> tensor<16x8xf32, #fa>
  // expected-remark @below {{reg [y0 x0 x1 x2] lane [y1 y2 y3 - -] warp [y4 -]}}
  %b = tile.splat %f : f32 -> tensor<8x32xf32, #fb>
  tile.return
}

// The wgmma accumulator (version 3), against the PTX ISA's fragment of
// wgmma's D ("Register fragments and shared memory matrix layouts",
// m64nNk16): element j of lane l in warp w of a warpgroup is at row
// 16 w + l / 4 + 8 ((j >> 1) & 1), column 8 (j >> 2) + 2 (l % 4) + (j & 1):
// registers [y0 x3 y3 y4 ...], lanes [y1 y2 x0 x1 x2], warps [x4 x5]; more
// warpgroups along M (x6..), then along N; the rest of M in registers.
#wg4 = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#wg8 = #tilegpu.mma<{warpsPerCTA = [8, 1], versionMajor = 3}>
#wg42 = #tilegpu.mma<{warpsPerCTA = [4, 2], versionMajor = 3}>
tile.func @wgmma_one_group(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  // expected-remark @below {{reg [y0 x3 y3 y4 y5 y6] lane [y1 y2 x0 x1 x2] warp [x4 x5]}}
  %d = tile.splat %f : f32 -> tensor<64x128xf32, #wg4>
  // Two instructions along M: the second 64 rows in registers.
  // expected-remark @below {{reg [y0 x3 y3 y4 y5 x6] lane [y1 y2 x0 x1 x2] warp [x4 x5]}}
  %e = tile.splat %f : f32 -> tensor<128x64xf32, #wg4>
  tile.return
}

tile.func @wgmma_two_groups(%f: f32) attributes {tilegpu.num_warps = 8 : i32} {
  // Stacked along M: warp bit 2 is row bit 6.
  // expected-remark @below {{reg [y0 x3 y3 y4 y5 y6 y7] lane [y1 y2 x0 x1 x2] warp [x4 x5 x6]}}
  %d = tile.splat %f : f32 -> tensor<128x256xf32, #wg8>
  // Side by side along N: each warpgroup 128 of the 256 columns.
  // expected-remark @below {{reg [y0 x3 y3 y4 y5 y6] lane [y1 y2 x0 x1 x2] warp [x4 x5 y7]}}
  %e = tile.splat %f : f32 -> tensor<64x256xf32, #wg42>
  tile.return
}
