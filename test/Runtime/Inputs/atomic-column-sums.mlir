// tile.atomic_add for the cost model (cost-model.test): each program adds
// its row of x (a tile of 128, the first n lanes on) into one shared row.
tile.func @column_sums(%y: !tile.ptr<f32>, %x: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x : i32
  %cols = tile.range 0, 128 : tensor<128xi32>
  %n_tile = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %n_tile : tensor<128xi32>
  %offset = arith.muli %pid, %n : i32
  %row = tile.addptr %x, %offset : !tile.ptr<f32>, i32
  %rows = tile.splat %row : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %rows, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %ptrs, %mask : tensor<128x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %ys, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.atomic_add %y_ptrs, %v, %mask : tensor<128x!tile.ptr<f32>>
  tile.return
}
