// Clusters need sm_90 or later: compiling a kernel of clusters for an older
// GPU is an error naming the kernel, its cluster size and the chip; a
// kernel of clusters of one compiles for any chip.
// RUN: tile-opt %s --convert-tilegpu-to-llvm="chip=sm_80" --split-input-file --verify-diagnostics
// RUN: not tile-opt %s --convert-tilegpu-to-llvm="chip=gfx90a" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD-CHIP
// BAD-CHIP: cannot tell the GPU generation of chip 'gfx90a'; expected sm_XY

// expected-error @below {{kernel 'clustered' runs in clusters of 2 programs ('tile.cluster_size'), which need sm_90 or later; compiling for sm_80}}
tile.func @clustered(%x: f32) attributes {tilegpu.num_warps = 1 : i32, tile.cluster_size = 2 : i32} {
  %m = tile.cluster_reduce max %x : f32
  tile.return
}

// -----

tile.func @single(%out: !tile.ptr<f32>, %x: f32) attributes {tilegpu.num_warps = 1 : i32, tile.cluster_size = 1 : i32} {
  %m = tile.cluster_reduce max %x : f32
  tile.store %out, %m : !tile.ptr<f32>
  tile.return
}
