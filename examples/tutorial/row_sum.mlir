// Tutorial step 2 (docs/tutorial.md): the sum of each row of an
// n_rows x n_cols matrix (rows n_cols <= COLS long, row_stride apart).
// Program `pid` sums rows pid * ROWS to pid * ROWS + ROWS - 1 as one
// ROWS x COLS tile. Launch ceil(n_rows / ROWS) programs.
//
// tile.param ROWS = 16
// tile.param COLS = 128

tile.func @row_sum(%x: !tile.ptr<f32>, %sums: !tile.ptr<f32>,
                   %row_stride: i32, %n_rows: i32, %n_cols: i32) {
  %pid = tile.program_id x : i32
  %c_rows = arith.constant ${ROWS} : i32
  %first = arith.muli %pid, %c_rows : i32

  // Row indices (a column of the tile) and column indices (a row of it).
  %first_tile = tile.splat %first : i32 -> tensor<${ROWS}xi32>
  %row_range = tile.range 0, ${ROWS} : tensor<${ROWS}xi32>
  %rows = arith.addi %first_tile, %row_range : tensor<${ROWS}xi32>
  %cols = tile.range 0, ${COLS} : tensor<${COLS}xi32>

  // rows[:, None] * row_stride + cols[None, :], and the mask
  // (rows[:, None] < n_rows) & (cols[None, :] < n_cols).
  %rows_col = tile.expand_dims %rows axis 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %rows_2d = tile.broadcast %rows_col : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${COLS}xi32>
  %cols_row = tile.expand_dims %cols axis 0 : tensor<${COLS}xi32> -> tensor<1x${COLS}xi32>
  %cols_2d = tile.broadcast %cols_row : tensor<1x${COLS}xi32> -> tensor<${ROWS}x${COLS}xi32>
  %stride = tile.splat %row_stride : i32 -> tensor<${ROWS}x${COLS}xi32>
  %row_offsets = arith.muli %rows_2d, %stride : tensor<${ROWS}x${COLS}xi32>
  %offsets = arith.addi %row_offsets, %cols_2d : tensor<${ROWS}x${COLS}xi32>
  %n_rows_2d = tile.splat %n_rows : i32 -> tensor<${ROWS}x${COLS}xi32>
  %n_cols_2d = tile.splat %n_cols : i32 -> tensor<${ROWS}x${COLS}xi32>
  %row_ok = arith.cmpi slt, %rows_2d, %n_rows_2d : tensor<${ROWS}x${COLS}xi32>
  %col_ok = arith.cmpi slt, %cols_2d, %n_cols_2d : tensor<${ROWS}x${COLS}xi32>
  %mask = arith.andi %row_ok, %col_ok : tensor<${ROWS}x${COLS}xi1>

  // Load (0 where masked off), then sum along axis 1: one value per row.
  %x_base = tile.splat %x : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %offsets
      : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  %zero = arith.constant dense<0.0> : tensor<${ROWS}x${COLS}xf32>
  %xs = tile.load %x_ptrs, %mask, %zero : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %row_sums = tile.reduce sum %xs axis 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>

  // Store sums[rows], for the rows that exist.
  %n_rows_1d = tile.splat %n_rows : i32 -> tensor<${ROWS}xi32>
  %rows_ok = arith.cmpi slt, %rows, %n_rows_1d : tensor<${ROWS}xi32>
  %s_base = tile.splat %sums : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %s_ptrs = tile.addptr %s_base, %rows : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  tile.store %s_ptrs, %row_sums, %rows_ok : tensor<${ROWS}x!tile.ptr<f32>>
  tile.return
}
