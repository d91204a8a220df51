// RUN: tile-opt %s --split-input-file --tilegpu-pipeline | FileCheck %s

// A row loop of four stages without a dot (tile.isStagedInSharedMemory):
// the row's load becomes a ring of four buffers in the load's own runs (8
// halves a thread, no swizzle), three iterations copied before the loop;
// each iteration waits with two groups left in flight, reads its stage
// back in the load's own layout, and copies the row three iterations
// ahead into the buffer the previous iteration read, masked off past the
// end of the loop.
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[BLK:.*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[SH:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tile.func @rows
// CHECK: %[[RING:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<4x1x2048xbf16, #[[SH]]>
// CHECK-COUNT-3: tilegpu.async_commit_group
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %[[N:.*]] step %[[STEP:.*]] iter_args(%[[READ:[^ ]*]] = %{{[^ ]*}}, %[[WRITE:[^ ]*]] = %{{[^ ]*}})
// The wait is where the row was loaded: what the body does before it (a
// scalar's load, as tile-pipeline-loops prefetches the next row's
// statistics at the top, and the row's pointers) is issued before the
// wait's barrier, which ptxas does not move a load below.
// CHECK-NEXT: %[[SPTR:.*]] = tile.addptr %{{.*}}, %[[IV]] : !tile.ptr<f32>, i32
// CHECK-NEXT: tile.load %[[SPTR]] : !tile.ptr<f32>
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<1x2048x!tile.ptr<bf16>, #[[BLK]]>, tensor<1x2048xi32, #[[BLK]]>
// CHECK-NEXT: tilegpu.async_wait {pending = 2 : i32}
// CHECK-NEXT: %[[STAGE:.*]] = tilegpu.memdesc_index %[[RING]][%[[READ]]]
// CHECK-NEXT: %[[ROW:.*]] = tilegpu.local_load %[[STAGE]] : !tilegpu.memdesc<1x2048xbf16, #[[SH]]> -> tensor<1x2048xbf16, #[[BLK]]>
// CHECK: %[[AHEAD:.*]] = arith.muli %[[STEP]], %{{.*}} : i32
// CHECK: %[[NEXT:.*]] = arith.addi %[[IV]], %[[AHEAD]] : i32
// CHECK: arith.cmpi slt, %[[NEXT]], %[[N]] : i32
// CHECK: %[[W:.*]] = tilegpu.memdesc_index %[[RING]][%[[WRITE]]]
// CHECK: tilegpu.async_copy %{{.*}}, %[[W]] mask %{{.*}} : tensor<1x2048x!tile.ptr<bf16>, #[[BLK]]>
// CHECK: tilegpu.async_commit_group
// CHECK-NOT: tile.load
// CHECK: arith.extf %[[ROW]]
// CHECK: } {tilegpu.stage_distance = 1 : i32}
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
tile.func @rows(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32>, %n: i32, %ncols: i32 {tile.divisibility = 16 : i64}) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<1x2048xbf16, #blk>
  %cols = tile.range 0, 2048 : tensor<2048xi32, #tilegpu.slice<{dim = 0, parent = #blk}>>
  %cols_row = tile.expand_dims %cols axis 0 : tensor<2048xi32, #tilegpu.slice<{dim = 0, parent = #blk}>> -> tensor<1x2048xi32, #blk>
  %limit = tile.splat %ncols : i32 -> tensor<1x2048xi32, #blk>
  %ok = arith.cmpi slt, %cols_row, %limit : tensor<1x2048xi32, #blk>
  scf.for %row = %c0 to %n step %c1 : i32 {
    %sptr = tile.addptr %y, %row : !tile.ptr<f32>, i32
    %s = tile.load %sptr : !tile.ptr<f32>
    %start = arith.muli %row, %ncols : i32
    %base = tile.addptr %x, %start : !tile.ptr<bf16>, i32
    %bases = tile.splat %base : !tile.ptr<bf16> -> tensor<1x2048x!tile.ptr<bf16>, #blk>
    %ptrs = tile.addptr %bases, %cols_row : tensor<1x2048x!tile.ptr<bf16>, #blk>, tensor<1x2048xi32, #blk>
    %v = tile.load %ptrs, %ok, %zero : tensor<1x2048x!tile.ptr<bf16>, #blk>
    %f = arith.extf %v : tensor<1x2048xbf16, #blk> to tensor<1x2048xf32, #blk>
    %out = tile.splat %y : !tile.ptr<f32> -> tensor<1x2048x!tile.ptr<f32>, #blk>
    %optrs = tile.addptr %out, %cols_row : tensor<1x2048x!tile.ptr<f32>, #blk>, tensor<1x2048xi32, #blk>
    tile.store %optrs, %f, %ok : tensor<1x2048x!tile.ptr<f32>, #blk>
    tile.store %sptr, %s : !tile.ptr<f32>
  } {tile.num_stages = 4 : i32}
  tile.return
}

// -----

// Not staged: masked lanes that must hold -inf (cp.async zero-fills them);
// a loop of two stages (tile-pipeline-loops carries its loads in
// registers); a tile of fewer elements than the block has threads; a
// tile whose layout gives each element to several threads (256 elements
// in a layout of 1024: they would copy each to one place); a loop with a
// dot (its other loads are carried in registers, as the operands' stages
// are the dot's).
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-LABEL: tile.func @not_staged
// CHECK-NOT: tilegpu.local_alloc
// CHECK-NOT: tilegpu.async_copy
// CHECK-COUNT-5: tile.load
// CHECK-NOT: tilegpu.async_copy
tile.func @not_staged(%x: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<1x1024xf32, #blk>
  %mask = arith.constant dense<true> : tensor<1x1024xi1, #blk>
  scf.for %row = %c0 to %n step %c1 : i32 {
    %base = tile.addptr %x, %row : !tile.ptr<f32>, i32
    %bases = tile.splat %base : !tile.ptr<f32> -> tensor<1x1024x!tile.ptr<f32>, #blk>
    %v = tile.load %bases, %mask, %ninf : tensor<1x1024x!tile.ptr<f32>, #blk>
    tile.store %bases, %v : tensor<1x1024x!tile.ptr<f32>, #blk>
  } {tile.num_stages = 3 : i32}
  scf.for %row = %c0 to %n step %c1 : i32 {
    %base = tile.addptr %x, %row : !tile.ptr<f32>, i32
    %bases = tile.splat %base : !tile.ptr<f32> -> tensor<1x1024x!tile.ptr<f32>, #blk>
    %v = tile.load %bases : tensor<1x1024x!tile.ptr<f32>, #blk>
    tile.store %bases, %v : tensor<1x1024x!tile.ptr<f32>, #blk>
  } {tile.num_stages = 2 : i32}
  scf.for %row = %c0 to %n step %c1 : i32 {
    %base = tile.addptr %x, %row : !tile.ptr<f32>, i32
    %bases = tile.splat %base : !tile.ptr<f32> -> tensor<1x64x!tile.ptr<f32>, #blk>
    %v = tile.load %bases : tensor<1x64x!tile.ptr<f32>, #blk>
    tile.store %bases, %v : tensor<1x64x!tile.ptr<f32>, #blk>
  } {tile.num_stages = 3 : i32}
  scf.for %row = %c0 to %n step %c1 : i32 {
    %base = tile.addptr %x, %row : !tile.ptr<f32>, i32
    %bases = tile.splat %base : !tile.ptr<f32> -> tensor<1x256x!tile.ptr<f32>, #blk>
    %v = tile.load %bases : tensor<1x256x!tile.ptr<f32>, #blk>
    tile.store %bases, %v : tensor<1x256x!tile.ptr<f32>, #blk>
  } {tile.num_stages = 3 : i32}
  scf.for %row = %c0 to %n step %c1 : i32 {
    %base = tile.addptr %x, %row : !tile.ptr<f32>, i32
    %bases = tile.splat %base : !tile.ptr<f32> -> tensor<1x1024x!tile.ptr<f32>, #blk>
    %v = tile.load %bases : tensor<1x1024x!tile.ptr<f32>, #blk>
    %zero = arith.constant dense<0.0> : tensor<16x16xf32, #blk>
    %a = arith.constant dense<1.0> : tensor<16x16xf32, #tilegpu.dot_operand<{opIdx = 0, parent = #blk}>>
    %b = arith.constant dense<1.0> : tensor<16x16xf32, #tilegpu.dot_operand<{opIdx = 1, parent = #blk}>>
    %d = tile.dot %a, %b, %zero input_precision = ieee : tensor<16x16xf32, #tilegpu.dot_operand<{opIdx = 0, parent = #blk}>>, tensor<16x16xf32, #tilegpu.dot_operand<{opIdx = 1, parent = #blk}>> -> tensor<16x16xf32, #blk>
    tile.store %bases, %v : tensor<1x1024x!tile.ptr<f32>, #blk>
    %dptrs = tile.splat %x : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>, #blk>
    tile.store %dptrs, %d : tensor<16x16x!tile.ptr<f32>, #blk>
  } {tile.num_stages = 3 : i32}
  tile.return
}

// -----

// Rows of bf16 whose start and length are not known to be even: pieces of
// 2 bytes, under the 4 cp.async copies, so the load is not staged (and
// tile-pipeline-loops carries it in registers instead).
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-LABEL: tile.func @narrow
// CHECK-NOT: tilegpu.async_copy
// CHECK: tile.load
tile.func @narrow(%x: !tile.ptr<bf16>, %y: !tile.ptr<f32>, %n: i32, %ncols: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cols = tile.range 0, 2048 : tensor<2048xi32, #tilegpu.slice<{dim = 0, parent = #blk}>>
  %cols_row = tile.expand_dims %cols axis 0 : tensor<2048xi32, #tilegpu.slice<{dim = 0, parent = #blk}>> -> tensor<1x2048xi32, #blk>
  scf.for %row = %c0 to %n step %c1 : i32 {
    %start = arith.muli %row, %ncols : i32
    %base = tile.addptr %x, %start : !tile.ptr<bf16>, i32
    %bases = tile.splat %base : !tile.ptr<bf16> -> tensor<1x2048x!tile.ptr<bf16>, #blk>
    %ptrs = tile.addptr %bases, %cols_row : tensor<1x2048x!tile.ptr<bf16>, #blk>, tensor<1x2048xi32, #blk>
    %v = tile.load %ptrs : tensor<1x2048x!tile.ptr<bf16>, #blk>
    %f = arith.extf %v : tensor<1x2048xbf16, #blk> to tensor<1x2048xf32, #blk>
    %out = tile.splat %y : !tile.ptr<f32> -> tensor<1x2048x!tile.ptr<f32>, #blk>
    %optrs = tile.addptr %out, %cols_row : tensor<1x2048x!tile.ptr<f32>, #blk>, tensor<1x2048xi32, #blk>
    tile.store %optrs, %f : tensor<1x2048x!tile.ptr<f32>, #blk>
  } {tile.num_stages = 3 : i32}
  tile.return
}
