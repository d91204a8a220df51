// RUN: tile-opt %s --convert-tilegpu-to-llvm --cse | FileCheck %s

// A reduction across warps keeps its partials in shared memory by output,
// then thread ([out][thread]): the two rows this thread holds are stored
// at thread and 128 + thread, so a warp's 32 stores are 32 consecutive
// words. Reading back, lane bit 0 picks which of the two warps along the
// axis to read, and each lane reads the slot of its own lane number in
// that warp (any lane along the axis holds the warp's partial), so the 32
// loads are 32 banks, not 16 lanes' slots read twice (a 2-way conflict;
// with 8 warps along the axis, 8-way: run 90's LayerNorm backward).
// (After --cse: the order in which the lowering creates the thread id and
// its constants differs between compilers, the IR after CSE does not.)
// CHECK-LABEL: llvm.func @rows2
// CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-DAG: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: llvm.store
// CHECK: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: llvm.add %[[TID]], %[[C128]] : i32
// CHECK: llvm.store
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK: %[[SLOT:.*]] = llvm.or %{{.*}}, %[[LANE]] : i32
// CHECK: llvm.load
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.add %[[SLOT]], %[[C128]] : i32
// CHECK: llvm.load
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 1, parent = #b}>
tile.func @rows2(%x: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %t = tile.splat %x : f32 -> tensor<4x64xf32, #b>
  %s = tile.reduce sum %t axis 1 : tensor<4x64xf32, #b> -> tensor<4xf32, #s>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>, #s>
  tile.store %ps, %s : tensor<4x!tile.ptr<f32>, #s>
  tile.return
}
