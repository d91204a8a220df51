// A mask the axis analysis finds constant over aligned runs of a thread's
// consecutive registers is computed once per run: the other elements take
// the run's first value. A row's bound checked per group of 8 columns cost
// eight comparisons per group before (cross_entropy.mlir's chunk loop spent
// a third of its instructions on them). The run is as long as the bound's
// known divisibility allows, and as the thread's consecutive registers.
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm --split-input-file | FileCheck %s

#b = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// n a multiple of 8: one comparison for the thread's 8 columns.
// CHECK-LABEL: llvm.func @bound_multiple_of_8
// CHECK-COUNT-1: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
tile.func @bound_multiple_of_8(%dst: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                               %n: i32 {tile.divisibility = 8 : i64})
    attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<256xi32, #b>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #b>
  %one = arith.constant dense<1.0> : tensor<256xf32, #b>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %da = tile.addptr %dp, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  tile.store %da, %one, %m : tensor<256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// n even: runs of 2, four comparisons.
// CHECK-LABEL: llvm.func @bound_even
// CHECK-COUNT-4: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
tile.func @bound_even(%dst: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                      %n: i32 {tile.divisibility = 2 : i64})
    attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<256xi32, #b>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #b>
  %one = arith.constant dense<1.0> : tensor<256xf32, #b>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %da = tile.addptr %dp, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  tile.store %da, %one, %m : tensor<256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// n anything: a comparison per column. And the mask combined with another
// constant over the same runs (x >= 8, 8 a multiple of 8) stays one
// operation per run only where both are: here, per column.
// CHECK-LABEL: llvm.func @bound_unknown
// CHECK-COUNT-8: llvm.icmp "slt"
// CHECK-COUNT-1: llvm.icmp "sge"
// CHECK-COUNT-8: llvm.and
// CHECK: llvm.return
tile.func @bound_unknown(%dst: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                         %n: i32)
    attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<256xi32, #b>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #b>
  %eight = arith.constant dense<8> : tensor<256xi32, #b>
  %after = arith.cmpi sge, %r, %eight : tensor<256xi32, #b>
  %both = arith.andi %m, %after : tensor<256xi1, #b>
  %one = arith.constant dense<1.0> : tensor<256xf32, #b>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %da = tile.addptr %dp, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  tile.store %da, %one, %both : tensor<256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

// The facts the runs come from must hold per element (run 51's review): a
// row's bound min(row, n), expanded along rows of 8 columns a thread
// holds, differs from column to column of a row, whatever n's
// divisibility; so does each of the 8 comparisons.
#b2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @bound_min_of_row
// CHECK-COUNT-8: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
tile.func @bound_min_of_row(%dst: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                            %n: i32 {tile.divisibility = 16 : i64})
    attributes {tilegpu.num_warps = 1 : i32} {
  %rows = tile.range 0, 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #b2}>>
  %ns = tile.splat %n : i32 -> tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #b2}>>
  %bound = arith.minsi %rows, %ns : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #b2}>>
  %bound_col = tile.expand_dims %bound axis 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #b2}>> -> tensor<32x1xi32, #b2>
  %bound_2d = tile.broadcast %bound_col : tensor<32x1xi32, #b2> -> tensor<32x8xi32, #b2>
  %cols = tile.range 0, 8 : tensor<8xi32, #tilegpu.slice<{dim = 0, parent = #b2}>>
  %cols_row = tile.expand_dims %cols axis 0 : tensor<8xi32, #tilegpu.slice<{dim = 0, parent = #b2}>> -> tensor<1x8xi32, #b2>
  %cols_2d = tile.broadcast %cols_row : tensor<1x8xi32, #b2> -> tensor<32x8xi32, #b2>
  %m = arith.cmpi slt, %cols_2d, %bound_2d : tensor<32x8xi32, #b2>
  %rows_col = tile.expand_dims %rows axis 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #b2}>> -> tensor<32x1xi32, #b2>
  %rows_2d = tile.broadcast %rows_col : tensor<32x1xi32, #b2> -> tensor<32x8xi32, #b2>
  %c8 = arith.constant dense<8> : tensor<32x8xi32, #b2>
  %row_off = arith.muli %rows_2d, %c8 : tensor<32x8xi32, #b2>
  %off = arith.addi %row_off, %cols_2d : tensor<32x8xi32, #b2>
  %one = arith.constant dense<1.0> : tensor<32x8xf32, #b2>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<32x8x!tile.ptr<f32>, #b2>
  %da = tile.addptr %dp, %off : tensor<32x8x!tile.ptr<f32>, #b2>, tensor<32x8xi32, #b2>
  tile.store %da, %one, %m : tensor<32x8x!tile.ptr<f32>, #b2>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// A range truncated to i1 alternates 0 and 1: a truncation per element.
// CHECK-LABEL: llvm.func @truncated_range
// CHECK-COUNT-8: llvm.trunc
// CHECK-NOT: llvm.trunc
// CHECK: llvm.return
tile.func @truncated_range(%dst: !tile.ptr<f32> {tile.divisibility = 16 : i64})
    attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32, #b>
  %m = arith.trunci %r : tensor<256xi32, #b> to tensor<256xi1, #b>
  %one = arith.constant dense<1.0> : tensor<256xf32, #b>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %da = tile.addptr %dp, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  tile.store %da, %one, %m : tensor<256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

// A narrow constant folded at its width (run 53's review): false - true on
// i1 is true, -1 when sign-extended, so range * it counts down and its sign
// test differs from column to column: a comparison per column.
#b = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: llvm.func @sign_of_negated_range
// CHECK-COUNT-8: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
tile.func @sign_of_negated_range(%dst: !tile.ptr<i32> {tile.divisibility = 16 : i64})
    attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32, #b>
  %t = arith.constant dense<true> : tensor<256xi1, #b>
  %f = arith.constant dense<false> : tensor<256xi1, #b>
  %d = arith.subi %f, %t : tensor<256xi1, #b>
  %s = arith.extsi %d : tensor<256xi1, #b> to tensor<256xi32, #b>
  %neg = arith.muli %r, %s : tensor<256xi32, #b>
  %zero = arith.constant dense<0> : tensor<256xi32, #b>
  %m = arith.cmpi slt, %neg, %zero : tensor<256xi32, #b>
  %v = arith.extui %m : tensor<256xi1, #b> to tensor<256xi32, #b>
  %dp = tile.splat %dst : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>, #b>
  %da = tile.addptr %dp, %r : tensor<256x!tile.ptr<i32>, #b>, tensor<256xi32, #b>
  tile.store %da, %v : tensor<256x!tile.ptr<i32>, #b>
  tile.return
}
