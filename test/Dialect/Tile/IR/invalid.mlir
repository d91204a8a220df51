// Every verifier and parser message of the tile dialect, one case per split.
// RUN: tile-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Types and argument attributes
//===----------------------------------------------------------------------===//

// expected-error @below {{pointee type 'f64' is not supported; expected f16, bf16, f32, f8E4M3FN, f8E5M2, i32 or i64}}
tile.func @bad_pointee(%p: !tile.ptr<f64>) {
  tile.return
}

// -----

// expected-error @below {{pointee type 'i1' is not supported}}
tile.func @bool_pointee(%p: !tile.ptr<i1>) {
  tile.return
}

// -----

// expected-error @below {{argument 0 has unknown attribute 'tile.align'; the tile dialect knows 'tile.divisibility' and 'tile.max_value'}}
tile.func @unknown_hint(%p: !tile.ptr<f32> {tile.align = 16 : i64}) {
  tile.return
}

// -----

// expected-error @below {{'tile.divisibility' of argument 1 must be a positive power of two, got 12 : i64}}
tile.func @hint_not_pow2(%p: !tile.ptr<f32>, %n: i32 {tile.divisibility = 12 : i64}) {
  tile.return
}

// -----

// expected-error @below {{'tile.divisibility' of argument 0 must be a positive power of two, got 0 : i64}}
tile.func @hint_zero(%p: !tile.ptr<f32> {tile.divisibility = 0 : i64}) {
  tile.return
}

// -----

// expected-error @below {{'tile.divisibility' of argument 0 must be a positive power of two, got "16"}}
tile.func @hint_not_int(%p: !tile.ptr<f32> {tile.divisibility = "16"}) {
  tile.return
}

// -----

// expected-error @below {{'tile.divisibility' of argument 0 applies to pointers and integers, not 'f32'}}
tile.func @hint_on_float(%x: f32 {tile.divisibility = 16 : i64}) {
  tile.return
}

// -----

// expected-error @below {{'tile.max_value' of argument 0 must be a 64-bit integer, got "16"}}
tile.func @bound_not_int(%n: i32 {tile.max_value = "16"}) {
  tile.return
}

// -----

// expected-error @below {{'tile.max_value' of argument 0 applies to integers, not '!tile.ptr<f32>'}}
tile.func @bound_on_pointer(%p: !tile.ptr<f32> {tile.max_value = 16 : i64}) {
  tile.return
}

// -----

// expected-error @below {{'tile.max_value' of argument 0 applies to integers, not 'f32'}}
tile.func @bound_on_float(%x: f32 {tile.max_value = 16 : i64}) {
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.func and tile.return
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{kernel 'decl' has no body; declarations are not supported}}
tile.func @decl(%p: !tile.ptr<f32>)

// -----

// A Triton function ends where its indentation does; a kernel needs tile.return.
// expected-error @below {{'tile.func' op kernel 'no_return' has no terminator: end its body with 'tile.return'}}
tile.func @no_return(%p: !tile.ptr<f32>) {
  // expected-note @below {{the body ends here; add 'tile.return' after this}}
  %x = tile.load %p : !tile.ptr<f32>
}

// -----

// Every block of the body, not only the first.
// expected-error @below {{kernel 'no_return_in_block' has no terminator: end its body with 'tile.return'}}
tile.func @no_return_in_block(%p: !tile.ptr<f32>) {
  tile.return
^bb1:
  // expected-note @below {{the body ends here; add 'tile.return' after this}}
  %x = tile.load %p : !tile.ptr<f32>
}

// -----

// expected-error @below {{kernel 'returns' returns 1 values; kernels return nothing and write through pointers}}
tile.func @returns(%x: f32) -> f32 {
  tile.return
}

// -----

// expected-error @below {{argument 1 has type 'tensor<16xf32>'; kernel arguments are pointers, integers (i1, i32, i64) or floats (f16, bf16, f32)}}
tile.func @tile_argument(%p: !tile.ptr<f32>, %t: tensor<16xf32>) {
  tile.return
}

// -----

// expected-error @below {{argument 0 has type 'f64'}}
tile.func @f64_argument(%x: f64) {
  tile.return
}

// -----

tile.func @dynamic_tile(%x: f32) {
  // expected-error @below {{uses 'tensor<?xf32>'; tiles must be ranked tensors of static shape}}
  %t = builtin.unrealized_conversion_cast %x : f32 to tensor<?xf32>
  tile.return
}

// -----

tile.func @unranked_tile(%x: f32) {
  // expected-error @below {{uses 'tensor<*xf32>'; tiles must be ranked tensors of static shape}}
  %t = builtin.unrealized_conversion_cast %x : f32 to tensor<*xf32>
  tile.return
}

// -----

tile.func @f64_tile() {
  // expected-error @below {{uses 'tensor<4xf64>'; tile elements are f16, bf16, f32, f8E4M3FN, f8E5M2, i1, i32, i64 or pointers}}
  %t = arith.constant dense<0.0> : tensor<4xf64>
  tile.return
}

// -----

tile.func @f8_arithmetic(%x: !tile.ptr<f8E4M3FN>) {
  %p = tile.splat %x : !tile.ptr<f8E4M3FN> -> tensor<4x!tile.ptr<f8E4M3FN>>
  %v = tile.load %p : tensor<4x!tile.ptr<f8E4M3FN>>
  // expected-error @below {{computes on 8-bit floats, which are only loaded, stored, converted (tile.cast) and multiplied (tile.dot): cast them to f16 or f32 first}}
  %s = arith.addf %v, %v : tensor<4xf8E4M3FN>
  tile.return
}

// -----

tile.func @f8_rounding(%y: !tile.ptr<f8E4M3FN>, %f: f32) {
  // expected-error @below {{rounds to an 8-bit float with rounding mode 'downward'; conversions to 8-bit floats round to nearest, ties to even (tile.cast)}}
  %w = arith.truncf %f {roundingmode = 1 : i32} : f32 to f8E4M3FN
  tile.store %y, %w : !tile.ptr<f8E4M3FN>
  tile.return
}

// -----

tile.func @f8_exp(%x: !tile.ptr<f8E5M2>) {
  %p = tile.splat %x : !tile.ptr<f8E5M2> -> tensor<4x!tile.ptr<f8E5M2>>
  %v = tile.load %p : tensor<4x!tile.ptr<f8E5M2>>
  // expected-error @below {{operand #0 must be f16, bf16 or f32, or a tile of them}}
  %e = tile.exp %v : tensor<4xf8E5M2>
  tile.return
}

// -----

// expected-error @below {{argument 0 has type 'f8E4M3FN'; kernel arguments are pointers, integers (i1, i32, i64) or floats (f16, bf16, f32)}}
tile.func @f8_argument(%x: f8E4M3FN) {
  tile.return
}

// -----

tile.func @i8_tile_in_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @below {{uses 'tensor<4xi8>'; tile elements are}}
    %t = arith.constant dense<0> : tensor<4xi8>
  }
  tile.return
}

// -----

tile.func @return_outside_kernel() {
  scf.execute_region {
    // expected-error @below {{'tile.return' op expects parent op 'tile.func'}}
    tile.return
  }
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.range
//===----------------------------------------------------------------------===//

// -----

tile.func @range_backwards() {
  // expected-error @below {{range end (8) must be greater than its start (16)}}
  %r = tile.range 16, 8 : tensor<8xi32>
  tile.return
}

// -----

tile.func @range_not_pow2() {
  // expected-error @below {{range length 1000 (end - start) must be a power of two}}
  %r = tile.range 0, 1000 : tensor<1000xi32>
  tile.return
}

// -----

tile.func @range_rank2() {
  // expected-error @below {{result must be a rank-1 tile, got 'tensor<2x8xi32>'}}
  %r = tile.range 0, 16 : tensor<2x8xi32>
  tile.return
}

// -----

tile.func @range_size() {
  // expected-error @below {{result has 512 elements but the range 0 to 1024 has 1024}}
  %r = tile.range 0, 1024 : tensor<512xi32>
  tile.return
}

// -----

tile.func @range_type() {
  // expected-error @below {{result #0 must be statically shaped tensor of 32-bit signless integer values}}
  %r = tile.range 0, 16 : tensor<16xi64>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.splat, tile.broadcast, tile.expand_dims
//===----------------------------------------------------------------------===//

// -----

tile.func @splat_type(%x: f32) {
  // expected-error @below {{result element type 'f16' differs from the splatted value's type 'f32'}}
  %t = tile.splat %x : f32 -> tensor<16xf16>
  tile.return
}

// -----

tile.func @broadcast_type(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<1x16xf32>
  // expected-error @below {{cannot change the element type ('f32' to 'f16')}}
  %b = tile.broadcast %t : tensor<1x16xf32> -> tensor<4x16xf16>
  tile.return
}

// -----

tile.func @broadcast_rank(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<16xf32>
  // expected-error @below {{cannot change the rank (1 to 2); use tile.expand_dims to add dimensions of size 1 first}}
  %b = tile.broadcast %t : tensor<16xf32> -> tensor<4x16xf32>
  tile.return
}

// -----

tile.func @broadcast_dim(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<2x16xf32>
  // expected-error @below {{dimension 0 of size 2 cannot be broadcast to 4; only dimensions of size 1 are repeated}}
  %b = tile.broadcast %t : tensor<2x16xf32> -> tensor<4x16xf32>
  tile.return
}

// -----

tile.func @expand_dims_axis(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<16xf32>
  // expected-error @below {{axis 2 is out of range for a rank-1 tile; expected 0 to 1}}
  %e = tile.expand_dims %t axis 2 : tensor<16xf32> -> tensor<16x1xf32>
  tile.return
}

// -----

tile.func @expand_dims_shape(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<16xf32>
  // expected-error @below {{result type 'tensor<16x1xf32>' does not match the expected 'tensor<1x16xf32>'}}
  %e = tile.expand_dims %t axis 0 : tensor<16xf32> -> tensor<16x1xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.addptr
//===----------------------------------------------------------------------===//

// -----

tile.func @addptr_scalar_by_tile(%p: !tile.ptr<f32>) {
  %offs = tile.range 0, 16 : tensor<16xi32>
  // expected-error @below {{cannot offset the scalar pointer '!tile.ptr<f32>' by the tile 'tensor<16xi32>'; splat the pointer to the offsets' shape first}}
  %q = "tile.addptr"(%p, %offs) : (!tile.ptr<f32>, tensor<16xi32>) -> !tile.ptr<f32>
  tile.return
}

// -----

tile.func @addptr_tile_by_scalar(%p: !tile.ptr<f32>, %n: i32) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  // expected-error @below {{cannot offset the tile of pointers 'tensor<16x!tile.ptr<f32>>' by the scalar 'i32'; splat the offset to the pointers' shape first}}
  %q = tile.addptr %ptrs, %n : tensor<16x!tile.ptr<f32>>, i32
  tile.return
}

// -----

tile.func @addptr_shape(%p: !tile.ptr<f32>) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %offs = tile.range 0, 8 : tensor<8xi32>
  // expected-error @below {{offsets 'tensor<8xi32>' do not have the shape of the pointers 'tensor<16x!tile.ptr<f32>>'}}
  %q = tile.addptr %ptrs, %offs : tensor<16x!tile.ptr<f32>>, tensor<8xi32>
  tile.return
}

// -----

tile.func @addptr_offset_type(%p: !tile.ptr<f32>, %x: f32) {
  // expected-error @below {{operand #1 must be i32 or i64, or a tile of them}}
  %q = tile.addptr %p, %x : !tile.ptr<f32>, f32
  tile.return
}

// -----

tile.func @addptr_result(%p: !tile.ptr<f32>, %n: i32) {
  // expected-error @below {{failed to verify that all of {ptr, result} have same type}}
  %q = "tile.addptr"(%p, %n) : (!tile.ptr<f32>, i32) -> !tile.ptr<f16>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.load
//===----------------------------------------------------------------------===//

// -----

tile.func @load_not_pointer(%x: f32) {
  // expected-error @below {{expected a pointer or a tile of pointers, got 'f32'}}
  %v = tile.load %x : f32
  tile.return
}

// -----

tile.func @load_operands(%p: !tile.ptr<f32>, %c: i1, %x: f32) {
  // expected-error @below {{expected at most 3 operands: pointers, mask and other value}}
  %v = tile.load %p, %c, %x, %x : !tile.ptr<f32>
  tile.return
}

// -----

tile.func @load_mask_custom(%p: !tile.ptr<f32>) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  // expected-note @below {{prior use here}}
  %mask = arith.constant dense<true> : tensor<8xi1>
  // The custom form derives the mask's type from the pointers'.
  // expected-error @below {{use of value '%mask' expects different type than prior uses: 'tensor<16xi1>' vs 'tensor<8xi1>'}}
  %v = tile.load %ptrs, %mask : tensor<16x!tile.ptr<f32>>
  tile.return
}

// -----

tile.func @load_result(%p: !tile.ptr<f32>) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  // expected-error @below {{result type 'tensor<16xf16>' does not match the pointee type of 'tensor<16x!tile.ptr<f32>>'; expected 'tensor<16xf32>'}}
  %v = "tile.load"(%ptrs) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  tile.return
}

// -----

tile.func @load_mask_shape(%p: !tile.ptr<f32>) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %mask = arith.constant dense<true> : tensor<8xi1>
  // expected-error @below {{mask must be i1 of the pointers' shape, 'tensor<16xi1>', got 'tensor<8xi1>'}}
  %v = "tile.load"(%ptrs, %mask) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>
  tile.return
}

// -----

tile.func @load_scalar_mask_on_tile(%p: !tile.ptr<f32>, %c: i1) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  // expected-error @below {{mask must be i1 of the pointers' shape, 'tensor<16xi1>', got 'i1'}}
  %v = "tile.load"(%ptrs, %c) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, i1) -> tensor<16xf32>
  tile.return
}

// -----

tile.func @load_other_without_mask(%p: !tile.ptr<f32>, %x: f32) {
  // expected-error @below {{an 'other' value needs a mask}}
  %v = "tile.load"(%p, %x) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (!tile.ptr<f32>, f32) -> f32
  tile.return
}

// -----

tile.func @load_other_type(%p: !tile.ptr<f32>, %c: i1, %x: f16) {
  // expected-error @below {{'other' must have the type of the loaded value, 'f32', got 'f16'}}
  %v = "tile.load"(%p, %c, %x) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!tile.ptr<f32>, i1, f16) -> f32
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.store
//===----------------------------------------------------------------------===//

// -----

tile.func @store_operands(%p: !tile.ptr<f32>) {
  // expected-error @below {{expected 2 or 3 operands: pointers, value and an optional mask}}
  tile.store %p : !tile.ptr<f32>
  tile.return
}

// -----

tile.func @atomic_add_type(%p: !tile.ptr<f16>, %x: f16) {
  // expected-error @below {{'tile.atomic_add' op adds to f32 or i32 only, not through '!tile.ptr<f16>'}}
  tile.atomic_add %p, %x : !tile.ptr<f16>
  tile.return
}

// -----

tile.func @atomic_add_value(%p: !tile.ptr<i32>, %x: f32) {
  // expected-error @below {{'tile.atomic_add' op cannot add a value of type 'f32' through '!tile.ptr<i32>'; expected 'i32'}}
  "tile.atomic_add"(%p, %x) : (!tile.ptr<i32>, f32) -> ()
  tile.return
}

// -----

tile.func @atomic_add_mask(%p: !tile.ptr<f32>, %x: f32, %c: i1) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %v = tile.splat %x : f32 -> tensor<16xf32>
  %m = tile.splat %c : i1 -> tensor<8xi1>
  // expected-error @below {{'tile.atomic_add' op mask must be i1 of the pointers' shape}}
  "tile.atomic_add"(%ptrs, %v, %m) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> ()
  tile.return
}

// -----

tile.func @store_value(%p: !tile.ptr<f32>, %x: f16) {
  // expected-error @below {{cannot store a value of type 'f16' through '!tile.ptr<f32>'; expected 'f32'}}
  "tile.store"(%p, %x) : (!tile.ptr<f32>, f16) -> ()
  tile.return
}

// -----

tile.func @store_shape(%p: !tile.ptr<f32>, %x: f32) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %v = tile.splat %x : f32 -> tensor<8xf32>
  // expected-error @below {{cannot store a value of type 'tensor<8xf32>' through 'tensor<16x!tile.ptr<f32>>'; expected 'tensor<16xf32>'}}
  "tile.store"(%ptrs, %v) : (tensor<16x!tile.ptr<f32>>, tensor<8xf32>) -> ()
  tile.return
}

// -----

tile.func @store_mask(%p: !tile.ptr<f32>, %x: f32) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %v = tile.splat %x : f32 -> tensor<16xf32>
  %mask = arith.constant dense<true> : tensor<8xi1>
  // expected-error @below {{mask must be i1 of the pointers' shape, 'tensor<16xi1>', got 'tensor<8xi1>'}}
  "tile.store"(%ptrs, %v, %mask) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> ()
  tile.return
}

// -----

tile.func @store_mask_type(%p: !tile.ptr<f32>, %x: f32) {
  %ptrs = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %v = tile.splat %x : f32 -> tensor<16xf32>
  %mask = arith.constant dense<1> : tensor<16xi32>
  // expected-error @below {{operand #2 must be i1 or a tile of i1, but got 'tensor<16xi32>'}}
  "tile.store"(%ptrs, %v, %mask) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<16xi32>) -> ()
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.reduce and tile.exp
//===----------------------------------------------------------------------===//

// -----

tile.func @reduce_axis(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<4x16xf32>
  // expected-error @below {{axis 2 is out of range for a rank-2 tile; expected 0 to 1}}
  %r = tile.reduce max %t axis 2 : tensor<4x16xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.func @reduce_negative_axis(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<16xf32>
  // expected-error @below {{axis -1 is out of range for a rank-1 tile; expected 0 to 0}}
  %r = tile.reduce sum %t axis -1 : tensor<16xf32> -> f32
  tile.return
}

// -----

tile.func @reduce_result(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<4x16xf32>
  // expected-error @below {{result type 'tensor<16xf32>' does not match the expected 'tensor<4xf32>' (the source's shape without dimension 1)}}
  %r = tile.reduce sum %t axis 1 : tensor<4x16xf32> -> tensor<16xf32>
  tile.return
}

// -----

tile.func @reduce_to_scalar(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<16xf32>
  // expected-error @below {{result type 'tensor<1xf32>' does not match the expected 'f32'}}
  %r = tile.reduce max %t axis 0 : tensor<16xf32> -> tensor<1xf32>
  tile.return
}

// -----

tile.func @reduce_bool(%c: i1) {
  %t = tile.splat %c : i1 -> tensor<16xi1>
  // expected-error @below {{operand #0 must be statically shaped tensor of f16, bf16 or f32 or 32-bit signless integer or 64-bit signless integer values}}
  %r = tile.reduce sum %t axis 0 : tensor<16xi1> -> i1
  tile.return
}

// -----

tile.func @reduce_kind(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<16xf32>
  // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'kind' [max, sum]}}
  %r = tile.reduce min %t axis 0 : tensor<16xf32> -> f32
  tile.return
}

// -----

tile.func @exp_int(%n: i32) {
  // expected-error @below {{operand #0 must be f16, bf16 or f32, or a tile of them}}
  %e = tile.exp %n : i32
  tile.return
}

// -----

tile.func @program_id_axis() {
  // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'axis' [x, y, z]}}
  %p = tile.program_id w : i32
  tile.return
}

// -----

tile.func @num_programs_type() {
  // expected-error @below {{result #0 must be 32-bit signless integer, but got 'i64'}}
  %n = tile.num_programs y : i64
  tile.return
}

// -----

tile.func @program_id_type() {
  // expected-error @below {{invalid kind of type specified: expected builtin.integer, but found 'f32'}}
  %n = tile.program_id z : f32
  tile.return
}

// -----

tile.func @splat_tile(%x: f32) {
  %t = tile.splat %x : f32 -> tensor<4xf32>
  // expected-error @below {{operand #0 must be tile element type, but got 'tensor<4xf32>'}}
  %u = "tile.splat"(%t) : (tensor<4xf32>) -> tensor<4x4xf32>
  tile.return
}

// -----

tile.func @num_stages_value(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{'tile.num_stages' must be a positive integer, got 0 : i32}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.num_stages = 0 : i32}
  tile.return
}

// -----

// expected-error @below {{'tile.num_stages' applies to scf.for loops}}
tile.func @num_stages_on_kernel() attributes {tile.num_stages = 2 : i32} {
  tile.return
}

// -----

tile.func @num_warps_on_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{'tile.num_warps' applies to kernels (tile.func)}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.num_warps = 4 : i32}
  tile.return
}

// -----

// expected-error @below {{has unknown attribute 'tile.unroll'; the tile dialect knows 'tile.num_warps', 'tile.cluster_size', 'tile.min_blocks_per_sm', 'tile.persistent' and 'tile.fp_contract' on kernels and 'tile.num_stages' on loops}}
tile.func @unknown_attr() attributes {tile.unroll = 2 : i32} {
  tile.return
}

// -----

// expected-error @below {{'tile.persistent' is a unit attribute, got 1 : i32}}
tile.func @persistent_value() attributes {tile.persistent = 1 : i32} {
  tile.return
}

// -----

tile.func @persistent_on_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{'tile.persistent' applies to kernels (tile.func)}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.persistent}
  tile.return
}

// -----

// A persistent launch runs its programs along x alone.
tile.func @persistent_axis_y(%out: !tile.ptr<i32>) attributes {tile.persistent} {
  %x = tile.program_id x : i32
  // expected-error @below {{'tile.program_id' op along y in a kernel with 'tile.persistent', whose launch is persistent along x only}}
  %y = tile.program_id y : i32
  tile.return
}

// -----

tile.func @persistent_count_z() attributes {tile.persistent} {
  // expected-error @below {{'tile.num_programs' op along z in a kernel with 'tile.persistent', whose launch is persistent along x only}}
  %z = tile.num_programs z : i32
  tile.return
}

// -----

// expected-error @below {{'tile.fp_contract' must be true or false, got 1 : i32}}
tile.func @fp_contract_integer() attributes {tile.fp_contract = 1 : i32} {
  tile.return
}

// -----

tile.func @fp_contract_on_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{'tile.fp_contract' applies to kernels (tile.func)}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.fp_contract = false}
  tile.return
}

// -----

// expected-error @below {{'tile.min_blocks_per_sm' must be from 1 to 32, got 0 : i32}}
tile.func @no_blocks_per_sm() attributes {tile.min_blocks_per_sm = 0 : i32} {
  tile.return
}

// -----

// expected-error @below {{'tile.min_blocks_per_sm' must be from 1 to 32, got 33 : i32}}
tile.func @too_many_blocks_per_sm() attributes {tile.min_blocks_per_sm = 33 : i32} {
  tile.return
}

// -----

// expected-error @below {{'tile.min_blocks_per_sm' must be from 1 to 32, got "2"}}
tile.func @blocks_per_sm_string() attributes {tile.min_blocks_per_sm = "2"} {
  tile.return
}

// -----

tile.func @blocks_per_sm_on_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{'tile.min_blocks_per_sm' applies to kernels (tile.func)}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.min_blocks_per_sm = 2 : i32}
  tile.return
}

// -----

tile.func @cast_int(%x: i32) {
  // expected-error @below {{operand #0 must be f16, bf16, f32, f8E4M3FN or f8E5M2, or a tile of them}}
  %y = tile.cast %x : i32 to f32
  tile.return
}

// -----

tile.func @cast_shape(%x: f16) {
  %t = tile.splat %x : f16 -> tensor<8xf16>
  // expected-error @below {{requires the same shape for all operands and results}}
  %y = tile.cast %t : tensor<8xf16> to tensor<4xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// Clusters
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{'tile.cluster_size' must be a power of two from 1 to 16, got 3 : i32}}
tile.func @cluster_not_power_of_two() attributes {tile.cluster_size = 3 : i32} {
  tile.return
}

// -----

// expected-error @below {{'tile.cluster_size' must be a power of two from 1 to 16, got 32 : i32}}
tile.func @cluster_too_large() attributes {tile.cluster_size = 32 : i32} {
  tile.return
}

// -----

// expected-error @below {{'tile.cluster_size' must be a power of two from 1 to 16, got 0 : i32}}
tile.func @cluster_zero() attributes {tile.cluster_size = 0 : i32} {
  tile.return
}

// -----

// expected-error @below {{'tile.cluster_size' must be a power of two from 1 to 16, got "8"}}
tile.func @cluster_not_integer() attributes {tile.cluster_size = "8"} {
  tile.return
}

// -----

tile.func @cluster_size_on_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{'tile.cluster_size' applies to kernels (tile.func)}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.cluster_size = 2 : i32}
  tile.return
}

// -----

tile.func @rank_unclustered() {
  // expected-error @below {{'tile.cluster_rank' op is only valid in a kernel with 'tile.cluster_size' (a kernel whose programs run in clusters)}}
  %r = tile.cluster_rank : i32
  tile.return
}

// -----

tile.func @id_unclustered() {
  // expected-error @below {{'tile.cluster_id' op is only valid in a kernel with 'tile.cluster_size'}}
  %r = tile.cluster_id : i32
  tile.return
}

// -----

tile.func @num_clusters_unclustered() {
  // expected-error @below {{'tile.num_clusters' op is only valid in a kernel with 'tile.cluster_size'}}
  %r = tile.num_clusters : i32
  tile.return
}

// -----

tile.func @reduce_unclustered(%x: f32) {
  // expected-error @below {{'tile.cluster_reduce' op is only valid in a kernel with 'tile.cluster_size'}}
  %r = tile.cluster_reduce max %x : f32
  tile.return
}

// -----

tile.func @reduce_tile(%x: f32) attributes {tile.cluster_size = 2 : i32} {
  %t = tile.splat %x : f32 -> tensor<4xf32>
  // expected-error @below {{operand #0 must be variadic of f16, bf16 or f32 or 32-bit signless integer or 64-bit signless integer}}
  %r = tile.cluster_reduce sum %t : tensor<4xf32>
  tile.return
}

// -----

tile.func @reduce_nothing() attributes {tile.cluster_size = 2 : i32} {
  // expected-error @below {{'tile.cluster_reduce' op expects at least one value}}
  "tile.cluster_reduce"() <{kind = 1 : i32}> : () -> ()
  tile.return
}

// -----

tile.func @reduce_result_types(%x: f32) attributes {tile.cluster_size = 2 : i32} {
  // expected-error @below {{'tile.cluster_reduce' op inferred type(s) 'f32' are incompatible with return type(s) of operation 'i32'}}
  // expected-error @below {{'tile.cluster_reduce' op failed to infer returned types}}
  %r = "tile.cluster_reduce"(%x) <{kind = 1 : i32}> : (f32) -> i32
  tile.return
}

// -----

tile.func @grid_not_persistent(%x: f32) {
  // expected-error @below {{'tile.grid_reduce' op is only valid in a kernel with 'tile.persistent' (its programs must all run at once)}}
  %r = tile.grid_reduce sum %x : f32
  tile.return
}

// -----

tile.func @grid_in_clusters(%x: f32) attributes {tile.persistent, tile.cluster_size = 2 : i32} {
  // expected-error @below {{'tile.grid_reduce' op is not supported in a kernel with 'tile.cluster_size' greater than 1}}
  %r = tile.grid_reduce max %x : f32
  tile.return
}

// -----

tile.func @grid_nothing() attributes {tile.persistent} {
  // expected-error @below {{'tile.grid_reduce' op expects at least one value}}
  "tile.grid_reduce"() <{kind = 1 : i32}> : () -> ()
  tile.return
}

// -----

tile.func @grid_too_many(%x: f32) attributes {tile.persistent} {
  // expected-error @below {{'tile.grid_reduce' op reduces at most 8 values at once}}
  %r:9 = tile.grid_reduce sum %x, %x, %x, %x, %x, %x, %x, %x, %x : f32, f32, f32, f32, f32, f32, f32, f32, f32
  tile.return
}

// -----

tile.func @grid_tile(%x: f32) attributes {tile.persistent} {
  %t = tile.splat %x : f32 -> tensor<4xf32>
  // expected-error @below {{operand #0 must be variadic of f16, bf16 or f32 or 32-bit signless integer or 64-bit signless integer}}
  %r = tile.grid_reduce sum %t : tensor<4xf32>
  tile.return
}

// -----

tile.func @grid_logsumexp_odd(%x: f32) attributes {tile.persistent} {
  // expected-error @below {{'tile.grid_reduce' op 'logsumexp' expects (maximum, sum) pairs, got 3 values}}
  %r:3 = tile.grid_reduce logsumexp %x, %x, %x : f32, f32, f32
  tile.return
}

// -----

tile.func @grid_logsumexp_int(%x: i32) attributes {tile.persistent} {
  // expected-error @below {{'tile.grid_reduce' op 'logsumexp' expects float values, got 'i32'}}
  %r:2 = tile.grid_reduce logsumexp %x, %x : i32, i32
  tile.return
}

// -----

tile.func @grid_logsumexp_mixed(%x: f32, %h: bf16) attributes {tile.persistent} {
  // expected-error @below {{'tile.grid_reduce' op 'logsumexp' expects each pair's two values of one type, got 'f32' and 'bf16'}}
  %r:2 = tile.grid_reduce logsumexp %x, %h : f32, bf16
  tile.return
}

// -----

tile.func @cluster_logsumexp(%x: f32) attributes {tile.cluster_size = 2 : i32} {
  // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'kind' [max, sum]}}
  %r:2 = tile.cluster_reduce logsumexp %x, %x : f32, f32
  tile.return
}

// -----

tile.func @reduce_kind(%x: f32) attributes {tile.cluster_size = 2 : i32} {
  // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'kind' [max, sum]}}
  %r = tile.cluster_reduce %x : f32
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.dot
//===----------------------------------------------------------------------===//

tile.func @dot_inner_mismatch(%f16: f16, %f32: f32) {
  %a = tile.splat %f16 : f16 -> tensor<16x32xf16>
  %b = tile.splat %f16 : f16 -> tensor<16x16xf16>
  %c = tile.splat %f32 : f32 -> tensor<16x16xf32>
  // expected-error @below {{a is 16 x 32 and b is 16 x 16: b must have as many rows (32) as a has columns}}
  %d = tile.dot %a, %b, %c : tensor<16x32xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.func @dot_result_shape(%f16: f16, %f32: f32) {
  %a = tile.splat %f16 : f16 -> tensor<16x32xf16>
  %b = tile.splat %f16 : f16 -> tensor<32x16xf16>
  %c = tile.splat %f32 : f32 -> tensor<16x32xf32>
  // expected-error @below {{the result is 16 x 32; a (16 x 32) times b (32 x 16) is 16 x 16}}
  %d = tile.dot %a, %b, %c : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.func @dot_mixed_types(%bf16: bf16, %f16: f16, %f32: f32) {
  %a = tile.splat %f16 : f16 -> tensor<16x16xf16>
  %b = tile.splat %bf16 : bf16 -> tensor<16x16xbf16>
  %c = tile.splat %f32 : f32 -> tensor<16x16xf32>
  // expected-error @below {{a and b must hold the same element type, got 'f16' and 'bf16'; convert one with tile.cast}}
  %d = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.func @dot_rank(%f16: f16, %f32: f32) {
  %a = tile.splat %f16 : f16 -> tensor<16xf16>
  %b = tile.splat %f16 : f16 -> tensor<16x16xf16>
  %c = tile.splat %f32 : f32 -> tensor<16x16xf32>
  // expected-error @below {{a must be a rank-2 tile, got 'tensor<16xf16>'}}
  %d = tile.dot %a, %b, %c : tensor<16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.func @dot_precision_f16(%f16: f16, %f32: f32) {
  %a = tile.splat %f16 : f16 -> tensor<16x16xf16>
  %c = tile.splat %f32 : f32 -> tensor<16x16xf32>
  // expected-error @below {{input_precision applies to f32 inputs; 'f16' inputs are multiplied exactly}}
  %d = tile.dot %a, %a, %c input_precision = tf32 : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.func @dot_f16_accumulator(%f16: f16) {
  %a = tile.splat %f16 : f16 -> tensor<16x16xf16>
  %c = tile.splat %f16 : f16 -> tensor<16x16xf16>
  // expected-error @below {{operand #2 must be statically shaped tensor of 32-bit float values}}
  %d = tile.dot %a, %a, %c : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
  tile.return
}

// -----

tile.func @dot_integer(%f32: f32, %i32: i32) {
  %a = tile.splat %i32 : i32 -> tensor<16x16xi32>
  %c = tile.splat %f32 : f32 -> tensor<16x16xf32>
  // expected-error @below {{operand #0 must be statically shaped tensor of f16, bf16 or f32 or f8E4M3FN or f8E5M2 values}}
  %d = tile.dot %a, %a, %c : tensor<16x16xi32>, tensor<16x16xi32> -> tensor<16x16xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{a tensor descriptor's box has 1 or 2 dimensions, not 3}}
tile.func @desc_rank(%d: !tile.tensor_desc<2x2x8xf32>) {
  tile.return
}

// -----

// expected-error @below {{box dimension 1 is 512; expected a power of two of at most 256 (TMA's limit)}}
tile.func @desc_box_too_large(%d: !tile.tensor_desc<2x512xf32>) {
  tile.return
}

// -----

// expected-error @below {{box dimension 0 is 3; expected a power of two of at most 256 (TMA's limit)}}
tile.func @desc_box_not_pow2(%d: !tile.tensor_desc<3x8xf32>) {
  tile.return
}

// -----

// expected-error @below {{the box's innermost dimension is 8 bytes; expected at least 16 (TMA's limit)}}
tile.func @desc_inner_too_narrow(%d: !tile.tensor_desc<64x4xf16>) {
  tile.return
}

// -----

// expected-error @below {{pointee type 'f64' is not supported}}
tile.func @desc_element(%d: !tile.tensor_desc<64xf64>) {
  tile.return
}

// -----

tile.func @desc_base_type(%a: !tile.ptr<f16>, %n: i32) {
  %c1 = arith.constant 1 : i32
  // expected-error @below {{the base points to 'f16' but the descriptor holds 'f32'}}
  %d = tile.make_tensor_desc %a, [%n], [%c1] : !tile.ptr<f16> -> !tile.tensor_desc<64xf32>
  tile.return
}

// -----

tile.func @desc_operand_count(%a: !tile.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i32
  // expected-error @below {{expected 2 sizes and 2 strides, one per dimension of the box; got 1 and 2}}
  %d = tile.make_tensor_desc %a, [%n], [%n, %c1] : !tile.ptr<f32> -> !tile.tensor_desc<8x64xf32>
  tile.return
}

// -----

tile.func @desc_inner_stride(%a: !tile.ptr<f32>, %n: i32) {
  // expected-error @below {{the innermost stride must be the constant 1}}
  %d = tile.make_tensor_desc %a, [%n, %n], [%n, %n] : !tile.ptr<f32> -> !tile.tensor_desc<8x64xf32>
  tile.return
}

// -----

tile.func @desc_base_computed(%a: !tile.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i32
  %b = tile.addptr %a, %n : !tile.ptr<f32>, i32
  // expected-error @below {{the base must be an argument of the kernel: the runtime makes the descriptor before the launch}}
  %d = tile.make_tensor_desc %b, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensor_desc<64xf32>
  tile.return
}

// -----

tile.func @desc_size_computed(%a: !tile.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i32
  %pid = tile.program_id x : i32
  // expected-error @below {{size 0 must be an argument of the kernel or a constant: the runtime makes the descriptor before the launch}}
  %d = tile.make_tensor_desc %a, [%pid], [%c1] : !tile.ptr<f32> -> !tile.tensor_desc<64xf32>
  tile.return
}

// -----

tile.func @desc_stride_computed(%a: !tile.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i32
  %s = arith.muli %n, %n : i32
  // expected-error @below {{stride 0 must be an argument of the kernel or a constant: the runtime makes the descriptor before the launch}}
  %d = tile.make_tensor_desc %a, [%n, %n], [%s, %c1] : !tile.ptr<f32> -> !tile.tensor_desc<8x64xf32>
  tile.return
}

// -----

tile.func @desc_load_offsets(%a: !tile.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i32
  %d = tile.make_tensor_desc %a, [%n, %n], [%n, %c1] : !tile.ptr<f32> -> !tile.tensor_desc<8x64xf32>
  // expected-error @below {{expected 2 offsets, one per dimension of the box; got 1}}
  %t = tile.desc_load %d[%n] : !tile.tensor_desc<8x64xf32> -> tensor<8x64xf32>
  tile.return
}

// -----

tile.func @desc_load_type(%a: !tile.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i32
  %d = tile.make_tensor_desc %a, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensor_desc<64xf32>
  // expected-error @below {{result type 'tensor<32xf32>' is not the descriptor's box, 'tensor<64xf32>'}}
  %t = tile.desc_load %d[%n] : !tile.tensor_desc<64xf32> -> tensor<32xf32>
  tile.return
}

// -----

tile.func @desc_load_not_made(%a: !tile.ptr<f32>, %n: i32) {
  %d = builtin.unrealized_conversion_cast %n : i32 to !tile.tensor_desc<64xf32>
  // expected-error @below {{the descriptor must be a tile.make_tensor_desc of this kernel, not a value carried through a loop or a region's argument}}
  %t = tile.desc_load %d[%n] : !tile.tensor_desc<64xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.func @desc_carried_through_loop(%a: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{is used by 'scf.for'; a descriptor is only read by tile.desc_load, not carried through loops, branches or selects}}
  %d = tile.make_tensor_desc %a, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensor_desc<64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%e = %d) -> (!tile.tensor_desc<64xf32>) : i32 {
    scf.yield %e : !tile.tensor_desc<64xf32>
  }
  tile.return
}

// -----

tile.func @desc_size_undef(%a: !tile.ptr<f32>) {
  %c1 = arith.constant 1 : i32
  %u = llvm.mlir.undef : i32
  // expected-error @below {{size 0 must be an argument of the kernel or a constant}}
  %d = tile.make_tensor_desc %a, [%u], [%c1] : !tile.ptr<f32> -> !tile.tensor_desc<64xf32>
  tile.return
}
