// LayerNorm backward, second stage of the split path (rows beyond
// layer_norm_backward_cluster.mlir's 16 x 32768): with mean[row] and
// rstd[row] (saved by the forward pass), g = dy * w, xhat = (x - mean) *
// rstd, and the row's means c_g[row] of g and c_gx[row] of g * xhat (from
// layer_norm_backward_partial.mlir's sums, divided by the caller),
//
//   dx = rstd * (g - c_g - xhat * c_gx),
//   dw = sum over rows of dy * xhat,   db = sum over rows of dy.
//
// The grid is one-dimensional over blocks of BLOCK_SIZE columns: program p
// takes blocks p, p + P, ... and in each walks every row, so that a block
// of dw and db is summed by one program, in registers, and written once
// (f32, the caller casts them), without partial rows to add. x and dy are read a second
// time, so the two stages move 5/3 of the one-pass kernel's bytes.
//
// Bounds: offsets are i32, so n_rows times each row stride stays below
// 2^31.
//
// Bytes it must move: dy and x read, dx written (M x N x DTYPE each), w
// read, dw and db written (N x DTYPE, 2 x N x 4), mean, rstd, c_g and c_gx
// read (M x 4 each, per program: from L2).
//
// tile.param BLOCK_SIZE = 2048 in 256, 512, 1024, 2048, 4096, 8192
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @layer_norm_backward_apply(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dw: !tile.ptr<f32>,
    %db: !tile.ptr<f32>,
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %mean: !tile.ptr<f32>,
    %rstd: !tile.ptr<f32>,
    %c_g: !tile.ptr<f32>,
    %c_gx: !tile.ptr<f32>,
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

    %sums:2 = scf.for %row = %c0 to %n_rows step %c1
        iter_args(%acc = %zero_sum, %acc_b = %zero_sum)
        -> (tensor<1x${BLOCK_SIZE}xf32>, tensor<1x${BLOCK_SIZE}xf32>) : i32 {
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
      %mu_ptr = tile.addptr %mean, %row : !tile.ptr<f32>, i32
      %mu_ptrs = tile.splat %mu_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
      %mu_row = tile.load %mu_ptrs : tensor<1x!tile.ptr<f32>>
      %mu_col = tile.expand_dims %mu_row axis 1 : tensor<1xf32> -> tensor<1x1xf32>
      %mu_tile = tile.broadcast %mu_col
          : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
      %cg_ptr = tile.addptr %c_g, %row : !tile.ptr<f32>, i32
      %cg_ptrs = tile.splat %cg_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
      %cg_row = tile.load %cg_ptrs : tensor<1x!tile.ptr<f32>>
      %cg_col = tile.expand_dims %cg_row axis 1 : tensor<1xf32> -> tensor<1x1xf32>
      %cg_tile = tile.broadcast %cg_col
          : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
      %cgx_ptr = tile.addptr %c_gx, %row : !tile.ptr<f32>, i32
      %cgx_ptrs = tile.splat %cgx_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
      %cgx_row = tile.load %cgx_ptrs : tensor<1x!tile.ptr<f32>>
      %cgx_col = tile.expand_dims %cgx_row axis 1 : tensor<1xf32> -> tensor<1x1xf32>
      %cgx_tile = tile.broadcast %cgx_col
          : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
      %xv = tile.cast %x_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %dyv = tile.cast %dy_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      // dx = rstd * (g - c_g - xhat * c_gx), g = dy * w,
      // xhat = (x - mean) * rstd.
      %centered = arith.subf %xv, %mu_tile : tensor<1x${BLOCK_SIZE}xf32>
      %xhat = arith.mulf %centered, %r_tile : tensor<1x${BLOCK_SIZE}xf32>
      %g = arith.mulf %dyv, %wv : tensor<1x${BLOCK_SIZE}xf32>
      %gc = arith.subf %g, %cg_tile : tensor<1x${BLOCK_SIZE}xf32>
      %xc = arith.mulf %xhat, %cgx_tile : tensor<1x${BLOCK_SIZE}xf32>
      %gxc = arith.subf %gc, %xc : tensor<1x${BLOCK_SIZE}xf32>
      %dxv = arith.mulf %gxc, %r_tile : tensor<1x${BLOCK_SIZE}xf32>
      %dx_out = tile.cast %dxv
          : tensor<1x${BLOCK_SIZE}xf32> to tensor<1x${BLOCK_SIZE}x${DTYPE}>
      %dx_rows = arith.muli %row_tile, %dx_stride : tensor<1x${BLOCK_SIZE}xi32>
      %dx_offsets = arith.addi %dx_rows, %idx : tensor<1x${BLOCK_SIZE}xi32>
      %dx_ptrs = tile.addptr %dx_base, %dx_offsets
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      tile.store %dx_ptrs, %dx_out, %mask
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      // dw += dy * xhat, db += dy (0 on masked lanes: dy is).
      %dyx = arith.mulf %dyv, %xhat : tensor<1x${BLOCK_SIZE}xf32>
      %next = arith.addf %acc, %dyx : tensor<1x${BLOCK_SIZE}xf32>
      %next_b = arith.addf %acc_b, %dyv : tensor<1x${BLOCK_SIZE}xf32>
      scf.yield %next, %next_b
          : tensor<1x${BLOCK_SIZE}xf32>, tensor<1x${BLOCK_SIZE}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}

    %dw_base = tile.splat %dw
        : !tile.ptr<f32> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>
    %dw_ptrs = tile.addptr %dw_base, %idx
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<1x${BLOCK_SIZE}xi32>
    tile.store %dw_ptrs, %sums#0, %mask : tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>
    %db_base = tile.splat %db
        : !tile.ptr<f32> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>
    %db_ptrs = tile.addptr %db_base, %idx
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<1x${BLOCK_SIZE}xi32>
    tile.store %db_ptrs, %sums#1, %mask : tensor<1x${BLOCK_SIZE}x!tile.ptr<f32>>
  }
  tile.return
}
