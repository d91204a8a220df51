// LayerNorm, forward: per row, with N = n_cols,
//   mean = sum(x) / N,  xc = x - mean,  var = sum(xc^2) / N,
//   rstd = 1 / sqrt(var + eps),  y = xc * rstd * w + b,
// saving each row's mean and rstd (f32) for the backward pass
// (layer_norm_backward.mlir). The variance is the two-pass one (of x -
// mean, not mean(x^2) - mean^2), which does not cancel when |mean| is
// large against the spread; the row is in registers, so the second pass
// reads nothing. Lanes past the row's end hold x = 0, so xc would be -mean
// there: they are set to 0 before the variance's sum.
//
// Each program takes ROWS rows at a time in one ROWS x BLOCK_SIZE tile
// (BLOCK_SIZE bounds n_cols), stepping over blocks of rows on a persistent
// grid; the weight and the bias are loaded once per program. Rows are
// loaded and stored as DTYPE and computed in f32.
//
// Bytes it must move: x read and y written (M x N x DTYPE each), w and b
// once per program, mean and rstd written (M x 4 each).
//
// NUM_STAGES: 1 loads each row where it is used; 2 loads the next rows
// while this one is computed, in registers; 3 and 4 copy the rows ahead
// into shared memory (cp.async), 2 and 3 iterations ahead, which takes no
// registers (tile-pipeline-loops, tilegpu-pipeline: docs/compiler.md).
//
// tile.param ROWS = 1 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 1024 in 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_WARPS = 4 in 1, 2, 4, 8, 16, 32
// tile.param NUM_STAGES = 2 in 1, 2, 3, 4
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @layer_norm(
    %y: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %mean: !tile.ptr<f32>,
    %rstd: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %b: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x_row_stride: i32, %y_row_stride: i32, %n_rows: i32,
    %n_cols: i32 {tile.max_value = ${BLOCK_SIZE} : i64}, %eps: f32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c_rows = arith.constant ${ROWS} : i32
  %start = tile.program_id x : i32
  %step = tile.num_programs x : i32
  %n_blocks = arith.ceildivsi %n_rows, %c_rows : i32

  // Columns, their mask, the weight and the bias, once.
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_1d = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %col_ok = arith.cmpi slt, %cols, %n_cols_1d : tensor<${BLOCK_SIZE}xi32>
  %zero_w = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}x${DTYPE}>
  %w_base = tile.splat %w
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %w_ptrs = tile.addptr %w_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
  %w_in = tile.load %w_ptrs, %col_ok, %zero_w
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %w_f = tile.cast %w_in
      : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
  %w_row = tile.expand_dims %w_f axis 0
      : tensor<${BLOCK_SIZE}xf32> -> tensor<1x${BLOCK_SIZE}xf32>
  %w_2d = tile.broadcast %w_row
      : tensor<1x${BLOCK_SIZE}xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>
  %b_base = tile.splat %b
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %b_ptrs = tile.addptr %b_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
  %b_in = tile.load %b_ptrs, %col_ok, %zero_w
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %b_f = tile.cast %b_in
      : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
  %b_row = tile.expand_dims %b_f axis 0
      : tensor<${BLOCK_SIZE}xf32> -> tensor<1x${BLOCK_SIZE}xf32>
  %b_2d = tile.broadcast %b_row
      : tensor<1x${BLOCK_SIZE}xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>
  %cols_row = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %cols_2d = tile.broadcast %cols_row
      : tensor<1x${BLOCK_SIZE}xi32> -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %n_cols_2d = tile.splat %n_cols : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %col_mask = arith.cmpi slt, %cols_2d, %n_cols_2d
      : tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %rows = tile.range 0, ${ROWS} : tensor<${ROWS}xi32>
  %n_rows_1d = tile.splat %n_rows : i32 -> tensor<${ROWS}xi32>
  %x_stride = tile.splat %x_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %y_stride = tile.splat %y_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %x_base = tile.splat %x
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %y_base = tile.splat %y
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %mean_base = tile.splat %mean : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %rstd_base = tile.splat %rstd : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %zero_x = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>
  %zero_f = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_SIZE}xf32>
  // 1 / n_cols and eps, per row.
  %n_f = arith.sitofp %n_cols : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.divf %one, %n_f : f32
  %inv_n_1d = tile.splat %inv_n : f32 -> tensor<${ROWS}xf32>
  %eps_1d = tile.splat %eps : f32 -> tensor<${ROWS}xf32>

  scf.for %block = %start to %n_blocks step %step : i32 {
    %first = arith.muli %block, %c_rows : i32
    %first_1d = tile.splat %first : i32 -> tensor<${ROWS}xi32>
    %row_ids = arith.addi %rows, %first_1d : tensor<${ROWS}xi32>
    %row_ok = arith.cmpi slt, %row_ids, %n_rows_1d : tensor<${ROWS}xi32>
    %row_col = tile.expand_dims %row_ids axis 1
        : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
    %row_2d = tile.broadcast %row_col
        : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %ok_col = tile.expand_dims %row_ok axis 1
        : tensor<${ROWS}xi1> -> tensor<${ROWS}x1xi1>
    %ok_2d = tile.broadcast %ok_col
        : tensor<${ROWS}x1xi1> -> tensor<${ROWS}x${BLOCK_SIZE}xi1>
    %mask = arith.andi %ok_2d, %col_mask : tensor<${ROWS}x${BLOCK_SIZE}xi1>

    // x, zero past the row's end.
    %x_rows = arith.muli %row_2d, %x_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_offsets = arith.addi %x_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_ptrs = tile.addptr %x_base, %x_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_in = tile.load %x_ptrs, %mask, %zero_x
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %xf = tile.cast %x_in
        : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}> to tensor<${ROWS}x${BLOCK_SIZE}xf32>

    // mean = sum(x) / n.
    %s = tile.reduce sum %xf axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    %mu = arith.mulf %s, %inv_n_1d : tensor<${ROWS}xf32>
    %mean_ptrs = tile.addptr %mean_base, %row_ids
        : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
    tile.store %mean_ptrs, %mu, %row_ok : tensor<${ROWS}x!tile.ptr<f32>>

    // xc = x - mean on the row's lanes, 0 past its end (where x - mean
    // would be -mean and enter the variance).
    %mu_col = tile.expand_dims %mu axis 1
        : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
    %mu_2d = tile.broadcast %mu_col
        : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %diff = arith.subf %xf, %mu_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %xc = arith.select %mask, %diff, %zero_f
        : tensor<${ROWS}x${BLOCK_SIZE}xi1>, tensor<${ROWS}x${BLOCK_SIZE}xf32>

    // rstd = rsqrt(sum(xc^2) / n + eps).
    %sq = arith.mulf %xc, %xc : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %ss = tile.reduce sum %sq axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    %var = arith.mulf %ss, %inv_n_1d : tensor<${ROWS}xf32>
    %var_eps = arith.addf %var, %eps_1d : tensor<${ROWS}xf32>
    %r = math.rsqrt %var_eps : tensor<${ROWS}xf32>
    %rstd_ptrs = tile.addptr %rstd_base, %row_ids
        : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
    tile.store %rstd_ptrs, %r, %row_ok : tensor<${ROWS}x!tile.ptr<f32>>

    // y = xc * rstd * w + b.
    %r_col = tile.expand_dims %r axis 1
        : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
    %r_2d = tile.broadcast %r_col
        : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %xhat = arith.mulf %xc, %r_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %xw = arith.mulf %xhat, %w_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %yf = arith.addf %xw, %b_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %y_out = tile.cast %yf
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> to tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>
    %y_rows = arith.muli %row_2d, %y_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %y_offsets = arith.addi %y_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %y_ptrs = tile.addptr %y_base, %y_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    tile.store %y_ptrs, %y_out, %mask
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
