// tile-loads-to-descs: a load of a dot's operand proven to read a box of a
// row-major tensor, masked to its bounds with 'other' 0, becomes a
// descriptor load (the pipeline runs it with tma on sm_90a); any other load
// stays.
// RUN: tile-opt %s --tile-loads-to-descs --split-input-file | FileCheck %s

// The K loop of Triton's matmul tutorial (examples/matmul.mlir) once the
// launch's unit strides are constants: A's block at rows row0 + [0, 64) of
// stride %sa, columns k0 + [0, 32) (the pointers moved by k0, the mask
// `k < K - k0`); B's at rows k0 + [0, 32) (moved by k0 * %sb), columns
// col0 + [0, 64).
// The starts row0 and col0 are arguments, which may be negative: the loop
// is versioned on their signs (k0 = kb * 32 is proven not negative), and
// its copy keeps the pointer loads.
// CHECK-LABEL: tile.func @matmul
// CHECK: %[[ROW_OK:.*]] = arith.cmpi sge, %arg7, %[[ZERO:.*]] : i32
// CHECK: %[[COL_OK:.*]] = arith.cmpi sge, %arg8, %[[ZERO]] : i32
// CHECK: %[[BOTH:.*]] = arith.andi %[[ROW_OK]], %[[COL_OK]] : i1
// CHECK: scf.if %[[BOTH]] -> (tensor<64x64xf32>) {
// CHECK-DAG: %[[DA:.*]] = tile.make_tensor_desc %arg0, [%arg2, %arg4], [%arg5, %{{.*}}] : !tile.ptr<f16> -> !tile.tensor_desc<64x32xf16>
// CHECK-DAG: %[[DB:.*]] = tile.make_tensor_desc %arg1, [%arg4, %arg3], [%arg6, %{{.*}}] : !tile.ptr<f16> -> !tile.tensor_desc<32x64xf16>
// CHECK: scf.for %[[KB:[^ ]*]] =
// CHECK: %[[K0:.*]] = arith.muli %[[KB]]
// CHECK: tile.desc_load %[[DA]][%arg7, %[[K0]]]
// CHECK: tile.desc_load %[[DB]][%[[K0]], %arg8]
// CHECK-NOT: tile.load
// CHECK: tile.dot
// CHECK: } else {
// CHECK: scf.for
// CHECK-NOT: tile.desc_load
// CHECK-COUNT-2: tile.load
// CHECK-NOT: tile.desc_load
// CHECK: tile.return
tile.func @matmul(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64},
                  %b: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %M: i32,
                  %N: i32, %K: i32, %sa: i32 {tile.divisibility = 16 : i64},
                  %sb: i32 {tile.divisibility = 16 : i64}, %row0: i32,
                  %col0: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %r64 = tile.range 0, 64 : tensor<64xi32>
  %r32 = tile.range 0, 32 : tensor<32xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<64xi32>
  %rm = arith.addi %r64, %row0s : tensor<64xi32>
  %col0s = tile.splat %col0 : i32 -> tensor<64xi32>
  %rn = arith.addi %col0s, %r64 : tensor<64xi32>
  %rm1 = tile.expand_dims %rm axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %am = tile.broadcast %rm1 : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk0 = tile.expand_dims %r32 axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ak = tile.broadcast %rk0 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sat = tile.splat %sa : i32 -> tensor<64x32xi32>
  %arows = arith.muli %am, %sat : tensor<64x32xi32>
  %aoff = arith.addi %arows, %ak : tensor<64x32xi32>
  %Ma = tile.splat %M : i32 -> tensor<64x32xi32>
  %arow_ok = arith.cmpi slt, %am, %Ma : tensor<64x32xi32>
  %rk1 = tile.expand_dims %r32 axis 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bk = tile.broadcast %rk1 : tensor<32x1xi32> -> tensor<32x64xi32>
  %rn0 = tile.expand_dims %rn axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bn = tile.broadcast %rn0 : tensor<1x64xi32> -> tensor<32x64xi32>
  %sbt = tile.splat %sb : i32 -> tensor<32x64xi32>
  %brows = arith.muli %sbt, %bk : tensor<32x64xi32>
  %boff = arith.addi %brows, %bn : tensor<32x64xi32>
  %Nb = tile.splat %N : i32 -> tensor<32x64xi32>
  %bcol_ok = arith.cmpi slt, %bn, %Nb : tensor<32x64xi32>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %zb = arith.constant dense<0.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %nk = arith.ceildivsi %K, %c32 : i32
  %acc = scf.for %kb = %c0 to %nk step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %kb, %c32 : i32
    %kleft = arith.subi %K, %k0 : i32
    %ak_ptr = tile.addptr %a, %k0 : !tile.ptr<f16>, i32
    %abase = tile.splat %ak_ptr : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs = tile.addptr %abase, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %kla = tile.splat %kleft : i32 -> tensor<64x32xi32>
    %ak_ok = arith.cmpi slt, %ak, %kla : tensor<64x32xi32>
    %amask = arith.andi %arow_ok, %ak_ok : tensor<64x32xi1>
    %ablk = tile.load %aptrs, %amask, %za : tensor<64x32x!tile.ptr<f16>>
    %bkoff = arith.muli %k0, %sb : i32
    %bk_ptr = tile.addptr %b, %bkoff : !tile.ptr<f16>, i32
    %bbase = tile.splat %bk_ptr : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
    %bptrs = tile.addptr %bbase, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    %klb = tile.splat %kleft : i32 -> tensor<32x64xi32>
    %bk_ok = arith.cmpi slt, %bk, %klb : tensor<32x64xi32>
    %bmask = arith.andi %bk_ok, %bcol_ok : tensor<32x64xi1>
    %bblk = tile.load %bptrs, %bmask, %zb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %ablk, %bblk, %acc_i : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}

// -----

// Loads that stay: A's columns of stride %sk (column-major, or a launch
// whose stride is not 1), a mask whose bound is not the pointers' (K -
// k0 against pointers not moved by k0), 'other' 1, and a load that is not
// only a dot's operand.
// CHECK-LABEL: tile.func @kept
// CHECK-NOT: tile.make_tensor_desc
// CHECK-NOT: tile.desc_load
// CHECK-COUNT-4: tile.load
tile.func @kept(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %M: i32,
                %K: i32, %sa: i32 {tile.divisibility = 16 : i64}, %sk: i32,
                %out: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %r64 = tile.range 0, 64 : tensor<64xi32>
  %r32 = tile.range 0, 32 : tensor<32xi32>
  %rm1 = tile.expand_dims %r64 axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %am = tile.broadcast %rm1 : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk0 = tile.expand_dims %r32 axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ak = tile.broadcast %rk0 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sat = tile.splat %sa : i32 -> tensor<64x32xi32>
  %skt = tile.splat %sk : i32 -> tensor<64x32xi32>
  %arows = arith.muli %am, %sat : tensor<64x32xi32>
  %acols = arith.muli %ak, %skt : tensor<64x32xi32>
  %strided = arith.addi %arows, %acols : tensor<64x32xi32>
  %aoff = arith.addi %arows, %ak : tensor<64x32xi32>
  %Ma = tile.splat %M : i32 -> tensor<64x32xi32>
  %row_ok = arith.cmpi slt, %am, %Ma : tensor<64x32xi32>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %ones = arith.constant dense<1.0> : tensor<64x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %nk = arith.ceildivsi %K, %c32 : i32
  %acc = scf.for %kb = %c0 to %nk step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %kb, %c32 : i32
    %kleft = arith.subi %K, %k0 : i32
    %kla = tile.splat %kleft : i32 -> tensor<64x32xi32>
    %k_ok = arith.cmpi slt, %ak, %kla : tensor<64x32xi32>
    %mask = arith.andi %row_ok, %k_ok : tensor<64x32xi1>
    %ak_ptr = tile.addptr %a, %k0 : !tile.ptr<f16>, i32
    %abase = tile.splat %ak_ptr : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %sptrs = tile.addptr %abase, %strided : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x1 = tile.load %sptrs, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %a0 = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %unmoved = tile.addptr %a0, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x2 = tile.load %unmoved, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %aptrs = tile.addptr %abase, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x3 = tile.load %aptrs, %mask, %ones : tensor<64x32x!tile.ptr<f16>>
    %x4 = tile.load %aptrs, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %x4f = tile.cast %x4 : tensor<64x32xf16> to tensor<64x32xf32>
    %d1 = tile.dot %x1, %b, %acc_i : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %d2 = tile.dot %x2, %b, %d1 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %d3 = tile.dot %x3, %b, %d2 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %d4 = tile.dot %x4, %b, %d3 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %ps = tile.splat %out : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %aoff : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
    tile.store %pp, %x4f : tensor<64x32x!tile.ptr<f32>>
    scf.yield %d4 : tensor<64x64xf32>
  }
  tile.return
}

// -----

// An i64 offset moving the pointers stays a pointer load: a descriptor is
// loaded at i32 offsets.
// CHECK-LABEL: tile.func @wide_offset
// CHECK-NOT: tile.desc_load
// CHECK: tile.load
tile.func @wide_offset(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %M: i32,
                       %sa: i32 {tile.divisibility = 16 : i64}, %k: i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r64 = tile.range 0, 64 : tensor<64xi32>
  %r32 = tile.range 0, 32 : tensor<32xi32>
  %rm1 = tile.expand_dims %r64 axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %am = tile.broadcast %rm1 : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk0 = tile.expand_dims %r32 axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ak = tile.broadcast %rk0 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sat = tile.splat %sa : i32 -> tensor<64x32xi32>
  %arows = arith.muli %am, %sat : tensor<64x32xi32>
  %aoff = arith.addi %arows, %ak : tensor<64x32xi32>
  %Ma = tile.splat %M : i32 -> tensor<64x32xi32>
  %row_ok = arith.cmpi slt, %am, %Ma : tensor<64x32xi32>
  %c32 = tile.splat %c4 : i32 -> tensor<64x32xi32>
  %k_ok = arith.cmpi slt, %ak, %c32 : tensor<64x32xi32>
  %mask = arith.andi %row_ok, %k_ok : tensor<64x32xi1>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %kb = %c0 to %c4 step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
    %ak_ptr = tile.addptr %a, %k : !tile.ptr<f16>, i64
    %abase = tile.splat %ak_ptr : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs = tile.addptr %abase, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x = tile.load %aptrs, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %d = tile.dot %x, %b, %acc_i : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}

// -----

// Starts proven not negative need no test: rows from the program id
// (pid % n has pid's sign, times 64), columns from the induction variable
// of a loop from 0. A start the loop computes from an argument, which may
// be negative (kb * %step), cannot be tested before the loop: that load
// stays. (A row stride of 8 halves is 16 bytes, as a tensor map needs.)
// CHECK-LABEL: tile.func @signs
// CHECK-NOT: scf.if
// CHECK: %[[D:.*]] = tile.make_tensor_desc %arg0
// CHECK: scf.for %[[KB:[^ ]*]] =
// CHECK: %[[K0:.*]] = arith.muli %[[KB]]
// CHECK: tile.desc_load %[[D]][%{{.*}}, %[[K0]]]
// CHECK: tile.load
// CHECK-NOT: scf.if
tile.func @signs(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %M: i32,
                 %K: i32, %sa: i32 {tile.divisibility = 8 : i64}, %n: i32,
                 %step: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %pid = tile.program_id x : i32
  %pm = arith.remsi %pid, %n : i32
  %row0 = arith.muli %pm, %c64 : i32
  %r64 = tile.range 0, 64 : tensor<64xi32>
  %r32 = tile.range 0, 32 : tensor<32xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<64xi32>
  %rm = arith.addi %r64, %row0s : tensor<64xi32>
  %rm1 = tile.expand_dims %rm axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %am = tile.broadcast %rm1 : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk0 = tile.expand_dims %r32 axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ak = tile.broadcast %rk0 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sat = tile.splat %sa : i32 -> tensor<64x32xi32>
  %arows = arith.muli %am, %sat : tensor<64x32xi32>
  %aoff = arith.addi %arows, %ak : tensor<64x32xi32>
  %Ma = tile.splat %M : i32 -> tensor<64x32xi32>
  %row_ok = arith.cmpi slt, %am, %Ma : tensor<64x32xi32>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %nk = arith.ceildivsi %K, %c32 : i32
  %acc = scf.for %kb = %c0 to %nk step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %kb, %c32 : i32
    %kleft = arith.subi %K, %k0 : i32
    %kla = tile.splat %kleft : i32 -> tensor<64x32xi32>
    %k_ok = arith.cmpi slt, %ak, %kla : tensor<64x32xi32>
    %mask = arith.andi %row_ok, %k_ok : tensor<64x32xi1>
    %ak_ptr = tile.addptr %a, %k0 : !tile.ptr<f16>, i32
    %abase = tile.splat %ak_ptr : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs = tile.addptr %abase, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x1 = tile.load %aptrs, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %k1 = arith.muli %kb, %step : i32
    %kleft1 = arith.subi %K, %k1 : i32
    %kla1 = tile.splat %kleft1 : i32 -> tensor<64x32xi32>
    %k_ok1 = arith.cmpi slt, %ak, %kla1 : tensor<64x32xi32>
    %mask1 = arith.andi %row_ok, %k_ok1 : tensor<64x32xi1>
    %ak_ptr1 = tile.addptr %a, %k1 : !tile.ptr<f16>, i32
    %abase1 = tile.splat %ak_ptr1 : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs1 = tile.addptr %abase1, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x2 = tile.load %aptrs1, %mask1, %za : tensor<64x32x!tile.ptr<f16>>
    %d1 = tile.dot %x1, %b, %acc_i : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %d2 = tile.dot %x2, %b, %d1 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d2 : tensor<64x64xf32>
  }
  tile.return
}

// -----

// A base pointer not known to be 16-byte aligned (a tensor map's base must
// be) keeps both loads.
// CHECK-LABEL: tile.func @unaligned
// CHECK-NOT: tile.desc_load
// CHECK-COUNT-2: tile.load
tile.func @unaligned(%a: !tile.ptr<f16> {tile.divisibility = 8 : i64}, %M: i32,
                 %K: i32, %sa: i32 {tile.divisibility = 8 : i64}, %n: i32,
                 %step: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %pid = tile.program_id x : i32
  %pm = arith.remsi %pid, %n : i32
  %row0 = arith.muli %pm, %c64 : i32
  %r64 = tile.range 0, 64 : tensor<64xi32>
  %r32 = tile.range 0, 32 : tensor<32xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<64xi32>
  %rm = arith.addi %r64, %row0s : tensor<64xi32>
  %rm1 = tile.expand_dims %rm axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %am = tile.broadcast %rm1 : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk0 = tile.expand_dims %r32 axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ak = tile.broadcast %rk0 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sat = tile.splat %sa : i32 -> tensor<64x32xi32>
  %arows = arith.muli %am, %sat : tensor<64x32xi32>
  %aoff = arith.addi %arows, %ak : tensor<64x32xi32>
  %Ma = tile.splat %M : i32 -> tensor<64x32xi32>
  %row_ok = arith.cmpi slt, %am, %Ma : tensor<64x32xi32>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %nk = arith.ceildivsi %K, %c32 : i32
  %acc = scf.for %kb = %c0 to %nk step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %kb, %c32 : i32
    %kleft = arith.subi %K, %k0 : i32
    %kla = tile.splat %kleft : i32 -> tensor<64x32xi32>
    %k_ok = arith.cmpi slt, %ak, %kla : tensor<64x32xi32>
    %mask = arith.andi %row_ok, %k_ok : tensor<64x32xi1>
    %ak_ptr = tile.addptr %a, %k0 : !tile.ptr<f16>, i32
    %abase = tile.splat %ak_ptr : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs = tile.addptr %abase, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x1 = tile.load %aptrs, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %k1 = arith.muli %kb, %step : i32
    %kleft1 = arith.subi %K, %k1 : i32
    %kla1 = tile.splat %kleft1 : i32 -> tensor<64x32xi32>
    %k_ok1 = arith.cmpi slt, %ak, %kla1 : tensor<64x32xi32>
    %mask1 = arith.andi %row_ok, %k_ok1 : tensor<64x32xi1>
    %ak_ptr1 = tile.addptr %a, %k1 : !tile.ptr<f16>, i32
    %abase1 = tile.splat %ak_ptr1 : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs1 = tile.addptr %abase1, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x2 = tile.load %aptrs1, %mask1, %za : tensor<64x32x!tile.ptr<f16>>
    %d1 = tile.dot %x1, %b, %acc_i : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %d2 = tile.dot %x2, %b, %d1 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d2 : tensor<64x64xf32>
  }
  tile.return
}

// -----

// A loop that yields nothing, its start an argument: versioned all the
// same (the scf.if's blocks made without terminators, so that each ends in
// one yield after its loop, which the verifier checks).
// CHECK-LABEL: tile.func @no_results
// CHECK: scf.if %{{.*}} {
// CHECK: tile.make_tensor_desc
// CHECK: scf.for
// CHECK: tile.desc_load
// CHECK: tile.store
// CHECK: } else {
// CHECK: scf.for
// CHECK: tile.load
// CHECK: tile.store
// CHECK: tile.return
tile.func @no_results(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %M: i32,
                      %sa: i32 {tile.divisibility = 16 : i64}, %row0: i32,
                      %n: i32, %out: !tile.ptr<f32>, %K: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r64 = tile.range 0, 64 : tensor<64xi32>
  %r32 = tile.range 0, 32 : tensor<32xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<64xi32>
  %rm = arith.addi %r64, %row0s : tensor<64xi32>
  %rm1 = tile.expand_dims %rm axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %am = tile.broadcast %rm1 : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk0 = tile.expand_dims %r32 axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ak = tile.broadcast %rk0 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sat = tile.splat %sa : i32 -> tensor<64x32xi32>
  %arows = arith.muli %am, %sat : tensor<64x32xi32>
  %aoff = arith.addi %arows, %ak : tensor<64x32xi32>
  %Ma = tile.splat %M : i32 -> tensor<64x32xi32>
  %c32 = tile.splat %K : i32 -> tensor<64x32xi32>
  %row_ok = arith.cmpi slt, %am, %Ma : tensor<64x32xi32>
  %k_ok = arith.cmpi slt, %ak, %c32 : tensor<64x32xi32>
  %mask = arith.andi %row_ok, %k_ok : tensor<64x32xi1>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %ps = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %abase = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs = tile.addptr %abase, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x = tile.load %aptrs, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %d = tile.dot %x, %b, %acc0 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    tile.store %ps, %d : tensor<64x64x!tile.ptr<f32>>
  }
  tile.return
}

// -----

// The same in a cluster kernel (a cluster's programs could take different
// versions, and their exchanges would not meet) and in a loop inside
// another (the versions' shared memory would add up): the load stays.
// CHECK-LABEL: tile.func @cluster
// CHECK-NOT: scf.if
// CHECK-NOT: tile.desc_load
// CHECK: tile.load
tile.func @cluster(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %M: i32,
                      %sa: i32 {tile.divisibility = 16 : i64}, %row0: i32,
                      %n: i32, %out: !tile.ptr<f32>, %K: i32) attributes {tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r64 = tile.range 0, 64 : tensor<64xi32>
  %r32 = tile.range 0, 32 : tensor<32xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<64xi32>
  %rm = arith.addi %r64, %row0s : tensor<64xi32>
  %rm1 = tile.expand_dims %rm axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %am = tile.broadcast %rm1 : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk0 = tile.expand_dims %r32 axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ak = tile.broadcast %rk0 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sat = tile.splat %sa : i32 -> tensor<64x32xi32>
  %arows = arith.muli %am, %sat : tensor<64x32xi32>
  %aoff = arith.addi %arows, %ak : tensor<64x32xi32>
  %Ma = tile.splat %M : i32 -> tensor<64x32xi32>
  %c32 = tile.splat %K : i32 -> tensor<64x32xi32>
  %row_ok = arith.cmpi slt, %am, %Ma : tensor<64x32xi32>
  %k_ok = arith.cmpi slt, %ak, %c32 : tensor<64x32xi32>
  %mask = arith.andi %row_ok, %k_ok : tensor<64x32xi1>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %ps = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %abase = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs = tile.addptr %abase, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x = tile.load %aptrs, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %d = tile.dot %x, %b, %acc0 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    tile.store %ps, %d : tensor<64x64x!tile.ptr<f32>>
  }
  tile.return
}

// -----

// CHECK-LABEL: tile.func @nested
// CHECK-NOT: scf.if
// CHECK-NOT: tile.desc_load
// CHECK: tile.load
tile.func @nested(%a: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %M: i32,
                      %sa: i32 {tile.divisibility = 16 : i64}, %row0: i32,
                      %n: i32, %out: !tile.ptr<f32>, %K: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r64 = tile.range 0, 64 : tensor<64xi32>
  %r32 = tile.range 0, 32 : tensor<32xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<64xi32>
  %rm = arith.addi %r64, %row0s : tensor<64xi32>
  %rm1 = tile.expand_dims %rm axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %am = tile.broadcast %rm1 : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk0 = tile.expand_dims %r32 axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ak = tile.broadcast %rk0 : tensor<1x32xi32> -> tensor<64x32xi32>
  %sat = tile.splat %sa : i32 -> tensor<64x32xi32>
  %arows = arith.muli %am, %sat : tensor<64x32xi32>
  %aoff = arith.addi %arows, %ak : tensor<64x32xi32>
  %Ma = tile.splat %M : i32 -> tensor<64x32xi32>
  %c32 = tile.splat %K : i32 -> tensor<64x32xi32>
  %row_ok = arith.cmpi slt, %am, %Ma : tensor<64x32xi32>
  %k_ok = arith.cmpi slt, %ak, %c32 : tensor<64x32xi32>
  %mask = arith.andi %row_ok, %k_ok : tensor<64x32xi1>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %ps = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  scf.for %j = %c0 to %n step %c1 : i32 {
  scf.for %i = %c0 to %n step %c1 : i32 {
    %abase = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %aptrs = tile.addptr %abase, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x = tile.load %aptrs, %mask, %za : tensor<64x32x!tile.ptr<f16>>
    %d = tile.dot %x, %b, %acc0 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    tile.store %ps, %d : tensor<64x64x!tile.ptr<f32>>
  }
  }
  tile.return
}
