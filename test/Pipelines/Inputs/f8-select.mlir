// y[i] = i < n ? x[i] : y[i] over 128 8-bit floats: arith.select of f8
// tiles under a mask (test/Pipelines/float8.test).
tile.func @f8_select(%x: !tile.ptr<f8E4M3FN>, %y: !tile.ptr<f8E4M3FN>, %n: i32) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %nv = tile.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %nv : tensor<128xi32>
  %xp = tile.splat %x : !tile.ptr<f8E4M3FN> -> tensor<128x!tile.ptr<f8E4M3FN>>
  %xptrs = tile.addptr %xp, %r : tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xi32>
  %xv = tile.load %xptrs : tensor<128x!tile.ptr<f8E4M3FN>>
  %yp = tile.splat %y : !tile.ptr<f8E4M3FN> -> tensor<128x!tile.ptr<f8E4M3FN>>
  %yptrs = tile.addptr %yp, %r : tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xi32>
  %yv = tile.load %yptrs : tensor<128x!tile.ptr<f8E4M3FN>>
  %sel = arith.select %m, %xv, %yv : tensor<128xi1>, tensor<128xf8E4M3FN>
  tile.store %yptrs, %sel : tensor<128x!tile.ptr<f8E4M3FN>>
  tile.return
}
