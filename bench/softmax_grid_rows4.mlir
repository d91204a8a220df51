// An experiment beside examples/softmax_grid.mlir (bench/long_rows_bench.py
// --rows4): the same split of each row over the whole grid, but four rows
// a step, so that the grid meets once every four rows (one
// tile.grid_reduce logsumexp of four pairs) instead of once a row. The
// four rows' maxima and sums are 4-element tiles; tile.grid_reduce takes
// scalars, so each row's pair is picked out of them by a masked reduction
// and the merged pairs are put back by selects. Same arguments as
// softmax_grid.mlir.
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param NUM_STAGES = 1 in 1, 2, 3, 4
// tile.param DTYPE = f32 in f32, f16, bf16
// tile.param MIN_BLOCKS_PER_SM = 1 in 1, 2, 3, 4

tile.func @softmax_grid_rows4(
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
  %c4 = arith.constant 4 : i32
  %block = arith.constant ${BLOCK_SIZE} : i32
  %cols_up = arith.addi %n_cols, %block : i32
  %cols_up1 = arith.subi %cols_up, %c1 : i32
  %n_blocks = arith.divsi %cols_up1, %block : i32
  %second = arith.addi %pid, %programs : i32
  %n_steps = arith.ceildivsi %n_rows, %c4 : i32

  %range = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %range_row = tile.expand_dims %range axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %range_2d = tile.broadcast %range_row
      : tensor<1x${BLOCK_SIZE}xi32> -> tensor<4x${BLOCK_SIZE}xi32>
  %first_col = arith.muli %pid, %block : i32
  %first_cols = tile.splat %first_col : i32 -> tensor<4x${BLOCK_SIZE}xi32>
  %cols = arith.addi %range_2d, %first_cols : tensor<4x${BLOCK_SIZE}xi32>
  %n_cols_2d = tile.splat %n_cols : i32 -> tensor<4x${BLOCK_SIZE}xi32>
  %in_cols = arith.cmpi slt, %cols, %n_cols_2d : tensor<4x${BLOCK_SIZE}xi32>
  %rows4 = tile.range 0, 4 : tensor<4xi32>
  %n_rows_1d = tile.splat %n_rows : i32 -> tensor<4xi32>
  %in_stride = tile.splat %input_row_stride : i32 -> tensor<4x${BLOCK_SIZE}xi32>
  %out_stride = tile.splat %output_row_stride : i32 -> tensor<4x${BLOCK_SIZE}xi32>
  %zero_in = arith.constant dense<0.0> : tensor<4x${BLOCK_SIZE}x${DTYPE}>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<4x${BLOCK_SIZE}xf32>
  %neg_inf4 = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero4 = arith.constant dense<0.0> : tensor<4xf32>
  %one4 = arith.constant dense<1.0> : tensor<4xf32>
  %in_base = tile.splat %input
      : !tile.ptr<${DTYPE}> -> tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %out_base = tile.splat %output
      : !tile.ptr<${DTYPE}> -> tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %r0 = arith.constant dense<0> : tensor<4xi32>
  %r1 = arith.constant dense<1> : tensor<4xi32>
  %r2 = arith.constant dense<2> : tensor<4xi32>
  %r3 = arith.constant dense<3> : tensor<4xi32>
  %is0 = arith.cmpi eq, %rows4, %r0 : tensor<4xi32>
  %is1 = arith.cmpi eq, %rows4, %r1 : tensor<4xi32>
  %is2 = arith.cmpi eq, %rows4, %r2 : tensor<4xi32>
  %is3 = arith.cmpi eq, %rows4, %r3 : tensor<4xi32>

  scf.for %step = %c0 to %n_steps step %c1 : i32 {
    %first = arith.muli %step, %c4 : i32
    %first_1d = tile.splat %first : i32 -> tensor<4xi32>
    %row_ids = arith.addi %rows4, %first_1d : tensor<4xi32>
    %row_ok = arith.cmpi slt, %row_ids, %n_rows_1d : tensor<4xi32>
    %row_col = tile.expand_dims %row_ids axis 1 : tensor<4xi32> -> tensor<4x1xi32>
    %row_2d = tile.broadcast %row_col : tensor<4x1xi32> -> tensor<4x${BLOCK_SIZE}xi32>
    %ok_col = tile.expand_dims %row_ok axis 1 : tensor<4xi1> -> tensor<4x1xi1>
    %ok_2d = tile.broadcast %ok_col : tensor<4x1xi1> -> tensor<4x${BLOCK_SIZE}xi1>
    %mask = arith.andi %ok_2d, %in_cols : tensor<4x${BLOCK_SIZE}xi1>
    %in_rows = arith.muli %row_2d, %in_stride : tensor<4x${BLOCK_SIZE}xi32>
    %in_at = arith.addi %in_rows, %cols : tensor<4x${BLOCK_SIZE}xi32>
    %in_ptrs = tile.addptr %in_base, %in_at
        : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<4x${BLOCK_SIZE}xi32>
    %x_in = tile.load %in_ptrs, %mask, %zero_in
        : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %x_cast = tile.cast %x_in
        : tensor<4x${BLOCK_SIZE}x${DTYPE}> to tensor<4x${BLOCK_SIZE}xf32>
    %x = arith.select %mask, %x_cast, %neg_inf
        : tensor<4x${BLOCK_SIZE}xi1>, tensor<4x${BLOCK_SIZE}xf32>

    // Each row's block: its maximum and sum of exponentials.
    %m0 = tile.reduce max %x axis 1 : tensor<4x${BLOCK_SIZE}xf32> -> tensor<4xf32>
    %m0_none = arith.cmpf oeq, %m0, %neg_inf4 : tensor<4xf32>
    %m0_safe = arith.select %m0_none, %zero4, %m0 : tensor<4xi1>, tensor<4xf32>
    %m0_col = tile.expand_dims %m0_safe axis 1 : tensor<4xf32> -> tensor<4x1xf32>
    %m0_2d = tile.broadcast %m0_col : tensor<4x1xf32> -> tensor<4x${BLOCK_SIZE}xf32>
    %d0 = arith.subf %x, %m0_2d : tensor<4x${BLOCK_SIZE}xf32>
    %e0 = tile.exp %d0 : tensor<4x${BLOCK_SIZE}xf32>
    %s0 = tile.reduce sum %e0 axis 1 : tensor<4x${BLOCK_SIZE}xf32> -> tensor<4xf32>

    // Further blocks, online.
    %m, %s = scf.for %b = %second to %n_blocks step %programs
        iter_args(%m_run = %m0, %s_run = %s0) -> (tensor<4xf32>, tensor<4xf32>) : i32 {
      %b_col = arith.muli %b, %block : i32
      %b_cols0 = tile.splat %b_col : i32 -> tensor<4x${BLOCK_SIZE}xi32>
      %b_cols = arith.addi %range_2d, %b_cols0 : tensor<4x${BLOCK_SIZE}xi32>
      %b_in_cols = arith.cmpi slt, %b_cols, %n_cols_2d : tensor<4x${BLOCK_SIZE}xi32>
      %b_mask = arith.andi %ok_2d, %b_in_cols : tensor<4x${BLOCK_SIZE}xi1>
      %b_at = arith.addi %in_rows, %b_cols : tensor<4x${BLOCK_SIZE}xi32>
      %b_ptrs = tile.addptr %in_base, %b_at
          : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<4x${BLOCK_SIZE}xi32>
      %b_in = tile.load %b_ptrs, %b_mask, %zero_in
          : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %b_cast = tile.cast %b_in
          : tensor<4x${BLOCK_SIZE}x${DTYPE}> to tensor<4x${BLOCK_SIZE}xf32>
      %bx = arith.select %b_mask, %b_cast, %neg_inf
          : tensor<4x${BLOCK_SIZE}xi1>, tensor<4x${BLOCK_SIZE}xf32>
      %bm = tile.reduce max %bx axis 1 : tensor<4x${BLOCK_SIZE}xf32> -> tensor<4xf32>
      %m_new = arith.maximumf %m_run, %bm : tensor<4xf32>
      %m_none = arith.cmpf oeq, %m_new, %neg_inf4 : tensor<4xf32>
      %m_safe = arith.select %m_none, %zero4, %m_new : tensor<4xi1>, tensor<4xf32>
      %old_shift = arith.subf %m_run, %m_safe : tensor<4xf32>
      %old_scale = tile.exp %old_shift : tensor<4xf32>
      %s_old = arith.mulf %s_run, %old_scale : tensor<4xf32>
      %m_col = tile.expand_dims %m_safe axis 1 : tensor<4xf32> -> tensor<4x1xf32>
      %m_2d = tile.broadcast %m_col : tensor<4x1xf32> -> tensor<4x${BLOCK_SIZE}xf32>
      %bd = arith.subf %bx, %m_2d : tensor<4x${BLOCK_SIZE}xf32>
      %be = tile.exp %bd : tensor<4x${BLOCK_SIZE}xf32>
      %bs = tile.reduce sum %be axis 1 : tensor<4x${BLOCK_SIZE}xf32> -> tensor<4xf32>
      %s_new = arith.addf %s_old, %bs : tensor<4xf32>
      scf.yield %m_new, %s_new : tensor<4xf32>, tensor<4xf32>
    }

    // The four rows' pairs, picked out, merged over the grid in one
    // exchange, and put back.
    %pm0 = arith.select %is0, %m, %neg_inf4 : tensor<4xi1>, tensor<4xf32>
    %pm1 = arith.select %is1, %m, %neg_inf4 : tensor<4xi1>, tensor<4xf32>
    %pm2 = arith.select %is2, %m, %neg_inf4 : tensor<4xi1>, tensor<4xf32>
    %pm3 = arith.select %is3, %m, %neg_inf4 : tensor<4xi1>, tensor<4xf32>
    %ps0 = arith.select %is0, %s, %zero4 : tensor<4xi1>, tensor<4xf32>
    %ps1 = arith.select %is1, %s, %zero4 : tensor<4xi1>, tensor<4xf32>
    %ps2 = arith.select %is2, %s, %zero4 : tensor<4xi1>, tensor<4xf32>
    %ps3 = arith.select %is3, %s, %zero4 : tensor<4xi1>, tensor<4xf32>
    %am0 = tile.reduce max %pm0 axis 0 : tensor<4xf32> -> f32
    %am1 = tile.reduce max %pm1 axis 0 : tensor<4xf32> -> f32
    %am2 = tile.reduce max %pm2 axis 0 : tensor<4xf32> -> f32
    %am3 = tile.reduce max %pm3 axis 0 : tensor<4xf32> -> f32
    %as0 = tile.reduce sum %ps0 axis 0 : tensor<4xf32> -> f32
    %as1 = tile.reduce sum %ps1 axis 0 : tensor<4xf32> -> f32
    %as2 = tile.reduce sum %ps2 axis 0 : tensor<4xf32> -> f32
    %as3 = tile.reduce sum %ps3 axis 0 : tensor<4xf32> -> f32
    %g:8 = tile.grid_reduce logsumexp %am0, %as0, %am1, %as1, %am2, %as2, %am3, %as3
        : f32, f32, f32, f32, f32, f32, f32, f32
    %gm0 = tile.splat %g#0 : f32 -> tensor<4xf32>
    %gm1 = tile.splat %g#2 : f32 -> tensor<4xf32>
    %gm2 = tile.splat %g#4 : f32 -> tensor<4xf32>
    %gm3 = tile.splat %g#6 : f32 -> tensor<4xf32>
    %gs0 = tile.splat %g#1 : f32 -> tensor<4xf32>
    %gs1 = tile.splat %g#3 : f32 -> tensor<4xf32>
    %gs2 = tile.splat %g#5 : f32 -> tensor<4xf32>
    %gs3 = tile.splat %g#7 : f32 -> tensor<4xf32>
    %rm23 = arith.select %is2, %gm2, %gm3 : tensor<4xi1>, tensor<4xf32>
    %rm123 = arith.select %is1, %gm1, %rm23 : tensor<4xi1>, tensor<4xf32>
    %row_max = arith.select %is0, %gm0, %rm123 : tensor<4xi1>, tensor<4xf32>
    %rs23 = arith.select %is2, %gs2, %gs3 : tensor<4xi1>, tensor<4xf32>
    %rs123 = arith.select %is1, %gs1, %rs23 : tensor<4xi1>, tensor<4xf32>
    %row_sum = arith.select %is0, %gs0, %rs123 : tensor<4xi1>, tensor<4xf32>
    %inv = arith.divf %one4, %row_sum : tensor<4xf32>
    %max_col = tile.expand_dims %row_max axis 1 : tensor<4xf32> -> tensor<4x1xf32>
    %max_2d = tile.broadcast %max_col : tensor<4x1xf32> -> tensor<4x${BLOCK_SIZE}xf32>
    %inv_col = tile.expand_dims %inv axis 1 : tensor<4xf32> -> tensor<4x1xf32>
    %inv_2d = tile.broadcast %inv_col : tensor<4x1xf32> -> tensor<4x${BLOCK_SIZE}xf32>

    %out_rows = arith.muli %row_2d, %out_stride : tensor<4x${BLOCK_SIZE}xi32>
    %d = arith.subf %x, %max_2d : tensor<4x${BLOCK_SIZE}xf32>
    %e = tile.exp %d : tensor<4x${BLOCK_SIZE}xf32>
    %y = arith.mulf %e, %inv_2d : tensor<4x${BLOCK_SIZE}xf32>
    %y_out = tile.cast %y
        : tensor<4x${BLOCK_SIZE}xf32> to tensor<4x${BLOCK_SIZE}x${DTYPE}>
    %out_at = arith.addi %out_rows, %cols : tensor<4x${BLOCK_SIZE}xi32>
    %out_ptrs = tile.addptr %out_base, %out_at
        : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<4x${BLOCK_SIZE}xi32>
    tile.store %out_ptrs, %y_out, %mask : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    scf.for %b = %second to %n_blocks step %programs : i32 {
      %b_col = arith.muli %b, %block : i32
      %b_cols0 = tile.splat %b_col : i32 -> tensor<4x${BLOCK_SIZE}xi32>
      %b_cols = arith.addi %range_2d, %b_cols0 : tensor<4x${BLOCK_SIZE}xi32>
      %b_in_cols = arith.cmpi slt, %b_cols, %n_cols_2d : tensor<4x${BLOCK_SIZE}xi32>
      %b_mask = arith.andi %ok_2d, %b_in_cols : tensor<4x${BLOCK_SIZE}xi1>
      %b_at = arith.addi %in_rows, %b_cols : tensor<4x${BLOCK_SIZE}xi32>
      %b_ptrs = tile.addptr %in_base, %b_at
          : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<4x${BLOCK_SIZE}xi32>
      %b_in = tile.load %b_ptrs, %b_mask, %zero_in
          : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %bx = tile.cast %b_in
          : tensor<4x${BLOCK_SIZE}x${DTYPE}> to tensor<4x${BLOCK_SIZE}xf32>
      %bd = arith.subf %bx, %max_2d : tensor<4x${BLOCK_SIZE}xf32>
      %be = tile.exp %bd : tensor<4x${BLOCK_SIZE}xf32>
      %by = arith.mulf %be, %inv_2d : tensor<4x${BLOCK_SIZE}xf32>
      %by_out = tile.cast %by
          : tensor<4x${BLOCK_SIZE}xf32> to tensor<4x${BLOCK_SIZE}x${DTYPE}>
      %b_out_at = arith.addi %out_rows, %b_cols : tensor<4x${BLOCK_SIZE}xi32>
      %b_out = tile.addptr %out_base, %b_out_at
          : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<4x${BLOCK_SIZE}xi32>
      tile.store %b_out, %by_out, %b_mask : tensor<4x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    }
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
