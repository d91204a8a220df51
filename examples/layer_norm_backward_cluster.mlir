// LayerNorm, backward, for rows too long for one program: each row split
// across the CLUSTER programs of a cluster (a slice of BLOCK_SIZE columns
// each, with the same slice of the weight), the slices' sums of g and of
// g * xhat combined across the cluster in one exchange (tile.cluster_reduce
// of both), then
//   dx = rstd * (g - mean(g) - xhat * mean(g * xhat))
// for the slice, as layer_norm_backward.mlir does for a row in one program.
// Each program sums dy * xhat and dy over the rows its cluster takes, for
// its slice of the columns, into row `cluster id` of dw_partial and
// db_partial (the clusters are at most their rows: a persistent grid's cap
// counts clusters). The arguments are layer_norm_backward.mlir's, so the
// two are variants of one launch; the grid counts programs, a multiple of
// CLUSTER.
//
// NUM_STAGES = 2 loads the next row's slices while this one waits for its
// cluster's sums (tile-pipeline-loops, in registers).
//
// tile.param CLUSTER = 8 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_STAGES = 1 in 1, 2
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @layer_norm_backward(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dw_partial: !tile.ptr<f32>,
    %db_partial: !tile.ptr<f32>,
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %mean: !tile.ptr<f32>,
    %rstd: !tile.ptr<f32>,
    %x_row_stride: i32, %dy_row_stride: i32, %dx_row_stride: i32,
    %n_rows: i32, %n_cols: i32 {tile.max_value = ${CLUSTER * BLOCK_SIZE} : i64})
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
  // The weight's slice, once.
  %w_base = tile.splat %w
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %w_ptrs = tile.addptr %w_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
  %w_in = tile.load %w_ptrs, %mask, %zero_in
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %wf = tile.cast %w_in
      : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>

  %acc_w, %acc_b = scf.for %row = %row_start to %n_rows step %row_step
      iter_args(%dw_i = %zero_f, %db_i = %zero_f)
      -> (tensor<${BLOCK_SIZE}xf32>, tensor<${BLOCK_SIZE}xf32>) : i32 {
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
    %mean_ptr = tile.addptr %mean, %row : !tile.ptr<f32>, i32
    %mu = tile.load %mean_ptr : !tile.ptr<f32>
    %rstd_ptr = tile.addptr %rstd, %row : !tile.ptr<f32>, i32
    %r = tile.load %rstd_ptr : !tile.ptr<f32>
    %mu_tile = tile.splat %mu : f32 -> tensor<${BLOCK_SIZE}xf32>
    %r_tile = tile.splat %r : f32 -> tensor<${BLOCK_SIZE}xf32>

    // xhat, 0 past the row's end. The loads and the sums come in the order
    // that keeps the fewest slices live: x is dead once xhat is made, and dy
    // once it has gone into the sums and g.
    %diff = arith.subf %xf, %mu_tile : tensor<${BLOCK_SIZE}xf32>
    %xc = arith.select %mask, %diff, %zero_f
        : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
    %xhat = arith.mulf %xc, %r_tile : tensor<${BLOCK_SIZE}xf32>
    %dy_offset = arith.muli %row, %dy_row_stride : i32
    %dy_row = tile.addptr %dy, %dy_offset : !tile.ptr<${DTYPE}>, i32
    %dy_rows = tile.splat %dy_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dy_ptrs = tile.addptr %dy_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    %dy_in = tile.load %dy_ptrs, %mask, %zero_in
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dyf = tile.cast %dy_in
        : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
    // dw += dy * xhat, db += dy (both 0 past the row's end).
    %dyx = arith.mulf %dyf, %xhat : tensor<${BLOCK_SIZE}xf32>
    %dw_next = arith.addf %dw_i, %dyx : tensor<${BLOCK_SIZE}xf32>
    %db_next = arith.addf %db_i, %dyf : tensor<${BLOCK_SIZE}xf32>

    // g, and the row's mean(g) and mean(g * xhat).
    %g = arith.mulf %dyf, %wf : tensor<${BLOCK_SIZE}xf32>
    %slice_g = tile.reduce sum %g axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %gx = arith.mulf %g, %xhat : tensor<${BLOCK_SIZE}xf32>
    %slice_gx = tile.reduce sum %gx axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %g_sum, %gx_sum = tile.cluster_reduce sum %slice_g, %slice_gx : f32, f32
    %g_mean = arith.mulf %g_sum, %inv_n : f32
    %gx_mean = arith.mulf %gx_sum, %inv_n : f32
    %gm_tile = tile.splat %g_mean : f32 -> tensor<${BLOCK_SIZE}xf32>
    %gxm_tile = tile.splat %gx_mean : f32 -> tensor<${BLOCK_SIZE}xf32>

    // dx = rstd * (g - mean(g) - xhat * mean(g * xhat)).
    %t0 = arith.subf %g, %gm_tile : tensor<${BLOCK_SIZE}xf32>
    %t1 = arith.mulf %xhat, %gxm_tile : tensor<${BLOCK_SIZE}xf32>
    %t2 = arith.subf %t0, %t1 : tensor<${BLOCK_SIZE}xf32>
    %dxf = arith.mulf %t2, %r_tile : tensor<${BLOCK_SIZE}xf32>
    %dx_out = tile.cast %dxf
        : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
    %dx_offset = arith.muli %row, %dx_row_stride : i32
    %dx_row = tile.addptr %dx, %dx_offset : !tile.ptr<${DTYPE}>, i32
    %dx_rows = tile.splat %dx_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dx_ptrs = tile.addptr %dx_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    tile.store %dx_ptrs, %dx_out, %mask
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    scf.yield %dw_next, %db_next : tensor<${BLOCK_SIZE}xf32>, tensor<${BLOCK_SIZE}xf32>
  } {tile.num_stages = ${NUM_STAGES} : i32}

  // This program's slices of row `cluster id` of dw_partial and db_partial.
  %part_offset = arith.muli %row_start, %n_cols : i32
  %w_row = tile.addptr %dw_partial, %part_offset : !tile.ptr<f32>, i32
  %w_rows = tile.splat %w_row : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %w_out = tile.addptr %w_rows, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
  tile.store %w_out, %acc_w, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %b_row = tile.addptr %db_partial, %part_offset : !tile.ptr<f32>, i32
  %b_rows = tile.splat %b_row : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %b_out = tile.addptr %b_rows, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
  tile.store %b_out, %acc_b, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  tile.return
}
