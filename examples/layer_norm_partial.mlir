// LayerNorm, first stage of the split path (rows beyond
// layer_norm_cluster.mlir's 16 x 32768): each row is shared by the Q
// programs along y of a grid (P, Q); program (p, q) takes rows p, p + P,
// ... and in each its chunks q, q + Q, ... of BLOCK_SIZE columns, and
// writes the sums of d = x - K and of d^2 over them,
//
//   sum1[row, q] = sum d,   sum2[row, q] = sum d^2,   K = x[row, 0],
//
// in f32 ([M, Q] buffers). Shifting by one of the row's own elements keeps
// the variance the caller makes from them (mean = K + S1 / N, var = S2 / N
// - (S1 / N)^2, S the sums over the row's parts) from cancelling when
// |mean| is large against the spread: d is of the order of the spread, not
// of the mean (the shifted-data algorithm; the one-pass kernel's variance
// is the two-pass one, which a row read once cannot have).
// layer_norm_apply.mlir then normalizes the row.
//
// Bounds: offsets are i32, so n_rows * x_row_stride and n_rows * n_splits
// stay below 2^31.
//
// Bytes it must move: x read (M x N x DTYPE), the sums written (M x Q x 8).
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @layer_norm_partial(
    %sum1: !tile.ptr<f32>,
    %sum2: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x_row_stride: i32, %n_rows: i32, %n_cols: i32, %n_splits: i32)
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

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    // K = x[row, 0], in every lane.
    %k_ptrs = tile.splat %x_row : !tile.ptr<${DTYPE}> -> tensor<1x!tile.ptr<${DTYPE}>>
    %k_in = tile.load %k_ptrs : tensor<1x!tile.ptr<${DTYPE}>>
    %k_f = tile.cast %k_in : tensor<1x${DTYPE}> to tensor<1xf32>
    %k_col = tile.expand_dims %k_f axis 1 : tensor<1xf32> -> tensor<1x1xf32>
    %k_tile = tile.broadcast %k_col : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
    %x_rows = tile.splat %x_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    %sums:2 = scf.for %i = %split to %n_chunks step %n_splits
        iter_args(%acc1 = %zero_sum, %acc2 = %zero_sum)
        -> (tensor<1x${BLOCK_SIZE}xf32>, tensor<1x${BLOCK_SIZE}xf32>) : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<1x${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols_2d, %start_tile : tensor<1x${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<1x${BLOCK_SIZE}xi32>
      %x_ptrs = tile.addptr %x_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %x_in = tile.load %x_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %xv = tile.cast %x_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      // d = x - K on the row's lanes, 0 past its end.
      %shifted = arith.subf %xv, %k_tile : tensor<1x${BLOCK_SIZE}xf32>
      %d = arith.select %mask, %shifted, %zero_sum
          : tensor<1x${BLOCK_SIZE}xi1>, tensor<1x${BLOCK_SIZE}xf32>
      %d2 = arith.mulf %d, %d : tensor<1x${BLOCK_SIZE}xf32>
      %next1 = arith.addf %acc1, %d : tensor<1x${BLOCK_SIZE}xf32>
      %next2 = arith.addf %acc2, %d2 : tensor<1x${BLOCK_SIZE}xf32>
      scf.yield %next1, %next2
          : tensor<1x${BLOCK_SIZE}xf32>, tensor<1x${BLOCK_SIZE}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}
    %s1 = tile.reduce sum %sums#0 axis 1
        : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
    %s2 = tile.reduce sum %sums#1 axis 1
        : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
    %slot = arith.muli %row, %n_splits : i32
    %slot_q = arith.addi %slot, %split : i32
    %p1 = tile.addptr %sum1, %slot_q : !tile.ptr<f32>, i32
    %p1s = tile.splat %p1 : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
    tile.store %p1s, %s1 : tensor<1x!tile.ptr<f32>>
    %p2 = tile.addptr %sum2, %slot_q : !tile.ptr<f32>, i32
    %p2s = tile.splat %p2 : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
    tile.store %p2s, %s2 : tensor<1x!tile.ptr<f32>>
  }
  tile.return
}
