// arith.uitofp reads its operand as unsigned at the operand's own width: a
// negative i32 is 2^32 plus it, to bf16 and f16 as to f32. Reduced from
// tile-smith's seed 375 (scripts/difftest.sh): the interpreter converted the
// i32 sign-extended to 64 bits, so -1 became 2^64 in bf16 (f32 was right),
// and fptoui then saturated it.
// RUN: tile-run %s --grid 1 --arg 'bf16[8]=zeros' --arg 'i32[8]=zeros' \
// RUN:   --arg 'f16[8]=zeros' --out 0=%t.bf16.npy --out 1=%t.i32.npy --out 2=%t.f16.npy > /dev/null
// RUN: %reference print %t.bf16.npy --bf16 | FileCheck %s --check-prefix=BF16
// RUN: %reference print %t.i32.npy | FileCheck %s --check-prefix=BACK
// RUN: %reference print %t.f16.npy | FileCheck %s --check-prefix=F16
// uitofp of [-926532630, -1, 1, 2^31 - 1, -2^31, 65535, -65536, 0] to bf16
// (3368434666 rounds to 3372220416 in 8 bits; 2^32 - 1 and 2^32 - 2^16 to
// 2^32), printed as f32 prints them:
// BF16:      bf16[8]
// BF16-NEXT: 3372220400.0 4294967300.0 1.0 2147483600.0 2147483600.0 65536.0 4294967300.0 0.0
// and back with fptoui (2^32 saturates to 2^32 - 1, that is -1):
// BACK:      i32[8]
// BACK-NEXT: -922746880 -1 1 -2147483648 -2147483648 65536 -1 0
// to f16, whose largest finite value is 65504: 65535 is inf, and so are the
// negative i32s (at least 2^31):
// F16:      f16[8]
// F16-NEXT: inf inf 1.0 inf inf inf inf 0.0

tile.func @uitofp(%bf: !tile.ptr<bf16>, %back: !tile.ptr<i32>,
                  %half: !tile.ptr<f16>) {
  %ints = arith.constant dense<[-926532630, -1, 1, 2147483647, -2147483648, 65535, -65536, 0]> : tensor<8xi32>
  %lanes = tile.range 0, 8 : tensor<8xi32>
  %b = arith.uitofp %ints : tensor<8xi32> to tensor<8xbf16>
  %pb = tile.splat %bf : !tile.ptr<bf16> -> tensor<8x!tile.ptr<bf16>>
  %qb = tile.addptr %pb, %lanes : tensor<8x!tile.ptr<bf16>>, tensor<8xi32>
  tile.store %qb, %b : tensor<8x!tile.ptr<bf16>>
  %i = arith.fptoui %b : tensor<8xbf16> to tensor<8xi32>
  %pi = tile.splat %back : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %qi = tile.addptr %pi, %lanes : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %qi, %i : tensor<8x!tile.ptr<i32>>
  %h = arith.uitofp %ints : tensor<8xi32> to tensor<8xf16>
  %ph = tile.splat %half : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  %qh = tile.addptr %ph, %lanes : tensor<8x!tile.ptr<f16>>, tensor<8xi32>
  tile.store %qh, %h : tensor<8x!tile.ptr<f16>>
  tile.return
}
