// Cross-entropy, backward: the gradient of cross_entropy.mlir's per-row
// loss, lse - (1 - s) * x_t - s * mean_j x_j, with respect to the logits,
// scaled by the row's incoming gradient dloss[row] (f32 [M]; for a mean
// over the batch the caller folds 1 / count into it):
//
//   dx_j = (softmax(x)_j - (1 - s) * [j == t] - s / V) * dloss[row],
//   softmax(x)_j = exp(x_j - lse)
//
// with the lse that the forward pass saved (f32 [M]), so each row is read
// once and written once, in chunks of BLOCK_SIZE columns (V is bounded by
// i32 only, as in the forward kernel).
//
// Targets, as in the forward kernel:
//   - t == ignore_index: dx = 0 for the whole row, and x is not read.
//   - t outside [0, V) and not ignore_index: dx = NaN for the whole row;
//     the target is only compared with column indices, so nothing outside
//     the row is ever read or written.
//
// Rows that start off a multiple of 8 elements (an odd stride, such as a
// vocabulary of 50257) would load and store one element at a time. Where
// x's row and dx's row start equally far from a multiple of 8 (equal row
// strides, as tile.ops gives them), both are walked from that multiple
// instead: whole groups of 8 between the row's first and its last partial
// one go through the chunk loop as 16-byte accesses, the edges (the first
// group and the columns past the last whole one) through one 16-lane tile
// in program 0 along y. Otherwise the row is walked from its start.
//
// Bounds: offsets are i32, so n_rows * x_row_stride and n_rows *
// dx_row_stride must stay below 2^31.
//
// One row per step of a persistent loop over rows, on a grid (P, Q): the
// Q programs along y take every Q-th chunk of the row each (Q = 1 on a
// persistent grid; tile.ops asks for Q > 1 when the rows are fewer than
// the SMs and long). Logits loaded as DTYPE, computed in f32, dx stored as
// DTYPE. NUM_STAGES pipelines the chunk loop.
//
// Bytes it must move: x read and dx written (M x V x DTYPE each), t, dloss
// and lse read (M x 8, M x 4, M x 4).
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @cross_entropy_backward(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dloss: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %target: !tile.ptr<i64>,
    %lse: !tile.ptr<f32>,
    %x_row_stride: i32, %dx_row_stride: i32, %n_rows: i32, %n_cols: i32,
    %ignore_index: i64, %label_smoothing: f32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c0 = arith.constant 0 : i32
  %c_minus1 = arith.constant -1 : i32
  %c8 = arith.constant 8 : i32
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  // A grid of more than one program along y splits each row's chunks:
  // program (p, q) of a grid (P, Q) takes chunks q, q + Q, ... of rows p,
  // p + P, ... (rows fewer than the GPU's SMs still fill it).
  %split = tile.program_id y : i32
  %n_splits = tile.num_programs y : i32
  %n_chunks = arith.ceildivsi %n_cols, %block : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
  %zeros = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}xf32>
  %c8_tile = tile.splat %c8 : i32 -> tensor<${BLOCK_SIZE}xi32>
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

  // Scalars of every row: the class count as i64 (targets are i64) and as
  // f32, 1 - s and s / V.
  %c0_i64 = arith.constant 0 : i64
  %n_cols_i64 = arith.extsi %n_cols : i32 to i64
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %n_f = arith.sitofp %n_cols : i32 to f32
  %inv_n = arith.divf %one, %n_f : f32
  %keep = arith.subf %one, %label_smoothing : f32
  %keep_tile = tile.splat %keep : f32 -> tensor<${BLOCK_SIZE}xf32>
  %smooth_per_col = arith.mulf %label_smoothing, %inv_n : f32
  %smooth_tile = tile.splat %smooth_per_col : f32 -> tensor<${BLOCK_SIZE}xf32>
  %keep_e = tile.splat %keep : f32 -> tensor<16xf32>
  %smooth_e = tile.splat %smooth_per_col : f32 -> tensor<16xf32>
  %first_split = arith.cmpi eq, %split, %c0 : i32

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    %x_rows = tile.splat %x_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dx_offset = arith.muli %row, %dx_row_stride : i32
    %dx_row = tile.addptr %dx, %dx_offset : !tile.ptr<${DTYPE}>, i32
    %dx_rows = tile.splat %dx_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    // The target: its column where it is a class, else -1 (no column).
    %t_ptr = tile.addptr %target, %row : !tile.ptr<i64>, i32
    %t = tile.load %t_ptr : !tile.ptr<i64>
    %ignored = arith.cmpi eq, %t, %ignore_index : i64
    %t_ge0 = arith.cmpi sge, %t, %c0_i64 : i64
    %t_ltv = arith.cmpi slt, %t, %n_cols_i64 : i64
    %t_ok = arith.andi %t_ge0, %t_ltv : i1
    %t_i32 = arith.trunci %t : i64 to i32
    %t_col = arith.select %t_ok, %t_i32, %c_minus1 : i32
    %t_tile = tile.splat %t_col : i32 -> tensor<${BLOCK_SIZE}xi32>

    // The row's lse and its scale: dloss, NaN for a target out of range
    // (an ignored row is zeroed below, whatever its scale).
    %lse_ptr = tile.addptr %lse, %row : !tile.ptr<f32>, i32
    %row_lse = tile.load %lse_ptr : !tile.ptr<f32>
    %lse_tile = tile.splat %row_lse : f32 -> tensor<${BLOCK_SIZE}xf32>
    %dloss_ptr = tile.addptr %dloss, %row : !tile.ptr<f32>, i32
    %row_dloss = tile.load %dloss_ptr : !tile.ptr<f32>
    %scale = arith.select %t_ok, %row_dloss, %nan : f32
    %scale_tile = tile.splat %scale : f32 -> tensor<${BLOCK_SIZE}xf32>
    %ignored_tile = tile.splat %ignored : i1 -> tensor<${BLOCK_SIZE}xi1>
    %not_ignored = arith.cmpi ne, %t, %ignore_index : i64
    %read_tile = tile.splat %not_ignored : i1 -> tensor<${BLOCK_SIZE}xi1>

    // How far x's row and dx's row start past a multiple of 8 elements.
    %x_groups = arith.divsi %x_offset, %c8 : i32
    %x_aligned = arith.muli %x_groups, %c8 : i32
    %head = arith.subi %x_offset, %x_aligned : i32
    %dx_groups = arith.divsi %dx_offset, %c8 : i32
    %dx_aligned = arith.muli %dx_groups, %c8 : i32
    %dx_head = arith.subi %dx_offset, %dx_aligned : i32
    %same_head = arith.cmpi eq, %head, %dx_head : i32
    scf.if %same_head {
      // Both rows from their multiple of 8: the row is columns
      // [head, head + n_cols) of them, and column c is index c + head.
      %x_base = tile.addptr %x, %x_aligned : !tile.ptr<${DTYPE}>, i32
      %x_bases = tile.splat %x_base
          : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %dx_base = tile.addptr %dx, %dx_aligned : !tile.ptr<${DTYPE}>, i32
      %dx_bases = tile.splat %dx_base
          : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %span = arith.addi %n_cols, %head : i32
      %span_groups = arith.divsi %span, %c8 : i32
      %body_end = arith.muli %span_groups, %c8 : i32
      %body_end_tile = tile.splat %body_end : i32 -> tensor<${BLOCK_SIZE}xi32>
      %n_body_chunks = arith.ceildivsi %body_end, %block : i32
      %t_index = arith.addi %t_col, %head : i32
      %t_index_tile = tile.splat %t_index : i32 -> tensor<${BLOCK_SIZE}xi32>

      // Whole groups, [8, body_end): both bounds multiples of 8, so a
      // group is all in or all out and takes one access.
      scf.for %i = %split to %n_body_chunks step %n_splits : i32 {
        %start = arith.muli %i, %block : i32
        %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
        %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
        %after_first = arith.cmpi sge, %idx, %c8_tile : tensor<${BLOCK_SIZE}xi32>
        %before_end = arith.cmpi slt, %idx, %body_end_tile
            : tensor<${BLOCK_SIZE}xi32>
        %mask = arith.andi %after_first, %before_end : tensor<${BLOCK_SIZE}xi1>
        %load_mask = arith.andi %mask, %read_tile : tensor<${BLOCK_SIZE}xi1>
        %ptrs = tile.addptr %x_bases, %idx
            : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
        %x_in = tile.load %ptrs, %load_mask, %neg_inf_in
            : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
        %xv = tile.cast %x_in
            : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
        %shifted = arith.subf %xv, %lse_tile : tensor<${BLOCK_SIZE}xf32>
        %p = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
        %is_t = arith.cmpi eq, %idx, %t_index_tile : tensor<${BLOCK_SIZE}xi32>
        %hot = arith.select %is_t, %keep_tile, %zeros
            : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
        %p_smooth = arith.subf %p, %smooth_tile : tensor<${BLOCK_SIZE}xf32>
        %grad = arith.subf %p_smooth, %hot : tensor<${BLOCK_SIZE}xf32>
        %scaled = arith.mulf %grad, %scale_tile : tensor<${BLOCK_SIZE}xf32>
        %dxf = arith.select %ignored_tile, %zeros, %scaled
            : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
        %dx_out = tile.cast %dxf
            : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
        %dx_ptrs = tile.addptr %dx_bases, %idx
            : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
        tile.store %dx_ptrs, %dx_out, %mask
            : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      } {tile.num_stages = ${NUM_STAGES} : i32}

      // The edges, in program 0 along y: lanes 0-7 columns [head,
      // min(8, span)), lanes 8-15 [body_end, span). When body_end is 0
      // (a row inside one group) both halves take the same columns and
      // write the same values.
      %span_e = tile.splat %span : i32 -> tensor<16xi32>
      %head_e = tile.splat %head : i32 -> tensor<16xi32>
      %body_end_e = tile.splat %body_end : i32 -> tensor<16xi32>
      %tail_idx = arith.addi %body_end_e, %e_minus_8 : tensor<16xi32>
      %e_idx = arith.select %in_head, %e, %tail_idx
          : tensor<16xi1>, tensor<16xi32>
      %past_head = arith.cmpi sge, %e_idx, %head_e : tensor<16xi32>
      %before_span = arith.cmpi slt, %e_idx, %span_e : tensor<16xi32>
      %e_in_row = arith.andi %past_head, %before_span : tensor<16xi1>
      %first_e = tile.splat %first_split : i1 -> tensor<16xi1>
      %e_mask = arith.andi %e_in_row, %first_e : tensor<16xi1>
      %read_e = tile.splat %not_ignored : i1 -> tensor<16xi1>
      %e_load_mask = arith.andi %e_mask, %read_e : tensor<16xi1>
      %x_base_e = tile.splat %x_base
          : !tile.ptr<${DTYPE}> -> tensor<16x!tile.ptr<${DTYPE}>>
      %e_ptrs = tile.addptr %x_base_e, %e_idx
          : tensor<16x!tile.ptr<${DTYPE}>>, tensor<16xi32>
      %e_in = tile.load %e_ptrs, %e_load_mask, %neg_inf_e_in
          : tensor<16x!tile.ptr<${DTYPE}>>
      %xe = tile.cast %e_in : tensor<16x${DTYPE}> to tensor<16xf32>
      %lse_e = tile.splat %row_lse : f32 -> tensor<16xf32>
      %e_shifted = arith.subf %xe, %lse_e : tensor<16xf32>
      %p_e = tile.exp %e_shifted : tensor<16xf32>
      %t_index_e = tile.splat %t_index : i32 -> tensor<16xi32>
      %is_t_e = arith.cmpi eq, %e_idx, %t_index_e : tensor<16xi32>
      %hot_e = arith.select %is_t_e, %keep_e, %zeros_e
          : tensor<16xi1>, tensor<16xf32>
      %p_smooth_e = arith.subf %p_e, %smooth_e : tensor<16xf32>
      %grad_e = arith.subf %p_smooth_e, %hot_e : tensor<16xf32>
      %scale_e = tile.splat %scale : f32 -> tensor<16xf32>
      %scaled_e = arith.mulf %grad_e, %scale_e : tensor<16xf32>
      %ignored_e = tile.splat %ignored : i1 -> tensor<16xi1>
      %dxf_e = arith.select %ignored_e, %zeros_e, %scaled_e
          : tensor<16xi1>, tensor<16xf32>
      %dx_out_e = tile.cast %dxf_e : tensor<16xf32> to tensor<16x${DTYPE}>
      %dx_base_e = tile.splat %dx_base
          : !tile.ptr<${DTYPE}> -> tensor<16x!tile.ptr<${DTYPE}>>
      %dx_ptrs_e = tile.addptr %dx_base_e, %e_idx
          : tensor<16x!tile.ptr<${DTYPE}>>, tensor<16xi32>
      tile.store %dx_ptrs_e, %dx_out_e, %e_mask
          : tensor<16x!tile.ptr<${DTYPE}>>
    } else {
      // The rows start at different distances from a multiple of 8: each
      // walked from its start.
      scf.for %i = %split to %n_chunks step %n_splits : i32 {
        %start = arith.muli %i, %block : i32
        %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
        %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
        %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
        // An ignored row reads nothing.
        %load_mask = arith.andi %mask, %read_tile : tensor<${BLOCK_SIZE}xi1>
        %ptrs = tile.addptr %x_rows, %idx
            : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
        %x_in = tile.load %ptrs, %load_mask, %neg_inf_in
            : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
        %xv = tile.cast %x_in
            : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>

        // (softmax - (1 - s) * onehot - s / V) * scale, 0 on an ignored row.
        %shifted = arith.subf %xv, %lse_tile : tensor<${BLOCK_SIZE}xf32>
        %p = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
        %is_t = arith.cmpi eq, %idx, %t_tile : tensor<${BLOCK_SIZE}xi32>
        %hot = arith.select %is_t, %keep_tile, %zeros
            : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
        %p_smooth = arith.subf %p, %smooth_tile : tensor<${BLOCK_SIZE}xf32>
        %grad = arith.subf %p_smooth, %hot : tensor<${BLOCK_SIZE}xf32>
        %scaled = arith.mulf %grad, %scale_tile : tensor<${BLOCK_SIZE}xf32>
        %dxf = arith.select %ignored_tile, %zeros, %scaled
            : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>
        %dx_out = tile.cast %dxf
            : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
        %dx_ptrs = tile.addptr %dx_rows, %idx
            : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
        tile.store %dx_ptrs, %dx_out, %mask
            : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      } {tile.num_stages = ${NUM_STAGES} : i32}
    }
  }
  tile.return
}
