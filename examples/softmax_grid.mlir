// Softmax of rows too long for one cluster, each read from memory once:
// every row is split over all the programs of the grid, which reduce their
// slices' maxima and sums across the grid (tile.grid_reduce), so each
// program keeps its slice in registers between reading and writing it.
// The rows follow one another; while the grid meets over one row, each
// program's loads of its slice of the next are already in flight.
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
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
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
  %range = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %first_col = arith.muli %pid, %block : i32
  %first_cols = tile.splat %first_col : i32 -> tensor<${BLOCK_SIZE}xi32>
  %cols = arith.addi %range, %first_cols : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %in_cols = arith.cmpi slt, %cols, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
  %zero = arith.constant 0.0 : f32
  %minus_inf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32

  // The first row's first block, loaded before the loop (none where the
  // launch has no rows: the mask is off).
  %has_rows = arith.cmpi slt, %c0, %n_rows : i32
  %has_rows_tile = tile.splat %has_rows : i1 -> tensor<${BLOCK_SIZE}xi1>
  %first_mask = arith.andi %in_cols, %has_rows_tile : tensor<${BLOCK_SIZE}xi1>
  %first_ptrs = tile.splat %input
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %first_in = tile.addptr %first_ptrs, %cols
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
  %x_first = tile.load %first_in, %first_mask, %neg_inf_in
      : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

  %last = scf.for %row = %c0 to %n_rows step %c1
      iter_args(%x_in = %x_first) -> (tensor<${BLOCK_SIZE}x${DTYPE}>) : i32 {
    %x = tile.cast %x_in
        : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_row = tile.addptr %input, %in_offset : !tile.ptr<${DTYPE}>, i32
    %in_rows = tile.splat %in_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    // The block's maximum and sum of exponentials (a block past the row's
    // end has maximum -inf and sum 0).
    %m0 = tile.reduce max %x axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %m0_none = arith.cmpf oeq, %m0, %minus_inf : f32
    %m0_safe = arith.select %m0_none, %zero, %m0 : f32
    %m0_tile = tile.splat %m0_safe : f32 -> tensor<${BLOCK_SIZE}xf32>
    %d0 = arith.subf %x, %m0_tile : tensor<${BLOCK_SIZE}xf32>
    %e0 = tile.exp %d0 : tensor<${BLOCK_SIZE}xf32>
    %s0 = tile.reduce sum %e0 axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32

    // Further blocks, where the grid holds less than the row: folded in
    // online (the running maximum, the sum rescaled to it).
    %m, %s = scf.for %b = %second to %n_blocks step %programs
        iter_args(%m_run = %m0, %s_run = %s0) -> (f32, f32) : i32 {
      %b_col = arith.muli %b, %block : i32
      %b_cols0 = tile.splat %b_col : i32 -> tensor<${BLOCK_SIZE}xi32>
      %b_cols = arith.addi %range, %b_cols0 : tensor<${BLOCK_SIZE}xi32>
      %b_mask = arith.cmpi slt, %b_cols, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
      %b_ptrs = tile.addptr %in_rows, %b_cols
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      %b_in = tile.load %b_ptrs, %b_mask, %neg_inf_in
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %bx = tile.cast %b_in
          : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
      %bm = tile.reduce max %bx axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
      %m_new = arith.maximumf %m_run, %bm : f32
      %m_none = arith.cmpf oeq, %m_new, %minus_inf : f32
      %m_safe = arith.select %m_none, %zero, %m_new : f32
      %old_shift = arith.subf %m_run, %m_safe : f32
      %old_scale = math.exp %old_shift : f32
      %s_old = arith.mulf %s_run, %old_scale : f32
      %m_tile = tile.splat %m_safe : f32 -> tensor<${BLOCK_SIZE}xf32>
      %bd = arith.subf %bx, %m_tile : tensor<${BLOCK_SIZE}xf32>
      %be = tile.exp %bd : tensor<${BLOCK_SIZE}xf32>
      %bs = tile.reduce sum %be axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
      %s_new = arith.addf %s_old, %bs : f32
      scf.yield %m_new, %s_new : f32, f32
    }

    // The next row's first block, in flight while the grid meets.
    %next = arith.addi %row, %c1 : i32
    %has_next = arith.cmpi slt, %next, %n_rows : i32
    %has_next_tile = tile.splat %has_next : i1 -> tensor<${BLOCK_SIZE}xi1>
    %next_mask = arith.andi %in_cols, %has_next_tile : tensor<${BLOCK_SIZE}xi1>
    %next_offset = arith.addi %in_offset, %input_row_stride : i32
    %next_row = tile.addptr %input, %next_offset : !tile.ptr<${DTYPE}>, i32
    %next_rows = tile.splat %next_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %next_ptrs = tile.addptr %next_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    %x_next = tile.load %next_ptrs, %next_mask, %neg_inf_in
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    // The row's maximum over the grid, then its sum of exponentials, each
    // program's sum rescaled to it (0 for a program with no columns; NaN
    // where the whole row is -inf, as torch.softmax gives).
    %row_max = tile.grid_reduce max %m : f32
    %shift = arith.subf %m, %row_max : f32
    %scale = math.exp %shift : f32
    %s_scaled = arith.mulf %s, %scale : f32
    %row_sum = tile.grid_reduce sum %s_scaled : f32
    %inv = arith.divf %one, %row_sum : f32
    %max_tile = tile.splat %row_max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %inv_tile = tile.splat %inv : f32 -> tensor<${BLOCK_SIZE}xf32>

    // The first block, from registers; the further ones read again.
    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_row = tile.addptr %output, %out_offset : !tile.ptr<${DTYPE}>, i32
    %out_rows = tile.splat %out_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %d = arith.subf %x, %max_tile : tensor<${BLOCK_SIZE}xf32>
    %e = tile.exp %d : tensor<${BLOCK_SIZE}xf32>
    %y = arith.mulf %e, %inv_tile : tensor<${BLOCK_SIZE}xf32>
    %y_out = tile.cast %y
        : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
    %out_ptrs = tile.addptr %out_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    tile.store %out_ptrs, %y_out, %in_cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    scf.for %b = %second to %n_blocks step %programs : i32 {
      %b_col = arith.muli %b, %block : i32
      %b_cols0 = tile.splat %b_col : i32 -> tensor<${BLOCK_SIZE}xi32>
      %b_cols = arith.addi %range, %b_cols0 : tensor<${BLOCK_SIZE}xi32>
      %b_mask = arith.cmpi slt, %b_cols, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
      %b_ptrs = tile.addptr %in_rows, %b_cols
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      %b_in = tile.load %b_ptrs, %b_mask, %neg_inf_in
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %bx = tile.cast %b_in
          : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
      %bd = arith.subf %bx, %max_tile : tensor<${BLOCK_SIZE}xf32>
      %be = tile.exp %bd : tensor<${BLOCK_SIZE}xf32>
      %by = arith.mulf %be, %inv_tile : tensor<${BLOCK_SIZE}xf32>
      %by_out = tile.cast %by
          : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
      %b_out = tile.addptr %out_rows, %b_cols
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      tile.store %b_out, %by_out, %b_mask
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    }
    scf.yield %x_next : tensor<${BLOCK_SIZE}x${DTYPE}>
  }
  tile.return
}
