// Cross-entropy, forward, first stage of the split path: for rows too few
// to fill the GPU and long (64 rows of 2^20 classes: one program per row
// would leave half the SMs idle and the others latency-bound), each row is
// shared by the Q programs along y of a grid (P, Q): program (p, q) takes
// span q of rows p, p + P, ..., the columns [q S, (q + 1) S) with S =
// ceil(N / Q) rounded up to a multiple of 64 (so each span starts 16-byte
// aligned), walked BLOCK_SIZE at a time, and writes, for its span, three
// f32 partials at [row, q] of [M, Q] buffers:
//
//   part_max[row, q] = max of its x (-inf where it saw none),
//   part_sum[row, q] = sum of exp(x - part_max) (0 where part_max is -inf),
//   part_xs[row, q]  = sum of its x (for label smoothing's mean).
//
// The spans do not depend on BLOCK_SIZE or the other meta-parameters, so
// every configuration writes the same partials (up to the order of its
// sums): the tuner compares each candidate's with one reference. (Chunks
// q, q + Q, ... of BLOCK_SIZE columns, as this kernel first took them,
// made each configuration's partials its own.)
//
// cross_entropy_combine.mlir then merges each row's Q partials into lse
// and the loss. Each logit is read once, as in cross_entropy.mlir, whose
// chunk loop this is (see there for the running max and the sums per lane).
// A part whose lanes all stayed -inf sums 0 rather than exp(-inf - -inf):
// the row's other parts must not see a NaN for it (a row all -inf still
// gives NaN, in the combine, as cross_entropy.mlir does).
//
// Bounds: offsets are i32, so n_rows * x_row_stride and n_rows * Q stay
// below 2^31.
//
// Bytes it must move: x read (M x V x DTYPE), the partials written (M x Q
// x 12).
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @cross_entropy_partial(
    %part_max: !tile.ptr<f32>,
    %part_sum: !tile.ptr<f32>,
    %part_xs: !tile.ptr<f32>,
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x_row_stride: i32, %n_rows: i32, %n_cols: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %split = tile.program_id y : i32
  %n_splits = tile.num_programs y : i32
  // The span: S = ceil(ceil(N / Q) / 64) * 64 columns from q * S, ending
  // at min((q + 1) * S, N) (a span past the row's end is empty).
  %per_split = arith.ceildivsi %n_cols, %n_splits : i32
  %c64 = arith.constant 64 : i32
  %span_units = arith.ceildivsi %per_split, %c64 : i32
  %span = arith.muli %span_units, %c64 : i32
  %span_start = arith.muli %split, %span : i32
  %span_stop = arith.addi %span_start, %span : i32
  %span_end = arith.minsi %span_stop, %n_cols : i32
  %span_cols = arith.subi %span_end, %span_start : i32
  %c0 = arith.constant 0 : i32
  %span_len = arith.maxsi %span_cols, %c0 : i32
  %n_chunks = arith.ceildivsi %span_len, %block : i32
  %c1 = arith.constant 1 : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %end_tile = tile.splat %span_end : i32 -> tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
  %zeros = arith.constant dense<0.0> : tensor<${BLOCK_SIZE}xf32>
  %zero = arith.constant 0.0 : f32
  %neg_inf_1 = arith.constant 0xFF800000 : f32

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    %x_rows = tile.splat %x_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    %m, %s, %xs = scf.for %i = %c0 to %n_chunks step %c1
        iter_args(%m_i = %neg_inf_1, %s_i = %zeros, %xs_i = %zeros)
        -> (f32, tensor<${BLOCK_SIZE}xf32>, tensor<${BLOCK_SIZE}xf32>) : i32 {
      %offset = arith.muli %i, %block : i32
      %start = arith.addi %span_start, %offset : i32
      %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %end_tile : tensor<${BLOCK_SIZE}xi32>
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

    // This part's max and the sum of its lanes' exponentials, relative to
    // it (0 where the max is -inf: every lane -inf, or no chunk at all).
    %sum = tile.reduce sum %s axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %x_sum = tile.reduce sum %xs axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32

    %slot_row = arith.muli %row, %n_splits : i32
    %slot = arith.addi %slot_row, %split : i32
    %max_ptr = tile.addptr %part_max, %slot : !tile.ptr<f32>, i32
    tile.store %max_ptr, %m : !tile.ptr<f32>
    %sum_ptr = tile.addptr %part_sum, %slot : !tile.ptr<f32>, i32
    tile.store %sum_ptr, %sum : !tile.ptr<f32>
    %xs_ptr = tile.addptr %part_xs, %slot : !tile.ptr<f32>, i32
    tile.store %xs_ptr, %x_sum : !tile.ptr<f32>
  }
  tile.return
}
