// scf on the interpreter: scf.for over i32, i64 and index induction
// variables, with tile iter_args, loops that run zero times and loops with
// negative bounds; scf.if with and without results.

// RUN: tile-run %s --grid 1 --arg 'i32[16]=zeros' --arg i32=5 --arg i1=true \
// RUN:   --out 0=%t.npy > /dev/null
// RUN: %reference print %t.npy | FileCheck %s
// RUN: tile-run %s --grid 1 --arg 'i32[16]=zeros' --arg i32=0 --arg i1=false \
// RUN:   --out 0=%t.zero.npy > /dev/null
// RUN: %reference print %t.zero.npy | FileCheck %s --check-prefix=ZERO
// Lanes 0-3: the sum of i over [0, n) in each of 4 lanes plus the lane
// number, carried as a tile; 4: the trip count of an index loop from -7 to
// n by 3; 5: a loop over i64 from 2^40 to 2^40 + n; 6: scf.if on %flag
// (100 or 200); 7: an scf.if without else that stores 1 when n > 3;
// 8-15: untouched.
// CHECK:      i32[16]
// CHECK-NEXT: 10 11 12 13 4 5 100 1 0 0 0 0 0 0 0 0
// ZERO:       i32[16]
// ZERO-NEXT:  0 1 2 3 3 0 200 0 0 0 0 0 0 0 0 0

tile.func @loops(%out: !tile.ptr<i32>, %n: i32, %flag: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %lanes = tile.range 0, 4 : tensor<4xi32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %lanes) -> (tensor<4xi32>) : i32 {
    %is = tile.splat %i : i32 -> tensor<4xi32>
    %next = arith.addi %acc, %is : tensor<4xi32>
    scf.yield %next : tensor<4xi32>
  }
  %base = tile.splat %out : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %ptrs = tile.addptr %base, %lanes : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %ptrs, %sum : tensor<4x!tile.ptr<i32>>

  %lo = arith.constant -7 : index
  %step = arith.constant 3 : index
  %hi = arith.index_cast %n : i32 to index
  %trips = scf.for %i = %lo to %hi step %step iter_args(%t = %c0) -> (i32) {
    %t1 = arith.addi %t, %c1 : i32
    scf.yield %t1 : i32
  }
  %c4 = arith.constant 4 : i32
  %p4 = tile.addptr %out, %c4 : !tile.ptr<i32>, i32
  tile.store %p4, %trips : !tile.ptr<i32>

  %big = arith.constant 1099511627776 : i64
  %one = arith.constant 1 : i64
  %n64 = arith.extsi %n : i32 to i64
  %end = arith.addi %big, %n64 : i64
  %count = scf.for %i = %big to %end step %one iter_args(%t = %c0) -> (i32) : i64 {
    %t1 = arith.addi %t, %c1 : i32
    scf.yield %t1 : i32
  }
  %p5 = tile.addptr %p4, %c1 : !tile.ptr<i32>, i32
  tile.store %p5, %count : !tile.ptr<i32>

  %chosen = scf.if %flag -> (i32) {
    %a = arith.constant 100 : i32
    scf.yield %a : i32
  } else {
    %b = arith.constant 200 : i32
    scf.yield %b : i32
  }
  %p6 = tile.addptr %p5, %c1 : !tile.ptr<i32>, i32
  tile.store %p6, %chosen : !tile.ptr<i32>

  %c3 = arith.constant 3 : i32
  %more = arith.cmpi sgt, %n, %c3 : i32
  scf.if %more {
    %p7 = tile.addptr %p6, %c1 : !tile.ptr<i32>, i32
    tile.store %p7, %c1 : !tile.ptr<i32>
  }
  tile.return
}
