// Bench variant of examples/softmax.mlir, pipelined by hand: the load of the
// program's next row is issued before the current row is computed, carried
// around the loop; and the row is multiplied by 1/sum.
//
// tile.param BLOCK_SIZE = 1024

tile.func @softmax_prefetch(%output: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                   %input: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                   %input_row_stride: i32, %output_row_stride: i32,
                   %n_rows: i32, %n_cols: i32) {
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %mask = arith.cmpi slt, %cols, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %one = arith.constant 1.0 : f32

  // The first row.
  %first_ok = arith.cmpi slt, %row_start, %n_rows : i32
  %first_ok_tile = tile.splat %first_ok : i1 -> tensor<${BLOCK_SIZE}xi1>
  %first_mask = arith.andi %mask, %first_ok_tile : tensor<${BLOCK_SIZE}xi1>
  %first_off = arith.muli %row_start, %input_row_stride : i32
  %first_row = tile.addptr %input, %first_off : !tile.ptr<f32>, i32
  %first_rows = tile.splat %first_row : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %first_ptrs = tile.addptr %first_rows, %cols : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
  %x0 = tile.load %first_ptrs, %first_mask, %neg_inf : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>

  %last = scf.for %row = %row_start to %n_rows step %row_step
      iter_args(%x = %x0) -> (tensor<${BLOCK_SIZE}xf32>) : i32 {
    // Issue the next row's load first.
    %next = arith.addi %row, %row_step : i32
    %next_ok = arith.cmpi slt, %next, %n_rows : i32
    %next_ok_tile = tile.splat %next_ok : i1 -> tensor<${BLOCK_SIZE}xi1>
    %next_mask = arith.andi %mask, %next_ok_tile : tensor<${BLOCK_SIZE}xi1>
    %next_off = arith.muli %next, %input_row_stride : i32
    %next_row = tile.addptr %input, %next_off : !tile.ptr<f32>, i32
    %next_rows = tile.splat %next_row : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
    %next_ptrs = tile.addptr %next_rows, %cols : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
    %x_next = tile.load %next_ptrs, %next_mask, %neg_inf : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>

    %max = tile.reduce max %x axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %max_tile = tile.splat %max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %shifted = arith.subf %x, %max_tile : tensor<${BLOCK_SIZE}xf32>
    %num = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
    %den = tile.reduce sum %num axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %inv = arith.divf %one, %den : f32
    %inv_tile = tile.splat %inv : f32 -> tensor<${BLOCK_SIZE}xf32>
    %y = arith.mulf %num, %inv_tile : tensor<${BLOCK_SIZE}xf32>

    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_row = tile.addptr %output, %out_offset : !tile.ptr<f32>, i32
    %out_rows = tile.splat %out_row : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
    %out_ptrs = tile.addptr %out_rows, %cols : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
    tile.store %out_ptrs, %y, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
    scf.yield %x_next : tensor<${BLOCK_SIZE}xf32>
  }
  tile.return
}
