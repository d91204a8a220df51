// Tutorial step 3 (docs/tutorial.md): softmax of each row of an
// n_rows x n_cols matrix (n_cols <= COLS), ROWS rows per program: step 2's
// row sum with a row maximum before it and a division after it. Launch
// ceil(n_rows / ROWS) programs.
//
// tile.param ROWS = 4
// tile.param COLS = 1024
// tile.param WARPS = 4

tile.func @softmax(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                   %y: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                   %x_row_stride: i32, %y_row_stride: i32,
                   %n_rows: i32, %n_cols: i32)
    attributes {tile.num_warps = ${WARPS} : i32} {
  %pid = tile.program_id x : i32
  %c_rows = arith.constant ${ROWS} : i32
  %first = arith.muli %pid, %c_rows : i32

  // As in step 2: row and column indices as ROWS x COLS tiles, the mask.
  %first_tile = tile.splat %first : i32 -> tensor<${ROWS}xi32>
  %row_range = tile.range 0, ${ROWS} : tensor<${ROWS}xi32>
  %rows = arith.addi %first_tile, %row_range : tensor<${ROWS}xi32>
  %cols = tile.range 0, ${COLS} : tensor<${COLS}xi32>
  %rows_col = tile.expand_dims %rows axis 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %rows_2d = tile.broadcast %rows_col : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${COLS}xi32>
  %cols_row = tile.expand_dims %cols axis 0 : tensor<${COLS}xi32> -> tensor<1x${COLS}xi32>
  %cols_2d = tile.broadcast %cols_row : tensor<1x${COLS}xi32> -> tensor<${ROWS}x${COLS}xi32>
  %n_rows_2d = tile.splat %n_rows : i32 -> tensor<${ROWS}x${COLS}xi32>
  %n_cols_2d = tile.splat %n_cols : i32 -> tensor<${ROWS}x${COLS}xi32>
  %row_ok = arith.cmpi slt, %rows_2d, %n_rows_2d : tensor<${ROWS}x${COLS}xi32>
  %col_ok = arith.cmpi slt, %cols_2d, %n_cols_2d : tensor<${ROWS}x${COLS}xi32>
  %mask = arith.andi %row_ok, %col_ok : tensor<${ROWS}x${COLS}xi1>

  // Load, -inf where masked off: padding never wins the max and adds
  // exp(-inf) = 0 to the sum.
  %x_stride = tile.splat %x_row_stride : i32 -> tensor<${ROWS}x${COLS}xi32>
  %x_rows = arith.muli %rows_2d, %x_stride : tensor<${ROWS}x${COLS}xi32>
  %x_offsets = arith.addi %x_rows, %cols_2d : tensor<${ROWS}x${COLS}xi32>
  %x_base = tile.splat %x : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %x_offsets
      : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${ROWS}x${COLS}xf32>
  %xs = tile.load %x_ptrs, %mask, %neg_inf : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>

  // exp(x - max(x)) / sum(exp(x - max(x))), per row.
  %max = tile.reduce max %xs axis 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>
  %max_col = tile.expand_dims %max axis 1 : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
  %max_2d = tile.broadcast %max_col : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${COLS}xf32>
  %shifted = arith.subf %xs, %max_2d : tensor<${ROWS}x${COLS}xf32>
  %num = tile.exp %shifted : tensor<${ROWS}x${COLS}xf32>
  %den = tile.reduce sum %num axis 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>
  %den_col = tile.expand_dims %den axis 1 : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
  %den_2d = tile.broadcast %den_col : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${COLS}xf32>
  %ys = arith.divf %num, %den_2d : tensor<${ROWS}x${COLS}xf32>

  // Store under the same mask.
  %y_stride = tile.splat %y_row_stride : i32 -> tensor<${ROWS}x${COLS}xi32>
  %y_rows = arith.muli %rows_2d, %y_stride : tensor<${ROWS}x${COLS}xi32>
  %y_offsets = arith.addi %y_rows, %cols_2d : tensor<${ROWS}x${COLS}xi32>
  %y_base = tile.splat %y : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y_base, %y_offsets
      : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %y_ptrs, %ys, %mask : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  tile.return
}
