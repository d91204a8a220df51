// A loop of 16 iterations with two branches, for cost-model.test: the
// first stores a row of 256 floats at every 4th iteration (a condition the
// model evaluates at each: 4 stores), the second at iterations where a
// float argument is positive (a condition it cannot evaluate: counted at
// every iteration, and the program is not exact).
tile.func @branches(%out: !tile.ptr<f32>, %flag: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant 0.0 : f32
  %r = tile.range 0, 256 : tensor<256xi32>
  %v = arith.constant dense<1.0> : tensor<256xf32>
  %base = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %ptrs = tile.addptr %base, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  scf.for %i = %c0 to %c16 step %c1 : i32 {
    %rem = arith.remsi %i, %c4 : i32
    %every4 = arith.cmpi eq, %rem, %c0 : i32
    scf.if %every4 {
      tile.store %ptrs, %v : tensor<256x!tile.ptr<f32>>
    }
    %positive = arith.cmpf ogt, %flag, %zero : f32
    scf.if %positive {
      tile.store %ptrs, %v : tensor<256x!tile.ptr<f32>>
    }
  }
  tile.return
}
