// A kernel written from docs/tutorial.md alone (its steps and its Triton
// table), as a check that the page is enough to write one: RMS
// normalization of each row, y = x / sqrt(mean(x^2) + eps), ROWS rows per
// program. In Triton:
//   rows = pid * ROWS + arange(0, ROWS); cols = arange(0, COLS)
//   mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
//   x = load(x_ptr + rows[:, None] * stride + cols[None, :], mask, other=0)
//   r = rsqrt(sum(x * x, axis=1) * inv_n + eps)
//   store(y_ptr + rows[:, None] * stride + cols[None, :], x * r[:, None], mask)
//
// tile.param ROWS = 8
// tile.param COLS = 64

tile.func @rms_norm(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %stride: i32,
                    %n_rows: i32, %n_cols: i32, %inv_n: f32, %eps: f32) {
  %pid = tile.program_id x : i32
  %c_rows = arith.constant ${ROWS} : i32
  %first = arith.muli %pid, %c_rows : i32
  %first_t = tile.splat %first : i32 -> tensor<${ROWS}xi32>
  %r = tile.range 0, ${ROWS} : tensor<${ROWS}xi32>
  %rows = arith.addi %first_t, %r : tensor<${ROWS}xi32>
  %cols = tile.range 0, ${COLS} : tensor<${COLS}xi32>
  %rows_c = tile.expand_dims %rows axis 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %rows_2 = tile.broadcast %rows_c : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${COLS}xi32>
  %cols_r = tile.expand_dims %cols axis 0 : tensor<${COLS}xi32> -> tensor<1x${COLS}xi32>
  %cols_2 = tile.broadcast %cols_r : tensor<1x${COLS}xi32> -> tensor<${ROWS}x${COLS}xi32>
  %nr = tile.splat %n_rows : i32 -> tensor<${ROWS}x${COLS}xi32>
  %nc = tile.splat %n_cols : i32 -> tensor<${ROWS}x${COLS}xi32>
  %ok_r = arith.cmpi slt, %rows_2, %nr : tensor<${ROWS}x${COLS}xi32>
  %ok_c = arith.cmpi slt, %cols_2, %nc : tensor<${ROWS}x${COLS}xi32>
  %mask = arith.andi %ok_r, %ok_c : tensor<${ROWS}x${COLS}xi1>
  %st = tile.splat %stride : i32 -> tensor<${ROWS}x${COLS}xi32>
  %row_off = arith.muli %rows_2, %st : tensor<${ROWS}x${COLS}xi32>
  %off = arith.addi %row_off, %cols_2 : tensor<${ROWS}x${COLS}xi32>

  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %off : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  %zero = arith.constant dense<0.0> : tensor<${ROWS}x${COLS}xf32>
  %xs = tile.load %xp, %mask, %zero : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>

  %sq = arith.mulf %xs, %xs : tensor<${ROWS}x${COLS}xf32>
  %ss = tile.reduce sum %sq axis 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>
  %inv_n_t = tile.splat %inv_n : f32 -> tensor<${ROWS}xf32>
  %mean = arith.mulf %ss, %inv_n_t : tensor<${ROWS}xf32>
  %eps_t = tile.splat %eps : f32 -> tensor<${ROWS}xf32>
  %var = arith.addf %mean, %eps_t : tensor<${ROWS}xf32>
  %rs = math.rsqrt %var : tensor<${ROWS}xf32>
  %rs_c = tile.expand_dims %rs axis 1 : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
  %rs_2 = tile.broadcast %rs_c : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${COLS}xf32>
  %ys = arith.mulf %xs, %rs_2 : tensor<${ROWS}x${COLS}xf32>

  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %off : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %yp, %ys, %mask : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  tile.return
}
