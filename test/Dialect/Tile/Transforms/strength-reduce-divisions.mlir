// RUN: tile-opt %s --split-input-file --tile-strength-reduce-divisions | FileCheck %s

// A signed quotient and remainder by a loop-invariant divisor: one magic
// (of |d|, from max(|d|, 1)) before the loop, shared by both; in the loop
// a high multiply and two shifts of |n|, the sign of n xor d, and the
// remainder n - q * d. No division is left in the loop.

// CHECK-LABEL: tile.func @signed
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i32>, %[[N:.*]]: i32, %[[D:.*]]: i32)
// CHECK: %[[DNEG:.*]] = arith.cmpi slt, %[[D]], %c0
// CHECK: %[[DABS:.*]] = arith.select %[[DNEG]], %{{.*}}, %[[D]]
// CHECK: %[[DIV:.*]] = arith.maxui %[[DABS]], %c1
// CHECK: %[[BELOW:.*]] = arith.subi %[[DIV]], %c1
// CHECK: %[[CLZ:.*]] = math.ctlz %[[BELOW]]
// CHECK: %[[L:.*]] = arith.subi %c32{{.*}}, %[[CLZ]]
// CHECK: arith.divui {{.*}} : i64
// CHECK: %[[M:.*]] = arith.addi %{{.*}}, %c1
// CHECK: %[[S1:.*]] = arith.minui %[[L]], %c1
// CHECK: %[[S2:.*]] = arith.subi %[[L]], %[[S1]]
// CHECK-NOT: math.ctlz
// CHECK: scf.for %[[I:.*]] =
// CHECK-NOT: arith.divsi
// CHECK-NOT: arith.remsi
// CHECK: %[[NABS:.*]] = arith.select
// CHECK: %[[LOW:.*]], %[[HIGH:.*]] = arith.mului_extended %[[M]], %[[NABS]]
// CHECK: %[[DIFF:.*]] = arith.subi %[[NABS]], %[[HIGH]]
// CHECK: %[[HALF:.*]] = arith.shrui %[[DIFF]], %[[S1]]
// CHECK: %[[SUM:.*]] = arith.addi %[[HIGH]], %[[HALF]]
// CHECK: %[[Q:.*]] = arith.shrui %[[SUM]], %[[S2]]
// CHECK: %[[SIGNS:.*]] = arith.xori %{{.*}}, %[[D]]
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[SIGNS]]
// CHECK: %[[QS:.*]] = arith.select %[[NEG]], %{{.*}}, %[[Q]]
// CHECK: tile.store {{.*}}, %[[QS]]
// The remainder reuses the magic: no second ctlz.
// CHECK: arith.mului_extended %[[M]]
// CHECK: %[[QD:.*]] = arith.muli %{{.*}}, %[[D]]
// CHECK: %[[R:.*]] = arith.subi %{{.*}}, %[[QD]]
// CHECK: tile.store {{.*}}, %[[R]]
tile.func @signed(%p: !tile.ptr<i32>, %n: i32, %d: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = arith.addi %i, %n : i32
    %q = arith.divsi %x, %d : i32
    %pq = tile.addptr %p, %i : !tile.ptr<i32>, i32
    tile.store %pq, %q : !tile.ptr<i32>
    %r = arith.remsi %x, %d : i32
    %pr = tile.addptr %pq, %n : !tile.ptr<i32>, i32
    tile.store %pr, %r : !tile.ptr<i32>
  }
  tile.return
}

// -----

// Unsigned: no magnitudes, no sign. The magic goes before the outermost
// loop the divisor is invariant in.

// CHECK-LABEL: tile.func @unsigned
// CHECK: math.ctlz
// CHECK: scf.for
// CHECK-NOT: math.ctlz
// CHECK: scf.for
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.select
// CHECK: arith.mului_extended
// CHECK-NOT: arith.xori
// CHECK: tile.store
tile.func @unsigned(%p: !tile.ptr<i32>, %n: i32, %d: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %j = %c0 to %n step %c1 : i32 {
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = arith.muli %i, %j : i32
      %q = arith.divui %x, %d : i32
      %pq = tile.addptr %p, %i : !tile.ptr<i32>, i32
      tile.store %pq, %q : !tile.ptr<i32>
    }
  }
  tile.return
}

// -----

// Left alone: a constant divisor (LLVM's), a divisor computed in the
// loop, a division outside any loop, and i64.

// CHECK-LABEL: tile.func @left_alone
// CHECK-NOT: math.ctlz
// CHECK: arith.divsi %{{.*}}, %c7
// CHECK: arith.divsi %{{.*}}, %[[INNER:.*]] : i32
// CHECK: arith.divsi {{.*}} : i64
// CHECK: arith.divsi {{.*}} : i32
tile.func @left_alone(%p: !tile.ptr<i32>, %n: i32, %d: i32, %w: i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = arith.divsi %i, %c7 : i32
    %inner = arith.addi %d, %i : i32
    %b = arith.divsi %a, %inner : i32
    %i64 = arith.extsi %i : i32 to i64
    %c = arith.divsi %i64, %w : i64
    %c32 = arith.trunci %c : i64 to i32
    %s = arith.addi %b, %c32 : i32
    %pq = tile.addptr %p, %i : !tile.ptr<i32>, i32
    tile.store %pq, %s : !tile.ptr<i32>
  }
  %outside = arith.divsi %n, %d : i32
  tile.store %p, %outside : !tile.ptr<i32>
  tile.return
}

// -----

// MLIR's integer range analysis knows the step (from 0), the program id
// (at least 0) and the program count (at least 1), and max(x, 1) >= 1: a
// signed division of non-negative values by positive ones divides as an
// unsigned one, without magnitudes or a sign. A divisor it cannot bound
// keeps them.

// CHECK-LABEL: tile.func @known_ranges
// CHECK: scf.for
// CHECK: %[[H1:.*]] = arith.mului_extended
// CHECK-NOT: arith.xori
// CHECK: tile.store
// CHECK: arith.mului_extended
// CHECK-NOT: arith.xori
// CHECK: tile.store
// CHECK: arith.mului_extended
// CHECK: arith.xori
// CHECK: tile.store
tile.func @known_ranges(%p: !tile.ptr<i32>, %n: i32, %d: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %pid = tile.program_id x : i32
  %programs = tile.num_programs x : i32
  %d1 = arith.maxsi %d, %c1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = arith.divsi %i, %programs : i32
    %pa = tile.addptr %p, %i : !tile.ptr<i32>, i32
    tile.store %pa, %a : !tile.ptr<i32>
    %b = arith.remsi %pid, %d1 : i32
    %pb = tile.addptr %pa, %n : !tile.ptr<i32>, i32
    tile.store %pb, %b : !tile.ptr<i32>
    %c = arith.divsi %i, %d : i32
    %pc = tile.addptr %pb, %n : !tile.ptr<i32>, i32
    tile.store %pc, %c : !tile.ptr<i32>
  }
  tile.return
}
