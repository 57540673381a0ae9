#ifndef TRITON_MUSA_TRITON_TYPES_TD
#define TRITON_MUSA_TRITON_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "dialects/Triton/IR/TritonDialect.td"

//===----------------------------------------------------------------------===//
// Type definitions
//===----------------------------------------------------------------------===//

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Triton_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TT_PtrType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to a scalar, or to a whole tensor (block pointer)";
  let description = [{
    A global (or other address space) pointer. The pointee is a scalar type
    for ordinary pointers, or a ranked tensor type for the block pointers
    built by `tt.make_tensor_ptr`. The address space is printed only when it
    differs from 1 (global memory).

    ```mlir
    !tt.ptr<f32>
    !tt.ptr<i8, 3>
    !tt.ptr<tensor<64x64xf16>>
    ```
  }];
  let parameters = (ins "Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType,
                                        CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "descriptor of a tiled view of a global tensor";
  let description = [{
    An opaque handle made by `tt.make_tensor_descriptor` (or passed in as a
    kernel argument) through which blocks of `blockType` are loaded, stored,
    gathered and scattered. A signed integer block element (`si32`) records
    that the host tensor is signed; the loaded values are signless.

    ```mlir
    !tt.tensordesc<tensor<64x64xf16>>
    ```
  }];
  let parameters = (ins "RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "RankedTensorType":$blockType), [{
      return $_get(blockType.getContext(), blockType);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
                          F8E4M3B11FNUZ, F16, BF16, F32, F64],
                         "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;

// Any pointer, whatever its pointee.
def TT_Ptr : DialectType<Triton_Dialect,
    CPred<"::llvm::isa<::mlir::triton::PointerType>($_self)">,
    "pointer", "::mlir::triton::PointerType">;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

// A block pointer: a pointer whose pointee is a ranked tensor.
def TT_TensorPtr : DialectType<Triton_Dialect,
    CPred<"::mlir::triton::isTensorPointerType($_self)">,
    "pointer to a tensor", "::mlir::triton::PointerType">;

def TT_FpIntTensor : AnyTypeOf<[TT_FloatTensor, TT_IntTensor]>;
def TT_Tensor : AnyTypeOf<[TT_FpIntTensor, TT_PtrTensor]>;

// Every value type the tt dialect computes with.
def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

def TT_TensorDesc : DialectType<Triton_Dialect,
    CPred<"::llvm::isa<::mlir::triton::TensorDescType>($_self)">,
    "tensor descriptor", "::mlir::triton::TensorDescType">;

#endif // TRITON_MUSA_TRITON_TYPES_TD
