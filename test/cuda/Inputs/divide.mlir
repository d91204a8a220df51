// Quotients and remainders, signed and unsigned, of count dividends
// n0 + i * stride (wrapping) by one divisor d, in a loop: on the GPU the
// divisions become multiplies by d's magic (tile-strength-reduce-divisions);
// the interpreter divides. INT_MIN / -1, undefined, is replaced by 0 / -1.
tile.func @divide(%out: !tile.ptr<i32>, %n0: i32, %stride: i32, %d: i32, %count: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %imin = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  scf.for %i = %c0 to %count step %c1 : i32 {
    %x = arith.muli %i, %stride : i32
    %n0i = arith.addi %n0, %x : i32
    %is_min = arith.cmpi eq, %n0i, %imin : i32
    %is_m1 = arith.cmpi eq, %d, %m1 : i32
    %bad = arith.andi %is_min, %is_m1 : i1
    %n = arith.select %bad, %c0, %n0i : i32
    %qs = arith.divsi %n, %d : i32
    %rs = arith.remsi %n, %d : i32
    %qu = arith.divui %n, %d : i32
    %ru = arith.remui %n, %d : i32
    %base = arith.muli %i, %c4 : i32
    %p0 = tile.addptr %out, %base : !tile.ptr<i32>, i32
    tile.store %p0, %qs : !tile.ptr<i32>
    %p1 = tile.addptr %p0, %c1 : !tile.ptr<i32>, i32
    tile.store %p1, %rs : !tile.ptr<i32>
    %p2 = tile.addptr %p1, %c1 : !tile.ptr<i32>, i32
    tile.store %p2, %qu : !tile.ptr<i32>
    %p3 = tile.addptr %p2, %c1 : !tile.ptr<i32>, i32
    tile.store %p3, %ru : !tile.ptr<i32>
  }
  tile.return
}
