// Softmax, backward: given y = softmax(x) and the incoming gradient dy,
//   dx = y * (dy - sum(y * dy))
// per row. ROWS rows at a time in one ROWS x BLOCK_SIZE tile (BLOCK_SIZE
// bounds n_cols), stepping over blocks of rows on a persistent grid; loaded
// and stored as DTYPE, computed in f32.
//
// Bytes it must move: y and dy read, dx written (M x N x DTYPE each).
//
// NUM_STAGES: 1 loads each row where it is used; 2 loads the next rows
// while this one is computed, in registers; 3 and 4 copy the rows ahead
// into shared memory (cp.async), 2 and 3 iterations ahead, which takes no
// registers (tile-pipeline-loops, tilegpu-pipeline: docs/compiler.md).
//
// tile.param ROWS = 1 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 1024 in 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_WARPS = 4 in 1, 2, 4, 8, 16, 32
// tile.param NUM_STAGES = 2 in 1, 2, 3, 4
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @softmax_backward(
    %dx: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %y: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %dy: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %y_row_stride: i32, %dy_row_stride: i32, %dx_row_stride: i32,
    %n_rows: i32, %n_cols: i32 {tile.max_value = ${BLOCK_SIZE} : i64})
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c_rows = arith.constant ${ROWS} : i32
  %start = tile.program_id x : i32
  %step = tile.num_programs x : i32
  %n_blocks = arith.ceildivsi %n_rows, %c_rows : i32

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
  %y_stride = tile.splat %y_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %dy_stride = tile.splat %dy_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %dx_stride = tile.splat %dx_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %y_base = tile.splat %y
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %dy_base = tile.splat %dy
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %dx_base = tile.splat %dx
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %zero_in = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>

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

    // y and dy, zero past the row's end.
    %y_rows = arith.muli %row_2d, %y_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %y_offsets = arith.addi %y_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %y_ptrs = tile.addptr %y_base, %y_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %y_in = tile.load %y_ptrs, %mask, %zero_in
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %yf = tile.cast %y_in
        : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}> to tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %dy_rows = arith.muli %row_2d, %dy_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dy_offsets = arith.addi %dy_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dy_ptrs = tile.addptr %dy_base, %dy_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dy_in = tile.load %dy_ptrs, %mask, %zero_in
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %dyf = tile.cast %dy_in
        : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}> to tensor<${ROWS}x${BLOCK_SIZE}xf32>

    // dx = y * (dy - sum(y * dy)).
    %ydy = arith.mulf %yf, %dyf : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %dot = tile.reduce sum %ydy axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    %dot_col = tile.expand_dims %dot axis 1
        : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
    %dot_2d = tile.broadcast %dot_col
        : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %diff = arith.subf %dyf, %dot_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %dxf = arith.mulf %yf, %diff : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %dx_out = tile.cast %dxf
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> to tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>
    %dx_rows = arith.muli %row_2d, %dx_stride : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dx_offsets = arith.addi %dx_rows, %cols_2d : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %dx_ptrs = tile.addptr %dx_base, %dx_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    tile.store %dx_ptrs, %dx_out, %mask
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
