// Integer arith on the interpreter: i32 wraps at 32 bits; signed and
// unsigned divisions, remainders, shifts, min/max and comparisons follow
// arith's definitions. Each op's result is stored as one row of 8 lanes.
// Expected values were computed independently (Python integers reduced to
// 32 bits).

// RUN: tile-run %s --kernel i32_ops --grid 1 --arg 'i32[24x8]=zeros' --out 0=%t.i32.npy > /dev/null
// RUN: %reference print %t.i32.npy | FileCheck %s --check-prefix=I32
// I32:      i32[24x8]
// I32-NEXT: 2147483647 -2147483648 7 -7 0 1 -1 100
// addi, subi, muli
// I32-NEXT: -2147483648 2147483647 9 -5 5 32 2 97
// I32-NEXT: 2147483646 -2147483647 5 -9 -5 -30 -4 103
// I32-NEXT: 2147483647 -2147483648 14 -14 0 31 -3 -300
// divsi, remsi, ceildivsi, floordivsi, divui, remui, ceildivui
// I32-NEXT: 306783378 715827882 3 -3 0 0 0 -33
// I32-NEXT: 1 -2 1 -1 0 1 -1 1
// I32-NEXT: 306783379 715827883 4 -3 0 0 0 -33
// I32-NEXT: 306783378 715827882 3 -4 0 -1 -1 -34
// I32-NEXT: 306783378 0 3 2147483644 0 0 1431655765 0
// I32-NEXT: 1 -2147483648 1 1 0 1 0 100
// I32-NEXT: 306783379 1 4 2147483645 0 1 1431655765 1
// andi, ori, xori
// I32-NEXT: 1 -2147483648 2 0 0 1 3 100
// I32-NEXT: 2147483647 -1 7 -5 5 31 -1 -3
// I32-NEXT: 2147483646 2147483647 5 -5 5 30 -4 -103
// shli, shrsi, shrui
// I32-NEXT: -2 0 28 -28 0 -2147483648 -8 800
// I32-NEXT: 1073741823 -1073741824 1 -2 0 0 -1 12
// I32-NEXT: 1073741823 1073741824 1 1073741822 0 0 536870911 12
// maxsi, minsi, maxui, minui
// I32-NEXT: 2147483647 -1 7 2 5 31 3 100
// I32-NEXT: 1 -2147483648 2 -7 0 1 -1 -3
// I32-NEXT: 2147483647 -1 7 -7 5 31 -1 -3
// I32-NEXT: 1 -2147483648 2 2 0 1 3 100
// cmpi slt, cmpi ult (as 0 or 1), select on slt
// I32-NEXT: 0 1 0 1 1 1 1 0
// I32-NEXT: 0 1 0 0 1 1 0 1
// I32-NEXT: 1 -2147483648 2 -7 0 1 -1 -3

tile.func @i32_ops(%out: !tile.ptr<i32>) {
  %a = arith.constant dense<[2147483647, -2147483648, 7, -7, 0, 1, -1, 100]> : tensor<8xi32>
  %b = arith.constant dense<[1, -1, 2, 2, 5, 31, 3, -3]> : tensor<8xi32>
  %d = arith.constant dense<[7, -3, 2, 2, 5, -31, 3, -3]> : tensor<8xi32>
  %s = arith.constant dense<[1, 1, 2, 2, 5, 31, 3, 3]> : tensor<8xi32>
  %eight = arith.constant dense<8> : tensor<8xi32>
  %lanes = tile.range 0, 8 : tensor<8xi32>
  %base = tile.splat %out : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %p0 = tile.addptr %base, %lanes : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p0, %a : tensor<8x!tile.ptr<i32>>
  %r0 = arith.addi %a, %b : tensor<8xi32>
  %p1 = tile.addptr %p0, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p1, %r0 : tensor<8x!tile.ptr<i32>>
  %r1 = arith.subi %a, %b : tensor<8xi32>
  %p2 = tile.addptr %p1, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p2, %r1 : tensor<8x!tile.ptr<i32>>
  %r2 = arith.muli %a, %b : tensor<8xi32>
  %p3 = tile.addptr %p2, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p3, %r2 : tensor<8x!tile.ptr<i32>>
  %r3 = arith.divsi %a, %d : tensor<8xi32>
  %p4 = tile.addptr %p3, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p4, %r3 : tensor<8x!tile.ptr<i32>>
  %r4 = arith.remsi %a, %d : tensor<8xi32>
  %p5 = tile.addptr %p4, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p5, %r4 : tensor<8x!tile.ptr<i32>>
  %r5 = arith.ceildivsi %a, %d : tensor<8xi32>
  %p6 = tile.addptr %p5, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p6, %r5 : tensor<8x!tile.ptr<i32>>
  %r6 = arith.floordivsi %a, %d : tensor<8xi32>
  %p7 = tile.addptr %p6, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p7, %r6 : tensor<8x!tile.ptr<i32>>
  %r7 = arith.divui %a, %d : tensor<8xi32>
  %p8 = tile.addptr %p7, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p8, %r7 : tensor<8x!tile.ptr<i32>>
  %r8 = arith.remui %a, %d : tensor<8xi32>
  %p9 = tile.addptr %p8, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p9, %r8 : tensor<8x!tile.ptr<i32>>
  %r9 = arith.ceildivui %a, %d : tensor<8xi32>
  %p10 = tile.addptr %p9, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p10, %r9 : tensor<8x!tile.ptr<i32>>
  %r10 = arith.andi %a, %b : tensor<8xi32>
  %p11 = tile.addptr %p10, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p11, %r10 : tensor<8x!tile.ptr<i32>>
  %r11 = arith.ori %a, %b : tensor<8xi32>
  %p12 = tile.addptr %p11, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p12, %r11 : tensor<8x!tile.ptr<i32>>
  %r12 = arith.xori %a, %b : tensor<8xi32>
  %p13 = tile.addptr %p12, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p13, %r12 : tensor<8x!tile.ptr<i32>>
  %r13 = arith.shli %a, %s : tensor<8xi32>
  %p14 = tile.addptr %p13, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p14, %r13 : tensor<8x!tile.ptr<i32>>
  %r14 = arith.shrsi %a, %s : tensor<8xi32>
  %p15 = tile.addptr %p14, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p15, %r14 : tensor<8x!tile.ptr<i32>>
  %r15 = arith.shrui %a, %s : tensor<8xi32>
  %p16 = tile.addptr %p15, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p16, %r15 : tensor<8x!tile.ptr<i32>>
  %r16 = arith.maxsi %a, %b : tensor<8xi32>
  %p17 = tile.addptr %p16, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p17, %r16 : tensor<8x!tile.ptr<i32>>
  %r17 = arith.minsi %a, %b : tensor<8xi32>
  %p18 = tile.addptr %p17, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p18, %r17 : tensor<8x!tile.ptr<i32>>
  %r18 = arith.maxui %a, %b : tensor<8xi32>
  %p19 = tile.addptr %p18, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p19, %r18 : tensor<8x!tile.ptr<i32>>
  %r19 = arith.minui %a, %b : tensor<8xi32>
  %p20 = tile.addptr %p19, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p20, %r19 : tensor<8x!tile.ptr<i32>>
  %slt = arith.cmpi slt, %a, %b : tensor<8xi32>
  %ult = arith.cmpi ult, %a, %b : tensor<8xi32>
  %slt32 = arith.extui %slt : tensor<8xi1> to tensor<8xi32>
  %ult32 = arith.extui %ult : tensor<8xi1> to tensor<8xi32>
  %min = arith.select %slt, %a, %b : tensor<8xi1>, tensor<8xi32>
  %p21 = tile.addptr %p20, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p21, %slt32 : tensor<8x!tile.ptr<i32>>
  %p22 = tile.addptr %p21, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p22, %ult32 : tensor<8x!tile.ptr<i32>>
  %p23 = tile.addptr %p22, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %p23, %min : tensor<8x!tile.ptr<i32>>
  tile.return
}

// i64 wraps at 64 bits; i1 arithmetic is modulo 2 and signed i1 true is
// -1; casts extend, truncate and convert. Floats convert to integers
// rounding toward zero and saturating, NaN giving 0 (PTX's cvt.rzi);
// integers convert to floats rounding to nearest even.

// RUN: tile-run %s --kernel casts --grid 1 --arg 'i64[4x4]=zeros' \
// RUN:   --arg 'i32[6x4]=zeros' --arg 'f32[2x4]=zeros' \
// RUN:   --out 0=%t.i64.npy --out 1=%t.c32.npy --out 2=%t.f32.npy > /dev/null
// RUN: %reference print %t.i64.npy | FileCheck %s --check-prefix=I64
// RUN: %reference print %t.c32.npy | FileCheck %s --check-prefix=C32
// RUN: %reference print %t.f32.npy | FileCheck %s --check-prefix=F32
// I64:      i64[4x4]
// addi wraps at 64 bits, then extsi and extui of i32 [-1, MAX, MIN, 3]
// I64-NEXT: -9223372036854775808 9223372036854775807 6 -6
// I64-NEXT: -1 2147483647 -2147483648 3
// I64-NEXT: 4294967295 2147483647 2147483648 3
// I64-NEXT: 4294967297 -4294967296 2147483648 -1
// C32:      i32[6x4]
// trunci of i64 [2^32 + 1, -2^32, 2^31, -1], then the same through index
// C32-NEXT: 1 0 -2147483648 -1
// C32-NEXT: 1 0 -2147483648 -1
// i1: addi [t, t, f, f] + [t, f, t, f] then extsi; cmpi slt on i1 (true,
// -1, is less than false, 0) then extui
// C32-NEXT: 0 -1 -1 0
// C32-NEXT: 0 1 0 0
// fptosi [1e10, -1e10, nan, -2.7], fptoui [-1.0, 5e9, 3.9, nan]
// C32-NEXT: 2147483647 -2147483648 0 -2
// C32-NEXT: 0 -1 3 0
// F32:      f32[2x4]
// sitofp and uitofp of i32 [2^24 + 1, -1, MAX, -(2^24 + 3)]
// F32-NEXT: 16777216.0 -1.0 2147483600.0 -16777220.0
// F32-NEXT: 16777216.0 4294967300.0 2147483600.0 4278190000.0

tile.func @casts(%out64: !tile.ptr<i64>, %out32: !tile.ptr<i32>,
                 %outf: !tile.ptr<f32>) {
  %row0 = tile.range 0, 4 : tensor<4xi32>
  %four = arith.constant dense<4> : tensor<4xi32>
  %row1 = arith.addi %row0, %four : tensor<4xi32>
  %row2 = arith.addi %row1, %four : tensor<4xi32>
  %row3 = arith.addi %row2, %four : tensor<4xi32>
  %row4 = arith.addi %row3, %four : tensor<4xi32>

  %b64 = tile.splat %out64 : !tile.ptr<i64> -> tensor<4x!tile.ptr<i64>>
  %q0 = tile.addptr %b64, %row0 : tensor<4x!tile.ptr<i64>>, tensor<4xi32>
  %q1 = tile.addptr %b64, %row1 : tensor<4x!tile.ptr<i64>>, tensor<4xi32>
  %q2 = tile.addptr %b64, %row2 : tensor<4x!tile.ptr<i64>>, tensor<4xi32>
  %q3 = tile.addptr %b64, %row3 : tensor<4x!tile.ptr<i64>>, tensor<4xi32>
  %x64 = arith.constant dense<[9223372036854775807, -9223372036854775808, 5, -5]> : tensor<4xi64>
  %y64 = arith.constant dense<[1, -1, 1, -1]> : tensor<4xi64>
  %sum64 = arith.addi %x64, %y64 : tensor<4xi64>
  tile.store %q0, %sum64 : tensor<4x!tile.ptr<i64>>
  %x32 = arith.constant dense<[-1, 2147483647, -2147483648, 3]> : tensor<4xi32>
  %sext = arith.extsi %x32 : tensor<4xi32> to tensor<4xi64>
  tile.store %q1, %sext : tensor<4x!tile.ptr<i64>>
  %zext = arith.extui %x32 : tensor<4xi32> to tensor<4xi64>
  tile.store %q2, %zext : tensor<4x!tile.ptr<i64>>
  %big = arith.constant dense<[4294967297, -4294967296, 2147483648, -1]> : tensor<4xi64>
  tile.store %q3, %big : tensor<4x!tile.ptr<i64>>

  %b32 = tile.splat %out32 : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %r0 = tile.addptr %b32, %row0 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %r2 = tile.addptr %b32, %row2 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %r3 = tile.addptr %b32, %row3 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %r4 = tile.addptr %b32, %row4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %trunc = arith.trunci %big : tensor<4xi64> to tensor<4xi32>
  tile.store %r0, %trunc : tensor<4x!tile.ptr<i32>>

  // Row 1, one scalar at a time: load %big back (row 3 of %out64), cast it
  // to index and to i32, store it; the loop counts in index.
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : i32
  %from = tile.addptr %out64, %c12 : !tile.ptr<i64>, i32
  %c4i = arith.constant 4 : i32
  %to = tile.addptr %out32, %c4i : !tile.ptr<i32>, i32
  scf.for %i = %c0 to %c4 step %c1 {
    %i64 = arith.index_cast %i : index to i64
    %src = tile.addptr %from, %i64 : !tile.ptr<i64>, i64
    %v = tile.load %src : !tile.ptr<i64>
    %vi = arith.index_cast %v : i64 to index
    %v32 = arith.index_cast %vi : index to i32
    %dst = tile.addptr %to, %i64 : !tile.ptr<i32>, i64
    tile.store %dst, %v32 : !tile.ptr<i32>
  }

  %t = arith.constant dense<[true, true, false, false]> : tensor<4xi1>
  %u = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %sum1 = arith.addi %t, %u : tensor<4xi1>
  %sum1x = arith.extsi %sum1 : tensor<4xi1> to tensor<4xi32>
  tile.store %r2, %sum1x : tensor<4x!tile.ptr<i32>>
  %lt1 = arith.cmpi slt, %t, %u : tensor<4xi1>
  %lt1x = arith.extui %lt1 : tensor<4xi1> to tensor<4xi32>
  tile.store %r3, %lt1x : tensor<4x!tile.ptr<i32>>

  %fs = arith.constant dense<[1.0e10, -1.0e10, 0x7FC00000, -2.7]> : tensor<4xf32>
  %fsi = arith.fptosi %fs : tensor<4xf32> to tensor<4xi32>
  tile.store %r4, %fsi : tensor<4x!tile.ptr<i32>>
  %fu = arith.constant dense<[-1.0, 5.0e9, 3.9, 0x7FC00000]> : tensor<4xf32>
  %fui = arith.fptoui %fu : tensor<4xf32> to tensor<4xi32>
  %row5 = arith.addi %row4, %four : tensor<4xi32>
  %r5 = tile.addptr %b32, %row5 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %r5, %fui : tensor<4x!tile.ptr<i32>>

  %bf = tile.splat %outf : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %f0 = tile.addptr %bf, %row0 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %f1 = tile.addptr %bf, %row1 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %ints = arith.constant dense<[16777217, -1, 2147483647, -16777219]> : tensor<4xi32>
  %sf = arith.sitofp %ints : tensor<4xi32> to tensor<4xf32>
  tile.store %f0, %sf : tensor<4x!tile.ptr<f32>>
  %uf = arith.uitofp %ints : tensor<4xi32> to tensor<4xf32>
  tile.store %f1, %uf : tensor<4x!tile.ptr<f32>>
  tile.return
}
