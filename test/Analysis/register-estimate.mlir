// The registers per thread a kernel's floating-point tiles keep live at most
// (tile/Analysis/RegisterEstimate.h), and what one block per SM may use.
// RUN: tile-opt %s --tile-test-print-register-estimate --verify-diagnostics --split-input-file

// 1024 floats over 4 warps are 8 registers per thread. %x lives until the
// addf, so it and %e are live together; the addf's result takes their
// place. Index and pointer tiles are not counted.
// expected-remark @below {{peak 16, budget 255}}
tile.func @live_ranges(%p: !tile.ptr<f32>) {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %s = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %ptrs = tile.addptr %s, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %ptrs : tensor<1024x!tile.ptr<f32>>
  %e = tile.exp %x : tensor<1024xf32>
  %y = arith.addf %e, %x : tensor<1024xf32>
  tile.store %ptrs, %y : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// f16 packs two elements per register: 4096 over 16 warps are 8 elements,
// 4 registers, and 8 once extended to f32. 512 threads may use 128 each.
// expected-remark @below {{peak 12, budget 128}}
tile.func @half(%p: !tile.ptr<f16>) attributes {tile.num_warps = 16 : i32} {
  %r = tile.range 0, 4096 : tensor<4096xi32>
  %s = tile.splat %p : !tile.ptr<f16> -> tensor<4096x!tile.ptr<f16>>
  %ptrs = tile.addptr %s, %r : tensor<4096x!tile.ptr<f16>>, tensor<4096xi32>
  %x = tile.load %ptrs : tensor<4096x!tile.ptr<f16>>
  %w = arith.extf %x : tensor<4096xf16> to tensor<4096xf32>
  %t = arith.truncf %w : tensor<4096xf32> to tensor<4096xf16>
  %z = arith.addf %t, %x : tensor<4096xf16>
  tile.store %ptrs, %z : tensor<4096x!tile.ptr<f16>>
  tile.return
}

// -----

// A tile smaller than the block is replicated: one element per thread.
// expected-remark @below {{peak 1, budget 255}}
tile.func @small() {
  %c = arith.constant dense<1.0> : tensor<64xf32>
  %e = tile.exp %c : tensor<64xf32>
  tile.return
}

// -----

// A loop's body is counted where the loop is: the kernel's peak includes it.
// expected-remark @below {{peak 64, budget 128}}
tile.func @loop(%p: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 16 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 32768 : tensor<32768xi32>
  // expected-remark @below {{peak 64, budget 128}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = tile.addptr %p, %i : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<32768x!tile.ptr<f32>>
    %ptrs = tile.addptr %rows, %r : tensor<32768x!tile.ptr<f32>>, tensor<32768xi32>
    %x = tile.load %ptrs : tensor<32768x!tile.ptr<f32>>
    %e = tile.exp %x : tensor<32768xf32>
    tile.store %ptrs, %e : tensor<32768x!tile.ptr<f32>>
  }
  tile.return
}

// -----

// Warps the budget is shared among: 32 warps leave 64 registers a thread.
// expected-remark @below {{peak 0, budget 64}}
tile.func @warps() attributes {tile.num_warps = 32 : i32} {
  tile.return
}
