// Fused softmax over a cluster: each row is split across the CLUSTER
// programs of a cluster, each holding a slice of BLOCK_SIZE columns in
// registers. The programs reduce their slices, then reduce across the
// cluster (tile.cluster_reduce: on a Hopper GPU, through distributed shared
// memory), so every element is read from memory once and written once, for
// rows far longer than one program can hold (CLUSTER x BLOCK_SIZE: 262144
// floats with the defaults).
//
// The arguments are those of softmax.mlir; the grid counts programs, a
// multiple of CLUSTER: `--grid persistent` gives every cluster that fits,
// and the clusters step over the rows. Odd column counts are masked: the
// last slices of a row may be partly or wholly past its end.
//
// MIN_BLOCKS_PER_SM has registers allocated so that that many blocks fit
// on an SM at once, spilling if they must: with one block per SM, each
// block's loads, reductions, exchanges and stores follow one another, and
// the memory idles between them; with more, one block's loads overlap
// another's arithmetic and waits. Half-precision rows, which have twice
// the elements per byte, need it most.
//
// tile.param CLUSTER = 8 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 32768 in 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_STAGES = 1 in 1, 2
// tile.param NUM_WARPS = 16 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16
// tile.param MIN_BLOCKS_PER_SM = 1 in 1, 2, 3, 4

tile.func @softmax_cluster(
    %output: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input_row_stride: i32, %output_row_stride: i32, %n_rows: i32,
    %n_cols: i32 {tile.max_value = ${CLUSTER * BLOCK_SIZE} : i64})
    attributes {tile.num_warps = ${NUM_WARPS} : i32,
                tile.cluster_size = ${CLUSTER} : i32,
                tile.min_blocks_per_sm = ${MIN_BLOCKS_PER_SM} : i32} {
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
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
  %one = arith.constant 1.0 : f32
  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    // Load the slice, masked past the row's end with -inf.
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_row = tile.addptr %input, %in_offset : !tile.ptr<${DTYPE}>, i32
    %in_rows = tile.splat %in_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %in_ptrs = tile.addptr %in_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    %x_in = tile.load %in_ptrs, %mask, %neg_inf_in
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %x = tile.cast %x_in
        : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>

    // The row's maximum: the slice's, then the cluster's.
    %slice_max = tile.reduce max %x axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %max = tile.cluster_reduce max %slice_max : f32
    %max_tile = tile.splat %max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %shifted = arith.subf %x, %max_tile : tensor<${BLOCK_SIZE}xf32>
    %num = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>

    // The row's sum of exponentials, likewise; one division per row.
    %slice_sum = tile.reduce sum %num axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %den = tile.cluster_reduce sum %slice_sum : f32
    %inv = arith.divf %one, %den : f32
    %inv_tile = tile.splat %inv : f32 -> tensor<${BLOCK_SIZE}xf32>
    %y = arith.mulf %num, %inv_tile : tensor<${BLOCK_SIZE}xf32>

    // Store the slice.
    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_row = tile.addptr %output, %out_offset : !tile.ptr<${DTYPE}>, i32
    %out_rows = tile.splat %out_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %out_ptrs = tile.addptr %out_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    %y_out = tile.cast %y
        : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
    tile.store %out_ptrs, %y_out, %mask
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
