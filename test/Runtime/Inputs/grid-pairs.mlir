// Program p brings a (maximum, sum of exponentials) pair, row p of
// `pairs`; every program stores the merged maximum to maxima[p] and the
// merged sum to sums[p] (kernel-runner.test: the sums are compared as sums,
// the maxima exactly).
tile.func @pairs(%maxima: !tile.ptr<f32>, %sums: !tile.ptr<f32>,
                 %pairs: !tile.ptr<f32>) attributes {tile.persistent} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %pid = tile.program_id x : i32
  %row = arith.muli %pid, %c2 : i32
  %pm = tile.addptr %pairs, %row : !tile.ptr<f32>, i32
  %ps = tile.addptr %pm, %c1 : !tile.ptr<f32>, i32
  %m = tile.load %pm : !tile.ptr<f32>
  %s = tile.load %ps : !tile.ptr<f32>
  %r:2 = tile.grid_reduce logsumexp %m, %s : f32, f32
  %qm = tile.addptr %maxima, %pid : !tile.ptr<f32>, i32
  %qs = tile.addptr %sums, %pid : !tile.ptr<f32>, i32
  tile.store %qm, %r#0 : !tile.ptr<f32>
  tile.store %qs, %r#1 : !tile.ptr<f32>
  tile.return
}
