// C (f32, 32 x 16, row-major) = A (32 x 64) @ B (64 x 16), both ${DTYPE}
// row-major, in one program: tile.dot of 8-bit floats accumulated in f32
// (test/Interpreter/float8.test).
// tile.param DTYPE = f8E4M3FN in f8E4M3FN, f8E5M2
tile.func @f8_dot(%a: !tile.ptr<${DTYPE}>, %b: !tile.ptr<${DTYPE}>, %c: !tile.ptr<f32>) {
  %rm = tile.range 0, 32 : tensor<32xi32>
  %rk = tile.range 0, 64 : tensor<64xi32>
  %rn = tile.range 0, 16 : tensor<16xi32>
  %c64 = arith.constant dense<64> : tensor<32x64xi32>
  %c16k = arith.constant dense<16> : tensor<64x16xi32>
  %c16 = arith.constant dense<16> : tensor<32x16xi32>
  // A's offsets: m * 64 + k.
  %am1 = tile.expand_dims %rm axis 1 : tensor<32xi32> -> tensor<32x1xi32>
  %am = tile.broadcast %am1 : tensor<32x1xi32> -> tensor<32x64xi32>
  %ak1 = tile.expand_dims %rk axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ak = tile.broadcast %ak1 : tensor<1x64xi32> -> tensor<32x64xi32>
  %arow = arith.muli %am, %c64 : tensor<32x64xi32>
  %aoff = arith.addi %arow, %ak : tensor<32x64xi32>
  %ap = tile.splat %a : !tile.ptr<${DTYPE}> -> tensor<32x64x!tile.ptr<${DTYPE}>>
  %aptrs = tile.addptr %ap, %aoff : tensor<32x64x!tile.ptr<${DTYPE}>>, tensor<32x64xi32>
  %av = tile.load %aptrs : tensor<32x64x!tile.ptr<${DTYPE}>>
  // B's offsets: k * 16 + n.
  %bk1 = tile.expand_dims %rk axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %bk = tile.broadcast %bk1 : tensor<64x1xi32> -> tensor<64x16xi32>
  %bn1 = tile.expand_dims %rn axis 0 : tensor<16xi32> -> tensor<1x16xi32>
  %bn = tile.broadcast %bn1 : tensor<1x16xi32> -> tensor<64x16xi32>
  %brow = arith.muli %bk, %c16k : tensor<64x16xi32>
  %boff = arith.addi %brow, %bn : tensor<64x16xi32>
  %bp = tile.splat %b : !tile.ptr<${DTYPE}> -> tensor<64x16x!tile.ptr<${DTYPE}>>
  %bptrs = tile.addptr %bp, %boff : tensor<64x16x!tile.ptr<${DTYPE}>>, tensor<64x16xi32>
  %bv = tile.load %bptrs : tensor<64x16x!tile.ptr<${DTYPE}>>
  %zero = arith.constant dense<0.0> : tensor<32x16xf32>
  %d = tile.dot %av, %bv, %zero : tensor<32x64x${DTYPE}>, tensor<64x16x${DTYPE}> -> tensor<32x16xf32>
  // C's offsets: m * 16 + n.
  %cm1 = tile.expand_dims %rm axis 1 : tensor<32xi32> -> tensor<32x1xi32>
  %cm = tile.broadcast %cm1 : tensor<32x1xi32> -> tensor<32x16xi32>
  %cn1 = tile.expand_dims %rn axis 0 : tensor<16xi32> -> tensor<1x16xi32>
  %cn = tile.broadcast %cn1 : tensor<1x16xi32> -> tensor<32x16xi32>
  %crow = arith.muli %cm, %c16 : tensor<32x16xi32>
  %coff = arith.addi %crow, %cn : tensor<32x16xi32>
  %cp = tile.splat %c : !tile.ptr<f32> -> tensor<32x16x!tile.ptr<f32>>
  %cptrs = tile.addptr %cp, %coff : tensor<32x16x!tile.ptr<f32>>, tensor<32x16xi32>
  tile.store %cptrs, %d : tensor<32x16x!tile.ptr<f32>>
  tile.return
}
