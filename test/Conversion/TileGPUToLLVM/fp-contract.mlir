// Floating-point multiplications, additions and subtractions carry LLVM's
// `contract` flag, so that the NVPTX backend fuses a multiplication and the
// addition that uses it into one fma.rn (one rounding, as CUDA's -fmad=true
// and Triton's enable_fp_fusion); a kernel with tile.fp_contract = false
// keeps each rounded on its own (mul.rn and add.rn, which ptxas does not
// fuse either). Integer arithmetic has no such flag. The additions the
// lowering makes itself carry it too: a reduction of products is a chain of
// FMAs. (Keeping those rounded on their own cost LayerNorm backward 3-4% at
// 4096 columns on an H200, run 101, and was not what kept its one-column dx
// from being exactly 0: dy * w fused into g - mean(g) is.)
// RUN: tile-opt %s --convert-tilegpu-to-llvm | FileCheck %s
// RUN: tile-opt %s --convert-tilegpu-to-llvm --nvvm-attach-target="chip=sm_90" --gpu-module-to-binary="format=isa" --tile-dump-ptx -o /dev/null | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: llvm.func @fused
// CHECK: %[[P:.*]] = llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: llvm.fadd %[[P]], %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: llvm.fsub %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: llvm.add %{{.*}}, %{{.*}} : i32
// PTX-LABEL: .entry fused
// PTX-NOT: mul.rn.f32
// PTX: fma.rn.f32
// PTX-NOT: add.rn.f32
// PTX: ret;
tile.func @fused(%p: !tile.ptr<f32>, %a: f32, %b: f32, %c: f32, %i: i32) attributes {tilegpu.num_warps = 1 : i32} {
  %m = arith.mulf %a, %b : f32
  %s = arith.addf %m, %c : f32
  %d = arith.subf %s, %a : f32
  %j = arith.addi %i, %i : i32
  %q = tile.addptr %p, %j : !tile.ptr<f32>, i32
  tile.store %q, %d : !tile.ptr<f32>
  tile.return
}

// CHECK-LABEL: llvm.func @exact
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK: llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK-NOT: contract
// PTX-LABEL: .entry exact
// PTX-NOT: fma.rn.f32
// PTX: mul.rn.f32
// PTX: add.rn.f32
// PTX-NOT: fma.rn.f32
// PTX: ret;
tile.func @exact(%p: !tile.ptr<f32>, %a: f32, %b: f32, %c: f32) attributes {tilegpu.num_warps = 1 : i32, tile.fp_contract = false} {
  %m = arith.mulf %a, %b : f32
  %s = arith.addf %m, %c : f32
  tile.store %p, %s : !tile.ptr<f32>
  tile.return
}

// CHECK-LABEL: llvm.func @reduced
// CHECK: llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : vector<2xf32>
// CHECK: llvm.extractelement
// CHECK: llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// PTX-LABEL: .entry reduced
// PTX-NOT: add.rn.f32
// PTX: fma.rn.f32
// PTX-NOT: add.rn.f32
// PTX: ret;
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
tile.func @reduced(%p: !tile.ptr<f32>, %a: f32, %b: f32) attributes {tilegpu.num_warps = 1 : i32} {
  %ta = tile.splat %a : f32 -> tensor<64xf32, #b>
  %tb = tile.splat %b : f32 -> tensor<64xf32, #b>
  %m = arith.mulf %ta, %tb : tensor<64xf32, #b>
  %s = tile.reduce sum %m axis 0 : tensor<64xf32, #b> -> f32
  tile.store %p, %s : !tile.ptr<f32>
  tile.return
}
