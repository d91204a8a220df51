// examples/online_softmax.mlir over f16 buffers: each tile is loaded as
// f16 and widened to f32 for the arithmetic, and the result is rounded to
// f16 once on the way out. The tests make the bf16 version with
// `sed s/f16/bf16/g`; masked-off lanes become -inf through a select, so the
// file has no f16 constant.
//
// tile.param BLOCK_SIZE = 4096

tile.func @online_softmax(
    %output: !tile.ptr<f16> {tile.divisibility = 16 : i64},
    %input: !tile.ptr<f16> {tile.divisibility = 16 : i64},
    %input_row_stride: i32, %output_row_stride: i32,
    %n_rows: i32, %n_cols: i32) {
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
  %zeros = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}xf32>

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_row = tile.addptr %input, %in_offset : !tile.ptr<f16>, i32
    %in_rows = tile.splat %in_row
        : !tile.ptr<f16> -> tensor<${BLOCK_SIZE}x!tile.ptr<f16>>
    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_row = tile.addptr %output, %out_offset : !tile.ptr<f16>, i32
    %out_rows = tile.splat %out_row
        : !tile.ptr<f16> -> tensor<${BLOCK_SIZE}x!tile.ptr<f16>>

    // Pass 1: running max and sum of exponentials, per lane.
    %m, %s = scf.for %i = %c0 to %n_blocks step %c1
        iter_args(%m_i = %neg_inf, %s_i = %zeros)
        -> (tensor<${BLOCK_SIZE}xf32>, tensor<${BLOCK_SIZE}xf32>) : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
      %ptrs = tile.addptr %in_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>, tensor<${BLOCK_SIZE}xi32>
      %x16 = tile.load %ptrs, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>
      %x32 = arith.extf %x16
          : tensor<${BLOCK_SIZE}xf16> to tensor<${BLOCK_SIZE}xf32>
      %x = arith.select %mask, %x32, %neg_inf
          : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
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
    }

    // Merge the lanes: M = max(m), S = sum(s * exp(m - M)).
    %max = tile.reduce max %m axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %max_tile = tile.splat %max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %diff = arith.subf %m, %max_tile : tensor<${BLOCK_SIZE}xf32>
    %rescale = tile.exp %diff : tensor<${BLOCK_SIZE}xf32>
    %lane_sums = arith.mulf %s, %rescale : tensor<${BLOCK_SIZE}xf32>
    %sum = tile.reduce sum %lane_sums axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %sum_tile = tile.splat %sum : f32 -> tensor<${BLOCK_SIZE}xf32>

    // Pass 2: write exp(x - M) / S, last tile first.
    scf.for %j = %c0 to %n_blocks step %c1 : i32 {
      %i = arith.subi %last_block, %j : i32
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
      %ptrs = tile.addptr %in_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>, tensor<${BLOCK_SIZE}xi32>
      %x16 = tile.load %ptrs, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>
      %x32 = arith.extf %x16
          : tensor<${BLOCK_SIZE}xf16> to tensor<${BLOCK_SIZE}xf32>
      %x = arith.select %mask, %x32, %neg_inf
          : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
      %shifted = arith.subf %x, %max_tile : tensor<${BLOCK_SIZE}xf32>
      %num = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
      %y = arith.divf %num, %sum_tile : tensor<${BLOCK_SIZE}xf32>
      %out_ptrs = tile.addptr %out_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>, tensor<${BLOCK_SIZE}xi32>
      %y16 = arith.truncf %y
          : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}xf16>
      tile.store %out_ptrs, %y16, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>
    }
  }
  tile.return
}
