// Fused softmax, one row at a time: the kernel of Triton's tutorial
// 02-fused-softmax (seeds 000 and 001). A persistent grid: program `pid`
// handles rows pid, pid + num_programs, ... Each row is loaded whole into a
// tile of BLOCK_SIZE elements (masked past n_cols with -inf), reduced, and
// written back.
//
// BLOCK_SIZE must be a power of two no smaller than n_cols: n_cols carries
// `tile.max_value = BLOCK_SIZE`, so a launch with longer rows is an error,
// not a wrong result. Set it with `-D BLOCK_SIZE=...` for longer rows, or let
// `tile-run --tune` choose everything. NUM_STAGES is the loop's pipelining
// depth, as in the seeds' `tl.range(..., num_stages=...)`: with 2, the
// compiler loads a program's next row while it computes the current one
// (output rows must not overlap the input rows still to be read) when the
// two rows fit in registers. NUM_WARPS is the number of warps per program:
// more for longer rows (16 for 8192). Each parameter lists the values a
// tuner may try.
//
// DTYPE is the element type of the input and output (f32, f16 or bf16):
// rows are loaded and stored as DTYPE and computed in f32, as the seeds'
// half-precision benchmarks do; with f32 the casts fold away.
//
// tile.param BLOCK_SIZE = 1024 in 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768
// tile.param NUM_STAGES = 2 in 1, 2
// tile.param NUM_WARPS = 4 in 4, 8, 16, 32
// tile.param DTYPE = f32 in f32, f16, bf16

tile.func @softmax(%output: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
                   %input: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
                   %input_row_stride: i32, %output_row_stride: i32,
                   %n_rows: i32,
                   %n_cols: i32 {tile.max_value = ${BLOCK_SIZE} : i64})
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %mask = arith.cmpi slt, %cols, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  %neg_inf_in = tile.cast %neg_inf
      : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
  %one = arith.constant 1.0 : f32
  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    // Load the row, masked past its end with -inf.
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_row = tile.addptr %input, %in_offset : !tile.ptr<${DTYPE}>, i32
    %in_rows = tile.splat %in_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %in_ptrs = tile.addptr %in_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    %x_in = tile.load %in_ptrs, %mask, %neg_inf_in
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %x = tile.cast %x_in
        : tensor<${BLOCK_SIZE}x${DTYPE}> to tensor<${BLOCK_SIZE}xf32>

    // softmax(x) = exp(x - max(x)) / sum(exp(x - max(x))), dividing once
    // per row and multiplying each element (at most 1 ulp from dividing each).
    %max = tile.reduce max %x axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %max_tile = tile.splat %max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %shifted = arith.subf %x, %max_tile : tensor<${BLOCK_SIZE}xf32>
    %num = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
    %den = tile.reduce sum %num axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %inv = arith.divf %one, %den : f32
    %inv_tile = tile.splat %inv : f32 -> tensor<${BLOCK_SIZE}xf32>
    %y = arith.mulf %num, %inv_tile : tensor<${BLOCK_SIZE}xf32>

    // Store the row.
    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_row = tile.addptr %output, %out_offset : !tile.ptr<${DTYPE}>, i32
    %out_rows = tile.splat %out_row
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
    %out_ptrs = tile.addptr %out_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>, tensor<${BLOCK_SIZE}xi32>
    %y_out = tile.cast %y
        : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}x${DTYPE}>
    tile.store %out_ptrs, %y_out, %mask
        : tensor<${BLOCK_SIZE}x!tile.ptr<${DTYPE}>>
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
