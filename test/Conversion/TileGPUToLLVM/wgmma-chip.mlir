// wgmma exists on sm_90a only (the arch-specific target): compiling a
// warpgroup product for sm_90 (or anything else) is an error naming the
// kernel and the chip.
// RUN: tile-opt %s --convert-tilegpu-to-llvm="chip=sm_90" --verify-diagnostics

#wg = #tilegpu.mma<{warpsPerCTA = [4, 1], versionMajor = 3}>
#s = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @below {{kernel 'wgmma' multiplies with wgmma (tilegpu.warpgroup_dot), which only sm_90a has; compiling for sm_90}}
tile.func @wgmma(%p: !tile.ptr<f32>, %f: f32) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<64x64xf16, #s>
  %c = tile.splat %f : f32 -> tensor<64x64xf32, #wg>
  %d = tilegpu.warpgroup_dot %a, %a, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #wg>
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #wg>
  tile.store %ptrs, %d : tensor<64x64x!tile.ptr<f32>, #wg>
  tile.return
}
