// y = f8E5M2(f32(x) * s) for x in f8E4M3FN: loads and stores of 8-bit floats,
// tile.cast both ways (test/Interpreter/float8.test, test/Pipelines/float8.test).
tile.func @scale(%x: !tile.ptr<f8E4M3FN>, %y: !tile.ptr<f8E5M2>, %n: i32, %s: f32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %r = tile.range 0, 256 : tensor<256xi32>
  %sv = tile.splat %start : i32 -> tensor<256xi32>
  %offs = arith.addi %sv, %r : tensor<256xi32>
  %nv = tile.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %offs, %nv : tensor<256xi32>
  %xp = tile.splat %x : !tile.ptr<f8E4M3FN> -> tensor<256x!tile.ptr<f8E4M3FN>>
  %xptrs = tile.addptr %xp, %offs : tensor<256x!tile.ptr<f8E4M3FN>>, tensor<256xi32>
  %xv = tile.load %xptrs, %mask : tensor<256x!tile.ptr<f8E4M3FN>>
  %xf = tile.cast %xv : tensor<256xf8E4M3FN> to tensor<256xf32>
  %ss = tile.splat %s : f32 -> tensor<256xf32>
  %prod = arith.mulf %xf, %ss : tensor<256xf32>
  %yv = tile.cast %prod : tensor<256xf32> to tensor<256xf8E5M2>
  %yp = tile.splat %y : !tile.ptr<f8E5M2> -> tensor<256x!tile.ptr<f8E5M2>>
  %yptrs = tile.addptr %yp, %offs : tensor<256x!tile.ptr<f8E5M2>>, tensor<256xi32>
  tile.store %yptrs, %yv, %mask : tensor<256x!tile.ptr<f8E5M2>>
  tile.return
}
