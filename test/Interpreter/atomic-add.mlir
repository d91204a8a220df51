// tile.atomic_add on the interpreter: every program's additions to shared
// elements all happen (f32 sums of tiles, i32 counters through scalar
// pointers, masked lanes and masked scalars adding nothing), checked
// against NumPy.

// Each of 6 programs adds its row of x [6 x 100] (a tile of 128, the last
// 28 lanes masked) into one shared row y [100], which starts at 0.5.
// RUN: tile-run %s --kernel column_sums --grid 6 --arg 'f32[100]=fill:0.5' \
// RUN:   --arg 'f32[6x100]=randn:1' --arg i32=100 --out 0=%t.y.npy --out 1=%t.x.npy \
// RUN:   | FileCheck %s --check-prefix=SUMS
// SUMS: @column_sums ran on the CPU interpreter: grid 6 (6 programs)
// RUN: %python -c "import numpy as np, sys; y = np.load(sys.argv[1]); x = np.load(sys.argv[2]).astype(np.float64); ref = 0.5 + x.sum(0); err = np.abs(y - ref).max(); print('column sums: max error %.3g' % err); sys.exit(int(err > 1e-5))" %t.y.npy %t.x.npy | FileCheck %s --check-prefix=SUMS-REF
// SUMS-REF: column sums: max error

tile.func @column_sums(%y: !tile.ptr<f32>, %x: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x : i32
  %cols = tile.range 0, 128 : tensor<128xi32>
  %n_tile = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %n_tile : tensor<128xi32>
  %offset = arith.muli %pid, %n : i32
  %row = tile.addptr %x, %offset : !tile.ptr<f32>, i32
  %rows = tile.splat %row : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %rows, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %ptrs, %mask : tensor<128x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %ys, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.atomic_add %y_ptrs, %v, %mask : tensor<128x!tile.ptr<f32>>
  tile.return
}

// Each of 7 programs adds 1 to count[0], its id to count[1], and 1 to
// count[2] only if its id is odd (a masked scalar): [7, 21, 3], after the
// initial 100 of each. count[3], past the adds, stays 100. An i32 sum wraps:
// 7 programs adding 2^30 to count[4] leave 100 + 7 * 2^30 mod 2^32 =
// -1073741724.
// RUN: tile-run %s --kernel count --grid 7 --arg 'i32[5]=fill:100' --out 0=%t.c.npy \
// RUN:   | FileCheck %s --check-prefix=COUNT-LAUNCH
// COUNT-LAUNCH: @count ran on the CPU interpreter: grid 7 (7 programs)
// RUN: %reference print %t.c.npy | FileCheck %s --check-prefix=COUNT
// COUNT:      i32[5]
// COUNT-NEXT: 107 121 103 100 -1073741724

tile.func @count(%count: !tile.ptr<i32>) {
  %pid = tile.program_id x : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %big = arith.constant 1073741824 : i32
  tile.atomic_add %count, %c1 : !tile.ptr<i32>
  %p1 = tile.addptr %count, %c1 : !tile.ptr<i32>, i32
  tile.atomic_add %p1, %pid : !tile.ptr<i32>
  %odd_bit = arith.andi %pid, %c1 : i32
  %odd = arith.cmpi eq, %odd_bit, %c1 : i32
  %p2 = tile.addptr %count, %c2 : !tile.ptr<i32>, i32
  tile.atomic_add %p2, %c1, %odd : !tile.ptr<i32>
  %p4 = tile.addptr %count, %c4 : !tile.ptr<i32>, i32
  tile.atomic_add %p4, %big : !tile.ptr<i32>
  tile.return
}

// An addition out of bounds is an error naming the lane, as a store's is.
// RUN: not tile-run %s --kernel out_of_bounds --grid 1 --arg 'f32[4]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OOB
// OOB: out-of-bounds tile.atomic_add: buffer 0 (f32[4]) has 4 elements, lane 4 accesses element 4

tile.func @out_of_bounds(%y: !tile.ptr<f32>) {
  %cols = tile.range 0, 8 : tensor<8xi32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %ptrs = tile.addptr %ys, %cols : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %one = arith.constant dense<1.0> : tensor<8xf32>
  tile.atomic_add %ptrs, %one : tensor<8x!tile.ptr<f32>>
  tile.return
}

// On the GPU: one `red` per element a thread owns, relaxed, at the GPU's
// scope, predicated on the mask and (for a scalar, and for the tile of 16
// held by 128 threads, whose lanes 16-31 and warps 1-3 hold copies) on the
// thread that owns the element; the PTX assembles for sm_80 and sm_90.
// RUN: tile-run %s --kernel column_sums --emit=ptx --chip sm_80 > %t.sums.ptx
// RUN: FileCheck %s --check-prefix=PTX-SUMS < %t.sums.ptx
// PTX-SUMS: red.relaxed.gpu.global.add.f32
// PTX-SUMS-NOT: red.
// RUN: tile-run %s --kernel count --emit=ptx --chip sm_90 > %t.count.ptx
// RUN: FileCheck %s --check-prefix=PTX-COUNT < %t.count.ptx
// PTX-COUNT: %tid.x
// PTX-COUNT-COUNT-4: red.relaxed.gpu.global.add.u32
// RUN: tile-run %s --kernel replicated --emit=ptx --chip sm_90 > %t.replicated.ptx
// RUN: FileCheck %s --check-prefix=PTX-REPLICATED < %t.replicated.ptx
// (Only threads 0-15 own an element: LLVM folds "lane bit 4 and warp bits
// 0-1 zero" into tid.x < 16.)
// PTX-REPLICATED: setp.lt.u32 [[OWNER:%p[0-9]+]], %r{{[0-9]+}}, 16;
// PTX-REPLICATED: @[[OWNER]] red.relaxed.gpu.global.add.f32
// PTX-REPLICATED-NOT: red.
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sums.ptx -o %t.sums.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.count.ptx -o %t.count.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.replicated.ptx -o %t.replicated.cubin %}

tile.func @replicated(%y: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %cols = tile.range 0, 16 : tensor<16xi32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %ptrs = tile.addptr %ys, %cols : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %one = arith.constant dense<1.0> : tensor<16xf32>
  tile.atomic_add %ptrs, %one : tensor<16x!tile.ptr<f32>>
  tile.return
}
