// Where a tile of pointers runs consecutively along a whole dimension (the
// axis analysis's contiguity), a thread's later accesses along it take the
// address of its first plus a constant, which LLVM folds into the
// instruction ([%rd+2048]): an address of their own per access took a
// register each across a loop (48 registers of a softmax row of 16384
// halves). Pointers that do not run consecutively keep their own.
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm --split-input-file | FileCheck %s

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// 1024 floats on 128 threads: each thread's second run of 4 lies 512
// elements (2048 bytes) after its first.
// CHECK-LABEL: llvm.func @contiguous
// CHECK: %[[DELTA:.*]] = llvm.mlir.constant(2048 : i64) : i64
// CHECK: %[[SECOND:.*]] = llvm.add %[[FIRST:.*]], %[[DELTA]] : i64
// CHECK: llvm.inttoptr %[[FIRST]] : i64 to !llvm.ptr<1>
// CHECK: llvm.inttoptr %[[SECOND]] : i64 to !llvm.ptr<1>
// CHECK: %[[SDELTA:.*]] = llvm.mlir.constant(2048 : i64) : i64
// CHECK: llvm.add %{{.*}}, %[[SDELTA]] : i64
tile.func @contiguous(%dst: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                      %src: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                      %start: i32 {tile.divisibility = 16 : i64})
    attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32, #b>
  %s = tile.splat %start : i32 -> tensor<1024xi32, #b>
  %offs = arith.addi %r, %s : tensor<1024xi32, #b>
  %sp = tile.splat %src : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b>
  %sa = tile.addptr %sp, %offs : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
  %x = tile.load %sa : tensor<1024x!tile.ptr<f32>, #b>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b>
  %da = tile.addptr %dp, %offs : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
  tile.store %da, %x : tensor<1024x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Every other float: the pointers do not run consecutively, and each access
// keeps its own address.
// CHECK-LABEL: llvm.func @strided
// CHECK-NOT: llvm.mlir.constant({{[0-9]+}} : i64) : i64
// CHECK: llvm.return
tile.func @strided(%src: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                   %dst: !tile.ptr<f32> {tile.divisibility = 16 : i64})
    attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32, #b>
  %two = arith.constant dense<2> : tensor<1024xi32, #b>
  %offs = arith.muli %r, %two : tensor<1024xi32, #b>
  %sp = tile.splat %src : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b>
  %sa = tile.addptr %sp, %offs : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
  %x = tile.load %sa : tensor<1024x!tile.ptr<f32>, #b>
  %s = tile.reduce sum %x axis 0 : tensor<1024xf32, #b> -> f32
  tile.store %dst, %s : !tile.ptr<f32>
  tile.return
}
