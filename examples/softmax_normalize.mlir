// Softmax, second stage of the split path: for rows too few to fill the
// GPU and long (64 rows of 2^20: one program per row leaves half the SMs
// idle, and the two-pass online_softmax.mlir reads each row twice from
// one SM), each row is shared by the Q programs along y of a grid (P, Q).
// The first stage is cross_entropy_partial.mlir, whose partials are the
// logsumexp's: for each part q of row `row`, part_max[row, q] (its max)
// and part_sum[row, q] (the sum of exp(x - part_max) over its lanes) in
// [M, Q] f32 buffers. Here program (p, q) merges the row's Q partials into
//
//   M = max_q part_max[q],  S = sum_q part_sum[q] exp(part_max[q] - M)
//
// (the lse = M + log S of cross_entropy_combine.mlir; each of the Q programs of a row
// reads them, Q x 8 bytes from L2) and writes its chunks q, q + Q, ... of
//
//   y = exp((x - M) - log S)
//
// so each element is read twice in all (once per stage) and written once:
// 1.5 times a copy's bytes, where the one-pass kernels hold the row.
// As torch.softmax: NaN anywhere in a row makes its max, S and so
// every y of the row NaN; so does a row all -inf (M = -inf, and exp(-inf -
// -inf) is NaN); +inf makes S NaN, and the row with it.
//
// Bounds: offsets are i32, so n_rows * x_row_stride, n_rows *
// y_row_stride and n_rows * n_splits stay below 2^31. n_splits is Q, the
// grid's size along y, at most SPLITS (the partials' tile).
//
// Bytes it must move: x read and y written (M x N x DTYPE each), the
// partials read (M x Q x 8, once per program: from L2 after the first).
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param SPLITS = 64 in 2, 4, 8, 16, 32, 64, 128, 256
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @softmax_normalize(
    %y: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %x: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %part_max: !tile.ptr<f32>,
    %part_sum: !tile.ptr<f32>,
    %x_row_stride: i32, %y_row_stride: i32, %n_rows: i32, %n_cols: i32,
    %n_splits: i32 {tile.max_value = ${SPLITS} : i64})
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %split = tile.program_id y : i32
  %n_chunks = arith.ceildivsi %n_cols, %block : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %lanes = tile.range 0, ${SPLITS} : tensor<${SPLITS}xi32>
  %n_splits_tile = tile.splat %n_splits : i32 -> tensor<${SPLITS}xi32>
  %valid = arith.cmpi slt, %lanes, %n_splits_tile : tensor<${SPLITS}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${SPLITS}xf32>
  %zeros = arith.constant dense<0.0> : tensor<${SPLITS}xf32>
  %zero_in = arith.constant 0.0 : ${DTYPE}
  %zeros_in = tile.splat %zero_in : ${DTYPE} -> tensor<${BLOCK_SIZE}x${DTYPE}>

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    // The row's partials, and its lse from them.
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
    %max = tile.reduce max %m axis 0 : tensor<${SPLITS}xf32> -> f32
    %max_tile = tile.splat %max : f32 -> tensor<${SPLITS}xf32>
    %diff = arith.subf %m, %max_tile : tensor<${SPLITS}xf32>
    %rescale = tile.exp %diff : tensor<${SPLITS}xf32>
    %part_sums = arith.mulf %s, %rescale : tensor<${SPLITS}xf32>
    %sum = tile.reduce sum %part_sums axis 0 : tensor<${SPLITS}xf32> -> f32
    %log_sum = math.log %sum : f32
    // y = exp((x - M) - log(sum)), not exp(x - lse): x - M is exact for x
    // near the max, where x - lse would round lse to x's magnitude (at x of
    // 1e4, an error of 1e-3 in every y of the row).
    %max_row = tile.splat %max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %log_sum_row = tile.splat %log_sum : f32 -> tensor<${BLOCK_SIZE}xf32>

    %x_offset = arith.muli %row, %x_row_stride : i32
    %x_row = tile.addptr %x, %x_offset : !tile.ptr<${DTYPE}>, i32
    %x_rows = tile.splat %x_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %y_offset = arith.muli %row, %y_row_stride : i32
    %y_row = tile.addptr %y, %y_offset : !tile.ptr<${DTYPE}>, i32
    %y_rows = tile.splat %y_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    scf.for %i = %split to %n_chunks step %n_splits : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols, %start_tile : tensor<${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
      %ptrs = tile.addptr %x_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      %x_in = tile.load %ptrs, %mask, %zeros_in
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %xv = tile.cast %x_in
          : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>
      %centered = arith.subf %xv, %max_row : tensor<${BLOCK_SIZE}xf32>
      %shifted = arith.subf %centered, %log_sum_row : tensor<${BLOCK_SIZE}xf32>
      %p = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
      %y_out = tile.cast %p
          : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
      %y_ptrs = tile.addptr %y_rows, %idx
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      tile.store %y_ptrs, %y_out, %mask
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    } {tile.num_stages = ${NUM_STAGES} : i32}
  }
  tile.return
}
