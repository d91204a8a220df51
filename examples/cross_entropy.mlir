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
// for a row holding -inf). Rows are walked in chunks of BLOCK_SIZE columns,
// with a running max m of the row (each chunk's max, one reduction over the
// block) and a sum of exponentials per lane relative to it, rescaled when
// the max grows (one exponential per chunk: with a max per lane, as
// online_softmax.mlir keeps, the rescale costs a second exponential per
// element, and bf16 rows ran at half the copy bandwidth), and a running
// sum of x for the mean; the lanes are summed after the row's last chunk,
// so V has no bound but i32 (rows of 2^20 classes take 2^20 / BLOCK_SIZE
// chunks). The target's logit is one scalar load, x[row, t].
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
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
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
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %n_chunks = arith.ceildivsi %n_cols, %block : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
  %zeros = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}xf32>
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
    %x_rows = tile.splat %x_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

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

    // Per lane: running max m, sum of exponentials s (rescaled as m grows,
    // see online_softmax.mlir), and sum of x (0 on lanes past the row).
    %m, %s, %xs = scf.for %i = %c0 to %n_chunks step %c1
        iter_args(%m_i = %neg_inf_1, %s_i = %zeros, %xs_i = %zeros)
        -> (f32, tensor<${BLOCK_SIZE}xf32>, tensor<${BLOCK_SIZE}xf32>) : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
      %ptrs = tile.addptr %x_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      %x_in = tile.load %ptrs, %mask, %neg_inf_in
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %xv = tile.cast %x_in
          : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
      // The chunk's max, one reduction over the block: the running sum
      // is rescaled by one exponential per chunk, not one per element.
      %chunk_max = tile.reduce max %xv axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
      %m_new = arith.maximumf %m_i, %chunk_max : f32
      // Where the max is still -inf, subtract 0 instead: every exponential
      // is then exp(-inf) = 0 rather than exp(NaN).
      %unset = arith.cmpf oeq, %m_new, %neg_inf_1 : f32
      %m_safe = arith.select %unset, %zero, %m_new : f32
      %old = arith.subf %m_i, %m_safe : f32
      %alpha = math.exp %old : f32
      %alpha_tile = tile.splat %alpha : f32 -> tensor<${BLOCK_SIZE}xf32>
      %scaled = arith.mulf %s_i, %alpha_tile : tensor<${BLOCK_SIZE}xf32>
      %m_tile = tile.splat %m_safe : f32 -> tensor<${BLOCK_SIZE}xf32>
      %shifted = arith.subf %xv, %m_tile : tensor<${BLOCK_SIZE}xf32>
      %p = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
      %s_new = arith.addf %scaled, %p : tensor<${BLOCK_SIZE}xf32>
      %x_or_0 = arith.select %mask, %xv, %zeros
          : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
      %xs_new = arith.addf %xs_i, %x_or_0 : tensor<${BLOCK_SIZE}xf32>
      scf.yield %m_new, %s_new, %xs_new
          : f32, tensor<${BLOCK_SIZE}xf32>, tensor<${BLOCK_SIZE}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}

    // lse = m + log(sum of the lanes' s), all relative to the row's max m.
    // A row of -inf (m = -inf), or with +inf or NaN (a NaN sum), gives
    // NaN, as torch's log_softmax does.
    %sum = tile.reduce sum %s axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %log_sum = math.log %sum : f32
    %lse_or_inf = arith.addf %m, %log_sum : f32
    %all_neg_inf = arith.cmpf oeq, %m, %neg_inf_1 : f32
    %row_lse = arith.select %all_neg_inf, %nan, %lse_or_inf : f32

    // loss = lse - (1 - s) * x_t - s * mean(x); NaN for a target out of
    // range, 0 for an ignored one.
    %x_sum = tile.reduce sum %xs axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
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
