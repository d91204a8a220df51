// Every verifier message of the tilegpu dialect.
// RUN: tile-opt %s --split-input-file --verify-diagnostics

// expected-error @below {{sizePerThread, threadsPerWarp, warpsPerCTA and order must all have the layout's rank (1)}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @below {{order must be a permutation of 0..1}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 1]}>

// -----

// expected-error @below {{threadsPerWarp must hold powers of two, got 3}}
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [3], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @below {{threadsPerWarp must multiply to 32 (a warp), got 16}}
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>


// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{slice dimension 1 is out of range for a rank-1 parent}}
#s = #tilegpu.slice<{dim = 1, parent = #b}>

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @rank_mismatch(%x: f32) {
  // expected-error @below {{a rank-1 blocked layout cannot lay out a rank-2 tile}}
  %t = tile.splat %x : f32 -> tensor<4x4xf32, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @not_pow2(%x: f32) {
  // expected-error @below {{a tile with a layout needs dimensions that are powers of two, got 100}}
  %t = tile.splat %x : f32 -> tensor<100xf32, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.slice<{dim = 0, parent = #b}>
tile.func @slice_rank(%x: f32) {
  // expected-error @below {{a slice of a rank-1 layout lays out rank-0 tiles, not rank-1}}
  %t = tile.splat %x : f32 -> tensor<4xf32, #s>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @convert_shape(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<128xf32, #b>
  // expected-error @below {{changes the tile 'tensor<128xf32, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' into 'tensor<64xf32, #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>'; only the layout may change}}
  %c = tilegpu.convert_layout %t : tensor<128xf32, #b> -> tensor<64xf32, #b2>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @convert_no_layout(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<128xf32, #b>
  // expected-error @below {{converts between layouts; both types need one}}
  %c = tilegpu.convert_layout %t : tensor<128xf32, #b> -> tensor<128xf32>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
tile.func @warps(%x: f32) attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{'tile.splat' op has a layout over 8 warps in a kernel of 4 warps}}
  %t = tile.splat %x : f32 -> tensor<256xf32, #b>
  tile.return
}

// -----

// expected-error @below {{'tilegpu.num_warps' must be a power of two from 1 to 32, got 6 : i32}}
tile.func @bad_num_warps() attributes {tilegpu.num_warps = 6 : i32} {
  tile.return
}

// -----

// expected-error @below {{unknown tilegpu attribute 'tilegpu.warps'}}
tile.func @unknown_attr() attributes {tilegpu.warps = 4 : i32} {
  tile.return
}

// -----

// expected-error @below {{an mma layout has two warp counts (along M and N), got 1}}
#m = #tilegpu.mma<{warpsPerCTA = [4]}>

// -----

// expected-error @below {{warpsPerCTA must hold powers of two, got 3}}
#m = #tilegpu.mma<{warpsPerCTA = [3, 1]}>


// -----

tile.func @mma_rank(%f: f32) attributes {tilegpu.num_warps = 1 : i32} {
  // expected-error @below {{an mma layout lays out rank-2 tiles, not rank-1}}
  %t = tile.splat %f : f32 -> tensor<16xf32, #tilegpu.mma<{warpsPerCTA = [1, 1]}>>
  tile.return
}

// -----

// expected-error @below {{opIdx is 0 (A) or 1 (B), got 2}}
#d = #tilegpu.dot_operand<{opIdx = 2, parent = #tilegpu.mma<{warpsPerCTA = [1, 1]}>}>

// -----

// expected-error @below {{the parent of a dot operand is an mma layout or a rank-2 blocked layout}}
#d = #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>}>

// -----

tile.func @operand_type(%i: i32) attributes {tilegpu.num_warps = 1 : i32} {
  // expected-error @below {{an mma operand holds f16, bf16, f32 (TF32), f8E4M3FN or f8E5M2, not 'i32'}}
  %t = tile.splat %i : i32 -> tensor<16x16xi32, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.mma<{warpsPerCTA = [1, 1]}>}>>
  tile.return
}

// -----

tile.func @mma_warps(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{has a layout over 2 warps in a kernel of 4 warps}}
  %t = tile.splat %f : f32 -> tensor<16x16xf32, #tilegpu.mma<{warpsPerCTA = [2, 1]}>>
  tile.return
}

// -----

// expected-error @below {{a shared layout's vec is a power of two, got 6}}
#sh = #tilegpu.shared<{vec = 6, perPhase = 1, maxPhase = 1, order = [1, 0]}>

// -----

// expected-error @below {{a shared layout lays out rank-2 tiles; its order is [1, 0] or [0, 1]}}
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 1]}>

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{a memdesc's layout is a #tilegpu.shared layout}}
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #b>
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{a memdesc holds a rank-2 tile, or a ring of them (rank 3), not rank 1}}
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64xf16, #sh>
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{a memdesc's tile dimensions are powers of two, got 24}}
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x24xf16, #sh>
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{a row of 32 elements cannot hold the swizzle's 8 groups of 8 elements}}
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{a memdesc holds integers or floats of at least a byte, not 'i1'}}
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xi1, #sh>
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k(%i: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16, #sh>
  // expected-error @below {{picks a '!tilegpu.memdesc<32x64xf16, #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>>' from a '!tilegpu.memdesc<2x64x32xf16, #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>>'; expected the source's shape without its leading dimension, and its element type and layout}}
  %s = tilegpu.memdesc_index %m[%i] : !tilegpu.memdesc<2x64x32xf16, #sh> -> !tilegpu.memdesc<32x64xf16, #sh>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k(%x: f16) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  %t = tile.splat %x : f16 -> tensor<64x32xf16, #b>
  // expected-error @below {{copies from a tile of pointers, not 'tensor<64x32xf16}}
  tilegpu.async_copy %t, %m : tensor<64x32xf16, #b>, !tilegpu.memdesc<64x32xf16, #sh>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  %t = tile.splat %p : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>, #b>
  // expected-error @below {{expected the same shape and the pointers' element type}}
  tilegpu.async_copy %t, %m : tensor<64x32x!tile.ptr<f32>, #b>, !tilegpu.memdesc<64x32xf16, #sh>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k(%p: !tile.ptr<f16>) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  %t = tile.splat %p : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  %ok = arith.constant dense<1> : tensor<64x32xi32, #b>
  // expected-error @below {{needs a mask of i1 in the pointers' shape and layout, got 'tensor<64x32xi32}}
  tilegpu.async_copy %t, %m mask %ok : tensor<64x32x!tile.ptr<f16>, #b>, !tilegpu.memdesc<64x32xf16, #sh>, tensor<64x32xi32, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  // expected-error @below {{expected the buffer's shape and element type}}
  %t = tilegpu.local_load %m : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf32, #b>
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  // expected-error @below {{needs a result with a layout}}
  %t = tilegpu.local_load %m : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  // expected-error @below {{expected the buffer's shape and element type}}
  %t = tilegpu.local_load %m : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x16xf16, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  // expected-error @below {{has 1 offsets for a buffer of rank 2}}
  %t = tilegpu.local_load %m offsets [16] : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x16xf16, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  // expected-error @below {{loads a part of 16 at 8 of a dimension of 32; expected a multiple of the part's size, within the buffer}}
  %t = tilegpu.local_load %m offsets [0, 8] : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x16xf16, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  // expected-error @below {{loads a part of 16 at 32 of a dimension of 32}}
  %t = tilegpu.local_load %m offsets [0, 32] : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x16xf16, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{a slice's parent is a blocked or an mma layout, not #tilegpu.slice}}
#s = #tilegpu.slice<{dim = 0, parent = #tilegpu.slice<{dim = 0, parent = #b}>}>

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{a memdesc's dimensions are positive, got 0}}
  %m = tilegpu.local_alloc : !tilegpu.memdesc<0x64x32xf16, #sh>
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k(%p: !tile.ptr<f16>) attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  %t = tile.splat %p : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  // expected-error @below {{needs pointers with a layout}}
  tilegpu.async_copy %t, %m : tensor<64x32x!tile.ptr<f16>>, !tilegpu.memdesc<64x32xf16, #sh>
  tile.return
}

// -----

// 32 x 8 halves over 16 warps of 32 threads: 512 threads for 256
// elements, so two threads would copy each.
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [16, 1], order = [1, 0]}>
#sh = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k(%p: !tile.ptr<f16>) attributes {tilegpu.num_warps = 16 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<32x8xf16, #sh>
  %t = tile.splat %p : !tile.ptr<f16> -> tensor<32x8x!tile.ptr<f16>, #b>
  // expected-error @below {{needs a layout that gives each element to one thread; #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [16, 1], order = [1, 0]}> gives some to several threads, which would all write them}}
  tilegpu.async_copy %t, %m : tensor<32x8x!tile.ptr<f16>, #b>, !tilegpu.memdesc<32x8xf16, #sh>
  tile.return
}

// -----

// A dot operand's element type that does not parse: the parser's error, not
// a crash in the encoding's check of the missing type (found by tile-fuzz).
#mma = #tilegpu.mma<{warpsPerCTA = [2, 2]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x32xf16, #sh>
  // expected-error @below {{undefined symbol alias id 'f16'}}
  %a = tilegpu.local_load %m offsets [0, 16] : !tilegpu.memdesc<64x32xf16, #sh> -> tensor<64x16x!f16, #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>>
  tile.return
}

// -----

// expected-error @below {{an mma layout is version 2 (mma.sync) or 3 (wgmma), not 4}}
#m = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 4}>

// -----

// expected-error @below {{a version 3 mma layout stacks whole warpgroups along M: warpsPerCTA[0] is a multiple of 4, got 2}}
#m = #tilegpu.mma<{warpsPerCTA = [2, 2], versionMajor = 3}>

// -----

tile.func @wgmma_shape(%f: f32) attributes {tilegpu.num_warps = 8 : i32} {
  // expected-error @below {{a version 3 mma layout over warps 8 x 1 lays out tiles of a multiple of 128 x 8 elements, not 64 x 64}}
  %t = tile.splat %f : f32 -> tensor<64x64xf32, #tilegpu.mma<{warpsPerCTA = [8, 1], versionMajor = 3}>>
  tile.return
}

// -----

// expected-error @below {{a version 3 (wgmma) product reads its operands from shared memory (tilegpu.warpgroup_dot); they have no register layout}}
#d = #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>}>

// -----

// expected-error @below {{a shared layout's columnsPerBlock is 0 or a power of two, got 48}}
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 48}>

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], columnsPerBlock = 128}>
tile.func @k() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{a row of 64 elements cannot be cut into blocks of 128 columns}}
  %m = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sh>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1]}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sh>
  // expected-error @below {{accumulates in a version 3 #tilegpu.mma layout, not 'tensor<64x64xf32, #tilegpu.mma<{warpsPerCTA = [4, 1]}>>'}}
  %d = tilegpu.warpgroup_dot %a, %a, %c : !tilegpu.memdesc<64x64xf16, #sh>, !tilegpu.memdesc<64x64xf16, #sh>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf16, #sh>
  // expected-error @below {{multiplies '!tilegpu.memdesc<64x128xf16, #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>' by '!tilegpu.memdesc<64x128xf16, #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>' into 'tensor<64x64xf32, #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>>'; expected M x K by K x N into M x N}}
  %d = tilegpu.warpgroup_dot %a, %a, %c : !tilegpu.memdesc<64x128xf16, #sh>, !tilegpu.memdesc<64x128xf16, #sh>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sh>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x64xbf16, #sh>
  // expected-error @below {{multiplies 'f16' by 'bf16'; expected one element type}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #sh>, !tilegpu.memdesc<64x64xbf16, #sh>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sh = #tilegpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf32, #sh>
  // expected-error @below {{operand A holds f32; wgmma reads f16, bf16, f8E4M3FN or f8E5M2 here}}
  %d = tilegpu.warpgroup_dot %a, %a, %c : !tilegpu.memdesc<64x64xf32, #sh>, !tilegpu.memdesc<64x64xf32, #sh>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sh>
  // expected-error @below {{operand A is laid out as #tilegpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>; wgmma reads it as #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}}
  %d = tilegpu.warpgroup_dot %a, %a, %c : !tilegpu.memdesc<64x64xf16, #sh>, !tilegpu.memdesc<64x64xf16, #sh>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh8 = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x8xf16, #sh8>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<8x64xf16, #sh>
  // expected-error @below {{operand A has rows of 8 elements; wgmma's layouts have rows of at least 32 bytes}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x8xf16, #sh8>, !tilegpu.memdesc<8x64xf16, #sh>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 2], versionMajor = 3}>
#sha = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 8 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sha>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #shb>
  // expected-error @below {{operand B is contiguous along N in rows of 64 elements, which the 32 columns of each warpgroup would start inside of}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #sha>, !tilegpu.memdesc<64x64xf16, #shb>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sh>
  %r = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16, #sh>
  // expected-error @below {{expected M x K by K x N into M x N}}
  %d = tilegpu.warpgroup_dot %a, %r, %c : !tilegpu.memdesc<64x64xf16, #sh>, !tilegpu.memdesc<2x64x64xf16, #sh>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sa = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#sb = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x8xf16, #sa>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<8x64xf16, #sb>
  // expected-error @below {{operand A has K = 8; wgmma steps through K 16 at a time}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x8xf16, #sa>, !tilegpu.memdesc<8x64xf16, #sb>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

tile.func @k(%n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{'tilegpu.stage_distance' is a positive number of iterations, got 0 : i32}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tilegpu.stage_distance = 0 : i32}
  tile.return
}

// -----

// expected-error @below {{a row of mbarriers holds at least one, got 0}}
tile.func @k(%x: !tile.ptr<f16>) attributes {tilegpu.num_warps = 4 : i32, bars = !tilegpu.mbarriers<0>} {
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%x: !tile.ptr<f16>, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<128x64xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<1>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<128x64xf16, #sh>
  // expected-error @below {{'tilegpu.tma_load' op takes 2 offsets for a descriptor of rank 2, got 1}}
  tilegpu.tma_load %desc[%m], %buf, %bars[%c1] : !tile.tensor_desc<128x64xf16>, !tilegpu.memdesc<128x64xf16, #sh>, !tilegpu.mbarriers<1>
  tile.return
}

// -----

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%x: !tile.ptr<f16>, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<128x64xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<1>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sh>
  // expected-error @below {{'tilegpu.tma_load' op copies a box of 'tensor<128x64xf16>' into a buffer of the same shape and element type, not '!tilegpu.memdesc<64x64xf16, #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c1] : !tile.tensor_desc<128x64xf16>, !tilegpu.memdesc<64x64xf16, #sh>, !tilegpu.mbarriers<1>
  tile.return
}

// -----

// Rows of 256 bytes: wider than TMA's widest swizzle.
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%x: !tile.ptr<f16>, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x128xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<1>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<64x128xf16, #sh>
  // expected-error @below {{'tilegpu.tma_load' op cannot write its buffer with TMA: it is swizzled as #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, which is not TMA's 32-, 64- or 128-byte swizzle of rows as wide as it}}
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c1] : !tile.tensor_desc<64x128xf16>, !tilegpu.memdesc<64x128xf16, #sh>, !tilegpu.mbarriers<1>
  tile.return
}

// -----

// Contiguous along the rows' other dimension.
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
tile.func @k(%x: !tile.ptr<f16>, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<64x64xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<1>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #sh>
  // expected-error @below {{'tilegpu.tma_load' op cannot write its buffer with TMA: it is contiguous along its first dimension (order [0, 1]); TMA writes rows along the last}}
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c1] : !tile.tensor_desc<64x64xf16>, !tilegpu.memdesc<64x64xf16, #sh>, !tilegpu.mbarriers<1>
  tile.return
}

// -----

// A swizzled box of 4 rows: the 128-byte pattern spans 8.
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func @k(%x: !tile.ptr<f16>, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<4x64xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<1>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<4x64xf16, #sh>
  // expected-error @below {{'tilegpu.tma_load' op cannot write its buffer with TMA: it has 4 rows; a swizzled box has a multiple of 8, as the pattern}}
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c1] : !tile.tensor_desc<4x64xf16>, !tilegpu.memdesc<4x64xf16, #sh>, !tilegpu.mbarriers<1>
  tile.return
}

// -----

// An unswizzled box of 64 bytes.
#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @k(%x: !tile.ptr<f16>, %m: i32, %k: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<4x8xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 1 : i32} : !tilegpu.mbarriers<1>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<4x8xf16, #sh>
  // expected-error @below {{'tilegpu.tma_load' op cannot write its buffer with TMA: it takes 64 bytes; TMA writes boxes at multiples of 128 bytes}}
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c1] : !tile.tensor_desc<4x8xf16>, !tilegpu.memdesc<4x8xf16, #sh>, !tilegpu.mbarriers<1>
  tile.return
}

// -----

#mma = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#sh = #tilegpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
tile.func @k(%f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #mma>
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf8E4M3FN, #sh>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf8E4M3FN, #sh>
  // expected-error @below {{operand B is contiguous along N; wgmma reads 8-bit operands contiguous along K only (give B column-major, as N x K)}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf8E4M3FN, #sh>, !tilegpu.memdesc<64x64xf8E4M3FN, #sh>, tensor<64x64xf32, #mma>
  tile.return
}
