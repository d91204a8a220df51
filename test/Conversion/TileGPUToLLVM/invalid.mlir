// What the lowering cannot realize gets a diagnostic naming the op and why.
// RUN: tile-opt %s --convert-tilegpu-to-llvm --split-input-file --verify-diagnostics

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @not_splat(%p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{is a tile constant that is not a splat; the GPU lowering supports splat constants only}}
  %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #b>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>, #b>
  tile.store %ps, %c : tensor<4x!tile.ptr<i32>, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @too_big(%x: f32) attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{produces 'tensor<65536xf32, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>', which needs 512 registers per thread (at most 256); use a smaller tile or more warps}}
  %t = tile.splat %x : f32 -> tensor<65536xf32, #b>
  tile.return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// Past 48 KiB, shared memory is dynamic, up to what the chip allows a block.
// expected-error @below {{kernel 'too_much_shared' needs 262144 bytes of shared memory for reductions, layout conversions and buffers, more than the 232448 a block can have on sm_90; use smaller blocks or fewer stages (NUM_STAGES, BLOCK_K)}}
tile.func @too_much_shared(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 8 : i32} {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<65536x!tile.ptr<f32>, #b1>
  %x = tile.load %ps : tensor<65536x!tile.ptr<f32>, #b1>
  %c = tilegpu.convert_layout %x : tensor<65536xf32, #b1> -> tensor<65536xf32, #b4>
  %ps4 = tile.splat %p : !tile.ptr<f32> -> tensor<65536x!tile.ptr<f32>, #b4>
  tile.store %ps4, %c : tensor<65536x!tile.ptr<f32>, #b4>
  tile.return
}

// -----

// expected-error @below {{kernel 'no_layouts' has no layouts; run convert-tile-to-tilegpu first}}
tile.func @no_layouts() {
  tile.return
}

// -----

tile.func @tile_without_layout(%x: f32) attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{produces 'tensor<128xf32>', a tile without a GPU layout the lowering supports}}
  %t = tile.splat %x : f32 -> tensor<128xf32>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.func @expand_without_slice(%x: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %t = tile.splat %x : f32 -> tensor<4xf32, #b>
  // expected-error @below {{needs a source in the slice of its result's layout along the new dimension}}
  %e = tile.expand_dims %t axis 1 : tensor<4xf32, #b> -> tensor<4x1xf32, #b2>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @addptr_layouts(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %r = tile.range 0, 256 : tensor<256xi32, #b2>
  // expected-error @below {{needs the same layout for all its tiles; convert them first}}
  %a = tile.addptr %ps, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b2>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
tile.func @broadcast_layouts(%x: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %t = tile.splat %x : f32 -> tensor<4x1xf32, #b>
  // expected-error @below {{needs the same layout for all its tiles; convert them first}}
  %e = tile.broadcast %t : tensor<4x1xf32, #b> -> tensor<4x64xf32, #c>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @reduce_not_slice(%x: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %t = tile.splat %x : f32 -> tensor<4x64xf32, #b>
  // expected-error @below {{needs a result in the slice of its source's layout along the reduced axis}}
  %r = tile.reduce sum %t axis 1 : tensor<4x64xf32, #b> -> tensor<4xf32, #r>
  tile.return
}


// -----

// One dot-operand layout places f32 (TF32) and f16 elements differently.
#mma = #tilegpu.mma<{warpsPerCTA = [2, 1]}>
#opa = #tilegpu.dot_operand<{opIdx = 0, parent = #mma}>
tile.func @cast_in_dot_operand(%x: f32) attributes {tilegpu.num_warps = 2 : i32} {
  %t = tile.splat %x : f32 -> tensor<32x16xf32, #opa>
  // expected-error @below {{mixes elements of different widths in one dot-operand layout, which places them differently; convert after the cast}}
  %h = arith.truncf %t : tensor<32x16xf32, #opa> to tensor<32x16xf16, #opa>
  tile.return
}
