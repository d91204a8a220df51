// convert-tilegpu-to-llvm on kernels that run in clusters: the cluster's
// shape on the kernel, the cluster registers, and tile.cluster_reduce
// through distributed shared memory with mbarriers.
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm --split-input-file | FileCheck %s

// A kernel of clusters of 4 (.reqnctapercluster 4, 1, 1) starts with each
// reduction's round counter (zeroed), thread 0 initializing its two
// mbarriers (one arrival each) and fencing them for the cluster, then a
// cluster barrier (no block sends into one that has not started). The
// reduction: the round's buffer (round & 1: mbarrier at byte 0 or 8, slots
// from byte 16, 16 bytes each) and phase parity ((round >> 1) & 1); thread 0
// arrives expecting 4 x 4 bytes; threads 0 to 3 send the value into slot
// `rank` of block `tid` with st.async, which signals that block's mbarrier
// (both mapped to the shared::cluster address space 7); every thread waits
// for the phase, then combines the four local slots in order of rank. No
// cluster barrier and no block barrier: it runs once.
// CHECK-LABEL: llvm.mlir.global internal @reduce_once_shared()
// CHECK-SAME: !llvm.array<48 x i8>
// CHECK-LABEL: llvm.func @reduce_once
// CHECK-SAME: nvvm.cluster_dim = array<i32: 4, 1, 1>
// CHECK: %[[COUNTER:.*]] = llvm.alloca %{{.*}} x i32
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: llvm.store %[[ZERO]], %[[COUNTER]]
// CHECK: %[[TID0:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID0]]
// CHECK: llvm.cond_br %[[FIRST]], ^[[INIT:.*]], ^[[START:.*]]
// CHECK: ^[[INIT]]:
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: ^[[START]]:
// CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: %[[ROUND:.*]] = llvm.load %[[COUNTER]] : !llvm.ptr -> i32
// CHECK: %[[NEXT:.*]] = llvm.add %[[ROUND]]
// CHECK-NEXT: llvm.store %[[NEXT]], %[[COUNTER]]
// CHECK: %[[BUFFER:.*]] = llvm.and %[[ROUND]]
// CHECK: %[[HALF:.*]] = llvm.lshr %[[ROUND]]
// CHECK: %[[PARITY:.*]] = llvm.and %[[HALF]]
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: llvm.icmp "eq" %[[TID]]
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(16 : i32)
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BARRIER:.*]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[SENDS:.*]] = llvm.icmp "ult" %[[TID]], %{{.*}} : i32
// CHECK: llvm.cond_br %[[SENDS]], ^[[SEND:.*]], ^[[WAIT:.*]]
// CHECK: ^[[SEND]]:
// CHECK-NEXT: %[[REMOTE_BARRIER:.*]] = nvvm.mapa %[[BARRIER]], %[[TID]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.mul %[[RANK]]
// CHECK: %[[REMOTE_SLOT:.*]] = nvvm.mapa %{{.*}}, %[[TID]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: %[[WORD:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT: %[[SLOT_ADDRESS:.*]] = llvm.ptrtoint %[[REMOTE_SLOT]]
// CHECK-NEXT: %[[BARRIER_ADDRESS:.*]] = llvm.ptrtoint %[[REMOTE_BARRIER]]
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}"st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l" %[[SLOT_ADDRESS]], %[[WORD]], %[[BARRIER_ADDRESS]]
// CHECK-NOT: st.async
// CHECK: ^[[WAIT]]:
// CHECK: llvm.inline_asm has_side_effects {{.*}}mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;{{.*}}"l,r" %{{.*}}, %[[PARITY]]
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.cluster
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tile.func @reduce_once(%out: !tile.ptr<f32>, %x: f32)
    attributes {tilegpu.num_warps = 4 : i32, tile.cluster_size = 4 : i32} {
  %m = tile.cluster_reduce max %x : f32
  tile.store %out, %m : !tile.ptr<f32>
  tile.return
}

// -----

// In a loop with no other operation that has a block barrier, a block
// barrier before the sends: no block sends round k + 1 before all its
// threads have read round k's slots. The cluster ids are the cluster
// registers; i32 values are sent as they are.
// CHECK-LABEL: llvm.func @reduce_in_loop
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: nvvm.read.ptx.sreg.clusterid.x
// CHECK: nvvm.read.ptx.sreg.nclusterid.x
// CHECK: llvm.lshr
// CHECK: nvvm.barrier0
// CHECK-NEXT: nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mapa
// CHECK-NOT: llvm.bitcast
// CHECK: st.async.shared::cluster.mbarrier::complete_tx::bytes.b32
// CHECK: mbarrier.try_wait.parity
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NEXT: llvm.add
// CHECK-NOT: nvvm.cluster
// CHECK: llvm.return
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

// Two cluster reductions in a loop, each with its own counter, mbarriers
// and slots (two pairs of mbarriers initialized); a cluster reduction's
// wait is no block barrier, so each has its own. f16 is exchanged as f32.
// CHECK-LABEL: llvm.func @two_in_loop
// CHECK: llvm.alloca
// CHECK: llvm.alloca
// CHECK-COUNT-4: nvvm.mbarrier.init
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: nvvm.barrier0
// CHECK: st.async
// CHECK: mbarrier.try_wait.parity
// CHECK-COUNT-2: llvm.load
// CHECK-NEXT: llvm.intr.maximum
// CHECK-NEXT: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK: nvvm.barrier0
// CHECK: st.async
// CHECK: mbarrier.try_wait.parity
// CHECK-COUNT-2: llvm.load
// CHECK-NEXT: llvm.fadd
// CHECK-NOT: nvvm.cluster
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

// A block reduction beside a cluster reduction in a loop: the block
// reduction's barrier stands for the cluster reduction's, and the cluster
// reduction's wait is no barrier for the block reduction, which gets a
// second barrier after reading its scratch (two in all, none in the
// cluster reduction).
// CHECK-LABEL: llvm.func @block_and_cluster
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: st.async
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b8 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
tile.func @block_and_cluster(%out: !tile.ptr<f32>, %v: f32, %n: i32)
    attributes {tilegpu.num_warps = 8 : i32, tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tile.splat %v : f32 -> tensor<256xf32, #b8>
    %r = tile.reduce sum %x axis 0 : tensor<256xf32, #b8> -> f32
    %s = tile.cluster_reduce sum %r : f32
    %p = tile.addptr %out, %i : !tile.ptr<f32>, i32
    tile.store %p, %s : !tile.ptr<f32>
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

// -----

// Cluster reductions in branches a program runs one of still take space of
// their own (96 bytes, not 48): their mbarriers are initialized at the
// kernel's entry, and the cluster's other blocks write into their slots,
// so they are live from the entry on.
// CHECK-LABEL: llvm.mlir.global internal @branches_shared()
// CHECK-SAME: !llvm.array<96 x i8>
tile.func @branches(%out: !tile.ptr<f32>, %x: f32, %c: i1)
    attributes {tilegpu.num_warps = 4 : i32, tile.cluster_size = 4 : i32} {
  %r = scf.if %c -> (f32) {
    %m = tile.cluster_reduce max %x : f32
    scf.yield %m : f32
  } else {
    %s = tile.cluster_reduce sum %x : f32
    scf.yield %s : f32
  }
  tile.store %out, %r : !tile.ptr<f32>
  tile.return
}

// -----

// Several values in one reduction share its round: one mbarrier phase
// expecting all their bytes (2 programs x (4 + 8) = 24), slots 8 bytes apart
// (the widest value's), value-major (2 slots of f32, then 2 of i64: 32 bytes
// a buffer, so 16 + 2 x 32 = 80 bytes of scratch), one send of each value
// by threads 0 and 1, one wait, then each value's slots combined in order
// of rank.
// CHECK-LABEL: llvm.mlir.global internal @reduce_several_shared()
// CHECK-SAME: !llvm.array<80 x i8>
// CHECK-LABEL: llvm.func @reduce_several
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %[[X:.*]]: f32, %[[L:.*]]: i64)
// CHECK: %[[BUFFER:.*]] = llvm.and
// CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(32 : i32)
// CHECK-NEXT: llvm.mul %[[BUFFER]], %[[STRIDE]]
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(24 : i32)
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]]
// CHECK-NOT: nvvm.mbarrier.arrive
// CHECK: nvvm.mapa
// CHECK: %[[SLOT_BYTES:.*]] = llvm.mlir.constant(8 : i32)
// CHECK-NEXT: llvm.mul %{{.*}}, %[[SLOT_BYTES]]
// CHECK: llvm.bitcast %[[X]] : f32 to i32
// CHECK: st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l"
// CHECK: llvm.mlir.constant(16 : i32)
// CHECK: st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [$0], $1, [$2];", "l,l,l" %{{.*}}, %[[L]], %{{.*}}
// CHECK-NOT: st.async
// CHECK: mbarrier.try_wait.parity
// CHECK-NOT: mbarrier.try_wait.parity
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.mlir.constant(8 : i32)
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[SUM:.*]] = llvm.fadd
// CHECK: llvm.mlir.constant(16 : i32)
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> i64
// CHECK: llvm.mlir.constant(24 : i32)
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> i64
// CHECK-NEXT: %[[LSUM:.*]] = llvm.add
// CHECK: llvm.insertelement %[[SUM]]
// CHECK: llvm.insertelement %[[LSUM]]
tile.func @reduce_several(%out: !tile.ptr<f32>, %lout: !tile.ptr<i64>, %x: f32, %l: i64)
    attributes {tilegpu.num_warps = 4 : i32, tile.cluster_size = 2 : i32} {
  %s, %t = tile.cluster_reduce sum %x, %l : f32, i64
  tile.store %out, %s : !tile.ptr<f32>
  tile.store %lout, %t : !tile.ptr<i64>
  tile.return
}
