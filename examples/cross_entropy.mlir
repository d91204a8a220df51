// Cross-entropy, forward, on logits x [M, V] (DTYPE) and integer class
// targets t [M] (i64), with label smoothing s, per row (reduction 'none'):
//
//   lse  = log(sum_j exp(x_j))                       (saved for the backward)
//   loss = (1 - s) * (lse - x_t) + s * (lse - mean_j x_j)
//        = lse - (1 - s) * x_t - s * mean_j x_j
//
// which is torch.nn.functional.cross_entropy(x, t, reduction='none',
// ignore_index=ignore_index, label_smoothing=s). The smoothing term is left
// out when s = 0 (torch does not compute it then, and s * mean would be NaN
// for a row holding -inf). Rows are walked in chunks of GROUPS x 8 columns:
// a GROUPS x 8 tile whose rows are 8 consecutive logits. Each group of 8
// keeps a running max m and a sum s of exponentials relative to it, rescaled
// when its max grows: one exponential per element and one per group of 8
// for the rescale. The group's max is a reduction along the tile's second
// axis, which a thread holds (one 16-byte vector of f16/bf16, two of f32),
// so a chunk needs no exchange between threads. (One max per chunk, a
// reduction over the whole block, took a barrier per chunk: bf16 rows of
// 50257 classes ran at 0.62 of the copy bandwidth, run 41; one max per
// element costs a second exponential per element.) A running sum of x per
// group gives the mean. The groups are merged once, after the row's last
// chunk, so V has no bound but i32 (rows of 2^20 classes take
// 2^20 / (8 GROUPS) chunks). The target's logit is one scalar load,
// x[row, t].
//
// Targets:
//   - t == ignore_index (an i64 argument, -100 in torch): loss 0 (lse is
//     still computed and stored).
//   - t outside [0, V) and not ignore_index: torch raises an error (a
//     device-side assert on the GPU); here the load of x[row, t] is masked
//     off, so nothing outside the row is ever read, and the row's loss is
//     NaN, which any reduction over the batch then shows.
//
// Bounds: offsets are i32, so n_rows * x_row_stride must stay below 2^31
// (64 x 2^20 = 2^26 logits, for instance, is far inside it).
//
// One row per step of a persistent loop over rows (program pid takes rows
// pid, pid + programs, ...). Each row is read once: lse and loss come out
// of the same pass. NUM_STAGES pipelines the chunk loop (see
// online_softmax.mlir). Logits are loaded as DTYPE and computed in f32;
// loss and lse are f32.
//
// Bytes it must move: x read (M x V x DTYPE), t read (M x 8), loss and lse
// written (M x 4 each).
//
// tile.param GROUPS = 512 in 32, 64, 128, 256, 512, 1024, 2048
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @cross_entropy(
    %loss: !tile.ptr<f32>,
    %lse: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %target: !tile.ptr<i64>,
    %x_row_stride: i32, %n_rows: i32, %n_cols: i32,
    %ignore_index: i64, %label_smoothing: f32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %groups = arith.constant ${GROUPS} : i32
  %chunk = arith.muli %groups, %c8 : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  // A chunk's columns: group g, lane l is column 8 g + l.
  %g = tile.range 0, ${GROUPS} : tensor<${GROUPS}xi32>
  %l = tile.range 0, 8 : tensor<8xi32>
  %c8_1d = tile.splat %c8 : i32 -> tensor<${GROUPS}xi32>
  %g8 = arith.muli %g, %c8_1d : tensor<${GROUPS}xi32>
  %g8_col = tile.expand_dims %g8 axis 1
      : tensor<${GROUPS}xi32> -> tensor<${GROUPS}x1xi32>
  %g8_2d = tile.broadcast %g8_col
      : tensor<${GROUPS}x1xi32> -> tensor<${GROUPS}x8xi32>
  %l_row = tile.expand_dims %l axis 0 : tensor<8xi32> -> tensor<1x8xi32>
  %l_2d = tile.broadcast %l_row : tensor<1x8xi32> -> tensor<${GROUPS}x8xi32>
  %cols = arith.addi %g8_2d, %l_2d : tensor<${GROUPS}x8xi32>
  %c8_tile = tile.splat %c8 : i32 -> tensor<${GROUPS}x8xi32>
  // The row's edges, one 16-lane tile: lanes 0-7 the first aligned group,
  // lanes 8-15 the columns past the last whole one.
  %e = tile.range 0, 16 : tensor<16xi32>
  %c8_e = tile.splat %c8 : i32 -> tensor<16xi32>
  %in_head = arith.cmpi slt, %e, %c8_e : tensor<16xi32>
  %e_minus_8 = arith.subi %e, %c8_e : tensor<16xi32>
  %neg_inf_e = arith.constant dense<0xFF800000> : tensor<16xf32>
  %neg_inf_e_in = tile.cast %neg_inf_e
      : tensor<16xf32> to tensor<16x${DTYPE}>
  %zeros_e = arith.constant dense<0.0> : tensor<16xf32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${GROUPS}x8xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${GROUPS}x8xf32> to tensor<${GROUPS}x8x${DTYPE}>
  %zeros = arith.constant dense<0.0> : tensor<${GROUPS}x8xf32>
  %neg_inf_g = arith.constant dense<0xFF800000> : tensor<${GROUPS}xf32>
  %zeros_g = arith.constant dense<0.0> : tensor<${GROUPS}xf32>
  %neg_inf_1 = arith.constant 0xFF800000 : f32

  // Scalars of every row: the class count as i64 (targets are i64) and as
  // f32, 1 - s, s / V, and whether the smoothing term is there at all.
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
    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    // The row from the multiple of 8 elements at or before its start (x is
    // 16-byte aligned), so that whole groups are 16-byte (f32: 32-byte)
    // aligned and load as vectors whatever the row stride: the row is
    // columns [head, head + n_cols) of it. Whole groups from the second to
    // the last inside the row go through the chunk loop; the first group
    // and the columns past the last whole one, the edges, through one
    // 16-lane tile.
    %x_groups = arith.divsi %x_offset, %c8 : i32
    %x_aligned = arith.muli %x_groups, %c8 : i32
    %head = arith.subi %x_offset, %x_aligned : i32
    %x_base = tile.addptr %x, %x_aligned : !tile.ptr<${DTYPE}>, i32
    %x_rows = tile.splat %x_base
        : !tile.ptr<${DTYPE}> -> tensor<${GROUPS}x8x!tile.ptr<${DTYPE}>>
    %span = arith.addi %n_cols, %head : i32
    %span_groups = arith.divsi %span, %c8 : i32
    %body_end = arith.muli %span_groups, %c8 : i32
    %body_end_tile = tile.splat %body_end : i32 -> tensor<${GROUPS}x8xi32>
    %n_chunks = arith.ceildivsi %body_end, %chunk : i32

    // The edges: lanes 0-7 columns [head, min(8, span)); lanes 8-15
    // columns [body_end, span), when body_end >= 8 (otherwise lanes 0-7
    // hold the whole row).
    %head_e = tile.splat %head : i32 -> tensor<16xi32>
    %span_e = tile.splat %span : i32 -> tensor<16xi32>
    %body_end_e = tile.splat %body_end : i32 -> tensor<16xi32>
    %tail_cols = arith.addi %body_end_e, %e_minus_8 : tensor<16xi32>
    %e_cols = arith.select %in_head, %e, %tail_cols
        : tensor<16xi1>, tensor<16xi32>
    %past_head = arith.cmpi sge, %e_cols, %head_e : tensor<16xi32>
    %before_end = arith.cmpi slt, %e_cols, %span_e : tensor<16xi32>
    %e_in_row = arith.andi %past_head, %before_end : tensor<16xi1>
    %has_tail = arith.cmpi sge, %body_end, %c8 : i32
    %has_tail_e = tile.splat %has_tail : i1 -> tensor<16xi1>
    %e_wanted = arith.ori %in_head, %has_tail_e : tensor<16xi1>
    %e_mask = arith.andi %e_in_row, %e_wanted : tensor<16xi1>
    %x_base_e = tile.splat %x_base
        : !tile.ptr<${DTYPE}> -> tensor<16x!tile.ptr<${DTYPE}>>
    %e_ptrs = tile.addptr %x_base_e, %e_cols
        : tensor<16x!tile.ptr<${DTYPE}>>, tensor<16xi32>
    %e_in = tile.load %e_ptrs, %e_mask, %neg_inf_e_in
        : tensor<16x!tile.ptr<${DTYPE}>>
    %xe = tile.cast %e_in : tensor<16x${DTYPE}> to tensor<16xf32>
    %m_e = tile.reduce max %xe axis 0 : tensor<16xf32> -> f32
    %e_unset = arith.cmpf oeq, %m_e, %neg_inf_1 : f32
    %m_e_safe = arith.select %e_unset, %zero, %m_e : f32
    %m_e_tile = tile.splat %m_e_safe : f32 -> tensor<16xf32>
    %e_shifted = arith.subf %xe, %m_e_tile : tensor<16xf32>
    %p_e = tile.exp %e_shifted : tensor<16xf32>
    %s_e = tile.reduce sum %p_e axis 0 : tensor<16xf32> -> f32
    %xe_or_0 = arith.select %e_mask, %xe, %zeros_e
        : tensor<16xi1>, tensor<16xf32>
    %xs_e = tile.reduce sum %xe_or_0 axis 0 : tensor<16xf32> -> f32

    // The target, and its logit where it is a class: an out-of-range
    // target reads nothing (its lane is masked off and its offset is 0).
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

    // Per group of 8: running max m, sum of exponentials s relative to it,
    // and sum of x (lanes past the row hold -inf for the max and 0 here).
    %m, %s, %xs = scf.for %i = %c0 to %n_chunks step %c1
        iter_args(%m_i = %neg_inf_g, %s_i = %zeros_g, %xs_i = %zeros_g)
        -> (tensor<${GROUPS}xf32>, tensor<${GROUPS}xf32>,
            tensor<${GROUPS}xf32>) : i32 {
      %start = arith.muli %i, %chunk : i32
      %start_tile = tile.splat %start : i32 -> tensor<${GROUPS}x8xi32>
      %idx = arith.addi %cols, %start_tile : tensor<${GROUPS}x8xi32>
      // Columns [8, body_end): both bounds multiples of 8, so a group is
      // all in or all out, and loads as one access.
      %after_first = arith.cmpi sge, %idx, %c8_tile : tensor<${GROUPS}x8xi32>
      %before_body_end = arith.cmpi slt, %idx, %body_end_tile
          : tensor<${GROUPS}x8xi32>
      %mask = arith.andi %after_first, %before_body_end
          : tensor<${GROUPS}x8xi1>
      %ptrs = tile.addptr %x_rows, %idx
          : tensor<${GROUPS}x8x!tile.ptr<${DTYPE}>>, tensor<${GROUPS}x8xi32>
      %x_in = tile.load %ptrs, %mask, %neg_inf_in
          : tensor<${GROUPS}x8x!tile.ptr<${DTYPE}>>
      %xv = tile.cast %x_in
          : tensor<${GROUPS}x8x${DTYPE}> to tensor<${GROUPS}x8xf32>
      // Each group's max, within a thread.
      %group_max = tile.reduce max %xv axis 1
          : tensor<${GROUPS}x8xf32> -> tensor<${GROUPS}xf32>
      %m_new = arith.maximumf %m_i, %group_max : tensor<${GROUPS}xf32>
      // Where the max is still -inf, subtract 0 instead: every exponential
      // is then exp(-inf) = 0 rather than exp(NaN).
      %unset = arith.cmpf oeq, %m_new, %neg_inf_g : tensor<${GROUPS}xf32>
      %m_safe = arith.select %unset, %zeros_g, %m_new
          : tensor<${GROUPS}xi1>, tensor<${GROUPS}xf32>
      %old = arith.subf %m_i, %m_safe : tensor<${GROUPS}xf32>
      %alpha = tile.exp %old : tensor<${GROUPS}xf32>
      %scaled = arith.mulf %s_i, %alpha : tensor<${GROUPS}xf32>
      %m_col = tile.expand_dims %m_safe axis 1
          : tensor<${GROUPS}xf32> -> tensor<${GROUPS}x1xf32>
      %m_2d = tile.broadcast %m_col
          : tensor<${GROUPS}x1xf32> -> tensor<${GROUPS}x8xf32>
      %shifted = arith.subf %xv, %m_2d : tensor<${GROUPS}x8xf32>
      %p = tile.exp %shifted : tensor<${GROUPS}x8xf32>
      %p_sum = tile.reduce sum %p axis 1
          : tensor<${GROUPS}x8xf32> -> tensor<${GROUPS}xf32>
      %s_new = arith.addf %scaled, %p_sum : tensor<${GROUPS}xf32>
      %x_or_0 = arith.select %mask, %xv, %zeros
          : tensor<${GROUPS}x8xi1>, tensor<${GROUPS}x8xf32>
      %x_part = tile.reduce sum %x_or_0 axis 1
          : tensor<${GROUPS}x8xf32> -> tensor<${GROUPS}xf32>
      %xs_new = arith.addf %xs_i, %x_part : tensor<${GROUPS}xf32>
      scf.yield %m_new, %s_new, %xs_new
          : tensor<${GROUPS}xf32>, tensor<${GROUPS}xf32>, tensor<${GROUPS}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}

    // The groups and the edges merged: the row's max M, and lse = M +
    // log(sum of each group's s rescaled to M, and the edges'). A row of
    // -inf (M = -inf), or with +inf or NaN (a NaN sum), gives NaN, as
    // torch's log_softmax does.
    %groups_max = tile.reduce max %m axis 0 : tensor<${GROUPS}xf32> -> f32
    %row_max = arith.maximumf %groups_max, %m_e : f32
    %all_neg_inf = arith.cmpf oeq, %row_max, %neg_inf_1 : f32
    %max_safe = arith.select %all_neg_inf, %zero, %row_max : f32
    %max_g = tile.splat %max_safe : f32 -> tensor<${GROUPS}xf32>
    %to_row = arith.subf %m, %max_g : tensor<${GROUPS}xf32>
    %rescale = tile.exp %to_row : tensor<${GROUPS}xf32>
    %s_row = arith.mulf %s, %rescale : tensor<${GROUPS}xf32>
    %groups_sum = tile.reduce sum %s_row axis 0 : tensor<${GROUPS}xf32> -> f32
    %e_to_row = arith.subf %m_e, %max_safe : f32
    %e_rescale = math.exp %e_to_row : f32
    %e_sum = arith.mulf %s_e, %e_rescale : f32
    %sum = arith.addf %groups_sum, %e_sum : f32
    %log_sum = math.log %sum : f32
    %lse_or_inf = arith.addf %row_max, %log_sum : f32
    %row_lse = arith.select %all_neg_inf, %nan, %lse_or_inf : f32

    // loss = lse - (1 - s) * x_t - s * mean(x); NaN for a target out of
    // range, 0 for an ignored one.
    %groups_x_sum = tile.reduce sum %xs axis 0 : tensor<${GROUPS}xf32> -> f32
    %x_sum = arith.addf %groups_x_sum, %xs_e : f32
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
