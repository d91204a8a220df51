// Cross-entropy, forward, on rows short enough to hold whole in registers
// (n_cols <= BLOCK_SIZE): the same loss and lse as cross_entropy.mlir, with
// the same signature, targets, ignore_index, label smoothing and NaN rules
// (see there), for ROWS rows at a time in one ROWS x BLOCK_SIZE tile,
// stepping over blocks of rows on a persistent grid whose loop loads the
// next block while this one is reduced (NUM_STAGES). cross_entropy.mlir
// walks each row in chunks, one row per step, and waits on every chunk's
// reductions: at 4096 x 4096 bf16 it ran at 0.38 of the copy bandwidth
// (run 28d); tile.ops gives both as variants of one launch and the cost
// model chooses.
//
// Per row: m = max(x), lse = m + log(sum(exp(x - m))) (NaN where m is
// -inf: a row all -inf), and the target's logit is one gathered element
// per row, x[row, t[row]], masked off where t is out of range.
//
// Bytes it must move: x read (M x V x DTYPE), t read (M x 8), loss and lse
// written (M x 4 each).
//
// tile.param ROWS = 1 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 1024 in 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_WARPS = 4 in 1, 2, 4, 8, 16
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @cross_entropy_rows(
    %loss: !tile.ptr<f32>,
    %lse: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %target: !tile.ptr<i64>,
    %x_row_stride: i32, %n_rows: i32,
    %n_cols: i32 {tile.max_value = ${BLOCK_SIZE} : i64},
    %ignore_index: i64, %label_smoothing: f32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c_rows = arith.constant ${ROWS} : i32
  %start = tile.program_id x : i32
  %step = tile.num_programs x : i32
  %n_blocks = arith.ceildivsi %n_rows, %c_rows : i32

  // Columns and their mask, the row offsets' pieces, once.
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %cols_row = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %cols_2d = tile.broadcast %cols_row
      : tensor<1x${BLOCK_SIZE}xi32> -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %n_cols_2d = tile.splat %n_cols : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %col_mask = arith.cmpi slt, %cols_2d, %n_cols_2d
      : tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %rows = tile.range 0, ${ROWS} : tensor<${ROWS}xi32>
  %n_rows_1d = tile.splat %n_rows : i32 -> tensor<${ROWS}xi32>
  %x_stride = tile.splat %x_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %x_stride_1d = tile.splat %x_row_stride : i32 -> tensor<${ROWS}xi32>
  %x_base = tile.splat %x
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %x_base_1d = tile.splat %x
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x!tile.ptr<${DTYPE}>>
  %t_base = tile.splat %target : !tile.ptr<i64> -> tensor<${ROWS}x!tile.ptr<i64>>
  %loss_base = tile.splat %loss : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %lse_base = tile.splat %lse : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %neg_inf_2d = arith.constant dense<0xFF800000> : tensor<${ROWS}x${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf_2d
      : tensor<${ROWS}x${BLOCK_SIZE}xf32> to tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>
  %zeros_2d = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_SIZE}xf32>

  // Scalars of every row, as tiles of ROWS: the class count (i64), 1 - s,
  // s / V, -inf, NaN, 0, and whether the smoothing term is there at all.
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n_f = arith.sitofp %n_cols : i32 to f32
  %inv_n = arith.divf %one, %n_f : f32
  %keep = arith.subf %one, %label_smoothing : f32
  %keep_1d = tile.splat %keep : f32 -> tensor<${ROWS}xf32>
  %smooth_per_col = arith.mulf %label_smoothing, %inv_n : f32
  %no_smoothing = arith.cmpf oeq, %label_smoothing, %zero : f32
  %smooth_1d = tile.splat %smooth_per_col : f32 -> tensor<${ROWS}xf32>
  %no_smoothing_1d = tile.splat %no_smoothing : i1 -> tensor<${ROWS}xi1>
  %zeros_1d = arith.constant dense<0.0> : tensor<${ROWS}xf32>
  %neg_inf_1d = arith.constant dense<0xFF800000> : tensor<${ROWS}xf32>
  %nan_1d = arith.constant dense<0x7FC00000> : tensor<${ROWS}xf32>
  %zero_in_1d = arith.constant dense<0.0> : tensor<${ROWS}x${DTYPE}>
  %c0_1d = arith.constant dense<0> : tensor<${ROWS}xi32>
  %c0_i64_1d = arith.constant dense<0> : tensor<${ROWS}xi64>
  %n_cols_i64 = arith.extsi %n_cols : i32 to i64
  %n_cols_i64_1d = tile.splat %n_cols_i64 : i64 -> tensor<${ROWS}xi64>
  %ignore_1d = tile.splat %ignore_index : i64 -> tensor<${ROWS}xi64>

  scf.for %block = %start to %n_blocks step %step : i32 {
    %first = arith.muli %block, %c_rows : i32
    %first_1d = tile.splat %first : i32 -> tensor<${ROWS}xi32>
    %row_ids = arith.addi %rows, %first_1d : tensor<${ROWS}xi32>
    %row_ok = arith.cmpi slt, %row_ids, %n_rows_1d : tensor<${ROWS}xi32>
    %row_col = tile.expand_dims %row_ids axis 1
        : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
    %row_2d = tile.broadcast %row_col
        : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %ok_col = tile.expand_dims %row_ok axis 1
        : tensor<${ROWS}xi1> -> tensor<${ROWS}x1xi1>
    %ok_2d = tile.broadcast %ok_col
        : tensor<${ROWS}x1xi1> -> tensor<${ROWS}x${BLOCK_SIZE}xi1>
    %mask = arith.andi %ok_2d, %col_mask : tensor<${ROWS}x${BLOCK_SIZE}xi1>

    // The rows, -inf past their end.
    %x_rows = arith.muli %row_2d, %x_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_offsets = arith.addi %x_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_ptrs = tile.addptr %x_base, %x_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_in = tile.load %x_ptrs, %mask, %neg_inf_in
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %xf = tile.cast %x_in
        : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}> to tensor<${ROWS}x${BLOCK_SIZE}xf32>

    // The targets, and their logits where they are classes: an
    // out-of-range target reads nothing (its lane is masked off).
    %t_ptrs = tile.addptr %t_base, %row_ids
        : tensor<${ROWS}x!tile.ptr<i64>>, tensor<${ROWS}xi32>
    %t = tile.load %t_ptrs, %row_ok, %c0_i64_1d : tensor<${ROWS}x!tile.ptr<i64>>
    %ignored = arith.cmpi eq, %t, %ignore_1d : tensor<${ROWS}xi64>
    %t_ge0 = arith.cmpi sge, %t, %c0_i64_1d : tensor<${ROWS}xi64>
    %t_ltv = arith.cmpi slt, %t, %n_cols_i64_1d : tensor<${ROWS}xi64>
    %t_in = arith.andi %t_ge0, %t_ltv : tensor<${ROWS}xi1>
    %t_ok = arith.andi %t_in, %row_ok : tensor<${ROWS}xi1>
    %t_i32 = arith.trunci %t : tensor<${ROWS}xi64> to tensor<${ROWS}xi32>
    %t_col = arith.select %t_ok, %t_i32, %c0_1d
        : tensor<${ROWS}xi1>, tensor<${ROWS}xi32>
    %xt_rows = arith.muli %row_ids, %x_stride_1d : tensor<${ROWS}xi32>
    %xt_offsets = arith.addi %xt_rows, %t_col : tensor<${ROWS}xi32>
    %xt_ptrs = tile.addptr %x_base_1d, %xt_offsets
        : tensor<${ROWS}x!tile.ptr<${DTYPE}>>, tensor<${ROWS}xi32>
    %xt_in = tile.load %xt_ptrs, %t_ok, %zero_in_1d
        : tensor<${ROWS}x!tile.ptr<${DTYPE}>>
    %xt = tile.cast %xt_in : tensor<${ROWS}x${DTYPE}> to tensor<${ROWS}xf32>

    // lse = m + log(sum(exp(x - m))), subtracting 0 where m is -inf.
    %m = tile.reduce max %xf axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    %unset = arith.cmpf oeq, %m, %neg_inf_1d : tensor<${ROWS}xf32>
    %m_safe = arith.select %unset, %zeros_1d, %m
        : tensor<${ROWS}xi1>, tensor<${ROWS}xf32>
    %m_col = tile.expand_dims %m_safe axis 1
        : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
    %m_2d = tile.broadcast %m_col
        : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %shifted = arith.subf %xf, %m_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %p = tile.exp %shifted : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %sum = tile.reduce sum %p axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    %log_sum = math.log %sum : tensor<${ROWS}xf32>
    %lse_or_inf = arith.addf %m, %log_sum : tensor<${ROWS}xf32>
    %row_lse = arith.select %unset, %nan_1d, %lse_or_inf
        : tensor<${ROWS}xi1>, tensor<${ROWS}xf32>

    // loss = lse - (1 - s) * x_t - s * mean(x); NaN for a target out of
    // range, 0 for an ignored one.
    %x_or_0 = arith.select %mask, %xf, %zeros_2d
        : tensor<${ROWS}x${BLOCK_SIZE}xi1>, tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %x_sum = tile.reduce sum %x_or_0 axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    // Left out when s = 0: s * mean would be NaN for a row holding -inf.
    %smooth_term = arith.mulf %x_sum, %smooth_1d : tensor<${ROWS}xf32>
    %smooth = arith.select %no_smoothing_1d, %zeros_1d, %smooth_term
        : tensor<${ROWS}xi1>, tensor<${ROWS}xf32>
    %kept = arith.mulf %keep_1d, %xt : tensor<${ROWS}xf32>
    %nll = arith.subf %row_lse, %kept : tensor<${ROWS}xf32>
    %row_loss = arith.subf %nll, %smooth : tensor<${ROWS}xf32>
    %checked = arith.select %t_in, %row_loss, %nan_1d
        : tensor<${ROWS}xi1>, tensor<${ROWS}xf32>
    %result = arith.select %ignored, %zeros_1d, %checked
        : tensor<${ROWS}xi1>, tensor<${ROWS}xf32>

    %loss_ptrs = tile.addptr %loss_base, %row_ids
        : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
    tile.store %loss_ptrs, %result, %row_ok : tensor<${ROWS}x!tile.ptr<f32>>
    %lse_ptrs = tile.addptr %lse_base, %row_ids
        : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
    tile.store %lse_ptrs, %row_lse, %row_ok : tensor<${ROWS}x!tile.ptr<f32>>
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
