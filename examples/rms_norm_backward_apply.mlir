// RMSNorm backward, second stage of the split path (rows beyond
// rms_norm_backward_cluster.mlir's 16 x 32768): with rstd[row] (saved by
// the forward pass) and c[row] = rstd * sum(dy * w * x) / N (from
// row_dot_weighted_partial.mlir's partials, summed by the caller),
//
//   dx = rstd * (dy * w - x * rstd * c),   dw = sum over rows of dy * x * rstd.
//
// The grid is one-dimensional over blocks of BLOCK_SIZE columns: program p
// takes blocks p, p + P, ... and in each walks every row, so that a block
// of dw is summed by one program, in registers, and written once (f32, the
// caller casts it), without partial rows to add. x and dy are read a second
// time, so the two stages move 5/3 of the one-pass kernel's bytes.
//
// Bounds: offsets are i32, so n_rows times each row stride stays below
// 2^31.
//
// Bytes it must move: dy and x read, dx written (M x N x DTYPE each), w
// read and dw written (N x DTYPE, N x 4), rstd and c read (M x 4 each, per
// program: from L2).
//
// tile.param BLOCK_SIZE = 2048 in 256, 512, 1024, 2048, 4096, 8192
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @rms_norm_backward_apply(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dw: !tile.ptr<f32>,
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %rstd: !tile.ptr<f32>,
    %c: !tile.ptr<f32>,
    %x_row_stride: i32, %dy_row_stride: i32, %dx_row_stride: i32,
    %n_rows: i32, %n_cols: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %block = arith.constant ${BLOCK_SIZE} : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block_start = tile.program_id x : i32
  %block_step = tile.num_programs x : i32
  %n_blocks = arith.ceildivsi %n_cols, %block : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %cols_2d = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %zeros_in = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}x${DTYPE}>
  %zero_sum = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}xf32>
  %x_base = tile.splat %x
      : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %dy_base = tile.splat %dy
      : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %dx_base = tile.splat %dx
      : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %x_stride = tile.splat %x_row_stride : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %dy_stride = tile.splat %dy_row_stride : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %dx_stride = tile.splat %dx_row_stride : i32 -> tensor<1x${BLOCK_SIZE}xi32>

  scf.for %b = %block_start to %n_blocks step %block_step : i32 {
    %start = arith.muli %b, %block : i32
    %start_tile = tile.splat %start : i32 -> tensor<1x${BLOCK_SIZE}xi32>
    %idx = arith.addi %cols_2d, %start_tile : tensor<1x${BLOCK_SIZE}xi32>
    %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<1x${BLOCK_SIZE}xi32>
    %w_base = tile.splat %w
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %w_ptrs = tile.addptr %w_base, %idx
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
    %w_in = tile.load %w_ptrs, %mask, %zeros_in
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %wv = tile.cast %w_in
        : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>

    %dw_sum = scf.for %row = %c0 to %n_rows step %c1
        iter_args(%acc = %zero_sum) -> (tensor<1x${BLOCK_SIZE}xf32>) : i32 {
      %row_tile = tile.splat %row : i32 -> tensor<1x${BLOCK_SIZE}xi32>
      %x_rows = arith.muli %row_tile, %x_stride : tensor<1x${BLOCK_SIZE}xi32>
      %x_offsets = arith.addi %x_rows, %idx : tensor<1x${BLOCK_SIZE}xi32>
      %x_ptrs = tile.addptr %x_base, %x_offsets
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %x_in = tile.load %x_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %dy_rows = arith.muli %row_tile, %dy_stride : tensor<1x${BLOCK_SIZE}xi32>
      %dy_offsets = arith.addi %dy_rows, %idx : tensor<1x${BLOCK_SIZE}xi32>
      %dy_ptrs = tile.addptr %dy_base, %dy_offsets
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %dy_in = tile.load %dy_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %r_ptr = tile.addptr %rstd, %row : !tile.ptr<f32>, i32
      %r_ptrs = tile.splat %r_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
      %r_row = tile.load %r_ptrs : tensor<1x!tile.ptr<f32>>
      %r_col = tile.expand_dims %r_row axis 1 : tensor<1xf32> -> tensor<1x1xf32>
      %r_tile = tile.broadcast %r_col
          : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
      %c_ptr = tile.addptr %c, %row : !tile.ptr<f32>, i32
      %c_ptrs = tile.splat %c_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
      %c_row = tile.load %c_ptrs : tensor<1x!tile.ptr<f32>>
      %c_col = tile.expand_dims %c_row axis 1 : tensor<1xf32> -> tensor<1x1xf32>
      %c_tile = tile.broadcast %c_col
          : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
      %xv = tile.cast %x_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %dyv = tile.cast %dy_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      // dx = rstd * (g - xhat * c), g = dy * w, xhat = x * rstd.
      %xhat = arith.mulf %xv, %r_tile : tensor<1x${BLOCK_SIZE}xf32>
      %g = arith.mulf %dyv, %wv : tensor<1x${BLOCK_SIZE}xf32>
      %xc = arith.mulf %xhat, %c_tile : tensor<1x${BLOCK_SIZE}xf32>
      %gxc = arith.subf %g, %xc : tensor<1x${BLOCK_SIZE}xf32>
      %dxv = arith.mulf %gxc, %r_tile : tensor<1x${BLOCK_SIZE}xf32>
      %dx_out = tile.cast %dxv
          : tensor<1x${BLOCK_SIZE}xf32> to tensor<1x${BLOCK_SIZE}x${DTYPE}>
      %dx_rows = arith.muli %row_tile, %dx_stride : tensor<1x${BLOCK_SIZE}xi32>
      %dx_offsets = arith.addi %dx_rows, %idx : tensor<1x${BLOCK_SIZE}xi32>
      %dx_ptrs = tile.addptr %dx_base, %dx_offsets
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      tile.store %dx_ptrs, %dx_out, %mask
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      // dw += dy * xhat (0 on masked lanes).
      %dyx = arith.mulf %dyv, %xhat : tensor<1x${BLOCK_SIZE}xf32>
      %next = arith.addf %acc, %dyx : tensor<1x${BLOCK_SIZE}xf32>
      scf.yield %next : tensor<1x${BLOCK_SIZE}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}

    %dw_base = tile.splat %dw
        : !tile.ptr<f32> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>
    %dw_ptrs = tile.addptr %dw_base, %idx
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<1x${BLOCK_SIZE}xi32>
    tile.store %dw_ptrs, %dw_sum, %mask : tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>
  }
  tile.return
}
