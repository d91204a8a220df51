// convert-tilegpu-to-llvm on kernels that run in clusters: the cluster's
// shape on the kernel, the cluster registers, and tile.cluster_reduce
// through distributed shared memory.
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm --split-input-file | FileCheck %s

// A kernel of clusters of 4 (.reqnctapercluster 4, 1, 1) starts with a
// cluster barrier (no block writes into one that has not started). The
// reduction: threads 0 to 3 write the value into slot `rank` of block `tid`
// (mapa to the shared::cluster address space 7, then a store), the cluster
// barrier (arrive: release, wait: acquire), then the four local slots
// combined in order of rank. Run once, it needs no second barrier.
// CHECK-LABEL: llvm.func @reduce_once
// CHECK-SAME: nvvm.cluster_dim = array<i32: 4, 1, 1>
// CHECK: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WRITES:.*]] = llvm.icmp "ult" %[[TID]], %{{.*}} : i32
// CHECK: llvm.cond_br %[[WRITES]], ^[[WRITE:.*]], ^[[AFTER:.*]]
// CHECK: ^[[WRITE]]:
// CHECK: %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %[[TID]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.store %{{.*}}, %[[REMOTE]] {alignment = 4 : i64} : f32, !llvm.ptr<7>
// CHECK: llvm.br ^[[AFTER]]
// CHECK: ^[[AFTER]]:
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.cluster
// CHECK: llvm.return
tile.func @reduce_once(%out: !tile.ptr<f32>, %x: f32)
    attributes {tilegpu.num_warps = 4 : i32, tile.cluster_size = 4 : i32} {
  %m = tile.cluster_reduce max %x : f32
  tile.store %out, %m : !tile.ptr<f32>
  tile.return
}

// -----

// In a loop with no other cluster reduction, the slots are read before the
// next round writes them again: a second cluster barrier after the reads.
// The cluster ids are the cluster registers.
// CHECK-LABEL: llvm.func @reduce_in_loop
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: nvvm.read.ptx.sreg.clusterid.x
// CHECK: nvvm.read.ptx.sreg.nclusterid.x
// CHECK: nvvm.mapa
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NEXT: llvm.add
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
tile.func @reduce_in_loop(%out: !tile.ptr<i32>, %n: i32)
    attributes {tilegpu.num_warps = 1 : i32, tile.cluster_size = 2 : i32} {
  %rank = tile.cluster_rank : i32
  %start = tile.cluster_id : i32
  %step = tile.num_clusters : i32
  scf.for %i = %start to %n step %step : i32 {
    %s = tile.cluster_reduce sum %rank : i32
    %p = tile.addptr %out, %i : !tile.ptr<i32>, i32
    tile.store %p, %s : !tile.ptr<i32>
  }
  tile.return
}

// -----

// Two cluster reductions in one block stand for each other's second
// barrier. f16 is exchanged as f32.
// CHECK-LABEL: llvm.func @two_in_loop
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-COUNT-2: llvm.load
// CHECK-NEXT: llvm.intr.maximum
// CHECK-NEXT: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK-NOT: nvvm.cluster.wait
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-COUNT-2: llvm.load
// CHECK-NEXT: llvm.fadd
// CHECK-NOT: nvvm.cluster.wait
// CHECK: llvm.return
tile.func @two_in_loop(%out: !tile.ptr<f16>, %x: f16, %n: i32)
    attributes {tilegpu.num_warps = 1 : i32, tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %m = tile.cluster_reduce max %x : f16
    %s = tile.cluster_reduce sum %m : f16
    %p = tile.addptr %out, %i : !tile.ptr<f16>, i32
    tile.store %p, %s : !tile.ptr<f16>
  }
  tile.return
}

// -----

// Clusters of one: no cluster at all (no nvvm.cluster_dim, no barrier): the
// rank is 0, the cluster id and count are the program's, and the reduction
// is its operand. Such a kernel runs on any GPU.
// CHECK-LABEL: llvm.func @single
// CHECK-NOT: cluster
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.nctaid.x
// CHECK-NOT: cluster
// CHECK: llvm.return
tile.func @single(%out: !tile.ptr<i32>)
    attributes {tilegpu.num_warps = 1 : i32, tile.cluster_size = 1 : i32} {
  %rank = tile.cluster_rank : i32
  %id = tile.cluster_id : i32
  %count = tile.num_clusters : i32
  %a = arith.addi %rank, %id : i32
  %b = arith.addi %a, %count : i32
  %s = tile.cluster_reduce sum %b : i32
  tile.store %out, %s : !tile.ptr<i32>
  tile.return
}
