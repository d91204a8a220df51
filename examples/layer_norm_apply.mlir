// LayerNorm, second stage of the split path (rows longer than
// layer_norm_cluster.mlir's 16 x 32768): with mean[row] and rstd[row] =
// 1 / sqrt(var + eps) (from layer_norm_partial.mlir's shifted sums, which
// the caller combines and keeps for the backward pass),
//
//   y = (x - mean[row]) * rstd[row] * w + b,
//
// on a grid (P, Q): program (p, q) takes rows p, p + P, ... and in each its
// chunks q, q + Q, ... of BLOCK_SIZE columns. x is read a second time, so
// the two stages move 1.5 times the one-pass kernel's bytes.
//
// Bounds: offsets are i32, so n_rows times each row stride stays below
// 2^31.
//
// Bytes it must move: x read and y written (M x N x DTYPE each), w and b
// read (N x DTYPE each, from L2 after the first rows), mean and rstd read
// (M x 4 each).
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @layer_norm_apply(
    %y: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %b: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %mean: !tile.ptr<f32>,
    %rstd: !tile.ptr<f32>,
    %x_row_stride: i32, %y_row_stride: i32, %n_rows: i32, %n_cols: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %split = tile.program_id y : i32
  %n_splits = tile.num_programs y : i32
  %n_chunks = arith.ceildivsi %n_cols, %block : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %cols_2d = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %zeros_in = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}x${DTYPE}>
  %w_base = tile.splat %w
      : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %b_base = tile.splat %b
      : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
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
    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    %x_rows = tile.splat %x_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %y_offset = arith.muli %row, %y_row_stride : i32
    %y_row = tile.addptr %y, %y_offset : !tile.ptr<${DTYPE}>, i32
    %y_rows = tile.splat %y_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    scf.for %i = %split to %n_chunks step %n_splits : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<1x${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols_2d, %start_tile : tensor<1x${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<1x${BLOCK_SIZE}xi32>
      %x_ptrs = tile.addptr %x_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %x_in = tile.load %x_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %w_ptrs = tile.addptr %w_base, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %w_in = tile.load %w_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %xv = tile.cast %x_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %wv = tile.cast %w_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %b_ptrs = tile.addptr %b_base, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %b_in = tile.load %b_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %bv = tile.cast %b_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %centered = arith.subf %xv, %mu_tile : tensor<1x${BLOCK_SIZE}xf32>
      %scaled = arith.mulf %centered, %r_tile : tensor<1x${BLOCK_SIZE}xf32>
      %weighted = arith.mulf %scaled, %wv : tensor<1x${BLOCK_SIZE}xf32>
      %yv = arith.addf %weighted, %bv : tensor<1x${BLOCK_SIZE}xf32>
      %y_out = tile.cast %yv
          : tensor<1x${BLOCK_SIZE}xf32> to tensor<1x${BLOCK_SIZE}x${DTYPE}>
      %y_ptrs = tile.addptr %y_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      tile.store %y_ptrs, %y_out, %mask
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    } {tile.num_stages = ${NUM_STAGES} : i32}
  }
  tile.return
}
