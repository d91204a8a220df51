// A loop the pass pipelines only once canonicalize has folded the casts of
// constants (cost-model.test, PIPELINED-CANON): raw, the body's peak counts
// two f32 copies of the constants.
tile.func @castc(%out: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                 %in: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                 %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8192 = arith.constant 8192 : i32
  %ra = tile.range 0, 8192 : tensor<8192xi32>
  %h1 = arith.constant dense<2.0> : tensor<8192xf16>
  %h2 = arith.constant dense<3.0> : tensor<8192xf16>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %off = arith.muli %i, %c8192 : i32
    %row = tile.addptr %in, %off : !tile.ptr<f32>, i32
    %rows = tile.splat %row : !tile.ptr<f32> -> tensor<8192x!tile.ptr<f32>>
    %pa = tile.addptr %rows, %ra : tensor<8192x!tile.ptr<f32>>, tensor<8192xi32>
    %a = tile.load %pa : tensor<8192x!tile.ptr<f32>>
    %k1 = tile.cast %h1 : tensor<8192xf16> to tensor<8192xf32>
    %k2 = tile.cast %h2 : tensor<8192xf16> to tensor<8192xf32>
    %t = arith.mulf %a, %k1 : tensor<8192xf32>
    %y = arith.mulf %t, %k2 : tensor<8192xf32>
    %orow = tile.addptr %out, %off : !tile.ptr<f32>, i32
    %orows = tile.splat %orow : !tile.ptr<f32> -> tensor<8192x!tile.ptr<f32>>
    %po = tile.addptr %orows, %ra : tensor<8192x!tile.ptr<f32>>, tensor<8192xi32>
    tile.store %po, %y : tensor<8192x!tile.ptr<f32>>
  } {tile.num_stages = 2 : i32}
  tile.return
}
