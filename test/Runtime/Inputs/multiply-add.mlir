// Program p stores a[p] * b[p] + c[p] to sums[p] (an addition of a product,
// which the GPU may fuse into an FMA) and a[p] * b[p] to products[p]
// (kernel-runner.test: the first compared as a sum, the second exactly).
tile.func @multiply_add(%sums: !tile.ptr<f32>, %products: !tile.ptr<f32>,
                        %a: !tile.ptr<f32>, %b: !tile.ptr<f32>,
                        %c: !tile.ptr<f32>) {
  %pid = tile.program_id x : i32
  %pa = tile.addptr %a, %pid : !tile.ptr<f32>, i32
  %pb = tile.addptr %b, %pid : !tile.ptr<f32>, i32
  %pc = tile.addptr %c, %pid : !tile.ptr<f32>, i32
  %va = tile.load %pa : !tile.ptr<f32>
  %vb = tile.load %pb : !tile.ptr<f32>
  %vc = tile.load %pc : !tile.ptr<f32>
  %product = arith.mulf %va, %vb : f32
  %sum = arith.addf %product, %vc : f32
  %ps = tile.addptr %sums, %pid : !tile.ptr<f32>, i32
  %pp = tile.addptr %products, %pid : !tile.ptr<f32>, i32
  tile.store %ps, %sum : !tile.ptr<f32>
  tile.store %pp, %product : !tile.ptr<f32>
  tile.return
}
