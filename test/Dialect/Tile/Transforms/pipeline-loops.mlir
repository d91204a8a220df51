// tile-pipeline-loops: loads of the next iteration move ahead.
// RUN: tile-opt %s --tile-pipeline-loops --split-input-file | FileCheck %s

// CHECK-LABEL: tile.func @rows
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32, %[[STRIDE:.*]]: i32)
// The first iteration's load, before the loop, masked by lb < ub.
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[R:.*]] = tile.range 0, 128
// CHECK: %[[FIRST_OK:.*]] = arith.cmpi slt, %[[C0]], %[[N]] : i32
// CHECK: %[[OFF0:.*]] = arith.muli %[[C0]], %[[STRIDE]] : i32
// CHECK: %[[FIRST_MASK:.*]] = tile.splat %[[FIRST_OK]] : i1 -> tensor<128xi1>
// CHECK: %[[FIRST:.*]] = tile.load %{{.*}}, %[[FIRST_MASK]] : tensor<128x!tile.ptr<f32>>
// CHECK: scf.for %[[IV:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[CUR:.*]] = %[[FIRST]]) -> (tensor<128xf32>) : i32 {
// The next iteration's load comes first, masked by iv + step < ub.
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[IV]], %[[C1]] : i32
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : i32
// CHECK-NEXT: arith.muli %[[NEXT]], %[[STRIDE]] : i32
// CHECK: %[[LOADED:.*]] = tile.load
// The computation reads the carried tile.
// CHECK: tile.exp %[[CUR]]
// CHECK: scf.yield %[[LOADED]] : tensor<128xf32>
// CHECK-NOT: tile.num_stages
tile.func @rows(%p: !tile.ptr<f32>, %n: i32, %stride: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 128 : tensor<128xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %off = arith.muli %i, %stride : i32
    %row = tile.addptr %p, %off : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
    %e = tile.exp %x : tensor<128xf32>
    tile.store %ptrs, %e : tensor<128x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}

// -----

// An existing mask is kept, and `other` too.
// CHECK-LABEL: tile.func @masked
// CHECK: %[[VALID:.*]] = tile.splat %{{.*}} : i1 -> tensor<64xi1>
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %[[VALID]] : tensor<64xi1>
// CHECK: tile.load %{{.*}}, %[[MASK]], %{{.*}} : tensor<64x!tile.ptr<f32>>
tile.func @masked(%p: !tile.ptr<f32>, %n: i32, %m: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %r = tile.range 0, 64 : tensor<64xi32>
  %ms = tile.splat %m : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %r, %ms : tensor<64xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %x = tile.load %ptrs, %mask, %zero : tensor<64x!tile.ptr<f32>>
    tile.store %ptrs, %x, %mask : tensor<64x!tile.ptr<f32>>
  } {tile.num_stages = 3 : i32}
  tile.return
}

// -----

// Not asked for (or num_stages = 1): nothing moves.
// CHECK-LABEL: tile.func @not_asked
// CHECK: scf.for
// CHECK-NEXT: tile.addptr
// CHECK: {tile.num_stages = 1 : i32}
tile.func @not_asked(%p: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 64 : tensor<64xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %x = tile.load %ptrs : tensor<64x!tile.ptr<f32>>
    tile.store %ptrs, %x : tensor<64x!tile.ptr<f32>>
  } {tile.num_stages = 1 : i32}
  tile.return
}

// -----

// A load of the same tile every iteration (a norm's weight, loaded with
// each row) stays where it is: carried ahead it would hold a second copy
// in registers. The row's load, which reads the induction variable, is
// carried.
// CHECK-LABEL: tile.func @invariant
// CHECK: %[[FIRST:.*]] = tile.load
// CHECK: scf.for {{.*}} iter_args(%[[CUR:.*]] = %[[FIRST]]) -> (tensor<64xf32>)
// CHECK: %[[NEXT:.*]] = tile.load
// CHECK: %[[W:.*]] = tile.load %[[WPTRS:.*]] : tensor<64x!tile.ptr<f32>>
// CHECK: arith.mulf %[[CUR]], %[[W]]
// CHECK: scf.yield %[[NEXT]] : tensor<64xf32>
tile.func @invariant(%p: !tile.ptr<f32>, %w: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %r = tile.range 0, 64 : tensor<64xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %off = arith.muli %i, %c64 : i32
    %row = tile.addptr %p, %off : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %x = tile.load %ptrs : tensor<64x!tile.ptr<f32>>
    %ws = tile.splat %w : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %wptrs = tile.addptr %ws, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %wv = tile.load %wptrs : tensor<64x!tile.ptr<f32>>
    %y = arith.mulf %x, %wv : tensor<64xf32>
    tile.store %ptrs, %y : tensor<64x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}

// -----

// A load whose address depends on a loop-carried value, or on another load,
// cannot be issued an iteration early.
// CHECK-LABEL: tile.func @carried
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32)
// CHECK-NEXT: tile.addptr %{{.*}}, %[[ACC]]
// CHECK: tile.load
// CHECK: scf.yield
tile.func @carried(%p: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 64 : tensor<64xi32>
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %row = tile.addptr %p, %acc : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %x = tile.load %ptrs : tensor<64x!tile.ptr<f32>>
    tile.store %ptrs, %x : tensor<64x!tile.ptr<f32>>
    %next = arith.addi %acc, %i : i32
    scf.yield %next : i32
  } {tile.num_stages = 2 : i32}
  tile.return
}

// -----

// A loop whose tile, loaded ahead, would not fit in registers beside the
// body's is left as it is: 32768 floats over 16 warps are 64 registers per
// thread, the body keeps 64 live, and 64 + 64 + 32 (scalars) is more than
// the 128 that 512 threads may each use. The request is removed either
// way.
// CHECK-LABEL: tile.func @no_room
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: tile.addptr
// CHECK-NOT: tile.num_stages
tile.func @no_room(%p: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 16 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 32768 : tensor<32768xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<32768x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<32768x!tile.ptr<f32>>, tensor<32768xi32>
    %x = tile.load %ptrs : tensor<32768x!tile.ptr<f32>>
    %e = tile.exp %x : tensor<32768xf32>
    tile.store %ptrs, %e : tensor<32768x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}

// -----

// Half as much per thread fits: 32 + 32 + 32 <= 128.
// CHECK-LABEL: tile.func @room
// CHECK: scf.for {{.*}} iter_args
tile.func @room(%p: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 16 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 16384 : tensor<16384xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<16384x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<16384x!tile.ptr<f32>>, tensor<16384xi32>
    %x = tile.load %ptrs : tensor<16384x!tile.ptr<f32>>
    %e = tile.exp %x : tensor<16384xf32>
    tile.store %ptrs, %e : tensor<16384x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}

// -----

// The same loop in a kernel that asks for room for two blocks per SM
// (tile.min_blocks_per_sm = 2): each thread may use 65536 / (512 x 2) = 64
// registers, and 32 + 32 + 32 > 64: left as it is.
// CHECK-LABEL: tile.func @room_for_one_block
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NOT: tile.num_stages
tile.func @room_for_one_block(%p: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 16 : i32, tile.min_blocks_per_sm = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 16384 : tensor<16384xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<16384x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<16384x!tile.ptr<f32>>, tensor<16384xi32>
    %x = tile.load %ptrs : tensor<16384x!tile.ptr<f32>>
    %e = tile.exp %x : tensor<16384xf32>
    tile.store %ptrs, %e : tensor<16384x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}

// -----

// Descriptor loads kept for TMA feed a dot: the loop keeps its stages for
// tilegpu-pipeline, as with pointer loads that feed a dot.
// CHECK-LABEL: tile.func @desc_dot
// CHECK: tile.desc_load
// CHECK: tile.desc_load
// CHECK: tile.dot
// CHECK: } {tile.num_stages = 3 : i32}
tile.func @desc_dot(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %m: i32, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %da = tile.make_tensor_desc %a, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %db = tile.make_tensor_desc %b, [%k, %n], [%n, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %i = %c0 to %k step %c64 iter_args(%c = %zero) -> (tensor<64x64xf32>) : i32 {
    %x = tile.desc_load %da[%c0, %i] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %y = tile.desc_load %db[%i, %c0] : !tile.tensor_desc<64x64xf16> -> tensor<64x64xf16>
    %d = tile.dot %x, %y, %c : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.num_stages = 3 : i32}
  %p = tile.splat %a : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %h = tile.cast %acc : tensor<64x64xf32> to tensor<64x64xf16>
  tile.store %p, %h : tensor<64x64x!tile.ptr<f16>>
  tile.return
}

// -----

// A row computed by dividing the counter (a loop over (row, part) pairs):
// a division by a value known to be at least 1 (max(n, 1)) may be computed
// for the next iteration ahead of time, so the load moves ahead.
// CHECK-LABEL: tile.func @divided_by_positive
// CHECK: %[[PARTS:.*]] = arith.maxsi
// CHECK: tile.load
// CHECK: scf.for %[[IV:.*]] = {{.*}} iter_args
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[IV]]
// CHECK: arith.divsi %[[NEXT]], %[[PARTS]] : i32
// CHECK: tile.load
tile.func @divided_by_positive(%p: !tile.ptr<f32>, %n: i32, %parts: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c128 = arith.constant 128 : i32
  %r = tile.range 0, 128 : tensor<128xi32>
  %per_row = arith.maxsi %parts, %c1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = arith.divsi %i, %per_row : i32
    %off = arith.muli %row, %c128 : i32
    %start = tile.addptr %p, %off : !tile.ptr<f32>, i32
    %rows = tile.splat %start : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
    %e = tile.exp %x : tensor<128xf32>
    tile.store %ptrs, %e : tensor<128x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}

// -----

// The same with a divisor that may be 0: the division could not run ahead
// of the iteration that needs it (the loop may not run at all), so the load
// stays in place.
// CHECK-LABEL: tile.func @divided_by_unknown
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: arith.divsi
// CHECK: tile.load
tile.func @divided_by_unknown(%p: !tile.ptr<f32>, %n: i32, %parts: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c128 = arith.constant 128 : i32
  %r = tile.range 0, 128 : tensor<128xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = arith.divsi %i, %parts : i32
    %off = arith.muli %row, %c128 : i32
    %start = tile.addptr %p, %off : !tile.ptr<f32>, i32
    %rows = tile.splat %start : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
    %e = tile.exp %x : tensor<128xf32>
    tile.store %ptrs, %e : tensor<128x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}

// -----

// Three stages or more, no dot in the loop: a rank-2 tile whose masked
// lanes are 0 is left where it is, and the loop keeps its attribute, for
// tilegpu-pipeline to stage it through shared memory
// (isStagedInSharedMemory). Masked lanes of -0.0 (not what cp.async's zero
// fill writes) are carried in registers as with two stages.
// CHECK-LABEL: tile.func @staged
// CHECK: scf.for %{{.*}} iter_args(%[[CUR:.*]] = %{{.*}}) -> (tensor<1x256xf32>)
// CHECK: %[[NEXT:.*]] = tile.load %{{.*}}, %{{.*}}, %[[NEG:.*]] : tensor<1x256x!tile.ptr<f32>>
// CHECK: %[[ROW:.*]] = tile.load %{{.*}}, %{{.*}}, %[[ZERO:.*]] : tensor<1x256x!tile.ptr<f32>>
// CHECK: arith.addf %[[ROW]], %[[CUR]]
// CHECK: scf.yield %[[NEXT]]
// CHECK-NEXT: } {tile.num_stages = 4 : i32}
tile.func @staged(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<1x256xf32>
  %neg = arith.constant dense<-0.0> : tensor<1x256xf32>
  %mask = arith.constant dense<true> : tensor<1x256xi1>
  %r = tile.range 0, 256 : tensor<256xi32>
  %r2 = tile.expand_dims %r axis 0 : tensor<256xi32> -> tensor<1x256xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %prow = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %prows = tile.splat %prow : !tile.ptr<f32> -> tensor<1x256x!tile.ptr<f32>>
    %pptrs = tile.addptr %prows, %r2 : tensor<1x256x!tile.ptr<f32>>, tensor<1x256xi32>
    %qrow = tile.addptr %q, %i : !tile.ptr<f32>, i32
    %qrows = tile.splat %qrow : !tile.ptr<f32> -> tensor<1x256x!tile.ptr<f32>>
    %qptrs = tile.addptr %qrows, %r2 : tensor<1x256x!tile.ptr<f32>>, tensor<1x256xi32>
    %x = tile.load %pptrs, %mask, %zero : tensor<1x256x!tile.ptr<f32>>
    %y = tile.load %qptrs, %mask, %neg : tensor<1x256x!tile.ptr<f32>>
    %s = arith.addf %x, %y : tensor<1x256xf32>
    tile.store %pptrs, %s : tensor<1x256x!tile.ptr<f32>>
  } {tile.num_stages = 4 : i32}
  tile.return
}
