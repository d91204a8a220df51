// Online softmax for long rows (seed 004's `kernel_softmax_online`): a row
// need not fit in one tile. A first loop walks the row in tiles of
// BLOCK_SIZE columns, carrying a running maximum and a running sum of
// exponentials, one per lane, rescaling the sum whenever the maximum grows:
//
//   m' = max(m, x)      s' = s * exp(m - m') + exp(x - m')
//
// The lanes are then merged (M = max m, S = sum s * exp(m - M)) and a second
// loop writes exp(x - M) / S, walking the tiles in reverse so that the tiles
// read last by the first loop, still in L2, are read first.
//
// Same parameters as softmax.mlir, and the same persistent grid over rows;
// BLOCK_SIZE is the width of a tile, and any value works for any row.
// Lanes that have seen only -inf so far rescale by 0 instead of computing
// exp(-inf - -inf); a row that is all -inf still gives NaN, as torch.softmax
// does.
//
// NUM_STAGES pipelines both column loops (see softmax.mlir); 16 warps, as the
// seed uses for long rows.
//
// DTYPE is the element type of the input and output (f32, f16 or bf16):
// rows are loaded and stored as DTYPE and computed in f32, as the seeds'
// half-precision benchmarks do; with f32 the casts fold away.
//
// tile.param BLOCK_SIZE = 4096 in 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param NUM_WARPS = 16 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @online_softmax(
    %output: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input_row_stride: i32, %output_row_stride: i32,
    %n_rows: i32, %n_cols: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %n_blocks = arith.ceildivsi %n_cols, %block : i32
  %last_block = arith.subi %n_blocks, %c1 : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
  %zeros = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}xf32>

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_row = tile.addptr %input, %in_offset : !tile.ptr<${DTYPE}>, i32
    %in_rows = tile.splat %in_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_row = tile.addptr %output, %out_offset : !tile.ptr<${DTYPE}>, i32
    %out_rows = tile.splat %out_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    // Pass 1: running max and sum of exponentials, per lane.
    %m, %s = scf.for %i = %c0 to %n_blocks step %c1
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

    // Merge the lanes: M = max(m), S = sum(s * exp(m - M)).
    %max = tile.reduce max %m axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %max_tile = tile.splat %max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %diff = arith.subf %m, %max_tile : tensor<${BLOCK_SIZE}xf32>
    %rescale = tile.exp %diff : tensor<${BLOCK_SIZE}xf32>
    %lane_sums = arith.mulf %s, %rescale : tensor<${BLOCK_SIZE}xf32>
    %sum = tile.reduce sum %lane_sums axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %one = arith.constant 1.0 : f32
    %inv = arith.divf %one, %sum : f32
    %inv_tile = tile.splat %inv : f32 -> tensor<${BLOCK_SIZE}xf32>

    // Pass 2: write exp(x - M) * (1 / S), last tile first.
    scf.for %j = %c0 to %n_blocks step %c1 : i32 {
      %i = arith.subi %last_block, %j : i32
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
