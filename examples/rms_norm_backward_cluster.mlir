// RMSNorm, backward, for rows too long for one program: each row split
// across the CLUSTER programs of a cluster (a slice of BLOCK_SIZE columns
// each, with the same slice of the weight), the slices' sums of g * xhat
// combined across the cluster (tile.cluster_reduce), then
// dx = rstd * (g - xhat * mean(g * xhat)) for the slice, as
// rms_norm_backward.mlir does for a row in one program. Each program sums
// dy * xhat over the rows its cluster takes, for its slice of the columns,
// into row `cluster id` of dw_partial (the clusters are at most
// dw_partial's rows: a persistent grid's cap counts clusters). The
// arguments are rms_norm_backward.mlir's, so the two are variants of one
// launch; the grid counts programs, a multiple of CLUSTER.
//
// NUM_STAGES = 2 loads the next row's slices while this one waits for its
// cluster's sums (tile-pipeline-loops, in registers).
//
// tile.param CLUSTER = 8 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_STAGES = 1 in 1, 2
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @rms_norm_backward(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dw_partial: !tile.ptr<f32>,
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %w: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
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

  // The weight's slice, once, and 1 / n.
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
  %dw0 = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}xf32>

  %dw_acc = scf.for %row = %row_start to %n_rows step %row_step
      iter_args(%dw_i = %dw0) -> (tensor<${BLOCK_SIZE}xf32>) : i32 {
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
    %rstd_ptr = tile.addptr %rstd, %row : !tile.ptr<f32>, i32
    %r = tile.load %rstd_ptr : !tile.ptr<f32>
    %r_tile = tile.splat %r : f32 -> tensor<${BLOCK_SIZE}xf32>

    // xhat, g, and c = mean(g * xhat) over the whole row.
    %xhat = arith.mulf %xf, %r_tile : tensor<${BLOCK_SIZE}xf32>
    %g = arith.mulf %dyf, %wf : tensor<${BLOCK_SIZE}xf32>
    %gx = arith.mulf %g, %xhat : tensor<${BLOCK_SIZE}xf32>
    %slice_gx = tile.reduce sum %gx axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %gx_sum = tile.cluster_reduce sum %slice_gx : f32
    %c = arith.mulf %gx_sum, %inv_n : f32
    %c_tile = tile.splat %c : f32 -> tensor<${BLOCK_SIZE}xf32>

    // dx = rstd * (g - xhat * c).
    %xc = arith.mulf %xhat, %c_tile : tensor<${BLOCK_SIZE}xf32>
    %gxc = arith.subf %g, %xc : tensor<${BLOCK_SIZE}xf32>
    %dxf = arith.mulf %gxc, %r_tile : tensor<${BLOCK_SIZE}xf32>
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

    // dw += dy * xhat (zero past the row's end).
    %dyx = arith.mulf %dyf, %xhat : tensor<${BLOCK_SIZE}xf32>
    %dw_next = arith.addf %dw_i, %dyx : tensor<${BLOCK_SIZE}xf32>
    scf.yield %dw_next : tensor<${BLOCK_SIZE}xf32>
  } {tile.num_stages = ${NUM_STAGES} : i32}

  // This program's slice of row `cluster id` of dw_partial.
  %part_offset = arith.muli %row_start, %n_cols : i32
  %part_row = tile.addptr %dw_partial, %part_offset : !tile.ptr<f32>, i32
  %part_base = tile.splat %part_row
      : !tile.ptr<f32> -> tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  %part_ptrs = tile.addptr %part_base, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${BLOCK_SIZE}xi32>
  tile.store %part_ptrs, %dw_acc, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f32>>
  tile.return
}
