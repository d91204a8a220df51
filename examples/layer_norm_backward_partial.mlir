// LayerNorm backward, first stage of the split path (rows beyond
// layer_norm_backward_cluster.mlir's 16 x 32768): with g = dy * w and
// xhat = (x - mean[row]) * rstd[row] (the forward pass's statistics), each
// row is shared by the Q programs along y of a grid (P, Q); program (p, q)
// takes rows p, p + P, ... and in each its chunks q, q + Q, ... of
// BLOCK_SIZE columns, and writes
//
//   sum_g[row, q] = sum g,   sum_gx[row, q] = sum g * xhat
//
// in f32 ([M, Q] buffers). The caller makes the row's means of g and of
// g * xhat from them for layer_norm_backward_apply.mlir.
//
// Bounds: offsets are i32, so n_rows times each row stride and n_rows *
// n_splits stay below 2^31.
//
// Bytes it must move: dy and x read (M x N x DTYPE each), w read (N x
// DTYPE, from L2 after the first rows), mean and rstd read (M x 4 each),
// the sums written (M x Q x 8).
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @layer_norm_backward_partial(
    %sum_g: !tile.ptr<f32>,
    %sum_gx: !tile.ptr<f32>,
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %mean: !tile.ptr<f32>,
    %rstd: !tile.ptr<f32>,
    %x_row_stride: i32, %dy_row_stride: i32, %n_rows: i32, %n_cols: i32,
    %n_splits: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %split = tile.program_id y : i32
  %n_chunks = arith.ceildivsi %n_cols, %block : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %cols_2d = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %zeros_in = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}x${DTYPE}>
  %zero_sum = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}xf32>
  %w_base = tile.splat %w
      : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %mu_ptr = tile.addptr %mean, %row : !tile.ptr<f32>, i32
    %mu_ptrs = tile.splat %mu_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
    %mu_row = tile.load %mu_ptrs : tensor<1x!tile.ptr<f32>>
    %mu_col = tile.expand_dims %mu_row axis 1 : tensor<1xf32> -> tensor<1x1xf32>
    %mu_tile = tile.broadcast %mu_col
        : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
    %r_ptr = tile.addptr %rstd, %row : !tile.ptr<f32>, i32
    %r_ptrs = tile.splat %r_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
    %r_row = tile.load %r_ptrs : tensor<1x!tile.ptr<f32>>
    %r_col = tile.expand_dims %r_row axis 1 : tensor<1xf32> -> tensor<1x1xf32>
    %r_tile = tile.broadcast %r_col
        : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    %x_rows = tile.splat %x_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dy_offset = arith.muli %row, %dy_row_stride : i32
    %dy_row = tile.addptr %dy, %dy_offset : !tile.ptr<${DTYPE}>, i32
    %dy_rows = tile.splat %dy_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    %sums:2 = scf.for %i = %split to %n_chunks step %n_splits
        iter_args(%acc_g = %zero_sum, %acc_gx = %zero_sum)
        -> (tensor<1x${BLOCK_SIZE}xf32>, tensor<1x${BLOCK_SIZE}xf32>) : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<1x${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols_2d, %start_tile : tensor<1x${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<1x${BLOCK_SIZE}xi32>
      %x_ptrs = tile.addptr %x_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %x_in = tile.load %x_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %dy_ptrs = tile.addptr %dy_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %dy_in = tile.load %dy_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %w_ptrs = tile.addptr %w_base, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %w_in = tile.load %w_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %xv = tile.cast %x_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %dyv = tile.cast %dy_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %wv = tile.cast %w_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      // g is 0 past the row's end (dy and w are), so g * xhat is too.
      %g = arith.mulf %dyv, %wv : tensor<1x${BLOCK_SIZE}xf32>
      %centered = arith.subf %xv, %mu_tile : tensor<1x${BLOCK_SIZE}xf32>
      %xhat = arith.mulf %centered, %r_tile : tensor<1x${BLOCK_SIZE}xf32>
      %gx = arith.mulf %g, %xhat : tensor<1x${BLOCK_SIZE}xf32>
      %next_g = arith.addf %acc_g, %g : tensor<1x${BLOCK_SIZE}xf32>
      %next_gx = arith.addf %acc_gx, %gx : tensor<1x${BLOCK_SIZE}xf32>
      scf.yield %next_g, %next_gx
          : tensor<1x${BLOCK_SIZE}xf32>, tensor<1x${BLOCK_SIZE}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}
    %s_g = tile.reduce sum %sums#0 axis 1
        : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
    %s_gx = tile.reduce sum %sums#1 axis 1
        : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
    %slot = arith.muli %row, %n_splits : i32
    %slot_q = arith.addi %slot, %split : i32
    %pg = tile.addptr %sum_g, %slot_q : !tile.ptr<f32>, i32
    %pgs = tile.splat %pg : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
    tile.store %pgs, %s_g : tensor<1x!tile.ptr<f32>>
    %pgx = tile.addptr %sum_gx, %slot_q : !tile.ptr<f32>, i32
    %pgxs = tile.splat %pgx : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
    tile.store %pgxs, %s_gx : tensor<1x!tile.ptr<f32>>
  }
  tile.return
}
