// Matrix multiply, C[M, N] = A[M, K] @ B[K, N], with matmul.mlir's
// arguments, meta-parameters and results, written as a persistent kernel:
// a variant of matmul.mlir that the tuner times beside it (tile-run
// examples/matmul.mlir examples/matmul_persistent.mlir --tune; both take
// the same grid, one program per tile of C: cdiv(M, BLOCK_M) * cdiv(N,
// BLOCK_N)).
//
// `tile.persistent` says that the programs loop over the launch's work, so
// that on the GPU a launch of TILES programs runs on as many as fit at once
// (one or two per SM), at most TILES. Each program walks its tiles of C
// (first, first + programs, ...) in matmul.mlir's grouped order, in one
// flattened loop over (tile, k-step) pairs: the pipeliner's copies for the
// next tile's first steps are then in flight during this tile's epilogue
// (docs/compiler.md, "A persistent matmul"). The accumulator starts from
// zeros at a tile's first step (a select, which on sm_90a becomes wgmma's
// scale-d) and C is stored at its last (an scf.if). The CPU interpreter
// runs the TILES programs, one tile each.
//
// The max(., 0) and max(., 1) clamps change no result for a launch that
// computes anything: they let tile-loads-to-descs prove the boxes' starts
// non-negative (TMA needs no versioned loop), and the pipeliners see every
// divisor of the copies' offsets to be at least 1 (so they may compute them
// ahead).
//
// tile.param BLOCK_M = 128 in 16, 32, 64, 128, 256
// tile.param BLOCK_N = 128 in 16, 32, 64, 128, 256
// tile.param BLOCK_K = 64 in 16, 32, 64, 128
// tile.param GROUP_M = 8 in 1, 4, 8, 16
// tile.param NUM_WARPS = 4 in 1, 2, 4, 8
// tile.param NUM_STAGES = 3 in 1, 2, 3, 4
// tile.param DTYPE = f16 in f32, f16, bf16, f8E4M3FN, f8E5M2
// tile.param C_DTYPE = DTYPE in f32, f16, bf16, f8E4M3FN, f8E5M2

tile.func @matmul_persistent(
    %a: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %b: !tile.ptr<${DTYPE}> {tile.divisibility = 16 : i64},
    %c: !tile.ptr<${C_DTYPE}> {tile.divisibility = 16 : i64},
    %M: i32, %N: i32, %K: i32,
    %stride_am: i32, %stride_ak: i32,
    %stride_bk: i32, %stride_bn: i32,
    %stride_cm: i32, %stride_cn: i32)
    attributes {tile.num_warps = ${NUM_WARPS} : i32, tile.persistent} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block_m = arith.constant ${BLOCK_M} : i32
  %block_n = arith.constant ${BLOCK_N} : i32
  %block_k = arith.constant ${BLOCK_K} : i32
  %group_m = arith.constant ${GROUP_M} : i32

  // This program's tiles of C: first, first + programs, ... (grid = SMs).
  %first = tile.program_id x : i32
  %programs = tile.num_programs x : i32
  %M0 = arith.maxsi %M, %c0 : i32
  %N0 = arith.maxsi %N, %c0 : i32
  %K0 = arith.maxsi %K, %c0 : i32
  %num_pid_m = arith.ceildivsi %M0, %block_m : i32
  %num_pid_n = arith.ceildivsi %N0, %block_n : i32
  %num_tiles = arith.muli %num_pid_m, %num_pid_n : i32
  %group_tiles = arith.muli %group_m, %num_pid_n : i32
  %num_pid_in_group = arith.maxsi %group_tiles, %c1 : i32
  // The groups of GROUP_M rows of tiles, and the last group's rows where
  // GROUP_M does not divide them (at least 1: a divisor).
  %full_groups = arith.divui %num_pid_m, %group_m : i32
  %last_rows = arith.remui %num_pid_m, %group_m : i32
  %last_group_m = arith.maxsi %last_rows, %c1 : i32
  %tiles_left = arith.subi %num_tiles, %first : i32
  %my_tiles_raw = arith.ceildivsi %tiles_left, %programs : i32
  %my_tiles = arith.maxsi %my_tiles_raw, %c0 : i32
  // At least one step per tile, so that K = 0 still writes C's zeros.
  %num_k_raw = arith.ceildivsi %K0, %block_k : i32
  %num_k = arith.maxsi %num_k_raw, %c1 : i32
  %last_k = arith.subi %num_k, %c1 : i32
  %steps = arith.muli %my_tiles, %num_k : i32

  %rm_range = tile.range 0, ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %rn_range = tile.range 0, ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %rk = tile.range 0, ${BLOCK_K} : tensor<${BLOCK_K}xi32>
  %rk_row = tile.expand_dims %rk axis 0
      : tensor<${BLOCK_K}xi32> -> tensor<1x${BLOCK_K}xi32>
  %ak = tile.broadcast %rk_row
      : tensor<1x${BLOCK_K}xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %rk_col = tile.expand_dims %rk axis 1
      : tensor<${BLOCK_K}xi32> -> tensor<${BLOCK_K}x1xi32>
  %bk = tile.broadcast %rk_col
      : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %stride_am_t = tile.splat %stride_am : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %stride_ak_t = tile.splat %stride_ak : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %stride_bk_t = tile.splat %stride_bk : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %stride_bn_t = tile.splat %stride_bn : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %a_cols = arith.muli %ak, %stride_ak_t : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %b_rows = arith.muli %bk, %stride_bk_t : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %M_a = tile.splat %M : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %N_b = tile.splat %N : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>

  %zero_a = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_K}xf32>
  %zero_a_in = tile.cast %zero_a
      : tensor<${BLOCK_M}x${BLOCK_K}xf32> to tensor<${BLOCK_M}x${BLOCK_K}x${DTYPE}>
  %zero_b = arith.constant dense<0.0> : tensor<${BLOCK_K}x${BLOCK_N}xf32>
  %zero_b_in = tile.cast %zero_b
      : tensor<${BLOCK_K}x${BLOCK_N}xf32> to tensor<${BLOCK_K}x${BLOCK_N}x${DTYPE}>
  %acc0 = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>

  // One loop over (tile, k-step) pairs: the loads of a tile's first steps
  // are issued while the tile before it is still multiplying and stored.
  // %ks is the step's k-step within its tile, counted along (the step's
  // remainder by %num_k without a division: a tile's first step issues its
  // product as soon as the ring's stage is ready, not after a division).
  %acc, %ks_out = scf.for %step = %c0 to %steps step %c1
      iter_args(%acc_i = %acc0, %ks = %c0)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, i32) : i32 {
    %nth = arith.divsi %step, %num_k : i32
    %kb = arith.remsi %step, %num_k : i32
    %nth_off = arith.muli %nth, %programs : i32
    %tile = arith.addi %first, %nth_off : i32

    // Grouped ordering, as matmul.mlir's, whose group size,
    // min(num_pid_m - first_pid_m, GROUP_M), is GROUP_M in every group
    // but a partial last one: a division by the constant there and by the
    // last group's rows (a loop invariant, which
    // tile-strength-reduce-divisions turns into a multiply) in the last,
    // rather than a division by a value that changes in the loop.
    %group_id = arith.divsi %tile, %num_pid_in_group : i32
    %first_pid_m = arith.muli %group_id, %group_m : i32
    %in_group = arith.remsi %tile, %num_pid_in_group : i32
    %in_full = arith.cmpi slt, %group_id, %full_groups : i32
    %m_full = arith.remui %in_group, %group_m : i32
    %n_full = arith.divui %in_group, %group_m : i32
    %m_last = arith.remui %in_group, %last_group_m : i32
    %n_last = arith.divui %in_group, %last_group_m : i32
    %pid_m_in = arith.select %in_full, %m_full, %m_last : i32
    %pid_m = arith.addi %first_pid_m, %pid_m_in : i32
    %pid_n = arith.select %in_full, %n_full, %n_last : i32
    %row0 = arith.muli %pid_m, %block_m : i32
    %col0 = arith.muli %pid_n, %block_n : i32

    %rm_start = tile.splat %row0 : i32 -> tensor<${BLOCK_M}xi32>
    %rm = arith.addi %rm_range, %rm_start : tensor<${BLOCK_M}xi32>
    %rn_start = tile.splat %col0 : i32 -> tensor<${BLOCK_N}xi32>
    %rn = arith.addi %rn_range, %rn_start : tensor<${BLOCK_N}xi32>
    %rm_col = tile.expand_dims %rm axis 1
        : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
    %am = tile.broadcast %rm_col
        : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %a_rows = arith.muli %am, %stride_am_t : tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %a_offsets = arith.addi %a_rows, %a_cols : tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %a_row_ok = arith.cmpi slt, %am, %M_a : tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %rn_row = tile.expand_dims %rn axis 0
        : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
    %bn = tile.broadcast %rn_row
        : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %b_cols = arith.muli %bn, %stride_bn_t : tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %b_offsets = arith.addi %b_rows, %b_cols : tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %b_col_ok = arith.cmpi slt, %bn, %N_b : tensor<${BLOCK_K}x${BLOCK_N}xi32>

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

    // A tile's first step starts from zeros: on sm_90a the select becomes
    // wgmma's scale-d, so that the product need not wait for the last one.
    %is_first = arith.cmpi eq, %ks, %c0 : i32
    %restart = tile.splat %is_first : i1 -> tensor<${BLOCK_M}x${BLOCK_N}xi1>
    %acc_in = arith.select %restart, %acc0, %acc_i
        : tensor<${BLOCK_M}x${BLOCK_N}xi1>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %acc_next = tile.dot %a_blk, %b_blk, %acc_in
        : tensor<${BLOCK_M}x${BLOCK_K}x${DTYPE}>,
          tensor<${BLOCK_K}x${BLOCK_N}x${DTYPE}> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>

    // The tile's last step: C[rm, rn] = acc as C_DTYPE.
    %is_last = arith.cmpi eq, %ks, %last_k : i32
    scf.if %is_last {
      %c_out = tile.cast %acc_next
          : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${C_DTYPE}>
      %rm_c = tile.expand_dims %rm axis 1
          : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
      %cm = tile.broadcast %rm_c
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
    }
    %ks_inc = arith.addi %ks, %c1 : i32
    %ks_next = arith.select %is_last, %c0, %ks_inc : i32
    scf.yield %acc_next, %ks_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>, i32
  } {tile.num_stages = ${NUM_STAGES} : i32}
  tile.return
}
