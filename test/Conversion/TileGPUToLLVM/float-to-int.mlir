// arith.fptosi and fptoui lower to LLVM's saturating conversions: toward
// zero, clamped to the integer type's range, NaN giving 0, as the
// interpreter defines them. (arith's own lowering leaves out-of-range
// values undefined: on an H100 a NaN became INT64_MIN, and LLVM folded
// fptoui(-79.0) to garbage; random kernels found both.)
// RUN: tile-opt %s --convert-tilegpu-to-llvm | FileCheck %s

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: llvm.func @convert
// CHECK: llvm.call_intrinsic "llvm.fptosi.sat.v4i64.v4f32"(%{{.*}}) : (vector<4xf32>) -> vector<4xi64>
// CHECK: llvm.call_intrinsic "llvm.fptoui.sat.v4i32.v4f16"(%{{.*}}) : (vector<4xf16>) -> vector<4xi32>
// CHECK: llvm.call_intrinsic "llvm.fptosi.sat.i64.bf16"(%{{.*}}) : (bf16) -> i64
// CHECK-NOT: llvm.fptosi
// CHECK-NOT: llvm.fptoui
tile.func @convert(%x: f32, %h: f16, %b: bf16, %out: !tile.ptr<i64>, %out2: !tile.ptr<i32>)
    attributes {tilegpu.num_warps = 1 : i32} {
  %xs = tile.splat %x : f32 -> tensor<128xf32, #b>
  %i = arith.fptosi %xs : tensor<128xf32, #b> to tensor<128xi64, #b>
  %hs = tile.splat %h : f16 -> tensor<128xf16, #b>
  %u = arith.fptoui %hs : tensor<128xf16, #b> to tensor<128xi32, #b>
  %s = arith.fptosi %b : bf16 to i64
  %r = tile.range 0, 128 : tensor<128xi32, #b>
  %p = tile.splat %out : !tile.ptr<i64> -> tensor<128x!tile.ptr<i64>, #b>
  %q = tile.addptr %p, %r : tensor<128x!tile.ptr<i64>, #b>, tensor<128xi32, #b>
  tile.store %q, %i : tensor<128x!tile.ptr<i64>, #b>
  %p2 = tile.splat %out2 : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>, #b>
  %q2 = tile.addptr %p2, %r : tensor<128x!tile.ptr<i32>, #b>, tensor<128xi32, #b>
  tile.store %q2, %u : tensor<128x!tile.ptr<i32>, #b>
  tile.store %out, %s : !tile.ptr<i64>
  tile.return
}
