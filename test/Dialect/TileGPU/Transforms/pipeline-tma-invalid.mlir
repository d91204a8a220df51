// tilegpu-pipeline on descriptor loads kept for TMA that it cannot stage:
// a clear error each, never a descriptor load left for the LLVM lowering.
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline --verify-diagnostics

// f32 operands: no layout TMA writes and wgmma reads.
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#dot_op = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#dot_op1 = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
tile.func @f32(%a: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %d = tile.make_tensor_desc %a, [%k, %k], [%k, %c1] : !tile.ptr<f32> -> !tile.tensor_desc<32x32xf32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
  %acc = scf.for %i = %c0 to %k step %c32 iter_args(%c = %zero) -> (tensor<32x32xf32, #mma>) : i32 {
    // expected-error @below {{this descriptor load cannot be copied with TMA ('tensor<32x32xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>'); tile-expand-tensor-descs keeps only those it can}}
    %x = tile.desc_load %d[%c0, %i] : !tile.tensor_desc<32x32xf32> -> tensor<32x32xf32, #blocked>
    %xa = tilegpu.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #dot_op>
    // expected-error @below {{this descriptor load cannot be copied with TMA ('tensor<32x32xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>'); tile-expand-tensor-descs keeps only those it can}}
    %y = tile.desc_load %d[%i, %c0] : !tile.tensor_desc<32x32xf32> -> tensor<32x32xf32, #blocked>
    %yb = tilegpu.convert_layout %y : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #dot_op1>
    %r = tile.dot %xa, %yb, %c : tensor<32x32xf32, #dot_op>, tensor<32x32xf32, #dot_op1> -> tensor<32x32xf32, #mma>
    scf.yield %r : tensor<32x32xf32, #mma>
  }
  tile.return
}

// -----

// A descriptor load that feeds no dot.
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.func @no_dot(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %d = tile.make_tensor_desc %a, [%k, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<32x32xf16>
  // expected-error @below {{this descriptor load was kept for TMA but is not staged for a dot; tile-expand-tensor-descs keeps only the dots' operands in loops}}
  %x = tile.desc_load %d[%c0, %c0] : !tile.tensor_desc<32x32xf16> -> tensor<32x32xf16, #blocked>
  %p = tile.splat %a : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>, #blocked>
  tile.store %p, %x : tensor<32x32x!tile.ptr<f16>, #blocked>
  tile.return
}
