//===- TileGPUOps.td - Operations of the tilegpu dialect ---*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "tile/Dialect/TileGPU/IR/TileGPUDialect.td"
include "tile/Dialect/TileGPU/IR/TileGPUAttrs.td"
include "tile/Dialect/TileGPU/IR/TileGPUTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure]> {
  let summary = "Moves a tile to another layout";
  let description = [{
    The same tile, held by other threads or registers. When the two layouts
    differ in which lanes or warps hold an element, the lowering goes
    through shared memory (a barrier on each side); when they differ only in
    the order of a thread's registers, no data moves. The
    `tilegpu-remove-layout-conversions` pass removes the conversions it can.

    ```mlir
    %y = tilegpu.convert_layout %x
        : tensor<4xf32, #tilegpu.slice<{dim = 1, parent = #b2}>>
        -> tensor<4xf32, #b1>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def TileGPU_MemDesc : Type<CPred<"::llvm::isa<::mlir::tilegpu::MemDescType>($_self)">,
                           "a tile in shared memory", "::mlir::tilegpu::MemDescType">;

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc",
    [MemoryEffects<[MemAlloc]>]> {
  let summary = "A buffer of shared memory for the kernel's lifetime";
  let description = [{
    Reserves the bytes of `result` in the block's shared memory. The
    lowering gives each allocation its own range, and reports a kernel
    whose buffers and scratch together exceed what a block can have on the
    chip; the contents are undefined until written.

    ```mlir
    %buf = tilegpu.local_alloc : !tilegpu.memdesc<3x128x32xf16, #shared>
    ```
  }];
  let results = (outs TileGPU_MemDesc:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TileGPU_MemDescIndexOp : TileGPU_Op<"memdesc_index", [Pure]> {
  let summary = "One buffer of a ring of shared-memory buffers";
  let description = [{
    Buffer `index` (counted from 0) along the leading dimension of `src`:
    the result has the rest of the shape, the element type and the layout
    of `src`. An index out of range is undefined behaviour.

    ```mlir
    %stage = tilegpu.memdesc_index %buf[%i]
        : !tilegpu.memdesc<3x128x32xf16, #shared>
        -> !tilegpu.memdesc<128x32xf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_MemDesc:$src, I32:$index);
  let results = (outs TileGPU_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy"> {
  let summary = "Starts copying a tile from global to shared memory";
  let description = [{
    Each thread copies the elements the layout of `ptr` gives it from their
    addresses into `dst`, with `cp.async` (sm_80 and later) in pieces of up
    to 16 bytes; where `mask` is false the element becomes 0 and its
    address is not read. The copy is asynchronous: it belongs to the
    thread's group that the next `tilegpu.async_commit_group` closes, and
    its bytes can be read once a `tilegpu.async_wait` has waited for that
    group. Pieces the hardware cannot copy asynchronously (under 4 bytes)
    are loaded and stored by the thread at once.

    ```mlir
    tilegpu.async_copy %ptrs, %stage mask %ok
        : tensor<128x32x!tile.ptr<f16>, #blocked>,
          !tilegpu.memdesc<128x32xf16, #shared>, tensor<128x32xi1, #blocked>
    ```
  }];
  let arguments = (ins Arg<AnyRankedTensor, "", [MemRead]>:$ptr,
                       Arg<TileGPU_MemDesc, "", [MemWrite]>:$dst,
                       Optional<AnyRankedTensor>:$mask);
  let assemblyFormat = [{
    $ptr `,` $dst (`mask` $mask^)? attr-dict `:` type($ptr) `,`
    qualified(type($dst)) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : TileGPU_Op<"async_commit_group",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Closes the thread's group of asynchronous copies";
  let description = [{
    The `tilegpu.async_copy` operations the thread started since the last
    commit form one group (`cp.async.commit_group`), which
    `tilegpu.async_wait` counts.

    ```mlir
    tilegpu.async_commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits for all but the latest groups of copies, then syncs";
  let description = [{
    Waits until at most `pending` of the thread's committed groups of
    copies are still in flight (`cp.async.wait_group`), then meets the
    block's other threads at a barrier, so that every thread's copies of
    the older groups are visible to all of them, and every thread has
    finished reading what the buffers held before (the one barrier per
    stage of a pipelined loop).

    With `fence_async_proxy`, each thread orders its copies before later
    reads through the async proxy (`fence.proxy.async.shared::cta`) before
    the barrier: `wgmma` reads its operands through that proxy, and
    `cp.async` writes through the generic one.

    ```mlir
    tilegpu.async_wait {pending = 2 : i32}
    tilegpu.async_wait {fence_async_proxy, pending = 0 : i32}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pending,
                       UnitAttr:$fence_async_proxy);
  let assemblyFormat = "attr-dict";
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Meets the block's other threads";
  let description = [{
    Every thread of the block waits here until all have arrived
    (`bar.sync 0`): what each wrote to shared memory before it is visible
    to all after it, and what each read before it has been read before any
    writes after it. In a pipelined loop on Hopper, it follows the
    `tilegpu.warpgroup_wait` that retires the previous iteration's product,
    so that no warpgroup's copies overwrite a buffer another warpgroup's
    product may still be reading.

    ```mlir
    tilegpu.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load"> {
  let summary = "Loads a tile from shared memory into registers";
  let description = [{
    Each thread reads the elements its result's layout gives it. Into a
    `#dot_operand` layout of an `#mma` parent whose fragments match the
    buffer's rows, the lowering uses `ldmatrix` (`.trans` where the buffer
    is contiguous along the other dimension); otherwise one load per
    element.

    With `offsets`, the result is the part of the buffer of the result's
    shape that starts at `offsets`, each a multiple of the result's size
    along its dimension (so that the part is aligned: its swizzled offsets
    are those of a whole tile XOR a constant). `tilegpu-split-dot` loads a
    dot's operands one step of K at a time this way.

    ```mlir
    %a = tilegpu.local_load %stage : !tilegpu.memdesc<128x32xf16, #shared>
        -> tensor<128x32xf16, #dot_op>
    %a1 = tilegpu.local_load %stage offsets [0, 16]
        : !tilegpu.memdesc<128x32xf16, #shared> -> tensor<128x16xf16, #dot_op>
    ```
  }];
  let arguments = (ins Arg<TileGPU_MemDesc, "", [MemRead]>:$src,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src (`offsets` $offsets^)? attr-dict `:` qualified(type($src)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TileGPU_WarpgroupDotOp : TileGPU_Op<"warpgroup_dot",
    [AllTypesMatch<["c", "d"]>]> {
  let summary = "A matrix product on Hopper's tensor cores, from shared memory";
  let description = [{
    `d = a @ b + c`, as `tile.dot`, with `a` (M x K) and `b` (K x N) read
    from shared memory by `wgmma.mma_async` (sm_90a) through matrix
    descriptors, and `c` and `d` in the `#tilegpu.mma` layout of version 3.
    Each warpgroup (4 warps) multiplies its rows of `a` by its columns of
    `b`, 64 rows by up to 256 columns by 16 of K per instruction. The
    buffers' layouts are those `wgmma` reads: a 128-, 64- or 32-byte
    swizzle whose rows are the swizzle's width (`columnsPerBlock` cuts
    longer ones), contiguous along K (K-major) or along M or N (MN-major).

    The lowering fences the accumulator's registers (`wgmma.fence`), issues
    every instruction and commits them as a group (`wgmma.commit_group`).
    The product is asynchronous: `d` may be read, and the buffers
    overwritten, only after a `tilegpu.warpgroup_wait` of `d` (another
    `warpgroup_dot` may take `d` as its `c` before that: the tensor cores
    keep their order). `tilegpu-warpgroup-dot` makes this op from a
    `tile.dot` whose operands `tilegpu-pipeline` staged in shared memory,
    issued as early as the buffers are ready, and the wait where the dot
    stood.

    With `accumulate`, an `i1` the same across the warpgroup, a false
    value makes `d = a @ b`, `c` unread (wgmma's scale-d operand, on the
    instructions of the first 16 or 32 of K): a product that starts an
    accumulation from zeros, where the kernel selects between zeros and the
    last product (`tilegpu-warpgroup-dot` folds such a select into it), need
    not wait for the last product to finish before it is issued.

    ```mlir
    %d = tilegpu.warpgroup_dot %a, %b, %c
        : !tilegpu.memdesc<128x64xf16, #shared>,
          !tilegpu.memdesc<64x128xf16, #shared1>,
          tensor<128x128xf32, #mma>
    %e = tilegpu.warpgroup_dot %a, %b, %d accumulate(%keep)
        : !tilegpu.memdesc<128x64xf16, #shared>,
          !tilegpu.memdesc<64x128xf16, #shared1>,
          tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins Arg<TileGPU_MemDesc, "", [MemRead]>:$a,
                       Arg<TileGPU_MemDesc, "", [MemRead]>:$b,
                       AnyRankedTensor:$c,
                       Optional<I1>:$accumulate);
  let results = (outs AnyRankedTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`accumulate` `(` $accumulate^ `)`)? attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` type($c)
  }];
  let hasVerifier = 1;
}

def TileGPU_WarpgroupWaitOp : TileGPU_Op<"warpgroup_wait",
    [AllTypesMatch<["value", "result"]>]> {
  let summary = "Waits for the warpgroup's earlier products";
  let description = [{
    Waits until at most `pending` of the warpgroup's committed groups of
    `tilegpu.warpgroup_dot` products are still running
    (`wgmma.wait_group`), and returns `value` (the result of one of them),
    now safe to read: the accumulator's registers pass through the wait,
    so nothing reads them before it. When it returns with `pending = 0`,
    the products' reads of shared memory are done too.

    ```mlir
    %e = tilegpu.warpgroup_wait %d {pending = 0 : i32}
        : tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// The Tensor Memory Accelerator (sm_90)
//===----------------------------------------------------------------------===//

def TileGPU_MBarriers : Type<CPred<"::llvm::isa<::mlir::tilegpu::MBarriersType>($_self)">,
                             "mbarriers", "::mlir::tilegpu::MBarriersType">;
def TileGPU_TensorDesc : Type<CPred<"::llvm::isa<::mlir::tile::TensorDescType>($_self)">,
                              "tensor descriptor", "::mlir::tile::TensorDescType">;

def TileGPU_MBarrierAllocOp : TileGPU_Op<"mbarrier_alloc",
    [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "Makes a row of mbarriers, each expecting `arrivals` arrivals";
  let description = [{
    Reserves 8 bytes of the block's shared memory per mbarrier of the
    result (for the kernel's lifetime, as `tilegpu.local_alloc` does); then
    the block meets, thread 0 initializes each to expect `arrivals`
    arrivals per phase (`mbarrier.init`) and fences the initialization
    (`fence.mbarrier_init`), and the block meets again, so that no thread
    arrives on or waits for a barrier before it is initialized. Each
    mbarrier starts in phase 0. Running it again (in an outer loop)
    re-initializes them: the first meeting keeps thread 0 from resetting a
    barrier another thread still waits on, and every copy that signals them
    must be complete by then (a pipelined loop waits for each copy it
    starts).

    ```mlir
    %bars = tilegpu.mbarrier_alloc {arrivals = 2 : i32} : !tilegpu.mbarriers<3>
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$arrivals);
  let results = (outs TileGPU_MBarriers:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TileGPU_MBarrierWaitOp : TileGPU_Op<"mbarrier_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits for a phase of an mbarrier to complete";
  let description = [{
    Every thread waits until the phase of mbarrier `index` of `bars` whose
    parity is `phase` (0 or 1) has completed
    (`mbarrier.try_wait.parity`, in a loop): all its arrivals have arrived
    and the bytes they expected have landed. What the phase's TMA copies
    wrote is then visible to the thread. It is not a block barrier: other
    threads may still be reading what the buffers held before.

    ```mlir
    tilegpu.mbarrier_wait %bars[%stage], %phase : !tilegpu.mbarriers<3>
    ```
  }];
  let arguments = (ins Arg<TileGPU_MBarriers, "", [MemRead]>:$bars,
                       I32:$index, I32:$phase);
  let assemblyFormat = [{
    $bars `[` $index `]` `,` $phase attr-dict `:` qualified(type($bars))
  }];
}

def TileGPU_TmaLoadOp : TileGPU_Op<"tma_load", [AttrSizedOperandSegments]> {
  let summary = "Copies a descriptor's box into shared memory with TMA";
  let description = [{
    The box of `desc` (a `tile.make_tensor_desc`) at `offsets` (the first
    element's coordinates, outermost first, as `tile.desc_load` takes
    them), copied into `dst` by the Tensor Memory Accelerator
    (`cp.async.bulk.tensor`, sm_90): elements outside the tensor become 0.
    One thread of the block arrives on mbarrier `index` of `bars`,
    expecting the box's bytes (`mbarrier.arrive.expect_tx`), and issues the
    copy, which completes those bytes on the same mbarrier; a
    `tilegpu.mbarrier_wait` for that phase makes them visible. With `pred`
    false, nothing is copied and nobody arrives.

    `dst` has the descriptor's block shape and element type, contiguous
    along its last dimension (order [1, 0]), in a layout TMA writes: rows
    of 32, 64 or 128 bytes swizzled by TMA's pattern of that width
    (`#tilegpu.shared` with 16-byte vectors, perPhase = 128 / row bytes and
    maxPhase = row bytes / 16), or not swizzled (maxPhase = 1, rows of a
    multiple of 16 bytes, at most 256 elements). Longer swizzled rows are
    cut into blocks of columns (`columnsPerBlock`), each its own copy.
    The kernel receives the descriptor's tensor map as a hidden parameter
    (see docs/compiler.md).

    ```mlir
    tilegpu.tma_load %desc[%m, %k], %stage, %bars[%s] if %ok
        : !tile.tensor_desc<128x64xf16>,
          !tilegpu.memdesc<128x64xf16, #shared>, !tilegpu.mbarriers<3>
    ```
  }];
  let arguments = (ins TileGPU_TensorDesc:$desc, Variadic<I32>:$offsets,
                       Arg<TileGPU_MemDesc, "", [MemWrite]>:$dst,
                       Arg<TileGPU_MBarriers, "", [MemRead, MemWrite]>:$bars,
                       I32:$index, Optional<I1>:$pred);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `,` $dst `,` $bars `[` $index `]`
    (`if` $pred^)? attr-dict `:` qualified(type($desc)) `,`
    qualified(type($dst)) `,` qualified(type($bars))
  }];
  let hasVerifier = 1;
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
