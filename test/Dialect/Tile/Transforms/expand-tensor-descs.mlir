// RUN: tile-opt %s --tile-expand-tensor-descs | FileCheck %s

// A 2-D box: each dimension's coordinates (range + offset), masked to the
// tensor (0 <= c < size), the outer one scaled by its stride, spread over
// the box and summed; the inner stride 1 multiplies nothing. The load
// gives 0 outside the tensor, and the descriptor is gone.
// CHECK-LABEL: tile.func @box_2d
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f16>, %[[M:.*]]: i32, %[[K:.*]]: i32, %[[S:.*]]: i32, %[[R:.*]]: i32, %[[C:.*]]: i32)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf16>
// CHECK-NOT: tile.make_tensor_desc
// CHECK: %[[ROWS:.*]] = tile.range 0, 64 : tensor<64xi32>
// CHECK: %[[R_T:.*]] = tile.splat %[[R]] : i32 -> tensor<64xi32>
// CHECK: %[[ROW:.*]] = arith.addi %[[ROWS]], %[[R_T]] : tensor<64xi32>
// CHECK: arith.cmpi sge, %[[ROW]]
// CHECK: %[[M_T:.*]] = tile.splat %[[M]] : i32 -> tensor<64xi32>
// CHECK: arith.cmpi slt, %[[ROW]], %[[M_T]]
// CHECK: tile.expand_dims %{{.*}} axis 1 : tensor<64xi1> -> tensor<64x1xi1>
// CHECK: %[[S_T:.*]] = tile.splat %[[S]] : i32 -> tensor<64xi32>
// CHECK: %[[ROW_OFF:.*]] = arith.muli %[[ROW]], %[[S_T]] : tensor<64xi32>
// CHECK: tile.expand_dims %[[ROW_OFF]] axis 1 : tensor<64xi32> -> tensor<64x1xi32>
// CHECK: %[[COLS:.*]] = tile.range 0, 32 : tensor<32xi32>
// CHECK: %[[C_T:.*]] = tile.splat %[[C]] : i32 -> tensor<32xi32>
// CHECK: %[[COL:.*]] = arith.addi %[[COLS]], %[[C_T]] : tensor<32xi32>
// CHECK: %[[K_T:.*]] = tile.splat %[[K]] : i32 -> tensor<32xi32>
// CHECK: arith.cmpi slt, %[[COL]], %[[K_T]]
// CHECK-NOT: arith.muli
// CHECK: tile.expand_dims %[[COL]] axis 0 : tensor<32xi32> -> tensor<1x32xi32>
// CHECK: %[[OFFSETS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<64x32xi32>
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x32xi1>
// CHECK: %[[BASE:.*]] = tile.splat %[[X]] : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
// CHECK: %[[PTRS:.*]] = tile.addptr %[[BASE]], %[[OFFSETS]]
// CHECK: %[[V:.*]] = tile.load %[[PTRS]], %[[MASK]], %[[ZERO]] : tensor<64x32x!tile.ptr<f16>>
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.store %{{.*}}, %[[V]]
tile.func @box_2d(%x: !tile.ptr<f16>, %m: i32, %k: i32, %stride: i32,
                  %r: i32, %c: i32) {
  %c1 = arith.constant 1 : i32
  %d = tile.make_tensor_desc %x, [%m, %k], [%stride, %c1]
      : !tile.ptr<f16> -> !tile.tensor_desc<64x32xf16>
  %v = tile.desc_load %d[%r, %c] : !tile.tensor_desc<64x32xf16> -> tensor<64x32xf16>
  %ptrs = tile.splat %x : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  tile.store %ptrs, %v : tensor<64x32x!tile.ptr<f16>>
  tile.return
}

// A 1-D box in a loop: the addresses are built where the load was, from
// the loop's offset; the zeros the load gives outside the tensor are made
// before the loop.
// CHECK-LABEL: tile.func @box_1d_loop
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-NOT: tile.make_tensor_desc
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK-NOT: arith.constant
// CHECK: tile.range 0, 128 : tensor<128xi32>
// CHECK: tile.splat %[[I]] : i32 -> tensor<128xi32>
// CHECK: tile.load %{{.*}}, %{{.*}}, %[[Z]] : tensor<128x!tile.ptr<f32>>
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.return
tile.func @box_1d_loop(%x: !tile.ptr<f32>, %n: i32, %out: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c128 = arith.constant 128 : i32
  %d = tile.make_tensor_desc %x, [%n], [%c1]
      : !tile.ptr<f32> -> !tile.tensor_desc<128xf32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %sum = scf.for %i = %c0 to %n step %c128 iter_args(%acc = %zero) -> (tensor<128xf32>) : i32 {
    %v = tile.desc_load %d[%i] : !tile.tensor_desc<128xf32> -> tensor<128xf32>
    %next = arith.addf %acc, %v : tensor<128xf32>
    scf.yield %next : tensor<128xf32>
  }
  %ptrs = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  tile.store %ptrs, %sum : tensor<128x!tile.ptr<f32>>
  tile.return
}
