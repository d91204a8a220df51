// Softmax of rows too long for one cluster, each read from memory once:
// every row is split over all the programs of the grid, which merge their
// slices' maxima and sums of exponentials across the grid in one exchange
// a row (tile.grid_reduce logsumexp), so each program keeps its slice on
// chip between reading and writing it. The rows follow one another, and
// the row loop is pipelined (NUM_STAGES): while the grid meets over one
// row, each program's loads of its slices of the next rows are in flight
// (2: one row ahead, in registers; 3 and 4: two and three rows ahead,
// copied into shared memory by cp.async: docs/compiler.md).
//
// The arguments are those of softmax.mlir. The kernel is persistent and
// its programs must all run at once: `--grid persistent` runs as many as
// fit on the GPU (one wave, a cooperative launch), and any grid computes
// the same. Program p holds columns p x BLOCK_SIZE onwards of every row
// (masked past the row's end); where the grid's programs hold less than a
// row (programs x BLOCK_SIZE < n_cols), each also walks its further
// blocks, p + programs, p + 2 programs, ..., twice: once for the
// statistics, once more to write them (those are read twice).
//
// Bytes it must move: x read and y written once (M x N x DTYPE each)
// where programs x BLOCK_SIZE >= N.
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param DTYPE = f32 in f32, f16, bf16
// tile.param MIN_BLOCKS_PER_SM = 1 in 1, 2, 3, 4

tile.func @softmax_grid(
    %output: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input_row_stride: i32, %output_row_stride: i32, %n_rows: i32,
    %n_cols: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32, tile.persistent,
                tile.min_blocks_per_sm = ${MIN_BLOCKS_PER_SM} : i32} {
  %pid = tile.program_id x : i32
  %programs = tile.num_programs x : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block = arith.constant ${BLOCK_SIZE} : i32
  // The row's blocks of BLOCK_SIZE columns; this program's first is `pid`.
  %cols_up = arith.addi %n_cols, %block : i32
  %cols_up1 = arith.subi %cols_up, %c1 : i32
  %n_blocks = arith.divsi %cols_up1, %block : i32
  %second = arith.addi %pid, %programs : i32
  // The program's first block as a 1 x BLOCK_SIZE tile (rank 2, so that
  // rows ahead can be staged in shared memory), and its columns' mask.
  %range = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %range_row = tile.expand_dims %range axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %first_col = arith.muli %pid, %block : i32
  %first_cols = tile.splat %first_col : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %cols = arith.addi %range_row, %first_cols : tensor<1x${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %in_cols = arith.cmpi slt, %cols, %n_cols_tile : tensor<1x${BLOCK_SIZE}xi32>
  %zero_in = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}x${DTYPE}>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<1x${BLOCK_SIZE}xf32>
  %zero = arith.constant 0.0 : f32
  %minus_inf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %in_base = tile.splat %input
      : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %out_base = tile.splat %output
      : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

  scf.for %row = %c0 to %n_rows step %c1 : i32 {
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_offsets = tile.splat %in_offset : i32 -> tensor<1x${BLOCK_SIZE}xi32>
    %in_cols_at = arith.addi %in_offsets, %cols : tensor<1x${BLOCK_SIZE}xi32>
    %in_ptrs = tile.addptr %in_base, %in_cols_at
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
    // Loaded with zeros past the row's end (what cp.async fills), which
    // count as -inf.
    %x_in = tile.load %in_ptrs, %in_cols, %zero_in
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %x_cast = tile.cast %x_in
        : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
    %x = arith.select %in_cols, %x_cast, %neg_inf
        : tensor<1x${BLOCK_SIZE}xi1>, tensor<1x${BLOCK_SIZE}xf32>

    // The block's maximum and sum of exponentials (a block past the row's
    // end has maximum -inf and sum 0).
    %m0_row = tile.reduce max %x axis 1
        : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
    %m0 = tile.reduce max %m0_row axis 0 : tensor<1xf32> -> f32
    %m0_none = arith.cmpf oeq, %m0, %minus_inf : f32
    %m0_safe = arith.select %m0_none, %zero, %m0 : f32
    %m0_tile = tile.splat %m0_safe : f32 -> tensor<1x${BLOCK_SIZE}xf32>
    %d0 = arith.subf %x, %m0_tile : tensor<1x${BLOCK_SIZE}xf32>
    %e0 = tile.exp %d0 : tensor<1x${BLOCK_SIZE}xf32>
    %s0_row = tile.reduce sum %e0 axis 1
        : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
    %s0 = tile.reduce sum %s0_row axis 0 : tensor<1xf32> -> f32

    // Further blocks, where the grid holds less than the row: folded in
    // online (the running maximum, the sum rescaled to it).
    %m, %s = scf.for %b = %second to %n_blocks step %programs
        iter_args(%m_run = %m0, %s_run = %s0) -> (f32, f32) : i32 {
      %b_col = arith.muli %b, %block : i32
      %b_cols0 = tile.splat %b_col : i32 -> tensor<1x${BLOCK_SIZE}xi32>
      %b_cols = arith.addi %range_row, %b_cols0 : tensor<1x${BLOCK_SIZE}xi32>
      %b_mask = arith.cmpi slt, %b_cols, %n_cols_tile
          : tensor<1x${BLOCK_SIZE}xi32>
      %b_at = arith.addi %in_offsets, %b_cols : tensor<1x${BLOCK_SIZE}xi32>
      %b_ptrs = tile.addptr %in_base, %b_at
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %b_in = tile.load %b_ptrs, %b_mask, %zero_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %b_cast = tile.cast %b_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %bx = arith.select %b_mask, %b_cast, %neg_inf
          : tensor<1x${BLOCK_SIZE}xi1>, tensor<1x${BLOCK_SIZE}xf32>
      %bm_row = tile.reduce max %bx axis 1
          : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
      %bm = tile.reduce max %bm_row axis 0 : tensor<1xf32> -> f32
      %m_new = arith.maximumf %m_run, %bm : f32
      %m_none = arith.cmpf oeq, %m_new, %minus_inf : f32
      %m_safe = arith.select %m_none, %zero, %m_new : f32
      %old_shift = arith.subf %m_run, %m_safe : f32
      %old_scale = math.exp %old_shift : f32
      %s_old = arith.mulf %s_run, %old_scale : f32
      %m_tile = tile.splat %m_safe : f32 -> tensor<1x${BLOCK_SIZE}xf32>
      %bd = arith.subf %bx, %m_tile : tensor<1x${BLOCK_SIZE}xf32>
      %be = tile.exp %bd : tensor<1x${BLOCK_SIZE}xf32>
      %bs_row = tile.reduce sum %be axis 1
          : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
      %bs = tile.reduce sum %bs_row axis 0 : tensor<1xf32> -> f32
      %s_new = arith.addf %s_old, %bs : f32
      scf.yield %m_new, %s_new : f32, f32
    }

    // The row's maximum and sum of exponentials over the grid, in one
    // exchange (NaN where the whole row is -inf, as torch.softmax gives).
    %row_max, %row_sum = tile.grid_reduce logsumexp %m, %s : f32, f32
    %inv = arith.divf %one, %row_sum : f32
    %max_tile = tile.splat %row_max : f32 -> tensor<1x${BLOCK_SIZE}xf32>
    %inv_tile = tile.splat %inv : f32 -> tensor<1x${BLOCK_SIZE}xf32>

    // The first block, from registers; the further ones read again.
    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_offsets = tile.splat %out_offset : i32 -> tensor<1x${BLOCK_SIZE}xi32>
    %d = arith.subf %x, %max_tile : tensor<1x${BLOCK_SIZE}xf32>
    %e = tile.exp %d : tensor<1x${BLOCK_SIZE}xf32>
    %y = arith.mulf %e, %inv_tile : tensor<1x${BLOCK_SIZE}xf32>
    %y_out = tile.cast %y
        : tensor<1x${BLOCK_SIZE}xf32> to tensor<1x${BLOCK_SIZE}x${DTYPE}>
    %out_at = arith.addi %out_offsets, %cols : tensor<1x${BLOCK_SIZE}xi32>
    %out_ptrs = tile.addptr %out_base, %out_at
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
    tile.store %out_ptrs, %y_out, %in_cols
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    scf.for %b = %second to %n_blocks step %programs : i32 {
      %b_col = arith.muli %b, %block : i32
      %b_cols0 = tile.splat %b_col : i32 -> tensor<1x${BLOCK_SIZE}xi32>
      %b_cols = arith.addi %range_row, %b_cols0 : tensor<1x${BLOCK_SIZE}xi32>
      %b_mask = arith.cmpi slt, %b_cols, %n_cols_tile
          : tensor<1x${BLOCK_SIZE}xi32>
      %b_at = arith.addi %in_offsets, %b_cols : tensor<1x${BLOCK_SIZE}xi32>
      %b_ptrs = tile.addptr %in_base, %b_at
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %b_in = tile.load %b_ptrs, %b_mask, %zero_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %bx = tile.cast %b_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %bd = arith.subf %bx, %max_tile : tensor<1x${BLOCK_SIZE}xf32>
      %be = tile.exp %bd : tensor<1x${BLOCK_SIZE}xf32>
      %by = arith.mulf %be, %inv_tile : tensor<1x${BLOCK_SIZE}xf32>
      %by_out = tile.cast %by
          : tensor<1x${BLOCK_SIZE}xf32> to tensor<1x${BLOCK_SIZE}x${DTYPE}>
      %b_out_at = arith.addi %out_offsets, %b_cols : tensor<1x${BLOCK_SIZE}xi32>
      %b_out = tile.addptr %out_base, %b_out_at
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      tile.store %b_out, %by_out, %b_mask
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    }
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
