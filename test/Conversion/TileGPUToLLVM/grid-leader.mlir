// convert-tilegpu-to-llvm of tile.grid_reduce with grid-reduce-leader: the
// first warp of program 0 alone combines every program's slots, and its lane
// 0 posts the results, each word beside the reduction's tag in one 8-byte
// store, into the buffer's result slots (after both buffers' program slots:
// 16 + 2 x 8192 x 8 bytes for one word, then buffer x words x 8); the other
// programs' first warps load those until their tags are the reduction's.
// With grid-reduce-backoff, a poll that found a tag not yet the reduction's
// sleeps before the next (in both loops).
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm="grid-reduce-leader=true grid-reduce-backoff=200" | FileCheck %s
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm | FileCheck %s --check-prefix=ALL

// One word: 16 + 2 buffers x (8192 slots + a result slot) x 8 bytes + 2048.
// CHECK-LABEL: llvm.mlir.global external @reduce_sum_grid_reduce()
// CHECK-SAME: !llvm.array<133152 x i8>
// CHECK: llvm.func @reduce_sum
// The program's slot, as without the option.
// CHECK: st.relaxed.gpu.global.b64 [tg_slot+16], tg_pair;
// The result slots' address, and the leader's test.
// CHECK: %[[BUFFER_WORDS:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
// CHECK: %[[WIDE:.*]] = llvm.zext %[[BUFFER_WORDS]] : i32 to i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[WIDE]], %{{.*}} : i64
// CHECK: %[[FIRST:.*]] = llvm.mlir.constant(131088 : i64) : i64
// CHECK: %[[OFFSET:.*]] = llvm.add %[[BYTES]], %[[FIRST]] : i64
// CHECK: %[[RESULTS:.*]] = llvm.add %{{.*}}, %[[OFFSET]] : i64
// CHECK: %[[LEADS:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: llvm.cond_br %[[LEADS]], ^[[COMBINE:.*]], ^[[POLL:bb[0-9]+]]
// CHECK: ^[[COMBINE]]:
// The leader's combining loop sleeps after a round not ready.
// CHECK: ld.relaxed.gpu.global.b64 tg_v0, [$9+16];
// CHECK-SAME: @!tg_ready nanosleep.u32 200;
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// Lane 0 posts the result with the tag.
// CHECK: %[[WORD:.*]] = llvm.bitcast %[[TOTAL:.*]] : f32 to i32
// CHECK: llvm.icmp "eq"
// CHECK-NEXT: llvm.cond_br
// CHECK: "{\0A.reg .b64 tg_pair;\0Amov.b64 tg_pair, {$2, $1};\0Ast.relaxed.gpu.global.b64 [$0+0], tg_pair;\0A}", "l,r,r" %[[RESULTS]], %[[TAG:[0-9]+]], %[[WORD]]
// CHECK: llvm.br ^[[MERGE:.*]](%[[TOTAL]] : f32)
// The others poll the result slot.
// CHECK: ^[[POLL]]:
// CHECK-NEXT: llvm.br ^[[LOOP:.*]]
// CHECK: ^[[LOOP]]:
// CHECK-NEXT: %[[POLLED:.*]] = llvm.inline_asm {{.*}}ld.relaxed.gpu.global.b64 tg_v0, [$2+0];{{.*}}setp.eq.and.u32 tg_ready, tg_t, $3, tg_ready;{{.*}}@!tg_ready nanosleep.u32 200;{{.*}}"=r,=r,l,r" %[[RESULTS]], %[[TAG]]
// CHECK: %[[READY:.*]] = llvm.extractvalue %[[POLLED]][1]
// CHECK: llvm.cond_br %{{.*}}, ^[[DONE:.*]], ^[[LOOP]]
// CHECK: ^[[DONE]]:
// CHECK: llvm.br ^[[MERGE]](%{{.*}} : f32)
// CHECK: ^[[MERGE]](%{{.*}}: f32):

// Without the options: no result slots are posted, no poll sleeps.
// ALL-LABEL: llvm.func @reduce_sum
// ALL-NOT: nanosleep
// ALL-NOT: [$0+0], tg_pair
// ALL: llvm.return
tile.func @reduce_sum(%out: !tile.ptr<f32>, %v: f32)
    attributes {tilegpu.num_warps = 4 : i32, tile.persistent} {
  %r = tile.grid_reduce sum %v : f32
  tile.store %out, %r : !tile.ptr<f32>
  tile.return
}
