// Vector addition, Triton's tutorial 01: program `pid` adds the BLOCK_SIZE
// elements starting at pid * BLOCK_SIZE; the mask guards the last block.
// Launch ceil(n / BLOCK_SIZE) programs.
//
// tile.param BLOCK_SIZE = 1024

tile.func @vector_add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                      %y: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                      %output: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                      %n_elements: i32) {
  %pid = tile.program_id x : i32
  %block = arith.constant ${BLOCK_SIZE} : i32
  %block_start = arith.muli %pid, %block : i32
  %start = tile.splat %block_start : i32 -> tensor<${BLOCK_SIZE}xi32>
  %range = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %offsets = arith.addi %start, %range : tensor<${BLOCK_SIZE}xi32>
  %n = tile.splat %n_elements : i32 -> tensor<${BLOCK_SIZE}xi32>
  %mask = arith.cmpi slt, %offsets, %n : tensor<${BLOCK_SIZE}xi32>

  %x_base = tile.splat %x : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %offsets
      : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
  %y_base = tile.splat %y : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y_base, %offsets
      : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
  %a = tile.load %x_ptrs, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %b = tile.load %y_ptrs, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %sum = arith.addf %a, %b : tensor<${BLOCK_SIZE}xf32>

  %out_base = tile.splat %output
      : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %out_ptrs = tile.addptr %out_base, %offsets
      : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
  tile.store %out_ptrs, %sum, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  tile.return
}
