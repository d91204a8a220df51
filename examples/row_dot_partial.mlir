// First stage of the split path of the row kernels whose rows are longer
// than a cluster holds (softmax backward and RMSNorm beyond 16 x 32768
// columns): partial sums of a row's products. Each row is shared by the Q
// programs along y of a grid (P, Q); program (p, q) takes rows p, p + P, ...
// and in each its chunks q, q + Q, ... of BLOCK_SIZE columns, and writes
//
//   part[row, q] = sum over its chunks of a[row, c] * b[row, c]
//
// in f32 (a [M, Q] buffer). The caller sums each row's Q partials (a few
// bytes a row) and passes the sums to the second stage
// (softmax_backward_apply.mlir: a = y, b = dy; rms_norm_apply.mlir: a = b =
// x), which reads the row again: 5/3 of the one-pass kernel's bytes for
// softmax backward, 3/2 for RMSNorm, where the one-pass kernels hold the
// row.
//
// Bounds: offsets are i32, so n_rows * a_row_stride, n_rows * b_row_stride
// and n_rows * n_splits stay below 2^31.
//
// Bytes it must move: a and b read (M x N x DTYPE each; one read where the
// caller passes the same buffer twice, from L1), part written (M x Q x 4).
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @row_dot_partial(
    %part: !tile.ptr<f32>,
    %a: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %b: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %a_row_stride: i32, %b_row_stride: i32, %n_rows: i32, %n_cols: i32,
    %n_splits: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %split = tile.program_id y : i32
  %n_chunks = arith.ceildivsi %n_cols, %block : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %cols_2d = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %zeros_in = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}x${DTYPE}>
  %zero_sum = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}xf32>

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %a_offset = arith.muli %row, %a_row_stride : i32
    %a_row = tile.addptr %a, %a_offset : !tile.ptr<${DTYPE}>, i32
    %a_rows = tile.splat %a_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %b_offset = arith.muli %row, %b_row_stride : i32
    %b_row = tile.addptr %b, %b_offset : !tile.ptr<${DTYPE}>, i32
    %b_rows = tile.splat %b_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    // Lane-wise sums over the chunks, reduced once at the end.
    %sums = scf.for %i = %split to %n_chunks step %n_splits
        iter_args(%acc = %zero_sum) -> (tensor<1x${BLOCK_SIZE}xf32>) : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<1x${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols_2d, %start_tile : tensor<1x${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<1x${BLOCK_SIZE}xi32>
      %a_ptrs = tile.addptr %a_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %a_in = tile.load %a_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %b_ptrs = tile.addptr %b_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %b_in = tile.load %b_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %av = tile.cast %a_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %bv = tile.cast %b_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %prod = arith.mulf %av, %bv : tensor<1x${BLOCK_SIZE}xf32>
      %next = arith.addf %acc, %prod : tensor<1x${BLOCK_SIZE}xf32>
      scf.yield %next : tensor<1x${BLOCK_SIZE}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}
    %row_sums = tile.reduce sum %sums axis 1
        : tensor<1x${BLOCK_SIZE}xf32> -> tensor<1xf32>
    %slot = arith.muli %row, %n_splits : i32
    %slot_q = arith.addi %slot, %split : i32
    %part_ptr = tile.addptr %part, %slot_q : !tile.ptr<f32>, i32
    %part_ptrs = tile.splat %part_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
    tile.store %part_ptrs, %row_sums : tensor<1x!tile.ptr<f32>>
  }
  tile.return
}
