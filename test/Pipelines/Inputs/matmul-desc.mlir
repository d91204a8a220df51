// C[M, N] = A[M, K] @ B[K, N] with A's and B's blocks read through tensor
// descriptors (row-major operands): examples/matmul.mlir's loop without
// its address and mask arithmetic, which tile-expand-tensor-descs writes.
//
// tile.param BLOCK_M = 64 in 16, 32, 64, 128, 256
// tile.param BLOCK_N = 64 in 16, 32, 64, 128, 256
// tile.param BLOCK_K = 32 in 16, 32, 64, 128
// tile.param NUM_WARPS = 4 in 1, 2, 4, 8
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param DTYPE = f16 in f16, bf16

tile.func @matmul_desc(
    %a: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %b: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %c: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %M: i32, %N: i32, %K: i32, %lda: i32, %ldb: i32, %ldc: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block_m = arith.constant ${BLOCK_M} : i32
  %block_n = arith.constant ${BLOCK_N} : i32
  %block_k = arith.constant ${BLOCK_K} : i32
  %pid = tile.program_id x : i32
  %num_pid_n = arith.ceildivsi %N, %block_n : i32
  %pid_m = arith.divsi %pid, %num_pid_n : i32
  %pid_n = arith.remsi %pid, %num_pid_n : i32
  %row0 = arith.muli %pid_m, %block_m : i32
  %col0 = arith.muli %pid_n, %block_n : i32

  %da = tile.make_tensor_desc %a, [%M, %K], [%lda, %c1]
      : !tile.ptr<${DTYPE}> -> !tile.tensor_desc<${BLOCK_M}x${BLOCK_K}x${DTYPE}>
  %db = tile.make_tensor_desc %b, [%K, %N], [%ldb, %c1]
      : !tile.ptr<${DTYPE}> -> !tile.tensor_desc<${BLOCK_K}x${BLOCK_N}x${DTYPE}>
  %acc0 = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %num_k = arith.ceildivsi %K, %block_k : i32
  %acc = scf.for %kb = %c0 to %num_k step %c1 iter_args(%acc_i = %acc0)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    %k0 = arith.muli %kb, %block_k : i32
    %a_blk = tile.desc_load %da[%row0, %k0]
        : !tile.tensor_desc<${BLOCK_M}x${BLOCK_K}x${DTYPE}>
          -> tensor<${BLOCK_M}x${BLOCK_K}x${DTYPE}>
    %b_blk = tile.desc_load %db[%k0, %col0]
        : !tile.tensor_desc<${BLOCK_K}x${BLOCK_N}x${DTYPE}>
          -> tensor<${BLOCK_K}x${BLOCK_N}x${DTYPE}>
    %acc_next = tile.dot %a_blk, %b_blk, %acc_i
        : tensor<${BLOCK_M}x${BLOCK_K}x${DTYPE}>,
          tensor<${BLOCK_K}x${BLOCK_N}x${DTYPE}> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    scf.yield %acc_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  } {tile.num_stages = ${NUM_STAGES} : i32}

  // C = acc as DTYPE where the rows and columns are inside C.
  %c_out = tile.cast %acc
      : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${DTYPE}>
  %rm = tile.range 0, ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %row0_t = tile.splat %row0 : i32 -> tensor<${BLOCK_M}xi32>
  %rows = arith.addi %rm, %row0_t : tensor<${BLOCK_M}xi32>
  %rn = tile.range 0, ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %col0_t = tile.splat %col0 : i32 -> tensor<${BLOCK_N}xi32>
  %cols = arith.addi %rn, %col0_t : tensor<${BLOCK_N}xi32>
  %rows_c = tile.expand_dims %rows axis 1
      : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %cm = tile.broadcast %rows_c
      : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %cols_r = tile.expand_dims %cols axis 0
      : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %cn = tile.broadcast %cols_r
      : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %ldc_t = tile.splat %ldc : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_rows = arith.muli %cm, %ldc_t : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_offsets = arith.addi %c_rows, %cn : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_base = tile.splat %c
      : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${DTYPE}>>
  %c_ptrs = tile.addptr %c_base, %c_offsets
      : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${DTYPE}>>,
        tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %M_c = tile.splat %M : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %N_c = tile.splat %N : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_row_ok = arith.cmpi slt, %cm, %M_c : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_col_ok = arith.cmpi slt, %cn, %N_c : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_mask = arith.andi %c_row_ok, %c_col_ok : tensor<${BLOCK_M}x${BLOCK_N}xi1>
  tile.store %c_ptrs, %c_out, %c_mask
      : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${DTYPE}>>
  tile.return
}
