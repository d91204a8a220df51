// RUN: tile-opt %s --convert-tile-to-tilegpu --split-input-file --verify-diagnostics

// expected-error @below {{kernel 'not_pow2' has a tile of shape 'tensor<1000xf32>'; the GPU lowering needs dimensions that are powers of two}}
tile.func @not_pow2(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<1000xf32>
  tile.return
}

// -----

// expected-error @below {{'tile.num_warps' must be a power of two from 1 to 32, got 3 : i32}}
tile.func @bad_warps() attributes {tile.num_warps = 3 : i32} {
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{kernel 'twice' already has layouts}}
tile.func @twice(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<128xf32, #b>
  tile.return
}
