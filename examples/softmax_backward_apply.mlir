// Softmax backward, second stage of the split path (rows longer than
// softmax_backward_cluster.mlir's 16 x 32768): with s[row] = sum over the
// row of y * dy (row_dot_partial.mlir's partials, summed by the caller),
//
//   dx = y * (dy - s[row]),
//
// on a grid (P, Q): program (p, q) takes rows p, p + P, ... and in each its
// chunks q, q + Q, ... of BLOCK_SIZE columns. y and dy are read a second
// time, so the two stages move 5/3 of the one-pass kernel's bytes.
//
// Bounds: offsets are i32, so n_rows times each row stride stays below
// 2^31.
//
// Bytes it must move: y and dy read, dx written (M x N x DTYPE each), s
// read (M x 4).
//
// tile.param BLOCK_SIZE = 4096 in 256, 512, 1024, 2048, 4096, 8192, 16384
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param NUM_WARPS = 8 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @softmax_backward_apply(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %y: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %s: !tile.ptr<f32>,
    %y_row_stride: i32, %dy_row_stride: i32, %dx_row_stride: i32,
    %n_rows: i32, %n_cols: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %block = arith.constant ${BLOCK_SIZE} : i32
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %split = tile.program_id y : i32
  %n_splits = tile.num_programs y : i32
  %n_chunks = arith.ceildivsi %n_cols, %block : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %cols_2d = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_SIZE}xi32> -> tensor<1x${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<1x${BLOCK_SIZE}xi32>
  %zeros_in = arith.constant dense<0.0> : tensor<1x${BLOCK_SIZE}x${DTYPE}>

  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %s_ptr = tile.addptr %s, %row : !tile.ptr<f32>, i32
    %s_ptrs = tile.splat %s_ptr : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
    %s_row = tile.load %s_ptrs : tensor<1x!tile.ptr<f32>>
    %s_col = tile.expand_dims %s_row axis 1 : tensor<1xf32> -> tensor<1x1xf32>
    %s_tile = tile.broadcast %s_col
        : tensor<1x1xf32> -> tensor<1x${BLOCK_SIZE}xf32>
    %y_offset = arith.muli %row, %y_row_stride : i32
    %y_row = tile.addptr %y, %y_offset : !tile.ptr<${DTYPE}>, i32
    %y_rows = tile.splat %y_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dy_offset = arith.muli %row, %dy_row_stride : i32
    %dy_row = tile.addptr %dy, %dy_offset : !tile.ptr<${DTYPE}>, i32
    %dy_rows = tile.splat %dy_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dx_offset = arith.muli %row, %dx_row_stride : i32
    %dx_row = tile.addptr %dx, %dx_offset : !tile.ptr<${DTYPE}>, i32
    %dx_rows = tile.splat %dx_row
        : !tile.ptr<${DTYPE}> -> tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>

    scf.for %i = %split to %n_chunks step %n_splits : i32 {
      %start = arith.muli %i, %block : i32
      %start_tile = tile.splat %start : i32 -> tensor<1x${BLOCK_SIZE}xi32>
      %idx = arith.addi %cols_2d, %start_tile : tensor<1x${BLOCK_SIZE}xi32>
      %mask = arith.cmpi slt, %idx, %n_cols_tile : tensor<1x${BLOCK_SIZE}xi32>
      %y_ptrs = tile.addptr %y_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %y_in = tile.load %y_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %dy_ptrs = tile.addptr %dy_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      %dy_in = tile.load %dy_ptrs, %mask, %zeros_in
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
      %yv = tile.cast %y_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %dyv = tile.cast %dy_in
          : tensor<1x${BLOCK_SIZE}x${DTYPE}> to tensor<1x${BLOCK_SIZE}xf32>
      %centered = arith.subf %dyv, %s_tile : tensor<1x${BLOCK_SIZE}xf32>
      %dxv = arith.mulf %yv, %centered : tensor<1x${BLOCK_SIZE}xf32>
      %dx_out = tile.cast %dxv
          : tensor<1x${BLOCK_SIZE}xf32> to tensor<1x${BLOCK_SIZE}x${DTYPE}>
      %dx_ptrs = tile.addptr %dx_rows, %idx
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<1x${BLOCK_SIZE}xi32>
      tile.store %dx_ptrs, %dx_out, %mask
          : tensor<1x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    } {tile.num_stages = ${NUM_STAGES} : i32}
  }
  tile.return
}
