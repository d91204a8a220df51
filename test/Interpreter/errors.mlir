// Runtime errors stop the run with a diagnostic on the op's line and a note
// naming the program, and tile-run exits 1: out-of-bounds accesses (through
// a pointer's provenance), divisions by zero, signed division overflow,
// over-wide shifts, non-positive loop steps, pointer arithmetic overflow,
// broken divisibility promises; unsupported ops and types are refused
// before anything runs.

// RUN: not tile-run %s --kernel store_2d --grid 2 --arg 'f32[4x8]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STORE -DFILE=%s
// STORE: [[FILE]]:[[@LINE+18]]:3: error: out-of-bounds tile.store: buffer 0 (f32[4x8]) has 32 elements, lane (1, 0) accesses element 32
// STORE-NEXT: tile.store %ptrs, %zeros
// STORE-NEXT: ^
// STORE-NEXT: [[FILE]]:[[@LINE+4]]:1: note: in program (1, 0, 0) of @store_2d, grid (2, 1, 1)
// STORE-NOT: error

// Program 1 writes rows 3 and 4 of a 4-row buffer: row 4 is out of bounds.
tile.func @store_2d(%out: !tile.ptr<f32>) {
  %pid = tile.program_id x : i32
  %c24 = arith.constant dense<24> : tensor<2x8xi32>
  %pids = tile.splat %pid : i32 -> tensor<2x8xi32>
  %first = arith.muli %pids, %c24 : tensor<2x8xi32>
  %i = tile.range 0, 16 : tensor<16xi32>
  %lanes = tile.splat %out : !tile.ptr<f32> -> tensor<2x8x!tile.ptr<f32>>
  %zeros = arith.constant dense<0.0> : tensor<2x8xf32>
  %offsets = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<2x8xi32>
  %all = arith.addi %first, %offsets : tensor<2x8xi32>
  %ptrs = tile.addptr %lanes, %all : tensor<2x8x!tile.ptr<f32>>, tensor<2x8xi32>
  tile.store %ptrs, %zeros : tensor<2x8x!tile.ptr<f32>>
  tile.return
}

// A scalar load before the start of the buffer.
// RUN: not tile-run %s --kernel load_scalar --grid 1 --arg 'i64[3]=zeros' --arg 'i64[1]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOAD -DFILE=%s
tile.func @load_scalar(%in: !tile.ptr<i64>, %out: !tile.ptr<i64>) {
  %c = arith.constant -1 : i32
  %p = tile.addptr %in, %c : !tile.ptr<i64>, i32
  // LOAD: [[FILE]]:[[@LINE+1]]:8: error: out-of-bounds tile.load: buffer 0 (i64[3]) has 3 elements, the pointer accesses element -1
  %v = tile.load %p : !tile.ptr<i64>
  tile.store %out, %v : !tile.ptr<i64>
  tile.return
}

// Integer division by zero, signed overflow and wide shifts.
// RUN: not tile-run %s --kernel div --grid 1 --arg i32=0 2>&1 | FileCheck %s --check-prefix=DIV -DFILE=%s
// RUN: not tile-run %s --kernel div --grid 1 --arg i32=-1 2>&1 | FileCheck %s --check-prefix=OVERFLOW -DFILE=%s
// RUN: not tile-run %s --kernel rem --grid 1 2>&1 | FileCheck %s --check-prefix=REM -DFILE=%s
// RUN: not tile-run %s --kernel shift --grid 1 --arg i32=32 2>&1 | FileCheck %s --check-prefix=SHIFT -DFILE=%s
// RUN: tile-run %s --kernel shift --grid 1 --arg i32=31
tile.func @div(%d: i32) {
  %a = arith.constant dense<[5, -2147483648, 7, 9]> : tensor<4xi32>
  %b = tile.splat %d : i32 -> tensor<4xi32>
  // DIV: [[FILE]]:[[@LINE+2]]:8: error: division by zero in 'arith.divsi' at lane 0
  // OVERFLOW: [[FILE]]:[[@LINE+1]]:8: error: signed overflow in 'arith.divsi' at lane 1: -2147483648 / -1 does not fit in i32
  %q = arith.divsi %a, %b : tensor<4xi32>
  tile.return
}
tile.func @rem() {
  %a = arith.constant dense<[5, -2147483648, 7, 9]> : tensor<4xi32>
  %b = arith.constant dense<[1, 2, 0, 3]> : tensor<4xi32>
  // REM: [[FILE]]:[[@LINE+1]]:8: error: division by zero in 'arith.remui' at lane 2
  %r = arith.remui %a, %b : tensor<4xi32>
  tile.return
}
tile.func @shift(%d: i32) {
  // SHIFT: [[FILE]]:[[@LINE+1]]:8: error: shift amount 32 in 'arith.shli' is not less than the bit width 32
  %s = arith.shli %d, %d : i32
  tile.return
}

// A loop whose step is not positive.
// RUN: not tile-run %s --kernel loop --grid 1 --arg i32=0 2>&1 | FileCheck %s --check-prefix=STEP -DFILE=%s
tile.func @loop(%step: i32) {
  %c0 = arith.constant 0 : i32
  %c9 = arith.constant 9 : i32
  // STEP: [[FILE]]:[[@LINE+1]]:3: error: scf.for step must be positive, got 0
  scf.for %i = %c0 to %c9 step %step : i32 {
  }
  tile.return
}

// Pointer offsets that overflow 64 bits.
// RUN: not tile-run %s --kernel far --grid 1 --arg 'f32[4]=zeros' 2>&1 | FileCheck %s --check-prefix=FAR -DFILE=%s
tile.func @far(%p: !tile.ptr<f32>) {
  %max = arith.constant 9223372036854775807 : i64
  %one = arith.constant 1 : i64
  %q = tile.addptr %p, %one : !tile.ptr<f32>, i64
  // FAR: [[FILE]]:[[@LINE+1]]:8: error: pointer arithmetic overflows in tile.addptr at the pointer: 1 + 9223372036854775807
  %r = tile.addptr %q, %max : !tile.ptr<f32>, i64
  tile.return
}

// A kernel that promises a multiple of 16 and gets 20.
// RUN: not tile-run %s --kernel promise --grid 1 --arg i32=20 2>&1 | FileCheck %s --check-prefix=PROMISE -DFILE=%s
// RUN: tile-run %s --kernel promise --grid 1 --arg i32=32
// PROMISE: [[FILE]]:[[@LINE+1]]:1: error: argument 0 is 20, which breaks its promise 'tile.divisibility = 16'
tile.func @promise(%n: i32 {tile.divisibility = 16 : i64}) {
  tile.return
}

// Refused before running: an op the interpreter does not implement, a type
// it does not hold, a tile larger than its limit.
// RUN: not tile-run %s --kernel unsupported_op --grid 1 --arg f32=2 2>&1 | FileCheck %s --check-prefix=OP -DFILE=%s
// RUN: not tile-run %s --kernel unsupported_type --grid 1 2>&1 | FileCheck %s --check-prefix=TYPE -DFILE=%s
// RUN: not tile-run %s --kernel huge --grid 1 2>&1 | FileCheck %s --check-prefix=HUGE -DFILE=%s
// OP-NOT: ran on
// TYPE-NOT: ran on
// HUGE-NOT: ran on
tile.func @unsupported_op(%x: f32) {
  %c = arith.constant 3 : i32
  // OP: [[FILE]]:[[@LINE+1]]:8: error: the interpreter does not support 'math.fpowi'
  %y = math.fpowi %x, %c : f32, i32
  tile.return
}
tile.func @unsupported_type() {
  // TYPE: [[FILE]]:[[@LINE+1]]:8: error: the interpreter does not support values of type 'f64'
  %c = arith.constant 1.0 : f64
  tile.return
}
tile.func @huge() {
  // HUGE: [[FILE]]:[[@LINE+1]]:8: error: the tile 'tensor<33554432xi32>' has 33554432 elements; the interpreter handles tiles of up to 16777216
  %r = tile.range 0, 33554432 : tensor<33554432xi32>
  tile.return
}
