// tilegpu-coalesce: each thread holds as many consecutive elements as one
// access can move, when the axis analysis proves it.
// RUN: tile-opt %s --convert-tile-to-tilegpu --tilegpu-coalesce --split-input-file | FileCheck %s

// Aligned base, offsets from a range, no mask: 4 x f32 = 128 bits.
// CHECK: #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @aligned_f32
tile.func @aligned_f32(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64}) {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %addrs : tensor<1024x!tile.ptr<f32>>
  tile.store %addrs, %x : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// 8 x f16 = 128 bits.
// CHECK: #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @aligned_f16
tile.func @aligned_f16(%p: !tile.ptr<f16> {tile.divisibility = 16 : i64}) {
  %r = tile.range 0, 2048 : tensor<2048xi32>
  %ptrs = tile.splat %p : !tile.ptr<f16> -> tensor<2048x!tile.ptr<f16>>
  %addrs = tile.addptr %ptrs, %r : tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>
  %x = tile.load %addrs : tensor<2048x!tile.ptr<f16>>
  tile.store %addrs, %x : tensor<2048x!tile.ptr<f16>>
  tile.return
}

// -----

// Without a divisibility hint the base may be anywhere: one element at a
// time.
// CHECK: #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @unaligned
tile.func @unaligned(%p: !tile.ptr<f32>) {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %addrs : tensor<1024x!tile.ptr<f32>>
  tile.store %addrs, %x : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// A base only 8-byte aligned: 2 x f32.
// CHECK: #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @aligned_8
tile.func @aligned_8(%p: !tile.ptr<f32> {tile.divisibility = 8 : i64}) {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %addrs : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// A mask `i < n` changes value anywhere when nothing is known of n: one
// element at a time. With n a multiple of 16, runs of 4 are uniform.
// CHECK: #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @mask_unknown
tile.func @mask_unknown(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %n: i32) {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %addrs, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// CHECK: #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @mask_divisible
tile.func @mask_divisible(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %n: i32 {tile.divisibility = 16 : i64}) {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %addrs, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// A row of the tile: base + row * stride + columns. The stride must be a
// multiple of 4 elements for rows to stay 16-byte aligned.
// CHECK: #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tile.func @rows
tile.func @rows(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %stride: i32 {tile.divisibility = 16 : i64}) {
  %rows = tile.range 0, 4 : tensor<4xi32>
  %cols = tile.range 0, 256 : tensor<256xi32>
  %r1 = tile.expand_dims %rows axis 1 : tensor<4xi32> -> tensor<4x1xi32>
  %r2 = tile.broadcast %r1 : tensor<4x1xi32> -> tensor<4x256xi32>
  %c1 = tile.expand_dims %cols axis 0 : tensor<256xi32> -> tensor<1x256xi32>
  %c2 = tile.broadcast %c1 : tensor<1x256xi32> -> tensor<4x256xi32>
  %s = tile.splat %stride : i32 -> tensor<4x256xi32>
  %ro = arith.muli %r2, %s : tensor<4x256xi32>
  %off = arith.addi %ro, %c2 : tensor<4x256xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<4x256x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %off : tensor<4x256x!tile.ptr<f32>>, tensor<4x256xi32>
  %x = tile.load %addrs : tensor<4x256x!tile.ptr<f32>>
  tile.return
}

// -----

// Columns of a row-major matrix are contiguous along dimension 0 when the
// offsets are row + column * stride: the layout's order follows.
// CHECK: #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tile.func @columns
tile.func @columns(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %stride: i32 {tile.divisibility = 16 : i64}) {
  %rows = tile.range 0, 256 : tensor<256xi32>
  %cols = tile.range 0, 4 : tensor<4xi32>
  %r1 = tile.expand_dims %rows axis 1 : tensor<256xi32> -> tensor<256x1xi32>
  %r2 = tile.broadcast %r1 : tensor<256x1xi32> -> tensor<256x4xi32>
  %c1 = tile.expand_dims %cols axis 0 : tensor<4xi32> -> tensor<1x4xi32>
  %c2 = tile.broadcast %c1 : tensor<1x4xi32> -> tensor<256x4xi32>
  %s = tile.splat %stride : i32 -> tensor<256x4xi32>
  %co = arith.muli %c2, %s : tensor<256x4xi32>
  %off = arith.addi %r2, %co : tensor<256x4xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<256x4x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %off : tensor<256x4x!tile.ptr<f32>>, tensor<256x4xi32>
  %x = tile.load %addrs : tensor<256x4x!tile.ptr<f32>>
  tile.return
}

// -----

// 128 elements on 128 threads: one each, whatever the alignment.
// CHECK: #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func @small
tile.func @small(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64}) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %addrs = tile.addptr %ptrs, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %addrs : tensor<128x!tile.ptr<f32>>
  tile.return
}


// -----

// A dot off the tensor cores whose layout is the rank's keeps it where the
// widened one would not fit its operands in registers (tile-smith's seed
// 2769): on 16 warps the 64 x 64 bf16 load is widened to 8 elements a
// thread, which as the 64 x 32 product's layout would give each thread 8
// columns of B along all 64 of K, 512 elements. The dot stays in the rank's
// first layout, converted from and to the widened one around it.
// CHECK-DAG: #[[WIDE:.*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [16, 1], order = [1, 0]}>
// CHECK-DAG: #[[FIT:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [16, 1], order = [1, 0]}>
// CHECK-DAG: #[[A:.*]] = #tilegpu.dot_operand<{opIdx = 0, parent = #[[FIT]]}>
// CHECK-DAG: #[[B:.*]] = #tilegpu.dot_operand<{opIdx = 1, parent = #[[FIT]]}>
// CHECK-LABEL: tile.func @fma_dot_kept
// CHECK: %[[D:.*]] = tile.dot {{.*}} : tensor<64x64xf32, #[[A]]>, tensor<64x32xf32, #[[B]]> -> tensor<64x32xf32, #[[FIT]]>
// CHECK: tilegpu.convert_layout %[[D]] : tensor<64x32xf32, #[[FIT]]> -> tensor<64x32xf32, #[[WIDE]]>
tile.func @fma_dot_kept(%p: !tile.ptr<bf16> {tile.divisibility = 16 : i64},
                        %q: !tile.ptr<f32> {tile.divisibility = 16 : i64})
    attributes {tile.num_warps = 16 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<64x64xi32>
  %r1 = tile.expand_dims %r axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %r2 = tile.broadcast %r1 : tensor<64x1xi32> -> tensor<64x64xi32>
  %r3 = arith.muli %r2, %c64 : tensor<64x64xi32>
  %c1 = tile.expand_dims %r axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %c2 = tile.broadcast %c1 : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %r3, %c2 : tensor<64x64xi32>
  %ptrs = tile.splat %p : !tile.ptr<bf16> -> tensor<64x64x!tile.ptr<bf16>>
  %addrs = tile.addptr %ptrs, %offs : tensor<64x64x!tile.ptr<bf16>>, tensor<64x64xi32>
  %x = tile.load %addrs : tensor<64x64x!tile.ptr<bf16>>
  %xf = arith.extf %x : tensor<64x64xbf16> to tensor<64x64xf32>
  %b = arith.constant dense<1.0> : tensor<64x32xf32>
  %c = arith.constant dense<0.0> : tensor<64x32xf32>
  %d = tile.dot %xf, %b, %c input_precision = ieee : tensor<64x64xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
  %s = tile.reduce sum %d axis 1 : tensor<64x32xf32> -> tensor<64xf32>
  %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %qa = tile.addptr %qs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %qa, %s : tensor<64x!tile.ptr<f32>>
  tile.return
}

// -----

// CHECK: tile-opt-no-kernel
// CHECK-NOT: tilegpu
module attributes {test.name = "tile-opt-no-kernel"} {
}
