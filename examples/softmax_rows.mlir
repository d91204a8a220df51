// Fused softmax, several rows at a time: each program handles ROWS rows in
// one rank-2 tile of ROWS x BLOCK_SIZE, reducing along the columns (axis 1).
// For short rows this keeps every thread busy where softmax.mlir would leave
// most of a block idle. Same parameters as softmax.mlir (BLOCK_SIZE bounds
// n_cols); a persistent grid over blocks of ROWS rows.
//
// NUM_STAGES pipelines the loop over row blocks (see softmax.mlir).
//
// DTYPE is the element type of the input and output (f32, f16 or bf16):
// rows are loaded and stored as DTYPE and computed in f32, as the seeds'
// half-precision benchmarks do; with f32 the casts fold away.
//
// tile.param ROWS = 4 in 1, 2, 4, 8, 16
// tile.param BLOCK_SIZE = 256 in 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param NUM_WARPS = 4 in 1, 2, 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @softmax_rows(
    %output: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %input_row_stride: i32, %output_row_stride: i32,
    %n_rows: i32, %n_cols: i32 {tile.max_value = ${BLOCK_SIZE} : i64})
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c_rows = arith.constant ${ROWS} : i32
  %start = tile.program_id x : i32
  %step = tile.num_programs x : i32
  %n_blocks = arith.ceildivsi %n_rows, %c_rows : i32

  // Column offsets and the column mask, as ROWS x BLOCK_SIZE tiles.
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
  %in_stride = tile.splat %input_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %out_stride = tile.splat %output_row_stride
      : i32 -> tensor<${ROWS}x${BLOCK_SIZE}xi32>
  %in_base = tile.splat %input
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %out_base = tile.splat %output
      : !tile.ptr<${DTYPE}> -> tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  %neg_inf = arith.constant dense<0xFF800000>
      : tensor<${ROWS}x${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${ROWS}x${BLOCK_SIZE}xf32> to tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>
  %ones = arith.constant dense<1.0> : tensor<${ROWS}xf32>

  scf.for %block = %start to %n_blocks step %step : i32 {
    // The rows of this block, and which of them exist.
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

    // Load, masked with -inf.
    %in_rows = arith.muli %row_2d, %in_stride
        : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %in_offsets = arith.addi %in_rows, %cols_2d
        : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %in_ptrs = tile.addptr %in_base, %in_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %x_in = tile.load %in_ptrs, %mask, %neg_inf_in
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %x = tile.cast %x_in
        : tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}> to tensor<${ROWS}x${BLOCK_SIZE}xf32>

    // Per row: exp(x - max) * (1 / sum).
    %max = tile.reduce max %x axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    %max_col = tile.expand_dims %max axis 1
        : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
    %max_2d = tile.broadcast %max_col
        : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %shifted = arith.subf %x, %max_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %num = tile.exp %shifted : tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %sum = tile.reduce sum %num axis 1
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> -> tensor<${ROWS}xf32>
    %inv = arith.divf %ones, %sum : tensor<${ROWS}xf32>
    %inv_col = tile.expand_dims %inv axis 1
        : tensor<${ROWS}xf32> -> tensor<${ROWS}x1xf32>
    %inv_2d = tile.broadcast %inv_col
        : tensor<${ROWS}x1xf32> -> tensor<${ROWS}x${BLOCK_SIZE}xf32>
    %y = arith.mulf %num, %inv_2d : tensor<${ROWS}x${BLOCK_SIZE}xf32>

    // Store.
    %out_rows = arith.muli %row_2d, %out_stride
        : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %out_offsets = arith.addi %out_rows, %cols_2d
        : tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %out_ptrs = tile.addptr %out_base, %out_offsets
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>,
          tensor<${ROWS}x${BLOCK_SIZE}xi32>
    %y_out = tile.cast %y
        : tensor<${ROWS}x${BLOCK_SIZE}xf32> to tensor<${ROWS}x${BLOCK_SIZE}x${DTYPE}>
    tile.store %out_ptrs, %y_out, %mask
        : tensor<${ROWS}x${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
