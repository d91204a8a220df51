// The axis analysis: contiguity, divisibility and constancy.
// RUN: tile-opt %s --tile-test-print-axis-info --split-input-file --verify-diagnostics

tile.func @basics(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                  %n: i32 {tile.divisibility = 8 : i64}, %m: i32) {
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 1024 : tensor<1024xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %r16 = tile.range 16, 32 : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1024]}}
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1024]}}
  %ms = tile.splat %m : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [8], constancy = [1]}}
  %sum = arith.addi %r, %ns : tensor<1024xi32>
  // n, n - 1, n - 2, ...: no run, and only every eighth element a multiple
  // of 8 (this once said 8 for every element).
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %neg = arith.subi %ns, %r : tensor<1024xi32>
  // 0, 8, 16, ...: a run times something other than 1 is no run, and each
  // element is a multiple of 8 only.
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %prod = arith.muli %r, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8]}}
  %mask = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %mask2 = arith.cmpi slt, %r, %ms : tensor<1024xi32>
  // `r >= n` and `n > r` change where r reaches n, a multiple of 8; `r <= n`,
  // `r > n` and `n < r` where r reaches n + 1 (found by random kernels on
  // the GPU: a mask `col <= row + k` held over pairs of columns stored
  // elements past it); `r == n` and `r != n` at n and n + 1.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8]}}
  %ge = arith.cmpi sge, %r, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8]}}
  %gt_swapped = arith.cmpi ugt, %ns, %r : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %le = arith.cmpi sle, %r, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %gt = arith.cmpi sgt, %r, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %lt_swapped = arith.cmpi slt, %ns, %r : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %eq = arith.cmpi eq, %r, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  // Offsets count elements: 8 f32 elements are 32 bytes.
  // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %addrs = tile.addptr %ptrs, %sum : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = 4}}
  %c4 = arith.constant 4 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1]}}
  %scaled = arith.muli %n, %c4 : i32
  tile.return
}

// -----

tile.func @shapes(%n: i32 {tile.divisibility = 16 : i64}) {
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %cols = tile.range 0, 256 : tensor<256xi32>
  // Along the new dimension each element is a run of its own: 0, 1, 2, ...
  // are multiples of nothing (random kernels found a column
  // (pid * 8 + range(8))[:, None] taken for multiples of 8).
  // expected-remark @below {{contiguity = [1, 256], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %row = tile.expand_dims %cols axis 0 : tensor<256xi32> -> tensor<1x256xi32>
  // expected-remark @below {{contiguity = [1, 256], divisibility = [1, 1073741824], constancy = [4, 1]}}
  %tile = tile.broadcast %row : tensor<1x256xi32> -> tensor<4x256xi32>
  tile.return
}

// -----

// The induction variable of a loop is a multiple of what its start and step
// share; a value carried around the loop keeps what every iteration keeps.
tile.func @loop(%n: i32) {
  // expected-remark @below {{constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{constant = 8}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{constant = 4}}
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %n step %c8 : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1]}}
    %x = arith.muli %i, %c4 : i32
  }
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %r = scf.for %i = %c0 to %n step %c8 iter_args(%acc = %c8) -> (i32) : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
    %next = arith.addi %acc, %c4 : i32
    scf.yield %next : i32
  }
  tile.return
}

// -----

// The minimum i64, which 2^63 divides, has the cap for a divisibility.
// Reduced from tile-smith's seed 25 (difftest on the sanitized build):
// negating it to find its lowest set bit overflowed int64_t, which UBSan
// reports (scripts/test-sanitized.sh runs this test on that build).
tile.func @minimum_i64(%p: !tile.ptr<i64>) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = -9223372036854775808}}
  %min = arith.constant -9223372036854775808 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [4], constant = -9223372036854775808}}
  %mins = arith.constant dense<-9223372036854775808> : tensor<4xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 9223372036854775807}}
  %max = arith.constant 9223372036854775807 : i64
  tile.return
}

// -----

// Constants fold as i64 wraps: the minimum plus itself is 0, times 2 too,
// and 0 minus it is itself. Reduced from tile-smith's seed 2280 (difftest
// on the sanitized build: the folding overflowed int64_t, which UBSan
// reports).
tile.func @wrapping_i64() {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [2], constant = -9223372036854775808}}
  %min = arith.constant dense<-9223372036854775808> : tensor<2xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [2], constant = 2}}
  %two = arith.constant dense<2> : tensor<2xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [2], constant = 0}}
  %zero = arith.constant dense<0> : tensor<2xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [2], constant = 0}}
  %sum = arith.addi %min, %min : tensor<2xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [2], constant = 0}}
  %product = arith.muli %min, %two : tensor<2xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [2], constant = -9223372036854775808}}
  %negated = arith.subi %zero, %min : tensor<2xi64>
  tile.return
}

// -----

// min and max: a multiple of what both operands are multiples of, constant
// where both are, and no run (cross_entropy_partial.mlir's span end,
// min(q * S, N) with S a multiple of 64, kept its loads 16 bytes wide only
// once min was known here).
tile.func @min_max(%n: i32 {tile.divisibility = 16 : i64}, %q: i32, %m: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1]}}
  %s = arith.muli %q, %c64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %end = arith.minsi %s, %n : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %loose = arith.maxsi %end, %m : i32
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 1024 : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %ends = tile.splat %end : i32 -> tensor<1024xi32>
  // min(0, 1, 2, ..., end): each element of the range is its own (this
  // once said a multiple of 16 for every element, from the range's start).
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %clamped = arith.minui %r, %ends : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %r, %ends : tensor<1024xi32>
  tile.return
}

// -----

// Where a result's runs are shorter than an operand's, the operand's
// divisibility held at its own run starts only. Each of these once kept it,
// and a row bound built from them was taken for a multiple of 16 in every
// row (a mask computed once for 8 columns that differ, found by review).
tile.func @shorter_runs(%p: i1, %n: i32 {tile.divisibility = 16 : i64}) {
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [32]}}
  %ns = tile.splat %n : i32 -> tensor<32xi32>
  // 0, 2, 4, ...: r + r is no run, and its elements are even (which the
  // analysis does not see: it knows each side's run starts only).
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %twice = arith.addi %r, %r : tensor<32xi32>
  // min(r, n): 0, 1, 2, ...
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %low = arith.minsi %r, %ns : tensor<32xi32>
  // Expanded, every element starts a run of its own.
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %col = tile.expand_dims %low axis 1 : tensor<32xi32> -> tensor<32x1xi32>
  // The range on one path, zeros on the other: runs of 1, and the range's
  // elements are no multiples of anything.
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [32], constant = 0}}
  %zeros = arith.constant dense<0> : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %either = scf.if %p -> tensor<32xi32> {
    scf.yield %r : tensor<32xi32>
  } else {
    scf.yield %zeros : tensor<32xi32>
  }
  // A select element by element (the condition varies over runs of 16):
  // the range's squares, no multiples of anything.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %odd = arith.cmpi slt, %r, %ns : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %r3 = arith.muli %r, %r : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %sel = arith.select %odd, %r3, %zeros : tensor<32xi1>, tensor<32xi32>
  tile.return
}

// -----

// Narrowed below 32 bits a run wraps: range(256) to i1 is 0, 1, 0, 1, ...
// (this once passed the range's contiguity through to i1).
tile.func @narrowed() {
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 256 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %bits = arith.trunci %r : tensor<256xi32> to tensor<256xi1>
  tile.return
}

// -----

// Constants of narrow integers wrap at their width and are held
// sign-extended from it (run 53's review): on i1, false - true is true,
// which is -1 as a signed i1, and its sign extension is -1, so range * it
// counts down and its sign test is not constant; the zero extension of
// true is 1.
tile.func @narrow_constants() {
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 256 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256], constant = -1}}
  %t = arith.constant dense<true> : tensor<256xi1>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [256], constant = 0}}
  %f = arith.constant dense<false> : tensor<256xi1>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256], constant = -1}}
  %d = arith.subi %f, %t : tensor<256xi1>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256], constant = -1}}
  %s = arith.extsi %d : tensor<256xi1> to tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256], constant = 1}}
  %u = arith.extui %d : tensor<256xi1> to tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %neg = arith.muli %r, %s : tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %same = arith.muli %r, %u : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [256], constant = 0}}
  %zero = arith.constant dense<0> : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %m = arith.cmpi slt, %neg, %zero : tensor<256xi32>
  tile.return
}
