// RMSNorm, backward: with xhat = x * rstd (rstd saved by rms_norm.mlir)
// and g = dy * w, per row
//   dx = rstd * (g - xhat * mean(g * xhat)),
// and the weight's gradient dw = sum over rows of dy * xhat, in two stages:
// each program sums the rows it takes into one row of dw_partial
// ([programs, n_cols], f32, row = program id), and the caller sums
// dw_partial's rows (tile.ops does it with torch.sum; a deterministic
// order, no atomics). Same tiling as the forward kernel: ROWS rows at a
// time, BLOCK_SIZE bounding n_cols, a persistent grid whose size is
// dw_partial's row count.
//
// Bytes it must move: dy and x read, dx written (M x N x DTYPE each), rstd
// read (M x 4), w read and a row of dw_partial written per program.
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

tile.func @rms_norm_backward(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dw_partial: !tile.ptr<f32>,
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %rstd: !tile.ptr<f32>,
    %x_row_stride: i32, %dy_row_stride: i32, %dx_row_stride: i32,
    %n_rows: i32, %n_cols: i32 {tile.max_value = ${BLOCK_SIZE} : i64})
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c_rows = arith.constant ${ROWS} : i32
  %start = tile.program_id x : i32
  %step = tile.num_programs x : i32
  %n_blocks = arith.ceildivsi %n_rows, %c_rows : i32

  // Columns, their mask, and the weight, once.
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_1d = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %col_ok = arith.cmpi slt, %cols, %n_cols_1d : tensor<${BLOCK_SIZE}xi32>
  %w_base = tile.splat %w
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %w_ptrs = tile.addptr %w_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
  %zero_w = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}x${DTYPE}>
  %w_in = tile.load %w_ptrs, %col_ok, %zero_w
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %w_f = tile.cast %w_in
      : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
  %w_row = tile.expand_dims %w_f axis 0
      : tensor<${BLOCK_SIZE}xf32> -> tensor<1x${BLOCK_SIZE}xf32>
  %w_2d = tile.broadcast %w_row
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
  %dy_stride = tile.splat %dy_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %dx_stride = tile.splat %dx_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %x_base = tile.splat %x
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %dy_base = tile.splat %dy
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %dx_base = tile.splat %dx
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %rstd_base = tile.splat %rstd : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %zero_in = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>
  %zero_rows = arith.constant dense<0.0> : tensor<${ROWS}xf32>
  %n_f = arith.sitofp %n_cols : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.divf %one, %n_f : f32
  %inv_n_1d = tile.splat %inv_n : f32 -> tensor<${ROWS}xf32>
  %dw0 = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_SIZE}xf32>

  %dw_acc = scf.for %block = %start to %n_blocks step %step
      iter_args(%dw_i = %dw0) -> (tensor<${ROWS}x${BLOCK_SIZE}xf32>) : i32 {
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

    // x and dy, zero past the row's end (and on rows past the last), and
    // the row's rstd.
    %x_rows = arith.muli %row_2d, %x_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_offsets = arith.addi %x_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_ptrs = tile.addptr %x_base, %x_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_in = tile.load %x_ptrs, %mask, %zero_in
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %xf = tile.cast %x_in
        : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}> to tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %dy_rows = arith.muli %row_2d, %dy_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dy_offsets = arith.addi %dy_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dy_ptrs = tile.addptr %dy_base, %dy_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dy_in = tile.load %dy_ptrs, %mask, %zero_in
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dyf = tile.cast %dy_in
        : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}> to tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %rstd_ptrs = tile.addptr %rstd_base, %row_ids
        : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
    %r = tile.load %rstd_ptrs, %row_ok, %zero_rows : tensor<${ROWS}x!tile.ptr<f32>>
    %r_col = tile.expand_dims %r axis 1
        : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
    %r_2d = tile.broadcast %r_col
        : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>

    // xhat, g, and c = mean(g * xhat) per row.
    %xhat = arith.mulf %xf, %r_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %g = arith.mulf %dyf, %w_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %gx = arith.mulf %g, %xhat : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %gx_sum = tile.reduce sum %gx axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    %c = arith.mulf %gx_sum, %inv_n_1d : tensor<${ROWS}xf32>
    %c_col = tile.expand_dims %c axis 1
        : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
    %c_2d = tile.broadcast %c_col
        : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>

    // dx = rstd * (g - xhat * c).
    %xc = arith.mulf %xhat, %c_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %gxc = arith.subf %g, %xc : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %dxf = arith.mulf %gxc, %r_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %dx_out = tile.cast %dxf
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> to tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>
    %dx_rows = arith.muli %row_2d, %dx_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dx_offsets = arith.addi %dx_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dx_ptrs = tile.addptr %dx_base, %dx_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    tile.store %dx_ptrs, %dx_out, %mask
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    // dw += dy * xhat (zero on masked lanes).
    %dyx = arith.mulf %dyf, %xhat : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %dw_next = arith.addf %dw_i, %dyx : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    scf.yield %dw_next : tensor<${ROWS}x${BLOCK_SIZE}xf32>
  } {tile.num_stages = ${NUM_STAGES} : i32}

  // This program's row of dw_partial.
  %dw = tile.reduce sum %dw_acc axis 0
      : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${BLOCK_SIZE}xf32>
  %part_offset = arith.muli %start, %n_cols : i32
  %part_row = tile.addptr %dw_partial, %part_offset : !tile.ptr<f32>, i32
  %part_base = tile.splat %part_row
      : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %part_ptrs = tile.addptr %part_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
  tile.store %part_ptrs, %dw, %col_ok : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  tile.return
}
