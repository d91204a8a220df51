// The tile dialect's ops on the interpreter: program ids over a 3-D grid,
// 2-D tiles made with range, expand_dims, broadcast and splat, pointer
// arithmetic with i32 and i64 offsets, masked loads (with and without
// `other`), scalar loads and stores, and reductions along each axis.

// Every program of a 2 x 3 x 4 grid writes its linear id x + 2 (y + 3 z)
// into its own slot, and num_programs into three more: the grid runs every
// id once with both bound.
// RUN: tile-run %s --kernel ids --grid 2,3,4 --arg 'i32[24x4]=fill:-1' \
// RUN:   --out 0=%t.ids.npy | FileCheck %s --check-prefix=IDS-LAUNCH
// RUN: %reference print %t.ids.npy | FileCheck %s --check-prefix=IDS
// IDS-LAUNCH: @ids ran on the CPU interpreter: grid 2x3x4 (24 programs)
// IDS:      i32[24x4]
// IDS-NEXT: 0 2 3 4
// IDS-NEXT: 1 2 3 4
// IDS-NEXT: 2 2 3 4
// IDS-NEXT: 3 2 3 4
// IDS-NEXT: 4 2 3 4
// IDS-NEXT: 5 2 3 4
// IDS-NEXT: 6 2 3 4
// IDS-NEXT: 7 2 3 4
// IDS-NEXT: 8 2 3 4
// IDS-NEXT: 9 2 3 4
// IDS-NEXT: 10 2 3 4
// IDS-NEXT: 11 2 3 4
// IDS-NEXT: 12 2 3 4
// IDS-NEXT: 13 2 3 4
// IDS-NEXT: 14 2 3 4
// IDS-NEXT: 15 2 3 4
// IDS-NEXT: 16 2 3 4
// IDS-NEXT: 17 2 3 4
// IDS-NEXT: 18 2 3 4
// IDS-NEXT: 19 2 3 4
// IDS-NEXT: 20 2 3 4
// IDS-NEXT: 21 2 3 4
// IDS-NEXT: 22 2 3 4
// IDS-NEXT: 23 2 3 4
// IDS-EMPTY:

tile.func @ids(%out: !tile.ptr<i32>) {
  %x = tile.program_id x : i32
  %y = tile.program_id y : i32
  %z = tile.program_id z : i32
  %nx = tile.num_programs x : i32
  %ny = tile.num_programs y : i32
  %nz = tile.num_programs z : i32
  %zy = arith.muli %z, %ny : i32
  %zyy = arith.addi %zy, %y : i32
  %row = arith.muli %zyy, %nx : i32
  %id = arith.addi %row, %x : i32
  %c4 = arith.constant 4 : i32
  %slot = arith.muli %id, %c4 : i32
  %p0 = tile.addptr %out, %slot : !tile.ptr<i32>, i32
  tile.store %p0, %id : !tile.ptr<i32>
  %c1 = arith.constant 1 : i32
  %p1 = tile.addptr %p0, %c1 : !tile.ptr<i32>, i32
  tile.store %p1, %nx : !tile.ptr<i32>
  %p2 = tile.addptr %p1, %c1 : !tile.ptr<i32>, i32
  tile.store %p2, %ny : !tile.ptr<i32>
  %p3 = tile.addptr %p2, %c1 : !tile.ptr<i32>, i32
  tile.store %p3, %nz : !tile.ptr<i32>
  tile.return
}

// A 4 x 8 matrix through 2-D tiles: offsets i * 8 + j from two ranges
// (expand_dims, broadcast), the transpose stored through offsets j * 4 + i
// with i64 arithmetic, the sums and maxima along each axis, and a load
// masked to the upper triangle (j >= i) with other = -1, and without other
// (masked lanes read as 0).
// RUN: tile-run %s --kernel matrix --grid 1 --arg 'f32[4x8]=@%S/Inputs/matrix.npy' \
// RUN:   --arg 'f32[8x4]=zeros' --arg 'f32[24]=zeros' --arg 'f32[2x4x8]=zeros' \
// RUN:   --out 1=%t.t.npy --out 2=%t.r.npy --out 3=%t.m.npy > /dev/null
// RUN: %reference print %t.t.npy | FileCheck %s --check-prefix=TRANSPOSE
// TRANSPOSE:      f32[8x4]
// TRANSPOSE-NEXT: 0.0 8.0 16.0 24.0
// TRANSPOSE-NEXT: 1.0 9.0 17.0 25.0
// TRANSPOSE-NEXT: -2.0 -10.0 -18.0 -26.0
// TRANSPOSE-NEXT: 3.0 11.0 19.0 27.0
// TRANSPOSE-NEXT: 4.0 12.0 20.0 28.0
// TRANSPOSE-NEXT: 5.0 13.0 21.0 29.0
// TRANSPOSE-NEXT: 6.0 14.0 22.0 30.0
// TRANSPOSE-NEXT: 7.0 15.0 23.0 nan
// Sums along axis 0 (8 values), along axis 1 (4), maxima along axis 0 (8)
// and along axis 1 (4): a NaN makes its column's and row's max NaN.
// RUN: %reference print %t.r.npy | FileCheck %s --check-prefix=REDUCE
// REDUCE:      f32[24]
// REDUCE-NEXT: 48.0 52.0 -56.0 60.0 64.0 68.0 72.0 nan 24.0 72.0 120.0 nan 24.0 25.0 -2.0 27.0 28.0 29.0 30.0 nan 7.0 15.0 23.0 nan
// RUN: %reference print %t.m.npy | FileCheck %s --check-prefix=MASKED
// MASKED:      f32[2x4x8]
// MASKED-NEXT: 0.0 1.0 -2.0 3.0 4.0 5.0 6.0 7.0
// MASKED-NEXT: -1.0 9.0 -10.0 11.0 12.0 13.0 14.0 15.0
// MASKED-NEXT: -1.0 -1.0 -18.0 19.0 20.0 21.0 22.0 23.0
// MASKED-NEXT: -1.0 -1.0 -1.0 27.0 28.0 29.0 30.0 nan
// MASKED-NEXT: 0.0 1.0 -2.0 3.0 4.0 5.0 6.0 7.0
// MASKED-NEXT: 0.0 9.0 -10.0 11.0 12.0 13.0 14.0 15.0
// MASKED-NEXT: 0.0 0.0 -18.0 19.0 20.0 21.0 22.0 23.0
// MASKED-NEXT: 0.0 0.0 0.0 27.0 28.0 29.0 30.0 nan

tile.func @matrix(%in: !tile.ptr<f32>, %transposed: !tile.ptr<f32>,
                  %reduced: !tile.ptr<f32>, %masked: !tile.ptr<f32>) {
  %i = tile.range 0, 4 : tensor<4xi32>
  %j = tile.range 0, 8 : tensor<8xi32>
  %i2 = tile.expand_dims %i axis 1 : tensor<4xi32> -> tensor<4x1xi32>
  %j2 = tile.expand_dims %j axis 0 : tensor<8xi32> -> tensor<1x8xi32>
  %ib = tile.broadcast %i2 : tensor<4x1xi32> -> tensor<4x8xi32>
  %jb = tile.broadcast %j2 : tensor<1x8xi32> -> tensor<4x8xi32>
  %eight = arith.constant dense<8> : tensor<4x8xi32>
  %rows = arith.muli %ib, %eight : tensor<4x8xi32>
  %offsets = arith.addi %rows, %jb : tensor<4x8xi32>
  %base = tile.splat %in : !tile.ptr<f32> -> tensor<4x8x!tile.ptr<f32>>
  %ptrs = tile.addptr %base, %offsets : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi32>
  %m = tile.load %ptrs : tensor<4x8x!tile.ptr<f32>>

  %i64 = arith.extsi %ib : tensor<4x8xi32> to tensor<4x8xi64>
  %j64 = arith.extsi %jb : tensor<4x8xi32> to tensor<4x8xi64>
  %four = arith.constant dense<4> : tensor<4x8xi64>
  %cols = arith.muli %j64, %four : tensor<4x8xi64>
  %toffsets = arith.addi %cols, %i64 : tensor<4x8xi64>
  %tbase = tile.splat %transposed : !tile.ptr<f32> -> tensor<4x8x!tile.ptr<f32>>
  %tptrs = tile.addptr %tbase, %toffsets : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi64>
  tile.store %tptrs, %m : tensor<4x8x!tile.ptr<f32>>

  %sum0 = tile.reduce sum %m axis 0 : tensor<4x8xf32> -> tensor<8xf32>
  %sum1 = tile.reduce sum %m axis 1 : tensor<4x8xf32> -> tensor<4xf32>
  %max0 = tile.reduce max %m axis 0 : tensor<4x8xf32> -> tensor<8xf32>
  %max1 = tile.reduce max %m axis 1 : tensor<4x8xf32> -> tensor<4xf32>
  %rbase8 = tile.splat %reduced : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %r0 = tile.addptr %rbase8, %j : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %r0, %sum0 : tensor<8x!tile.ptr<f32>>
  %c8 = arith.constant 8 : i32
  %c12 = arith.constant 12 : i32
  %c20 = arith.constant 20 : i32
  %at8 = tile.addptr %reduced, %c8 : !tile.ptr<f32>, i32
  %rbase4 = tile.splat %at8 : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %r1 = tile.addptr %rbase4, %i : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %r1, %sum1 : tensor<4x!tile.ptr<f32>>
  %at12 = tile.addptr %reduced, %c12 : !tile.ptr<f32>, i32
  %rbase8b = tile.splat %at12 : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %r2 = tile.addptr %rbase8b, %j : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %r2, %max0 : tensor<8x!tile.ptr<f32>>
  %at20 = tile.addptr %reduced, %c20 : !tile.ptr<f32>, i32
  %rbase4b = tile.splat %at20 : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %r3 = tile.addptr %rbase4b, %i : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %r3, %max1 : tensor<4x!tile.ptr<f32>>

  %upper = arith.cmpi sge, %jb, %ib : tensor<4x8xi32>
  %minus1 = arith.constant dense<-1.0> : tensor<4x8xf32>
  %mu = tile.load %ptrs, %upper, %minus1 : tensor<4x8x!tile.ptr<f32>>
  %mz = tile.load %ptrs, %upper : tensor<4x8x!tile.ptr<f32>>
  %mbase = tile.splat %masked : !tile.ptr<f32> -> tensor<4x8x!tile.ptr<f32>>
  %mp = tile.addptr %mbase, %offsets : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi32>
  tile.store %mp, %mu : tensor<4x8x!tile.ptr<f32>>
  %c32 = arith.constant dense<32> : tensor<4x8xi32>
  %second = arith.addi %offsets, %c32 : tensor<4x8xi32>
  %mp2 = tile.addptr %mbase, %second : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi32>
  tile.store %mp2, %mz : tensor<4x8x!tile.ptr<f32>>
  tile.return
}

// Integer reductions: sum wraps at 32 bits (2^31 - 1 + 2 and
// -2^31 - 18), max is signed. Float sums add
// in the interpreter's tree order: [2^24, 1, 1, 1, 1, 1, 1, 1] gives
// 2^24 + 6 (pairs first: 2^24 + 1 rounds to 2^24, 1 + 1 = 2, ...), where a
// left-to-right sum would stay at 2^24.
// RUN: tile-run %s --kernel int_reduce --grid 1 --arg 'i32[3]=zeros' \
// RUN:   --arg 'f32[1]=zeros' --out 0=%t.ir.npy --out 1=%t.fr.npy > /dev/null
// RUN: %reference print %t.ir.npy | FileCheck %s --check-prefix=IREDUCE
// RUN: %reference print %t.fr.npy | FileCheck %s --check-prefix=TREE
// IREDUCE:      i32[3]
// IREDUCE-NEXT: -2147483647 -5 2147483630
// TREE:      f32[1]
// TREE-NEXT: 16777222.0

tile.func @int_reduce(%out: !tile.ptr<i32>, %fout: !tile.ptr<f32>) {
  %a = arith.constant dense<[2147483647, 1, 1, 0]> : tensor<4xi32>
  %b = arith.constant dense<[-7, -5, -2147483648, -6]> : tensor<4xi32>
  %sum = tile.reduce sum %a axis 0 : tensor<4xi32> -> i32
  %max = tile.reduce max %b axis 0 : tensor<4xi32> -> i32
  %bsum = tile.reduce sum %b axis 0 : tensor<4xi32> -> i32
  tile.store %out, %sum : !tile.ptr<i32>
  %c1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %c1 : !tile.ptr<i32>, i32
  tile.store %p1, %max : !tile.ptr<i32>
  %p2 = tile.addptr %p1, %c1 : !tile.ptr<i32>, i32
  tile.store %p2, %bsum : !tile.ptr<i32>
  %f = arith.constant dense<[16777216.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]> : tensor<8xf32>
  %fsum = tile.reduce sum %f axis 0 : tensor<8xf32> -> f32
  tile.store %fout, %fsum : !tile.ptr<f32>
  tile.return
}
