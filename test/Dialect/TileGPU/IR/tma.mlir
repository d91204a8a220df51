// The TMA operations and the mbarrier type print and parse back.
// RUN: tile-opt %s | tile-opt | FileCheck %s

#sh = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// CHECK-LABEL: tile.func @tma
// CHECK: %[[BARS:.*]] = tilegpu.mbarrier_alloc {arrivals = 2 : i32} : !tilegpu.mbarriers<3>
// CHECK: tilegpu.tma_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %[[BARS]][%{{.*}}] if %{{.*}} : !tile.tensor_desc<128x64xf16>, !tilegpu.memdesc<128x64xf16, #{{.*}}>, !tilegpu.mbarriers<3>
// CHECK: tilegpu.tma_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %[[BARS]][%{{.*}}] : !tile.tensor_desc<128x64xf16>
// CHECK: tilegpu.mbarrier_wait %[[BARS]][%{{.*}}], %{{.*}} : !tilegpu.mbarriers<3>
tile.func @tma(%x: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %m: i32, %k: i32, %ok: i1) attributes {tilegpu.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %desc = tile.make_tensor_desc %x, [%m, %k], [%k, %c1] : !tile.ptr<f16> -> !tile.tensor_desc<128x64xf16>
  %bars = tilegpu.mbarrier_alloc {arrivals = 2 : i32} : !tilegpu.mbarriers<3>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<128x64xf16, #sh>
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c1] if %ok : !tile.tensor_desc<128x64xf16>, !tilegpu.memdesc<128x64xf16, #sh>, !tilegpu.mbarriers<3>
  tilegpu.tma_load %desc[%m, %k], %buf, %bars[%c1] : !tile.tensor_desc<128x64xf16>, !tilegpu.memdesc<128x64xf16, #sh>, !tilegpu.mbarriers<3>
  tilegpu.mbarrier_wait %bars[%c1], %c0 : !tilegpu.mbarriers<3>
  tile.return
}
