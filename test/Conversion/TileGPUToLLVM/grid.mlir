// convert-tilegpu-to-llvm of tile.grid_reduce: the kernel's workspace in
// global memory (visible, zeroed at load, sized for its widest reduction),
// the tag counter set from the workspace's epoch at the kernel's start,
// thread 0 storing each word with the reduction's tag, and the first warp
// reading the slots until their tags are the reduction's.
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm="grid-reduce-leader=false" | FileCheck %s

// Two values (f32 and bf16, which travels as f32), one word each: 16 + 2
// buffers x 2 words x (8192 slots + a result slot) x 8 bytes + 2048 bytes
// of padding. The
// kernel gets .maxnreg at its occupancy's registers (65536 / 128 threads,
// at most 255). Its start reads the epoch (byte 0) into the tag counter.
// The program id and count span x, y and z; more than 8192 programs trap
// (counted in 64 bits, so that a product past 2^32 traps too).
// The reduction's tag is the counter plus 1, or 2 where that wraps to 0
// (the tag of slots never written), stored back; its buffer is
// tag & 1, 2 x 8192 slots long. After a block barrier thread 0 stores each
// word beside the tag, in one 8-byte store, into slot `pid` of the buffer
// (word j at byte 16 + j x 8192 x 8). Lane l sums programs l, l + 32, ...
// (a loop carrying the lane and one partial per value, starting at -0.0)
// in the first warp only,
// eight programs a round: 16 loads issued (program u at 256 u bytes past
// the lane's slot), each split into word and tag, the round ready only if
// every tag of a program in the grid is the reduction's (the loop does not
// advance otherwise, and keeps its partials); then five butterfly shuffles
// per value, thread 0 of program 0 stores the tag as the epoch, and lane 0
// leaves the results in shared memory, which every thread reads after a
// block barrier; the bf16 result is truncated back.
// CHECK-LABEL: llvm.mlir.global external @reduce_two_grid_reduce()
// CHECK-SAME: {addr_space = 1 : i32, alignment = 8 : i64} : !llvm.array<264240 x i8>
// CHECK: llvm.mlir.zero : !llvm.array<264240 x i8>
// CHECK-LABEL: llvm.func @reduce_two
// CHECK-SAME: nvvm.maxnreg = 255 : i32
// CHECK: %[[COUNTER:.*]] = llvm.alloca
// CHECK: %[[WS0:.*]] = llvm.mlir.addressof @reduce_two_grid_reduce : !llvm.ptr<1>
// CHECK: %[[BASE0:.*]] = llvm.ptrtoint %[[WS0]]
// CHECK: %[[EPOCH:.*]] = llvm.inline_asm has_side_effects {{.*}}"ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l" %[[BASE0]]
// CHECK: llvm.store %[[EPOCH]], %[[COUNTER]]
// CHECK: %[[WS:.*]] = llvm.mlir.addressof @reduce_two_grid_reduce : !llvm.ptr<1>
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %[[WS]] : !llvm.ptr<1> to i64
// CHECK: %[[XW:.*]] = llvm.bitcast %arg1 : f32 to i32
// CHECK: %[[HF:.*]] = llvm.fpext %arg2 : bf16 to f32
// CHECK: %[[HW:.*]] = llvm.bitcast %[[HF]] : f32 to i32
// CHECK: %[[NZ:.*]] = nvvm.read.ptx.sreg.nctaid.z
// CHECK: %[[PROGRAMS:.*]] = llvm.mul %{{.*}}, %[[NZ]]
// CHECK: llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[WIDE:.*]] = llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK: %[[BX:.*]] = nvvm.read.ptx.sreg.ctaid.x
// CHECK: %[[PID:.*]] = llvm.add %{{.*}}, %[[BX]]
// CHECK: %[[MAX:.*]] = llvm.mlir.constant(8192 : i64)
// CHECK: %[[TOO_MANY:.*]] = llvm.icmp "ugt" %[[WIDE]], %[[MAX]]
// CHECK: llvm.cond_br %[[TOO_MANY]], ^[[TRAP:.*]], ^[[GO:.*]]
// CHECK: ^[[TRAP]]:
// CHECK-NEXT: llvm.intr.trap
// CHECK: ^[[GO]]:
// CHECK-NEXT: %[[LAST:.*]] = llvm.load %[[COUNTER]] : !llvm.ptr -> i32
// CHECK: %[[NEXT:.*]] = llvm.add %[[LAST]]
// CHECK: %[[WRAPPED:.*]] = llvm.icmp "eq" %[[NEXT]]
// CHECK: %[[TAG:.*]] = llvm.select %[[WRAPPED]], %{{.*}}, %[[NEXT]]
// CHECK-NEXT: llvm.store %[[TAG]], %[[COUNTER]]
// CHECK: %[[BUFFER:.*]] = llvm.and %[[TAG]]
// CHECK: %[[SPAN:.*]] = llvm.mlir.constant(16384 : i32)
// CHECK: %[[SLOTS:.*]] = llvm.mul %[[BUFFER]], %[[SPAN]]
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.cond_br %{{.*}}, ^[[STORE:.*]], ^[[STORED:.*]]
// CHECK: ^[[STORE]]:
// CHECK-NEXT: %[[SLOT:.*]] = llvm.add %[[SLOTS]], %[[PID]]
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}mov.b64 tg_pair, {$3, $2};\0Ast.relaxed.gpu.global.b64 [tg_slot+16], tg_pair;\0Amov.b64 tg_pair, {$4, $2};\0Ast.relaxed.gpu.global.b64 [tg_slot+65552], tg_pair;{{.*}}"l,r,r,r,r" %[[BASE]], %[[SLOT]], %[[TAG]], %[[XW]], %[[HW]]
// CHECK: ^[[STORED]]:
// CHECK: %[[WARP:.*]] = llvm.lshr
// CHECK: %[[FIRST_WARP:.*]] = llvm.icmp "eq" %[[WARP]]
// CHECK-NEXT: llvm.cond_br %[[FIRST_WARP]], ^[[READER:.*]], ^[[JOINED:.*]]
// CHECK: ^[[READER]]:
// CHECK: llvm.br ^[[HEAD:.*]](%{{.*}}, %{{.*}}, %{{.*}} : i32, f32, f32)
// CHECK: ^[[HEAD]](%[[P:.*]]: i32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[MORE:.*]] = llvm.icmp "ult" %[[P]], %[[PROGRAMS]]
// CHECK-NEXT: llvm.cond_br %[[MORE]], ^[[BODY:.*]](%{{.*}}), ^[[DONE:.*]](%{{.*}})
// CHECK: ^[[BODY]](%[[LEAD:.*]]: i32, %[[S0:.*]]: f32, %[[T0:.*]]: f32):
// CHECK: %[[REMAINING:.*]] = llvm.sub %[[PROGRAMS]], %[[LEAD]]
// CHECK-NEXT: %[[ROUND:.*]] = llvm.inline_asm has_side_effects {{.*}}.reg .b64 tg_v<16>;\0Ald.relaxed.gpu.global.b64 tg_v0, [$17+16];\0Ald.relaxed.gpu.global.b64 tg_v1, [$17+65552];\0Ald.relaxed.gpu.global.b64 tg_v2, [$17+272];
// CHECK-SAME: ld.relaxed.gpu.global.b64 tg_v15, [$17+67344];\0Asetp.eq.u32 tg_ready, 0, 0;\0Amov.b64 {$0, tg_t}, tg_v0;\0Asetp.le.u32 tg_p, $18, 0;\0Asetp.eq.or.u32 tg_p, tg_t, $19, tg_p;\0Aand.pred tg_ready, tg_ready, tg_p;
// CHECK-SAME: mov.b64 {$15, tg_t}, tg_v15;\0Asetp.le.u32 tg_p, $18, 224;{{.*}}selp.u32 $16, 1, 0, tg_ready;
// CHECK-SAME: "=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,l,r,r" %{{.*}}, %[[REMAINING]], %[[TAG]]
// CHECK: %[[READY_WORD:.*]] = llvm.extractvalue %[[ROUND]][16]
// CHECK: %[[READY:.*]] = llvm.icmp "ne" %[[READY_WORD]]
// CHECK: %[[ADVANCED:.*]] = llvm.add %[[LEAD]]
// CHECK: llvm.select %[[READY]], %[[ADVANCED]], %[[LEAD]]
// CHECK-COUNT-16: llvm.fadd
// CHECK: llvm.select %[[READY]], %{{.*}}, %[[S0]]
// CHECK-NEXT: llvm.select %[[READY]], %{{.*}}, %[[T0]]
// CHECK: ^[[DONE]](
// CHECK-COUNT-10: nvvm.shfl.sync  bfly
// CHECK: %[[LEADER:.*]] = llvm.or %[[PID]], %{{.*}}
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}setp.eq.u32 tg_p, $1, 0;\0A@tg_p st.relaxed.gpu.global.u32 [$0], $2;{{.*}}"l,r,r" %[[BASE]], %[[LEADER]], %[[TAG]]
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: ^[[JOINED]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[T:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NEXT: llvm.fptrunc %[[T]] : f32 to bf16
tile.func @reduce_two(%out: !tile.ptr<f32>, %x: f32, %h: bf16)
    attributes {tilegpu.num_warps = 4 : i32, tile.persistent} {
  %s, %t = tile.grid_reduce sum %x, %h : f32, bf16
  tile.store %out, %s : !tile.ptr<f32>
  tile.return
}

// A max of i64: two words (low, high), each in a slot of its own with the
// tag; the lanes start from the smallest i64 and rebuild each program's
// value from its two words.
// CHECK-LABEL: llvm.mlir.global external @reduce_max_grid_reduce()
// CHECK-SAME: !llvm.array<264240 x i8>
// CHECK-LABEL: llvm.func @reduce_max
// CHECK: %[[LOW:.*]] = llvm.trunc %arg1 : i64 to i32
// CHECK: %[[SHIFTED:.*]] = llvm.lshr %arg1
// CHECK: %[[HIGH:.*]] = llvm.trunc %[[SHIFTED]] : i64 to i32
// CHECK: mov.b64 tg_pair, {$3, $2};\0Ast.relaxed.gpu.global.b64 [tg_slot+16], tg_pair;\0Amov.b64 tg_pair, {$4, $2};\0Ast.relaxed.gpu.global.b64 [tg_slot+65552], tg_pair;
// CHECK-SAME: "l,r,r,r,r" %{{.*}}, %{{.*}}, %{{.*}}, %[[LOW]], %[[HIGH]]
// CHECK: llvm.mlir.constant(-9223372036854775808 : i64)
// CHECK: %[[ROUND:.*]] = llvm.inline_asm {{.*}}ld.relaxed.gpu.global.b64 tg_v1, [$17+65552];
// CHECK: %[[W0:.*]] = llvm.extractvalue %[[ROUND]][0]
// CHECK: %[[W1:.*]] = llvm.extractvalue %[[ROUND]][1]
// CHECK: %[[L:.*]] = llvm.zext %[[W0]] : i32 to i64
// CHECK: %[[H:.*]] = llvm.zext %[[W1]] : i32 to i64
// CHECK: %[[HS:.*]] = llvm.shl %[[H]]
// CHECK: %[[V:.*]] = llvm.or %[[HS]], %[[L]]
// CHECK: llvm.intr.smax(%{{.*}}, %{{.*}})
tile.func @reduce_max(%out: !tile.ptr<i64>, %x: i64)
    attributes {tilegpu.num_warps = 1 : i32, tile.persistent} {
  %m = tile.grid_reduce max %x : i64
  tile.store %out, %m : !tile.ptr<i64>
  tile.return
}

// Reductions of different widths take their buffers at the same offsets,
// spaced for the kernel's widest (2 words: 2 x 8192 slots a buffer), so
// that reduction k + 1 never writes into the slots reduction k's readers
// still read (a review found the 1-value max of this kernel writing over
// the 2-value sum's second value). Both take their tags from one counter.
// A float sum starts from -0.0, so that a sum of -0.0 stays -0.0, as on
// the interpreter.
// CHECK-LABEL: llvm.mlir.global external @two_widths_grid_reduce()
// CHECK-SAME: !llvm.array<264240 x i8>
// CHECK-LABEL: llvm.func @two_widths
// CHECK: %[[COUNTER:.*]] = llvm.alloca
// CHECK: llvm.load %[[COUNTER]]
// CHECK: llvm.mlir.constant(16384 : i32)
// CHECK: llvm.mlir.constant(-0.000000e+00 : f32)
// CHECK: llvm.load %[[COUNTER]]
// CHECK: llvm.mlir.constant(16384 : i32)
// CHECK-NOT: llvm.mlir.constant(8192 : i32) : i32{{$}}
// CHECK: .reg .b64 tg_v<8>;
tile.func @two_widths(%out: !tile.ptr<f32>, %x: f32, %y: f32)
    attributes {tilegpu.num_warps = 1 : i32, tile.persistent} {
  %s, %t = tile.grid_reduce sum %x, %y : f32, f32
  %m = tile.grid_reduce max %s : f32
  tile.store %out, %m : !tile.ptr<f32>
  tile.return
}

// logsumexp merges (maximum, sum) pairs: the identity is (-inf, -0.0); two
// pairs merge as M = max(m, m') and s exp(m - M) + s' exp(m' - M), with M
// taken as 0 in the exponents where it is -inf, each exponential one
// ex2.approx.ftz of (m - M) log2(e). A bf16 pair travels and merges as
// f32.
// CHECK-LABEL: llvm.func @merge_pairs
// CHECK: %[[NONE:.*]] = llvm.mlir.constant(0xFF800000 : f32)
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(-0.000000e+00 : f32)
// CHECK: llvm.br ^{{.*}}(%{{.*}}, %[[NONE]], %[[ZERO]], %{{.*}}, %{{.*}} : i32, f32, f32, f32, f32)
// CHECK: ^{{.*}}(%{{[0-9]+}}: i32, %{{[0-9]+}}: f32, %{{[0-9]+}}: f32, %{{[0-9]+}}: f32, %{{[0-9]+}}: f32):  // 2 preds
// CHECK: ^[[BODY:.*]](%{{[0-9]+}}: i32, %[[M:[0-9]+]]: f32, %[[S:[0-9]+]]: f32, %{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
// CHECK: %[[M2:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT: %[[PM:.*]] = llvm.select %{{.*}}, %[[M2]], %{{.*}} : i1, f32
// CHECK-NEXT: %[[S2:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT: %[[PS:.*]] = llvm.select %{{.*}}, %[[S2]], %{{.*}} : i1, f32
// CHECK: %[[TOTAL:.*]] = llvm.intr.maximum(%[[M]], %[[PM]])
// CHECK: %[[INF:.*]] = llvm.mlir.constant(0xFF800000 : f32)
// CHECK: %[[IS_NONE:.*]] = llvm.fcmp "oeq" %[[TOTAL]], %[[INF]]
// CHECK: %[[SHIFT:.*]] = llvm.select %[[IS_NONE]], %{{.*}}, %[[TOTAL]]
// CHECK: %[[D1:.*]] = llvm.fsub %[[M]], %[[SHIFT]]
// CHECK: %[[X1:.*]] = llvm.fmul %[[D1]], %{{.*}}
// CHECK: %[[E1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[X1]])
// CHECK: %[[R1:.*]] = llvm.fmul %[[S]], %[[E1]]
// CHECK: %[[D2:.*]] = llvm.fsub %[[PM]], %[[SHIFT]]
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK: %[[R2:.*]] = llvm.fmul %[[PS]], %{{.*}}
// CHECK: llvm.fadd %[[R1]], %[[R2]]
// Both lanes of a butterfly step merge the lower lane's pair with the
// upper lane's, in that order (the FMAs the merge contracts into are not
// commutative; with one warp each thread keeps its lane's result).
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[BIT:.*]] = llvm.and %{{.*}}, %[[C16]] : i32
// CHECK: %[[UPPER:.*]] = llvm.icmp "ne" %[[BIT]], %{{.*}} : i32
// CHECK: nvvm.shfl.sync  bfly
// CHECK-NEXT: %[[OTHER:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT: %[[LOW:.*]] = llvm.select %[[UPPER]], %[[OTHER]], %[[OWN:.*]] : i1, f32
// CHECK-NEXT: %[[HIGH:.*]] = llvm.select %[[UPPER]], %[[OWN]], %[[OTHER]] : i1, f32
// CHECK-COUNT-9: nvvm.shfl.sync  bfly
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
tile.func @merge_pairs(%out: !tile.ptr<f32>, %m: f32, %s: f32, %hm: bf16,
                       %hs: bf16)
    attributes {tilegpu.num_warps = 1 : i32, tile.persistent} {
  %rm, %rs, %rhm, %rhs = tile.grid_reduce logsumexp %m, %s, %hm, %hs
      : f32, f32, bf16, bf16
  tile.store %out, %rs : !tile.ptr<f32>
  tile.return
}
