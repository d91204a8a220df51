// LayerNorm, forward, for rows too long for one program: each row split
// across the CLUSTER programs of a cluster (a slice of BLOCK_SIZE columns
// each, with the same slices of the weight and the bias), the slices' sums
// combined across the cluster (tile.cluster_reduce) twice: sum(x) for the
// mean, then sum((x - mean)^2) for the variance, the two-pass variance of
// layer_norm.mlir with the slice in registers; rank 0 stores the row's mean
// and rstd. x is read once and y written once. The arguments are
// layer_norm.mlir's, so the two are variants of one launch; the grid counts
// programs, a multiple of CLUSTER.
//
// tile.param CLUSTER = 8 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @layer_norm(
    %y: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %mean: !tile.ptr<f32>,
    %rstd: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %b: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
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
  %zero_f = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}xf32>
  %n_f = arith.sitofp %n_cols : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.divf %one, %n_f : f32
  %c0 = arith.constant 0 : i32
  %rank0 = arith.cmpi eq, %rank, %c0 : i32
  // The weight's and the bias's slices, once.
  %w_base = tile.splat %w
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %w_ptrs = tile.addptr %w_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
  %w_in = tile.load %w_ptrs, %mask, %zero_in
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %wf = tile.cast %w_in
      : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
  %b_base = tile.splat %b
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %b_ptrs = tile.addptr %b_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
  %b_in = tile.load %b_ptrs, %mask, %zero_in
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %bf = tile.cast %b_in
      : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
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

    // The row's mean: the slice's sum, then the cluster's.
    %slice_sum = tile.reduce sum %xf axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %sum = tile.cluster_reduce sum %slice_sum : f32
    %mu = arith.mulf %sum, %inv_n : f32
    %mu_tile = tile.splat %mu : f32 -> tensor<${BLOCK_SIZE}xf32>
    %diff = arith.subf %xf, %mu_tile : tensor<${BLOCK_SIZE}xf32>
    // Past the row's end x is 0, and x - mean would be -mean: 0 there.
    %xc = arith.select %mask, %diff, %zero_f
        : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>

    // The variance, likewise, and rstd; rank 0 stores mean and rstd.
    %sq = arith.mulf %xc, %xc : tensor<${BLOCK_SIZE}xf32>
    %slice_sq = tile.reduce sum %sq axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %sq_sum = tile.cluster_reduce sum %slice_sq : f32
    %var = arith.mulf %sq_sum, %inv_n : f32
    %var_eps = arith.addf %var, %eps : f32
    %r = math.rsqrt %var_eps : f32
    %mean_ptr = tile.addptr %mean, %row : !tile.ptr<f32>, i32
    tile.store %mean_ptr, %mu, %rank0 : !tile.ptr<f32>
    %rstd_ptr = tile.addptr %rstd, %row : !tile.ptr<f32>, i32
    tile.store %rstd_ptr, %r, %rank0 : !tile.ptr<f32>

    // y = xc * rstd * w + b, the slice.
    %r_tile = tile.splat %r : f32 -> tensor<${BLOCK_SIZE}xf32>
    %xr = arith.mulf %xc, %r_tile : tensor<${BLOCK_SIZE}xf32>
    %xw = arith.mulf %xr, %wf : tensor<${BLOCK_SIZE}xf32>
    %yf = arith.addf %xw, %bf : tensor<${BLOCK_SIZE}xf32>
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
