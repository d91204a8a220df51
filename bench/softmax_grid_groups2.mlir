// An experiment beside examples/softmax_grid.mlir (bench/grid_protocol.sh,
// variant groups2): the grid in two halves, each taking every second row,
// so that two rows are in flight across the grid at each step and the
// programs meet half as often (run 120: softmax_grid's 64 x 2^20 rows cost
// about 4.6 us each against the copy's 2.8, whatever the rows in flight,
// and four rows a program an exchange was slower still). At step j the
// programs of half g (pid / (programs / 2)) hold row 2j + g, one block of
// it each (as softmax_grid's programs hold one row), and the grid meets
// once: tile.grid_reduce logsumexp of two pairs, each half contributing
// its row's pair and (-inf, 0), which weighs nothing, for the other's.
// Programs past the two halves (an odd grid) and a half past the last row
// contribute (-inf, 0) to both and store nothing. Each program keeps one
// row's block on chip between reading and writing it, as softmax_grid's
// do. Same arguments as softmax_grid.mlir; any grid computes the same (on
// one program, one row a step).
//
// tile.param BLOCK_SIZE = 8192 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param DTYPE = f32 in f32, f16, bf16
// tile.param MIN_BLOCKS_PER_SM = 2 in 1, 2, 3, 4

tile.func @softmax_grid_groups2(
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
  %c2 = arith.constant 2 : i32
  %block = arith.constant ${BLOCK_SIZE} : i32
  // The halves: programs / 2 programs each (one group of all of them on a
  // grid of one program); this program's half and its place in it
  // (programs past both halves hold nothing).
  %two_or_more = arith.cmpi sge, %programs, %c2 : i32
  %n_groups = arith.select %two_or_more, %c2, %c1 : i32
  %half = arith.divsi %programs, %n_groups : i32
  %group = arith.divsi %pid, %half : i32
  %group_base = arith.muli %group, %half : i32
  %q = arith.subi %pid, %group_base : i32
  %first_group = arith.cmpi eq, %group, %c0 : i32
  %in_halves = arith.cmpi slt, %group, %n_groups : i32
  // The row's blocks of BLOCK_SIZE columns; this program's first is `q`.
  %cols_up = arith.addi %n_cols, %block : i32
  %cols_up1 = arith.subi %cols_up, %c1 : i32
  %n_blocks = arith.divsi %cols_up1, %block : i32
  %second = arith.addi %q, %half : i32
  %range = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %range_row = tile.expand_dims %range axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %first_col = arith.muli %q, %block : i32
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
  // Steps of two rows (one on a grid of one program): row 2 step + group.
  %rows_up = arith.addi %n_rows, %n_groups : i32
  %rows_up1 = arith.subi %rows_up, %c1 : i32
  %n_steps = arith.divsi %rows_up1, %n_groups : i32

  scf.for %step = %c0 to %n_steps step %c1 : i32 {
    %step_row = arith.muli %step, %n_groups : i32
    %row_at = arith.addi %step_row, %group : i32
    %row_in = arith.cmpi slt, %row_at, %n_rows : i32
    %has_row = arith.andi %row_in, %in_halves : i1
    // A program without a row reads and writes nothing (row 0's address,
    // masked off).
    %row = arith.select %has_row, %row_at, %c0 : i32
    %has_row_tile = tile.splat %has_row : i1 -> tensor<1x${BLOCK_SIZE}xi1>
    %mask = arith.andi %in_cols, %has_row_tile : tensor<1x${BLOCK_SIZE}xi1>
    %blocks = arith.select %has_row, %n_blocks, %c0 : i32
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_offsets = tile.splat %in_offset : i32 -> tensor<1x${BLOCK_SIZE}xi32>
    %in_cols_at = arith.addi %in_offsets, %cols : tensor<1x${BLOCK_SIZE}xi32>
    %in_ptrs = tile.addptr %in_base, %in_cols_at
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
    %x_in = tile.load %in_ptrs, %mask, %zero_in
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %x_cast = tile.cast %x_in
        : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
    %x = arith.select %mask, %x_cast, %neg_inf
        : tensor<1x${BLOCK_SIZE}xi1>, tensor<1x${BLOCK_SIZE}xf32>

    // The block's maximum and sum of exponentials (-inf and 0 for a block
    // past the row's end or a program without a row).
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

    // Further blocks, where the half holds less than the row: folded in
    // online.
    %m, %s = scf.for %b = %second to %blocks step %half
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

    // Both rows' maxima and sums over the grid, in one exchange: this
    // program's pair in its half's place, (-inf, 0) in the other's.
    %m_a = arith.select %first_group, %m, %minus_inf : f32
    %s_a = arith.select %first_group, %s, %zero : f32
    %m_b = arith.select %first_group, %minus_inf, %m : f32
    %s_b = arith.select %first_group, %zero, %s : f32
    %g:4 = tile.grid_reduce logsumexp %m_a, %s_a, %m_b, %s_b : f32, f32, f32, f32
    %row_max = arith.select %first_group, %g#0, %g#2 : f32
    %row_sum = arith.select %first_group, %g#1, %g#3 : f32
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
    tile.store %out_ptrs, %y_out, %mask
        : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    scf.for %b = %second to %blocks step %half : i32 {
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
