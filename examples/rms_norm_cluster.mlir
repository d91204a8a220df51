// RMSNorm, forward, for rows too long for one program: each row is split
// across the CLUSTER programs of a cluster, each holding a slice of
// BLOCK_SIZE columns (and the same slice of the weight) in registers; the
// slices' sums of squares are combined across the cluster
// (tile.cluster_reduce), so x is read once and y written once, as
// softmax_cluster.mlir does for softmax. The arguments are rms_norm.mlir's,
// so the two are variants of one launch; the grid counts programs, a
// multiple of CLUSTER (`--grid persistent` gives every cluster that fits).
//
// tile.param CLUSTER = 8 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @rms_norm(
    %y: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %rstd: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x_row_stride: i32, %y_row_stride: i32, %n_rows: i32,
    %n_cols: i32 {tile.max_value = ${CLUSTER * BLOCK_SIZE} : i64}, %eps: f32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32,
                tile.cluster_size = ${CLUSTER} : i32} {
  // This program's slice of each row: columns rank x BLOCK_SIZE onwards.
  %rank = tile.cluster_rank : i32
  %row_start = tile.cluster_id : i32
  %row_step = tile.num_clusters : i32
  %block = arith.constant ${BLOCK_SIZE} : i32
  %first_col = arith.muli %rank, %block : i32
  %range = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %first_cols = tile.splat %first_col : i32 -> tensor<${BLOCK_SIZE}xi32>
  %cols = arith.addi %range, %first_cols : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %mask = arith.cmpi slt, %cols, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
  %zero_in = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}x${DTYPE}>
  %c0 = arith.constant 0 : i32
  %rank0 = arith.cmpi eq, %rank, %c0 : i32

  // The weight's slice, once.
  %w_base = tile.splat %w
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %w_ptrs = tile.addptr %w_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
  %w_in = tile.load %w_ptrs, %mask, %zero_in
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %wf = tile.cast %w_in
      : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
  %n_f = arith.sitofp %n_cols : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.divf %one, %n_f : f32

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    // The slice of x, zero past the row's end.
    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    %x_rows = tile.splat %x_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %x_ptrs = tile.addptr %x_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    %x_in = tile.load %x_ptrs, %mask, %zero_in
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %xf = tile.cast %x_in
        : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>

    // rstd = rsqrt(sum(x^2) / n + eps): the slice's sum, then the
    // cluster's; rank 0 stores it.
    %sq = arith.mulf %xf, %xf : tensor<${BLOCK_SIZE}xf32>
    %slice_ss = tile.reduce sum %sq axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %ss = tile.cluster_reduce sum %slice_ss : f32
    %mean = arith.mulf %ss, %inv_n : f32
    %var = arith.addf %mean, %eps : f32
    %r = math.rsqrt %var : f32
    %rstd_ptr = tile.addptr %rstd, %row : !tile.ptr<f32>, i32
    tile.store %rstd_ptr, %r, %rank0 : !tile.ptr<f32>

    // y = x * rstd * w, the slice.
    %r_tile = tile.splat %r : f32 -> tensor<${BLOCK_SIZE}xf32>
    %xr = arith.mulf %xf, %r_tile : tensor<${BLOCK_SIZE}xf32>
    %yf = arith.mulf %xr, %wf : tensor<${BLOCK_SIZE}xf32>
    %y_out = tile.cast %yf
        : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
    %y_offset = arith.muli %row, %y_row_stride : i32
    %y_row = tile.addptr %y, %y_offset : !tile.ptr<${DTYPE}>, i32
    %y_rows = tile.splat %y_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %y_ptrs = tile.addptr %y_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    tile.store %y_ptrs, %y_out, %mask
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  }
  tile.return
}
