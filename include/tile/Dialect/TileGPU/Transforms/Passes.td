//===- Passes.td - Passes of the tilegpu dialect -----------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUCoalesce : Pass<"tilegpu-coalesce", "ModuleOp"> {
  let summary = "Pick layouts whose global accesses are 128 bits wide";
  let description = [{
    Runs the axis analysis (contiguity, divisibility and constancy of the
    pointers and masks of every `tile.load` and `tile.store`) and, for each
    rank, widens the shared layout so that each thread holds as many
    consecutive elements along the contiguous dimension as one access can
    move: up to 16 bytes (4 x f32, 8 x f16), fewer where alignment,
    contiguity or the mask do not allow, and no more than the tile gives each
    thread. The widest access of the largest tile of the rank decides; the
    layout's `order` follows the contiguous dimension.
  }];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
}

def TileGPURemoveLayoutConversions
    : Pass<"tilegpu-remove-layout-conversions", "ModuleOp"> {
  let summary = "Remove layout conversions that are not needed";
  let description = [{
    Folds chains of `tilegpu.convert_layout` and conversions to the same
    layout, and makes the value in the wanted layout directly where that is
    free: a `tile.range`, `tile.splat` or constant is rebuilt in the target
    layout, and so is an elementwise operation whose only use is the
    conversion (its operands are converted instead, and so on up). A value an
    `scf.for` carries whose every use in the body converts it to one layout,
    and which comes back converted from that layout (a `tile.dot`
    accumulator), or made by an elementwise operation of such conversions
    and values free in any layout (an accumulator reset by a select at a
    tile's last step), is carried in that layout instead: converted once
    before the loop and once after it. A `tile.store` of a converted `tile.dot`
    result (directly or through a cast) stores from the result's `#mma`
    layout. A conversion of a value computed from ranges, splats and
    constants by elementwise operations, `tile.addptr`, `tile.broadcast` and
    `tile.expand_dims` (addresses and masks, up to 48 operations) is
    replaced by the same computation in the target layout. A conversion
    feeding an op that narrows its elements (`arith.truncf` of an
    accumulator) moves below it, so that it moves fewer bytes, into the
    branch of an `scf.if` if the op is there (never into a loop). What is left
    moves data between threads.

    A stored result of `mma.sync` (`#mma` version 2) is stored from its
    registers (`store-from-mma`, on by default). A stored result of `wgmma`
    (version 3) of 16 or 32 bits keeps its conversion to the store's
    coalesced layout, after the cast, unless `store-from-wgmma`: through
    shared memory, each warp then stores whole rows 16 bytes per thread
    rather than pairs of elements from 8 rows (on an H200, 0.97-0.98 of
    cuBLAS at 4096^3 against 0.89). An 8-bit `wgmma` result is stored from
    its registers.
  }];
  let options = [
    Option<"storeFromMma", "store-from-mma", "bool", /*default=*/"true",
           "Store an mma.sync result straight from its #mma registers">,
    Option<"storeFromWgmma", "store-from-wgmma", "bool", /*default=*/"false",
           "Store a 16- or 32-bit wgmma result straight from its #mma "
           "registers rather than through shared memory">,
  ];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
}

def TileGPUPipeline : Pass<"tilegpu-pipeline", "ModuleOp"> {
  let summary = "Stage tile.dot operands through shared memory, N deep";
  let description = [{
    Every `tile.load` in an `scf.for` whose tile only feeds a `tile.dot` on
    tensor cores (`tilegpu.convert_layout` to a `#dot_operand` of an `#mma`
    layout) becomes an asynchronous copy into a swizzled shared buffer
    (`tilegpu.async_copy`, `cp.async`) and a `tilegpu.local_load` from it
    (`ldmatrix`). The copy gets a layout of its own: 16 bytes per thread
    along the contiguous dimension, the warp's threads over whole rows, so
    that no two threads copy the same bytes. The shared layout's swizzle is
    Triton's for `mma.sync` operands: groups of 16 bytes XORed with the row
    over 8 rows of 128 bytes, so that `ldmatrix` and the copies are free of
    bank conflicts.

    With `tile.num_stages = N` (N >= 2) on the loop, and the loads'
    pointers and masks computed from the induction variable and values
    from outside the loop only (by pure operations, or divisions whose
    divisor is known to be at least 1), the buffers form a ring of N: the loop's
    first N - 1 iterations are copied before it starts, and each iteration
    waits for its own copies (`tilegpu.async_wait` with N - 2 groups left
    in flight, and one barrier), reads them, and starts the copies of
    iteration i + N - 1 into the buffer that iteration i - 1 read (masked
    off past the end of the loop). Otherwise each load is copied and waited
    for in place (two barriers). Like `tile.num_stages` elsewhere, this
    moves loads ahead of the loop's stores: the loop must not store what
    later iterations of it load.

    Loads whose `other` is not zero (a masked-off element must read as 0,
    which `cp.async` gives), tiles of elements other than 16 or 32 bits, and
    tiles too small for the copy layout to give each element to one thread
    (fewer elements than the block has threads, times the vector: threads
    would copy the same elements, racing) are left as they are.

    The loop records in `tilegpu.stage_distance` that a stage is written
    again the iteration after the one that read it (1): a product still
    reading its stage when the next iteration starts must be waited for
    before that iteration's copies (see `tilegpu-warpgroup-dot`).
  }];
  let dependentDialects = ["tilegpu::TileGPUDialect", "arith::ArithDialect",
                           "scf::SCFDialect"];
}

def TileGPUWarpgroupDot : Pass<"tilegpu-warpgroup-dot", "ModuleOp"> {
  let summary = "Multiply with Hopper's wgmma, straight from shared memory";
  let description = [{
    On `sm_90a`, a `tile.dot` on tensor cores whose two operands
    `tilegpu-pipeline` staged in shared memory (whole `tilegpu.local_load`s
    of its buffers) becomes a `tilegpu.warpgroup_dot` reading those buffers
    (`wgmma.mma_async`), its accumulator in the `#tilegpu.mma` layout of
    version 3, converted from and to the version 2 layout it had (the
    layout-conversion removal then carries the accumulator in version 3
    through the loop, and stores the result from it). The buffers take the
    swizzled layouts `wgmma` reads (`columnsPerBlock` where rows are longer
    than 128 bytes; the copies into them follow), and every
    `tilegpu.async_wait` of the kernel gets `fence_async_proxy`, so that
    what `cp.async` wrote is visible to `wgmma`'s reads.

    The product is issued as soon as its buffers are ready (after the
    wait that precedes it), and waited for where the dot stood. In a loop
    that `tilegpu-pipeline` made a ring of (`tilegpu.stage_distance`), with
    the accumulator carried from one product to the next and read nowhere
    else (and, at distance 1, no copy of the iteration before the
    product), the product runs into the next iteration instead: right after
    issuing it, the warpgroup waits for the one before
    (`tilegpu.warpgroup_wait` with one group pending) and the block meets
    at a `tilegpu.barrier`, after which the iteration's copies may
    overwrite the stage that product read; the loop's result is waited for
    after it. With distance 2 or more, the wait stays where the dot stood
    and no barrier is needed. So each iteration keeps N - 1 stages of
    copies and one product in flight, as Triton's Hopper loop does.

    The dot must multiply f16 or bf16, on a multiple of 4 warps, with M a
    multiple of 64 (a warpgroup's instruction) and N wide enough for the
    warpgroups (see `Wgmma.h`); otherwise, and for any other chip, it stays
    on `mma.sync`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU the kernels are compiled for: sm_90a uses wgmma">
  ];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
}

def TileGPUSplitDot : Pass<"tilegpu-split-dot", "ModuleOp"> {
  let summary = "Load a tensor-core dot's operands one step of K at a time";
  let description = [{
    A `tile.dot` on tensor cores (`#mma` result) whose operands are whole
    tiles loaded from shared memory (`tilegpu.local_load`, used by the dot
    only) becomes one dot per step of the `mma.sync` instruction's K (16,
    or 8 for TF32), chained through the accumulator, each reading its
    slices of the two buffers (`local_load` with `offsets`) just before it.
    The products are added in the same order, so the result does not
    change; a thread holds one step's fragments at a time instead of the
    whole of K's, which frees registers (more blocks per SM, or larger K
    tiles) and lets the next step's `ldmatrix` overlap this step's
    `mma.sync`. Triton's `tritongpu-prefetch` splits dots the same way.

    The loads move to the dot, past the asynchronous copies that
    `tilegpu-pipeline` starts between them; any other operation that may
    write memory, or waits, between a load and its dot leaves the dot whole.
  }];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
}

def TileGPUPrefetch : Pass<"tilegpu-prefetch", "ModuleOp"> {
  let summary = "Load the next iteration's first step of K before its barrier";
  let description = [{
    Rotates a loop that `tilegpu-pipeline` and `tilegpu-split-dot` made by
    one step of K: the loop's `tilegpu.async_wait` (and its barrier) moves
    from the top of each iteration to just before the last step's dot,
    followed by the loads of the next iteration's first step from the
    buffer the next iteration reads, which the loop carries; before the
    loop, a wait and the first iteration's first step. Each iteration then
    starts multiplying on operands already in registers, and the
    `ldmatrix` of the next iteration's first step runs behind this
    iteration's last `mma.sync`, which ptxas cannot arrange itself across
    a barrier or the loop's back edge. CUTLASS's sm80 main loop and
    Triton's `tritongpu-prefetch` do the same.

    The loop must start with the wait, read its buffers (`local_load` of a
    `memdesc_index` of a ring allocated outside, at an index the loop
    carries) at one index, and do nothing after its last read but
    operations free of memory effects (the dot, index arithmetic);
    otherwise it is left as it is. The barrier still separates every read
    of a buffer from the copies into it, and the same groups of copies have
    been committed where the wait moves to.
  }];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
}

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
