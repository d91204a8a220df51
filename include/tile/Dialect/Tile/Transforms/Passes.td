//===- Passes.td - Passes of the tile dialect --------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileSpecializeArguments
    : Pass<"tile-specialize-arguments", "ModuleOp"> {
  let summary = "Promise divisibilities of kernel arguments";
  let description = [{
    Adds `tile.divisibility` hints to kernel arguments, the way Triton
    specializes a kernel on which integer arguments are multiples of 16 and
    which pointers are 16-byte aligned. A runtime that knows the arguments of
    a launch applies it before compiling; from the command line it shows
    what the hints buy:

    ```
    tile-opt --tile-specialize-arguments="divisibility=0:16,1:16,2:16,3:16" ...
    ```

    Each entry is `ARGUMENT:DIVISIBILITY`, the argument's index and a power
    of two (bytes, for a pointer). A hint already on the argument is
    replaced.

    Integer arguments listed in `ones` are known to equal 1, as Triton
    specializes integers equal to 1: their uses become the constant 1, so a
    unit stride folds away and the axis analysis sees contiguous addresses
    (`a + i * stride` with `stride = 1`). The argument stays in the
    signature.

    ```
    tile-opt --tile-specialize-arguments="divisibility=0:16 ones=4,6" ...
    ```
  }];
  let options = [
    ListOption<"divisibility", "divisibility", "std::string",
               "ARGUMENT:DIVISIBILITY pairs">,
    ListOption<"ones", "ones", "unsigned",
               "integer arguments known to equal 1">,
  ];
}

def TileLoadsToDescs : Pass<"tile-loads-to-descs", "ModuleOp"> {
  let summary = "Turn loads of dot operands that are boxes into descriptor loads";
  let description = [{
    Finds the `tile.load`s a descriptor could make, so that a kernel written
    with pointers (Triton's matmul tutorial, `examples/matmul.mlir`) gets
    TMA's copies on sm_90a without being rewritten (the pipeline runs it
    with `tma`, before `tile-expand-tensor-descs`, which keeps the loads TMA
    serves and expands the others back). A load is taken when:

    - it is in an `scf.for`, of f16 or bf16, rank 2, and only `tile.dot`'s
      operand (or of f8E4M3FN or f8E5M2 and only `tile.dot`'s A: `wgmma`
      reads 8-bit operands contiguous along K, which B's rows are not);
    - its pointers are a kernel argument, plus scalar offsets, plus per
      dimension `(start + tile.range)` spread over the tile
      (`tile.expand_dims` and `tile.broadcast`) times a stride, the
      innermost stride the constant 1 (a launch whose stride is 1 has it
      as a constant once specialized) and the outer one an argument or a
      constant; a scalar offset `x * stride` belongs to the dimension of
      that stride, any other to the innermost;
    - its mask is, per dimension, `index < bound`, where the index is that
      dimension's coordinate and the bound an argument or a constant, or
      the index is the range alone and the bound `X - offset` for the
      offset the pointers add along that dimension (Triton's `k < K - k0`);
    - `other` is 0;
    - its base pointer and outer stride are known to be multiples of 16
      bytes, as a tensor map's must be (constants, or the
      `tile.divisibility` the runtime specializes a launch's arguments
      with): a launch that is not keeps its pointer loads rather than fail
      to make a descriptor it did not ask for.

    The descriptor (`[bound 0, bound 1]`, `[outer stride, 1]`) is made
    before the loop, and the load becomes a `tile.desc_load` at the
    coordinates' starts: the same elements, and 0 outside the bounds, as
    the mask gave. Launches that break a condition (a column-major operand,
    say) keep their loads.

    A descriptor load gives 0 before a tensor's start, where a pointer load
    reads the memory there (a pointer into the middle of a buffer, a
    negative start): the box's starts must not be negative. The pass
    proves each term of a start so (constants, program and cluster ids,
    induction variables of loops from such a bound, and their sums,
    products, quotients, minima and signed remainders, taken not to wrap).
    Terms it cannot prove but that are made before the loop (`pid_m *
    BLOCK_M` after a division by an argument, as in a grouped order) are
    tested there: the loop is versioned, `scf.if` on the terms being
    non-negative, the descriptor loads in its then-branch and the loop as
    it was in the else-branch (the two share their shared memory, since a
    program runs one). A load whose start the loop makes from unproven
    terms stays, as do loads needing a test in a cluster kernel (a
    cluster's programs could take different versions, and their exchanges
    would not meet) or in a loop inside another loop (the two versions'
    shared memory would add up).
  }];
}

def TileExpandTensorDescs : Pass<"tile-expand-tensor-descs", "ModuleOp"> {
  let summary = "Turn descriptor loads into masked loads of pointer tiles";
  let description = [{
    The portable lowering of `tile.desc_load`: each becomes the `tile.load`
    a kernel would write by hand, with the box's coordinates from
    `tile.range` plus the offsets, the pointers `base + sum(coordinate *
    stride)` and a mask that is false outside the tensor, where the load
    gives 0:

    ```mlir
    %d = tile.make_tensor_desc %x, [%m], [%c1]
        : !tile.ptr<f32> -> !tile.tensor_desc<128xf32>
    %t = tile.desc_load %d[%i] : !tile.tensor_desc<128xf32> -> tensor<128xf32>
    ```

    becomes a `tile.range 0, 128` plus `%i`, compared with `0` and `%m`,
    added to `%x` and loaded under the mask with `other` 0 (the stride 1
    multiplies nothing). `tile.make_tensor_desc`s left without uses are
    erased. The later passes then treat it as any load: coalescing,
    pipelining, `cp.async` staging for dots. It runs first in the
    `tile-to-ptx` pipeline.

    With `tma`, it keeps the descriptor loads that a TMA copy serves on
    sm_90a (the pipeline sets it there when asked to): those whose tile is
    only an operand of `tile.dot`s that `wgmma` can compute (an M x N
    product whose warpgroups `getWgmmaWarpsPerCTA` places on the kernel's
    warps, K a multiple of 16, or 32 for 8-bit floats), of f16 or bf16
    (or of f8E4M3FN or f8E5M2 as the dots' A only), a box of two dimensions
    with rows of at least 32 bytes and a multiple of 8 rows, loaded in an
    `scf.for` of more than one iteration (one of one is inlined later).
    `tilegpu-pipeline` copies them with `tilegpu.tma_load`, and the kernel
    takes a tensor map per descriptor.
  }];
  let options = [
    Option<"tma", "tma", "bool", /*default=*/"false",
           "Keep the descriptor loads that TMA copies (dot operands on "
           "sm_90a)">,
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps of a kernel without tile.num_warps">,
  ];
}

def TilePipelineLoops : Pass<"tile-pipeline-loops", "ModuleOp"> {
  let summary = "Load the next iteration's tiles while computing this one";
  let description = [{
    Software pipelining of `scf.for` loops that ask for it with
    `tile.num_stages = N` (N >= 2), the counterpart of Triton's
    `tl.range(..., num_stages=N)`. Every `tile.load` of a tile in the loop
    body whose pointers, mask and `other` depend only on the induction
    variable and on values from outside the loop (and on the induction
    variable: a load of the same tile every iteration is left where it is)
    is issued one iteration ahead: the loop loads the first iteration's tile before it starts, and
    each iteration first loads the next iteration's tile (masked off past
    the end of the loop) and carries it to the next iteration. The load's
    latency then overlaps the current iteration's computation.

    Like Triton's `num_stages`, this is a promise of the kernel's author:
    a load moves ahead of the stores of the current iteration, so the loop
    must not store to memory that the next iteration loads. Only one
    iteration ahead is implemented: every N >= 2 means the same. The
    attribute is removed once the loop is pipelined, unless the loop loads
    operands of a `tile.dot`: those loads are left to `tilegpu-pipeline`,
    which stages them through shared memory N deep.

    Pipelining never makes a kernel spill: the tiles loaded ahead stay in
    registers for a whole iteration, on top of what the iteration itself
    keeps live. The pass estimates both (tile/Analysis/RegisterEstimate.h:
    the peak of the loop body's floating-point tiles, per thread, over the
    kernel's warps) and leaves a loop unpipelined, removing its attribute,
    when body + prefetched tiles + a reserve of 32 for scalars would exceed
    what one thread may use (min(255, 65536 / (threads x blocks)), the
    blocks per SM being the kernel's `tile.min_blocks_per_sm`, else 1). The
    warps are the kernel's `tile.num_warps`, or the pass option.

    ```mlir
    scf.for %row = %start to %n step %step : i32 {
      ...
    } {tile.num_stages = 2 : i32}
    ```
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per block, for kernels without a tile.num_warps attribute">,
  ];
  let dependentDialects = ["arith::ArithDialect"];
}

def TileStrengthReduceDivisions
    : Pass<"tile-strength-reduce-divisions", "ModuleOp"> {
  let summary = "Divide by loop-invariant values with a multiply and shifts";
  let description = [{
    An `i32` division or remainder by a value known only at run time takes
    some twenty instructions on an NVIDIA GPU, which has no integer divider
    (a reciprocal in floating point, then corrections), in a chain of
    dependent ones. In a loop whose divisor does not change (a persistent
    kernel's tile and k-step from its step, `step / num_k`), this pass
    computes once, before the outermost loop the divisor is invariant in,
    the divisor's magic multiplier and shifts (Granlund and Montgomery,
    "Division by Invariant Integers using Multiplication", PLDI 1994,
    figure 4.1), and divides in the loop by a high multiply, a subtraction,
    an addition and two shifts, exactly for every dividend and every
    divisor the operation defines:

    ```
    l = 32 - ctlz(|d| - 1)                    (ceil(log2 |d|))
    m = ((2^l - |d|) << 32) / |d| + 1         (64-bit, before the loop)
    t = mulhi(m, |n|)
    q = (t + ((|n| - t) >> min(l, 1))) >> max(l - 1, 0)
    ```

    `arith.divui`/`remui` divide `n` by `d` so; `arith.divsi`/`remsi`
    divide the magnitudes and give the quotient the sign of `n xor d`
    (truncation toward zero), unless MLIR's integer range analysis proves
    `n >= 0` and `d >= 1` (a loop's step from 0, `tile.program_id`,
    `tile.num_programs`, `max(x, 1)`), where they divide as unsigned ones;
    a remainder is `n - q * d`. Divisors that are
    constants are left to LLVM, which does the same at compile time; other
    types than `i32` are left as they are. The magic is computed from
    `max(|d|, 1)`, so that a loop that never divides by zero (or does not
    run) does not divide by zero before it.

    ```mlir
    scf.for %step = %c0 to %steps step %c1 : i32 {
      %tile = arith.divsi %step, %num_k : i32
      ...
    }
    ```
  }];
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
