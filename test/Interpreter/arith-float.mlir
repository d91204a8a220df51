// Float arith and math on the interpreter, in f32, on IEEE's special
// values: signed zeros, infinities and NaN. maximumf and minimumf propagate
// NaN and order -0 below +0; maxnumf and minnumf return the number when the
// other operand is NaN. Comparisons follow their ordered (o) or unordered
// (u) predicate. Each result is one row of 8 lanes.

// RUN: tile-run %s --kernel f32_ops --grid 1 --arg 'f32[21x8]=zeros' \
// RUN:   --arg 'i32[7x8]=zeros' --out 0=%t.f.npy --out 1=%t.c.npy > /dev/null
// RUN: %reference print %t.f.npy | FileCheck %s --check-prefix=F32
// RUN: %reference print %t.c.npy | FileCheck %s --check-prefix=CMP
// F32:      f32[21x8]
// x, then x op y with y = [0.5, 2.0, -0.0, 0.0, 1.0, inf, 1.0, nan]
// F32-NEXT: 1.5 -2.5 0.0 -0.0 inf -inf nan 3.0
// addf, subf, mulf, divf, remf
// F32-NEXT: 2.0 -0.5 0.0 0.0 inf nan nan nan
// F32-NEXT: 1.0 -4.5 0.0 -0.0 inf -inf nan nan
// F32-NEXT: 0.75 -5.0 -0.0 -0.0 inf -inf nan nan
// F32-NEXT: 3.0 -1.25 nan nan inf nan nan nan
// F32-NEXT: 0.0 -0.5 nan nan nan nan nan nan
// maximumf, minimumf, maxnumf, minnumf
// F32-NEXT: 1.5 2.0 0.0 0.0 inf inf nan nan
// F32-NEXT: 0.5 -2.5 -0.0 -0.0 1.0 -inf nan nan
// F32-NEXT: 1.5 2.0 0.0 0.0 inf inf 1.0 3.0
// F32-NEXT: 0.5 -2.5 -0.0 -0.0 1.0 -inf 1.0 3.0
// negf x; select (x olt y), x, y
// F32-NEXT: -1.5 2.5 -0.0 0.0 -inf inf nan -3.0
// F32-NEXT: 0.5 -2.5 -0.0 0.0 1.0 -inf 1.0 nan
// math floor, ceil, round, roundeven, trunc, absf of
// [2.5, -2.5, 0.5, -0.5, 1.5, -0.0, inf, nan]
// F32-NEXT: 2.0 -3.0 0.0 -1.0 1.0 -0.0 inf nan
// F32-NEXT: 3.0 -2.0 1.0 -0.0 2.0 -0.0 inf nan
// F32-NEXT: 3.0 -3.0 1.0 -1.0 2.0 -0.0 inf nan
// F32-NEXT: 2.0 -2.0 0.0 -0.0 2.0 -0.0 inf nan
// F32-NEXT: 2.0 -2.0 0.0 -0.0 1.0 -0.0 inf nan
// F32-NEXT: 2.5 2.5 0.5 0.5 1.5 0.0 inf nan
// math.sqrt of [2.25, 0, -0, -1, inf, 4, 2, nan]
// F32-NEXT: 1.5 0.0 -0.0 nan inf 2.0 1.4142135 nan
// tile.exp and math.exp of [0, -inf, inf, nan, 1, 89, -103, -1]: 89
// overflows, -103 gives the smallest subnormal
// F32-NEXT: 1.0 0.0 inf nan 2.7182817 inf 1e-45 0.36787945
// F32-NEXT: 1.0 0.0 inf nan 2.7182817 inf 1e-45 0.36787945

// CMP:      i32[7x8]
// CMP-NEXT: 0 0 0 0 0 0 0 0
// olt, ult, oeq, une, uno, oge
// CMP-NEXT: 0 1 0 0 0 1 0 0
// CMP-NEXT: 0 1 0 0 0 1 1 1
// CMP-NEXT: 0 0 1 1 0 0 0 0
// CMP-NEXT: 1 1 0 0 1 1 1 1
// CMP-NEXT: 0 0 0 0 0 0 1 1
// CMP-NEXT: 1 0 1 1 1 0 0 0

tile.func @f32_ops(%out: !tile.ptr<f32>, %cmp: !tile.ptr<i32>) {
  %x = arith.constant dense<[1.5, -2.5, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.0]> : tensor<8xf32>
  %y = arith.constant dense<[0.5, 2.0, -0.0, 0.0, 1.0, 0x7F800000, 1.0, 0x7FC00000]> : tensor<8xf32>
  %v = arith.constant dense<[2.5, -2.5, 0.5, -0.5, 1.5, -0.0, 0x7F800000, 0x7FC00000]> : tensor<8xf32>
  %w = arith.constant dense<[2.25, 0.0, -0.0, -1.0, 0x7F800000, 4.0, 2.0, 0x7FC00000]> : tensor<8xf32>
  %e = arith.constant dense<[0.0, 0xFF800000, 0x7F800000, 0x7FC00000, 1.0, 89.0, -103.0, -1.0]> : tensor<8xf32>
  %eight = arith.constant dense<8> : tensor<8xi32>
  %lanes = tile.range 0, 8 : tensor<8xi32>
  %base = tile.splat %out : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %p0 = tile.addptr %base, %lanes : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p0, %x : tensor<8x!tile.ptr<f32>>
  %addf = arith.addf %x, %y : tensor<8xf32>
  %p1 = tile.addptr %p0, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p1, %addf : tensor<8x!tile.ptr<f32>>
  %subf = arith.subf %x, %y : tensor<8xf32>
  %p2 = tile.addptr %p1, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p2, %subf : tensor<8x!tile.ptr<f32>>
  %mulf = arith.mulf %x, %y : tensor<8xf32>
  %p3 = tile.addptr %p2, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p3, %mulf : tensor<8x!tile.ptr<f32>>
  %divf = arith.divf %x, %y : tensor<8xf32>
  %p4 = tile.addptr %p3, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p4, %divf : tensor<8x!tile.ptr<f32>>
  %remf = arith.remf %x, %y : tensor<8xf32>
  %p5 = tile.addptr %p4, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p5, %remf : tensor<8x!tile.ptr<f32>>
  %maximumf = arith.maximumf %x, %y : tensor<8xf32>
  %p6 = tile.addptr %p5, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p6, %maximumf : tensor<8x!tile.ptr<f32>>
  %minimumf = arith.minimumf %x, %y : tensor<8xf32>
  %p7 = tile.addptr %p6, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p7, %minimumf : tensor<8x!tile.ptr<f32>>
  %maxnumf = arith.maxnumf %x, %y : tensor<8xf32>
  %p8 = tile.addptr %p7, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p8, %maxnumf : tensor<8x!tile.ptr<f32>>
  %minnumf = arith.minnumf %x, %y : tensor<8xf32>
  %p9 = tile.addptr %p8, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p9, %minnumf : tensor<8x!tile.ptr<f32>>
  %negf = arith.negf %x : tensor<8xf32>
  %p10 = tile.addptr %p9, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p10, %negf : tensor<8x!tile.ptr<f32>>
  %lt = arith.cmpf olt, %x, %y : tensor<8xf32>
  %sel = arith.select %lt, %x, %y : tensor<8xi1>, tensor<8xf32>
  %p11 = tile.addptr %p10, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p11, %sel : tensor<8x!tile.ptr<f32>>
  %floor = math.floor %v : tensor<8xf32>
  %p12 = tile.addptr %p11, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p12, %floor : tensor<8x!tile.ptr<f32>>
  %ceil = math.ceil %v : tensor<8xf32>
  %p13 = tile.addptr %p12, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p13, %ceil : tensor<8x!tile.ptr<f32>>
  %round = math.round %v : tensor<8xf32>
  %p14 = tile.addptr %p13, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p14, %round : tensor<8x!tile.ptr<f32>>
  %roundeven = math.roundeven %v : tensor<8xf32>
  %p15 = tile.addptr %p14, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p15, %roundeven : tensor<8x!tile.ptr<f32>>
  %trunc = math.trunc %v : tensor<8xf32>
  %p16 = tile.addptr %p15, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p16, %trunc : tensor<8x!tile.ptr<f32>>
  %absf = math.absf %v : tensor<8xf32>
  %p17 = tile.addptr %p16, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p17, %absf : tensor<8x!tile.ptr<f32>>
  %sqrt = math.sqrt %w : tensor<8xf32>
  %p18 = tile.addptr %p17, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p18, %sqrt : tensor<8x!tile.ptr<f32>>
  %texp = tile.exp %e : tensor<8xf32>
  %p19 = tile.addptr %p18, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p19, %texp : tensor<8x!tile.ptr<f32>>
  %mexp = math.exp %e : tensor<8xf32>
  %p20 = tile.addptr %p19, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %p20, %mexp : tensor<8x!tile.ptr<f32>>
  %cbase = tile.splat %cmp : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %q0 = tile.addptr %cbase, %lanes : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  %colt = arith.cmpf olt, %x, %y : tensor<8xf32>
  %iolt = arith.extui %colt : tensor<8xi1> to tensor<8xi32>
  %q1 = tile.addptr %q0, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %q1, %iolt : tensor<8x!tile.ptr<i32>>
  %cult = arith.cmpf ult, %x, %y : tensor<8xf32>
  %iult = arith.extui %cult : tensor<8xi1> to tensor<8xi32>
  %q2 = tile.addptr %q1, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %q2, %iult : tensor<8x!tile.ptr<i32>>
  %coeq = arith.cmpf oeq, %x, %y : tensor<8xf32>
  %ioeq = arith.extui %coeq : tensor<8xi1> to tensor<8xi32>
  %q3 = tile.addptr %q2, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %q3, %ioeq : tensor<8x!tile.ptr<i32>>
  %cune = arith.cmpf une, %x, %y : tensor<8xf32>
  %iune = arith.extui %cune : tensor<8xi1> to tensor<8xi32>
  %q4 = tile.addptr %q3, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %q4, %iune : tensor<8x!tile.ptr<i32>>
  %cuno = arith.cmpf uno, %x, %y : tensor<8xf32>
  %iuno = arith.extui %cuno : tensor<8xi1> to tensor<8xi32>
  %q5 = tile.addptr %q4, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %q5, %iuno : tensor<8x!tile.ptr<i32>>
  %coge = arith.cmpf oge, %x, %y : tensor<8xf32>
  %ioge = arith.extui %coge : tensor<8xi1> to tensor<8xi32>
  %q6 = tile.addptr %q5, %eight : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %q6, %ioge : tensor<8x!tile.ptr<i32>>
  tile.return
}
