// Online softmax over a cluster, for rows longer than a cluster holds in
// registers (softmax_cluster.mlir: CLUSTER x BLOCK_SIZE columns) and too
// few to fill the GPU one row per program (64 rows of 2^20).
//
// Each row is split across the CLUSTER programs of a cluster, each taking
// a contiguous chunk of ceil(N / CLUSTER) columns (rounded up to a whole
// number of tiles) and walking it twice, as online_softmax.mlir walks a
// whole row:
//
//   pass 1  a running max m and sum of exponentials s per lane, merged
//           into the chunk's (M_r, S_r);
//   the cluster's  M = max_r M_r,  S = sum_r S_r exp(M_r - M)
//           (tile.cluster_reduce: distributed shared memory on a Hopper
//           GPU);
//   pass 2  exp(x - M) / S written, the chunk's tiles in reverse order.
//
// Each element is written once and read twice, but the second read comes
// from L2 when the machine's chunks in flight fit there: with a cluster of
// 16 and one program per SM, 132 SMs work on about 8 rows at once, 32 MiB
// of f32 rows of 2^20 against the H100's 50 MiB L2, so the DRAM sees
// about one read and one write per element (a copy's bytes), where
// online_softmax.mlir's one row per program has 64 rows of 4 MiB in flight
// and reads each twice from DRAM.
//
// The arguments are those of softmax.mlir; the grid counts programs, a
// multiple of CLUSTER (`--grid persistent`), and the clusters step over
// the rows. Any column count works: chunks past a row's end are empty (M_r
// = -inf, S_r = 0, which the merge weighs by exp(-inf) = 0). NaN anywhere
// in a row, or a row all -inf, makes the row NaN as torch.softmax does.
//
// Bounds: offsets are i32 (rows * row stride below 2^31).
//
// tile.param CLUSTER = 16 in 2, 4, 8, 16
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param NUM_WARPS = 16 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @online_softmax_cluster(
    %output: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input_row_stride: i32, %output_row_stride: i32,
    %n_rows: i32, %n_cols: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32,
                tile.cluster_size = ${CLUSTER} : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block = arith.constant ${BLOCK_SIZE} : i32
  %cluster = arith.constant ${CLUSTER} : i32
  %rank = tile.cluster_rank : i32
  %row_start = tile.cluster_id : i32
  %row_step = tile.num_clusters : i32
  // This program's chunk: tiles [first_block, first_block + chunk_blocks)
  // of the row (the last chunks may reach past its end, or start there).
  %n_blocks = arith.ceildivsi %n_cols, %block : i32
  %chunk_blocks = arith.ceildivsi %n_blocks, %cluster : i32
  %first_block = arith.muli %rank, %chunk_blocks : i32
  %last_block = arith.addi %first_block, %chunk_blocks : i32
  %last_block_1 = arith.subi %last_block, %c1 : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
  %zeros = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_row = tile.addptr %input, %in_offset : !tile.ptr<${DTYPE}>, i32
    %in_rows = tile.splat %in_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_row = tile.addptr %output, %out_offset : !tile.ptr<${DTYPE}>, i32
    %out_rows = tile.splat %out_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    // Pass 1: running max and sum of exponentials over the chunk, per lane.
    %m, %s = scf.for %i = %first_block to %last_block step %c1
        iter_args(%m_i = %neg_inf, %s_i = %zeros)
        -> (tensor<${BLOCK_SIZE}xf32>, tensor<${BLOCK_SIZE}xf32>) : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
      %ptrs = tile.addptr %in_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      %x_in = tile.load %ptrs, %mask, %neg_inf_in
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %x = tile.cast %x_in
          : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
      %m_new = arith.maximumf %m_i, %x : tensor<${BLOCK_SIZE}xf32>
      // Where the lane's max is still -inf, subtract 0 instead: every
      // exponential is then exp(-inf) = 0 rather than exp(NaN).
      %unset = arith.cmpf oeq, %m_new, %neg_inf : tensor<${BLOCK_SIZE}xf32>
      %m_safe = arith.select %unset, %zeros, %m_new
          : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
      %old = arith.subf %m_i, %m_safe : tensor<${BLOCK_SIZE}xf32>
      %alpha = tile.exp %old : tensor<${BLOCK_SIZE}xf32>
      %scaled = arith.mulf %s_i, %alpha : tensor<${BLOCK_SIZE}xf32>
      %shifted = arith.subf %x, %m_safe : tensor<${BLOCK_SIZE}xf32>
      %p = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
      %s_new = arith.addf %scaled, %p : tensor<${BLOCK_SIZE}xf32>
      scf.yield %m_new, %s_new
          : tensor<${BLOCK_SIZE}xf32>, tensor<${BLOCK_SIZE}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}

    // The chunk's (M_r, S_r): lanes merged as online_softmax.mlir merges
    // them; a chunk with no finite element has M_r = -inf, S_r = 0.
    %chunk_max = tile.reduce max %m axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %chunk_unset = arith.cmpf oeq, %chunk_max, %ninf : f32
    %chunk_safe = arith.select %chunk_unset, %zero, %chunk_max : f32
    %chunk_max_tile = tile.splat %chunk_safe : f32 -> tensor<${BLOCK_SIZE}xf32>
    %diff = arith.subf %m, %chunk_max_tile : tensor<${BLOCK_SIZE}xf32>
    %rescale = tile.exp %diff : tensor<${BLOCK_SIZE}xf32>
    %lane_sums = arith.mulf %s, %rescale : tensor<${BLOCK_SIZE}xf32>
    %chunk_sum = tile.reduce sum %lane_sums axis 0
        : tensor<${BLOCK_SIZE}xf32> -> f32

    // The row's (M, S) over the cluster. A chunk's weight exp(M_r - M) is
    // exp(-inf) = 0 for an empty chunk when the row has a finite element;
    // a row all -inf gives M = -inf and NaN below, as torch.softmax does.
    %max = tile.cluster_reduce max %chunk_max : f32
    %weight_arg = arith.subf %chunk_max, %max : f32
    %weight = math.exp %weight_arg : f32
    %weighted = arith.mulf %chunk_sum, %weight : f32
    %sum = tile.cluster_reduce sum %weighted : f32
    %inv = arith.divf %one, %sum : f32
    %max_tile = tile.splat %max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %inv_tile = tile.splat %inv : f32 -> tensor<${BLOCK_SIZE}xf32>

    // Pass 2: write exp(x - M) * (1 / S), the chunk's last tile first (the
    // tiles pass 1 read last are the likeliest still in L2).
    scf.for %j = %first_block to %last_block step %c1 : i32 {
      %back = arith.subi %j, %first_block : i32
      %i = arith.subi %last_block_1, %back : i32
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
      %ptrs = tile.addptr %in_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      %x_in = tile.load %ptrs, %mask, %neg_inf_in
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %x = tile.cast %x_in
          : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
      %shifted = arith.subf %x, %max_tile : tensor<${BLOCK_SIZE}xf32>
      %num = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
      %y = arith.mulf %num, %inv_tile : tensor<${BLOCK_SIZE}xf32>
      %out_ptrs = tile.addptr %out_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      %y_out = tile.cast %y
          : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
      tile.store %out_ptrs, %y_out, %mask
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    } {tile.num_stages = ${NUM_STAGES} : i32}
  }
  tile.return
}
