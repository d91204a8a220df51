// tilegpu-remove-layout-conversions: conversions cancel, and move up to
// values that can be made in any layout.
// RUN: tile-opt %s --tilegpu-remove-layout-conversions --split-input-file | FileCheck %s

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s1 = #tilegpu.slice<{dim = 1, parent = #b2}>

// A conversion and its inverse cancel; a range is made in the wanted layout.
// CHECK-DAG: #[[B2:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S1:.*]] = #tilegpu.slice<{dim = 1, parent = #[[B2]]}>
// CHECK-LABEL: tile.func @cancel
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[MAX:.*]] = tile.reduce max
// CHECK-NEXT: tile.expand_dims %[[MAX]] axis 1
// CHECK-NEXT: %[[R:.*]] = tile.range 0, 4 : tensor<4xi32, #[[S1]]>
// CHECK-NEXT: tile.expand_dims %[[R]] axis 1
// CHECK-NOT: tilegpu.convert_layout
tile.func @cancel(%x: f32, %p: !tile.ptr<f32>, %q: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %t = tile.splat %x : f32 -> tensor<4x256xf32, #b2>
  %m = tile.reduce max %t axis 1 : tensor<4x256xf32, #b2> -> tensor<4xf32, #s1>
  %m1 = tilegpu.convert_layout %m : tensor<4xf32, #s1> -> tensor<4xf32, #b1>
  %m2 = tilegpu.convert_layout %m1 : tensor<4xf32, #b1> -> tensor<4xf32, #s1>
  %e = tile.expand_dims %m2 axis 1 : tensor<4xf32, #s1> -> tensor<4x1xf32, #b2>
  %r = tile.range 0, 4 : tensor<4xi32, #b1>
  %rc = tilegpu.convert_layout %r : tensor<4xi32, #b1> -> tensor<4xi32, #s1>
  %re = tile.expand_dims %rc axis 1 : tensor<4xi32, #s1> -> tensor<4x1xi32, #b2>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4x1x!tile.ptr<f32>, #b2>
  tile.store %ps, %e : tensor<4x1x!tile.ptr<f32>, #b2>
  %qs = tile.splat %q : !tile.ptr<i32> -> tensor<4x1x!tile.ptr<i32>, #b2>
  tile.store %qs, %re : tensor<4x1x!tile.ptr<i32>, #b2>
  tile.return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s1 = #tilegpu.slice<{dim = 1, parent = #b2}>

// Elementwise operations on free values are rebuilt in the new layout, even
// when the original stays for other uses.
// CHECK-LABEL: tile.func @elementwise
// CHECK-NOT: tilegpu.convert_layout
// CHECK-DAG: %[[S:.*]] = tile.splat %{{.*}} : i32 -> tensor<4xi32, #[[S1:slice[0-9]*]]>
// CHECK-DAG: %[[R:.*]] = tile.range 0, 4 : tensor<4xi32, #[[S1]]>
// CHECK: %[[SUM:.*]] = arith.addi %[[R]], %[[S]] : tensor<4xi32, #[[S1]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.expand_dims %[[SUM]] axis 1
tile.func @elementwise(%n: i32, %q: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 4 : tensor<4xi32, #b1>
  %s = tile.splat %n : i32 -> tensor<4xi32, #b1>
  %sum = arith.addi %r, %s : tensor<4xi32, #b1>
  %c = tilegpu.convert_layout %sum : tensor<4xi32, #b1> -> tensor<4xi32, #s1>
  %e = tile.expand_dims %c axis 1 : tensor<4xi32, #s1> -> tensor<4x1xi32, #b2>
  %q1 = tile.splat %q : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>, #b1>
  tile.store %q1, %sum : tensor<4x!tile.ptr<i32>, #b1>
  %q2 = tile.splat %q : !tile.ptr<i32> -> tensor<4x1x!tile.ptr<i32>, #b2>
  tile.store %q2, %e : tensor<4x1x!tile.ptr<i32>, #b2>
  tile.return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s1 = #tilegpu.slice<{dim = 1, parent = #b2}>

// A loaded value cannot be made elsewhere: its conversion stays.
// CHECK-LABEL: tile.func @kept
// CHECK: tile.load
// CHECK: tilegpu.convert_layout
tile.func @kept(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>, #b1>
  %x = tile.load %ptrs : tensor<4x!tile.ptr<f32>, #b1>
  %c = tilegpu.convert_layout %x : tensor<4xf32, #b1> -> tensor<4xf32, #s1>
  %e = tile.expand_dims %c axis 1 : tensor<4xf32, #s1> -> tensor<4x1xf32, #b2>
  %q = tile.splat %p : !tile.ptr<f32> -> tensor<4x1x!tile.ptr<f32>, #b2>
  tile.store %q, %e : tensor<4x1x!tile.ptr<f32>, #b2>
  tile.return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s1 = #tilegpu.slice<{dim = 1, parent = #b2}>

// A splat constant is the same constant in any layout.
// CHECK-LABEL: tile.func @constant
// CHECK-NOT: tilegpu.convert_layout
// CHECK: arith.constant dense<1.000000e+00> : tensor<4xf32, #[[S:slice[0-9]*]]>
// CHECK-NOT: tilegpu.convert_layout
tile.func @constant(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c = arith.constant dense<1.0> : tensor<4xf32, #b1>
  %s = tilegpu.convert_layout %c : tensor<4xf32, #b1> -> tensor<4xf32, #s1>
  %e = tile.expand_dims %s axis 1 : tensor<4xf32, #s1> -> tensor<4x1xf32, #b2>
  %q = tile.splat %p : !tile.ptr<f32> -> tensor<4x1x!tile.ptr<f32>, #b2>
  tile.store %q, %e : tensor<4x1x!tile.ptr<f32>, #b2>
  tile.return
}

// -----

// A loop-carried accumulator that every iteration converts to the mma layout
// and back is carried in the mma layout: one conversion before the loop (of a
// splat constant, so none at all), and none after it: the store takes the
// mma layout, its pointers made in it.
#blk = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-DAG: #[[MMA:.*]] = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
// CHECK-LABEL: tile.func @carried
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<16x8xf32, #[[MMA]]>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<16x8xf32, #[[MMA]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[NEXT:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]]
// CHECK: scf.yield %[[NEXT]] : tensor<16x8xf32, #[[MMA]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[PS:.*]] = tile.splat %{{.*}} : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #[[MMA]]>
// CHECK: tile.store %[[PS]], %[[R]] : tensor<16x8x!tile.ptr<f32>, #[[MMA]]>
tile.func @carried(%n: i32, %h: f16, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16x8xf32, #blk>
  %a = tile.splat %h : f16 -> tensor<16x16xf16, #opa>
  %b = tile.splat %h : f16 -> tensor<16x8xf16, #opb>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x8xf32, #blk>) : i32 {
    %in = tilegpu.convert_layout %acc : tensor<16x8xf32, #blk> -> tensor<16x8xf32, #mma>
    %next = tile.dot %a, %b, %in : tensor<16x16xf16, #opa>, tensor<16x8xf16, #opb> -> tensor<16x8xf32, #mma>
    %out = tilegpu.convert_layout %next : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #blk>
    scf.yield %out : tensor<16x8xf32, #blk>
  }
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #blk>
  tile.store %ps, %r : tensor<16x8x!tile.ptr<f32>, #blk>
  tile.return
}

// -----

// Both branches of an scf.if yield a product converted from the mma layout
// (the two versions of a loop that tile-loads-to-descs makes): the scf.if
// yields the mma layout, and the store after it takes that layout, with no
// conversion left.
#blk = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
#opb = #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-DAG: #[[MMA:.*]] = #tilegpu.mma<{warpsPerCTA = [1, 1]}>
// CHECK-LABEL: tile.func @branches
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<16x8xf32, #[[MMA]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store %{{.*}}, %[[R]] : tensor<16x8x!tile.ptr<f32>, #[[MMA]]>
tile.func @branches(%c: i1, %h: f16, %g: f16, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %zero = arith.constant dense<0.0> : tensor<16x8xf32, #mma>
  %r = scf.if %c -> (tensor<16x8xf32, #blk>) {
    %a = tile.splat %h : f16 -> tensor<16x16xf16, #opa>
    %b = tile.splat %h : f16 -> tensor<16x8xf16, #opb>
    %d = tile.dot %a, %b, %zero : tensor<16x16xf16, #opa>, tensor<16x8xf16, #opb> -> tensor<16x8xf32, #mma>
    %o = tilegpu.convert_layout %d : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #blk>
    scf.yield %o : tensor<16x8xf32, #blk>
  } else {
    %a = tile.splat %g : f16 -> tensor<16x16xf16, #opa>
    %b = tile.splat %g : f16 -> tensor<16x8xf16, #opb>
    %d = tile.dot %a, %b, %zero : tensor<16x16xf16, #opa>, tensor<16x8xf16, #opb> -> tensor<16x8xf32, #mma>
    %o = tilegpu.convert_layout %d : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #blk>
    scf.yield %o : tensor<16x8xf32, #blk>
  }
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #blk>
  tile.store %ps, %r : tensor<16x8x!tile.ptr<f32>, #blk>
  tile.return
}

// -----

// The epilogue of a matrix product: the result is cast and stored. The
// store moves to the mma layout with the cast, and the addresses and the
// mask are computed again in it, down to the ranges (their 1-D parts in
// slices of the mma layout): no conversion is left.
#blk = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
// CHECK-DAG: #[[MMA:.*]] = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
// CHECK-DAG: #[[ROWS:.*]] = #tilegpu.slice<{dim = 1, parent = #[[MMA]]}>
// CHECK-LABEL: tile.func @epilogue
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[MMA]]> to tensor<64x64xf16, #[[MMA]]>
// CHECK: tile.range 0, 64 : tensor<64xi32, #[[ROWS]]>
// CHECK: tile.expand_dims %{{.*}} axis 1 : tensor<64xi32, #[[ROWS]]> -> tensor<64x1xi32, #[[MMA]]>
// CHECK: tile.store %{{.*}}, %[[H]], %{{.*}} : tensor<64x64x!tile.ptr<f16>, #[[MMA]]>
tile.func @epilogue(%x: !tile.ptr<f32>, %p: !tile.ptr<f16>, %m: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
  %acc = tile.load %xs : tensor<64x64x!tile.ptr<f32>, #mma>
  %rows = tile.range 0, 64 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blk}>>
  %cols = tile.range 0, 64 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blk}>>
  %r1 = tile.expand_dims %rows axis 1 : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #blk}>> -> tensor<64x1xi32, #blk>
  %c1 = tile.expand_dims %cols axis 0 : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #blk}>> -> tensor<1x64xi32, #blk>
  %r = tile.broadcast %r1 : tensor<64x1xi32, #blk> -> tensor<64x64xi32, #blk>
  %c = tile.broadcast %c1 : tensor<1x64xi32, #blk> -> tensor<64x64xi32, #blk>
  %stride = arith.constant dense<64> : tensor<64x64xi32, #blk>
  %rs = arith.muli %r, %stride : tensor<64x64xi32, #blk>
  %off = arith.addi %rs, %c : tensor<64x64xi32, #blk>
  %base = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blk>
  %ptrs = tile.addptr %base, %off : tensor<64x64x!tile.ptr<f16>, #blk>, tensor<64x64xi32, #blk>
  %ms = tile.splat %m : i32 -> tensor<64x64xi32, #blk>
  %ok = arith.cmpi slt, %r, %ms : tensor<64x64xi32, #blk>
  %acc_blk = tilegpu.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blk>
  %h = arith.truncf %acc_blk : tensor<64x64xf32, #blk> to tensor<64x64xf16, #blk>
  tile.store %ptrs, %h, %ok : tensor<64x64x!tile.ptr<f16>, #blk>
  tile.return
}

// -----

// A conversion of a value loaded from memory is not computed again: the
// load stays, and so does the conversion.
#blk = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blk2 = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tile.func @loaded
// CHECK: tile.load
// CHECK: tilegpu.convert_layout
tile.func @loaded(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %base = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blk>
  %x = tile.load %base : tensor<64x64x!tile.ptr<f32>, #blk>
  %y = tilegpu.convert_layout %x : tensor<64x64xf32, #blk> -> tensor<64x64xf32, #blk2>
  %base2 = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blk2>
  tile.store %base2, %y : tensor<64x64x!tile.ptr<f32>, #blk2>
  tile.return
}

// -----

// A conversion to a dot operand's layout does not move up through a cast
// that changes the elements' width: f32 and f16 fragments of one
// dot-operand layout are held by different threads (found by tile-smith's
// dot kernels on the GPU: the cast ran in the TF32 placement).
#blk = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 1]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
// CHECK-LABEL: tile.func @cast_before_dot
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<32x16xf32, #{{blocked.*}}> to tensor<32x16xf16, #{{blocked.*}}>
// CHECK: tilegpu.convert_layout %[[H]] : tensor<32x16xf16, #{{blocked.*}}> -> tensor<32x16xf16, #{{dot_op.*}}>
tile.func @cast_before_dot(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 2 : i32} {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<32x16x!tile.ptr<f32>, #blk>
  %x = tile.load %ptrs : tensor<32x16x!tile.ptr<f32>, #blk>
  %h = arith.truncf %x : tensor<32x16xf32, #blk> to tensor<32x16xf16, #blk>
  %a = tilegpu.convert_layout %h : tensor<32x16xf16, #blk> -> tensor<32x16xf16, #opa>
  %b = arith.constant dense<1.0> : tensor<16x16xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>>
  %c = arith.constant dense<0.0> : tensor<32x16xf32, #mma>
  %d = tile.dot %a, %b, %c : tensor<32x16xf16, #opa>, tensor<16x16xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #mma}>> -> tensor<32x16xf32, #mma>
  %out = tile.splat %p : !tile.ptr<f32> -> tensor<32x16x!tile.ptr<f32>, #mma>
  tile.store %out, %d : tensor<32x16x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// A conversion of a broadcast row maximum moves up through tile.broadcast and
// tile.expand_dims to the 64 values of the reduction (in the slice of the
// target layout), not the 64 x 64 tile.
// CHECK-LABEL: tile.func @shape_ops
// CHECK: %[[M:.*]] = tile.reduce max
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[M]] : tensor<64xf32, #{{.*}}> -> tensor<64xf32, #{{.*}}>
// CHECK: %[[E:.*]] = tile.expand_dims %[[C]] axis 1
// CHECK: tile.broadcast %[[E]]
// CHECK-NOT: tilegpu.convert_layout
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
tile.func @shape_ops(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #b>
  %x = tile.load %ptrs : tensor<64x64x!tile.ptr<f32>, #b>
  %m = tile.reduce max %x axis 1 : tensor<64x64xf32, #b> -> tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #b}>>
  %e = tile.expand_dims %m axis 1 : tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #b}>> -> tensor<64x1xf32, #b>
  %bc = tile.broadcast %e : tensor<64x1xf32, #b> -> tensor<64x64xf32, #b>
  %y = tilegpu.convert_layout %bc : tensor<64x64xf32, #b> -> tensor<64x64xf32, #c>
  %out = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #c>
  tile.store %out, %y : tensor<64x64x!tile.ptr<f32>, #c>
  tile.return
}
