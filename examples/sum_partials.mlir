// The second stage of the backward norms' weight gradients, in one launch:
// the norm's kernel (rms_norm_backward.mlir, layer_norm_backward.mlir and
// their cluster variants) leaves each gradient as the rows of a partial
// buffer ([programs, N] f32, one row per program); this kernel sums every
// buffer's first n_rows rows and writes the sums in DTYPE,
//
//   out_b[c] = sum over r < n_rows of part[b * buffer_stride + r * N + c],
//
// for b < n_buffers (dw into out0, and db into out1 for LayerNorm: two
// tensors, since a PyTorch operator's outputs may not alias one another;
// with one buffer out1 is not written), each sum in f32 in one
// program, rows in order: deterministic, no atomics. The work is the
// n_buffers x ceil(N / BLOCK_SIZE) blocks of columns, on a persistent grid:
// program p takes blocks p, p + P, ..., each a walk over the rows, ROWS at a
// time. It replaces a sum and a cast per buffer (four launches for
// LayerNorm), which took longer than the bytes they move.
//
// Bytes it must move: n_buffers x n_rows x N x 4 read, n_buffers x N x DTYPE
// written.
//
// The partial rows were just written (they are in L2), and there are few of
// them (two per SM): the walk is short, so it is its latency that counts,
// and tall narrow blocks (ROWS up to 128 rows of 32 columns, a 128-byte
// line each) load them in few steps, on many programs.
//
// tile.param BLOCK_SIZE = 32 in 32, 64, 128, 256, 512
// tile.param ROWS = 64 in 1, 2, 4, 8, 16, 32, 64, 128
// tile.param NUM_WARPS = 4 in 1, 2, 4, 8
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @sum_partials(
    %out0: !tile.ptr<${DTYPE}>,
    %out1: !tile.ptr<${DTYPE}>,
    %part: !tile.ptr<f32> {tile.divisibility = 16 : i64},
    %n_buffers: i32, %buffer_stride: i32, %n_rows: i32, %n_cols: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %block = arith.constant ${BLOCK_SIZE} : i32
  %c_rows = arith.constant ${ROWS} : i32
  %c0 = arith.constant 0 : i32
  %start = tile.program_id x : i32
  %step = tile.num_programs x : i32
  %n_blocks = arith.ceildivsi %n_cols, %block : i32
  %n_items = arith.muli %n_blocks, %n_buffers : i32

  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %cols_row = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %cols_2d = tile.broadcast %cols_row
      : tensor<1x${BLOCK_SIZE}xi32> -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %rows = tile.range 0, ${ROWS} : tensor<${ROWS}xi32>
  %rows_col = tile.expand_dims %rows axis 1
      : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %rows_2d = tile.broadcast %rows_col
      : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %n_cols_1d = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %n_cols_2d = tile.splat %n_cols : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %n_rows_2d = tile.splat %n_rows : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %zero = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_SIZE}xf32>

  scf.for %item = %start to %n_items step %step : i32 {
    // Block `blk` of columns of buffer `buf`.
    %buf = arith.divsi %item, %n_blocks : i32
    %blk = arith.remsi %item, %n_blocks : i32
    %first_col = arith.muli %blk, %block : i32
    %first_col_2d = tile.splat %first_col : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %col_ids = arith.addi %cols_2d, %first_col_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %col_ok = arith.cmpi slt, %col_ids, %n_cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %buf_offset = arith.muli %buf, %buffer_stride : i32
    %buf_base = tile.addptr %part, %buf_offset : !tile.ptr<f32>, i32
    %base = tile.splat %buf_base
        : !tile.ptr<f32> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<f32>>

    %acc = scf.for %r = %c0 to %n_rows step %c_rows
        iter_args(%acc_i = %zero) -> (tensor<${ROWS}x${BLOCK_SIZE}xf32>) : i32 {
      %r_2d = tile.splat %r : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
      %row_ids = arith.addi %rows_2d, %r_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
      %row_ok = arith.cmpi slt, %row_ids, %n_rows_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
      %mask = arith.andi %row_ok, %col_ok : tensor<${ROWS}x${BLOCK_SIZE}xi1>
      %row_offsets = arith.muli %row_ids, %n_cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
      %offsets = arith.addi %row_offsets, %col_ids : tensor<${ROWS}x${BLOCK_SIZE}xi32>
      %ptrs = tile.addptr %base, %offsets
          : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<f32>>, tensor<${ROWS}x${BLOCK_SIZE}xi32>
      %v = tile.load %ptrs, %mask, %zero : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<f32>>
      %next = arith.addf %acc_i, %v : tensor<${ROWS}x${BLOCK_SIZE}xf32>
      scf.yield %next : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    } {tile.num_stages = ${NUM_STAGES} : i32}

    %sum = tile.reduce sum %acc axis 0
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${BLOCK_SIZE}xf32>
    %sum_out = tile.cast %sum
        : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
    %first_col_1d = tile.splat %first_col : i32 -> tensor<${BLOCK_SIZE}xi32>
    %out_cols = arith.addi %cols, %first_col_1d : tensor<${BLOCK_SIZE}xi32>
    %out_ok = arith.cmpi slt, %out_cols, %n_cols_1d : tensor<${BLOCK_SIZE}xi32>
    %is_first = arith.cmpi eq, %buf, %c0 : i32
    scf.if %is_first {
      %out_base = tile.splat %out0
          : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %out_ptrs = tile.addptr %out_base, %out_cols
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      tile.store %out_ptrs, %sum_out, %out_ok : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    } else {
      %out_base = tile.splat %out1
          : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %out_ptrs = tile.addptr %out_base, %out_cols
          : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
      tile.store %out_ptrs, %sum_out, %out_ok : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    }
  }
  tile.return
}
