// convert-tilegpu-to-llvm of tile.grid_reduce with grid-reduce-leader (the
// default; grid.mlir has the protocol without it): the first warp of
// program 0 alone combines every program's slots, and its lane 0 posts the
// results, each word beside the reduction's tag in one 8-byte
// store, into the buffer's result slots (after both buffers' program slots:
// 16 + 2 x 8192 x 8 bytes for one word, then buffer x words x 8); the other
// programs' first warps load those until their tags are the reduction's.
// With grid-reduce-backoff, a poll that found a tag not yet the reduction's
// sleeps before the next (in both loops).
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm="grid-reduce-leader=true grid-reduce-backoff=200" | FileCheck %s
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm="grid-reduce-leader=false" | FileCheck %s --check-prefix=ALL
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm | FileCheck %s --check-prefix=DEFAULT

// One word: 16 + 2 buffers x (8192 slots + a result slot) x 8 bytes + 2048.
// CHECK-LABEL: llvm.mlir.global external @reduce_sum_grid_reduce()
// CHECK-SAME: !llvm.array<133152 x i8>
// CHECK: llvm.func @reduce_sum
// CHECK: %[[BX:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: %[[PID:.*]] = llvm.add %{{.*}}, %[[BX]] : i32
// CHECK: %[[TAG:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK: %[[BUFFER:.*]] = llvm.and %[[TAG]], %{{.*}} : i32
// The program's slot, as without the option.
// CHECK: st.relaxed.gpu.global.b64 [tg_slot+16], tg_pair;
// The result slots' address (buffer x words x 8 bytes past the first), and
// the leader's test of the program id.
// CHECK: %[[WORDS:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[BUFFER_WORDS:.*]] = llvm.mul %[[BUFFER]], %[[WORDS]] : i32
// CHECK: %[[WIDE:.*]] = llvm.zext %[[BUFFER_WORDS]] : i32 to i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[WIDE]], %{{.*}} : i64
// CHECK: %[[FIRST:.*]] = llvm.mlir.constant(131088 : i64) : i64
// CHECK: %[[OFFSET:.*]] = llvm.add %[[BYTES]], %[[FIRST]] : i64
// CHECK: %[[RESULTS:.*]] = llvm.add %{{.*}}, %[[OFFSET]] : i64
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[LEADS:.*]] = llvm.icmp "eq" %[[PID]], %[[ZERO]] : i32
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
// CHECK: "{\0A.reg .b64 tg_pair;\0Amov.b64 tg_pair, {$2, $1};\0Ast.relaxed.gpu.global.b64 [$0+0], tg_pair;\0A}", "l,r,r" %[[RESULTS]], %[[TAG]], %[[WORD]]
// CHECK: llvm.br ^[[MERGE:.*]](%[[TOTAL]] : f32)
// The others poll the result slot until its tag is the reduction's.
// CHECK: ^[[POLL]]:
// CHECK-NEXT: llvm.br ^[[LOOP:.*]]
// CHECK: ^[[LOOP]]:
// CHECK-NEXT: %[[POLLED:.*]] = llvm.inline_asm {{.*}}ld.relaxed.gpu.global.b64 tg_v0, [$2+0];{{.*}}setp.eq.and.u32 tg_ready, tg_t, $3, tg_ready;{{.*}}selp.u32 $1, 1, 0, tg_ready;{{.*}}@!tg_ready nanosleep.u32 200;{{.*}}"=r,=r,l,r" %[[RESULTS]], %[[TAG]]
// CHECK-NEXT: %[[POLLED_WORD:.*]] = llvm.extractvalue %[[POLLED]][0]
// CHECK-NEXT: %[[READY:.*]] = llvm.extractvalue %[[POLLED]][1]
// CHECK-NEXT: %[[NO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[IS_READY:.*]] = llvm.icmp "ne" %[[READY]], %[[NO]] : i32
// CHECK-NEXT: llvm.cond_br %[[IS_READY]], ^[[DONE:.*]], ^[[LOOP]]
// CHECK: ^[[DONE]]:
// CHECK-NEXT: %[[POLLED_TOTAL:.*]] = llvm.bitcast %[[POLLED_WORD]] : i32 to f32
// CHECK-NEXT: llvm.br ^[[MERGE]](%[[POLLED_TOTAL]] : f32)
// Then, in every program, the epoch (thread 0 of program 0), and the first
// warp's lane 0 leaves the result in shared memory for the block.
// CHECK: ^[[MERGE]](%[[RESULT:.*]]: f32):
// CHECK: @tg_p st.relaxed.gpu.global.u32 [$0], $2;
// CHECK: llvm.store %[[RESULT]], %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
tile.func @reduce_sum(%out: !tile.ptr<f32>, %v: f32)
    attributes {tilegpu.num_warps = 4 : i32, tile.persistent} {
  %r = tile.grid_reduce sum %v : f32
  tile.store %out, %r : !tile.ptr<f32>
  tile.return
}

// Two reductions, the widest of three words (an i64 and an f32), on one
// warp: both take result slots spaced for three words (16 + 2 x 3 x 8192 x
// 8 bytes on), the leader posts three words and the others poll three, the
// i64 rebuilt from its two; the one-word maximum posts and polls one.
// CHECK-LABEL: llvm.mlir.global external @two_grid_reduce()
// CHECK-SAME: !llvm.array<395328 x i8>
// CHECK: llvm.func @two
// CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[THREE]] : i32
// CHECK: llvm.mlir.constant(393232 : i64) : i64
// CHECK: st.relaxed.gpu.global.b64 [$0+0], tg_pair;{{.*}}st.relaxed.gpu.global.b64 [$0+8], tg_pair;{{.*}}st.relaxed.gpu.global.b64 [$0+16], tg_pair;\0A}", "l,r,r,r,r"
// CHECK: ld.relaxed.gpu.global.b64 tg_v0, [$4+0];\0Ald.relaxed.gpu.global.b64 tg_v1, [$4+8];\0Ald.relaxed.gpu.global.b64 tg_v2, [$4+16];{{.*}}"=r,=r,=r,=r,l,r"
// CHECK: llvm.shl
// CHECK: %[[THREE2:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[THREE2]] : i32
// CHECK: llvm.mlir.constant(393232 : i64) : i64
// CHECK: st.relaxed.gpu.global.b64 [$0+0], tg_pair;\0A}", "l,r,r"
// CHECK: ld.relaxed.gpu.global.b64 tg_v0, [$2+0];{{.*}}"=r,=r,l,r"
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tile.func @two(%out: !tile.ptr<f32>, %out64: !tile.ptr<i64>, %x: i64, %y: f32)
    attributes {tilegpu.num_warps = 1 : i32, tile.persistent} {
  %a, %b = tile.grid_reduce sum %x, %y : i64, f32
  %c = tile.grid_reduce max %b : f32
  tile.store %out, %c : !tile.ptr<f32>
  tile.store %out64, %a : !tile.ptr<i64>
  tile.return
}

// By default: the leader's protocol (the result posted), no poll sleeps.
// DEFAULT-LABEL: llvm.func @reduce_sum
// DEFAULT-NOT: nanosleep
// DEFAULT: st.relaxed.gpu.global.b64 [$0+0], tg_pair
// DEFAULT-NOT: nanosleep
// DEFAULT: llvm.return

// With grid-reduce-leader=false: no result slots are posted, no poll
// sleeps.
// ALL-LABEL: llvm.func @reduce_sum
// ALL-NOT: nanosleep
// ALL-NOT: [$0+0], tg_pair
// ALL: llvm.return
