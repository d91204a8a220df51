// math.copysign takes the sign of its second operand, and a NaN there
// counts as positive: the sign of a NaN an operation makes is unspecified,
// and -inf - -inf is a negative NaN on x86 but the GPU's canonical positive
// one (random kernels differed on it: difftest seed 11164). Rows: x, then
// copysign(x, y) for y = -1, y = -0.0, y = -inf - -inf (a NaN).

// RUN: tile-run %s --grid 1 --arg 'f32[4x4]=zeros' --out 0=%t.npy > /dev/null
// RUN: %reference print %t.npy | FileCheck %s
// CHECK:      f32[4x4]
// CHECK-NEXT: 1.5 -2.5 0.0 -inf
// CHECK-NEXT: -1.5 -2.5 -0.0 -inf
// CHECK-NEXT: -1.5 -2.5 -0.0 -inf
// CHECK-NEXT: 1.5 2.5 0.0 inf

tile.func @copysign(%out: !tile.ptr<f32>) {
  %x = arith.constant dense<[1.5, -2.5, 0.0, 0xFF800000]> : tensor<4xf32>
  %minus_one = arith.constant dense<-1.0> : tensor<4xf32>
  %minus_zero = arith.constant dense<-0.0> : tensor<4xf32>
  %minus_inf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %nan = arith.subf %minus_inf, %minus_inf : tensor<4xf32>
  %lanes = tile.range 0, 4 : tensor<4xi32>
  %four = arith.constant dense<4> : tensor<4xi32>
  %base = tile.splat %out : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %p0 = tile.addptr %base, %lanes : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p0, %x : tensor<4x!tile.ptr<f32>>
  %a = math.copysign %x, %minus_one : tensor<4xf32>
  %p1 = tile.addptr %p0, %four : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p1, %a : tensor<4x!tile.ptr<f32>>
  %b = math.copysign %x, %minus_zero : tensor<4xf32>
  %p2 = tile.addptr %p1, %four : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p2, %b : tensor<4x!tile.ptr<f32>>
  %c = math.copysign %x, %nan : tensor<4xf32>
  %p3 = tile.addptr %p2, %four : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p3, %c : tensor<4x!tile.ptr<f32>>
  tile.return
}
