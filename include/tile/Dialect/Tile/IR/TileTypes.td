//===- TileTypes.td - Types and type constraints of tile ---*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILETYPES_TD
#define TILE_DIALECT_TILE_IR_TILETYPES_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/IR/CommonTypeConstraints.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PointerType : Tile_Type<"Pointer", "ptr"> {
  let summary = "Pointer into global memory";
  let description = [{
    A pointer to an element of type `pointeeType` in GPU global memory, as
    Triton's `tl.pointer_type`. Pointers are used as scalars (kernel
    arguments, the base of a row) and as tile elements (one address per
    element of a tile). `tile.addptr` offsets them in units of elements.

    Supported pointee types: `f16`, `bf16`, `f32`, `f8E4M3FN`, `f8E5M2`,
    `i32` and `i64`.

    ```mlir
    !tile.ptr<f32>
    tensor<1024x!tile.ptr<f16>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
}

def Tile_TensorDescType : Tile_Type<"TensorDesc", "tensor_desc"> {
  let summary = "A box of a strided tensor in global memory";
  let description = [{
    Describes a tensor in global memory (its base, the size of each
    dimension and the stride of each, in elements) and the box of
    `blockShape` elements that `tile.desc_load` reads from it at a given
    position, as Triton's `tl.make_tensor_descriptor` and its
    `desc.load`. Made by `tile.make_tensor_desc`.

    The box is what Hopper's Tensor Memory Accelerator copies with one
    instruction; its limits are TMA's: one or two dimensions (TMA has up to
    five; `tile` takes two so far), each a power of two of at most 256
    elements, the innermost at least 16 bytes. Element types: those of
    `!tile.ptr`.

    ```mlir
    !tile.tensor_desc<64x32xf16>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$blockShape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The tile one `tile.desc_load` of this descriptor gives.
    ::mlir::RankedTensorType getBlockType() const {
      return ::mlir::RankedTensorType::get(getBlockShape(), getElementType());
    }
    unsigned getRank() const { return getBlockShape().size(); }
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints.
//===----------------------------------------------------------------------===//

def Tile_Float : AnyTypeOf<[F16, BF16, F32], "f16, bf16 or f32">;
// 8-bit floats: loaded, stored, converted (tile.cast) and multiplied
// (tile.dot), not computed with.
def Tile_F8 : AnyTypeOf<[F8E4M3FN, F8E5M2], "f8E4M3FN or f8E5M2">;
def Tile_Int : AnyTypeOf<[I1, I32, I64], "i1, i32 or i64">;
def Tile_Offset : AnyTypeOf<[I32, I64], "i32 or i64">;
def Tile_Ptr : Type<CPred<"::llvm::isa<::mlir::tile::PointerType>($_self)">,
                    "pointer", "::mlir::tile::PointerType">;
def Tile_Desc : Type<CPred<"::llvm::isa<::mlir::tile::TensorDescType>($_self)">,
                     "tensor descriptor", "::mlir::tile::TensorDescType">;
def Tile_Element : AnyTypeOf<[Tile_Float, Tile_F8, Tile_Int, Tile_Ptr],
                             "tile element type">;

class Tile_TensorOf<list<Type> elements>
    : StaticShapeTensorOf<elements>;

def Tile_Tensor : Tile_TensorOf<[Tile_Element]>;

// A scalar or a tile of the given element types.
class Tile_Like<list<Type> elements, string desc>
    : AnyTypeOf<!listconcat(elements, [Tile_TensorOf<elements>]), desc>;

def Tile_FloatLike : Tile_Like<[Tile_Float],
    "f16, bf16 or f32, or a tile of them">;
def Tile_CastLike : Tile_Like<[Tile_Float, Tile_F8],
    "f16, bf16, f32, f8E4M3FN or f8E5M2, or a tile of them">;
def Tile_PtrLike : Tile_Like<[Tile_Ptr], "pointer or a tile of pointers">;
def Tile_OffsetLike : Tile_Like<[Tile_Offset],
    "i32 or i64, or a tile of them">;
def Tile_BoolLike : Tile_Like<[I1], "i1 or a tile of i1">;
def Tile_ValueLike : Tile_Like<[Tile_Element],
    "scalar or tile of a tile element type">;
def Tile_Reducible : Tile_TensorOf<[Tile_Float, I32, I64]>;

#endif // TILE_DIALECT_TILE_IR_TILETYPES_TD
