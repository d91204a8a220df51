// Tutorial step 1 (docs/tutorial.md): y = alpha * x over n floats. Program
// `pid` handles the BLOCK elements from pid * BLOCK; the mask guards the
// last block. Launch ceil(n / BLOCK) programs.
//
// tile.param BLOCK = 256

tile.func @scale(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %alpha: f32, %n: i32) {
  %pid = tile.program_id x : i32
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %start_tile = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %range = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
  %offsets = arith.addi %start_tile, %range : tensor<${BLOCK}xi32>
  %n_tile = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %offsets, %n_tile : tensor<${BLOCK}xi32>

  %x_base = tile.splat %x : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %xs = tile.load %x_ptrs, %mask : tensor<${BLOCK}x!tile.ptr<f32>>

  %alpha_tile = tile.splat %alpha : f32 -> tensor<${BLOCK}xf32>
  %ys = arith.mulf %xs, %alpha_tile : tensor<${BLOCK}xf32>

  %y_base = tile.splat %y : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y_base, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y_ptrs, %ys, %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  tile.return
}
