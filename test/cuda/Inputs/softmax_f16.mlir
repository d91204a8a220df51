// examples/softmax.mlir over f16 buffers: rows are loaded as f16, widened
// to f32 for the arithmetic (as Triton does), and the result is rounded to
// f16 once on the way out. The tests make the bf16 version with
// `sed s/f16/bf16/g`. Masked-off lanes become -inf through a select, so the
// file has no f16 constant.
//
// tile.param BLOCK_SIZE = 1024

tile.func @softmax(%output: !tile.ptr<f16> {tile.divisibility = 16 : i64},
                   %input: !tile.ptr<f16> {tile.divisibility = 16 : i64},
                   %input_row_stride: i32, %output_row_stride: i32,
                   %n_rows: i32, %n_cols: i32) {
  %row_start = tile.program_id x : i32
  %row_step = tile.num_programs x : i32
  %cols = tile.range 0, ${BLOCK_SIZE} : tensor<${BLOCK_SIZE}xi32>
  %n_cols_tile = tile.splat %n_cols : i32 -> tensor<${BLOCK_SIZE}xi32>
  %mask = arith.cmpi slt, %cols, %n_cols_tile : tensor<${BLOCK_SIZE}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_SIZE}xf32>
  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %in_offset = arith.muli %row, %input_row_stride : i32
    %in_row = tile.addptr %input, %in_offset : !tile.ptr<f16>, i32
    %in_rows = tile.splat %in_row
        : !tile.ptr<f16> -> tensor<${BLOCK_SIZE}x!tile.ptr<f16>>
    %in_ptrs = tile.addptr %in_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>, tensor<${BLOCK_SIZE}xi32>
    %x16 = tile.load %in_ptrs, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>
    %x32 = arith.extf %x16 : tensor<${BLOCK_SIZE}xf16> to tensor<${BLOCK_SIZE}xf32>
    %x = arith.select %mask, %x32, %neg_inf
        : tensor<${BLOCK_SIZE}xi1>, tensor<${BLOCK_SIZE}xf32>

    %max = tile.reduce max %x axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %max_tile = tile.splat %max : f32 -> tensor<${BLOCK_SIZE}xf32>
    %shifted = arith.subf %x, %max_tile : tensor<${BLOCK_SIZE}xf32>
    %num = tile.exp %shifted : tensor<${BLOCK_SIZE}xf32>
    %den = tile.reduce sum %num axis 0 : tensor<${BLOCK_SIZE}xf32> -> f32
    %den_tile = tile.splat %den : f32 -> tensor<${BLOCK_SIZE}xf32>
    %y = arith.divf %num, %den_tile : tensor<${BLOCK_SIZE}xf32>
    %y16 = arith.truncf %y : tensor<${BLOCK_SIZE}xf32> to tensor<${BLOCK_SIZE}xf16>

    %out_offset = arith.muli %row, %output_row_stride : i32
    %out_row = tile.addptr %output, %out_offset : !tile.ptr<f16>, i32
    %out_rows = tile.splat %out_row
        : !tile.ptr<f16> -> tensor<${BLOCK_SIZE}x!tile.ptr<f16>>
    %out_ptrs = tile.addptr %out_rows, %cols
        : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>, tensor<${BLOCK_SIZE}xi32>
    tile.store %out_ptrs, %y16, %mask : tensor<${BLOCK_SIZE}x!tile.ptr<f16>>
  }
  tile.return
}
