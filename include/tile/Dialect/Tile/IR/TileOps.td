//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Every operation of the `tile` dialect. Elementwise arithmetic, comparisons,
// selects and casts are not here: kernels use `arith` and `math` on tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_TD
#define TILE_DIALECT_TILE_IR_TILEOPS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "tile/Dialect/Tile/IR/TileAttrs.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferIntRangeInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Kernel entry and return.
//===----------------------------------------------------------------------===//

def Tile_FuncOp : Tile_Op<"func", [
    FunctionOpInterface, IsolatedFromAbove
  ]> {
  let summary = "A kernel: the program that every id of the grid runs";
  let description = [{
    Defines a GPU kernel. The body is the program that runs once for each
    program id of the launch grid (`tile.program_id`), like the body of a
    `@triton.jit` function. A kernel returns nothing; it communicates through
    the memory its pointer arguments address.

    Arguments are scalars: pointers (`!tile.ptr<T>`), integers (`i1`, `i32`,
    `i64`) and floats (`f16`, `bf16`, `f32`). A pointer or integer argument
    may carry `tile.divisibility = N`, a power of two, to promise that its
    value is a multiple of `N` (bytes, for a pointer).

    ```mlir
    tile.func @copy(%dst: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                    %src: !tile.ptr<f32> {tile.divisibility = 16 : i64}) {
      ...
      tile.return
    }
    ```
  }];

  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);

  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    //===------------------------------------------------------------------===//
    // FunctionOpInterface and CallableOpInterface methods
    //===------------------------------------------------------------------===//
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
}

def Tile_ReturnOp : Tile_Op<"return", [
    Pure, HasParent<"FuncOp">, ReturnLike, Terminator
  ]> {
  let summary = "Ends a kernel's program";
  let description = [{
    Terminates the body of a `tile.func`. Kernels return no values.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Program ids.
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure,
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "The id of this program along an axis of the grid";
  let description = [{
    Triton's `tl.program_id(axis)`: the index, along `axis` (`x`, `y` or
    `z`), of the program that is running, from 0 to `tile.num_programs` - 1.
    Its range, for MLIR's integer range analysis: 0 to 2^31 - 2 along `x`,
    0 to 65534 along `y` and `z` (CUDA's grid limits).

    ```mlir
    %pid = tile.program_id x : i32
    ```
  }];
  let arguments = (ins Tile_ProgramAxis:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure,
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "The number of programs along an axis of the grid";
  let description = [{
    Triton's `tl.num_programs(axis)`: the size of the launch grid along
    `axis`. A persistent kernel steps its loop by this value. Its range,
    for MLIR's integer range analysis: 1 to 2^31 - 1 along `x`, 1 to 65535
    along `y` and `z`.

    ```mlir
    %step = tile.num_programs x : i32
    ```
  }];
  let arguments = (ins Tile_ProgramAxis:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Clusters.
//===----------------------------------------------------------------------===//

class Tile_ClusterOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, traits> {
  let hasVerifier = 1;
}

def Tile_ClusterRankOp : Tile_ClusterOp<"cluster_rank", [Pure]> {
  let summary = "The rank of this program within its cluster";
  let description = [{
    In a kernel with `tile.cluster_size = N`, the programs with ids
    `c * N` to `c * N + N - 1` along x form cluster `c`; this is the
    program's place in it, from 0 to N - 1 (`program_id x` modulo N).

    ```mlir
    %rank = tile.cluster_rank : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_ClusterIdOp : Tile_ClusterOp<"cluster_id", [Pure]> {
  let summary = "The id of this program's cluster";
  let description = [{
    The cluster the program belongs to, from 0 to `tile.num_clusters` - 1
    (`program_id x` divided by the cluster size).

    ```mlir
    %cluster = tile.cluster_id : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_NumClustersOp : Tile_ClusterOp<"num_clusters", [Pure]> {
  let summary = "The number of clusters along x";
  let description = [{
    The grid's programs along x divided by the cluster size. A persistent
    kernel steps its loop over row blocks by this value.

    ```mlir
    %clusters = tile.num_clusters : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_ClusterReduceOp : Tile_ClusterOp<"cluster_reduce",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Reduces scalars across the programs of a cluster";
  let description = [{
    Every program of the cluster contributes its `values`; each gets, for
    each of them, the maximum or the sum over the cluster, combined in
    order of rank, so every program gets the same results. Every program of
    the cluster must reach the same `tile.cluster_reduce` the same number
    of times, like a barrier: one that exits first leaves the others
    waiting (the interpreter reports it; a GPU would hang). Float `max`
    propagates NaN; integer `max` is signed.

    On the GPU each program writes its values into every other program's
    shared memory (distributed shared memory, `mapa` and asynchronous
    stores that complete the receiver's mbarrier), and each program waits
    for all of them and combines them. Several values of one kind reduced
    by one operation travel in one exchange: a row's sum and sum of
    squares cost one wait for the cluster where two operations cost two.

    ```mlir
    %row_max = tile.cluster_reduce max %local_max : f32
    %s1, %s2 = tile.cluster_reduce sum %sum, %sum_sq : f32, f32
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind,
                       Variadic<AnyTypeOf<[Tile_Float, I32, I64]>>:$values);
  let results = (outs Variadic<AnyTypeOf<[Tile_Float, I32, I64]>>:$reduced);
  let assemblyFormat = "$kind $values attr-dict `:` type($values)";
  let hasVerifier = 1;
}

def Tile_GridReduceOp : Tile_Op<"grid_reduce",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Reduces scalars across every program of the grid";
  let description = [{
    Every program of the launch contributes its `values`; each gets, for
    each of them, the maximum or the sum over all the programs (along x),
    or, for `logsumexp`, the merge of (maximum, sum) pairs (below),
    so that a row too long for one cluster can be split over the whole GPU
    and still be read once. Only a `tile.persistent` kernel without
    clusters may reduce across the grid: on the GPU it runs on programs
    that are all resident at once (a cooperative launch, one wave), which a
    reduction needs, since each program waits for all the others. Every
    program must reach the same `tile.grid_reduce` the same number of
    times, like a barrier: one that exits first leaves the others waiting
    (the interpreter reports it; a GPU would hang). Unlike a barrier, it
    orders no other memory: a program's stores to global memory before it
    are not made visible to the other programs after it (only the values
    travel), although the interpreter, which meets the programs, would not
    show such a race. Float `max` propagates
    NaN; integer `max` is signed. Every program gets the same results, bit
    for bit (the GPU combines the programs' values in a fixed order; the
    interpreter in order of program id).

    On the GPU, thread 0 of each block writes its values to slots of its
    own in global memory, each word beside the reduction's tag in one
    8-byte store; the first warp of program 0 reads all the slots until
    their tags are the reduction's, combines them and posts the results,
    each word beside the tag, which the other programs' first warps read
    until their tags are the reduction's (or, with
    `convert-tilegpu-to-llvm`'s `grid-reduce-leader=false`, every block's
    first warp reads and combines all the slots); the first warp hands the
    results to the block's other warps through shared memory
    (`lib/Conversion/TileGPUToLLVM/GridOpToLLVM.cpp`). Several values
    reduced by one operation share one wait.

    `logsumexp` reduces float pairs (m, s), given one after the other
    (m0, s0, m1, s1, ...): s the sum of exp(x - m) over a program's part of
    a row, m its maximum. Each result pair is (M, S), M the maximum of the
    m and S the sum of the s rescaled to it, s exp(m - M): the whole row's
    maximum and sum of exponentials, so that a softmax split over the grid
    needs one exchange a row, not a maximum's and then a sum's. (Kept as a
    pair rather than the single M + log S, so that x - M stays exact for
    rows far from zero.) Where every m is -inf, M is -inf and S is 0 (the
    s are rescaled by exp(-inf)); a NaN m makes M and S NaN, and a +inf
    maximum makes S NaN (exp(inf - inf)), as a softmax of such a row is.

    ```mlir
    %row_max = tile.grid_reduce max %local_max : f32
    %s1, %s2 = tile.grid_reduce sum %sum, %sum_sq : f32, f32
    %m, %s = tile.grid_reduce logsumexp %local_max, %local_sum : f32, f32
    ```
  }];
  let arguments = (ins Tile_GridReduceKind:$kind,
                       Variadic<AnyTypeOf<[Tile_Float, I32, I64]>>:$values);
  let results = (outs Variadic<AnyTypeOf<[Tile_Float, I32, I64]>>:$reduced);
  let assemblyFormat = "$kind $values attr-dict `:` type($values)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Making tiles.
//===----------------------------------------------------------------------===//

def Tile_RangeOp : Tile_Op<"range", [Pure]> {
  let summary = "The integers start, start + 1, ..., end - 1 as a tile";
  let description = [{
    Triton's `tl.arange(start, end)`: a rank-1 `i32` tile holding the
    consecutive integers from `start` (included) to `end` (excluded). The
    length `end - start` must be a power of two and equal the result's size.

    ```mlir
    %cols = tile.range 0, 1024 : tensor<1024xi32>
    ```
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs Tile_TensorOf<[I32]>:$result);
  let assemblyFormat = "$start `,` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "A tile with every element equal to a scalar";
  let description = [{
    Makes a tile whose every element is `src`. The result's element type is
    the scalar's type. Splatting a constant folds to an `arith.constant`.

    ```mlir
    %ptrs = tile.splat %row : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_Element:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "Repeats a tile along its dimensions of size 1";
  let description = [{
    Numpy-style broadcast within the same rank: each dimension of the result
    equals the source's, or the source's is 1 and is repeated. Use
    `tile.expand_dims` first to add a dimension. Broadcasting to the same
    shape folds away; a broadcast of a splat becomes a splat.

    ```mlir
    %b = tile.broadcast %row : tensor<1x1024xf32> -> tensor<4x1024xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "Inserts a dimension of size 1";
  let description = [{
    Triton's `tl.expand_dims(x, axis)`: the result has the source's shape
    with a dimension of size 1 inserted before dimension `axis` (or at the
    end, when `axis` equals the source's rank).

    ```mlir
    %col = tile.expand_dims %offs axis 1 : tensor<4xi32> -> tensor<4x1xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat =
      "$src `axis` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory.
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [
    Pure, AllTypesMatch<["ptr", "result"]>
  ]> {
  let summary = "Offsets pointers by a number of elements";
  let description = [{
    Pointer arithmetic, elementwise: `ptr + offset`, where `offset` counts
    elements of the pointee type. Either both operands are scalars, or both
    are tiles of the same shape (splat a scalar first). Adding zero folds
    away.

    ```mlir
    %row = tile.addptr %base, %start : !tile.ptr<f32>, i32
    %ptrs = tile.addptr %rows, %cols
        : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_OffsetLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat =
      "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments]> {
  let summary = "Loads from global memory, optionally under a mask";
  let description = [{
    Triton's `tl.load(ptr, mask, other)`: reads the element addressed by
    each pointer of `ptr` (a scalar pointer or a tile of them). Where `mask`
    (`i1`, of the pointers' shape) is false nothing is read, and the result
    holds `other` there, or an undefined value when `other` is absent.
    `other` needs a mask. The types of `mask`, `other` and the result follow
    from the pointers' type, which is the only one written.

    ```mlir
    %x = tile.load %ptrs, %mask, %neg_inf : tensor<1024x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Arg<Tile_PtrLike, "", [MemRead]>:$ptr,
                       Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_ValueLike>:$other);
  let results = (outs Tile_ValueLike:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, CArg<"::mlir::Value", "{}">:$mask,
                   CArg<"::mlir::Value", "{}">:$other)>
  ];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_MakeTensorDescOp
    : Tile_Op<"make_tensor_desc", [Pure, AttrSizedOperandSegments]> {
  let summary = "Describes a strided tensor in global memory";
  let description = [{
    Triton's `tl.make_tensor_descriptor(base, shape, strides, block_shape)`:
    the tensor of `shape` elements at `base` with `strides` (in elements,
    one per dimension, outermost first), read a box of the result type's
    `blockShape` at a time by `tile.desc_load`.

    The innermost stride must be the constant 1. Every operand must be an
    argument of the kernel or a constant, so that the descriptor is known
    before the launch: on Hopper it becomes a TMA tensor map that the
    runtime encodes on the host. Its rules are TMA's, checked before every
    launch: `base` aligned to 16 bytes, each outer stride a positive
    multiple of 16 bytes, each size positive, and
    the tensor's last element at most 2^31 - 1 elements past `base`, since
    descriptor loads are lowered with 32-bit offsets. The descriptor is
    only read by `tile.desc_load`s, not carried through loops, branches or
    selects.

    ```mlir
    %c1 = arith.constant 1 : i32
    %da = tile.make_tensor_desc %a, [%M, %K], [%stride_am, %c1]
        : !tile.ptr<f16> -> !tile.tensor_desc<64x32xf16>
    ```
  }];
  let arguments = (ins Tile_Ptr:$base, Variadic<I32>:$shape,
                       Variadic<I32>:$strides);
  let results = (outs Tile_Desc:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:`
    qualified(type($base)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_DescLoadOp : Tile_Op<"desc_load"> {
  let summary = "Loads a box of a tensor through its descriptor";
  let description = [{
    Triton's `desc.load(offsets)`: the box of the descriptor's `blockShape`
    whose first element is at `offsets` (one `i32` per dimension, in
    elements, outermost first) in its tensor. Elements of the box outside
    the tensor (a coordinate below 0 or not below its size) read as zero,
    as TMA fills them; nothing outside the tensor is read. The descriptor
    is a `tile.make_tensor_desc` of the same kernel (not carried through a
    loop's arguments).

    ```mlir
    %a_tile = tile.desc_load %da[%row0, %k0]
        : !tile.tensor_desc<64x32xf16> -> tensor<64x32xf16>
    ```
  }];
  let arguments = (ins Arg<Tile_Desc, "", [MemRead]>:$desc,
                       Variadic<I32>:$offsets);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $offsets `]` attr-dict `:` qualified(type($desc)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store"> {
  let summary = "Stores to global memory, optionally under a mask";
  let description = [{
    Triton's `tl.store(ptr, value, mask)`: writes each element of `value` to
    the address held by the matching pointer of `ptr`, except where `mask`
    (`i1`, of the pointers' shape) is false. The types of `value` and `mask`
    follow from the pointers' type, which is the only one written.

    ```mlir
    tile.store %ptrs, %y, %mask : tensor<1024x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Arg<Tile_PtrLike, "", [MemWrite]>:$ptr,
                       Tile_ValueLike:$value,
                       Optional<Tile_BoolLike>:$mask);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_AtomicAddOp : Tile_Op<"atomic_add"> {
  let summary = "Adds to global memory atomically, optionally under a mask";
  let description = [{
    Triton's `tl.atomic_add(ptr, value, mask, sem="relaxed")` without its
    result: adds each element of `value` to the `f32` or `i32` at the
    address held by the matching pointer of `ptr`, except where `mask` is
    false, as one indivisible read-modify-write per element. Additions to
    one address from any programs (or lanes of one tile) all happen, in an
    unspecified order: `f32` sums may differ in their last bits from run to
    run, `i32` sums wrap and never do.

    Memory semantics: relaxed, at the scope of the whole GPU (PTX
    `red.relaxed.gpu.global.add`). The additions are atomic but order
    nothing else: no other load or store of this or another program is
    ordered before or after them, so a program cannot use them to learn
    that another's stores are visible. The results are complete when the
    launch is (the next launch, or the host after synchronizing, sees every
    addition). Each element a tile holds is added once, however many
    threads hold a copy of it.

    ```mlir
    tile.atomic_add %ptrs, %partial, %mask : tensor<1024x!tile.ptr<f32>>
    tile.atomic_add %counter, %one : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Arg<Tile_PtrLike, "", [MemRead, MemWrite]>:$ptr,
                       Tile_ValueLike:$value,
                       Optional<Tile_BoolLike>:$mask);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Computation.
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "Reduces a tile along one axis with max or sum";
  let description = [{
    Triton's `tl.max(x, axis)` and `tl.sum(x, axis)`. The result has the
    source's shape without dimension `axis`; reducing a rank-1 tile gives a
    scalar.

    `max` propagates NaN (like `arith.maximumf`): a NaN anywhere in a slice
    makes its maximum NaN. `sum` of floats adds in an unspecified order.
    Integer `max` is signed.

    ```mlir
    %m = tile.reduce max %x axis 0 : tensor<1024xf32> -> f32
    %s = tile.reduce sum %t axis 1 : tensor<4x1024xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_Reducible:$src,
                       I32Attr:$axis);
  let results = (outs AnyTypeOf<[Tile_Float, I32, I64,
                                 Tile_TensorOf<[Tile_Float, I32, I64]>]>:$result);
  let assemblyFormat = [{
    $kind $src `axis` $axis attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "Matrix product of two tiles, added to a third";
  let description = [{
    Triton's `tl.dot(a, b, acc)`: `d = a @ b + c`, with `a` of shape M x K,
    `b` of shape K x N, and `c` and `d` of shape M x N in f32. `a` and `b`
    hold the same element type: f16, bf16, f8E4M3FN or f8E5M2 (each product
    is exact in f32 and the sum is accumulated in f32), or f32, multiplied
    as `input_precision` says:

    - `tf32` (the default, as in Triton): each input is first rounded to
      TF32 (10 bits of mantissa, round to nearest, ties away from zero, as
      `cvt.rna.tf32.f32`), then the products are summed in f32: the tensor
      cores' precision, about 1e-3 relative.
    - `ieee`: full f32 products and sums (on the GPU, with FMA instructions
      rather than tensor cores).

    The sum over K runs in an unspecified order. On the GPU, the tensor-core
    path needs M a multiple of 16 and N of 8, and K of 16 (f16, bf16) or 8
    (tf32) times the tile's repetitions; tiles are powers of two, so any tile
    of at least 16 x 16 x 16 qualifies (see docs/compiler.md).

    ```mlir
    %acc = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x64xf16>
                              -> tensor<64x64xf32>
    %d = tile.dot %x, %y, %c input_precision = ieee
        : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
    ```
  }];
  let arguments = (ins Tile_TensorOf<[Tile_Float, Tile_F8]>:$a,
                       Tile_TensorOf<[Tile_Float, Tile_F8]>:$b,
                       Tile_TensorOf<[F32]>:$c,
                       OptionalAttr<Tile_InputPrecision>:$input_precision);
  let results = (outs Tile_TensorOf<[F32]>:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`input_precision` `=` $input_precision^)? attr-dict
    `:` type($a) `,` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The precision f32 inputs are multiplied in (tf32 when not given).
    InputPrecision getPrecision() {
      return getInputPrecision().value_or(InputPrecision::tf32);
    }
  }];
}

def Tile_ExpOp : Tile_Op<"exp", [Pure, SameOperandsAndResultType]
                                       # ElementwiseMappable.traits> {
  let summary = "Elementwise e to the power x";
  let description = [{
    Triton's `tl.exp`: `e^x` for each element (or for a scalar). On the GPU
    it is computed in f32 as `2^(x * log2(e))` with the hardware's
    approximate `ex2`, flushing subnormal results to zero (`e^x` below
    2^-126, for x below about -87.3, is 0); `f16` and `bf16` inputs are
    computed in f32.

    ```mlir
    %e = tile.exp %x : tensor<1024xf32>
    ```
  }];
  let arguments = (ins Tile_FloatLike:$x);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($result)";
}

def Tile_CastOp : Tile_Op<"cast", [Pure, SameOperandsAndResultShape]
                                         # ElementwiseMappable.traits> {
  let summary = "Elementwise conversion between float types";
  let description = [{
    Triton's `x.to(dtype)` for floats: each element of `x` (or a scalar)
    converted to the result's element type, rounding to nearest, ties to
    even, when it narrows. To the 8-bit floats (f8E4M3FN, f8E5M2) it also
    saturates, as the GPU's `cvt.rn.satfinite` does: a value beyond the
    largest finite one (448, 57344), infinities included, becomes that
    value with its sign; NaN stays NaN. The 8-bit floats are only loaded,
    stored, cast and multiplied by `tile.dot`: cast them to compute. Unlike `arith.extf` and `arith.truncf`, which
    only widen or only narrow, a cast may have the same type on both sides,
    so a kernel generic over its element type (`${DTYPE}`) can load its
    input as `DTYPE`, compute in f32 and store as `DTYPE` for every `DTYPE`,
    f32 included:

    ```mlir
    %x = tile.cast %x_in : tensor<1024x${DTYPE}> to tensor<1024xf32>
    ```

    A cast between equal types folds away; canonicalization (and
    `convert-tile-to-tilegpu`, for IR that was not canonicalized) turns the
    others into `arith.extf` or `arith.truncf` (through f32 between f16 and
    bf16).
  }];
  let arguments = (ins Tile_CastLike:$x);
  let results = (outs Tile_CastLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `to` type($result)";
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

#endif // TILE_DIALECT_TILE_IR_TILEOPS_TD
