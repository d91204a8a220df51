// Softmax, backward, for rows too long for one program: each row split
// across the CLUSTER programs of a cluster (a slice of BLOCK_SIZE columns
// each), the slices' sums of y * dy combined across the cluster
// (tile.cluster_reduce), then dx = y * (dy - sum) for the slice: y and dy
// read once, dx written once. The arguments are softmax_backward.mlir's, so
// the two are variants of one launch; the grid counts programs, a multiple
// of CLUSTER.
//
// tile.param CLUSTER = 8 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @softmax_backward(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %y: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %y_row_stride: i32, %dy_row_stride: i32, %dx_row_stride: i32,
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

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %y_offset = arith.muli %row, %y_row_stride : i32
    %y_row = tile.addptr %y, %y_offset : !tile.ptr<${DTYPE}>, i32
    %y_rows = tile.splat %y_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %y_ptrs = tile.addptr %y_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    %y_in = tile.load %y_ptrs, %mask, %zero_in
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %yf = tile.cast %y_in
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

    // sum(y * dy): the slice's, then the cluster's.
    %ydy = arith.mulf %yf, %dyf : tensor<${BLOCK_SIZE}xf32>
    %slice_dot = tile.reduce sum %ydy axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %dot = tile.cluster_reduce sum %slice_dot : f32
    %dot_tile = tile.splat %dot : f32 -> tensor<${BLOCK_SIZE}xf32>
    %diff = arith.subf %dyf, %dot_tile : tensor<${BLOCK_SIZE}xf32>
    %dxf = arith.mulf %yf, %diff : tensor<${BLOCK_SIZE}xf32>
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
  }
  tile.return
}
