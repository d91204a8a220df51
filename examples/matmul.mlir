// Matrix multiply, C[M, N] = A[M, K] @ B[K, N], as Triton's matmul tutorial
// writes it: the same arguments in the same order and the same
// meta-parameter names, so that its users find their way around.
//
// One program computes one BLOCK_M x BLOCK_N tile of C, walking K in steps
// of BLOCK_K with an f32 accumulator (tile.dot), and stores it as DTYPE.
// The grid is one program per tile of C: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)
// along x. Programs are numbered in groups of GROUP_M rows of tiles, so that
// programs running at the same time share rows of A and columns of B in L2
// (the tutorial's "grouped ordering").
//
// Every edge is masked: M, N and K need not be multiples of the blocks, and
// any strides work (row- or column-major operands, or views). Elements past
// K load as 0, so they add nothing.
//
// DTYPE is the element type of A and B, C_DTYPE that of C (by default
// DTYPE): f16 and bf16 multiply exactly and accumulate in f32; f32
// multiplies in TF32 (tile.dot's default input_precision), as torch.matmul
// does with torch.backends.cuda.matmul.allow_tf32 and Triton's tl.dot do.
// The 8-bit floats (f8E4M3FN, f8E5M2) multiply exactly and accumulate in f32
// too; on the GPU only with wgmma (sm_90a, pipelined, A row-major and B
// column-major: stride_ak = stride_bk = 1). C is the f32 accumulator cast
// to C_DTYPE (tile.cast's rounding, saturating for the 8-bit floats, whose
// largest values a sum of many products soon passes: -D C_DTYPE=bf16 keeps
// an 8-bit product's result, as torch._scaled_mm's out_dtype does).
//
// tile.param BLOCK_M = 64 in 16, 32, 64, 128, 256
// tile.param BLOCK_N = 64 in 16, 32, 64, 128, 256
// tile.param BLOCK_K = 32 in 16, 32, 64, 128
// tile.param GROUP_M = 8 in 1, 4, 8, 16
// tile.param NUM_WARPS = 4 in 1, 2, 4, 8
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4, 5, 6
// tile.param DTYPE = f16 in f32, f16, bf16, f8E4M3FN, f8E5M2
// tile.param C_DTYPE = DTYPE in f32, f16, bf16, f8E4M3FN, f8E5M2

tile.func @matmul(
    %a: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %b: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %c: !tile.ptr<${C_DTYPE}> {tile.divisibility = 16 : i64},
    %M: i32, %N: i32, %K: i32,
    %stride_am: i32, %stride_ak: i32,
    %stride_bk: i32, %stride_bn: i32,
    %stride_cm: i32, %stride_cn: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block_m = arith.constant ${BLOCK_M} : i32
  %block_n = arith.constant ${BLOCK_N} : i32
  %block_k = arith.constant ${BLOCK_K} : i32
  %group_m = arith.constant ${GROUP_M} : i32

  // Which tile of C: grouped ordering over the grid.
  %pid = tile.program_id x : i32
  %num_pid_m = arith.ceildivsi %M, %block_m : i32
  %num_pid_n = arith.ceildivsi %N, %block_n : i32
  %num_pid_in_group = arith.muli %group_m, %num_pid_n : i32
  %group_id = arith.divsi %pid, %num_pid_in_group : i32
  %first_pid_m = arith.muli %group_id, %group_m : i32
  %rest_m = arith.subi %num_pid_m, %first_pid_m : i32
  %group_size_m = arith.minsi %rest_m, %group_m : i32
  %in_group = arith.remsi %pid, %num_pid_in_group : i32
  %pid_m_in = arith.remsi %in_group, %group_size_m : i32
  %pid_m = arith.addi %first_pid_m, %pid_m_in : i32
  %pid_n = arith.divsi %in_group, %group_size_m : i32

  // The rows of A and C, the columns of B and C, and K within a block.
  %row0 = arith.muli %pid_m, %block_m : i32
  %col0 = arith.muli %pid_n, %block_n : i32
  %rm_range = tile.range 0, ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %rm_start = tile.splat %row0 : i32 -> tensor<${BLOCK_M}xi32>
  %rm = arith.addi %rm_range, %rm_start : tensor<${BLOCK_M}xi32>
  %rn_range = tile.range 0, ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %rn_start = tile.splat %col0 : i32 -> tensor<${BLOCK_N}xi32>
  %rn = arith.addi %rn_range, %rn_start : tensor<${BLOCK_N}xi32>
  %rk = tile.range 0, ${BLOCK_K} : tensor<${BLOCK_K}xi32>

  // A's block: rows rm (along M), columns rk (along K).
  %rm_col = tile.expand_dims %rm axis 1
      : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %am = tile.broadcast %rm_col
      : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %rk_row = tile.expand_dims %rk axis 0
      : tensor<${BLOCK_K}xi32> -> tensor<1x${BLOCK_K}xi32>
  %ak = tile.broadcast %rk_row
      : tensor<1x${BLOCK_K}xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %stride_am_t = tile.splat %stride_am : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %stride_ak_t = tile.splat %stride_ak : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_rows = arith.muli %am, %stride_am_t : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_cols = arith.muli %ak, %stride_ak_t : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_offsets = arith.addi %a_rows, %a_cols : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %M_a = tile.splat %M : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_row_ok = arith.cmpi slt, %am, %M_a : tensor<${BLOCK_M}x${BLOCK_K}xi32>

  // B's block: rows rk (along K), columns rn (along N).
  %rk_col = tile.expand_dims %rk axis 1
      : tensor<${BLOCK_K}xi32> -> tensor<${BLOCK_K}x1xi32>
  %bk = tile.broadcast %rk_col
      : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %rn_row = tile.expand_dims %rn axis 0
      : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %bn = tile.broadcast %rn_row
      : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %stride_bk_t = tile.splat %stride_bk : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %stride_bn_t = tile.splat %stride_bn : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %b_rows = arith.muli %bk, %stride_bk_t : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %b_cols = arith.muli %bn, %stride_bn_t : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %b_offsets = arith.addi %b_rows, %b_cols : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %N_b = tile.splat %N : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %b_col_ok = arith.cmpi slt, %bn, %N_b : tensor<${BLOCK_K}x${BLOCK_N}xi32>

  %zero_a = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_K}xf32>
  %zero_a_in = tile.cast %zero_a
      : tensor<${BLOCK_M}x${BLOCK_K}xf32> to tensor<${BLOCK_M}x${BLOCK_K}x${DTYPE}>
  %zero_b = arith.constant dense<0.0> : tensor<${BLOCK_K}x${BLOCK_N}xf32>
  %zero_b_in = tile.cast %zero_b
      : tensor<${BLOCK_K}x${BLOCK_N}xf32> to tensor<${BLOCK_K}x${BLOCK_N}x${DTYPE}>
  %acc0 = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %num_k = arith.ceildivsi %K, %block_k : i32

  // acc += A[rm, k:k+BLOCK_K] @ B[k:k+BLOCK_K, rn], elements past K as 0.
  %acc = scf.for %kb = %c0 to %num_k step %c1 iter_args(%acc_i = %acc0)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    %k0 = arith.muli %kb, %block_k : i32
    %k_left = arith.subi %K, %k0 : i32

    %a_k_off = arith.muli %k0, %stride_ak : i32
    %a_k = tile.addptr %a, %a_k_off : !tile.ptr<${DTYPE}>, i32
    %a_base = tile.splat %a_k
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${DTYPE}>>
    %a_ptrs = tile.addptr %a_base, %a_offsets
        : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${DTYPE}>>,
          tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %k_left_a = tile.splat %k_left : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %a_k_ok = arith.cmpi slt, %ak, %k_left_a : tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %a_mask = arith.andi %a_row_ok, %a_k_ok : tensor<${BLOCK_M}x${BLOCK_K}xi1>
    %a_blk = tile.load %a_ptrs, %a_mask, %zero_a_in
        : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${DTYPE}>>

    %b_k_off = arith.muli %k0, %stride_bk : i32
    %b_k = tile.addptr %b, %b_k_off : !tile.ptr<${DTYPE}>, i32
    %b_base = tile.splat %b_k
        : !tile.ptr<${DTYPE}> -> tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${DTYPE}>>
    %b_ptrs = tile.addptr %b_base, %b_offsets
        : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${DTYPE}>>,
          tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %k_left_b = tile.splat %k_left : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %b_k_ok = arith.cmpi slt, %bk, %k_left_b : tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %b_mask = arith.andi %b_k_ok, %b_col_ok : tensor<${BLOCK_K}x${BLOCK_N}xi1>
    %b_blk = tile.load %b_ptrs, %b_mask, %zero_b_in
        : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${DTYPE}>>

    %acc_next = tile.dot %a_blk, %b_blk, %acc_i
        : tensor<${BLOCK_M}x${BLOCK_K}x${DTYPE}>,
          tensor<${BLOCK_K}x${BLOCK_N}x${DTYPE}> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    scf.yield %acc_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  } {tile.num_stages = ${NUM_STAGES} : i32}

  // C[rm, rn] = acc as C_DTYPE, where rm < M and rn < N.
  %c_out = tile.cast %acc
      : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${C_DTYPE}>
  %cm = tile.broadcast %rm_col
      : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %cn = tile.broadcast %rn_row
      : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %stride_cm_t = tile.splat %stride_cm : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %stride_cn_t = tile.splat %stride_cn : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_rows = arith.muli %cm, %stride_cm_t : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_cols = arith.muli %cn, %stride_cn_t : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_offsets = arith.addi %c_rows, %c_cols : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_base = tile.splat %c
      : !tile.ptr<${C_DTYPE}> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${C_DTYPE}>>
  %c_ptrs = tile.addptr %c_base, %c_offsets
      : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${C_DTYPE}>>,
        tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %M_c = tile.splat %M : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %N_c = tile.splat %N : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_row_ok = arith.cmpi slt, %cm, %M_c : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_col_ok = arith.cmpi slt, %cn, %N_c : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_mask = arith.andi %c_row_ok, %c_col_ok : tensor<${BLOCK_M}x${BLOCK_N}xi1>
  tile.store %c_ptrs, %c_out, %c_mask
      : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${C_DTYPE}>>
  tile.return
}
