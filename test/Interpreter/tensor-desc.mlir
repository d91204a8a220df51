// tile.make_tensor_desc and tile.desc_load on the interpreter: boxes of a
// strided tensor at offsets inside it, across its edges and before its
// start, checked element by element against NumPy (zero outside the
// tensor, including the padding columns between its rows); the rules a
// descriptor must follow, as errors before the launch (tile-run checks
// them on every target).

// x is f32[20 x 12] holding a 20 x 10 tensor (row stride 12: 48 bytes).
// Program p reads the 16 x 8 box at (5p - 3, 3p - 2) into out[p].
// RUN: tile-run %s --kernel boxes --grid 4 --arg 'f32[4x16x8]=zeros' \
// RUN:   --arg 'f32[20x12]=randn:3' --arg i32=20 --arg i32=10 --arg i32=12 \
// RUN:   --out 0=%t.out.npy --out 1=%t.x.npy | FileCheck %s --check-prefix=BOXES
// BOXES: @boxes ran on the CPU interpreter: grid 4 (4 programs)
// RUN: %python -c "import numpy as np, sys; x = np.load(sys.argv[2]).astype(np.float64); out = np.load(sys.argv[1]); ref = np.zeros((4, 16, 8)); [ref.__setitem__((p, i, j), x[5*p-3+i, 3*p-2+j]) for p in range(4) for i in range(16) for j in range(8) if 0 <= 5*p-3+i < 20 and 0 <= 3*p-2+j < 10]; err = np.abs(out - ref).max(); print('boxes: max error %%g, %%d nonzero' %% (err, np.count_nonzero(out))); sys.exit(int(err != 0))" %t.out.npy %t.x.npy | FileCheck %s --check-prefix=BOXES-REF
// BOXES-REF: boxes: max error 0, 308 nonzero

tile.func @boxes(%out: !tile.ptr<f32>, %x: !tile.ptr<f32>, %m: i32, %n: i32,
                 %stride: i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c128 = arith.constant 128 : i32
  %desc = tile.make_tensor_desc %x, [%m, %n], [%stride, %c1]
      : !tile.ptr<f32> -> !tile.tensor_desc<16x8xf32>
  %pid = tile.program_id x : i32
  %r5 = arith.muli %pid, %c5 : i32
  %r0 = arith.subi %r5, %c3 : i32
  %c3p = arith.muli %pid, %c3 : i32
  %c0 = arith.subi %c3p, %c2 : i32
  %box = tile.desc_load %desc[%r0, %c0]
      : !tile.tensor_desc<16x8xf32> -> tensor<16x8xf32>
  %first = arith.muli %pid, %c128 : i32
  %base = tile.addptr %out, %first : !tile.ptr<f32>, i32
  %rows = tile.range 0, 16 : tensor<16xi32>
  %cols = tile.range 0, 8 : tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<16xi32>
  %row_offsets = arith.muli %rows, %c8 : tensor<16xi32>
  %row_column = tile.expand_dims %row_offsets axis 1 : tensor<16xi32> -> tensor<16x1xi32>
  %row_tile = tile.broadcast %row_column : tensor<16x1xi32> -> tensor<16x8xi32>
  %col_row = tile.expand_dims %cols axis 0 : tensor<8xi32> -> tensor<1x8xi32>
  %col_tile = tile.broadcast %col_row : tensor<1x8xi32> -> tensor<16x8xi32>
  %offsets = arith.addi %row_tile, %col_tile : tensor<16x8xi32>
  %bases = tile.splat %base : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>>
  %ptrs = tile.addptr %bases, %offsets : tensor<16x8x!tile.ptr<f32>>, tensor<16x8xi32>
  tile.store %ptrs, %box : tensor<16x8x!tile.ptr<f32>>
  tile.return
}

// A row stride of 10 floats (40 bytes) is not one TMA can take.
// RUN: not tile-run %s --kernel boxes --grid 1 --arg 'f32[1x16x8]=zeros' \
// RUN:   --arg 'f32[20x10]=zeros' --arg i32=20 --arg i32=10 --arg i32=10 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STRIDE
// STRIDE: tensor-desc.mlir:[[@LINE-30]]:11: error: 'tile.make_tensor_desc' op stride 0 is 10 elements (40 bytes); expected a positive multiple of 16 bytes

// A tensor with no rows.
// RUN: not tile-run %s --kernel boxes --grid 1 --arg 'f32[1x16x8]=zeros' \
// RUN:   --arg 'f32[20x12]=zeros' --arg i32=0 --arg i32=10 --arg i32=12 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SIZE
// SIZE: error: 'tile.make_tensor_desc' op size 0 is 0; expected at least 1

// A tensor larger than its buffer: the box's lanes inside the tensor but
// past the buffer are out of bounds, as tile.load's would be.
// RUN: not tile-run %s --kernel boxes --grid 4 --arg 'f32[4x16x8]=zeros' \
// RUN:   --arg 'f32[10x12]=zeros' --arg i32=20 --arg i32=10 --arg i32=12 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUFFER
// BUFFER: error: out-of-bounds tile.desc_load: buffer 1 (f32[10x12]) has 120 elements, lane (

// A tensor whose last element lies 2^31 or more elements past its base:
// descriptor loads use 32-bit offsets (19 x 2^27 + 9 = 2550136841).
// RUN: not tile-run %s --kernel boxes --grid 1 --arg 'f32[1x16x8]=zeros' \
// RUN:   --arg 'f32[20x12]=zeros' --arg i32=20 --arg i32=10 --arg i32=134217728 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXTENT
// EXTENT: error: 'tile.make_tensor_desc' op the tensor's last element is 2550136841 elements past its base; descriptor loads reach at most 2^31 - 1 (32-bit offsets)
