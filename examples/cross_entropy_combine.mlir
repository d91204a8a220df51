// Cross-entropy, forward, second stage of the split path: merges the Q
// partials of each row that cross_entropy_partial.mlir wrote ([M, Q] f32
// buffers part_max, part_sum, part_xs) into the row's lse and loss, as
// cross_entropy.mlir computes them in one pass (the same targets,
// ignore_index, label smoothing and NaN rules: see there):
//
//   M   = max_q part_max[q],  lse = M + log(sum_q part_sum[q] exp(part_max[q] - M))
//   loss = lse - (1 - s) * x[row, t] - s * (sum_q part_xs[q]) / V
//
// The target's logit is one scalar load, masked off for a target out of
// range. A row all -inf gives M = -inf and lse NaN, as in cross_entropy.mlir.
//
// One row per step of a persistent loop over rows, its partials one tile
// of SPLITS lanes (SPLITS >= Q, the lanes past Q masked to -inf and 0).
//
// Bytes it must move: the partials read (M x Q x 12), t read (M x 8), x_t
// read (M x DTYPE), loss and lse written (M x 4 each).
//
// tile.param SPLITS = 64 in 2, 4, 8, 16, 32, 64, 128, 256
// tile.param NUM_WARPS = 1 in 1, 2, 4
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @cross_entropy_combine(
    %loss: !tile.ptr<f32>,
    %lse: !tile.ptr<f32>,
    %part_max: !tile.ptr<f32>,
    %part_sum: !tile.ptr<f32>,
    %part_xs: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}>,
    %target: !tile.ptr<i64>,
    %x_row_stride: i32, %n_rows: i32, %n_cols: i32,
    %n_splits: i32 {tile.max_value = ${SPLITS} : i64},
    %ignore_index: i64, %label_smoothing: f32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c0 = arith.constant 0 : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %lanes = tile.range 0, ${SPLITS} : tensor<${SPLITS}xi32>
  %n_splits_tile = tile.splat %n_splits : i32 -> tensor<${SPLITS}xi32>
  %valid = arith.cmpi slt, %lanes, %n_splits_tile : tensor<${SPLITS}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${SPLITS}xf32>
  %zeros = arith.constant dense<0.0> : tensor<${SPLITS}xf32>

  %c0_i64 = arith.constant 0 : i64
  %n_cols_i64 = arith.extsi %n_cols : i32 to i64
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %zero_in = arith.constant 0.0 : ${DTYPE}
  %n_f = arith.sitofp %n_cols : i32 to f32
  %inv_n = arith.divf %one, %n_f : f32
  %keep = arith.subf %one, %label_smoothing : f32
  %smooth_per_col = arith.mulf %label_smoothing, %inv_n : f32
  %no_smoothing = arith.cmpf oeq, %label_smoothing, %zero : f32

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    // The row's partials.
    %first = arith.muli %row, %n_splits : i32
    %first_tile = tile.splat %first : i32 -> tensor<${SPLITS}xi32>
    %slots = arith.addi %lanes, %first_tile : tensor<${SPLITS}xi32>
    %max_base = tile.splat %part_max
        : !tile.ptr<f32> -> tensor<${SPLITS}x!tile.ptr<f32>>
    %max_ptrs = tile.addptr %max_base, %slots
        : tensor<${SPLITS}x!tile.ptr<f32>>, tensor<${SPLITS}xi32>
    %m = tile.load %max_ptrs, %valid, %neg_inf : tensor<${SPLITS}x!tile.ptr<f32>>
    %sum_base = tile.splat %part_sum
        : !tile.ptr<f32> -> tensor<${SPLITS}x!tile.ptr<f32>>
    %sum_ptrs = tile.addptr %sum_base, %slots
        : tensor<${SPLITS}x!tile.ptr<f32>>, tensor<${SPLITS}xi32>
    %s = tile.load %sum_ptrs, %valid, %zeros : tensor<${SPLITS}x!tile.ptr<f32>>
    %xs_base = tile.splat %part_xs
        : !tile.ptr<f32> -> tensor<${SPLITS}x!tile.ptr<f32>>
    %xs_ptrs = tile.addptr %xs_base, %slots
        : tensor<${SPLITS}x!tile.ptr<f32>>, tensor<${SPLITS}xi32>
    %xs = tile.load %xs_ptrs, %valid, %zeros : tensor<${SPLITS}x!tile.ptr<f32>>

    // lse = M + log(sum s exp(m - M)). A part that saw only -inf has s = 0
    // and adds 0 (exp(-inf - M) = 0) unless M itself is -inf: then NaN.
    %max = tile.reduce max %m axis 0 : tensor<${SPLITS}xf32> -> f32
    %max_tile = tile.splat %max : f32 -> tensor<${SPLITS}xf32>
    %diff = arith.subf %m, %max_tile : tensor<${SPLITS}xf32>
    %rescale = tile.exp %diff : tensor<${SPLITS}xf32>
    %part_sums = arith.mulf %s, %rescale : tensor<${SPLITS}xf32>
    %sum = tile.reduce sum %part_sums axis 0 : tensor<${SPLITS}xf32> -> f32
    %log_sum = math.log %sum : f32
    %row_lse = arith.addf %max, %log_sum : f32

    // The target and its logit, as in cross_entropy.mlir.
    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    %t_ptr = tile.addptr %target, %row : !tile.ptr<i64>, i32
    %t = tile.load %t_ptr : !tile.ptr<i64>
    %ignored = arith.cmpi eq, %t, %ignore_index : i64
    %t_ge0 = arith.cmpi sge, %t, %c0_i64 : i64
    %t_ltv = arith.cmpi slt, %t, %n_cols_i64 : i64
    %t_ok = arith.andi %t_ge0, %t_ltv : i1
    %t_i32 = arith.trunci %t : i64 to i32
    %t_col = arith.select %t_ok, %t_i32, %c0 : i32
    %xt_ptr = tile.addptr %x_row, %t_col : !tile.ptr<${DTYPE}>, i32
    %xt_in = tile.load %xt_ptr, %t_ok, %zero_in : !tile.ptr<${DTYPE}>
    %xt = tile.cast %xt_in : ${DTYPE} to f32

    %x_sum = tile.reduce sum %xs axis 0 : tensor<${SPLITS}xf32> -> f32
    %smooth_term = arith.mulf %x_sum, %smooth_per_col : f32
    %smooth = arith.select %no_smoothing, %zero, %smooth_term : f32
    %kept = arith.mulf %keep, %xt : f32
    %nll = arith.subf %row_lse, %kept : f32
    %row_loss = arith.subf %nll, %smooth : f32
    %checked = arith.select %t_ok, %row_loss, %nan : f32
    %result = arith.select %ignored, %zero, %checked : f32

    %loss_ptr = tile.addptr %loss, %row : !tile.ptr<f32>, i32
    tile.store %loss_ptr, %result : !tile.ptr<f32>
    %lse_ptr = tile.addptr %lse, %row : !tile.ptr<f32>, i32
    tile.store %lse_ptr, %row_lse : !tile.ptr<f32>
  }
  tile.return
}
