// convert-tilegpu-to-llvm of tile.grid_reduce: the kernel's workspace in
// global memory (visible, zeroed at load, sized for its widest reduction),
// thread 0's arrival between two block barriers, and every warp combining
// the slots of the buffer the reduction used.
// RUN: tile-opt %s --convert-scf-to-cf --convert-tilegpu-to-llvm | FileCheck %s

// Two values (f32 and bf16, which travels as f32): 16 + 2 x 2 x 8192 x 8
// bytes. The program id and count span x, y and z; more than 8192 programs
// trap. Thread 0 stores both values into slot `pid` of buffer
// `generation & 1` (value j at byte 16 + j x 8192 x 8), counts itself in
// (acq_rel), and the last to arrive (count + 1 == programs) resets the
// count and releases generation + 1; the others spin on it (acquire).
// After the second barrier every thread reads the generation back: the
// buffer is (generation - 1) & 1. Lane l sums programs l, l + 32, ...
// (a loop carrying the lane and one partial per value, starting at 0),
// eight programs a round (the 16 loads of both values issued before any
// sum, the loop stepping by 256), then five butterfly shuffles; the bf16
// result is truncated back.
// CHECK-LABEL: llvm.mlir.global external @reduce_two_grid_reduce()
// CHECK-SAME: {addr_space = 1 : i32, alignment = 8 : i64} : !llvm.array<262160 x i8>
// CHECK: llvm.mlir.zero : !llvm.array<262160 x i8>
// CHECK-LABEL: llvm.func @reduce_two
// CHECK: %[[WS:.*]] = llvm.mlir.addressof @reduce_two_grid_reduce : !llvm.ptr<1>
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %[[WS]] : !llvm.ptr<1> to i64
// CHECK: %[[XW:.*]] = llvm.bitcast %arg1 : f32 to i32
// CHECK: %[[HF:.*]] = llvm.fpext %arg2 : bf16 to f32
// CHECK: %[[HW:.*]] = llvm.bitcast %[[HF]] : f32 to i32
// CHECK: %[[NZ:.*]] = nvvm.read.ptx.sreg.nctaid.z
// CHECK: %[[PROGRAMS:.*]] = llvm.mul %{{.*}}, %[[NZ]]
// CHECK: %[[BX:.*]] = nvvm.read.ptx.sreg.ctaid.x
// CHECK: %[[PID:.*]] = llvm.add %{{.*}}, %[[BX]]
// CHECK: %[[MAX:.*]] = llvm.mlir.constant(8192 : i32)
// CHECK: %[[TOO_MANY:.*]] = llvm.icmp "ugt" %[[PROGRAMS]], %[[MAX]]
// CHECK: llvm.cond_br %[[TOO_MANY]], ^[[TRAP:.*]], ^[[GO:.*]]
// CHECK: ^[[TRAP]]:
// CHECK-NEXT: llvm.intr.trap
// CHECK: ^[[GO]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.cond_br %{{.*}}, ^[[ARRIVE:.*]], ^[[ARRIVED:.*]]
// CHECK: ^[[ARRIVE]]:
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}ld.relaxed.gpu.global.u32 tg_gen, [$0+4];{{.*}}mul.lo.u32 tg_idx, tg_idx, 16384;{{.*}}st.relaxed.gpu.global.b32 [tg_slot+16], $3;{{.*}}st.relaxed.gpu.global.b32 [tg_slot+65552], $4;{{.*}}atom.add.acq_rel.gpu.global.u32 tg_cur, [$0], 1;{{.*}}setp.eq.u32 tg_p, tg_cur, $2;{{.*}}@tg_p st.relaxed.gpu.global.u32 [$0], 0;{{.*}}@tg_p st.release.gpu.global.u32 [$0+4], tg_cur;{{.*}}ld.acquire.gpu.global.u32 tg_cur, [$0+4];{{.*}}"l,r,r,r,r" %[[BASE]], %[[PID]], %[[PROGRAMS]], %[[XW]], %[[HW]]
// CHECK: ^[[ARRIVED]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[GEN:.*]] = llvm.inline_asm has_side_effects {{.*}}"ld.relaxed.gpu.global.u32 $0, [$1+4];", "=r,l" %[[BASE]]
// CHECK: %[[PREV:.*]] = llvm.sub %[[GEN]]
// CHECK: %[[BUFFER:.*]] = llvm.and %[[PREV]]
// CHECK: %[[SLOTS:.*]] = llvm.mul %[[BUFFER]], %{{.*}}
// CHECK: llvm.br ^[[HEAD:.*]](%{{.*}}, %{{.*}}, %{{.*}} : i32, f32, f32)
// CHECK: ^[[HEAD]](%[[P:.*]]: i32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[MORE:.*]] = llvm.icmp "ult" %[[P]], %[[PROGRAMS]]
// CHECK-NEXT: llvm.cond_br %[[MORE]], ^[[BODY:.*]](%{{.*}}), ^[[DONE:.*]](%{{.*}})
// CHECK: ^[[BODY]](
// CHECK: llvm.mlir.constant(256 : i32)
// CHECK-COUNT-16: "ld.relaxed.gpu.global.b32 $0, [$1+16];"
// CHECK-NOT: ld.relaxed
// CHECK-COUNT-16: llvm.fadd
// CHECK: ^[[DONE]](
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
tile.func @reduce_two(%out: !tile.ptr<f32>, %x: f32, %h: bf16)
    attributes {tilegpu.num_warps = 4 : i32, tile.persistent} {
  %s, %t = tile.grid_reduce sum %x, %h : f32, bf16
  tile.store %out, %s : !tile.ptr<f32>
  tile.return
}

// A max of i64: slots of 8 bytes, loaded as b64; lanes start from the
// smallest i64.
// CHECK-LABEL: llvm.mlir.global external @reduce_max_grid_reduce()
// CHECK-SAME: !llvm.array<131088 x i8>
// CHECK-LABEL: llvm.func @reduce_max
// CHECK: st.relaxed.gpu.global.b64 [tg_slot+16], $3;
// CHECK-SAME: "l,r,r,l"
// CHECK: llvm.mlir.constant(-9223372036854775808 : i64)
// CHECK: "ld.relaxed.gpu.global.b64 $0, [$1+16];", "=l,l"
// CHECK: llvm.intr.smax
tile.func @reduce_max(%out: !tile.ptr<i64>, %x: i64)
    attributes {tilegpu.num_warps = 1 : i32, tile.persistent} {
  %m = tile.grid_reduce max %x : i64
  tile.store %out, %m : !tile.ptr<i64>
  tile.return
}

// Reductions of different widths take their buffers at the same offsets,
// spaced for the kernel's widest (2 values: 2 x 8192 slots a buffer), so
// that reduction k + 1 never writes into the slots reduction k's readers
// still read (a review found the 1-value max of this kernel writing over
// the 2-value sum's second value). A float sum starts from -0.0, so that a
// sum of -0.0 stays -0.0, as on the interpreter.
// CHECK-LABEL: llvm.mlir.global external @two_widths_grid_reduce()
// CHECK-SAME: !llvm.array<262160 x i8>
// CHECK-LABEL: llvm.func @two_widths
// CHECK: mul.lo.u32 tg_idx, tg_idx, 16384;
// CHECK: llvm.mlir.constant(16384 : i32)
// CHECK: llvm.mlir.constant(-0.000000e+00 : f32)
// CHECK: mul.lo.u32 tg_idx, tg_idx, 16384;
// CHECK-NOT: mul.lo.u32 tg_idx, tg_idx, 8192;
// CHECK: llvm.mlir.constant(16384 : i32)
tile.func @two_widths(%out: !tile.ptr<f32>, %x: f32, %y: f32)
    attributes {tilegpu.num_warps = 1 : i32, tile.persistent} {
  %s, %t = tile.grid_reduce sum %x, %y : f32, f32
  %m = tile.grid_reduce max %s : f32
  tile.store %out, %m : !tile.ptr<f32>
  tile.return
}
