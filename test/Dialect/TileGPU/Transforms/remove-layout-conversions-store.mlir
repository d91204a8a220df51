// tilegpu-remove-layout-conversions on an epilogue: a conversion moves below
// a cast that narrows the elements (it then moves half the bytes), never
// above it. A stored wgmma result of 16 bits keeps its conversion to the
// store's coalesced layout, after the cast (with store-from-wgmma, it is
// stored from its #mma registers); an 8-bit one is stored from the
// registers.
// RUN: tile-opt %s --tilegpu-remove-layout-conversions --split-input-file | FileCheck %s --check-prefixes=CHECK,SHARED
// RUN: tile-opt %s --tilegpu-remove-layout-conversions="store-from-wgmma=true" --split-input-file | FileCheck %s --check-prefixes=CHECK,REGS
// RUN: tile-opt %s --tilegpu-remove-layout-conversions="store-from-mma=false" --split-input-file | FileCheck %s --check-prefix=KEEP

#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
// SHARED-DAG: #[[BLK:.*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[MMA:.*]] = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
// CHECK-LABEL: tile.func @epilogue
// CHECK: %[[ACC:.*]] = tile.load %{{.*}} : tensor<64x256x!tile.ptr<f32>, #[[MMA]]>
// CHECK: %[[H:.*]] = arith.truncf %[[ACC]] : tensor<64x256xf32, #[[MMA]]> to tensor<64x256xf16, #[[MMA]]>
// REGS-NOT: tilegpu.convert_layout %[[H]]
// REGS: tile.store %{{.*}}, %[[H]] : tensor<64x256x!tile.ptr<f16>, #[[MMA]]>
// SHARED: %[[C:.*]] = tilegpu.convert_layout %[[H]] : tensor<64x256xf16, #[[MMA]]> -> tensor<64x256xf16, #[[BLK]]>
// SHARED: tile.store %{{.*}}, %[[C]] : tensor<64x256x!tile.ptr<f16>, #[[BLK]]>
tile.func @epilogue(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>) attributes {tilegpu.num_warps = 4 : i32} {
  %src = tile.splat %p : !tile.ptr<f32> -> tensor<64x256x!tile.ptr<f32>, #mma>
  %acc = tile.load %src : tensor<64x256x!tile.ptr<f32>, #mma>
  %acc_blk = tilegpu.convert_layout %acc : tensor<64x256xf32, #mma> -> tensor<64x256xf32, #blk>
  %h = arith.truncf %acc_blk : tensor<64x256xf32, #blk> to tensor<64x256xf16, #blk>
  %dst = tile.splat %q : !tile.ptr<f16> -> tensor<64x256x!tile.ptr<f16>, #blk>
  tile.store %dst, %h : tensor<64x256x!tile.ptr<f16>, #blk>
  tile.return
}

// -----

#blk = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
// CHECK-LABEL: tile.func @bytes
// CHECK: %[[Q:.*]] = arith.truncf %{{.*}} : tensor<64x256xf32, #[[MMA:.*]]> to tensor<64x256xf8E4M3FN, #[[MMA]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store %{{.*}}, %[[Q]] : tensor<64x256x!tile.ptr<f8E4M3FN>, #[[MMA]]>
tile.func @bytes(%p: !tile.ptr<f32>, %q: !tile.ptr<f8E4M3FN>) attributes {tilegpu.num_warps = 4 : i32} {
  %src = tile.splat %p : !tile.ptr<f32> -> tensor<64x256x!tile.ptr<f32>, #mma>
  %acc = tile.load %src : tensor<64x256x!tile.ptr<f32>, #mma>
  %acc_blk = tilegpu.convert_layout %acc : tensor<64x256xf32, #mma> -> tensor<64x256xf32, #blk>
  %f8 = arith.truncf %acc_blk : tensor<64x256xf32, #blk> to tensor<64x256xf8E4M3FN, #blk>
  %dst = tile.splat %q : !tile.ptr<f8E4M3FN> -> tensor<64x256x!tile.ptr<f8E4M3FN>, #blk>
  tile.store %dst, %f8 : tensor<64x256x!tile.ptr<f8E4M3FN>, #blk>
  tile.return
}

// -----

// A conversion after a narrowing cast stays after it (it does not move up
// to convert the wider f32 elements); one after a widening cast moves up.
#b1 = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[B1:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B2:.*]] = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tile.func @narrowing
// CHECK: %[[X:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[B1]]>
// CHECK: %[[H:.*]] = arith.truncf %[[X]] : tensor<64x64xf32, #[[B1]]> to tensor<64x64xf16, #[[B1]]>
// CHECK: tilegpu.convert_layout %[[H]] : tensor<64x64xf16, #[[B1]]> -> tensor<64x64xf16, #[[B2]]>
// CHECK-LABEL: tile.func @widening
// CHECK: %[[Y:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<f16>, #[[B1]]>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[Y]] : tensor<64x64xf16, #[[B1]]> -> tensor<64x64xf16, #[[B2]]>
// CHECK: arith.extf %[[C]] : tensor<64x64xf16, #[[B2]]> to tensor<64x64xf32, #[[B2]]>
tile.func @narrowing(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>) attributes {tilegpu.num_warps = 4 : i32} {
  %src = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #b1>
  %x = tile.load %src : tensor<64x64x!tile.ptr<f32>, #b1>
  %h = arith.truncf %x : tensor<64x64xf32, #b1> to tensor<64x64xf16, #b1>
  %c = tilegpu.convert_layout %h : tensor<64x64xf16, #b1> -> tensor<64x64xf16, #b2>
  %dst = tile.splat %q : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #b2>
  tile.store %dst, %c : tensor<64x64x!tile.ptr<f16>, #b2>
  tile.return
}
tile.func @widening(%p: !tile.ptr<f16>, %q: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %src = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #b1>
  %y = tile.load %src : tensor<64x64x!tile.ptr<f16>, #b1>
  %w = arith.extf %y : tensor<64x64xf16, #b1> to tensor<64x64xf32, #b1>
  %c = tilegpu.convert_layout %w : tensor<64x64xf32, #b1> -> tensor<64x64xf32, #b2>
  %dst = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #b2>
  tile.store %dst, %c : tensor<64x64x!tile.ptr<f32>, #b2>
  tile.return
}

// -----

// A conversion before a loop does not move below a narrowing cast inside
// it: it would then run in every iteration.
#b1 = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tile.func @outside_loop
// CHECK: %[[C:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #{{.*}}> -> tensor<64x64xf32, #{{.*}}>
// CHECK: scf.for
// CHECK: arith.truncf %[[C]]
tile.func @outside_loop(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %src = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #b1>
  %x = tile.load %src : tensor<64x64x!tile.ptr<f32>, #b1>
  %c = tilegpu.convert_layout %x : tensor<64x64xf32, #b1> -> tensor<64x64xf32, #b2>
  %dst = tile.splat %q : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #b2>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %h = arith.truncf %c : tensor<64x64xf32, #b2> to tensor<64x64xf16, #b2>
    tile.store %dst, %h : tensor<64x64x!tile.ptr<f16>, #b2>
  }
  tile.return
}

// -----

// An mma.sync result is stored from its registers, unless store-from-mma
// is off (as in the pipeline's first run of the pass, before
// tilegpu-warpgroup-dot gives the dots their final layouts).
#blk = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
// CHECK-LABEL: tile.func @mma_sync
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[V2:.*]]> to tensor<64x64xf16, #[[V2]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store %{{.*}}, %[[H]] : tensor<64x64x!tile.ptr<f16>, #[[V2]]>
// KEEP-LABEL: tile.func @mma_sync
// KEEP: %[[H:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[V2:.*]]> to tensor<64x64xf16, #[[V2]]>
// KEEP: %[[C:.*]] = tilegpu.convert_layout %[[H]] : tensor<64x64xf16, #[[V2]]> -> tensor<64x64xf16, #[[B:.*]]>
// KEEP: tile.store %{{.*}}, %[[C]] : tensor<64x64x!tile.ptr<f16>, #[[B]]>
tile.func @mma_sync(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>) attributes {tilegpu.num_warps = 4 : i32} {
  %src = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
  %acc = tile.load %src : tensor<64x64x!tile.ptr<f32>, #mma>
  %acc_blk = tilegpu.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blk>
  %h = arith.truncf %acc_blk : tensor<64x64xf32, #blk> to tensor<64x64xf16, #blk>
  %dst = tile.splat %q : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blk>
  tile.store %dst, %h : tensor<64x64x!tile.ptr<f16>, #blk>
  tile.return
}
