// Kernels that reduce across the grid on the interpreter: all of the
// grid's programs run together, on threads of their own, and meet at each
// tile.grid_reduce.

// Each of 5 programs contributes v = pid + 1 (i32), v / 4 (f32) and
// 2^40 x v (i64), twice in a loop (the second round adds 10): every
// program stores the grid's sums (15, 3.75, 15 x 2^40; then 65, 16.25,
// 65 x 2^40) and maximum (5; then 15) of
// each round, the same in every program (columns: round 0 sum, round 1
// max, round 0 max, round 1 sum).
// RUN: tile-run %s --kernel sums --grid 5 --arg 'i32[5x4]=fill:-1' --arg 'f32[5x2]=zeros' \
// RUN:   --arg 'i64[5x2]=zeros' --out 0=%t.i.npy --out 1=%t.f.npy --out 2=%t.l.npy \
// RUN:   | FileCheck %s --check-prefix=SUMS-LAUNCH
// SUMS-LAUNCH: @sums ran on the CPU interpreter: grid 5 (5 programs)
// RUN: %reference print %t.i.npy | FileCheck %s --check-prefix=SUMS-I
// RUN: %reference print %t.f.npy | FileCheck %s --check-prefix=SUMS-F
// RUN: %reference print %t.l.npy | FileCheck %s --check-prefix=SUMS-L
// SUMS-I:      i32[5x4]
// SUMS-I-NEXT: 15 15 5 65
// SUMS-I-NEXT: 15 15 5 65
// SUMS-I-NEXT: 15 15 5 65
// SUMS-I-NEXT: 15 15 5 65
// SUMS-I-NEXT: 15 15 5 65
// SUMS-F:      f32[5x2]
// SUMS-F-NEXT: 3.75 16.25
// SUMS-F-NEXT: 3.75 16.25
// SUMS-L:      i64[5x2]
// SUMS-L-NEXT: 16492674416640 71468255805440
// SUMS-L-NEXT: 16492674416640 71468255805440
tile.func @sums(%ints: !tile.ptr<i32>, %floats: !tile.ptr<f32>,
                %longs: !tile.ptr<i64>) attributes {tile.persistent} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c10 = arith.constant 10 : i32
  %quarter = arith.constant 0.25 : f32
  %shift = arith.constant 40 : i64
  %pid = tile.program_id x : i32
  %v0 = arith.addi %pid, %c1 : i32
  %irow = arith.muli %pid, %c4 : i32
  %frow = arith.muli %pid, %c2 : i32
  scf.for %round = %c0 to %c2 step %c1 : i32 {
    %bonus = arith.muli %round, %c10 : i32
    %v = arith.addi %v0, %bonus : i32
    %vf0 = arith.sitofp %v : i32 to f32
    %vf = arith.mulf %vf0, %quarter : f32
    %vl0 = arith.extsi %v : i32 to i64
    %vl = arith.shli %vl0, %shift : i64
    %s, %sf, %sl = tile.grid_reduce sum %v, %vf, %vl : i32, f32, i64
    %m = tile.grid_reduce max %v : i32
    %iat = arith.addi %irow, %round : i32
    %pi = tile.addptr %ints, %iat : !tile.ptr<i32>, i32
    %first = arith.cmpi eq, %round, %c0 : i32
    %r0 = arith.select %first, %s, %m : i32
    %r1 = arith.select %first, %m, %s : i32
    tile.store %pi, %r0 : !tile.ptr<i32>
    %iat2 = arith.addi %iat, %c2 : i32
    %pi2 = tile.addptr %ints, %iat2 : !tile.ptr<i32>, i32
    tile.store %pi2, %r1 : !tile.ptr<i32>
    %fat = arith.addi %frow, %round : i32
    %pf = tile.addptr %floats, %fat : !tile.ptr<f32>, i32
    tile.store %pf, %sf : !tile.ptr<f32>
    %pl = tile.addptr %longs, %fat : !tile.ptr<i64>, i32
    tile.store %pl, %sl : !tile.ptr<i64>
  }
  tile.return
}

// A program that leaves without reaching a grid reduction the others wait
// at is reported, not a hang.
// RUN: not tile-run %s --kernel early_exit --grid 3 --arg 'f32[3]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EARLY -DFILE=%s
// EARLY: [[FILE]]:[[@LINE+9]]:10: error: a program of this grid finished without reaching this tile.grid_reduce, where the others wait; every program of a grid must reach each grid reduction (on a GPU this hangs)
// EARLY: note: in program ({{[0-9]}}, 0, 0) of @early_exit, grid (3, 1, 1)
tile.func @early_exit(%out: !tile.ptr<f32>) attributes {tile.persistent} {
  %pid = tile.program_id x : i32
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %rest = arith.cmpi ne, %pid, %c0 : i32
  scf.if %rest {
    %p = tile.addptr %out, %pid : !tile.ptr<f32>, i32
    %s = tile.grid_reduce sum %one : f32
    tile.store %p, %s : !tile.ptr<f32>
  }
  tile.return
}

// Programs at different grid reductions: an error at the one that arrives
// second, with a note at the first.
// RUN: not tile-run %s --kernel diverge --grid 2 --arg 'f32[2]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIVERGE
// DIVERGE: error:
// DIVERGE: note: the other programs of its grid wait at this tile.grid_reduce; every program of a grid must reach the same grid reductions in the same order
tile.func @diverge(%out: !tile.ptr<f32>) attributes {tile.persistent} {
  %pid = tile.program_id x : i32
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %r = scf.if %first -> f32 {
    %a = tile.grid_reduce sum %one : f32
    scf.yield %a : f32
  } else {
    %b = tile.grid_reduce max %one : f32
    scf.yield %b : f32
  }
  %p = tile.addptr %out, %pid : !tile.ptr<f32>, i32
  tile.store %p, %r : !tile.ptr<f32>
  tile.return
}

// More programs than a grid reduction takes are refused.
// RUN: not tile-run %s --kernel early_exit --grid 8193 --arg 'f32[8193]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOO-MANY
// TOO-MANY: error: a kernel that reduces across the grid (tile.grid_reduce) runs at most 8192 programs, not 8193

// A persistent kernel of clusters of one (tile.cluster_size = 1) may reduce
// across its cluster and across the grid: the cluster reduction is each
// program's own value, even though the grid's programs run together (a
// review found it reading the grid's meeting instead). Program p stores
// its own p + 1 and the grid's sum of them, 1 + 2 + 3 = 6.
// RUN: tile-run %s --kernel clusters_of_one --grid 3 --arg 'i32[3x2]=zeros' --out 0=%t.one.npy > /dev/null
// RUN: %reference print %t.one.npy | FileCheck %s --check-prefix=ONE
// ONE:      i32[3x2]
// ONE-NEXT: 1 6
// ONE-NEXT: 2 6
// ONE-NEXT: 3 6
tile.func @clusters_of_one(%out: !tile.ptr<i32>)
    attributes {tile.persistent, tile.cluster_size = 1 : i32} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %pid = tile.program_id x : i32
  %v = arith.addi %pid, %c1 : i32
  %own = tile.cluster_reduce sum %v : i32
  %all = tile.grid_reduce sum %v : i32
  %row = arith.muli %pid, %c2 : i32
  %p0 = tile.addptr %out, %row : !tile.ptr<i32>, i32
  %p1 = tile.addptr %p0, %c1 : !tile.ptr<i32>, i32
  tile.store %p0, %own : !tile.ptr<i32>
  tile.store %p1, %all : !tile.ptr<i32>
  tile.return
}

// logsumexp merges (maximum, sum of exponentials) pairs: program p brings
// row p of `pairs` (four pairs), and every program stores the merged
// pairs. Pair 0 mixes finite maxima with a program of none (-inf, 0);
// pair 1 is every program's (-inf, 0), which merges to (-inf, 0); pair 2
// has a NaN maximum, which makes both results NaN; pair 3's sums are all
// -0.0, which stays -0.0 (the identity's sum is -0.0, as a sum's).
// Checked against float64: M = max m, S = sum s exp(m - M).
// RUN: %python -c "import numpy as np, sys; inf = np.inf; p = np.array([[1, 2, -inf, 0, 0, 1, 1, -0.0], [3, 1, -inf, 0, np.nan, 1, 2, -0.0], [-inf, 0, -inf, 0, 5, 1, 1, -0.0], [2, 4, -inf, 0, 7, 1, 0, -0.0]], np.float32); np.save(sys.argv[1], p)" %t.pairs.npy
// RUN: tile-run %s --kernel merge --grid 4 --arg 'f32[4x8]=zeros' --arg 'f32[4x8]=@%t.pairs.npy' \
// RUN:   --out 0=%t.merged.npy > /dev/null
// RUN: %python -c "import numpy as np, sys; p = np.load(sys.argv[1]).astype(np.float64); out = np.load(sys.argv[2]); m = p[:, 0].max(); s = (p[:, 1] * np.exp(p[:, 0] - m)).sum(); assert np.allclose(out[:, 0], m) and np.allclose(out[:, 1], s, rtol=1e-6), out; assert (out[:, 2] == -np.inf).all() and (out[:, 3] == 0).all(), out; assert np.isnan(out[:, 4:6]).all(), out; assert (out[:, 6] == 2).all() and (out[:, 7] == 0).all() and np.signbit(out[:, 7]).all(), out; print('merge OK', s)" %t.pairs.npy %t.merged.npy | FileCheck %s --check-prefix=MERGE
// MERGE: merge OK 2.74218
//
// A grid of one merges its pair with the identity, as the GPU does: a NaN
// maximum gives (NaN, NaN), a +inf one (+inf, NaN) (exp(inf - inf)), a
// program of no columns (-inf, 0) and a finite pair itself.
// RUN: %python -c "import numpy as np, sys; p = np.array([[np.nan, 1, np.inf, 2, -np.inf, 0, 3, 5]], np.float32); np.save(sys.argv[1], p)" %t.one.npy
// RUN: tile-run %s --kernel merge --grid 1 --arg 'f32[1x8]=zeros' --arg 'f32[1x8]=@%t.one.npy' \
// RUN:   --out 0=%t.merged1.npy > /dev/null
// RUN: %reference print %t.merged1.npy | FileCheck %s --check-prefix=MERGE1
// MERGE1:      f32[1x8]
// MERGE1-NEXT: nan nan inf nan -inf 0.0 3.0 5.0
tile.func @merge(%out: !tile.ptr<f32>, %pairs: !tile.ptr<f32>)
    attributes {tile.persistent} {
  %c8 = arith.constant 8 : i32
  %pid = tile.program_id x : i32
  %row = arith.muli %pid, %c8 : i32
  %in = tile.addptr %pairs, %row : !tile.ptr<f32>, i32
  %at = tile.addptr %out, %row : !tile.ptr<f32>, i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %p0 = tile.addptr %in, %c0 : !tile.ptr<f32>, i32
  %p1 = tile.addptr %in, %c1 : !tile.ptr<f32>, i32
  %p2 = tile.addptr %in, %c2 : !tile.ptr<f32>, i32
  %p3 = tile.addptr %in, %c3 : !tile.ptr<f32>, i32
  %p4 = tile.addptr %in, %c4 : !tile.ptr<f32>, i32
  %p5 = tile.addptr %in, %c5 : !tile.ptr<f32>, i32
  %p6 = tile.addptr %in, %c6 : !tile.ptr<f32>, i32
  %p7 = tile.addptr %in, %c7 : !tile.ptr<f32>, i32
  %m0 = tile.load %p0 : !tile.ptr<f32>
  %s0 = tile.load %p1 : !tile.ptr<f32>
  %m1 = tile.load %p2 : !tile.ptr<f32>
  %s1 = tile.load %p3 : !tile.ptr<f32>
  %m2 = tile.load %p4 : !tile.ptr<f32>
  %s2 = tile.load %p5 : !tile.ptr<f32>
  %m3 = tile.load %p6 : !tile.ptr<f32>
  %s3 = tile.load %p7 : !tile.ptr<f32>
  %r:8 = tile.grid_reduce logsumexp %m0, %s0, %m1, %s1, %m2, %s2, %m3, %s3
      : f32, f32, f32, f32, f32, f32, f32, f32
  %q0 = tile.addptr %at, %c0 : !tile.ptr<f32>, i32
  %q1 = tile.addptr %at, %c1 : !tile.ptr<f32>, i32
  %q2 = tile.addptr %at, %c2 : !tile.ptr<f32>, i32
  %q3 = tile.addptr %at, %c3 : !tile.ptr<f32>, i32
  %q4 = tile.addptr %at, %c4 : !tile.ptr<f32>, i32
  %q5 = tile.addptr %at, %c5 : !tile.ptr<f32>, i32
  %q6 = tile.addptr %at, %c6 : !tile.ptr<f32>, i32
  %q7 = tile.addptr %at, %c7 : !tile.ptr<f32>, i32
  tile.store %q0, %r#0 : !tile.ptr<f32>
  tile.store %q1, %r#1 : !tile.ptr<f32>
  tile.store %q2, %r#2 : !tile.ptr<f32>
  tile.store %q3, %r#3 : !tile.ptr<f32>
  tile.store %q4, %r#4 : !tile.ptr<f32>
  tile.store %q5, %r#5 : !tile.ptr<f32>
  tile.store %q6, %r#6 : !tile.ptr<f32>
  tile.store %q7, %r#7 : !tile.ptr<f32>
  tile.return
}

// One warp a program: every thread keeps its own lane's merge, so each
// lane must end with the same bits (both lanes of a butterfly step merge
// in one order; the multiplies and the add contract into an FMA, which is
// not commutative). Program p brings (m_p, s_p) and stores the merged S
// from each of its 32 threads (test/cuda/grid-reduce.test checks them
// equal on the GPU; here, against float64).
// RUN: %python -c "import numpy as np, sys; r = np.random.default_rng(5); p = np.stack([r.standard_normal(40) * 4, r.uniform(0.5, 3, 40)], 1).astype(np.float32); np.save(sys.argv[1], p)" %t.lanes.npy
// RUN: tile-run %s --kernel merge_lanes --grid 40 --arg 'f32[40x32]=zeros' --arg 'f32[40x2]=@%t.lanes.npy' \
// RUN:   --out 0=%t.lanes-out.npy > /dev/null
// RUN: %python -c "import numpy as np, sys; p = np.load(sys.argv[1]).astype(np.float64); out = np.load(sys.argv[2]); m = p[:, 0].max(); s = (p[:, 1] * np.exp(p[:, 0] - m)).sum(); assert np.allclose(out, s, rtol=1e-5), (out, s); assert (out == out[0, 0]).all(); print('lanes OK')" %t.lanes.npy %t.lanes-out.npy | FileCheck %s --check-prefix=LANES
// LANES: lanes OK
tile.func @merge_lanes(%out: !tile.ptr<f32>, %pairs: !tile.ptr<f32>)
    attributes {tile.persistent, tile.num_warps = 1 : i32} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c32 = arith.constant 32 : i32
  %pid = tile.program_id x : i32
  %row = arith.muli %pid, %c2 : i32
  %pm = tile.addptr %pairs, %row : !tile.ptr<f32>, i32
  %ps = tile.addptr %pm, %c1 : !tile.ptr<f32>, i32
  %m = tile.load %pm : !tile.ptr<f32>
  %s = tile.load %ps : !tile.ptr<f32>
  %total:2 = tile.grid_reduce logsumexp %m, %s : f32, f32
  %lanes = tile.range 0, 32 : tensor<32xi32>
  %first = arith.muli %pid, %c32 : i32
  %base = tile.addptr %out, %first : !tile.ptr<f32>, i32
  %bases = tile.splat %base : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ptrs = tile.addptr %bases, %lanes : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %values = tile.splat %total#1 : f32 -> tensor<32xf32>
  tile.store %ptrs, %values : tensor<32x!tile.ptr<f32>>
  tile.return
}
