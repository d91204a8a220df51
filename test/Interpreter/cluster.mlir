// Kernels that run in clusters on the interpreter: the programs of a
// cluster run together and meet at each tile.cluster_reduce; the cluster
// ops give each program its rank, its cluster and the cluster count.

// A grid of 8 programs in clusters of 4 along x, 2 along y. Each program
// writes its rank, cluster id, cluster count, and the cluster's max and
// sum of (10 x program id along x + rank + 1): 1, 12, 23, 34 in cluster 0
// (max 34, sum 70) and 41, 52, 63, 74 in cluster 1 (max 74, sum 230),
// reduced twice in a loop of 2 rounds
// (the second round adds 100): the same in every program of a cluster.
// RUN: tile-run %s --kernel ranks --target=cpu --grid 8,2 --arg 'i32[16x7]=fill:-1' \
// RUN:   --out 0=%t.ranks.npy | FileCheck %s --check-prefix=RANKS-LAUNCH
// RUN: %reference print %t.ranks.npy | FileCheck %s --check-prefix=RANKS
// RANKS-LAUNCH: @ranks ran on the CPU interpreter: grid 8x2 (16 programs)
// RANKS:      i32[16x7]
// RANKS-NEXT: 0 0 2 34 70 134 470
// RANKS-NEXT: 1 0 2 34 70 134 470
// RANKS-NEXT: 2 0 2 34 70 134 470
// RANKS-NEXT: 3 0 2 34 70 134 470
// RANKS-NEXT: 0 1 2 74 230 174 630
// RANKS-NEXT: 1 1 2 74 230 174 630
// RANKS-NEXT: 2 1 2 74 230 174 630
// RANKS-NEXT: 3 1 2 74 230 174 630
// RANKS-NEXT: 0 0 2 34 70 134 470
tile.func @ranks(%out: !tile.ptr<i32>) attributes {tile.cluster_size = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c10 = arith.constant 10 : i32
  %c100 = arith.constant 100 : i32
  %x = tile.program_id x : i32
  %y = tile.program_id y : i32
  %rank = tile.cluster_rank : i32
  %cluster = tile.cluster_id : i32
  %count = tile.num_clusters : i32
  %row_y = arith.muli %y, %c8 : i32
  %row = arith.addi %row_y, %x : i32
  %base = arith.muli %row, %c7 : i32
  %v0 = arith.muli %x, %c10 : i32
  %v1 = arith.addi %v0, %rank : i32
  %v = arith.addi %v1, %c1 : i32
  %fields = tile.addptr %out, %base : !tile.ptr<i32>, i32
  %p1 = tile.addptr %fields, %c1 : !tile.ptr<i32>, i32
  %p2 = tile.addptr %fields, %c2 : !tile.ptr<i32>, i32
  tile.store %fields, %rank : !tile.ptr<i32>
  tile.store %p1, %cluster : !tile.ptr<i32>
  tile.store %p2, %count : !tile.ptr<i32>
  scf.for %round = %c0 to %c2 step %c1 : i32 {
    %bonus = arith.muli %round, %c100 : i32
    %w = arith.addi %v, %bonus : i32
    %m = tile.cluster_reduce max %w : i32
    %s = tile.cluster_reduce sum %w : i32
    %c3 = arith.constant 3 : i32
    %off = arith.muli %round, %c2 : i32
    %at = arith.addi %off, %c3 : i32
    %pm = tile.addptr %fields, %at : !tile.ptr<i32>, i32
    %at1 = arith.addi %at, %c1 : i32
    %ps = tile.addptr %fields, %at1 : !tile.ptr<i32>, i32
    tile.store %pm, %m : !tile.ptr<i32>
    tile.store %ps, %s : !tile.ptr<i32>
  }
  tile.return
}

// A grid that is not a multiple of the cluster size is refused.
// RUN: not tile-run %s --kernel ranks --target=cpu --grid 6 --arg 'i32[16x7]=fill:-1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GRID
// GRID: error: @ranks runs in clusters of 4 programs along x ('tile.cluster_size'); the grid's 6 programs along x are not a multiple of it

// A program that leaves without reaching a cluster reduction the others
// wait at is reported, not a hang.
// RUN: not tile-run %s --kernel early_exit --target=cpu --grid 2 --arg 'f32[2]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EARLY -DFILE=%s
// EARLY: [[FILE]]:[[@LINE+9]]:10: error: a program of this cluster finished without reaching this tile.cluster_reduce, where the others wait; every program of a cluster must reach each cluster reduction (on a GPU this hangs)
// EARLY: note: in program (0, 0, 0) of @early_exit, grid (2, 1, 1)
tile.func @early_exit(%out: !tile.ptr<f32>) attributes {tile.cluster_size = 2 : i32} {
  %rank = tile.cluster_rank : i32
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %first = arith.cmpi eq, %rank, %c0 : i32
  scf.if %first {
    %p = tile.addptr %out, %rank : !tile.ptr<f32>, i32
    %s = tile.cluster_reduce sum %one : f32
    tile.store %p, %s : !tile.ptr<f32>
  }
  tile.return
}

// Programs of one cluster at different cluster reductions: an error at the
// one that arrives second, with a note at the first.
// RUN: not tile-run %s --kernel diverge --target=cpu --grid 2 --arg 'f32[2]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIVERGE
// DIVERGE: error:
// DIVERGE: note: the other programs of its cluster wait at this tile.cluster_reduce; every program of a cluster must reach the same cluster reductions in the same order
tile.func @diverge(%out: !tile.ptr<f32>) attributes {tile.cluster_size = 2 : i32} {
  %rank = tile.cluster_rank : i32
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %first = arith.cmpi eq, %rank, %c0 : i32
  %r = scf.if %first -> f32 {
    %a = tile.cluster_reduce sum %one : f32
    scf.yield %a : f32
  } else {
    %b = tile.cluster_reduce max %one : f32
    scf.yield %b : f32
  }
  %p = tile.addptr %out, %rank : !tile.ptr<f32>, i32
  tile.store %p, %r : !tile.ptr<f32>
  tile.return
}

// Several values in one reduction, of different types, each reduced on its
// own: program x of a cluster of 2 along x contributes v = x + 1 as i32,
// v / 4 as f32 and 2^40 x v as i64 (the i64 past 32 bits); each gets the
// cluster's sums (1 + 2 = 3, 0.75, 3 x 2^40 = 3298534883328) and, from a
// second reduction of two values, the maxima (2, 0.5).
// RUN: tile-run %s --kernel several --target=cpu --grid 2 --arg 'i32[2x2]=zeros' \
// RUN:   --arg 'f32[2x2]=zeros' --arg 'i64[2]=zeros' --out 0=%t.i.npy --out 1=%t.f.npy \
// RUN:   --out 2=%t.l.npy
// RUN: %reference print %t.i.npy | FileCheck %s --check-prefix=SEVERAL-I
// RUN: %reference print %t.f.npy | FileCheck %s --check-prefix=SEVERAL-F
// RUN: %reference print %t.l.npy | FileCheck %s --check-prefix=SEVERAL-L
// SEVERAL-I:      i32[2x2]
// SEVERAL-I-NEXT: 3 2
// SEVERAL-I-NEXT: 3 2
// SEVERAL-F:      f32[2x2]
// SEVERAL-F-NEXT: 0.75 0.5
// SEVERAL-F-NEXT: 0.75 0.5
// SEVERAL-L:      i64[2]
// SEVERAL-L-NEXT: 3298534883328 3298534883328
tile.func @several(%ints: !tile.ptr<i32>, %floats: !tile.ptr<f32>, %longs: !tile.ptr<i64>)
    attributes {tile.cluster_size = 2 : i32} {
  %x = tile.program_id x : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %quarter = arith.constant 0.25 : f32
  %shift = arith.constant 40 : i64
  %v = arith.addi %x, %c1 : i32
  %vf0 = arith.sitofp %v : i32 to f32
  %vf = arith.mulf %vf0, %quarter : f32
  %vl0 = arith.extsi %v : i32 to i64
  %vl = arith.shli %vl0, %shift : i64
  %si, %sf, %sl = tile.cluster_reduce sum %v, %vf, %vl : i32, f32, i64
  %mi, %mf = tile.cluster_reduce max %v, %vf : i32, f32
  %at = arith.muli %x, %c2 : i32
  %at1 = arith.addi %at, %c1 : i32
  %pi = tile.addptr %ints, %at : !tile.ptr<i32>, i32
  %pi1 = tile.addptr %ints, %at1 : !tile.ptr<i32>, i32
  %pf = tile.addptr %floats, %at : !tile.ptr<f32>, i32
  %pf1 = tile.addptr %floats, %at1 : !tile.ptr<f32>, i32
  %pl = tile.addptr %longs, %x : !tile.ptr<i64>, i32
  tile.store %pi, %si : !tile.ptr<i32>
  tile.store %pi1, %mi : !tile.ptr<i32>
  tile.store %pf, %sf : !tile.ptr<f32>
  tile.store %pf1, %mf : !tile.ptr<f32>
  tile.store %pl, %sl : !tile.ptr<i64>
  tile.return
}
