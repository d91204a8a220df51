// tile.min_blocks_per_sm = N becomes the kernel's nvvm.minctasm (PTX's
// .minnctapersm: ptxas allocates registers so that N blocks fit on an SM);
// N = 1 asks for nothing and adds nothing. N blocks of the kernel's threads
// must fit in the threads of one SM of the chip: 2048 on sm_90, 1536 on
// sm_89; otherwise the conversion fails naming the kernel, the request and
// the chip, rather than ptxas ignoring it with a warning.
// RUN: tile-opt %s --convert-tilegpu-to-llvm="chip=sm_90" --split-input-file --verify-diagnostics | FileCheck %s
// RUN: not tile-opt %s --convert-tilegpu-to-llvm="chip=sm_89" --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM89
// SM89-NOT: kernel 'three'
// SM89: kernel 'too_many' asks for room for 3 blocks of 1024 threads per SM ('tile.min_blocks_per_sm'), but an SM of sm_89 holds 1536 threads
// RUN: not tile-opt %s --convert-tilegpu-to-llvm="chip=gfx90a" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD-CHIP
// BAD-CHIP: cannot tell the GPU generation of chip 'gfx90a'; expected sm_XY

// CHECK-LABEL: llvm.func @three
// CHECK-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-SAME: nvvm.minctasm = 3 : i32
tile.func @three() attributes {tilegpu.num_warps = 8 : i32, tile.min_blocks_per_sm = 3 : i32} {
  tile.return
}

// -----

// CHECK-LABEL: llvm.func @one
// CHECK-NOT: nvvm.minctasm
// CHECK: llvm.return
tile.func @one() attributes {tilegpu.num_warps = 32 : i32, tile.min_blocks_per_sm = 1 : i32} {
  tile.return
}

// -----

// expected-error @below {{kernel 'too_many' asks for room for 3 blocks of 1024 threads per SM ('tile.min_blocks_per_sm'), but an SM of sm_90 holds 2048 threads}}
tile.func @too_many() attributes {tilegpu.num_warps = 32 : i32, tile.min_blocks_per_sm = 3 : i32} {
  tile.return
}

// -----

// Fits on sm_90 (2 x 1024), not on sm_89.
// SM89: kernel 'two_large' asks for room for 2 blocks of 1024 threads per SM ('tile.min_blocks_per_sm'), but an SM of sm_89 holds 1536 threads
tile.func @two_large() attributes {tilegpu.num_warps = 32 : i32, tile.min_blocks_per_sm = 2 : i32} {
  tile.return
}
