#ifndef TRITON_MUSA_TRITON_OPS_TD
#define TRITON_MUSA_TRITON_OPS_TD

include "dialects/Triton/IR/TritonDialect.td"
include "dialects/Triton/IR/TritonTypes.td"
include "dialects/Triton/IR/TritonAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

// Global memory: the resource touched by loads, stores, atomics and the
// device-side print/assert (their output buffer lives there).
def TT_GlobalMemory : Resource<"::mlir::triton::GlobalMemory">;

class TT_OpTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::OpTrait::triton";
}
// All ranked-tensor operands and results carry the same encoding.
def TT_SameOperandsAndResultEncoding
    : TT_OpTrait<"SameOperandsAndResultEncoding">;
// All ranked-tensor operands carry the same encoding.
def TT_SameOperandsEncoding : TT_OpTrait<"SameOperandsEncoding">;
// Every ranked tensor has a static, power-of-two element count of at most
// 2^20 (what Triton's front end guarantees).
def TT_TensorSizeTrait : TT_OpTrait<"TensorSizeTrait">;

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<Triton_Dialect, mnemonic, !listconcat(traits, [TT_TensorSizeTrait])>;

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

class TT_CastOp<string mnemonic, list<Trait> traits = []>
    : TT_Op<mnemonic, !listconcat(traits, [Pure, Elementwise,
          SameOperandsAndResultShape, TT_SameOperandsAndResultEncoding])> {
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_IntToPtrOp : TT_CastOp<"int_to_ptr"> {
  let summary = "reinterpret 64-bit integers as pointers";
  let description = [{
    Turns each i64 of `src` into a pointer (the inverse of `tt.ptr_to_int`).

    ```mlir
    %p = tt.int_to_ptr %i : tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
    ```
  }];
  let arguments = (ins TT_I64Like:$src);
  let results = (outs TT_PtrLike:$result);
}

def TT_PtrToIntOp : TT_CastOp<"ptr_to_int"> {
  let summary = "reinterpret pointers as 64-bit integers";
  let description = [{
    Turns each pointer of `src` into its i64 address.

    ```mlir
    %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    ```
  }];
  let arguments = (ins TT_PtrLike:$src);
  let results = (outs TT_I64Like:$result);
}

def TT_BitcastOp : TT_CastOp<"bitcast"> {
  let summary = "reinterpret bits between element types of equal width";
  let description = [{
    Unlike `arith.bitcast`, also accepts pointers (64 bits wide), so it can
    change a pointer's pointee type.

    ```mlir
    %b = tt.bitcast %x : tensor<256xf32> -> tensor<256xi32>
    %q = tt.bitcast %p : !tt.ptr<i1> -> !tt.ptr<i8>
    ```
  }];
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Type:$result);
  let hasVerifier = 1;
}

def TT_FpToFpOp : TT_CastOp<"fp_to_fp"> {
  let summary = "convert between floating-point formats, fp8 included";
  let description = [{
    Converts to another float format. Narrowing needs an explicit rounding
    mode (`rtne` or `rtz`); widening must not carry one.

    ```mlir
    %h = tt.fp_to_fp %x, rounding = rtne : tensor<512xf32> -> tensor<512xf8E4M3FN>
    %f = tt.fp_to_fp %h : tensor<512xf8E4M3FN> -> tensor<512xf32>
    ```
  }];
  let arguments = (ins TT_FloatLike:$src,
                       OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Arithmetic and math
//===----------------------------------------------------------------------===//

def TT_ClampFOp : TT_Op<"clampf", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "clamp floats into [min, max]";
  let description = [{
    `propagateNan = all` returns NaN where any input is NaN; `none` follows
    min/max semantics that ignore NaN.

    ```mlir
    %r = tt.clampf %x, %lo, %hi, propagateNan = none : tensor<256xf32>
    ```
  }];
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)
  }];
}

def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "correctly rounded square root";
  let description = [{
    ```mlir
    %r = tt.precise_sqrt %x : tensor<256xf32>
    ```
  }];
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def TT_PreciseDivFOp : TT_Op<"precise_divf", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "correctly rounded division";
  let description = [{
    ```mlir
    %r = tt.precise_divf %x, %y : tensor<256xf32>
    ```
  }];
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_MulhiUIOp : TT_Op<"mulhiui", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "high half of the unsigned double-width product";
  let description = [{
    For N-bit integers, the upper N bits of the unsigned 2N-bit product.

    ```mlir
    %hi = tt.mulhiui %a, %b : tensor<512xi32>
    ```
  }];
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

//===----------------------------------------------------------------------===//
// Pointer arithmetic
//===----------------------------------------------------------------------===//

def TT_AddPtrOp : TT_Op<"addptr", [Pure, Elementwise, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding,
    TypesMatchWith<"result type matches ptr type", "result", "ptr", "$_self">]> {
  let summary = "advance pointers by element offsets";
  let description = [{
    `ptr + offset * sizeof(pointee)`, elementwise.

    ```mlir
    %q = tt.addptr %p, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    ```
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
}

def TT_AdvanceOp : TT_Op<"advance", [Pure,
    TypesMatchWith<"result type matches ptr type", "result", "ptr", "$_self">]> {
  let summary = "move a block pointer by per-dimension offsets";
  let description = [{
    One i32 offset per dimension of the pointed-to block.

    ```mlir
    %q = tt.advance %p, [%c0, %c64] : <tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins TT_TensorPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

// The pointee/mask type helpers never return a null type, so the formats can
// infer types from any parsed pointer type and leave the diagnosis of a bad
// one to the verifier.
def TT_LoadOp : TT_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result type matches the pointee type of ptr", "ptr", "result",
                   "::mlir::triton::getPointeeType($_self)">,
    TypesMatchWith<"mask type matches the shape of ptr", "ptr", "mask",
                   "::mlir::triton::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">,
    TypesMatchWith<"other type matches the pointee type of ptr", "ptr", "other",
                   "::mlir::triton::getPointeeType($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "load through a pointer, a tensor of pointers or a block pointer";
  let description = [{
    With a tensor of pointers, `mask` selects the lanes that read memory and
    `other` supplies the value of the masked-off lanes. With a block pointer,
    `boundaryCheck` lists the dimensions checked against the parent tensor
    and `padding` gives the value read out of bounds. A volatile load also
    counts as a write so it is never removed or reordered.

    ```mlir
    %v = tt.load %ptrs, %mask, %other : tensor<1024x!tt.ptr<f32>>
    %w = tt.load %p cacheModifier = ca evictionPolicy = evict_last : tensor<32x!tt.ptr<i32>>
    %b = tt.load %bp {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    Optional<TT_BoolLike>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
    OptionalAttr<TT_PaddingOptionAttr>:$padding,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def TT_StoreOp : TT_Op<"store", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>,
    TypesMatchWith<"value type matches the pointee type of ptr", "ptr", "value",
                   "::mlir::triton::getPointeeType($_self)">,
    TypesMatchWith<"mask type matches the shape of ptr", "ptr", "mask",
                   "::mlir::triton::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "store through a pointer, a tensor of pointers or a block pointer";
  let description = [{
    Lanes whose `mask` is false are not written. With a block pointer,
    `boundaryCheck` lists the dimensions checked against the parent tensor.

    ```mlir
    tt.store %ptrs, %v, %mask : tensor<1024x!tt.ptr<f32>>
    tt.store %bp, %blk cacheModifier = wb {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    TT_Type:$value,
    Optional<TT_BoolLike>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding,
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "atomic read-modify-write";
  let description = [{
    Atomically combines `val` into the memory at `ptr` with the given
    operation and returns the previous contents. Masked-off lanes do nothing.

    ```mlir
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
    ```
  }];
  let arguments = (ins TT_AtomicRMWAttr:$atomic_rmw_op, TT_PtrLike:$ptr,
                       TT_Type:$val, Optional<TT_BoolLike>:$mask,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding,
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "atomic compare-and-swap";
  let description = [{
    Atomically stores `val` at `ptr` if the memory equals `cmp`; returns the
    previous contents either way.

    ```mlir
    %old = tt.atomic_cas acquire, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    ```
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def TT_SplatOp : TT_Op<"splat", [Pure, SameOperandsAndResultElementType]> {
  let summary = "fill a tensor with one scalar";
  let description = [{
    ```mlir
    %t = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    ```
  }];
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_UnsplatOp : TT_Op<"unsplat", [Pure,
    TypesMatchWith<"result type is the element type of src", "src", "result",
                   "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "extract the only element of a one-element tensor";
  let description = [{
    ```mlir
    %s = tt.unsplat %t : tensor<1x1xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "insert a size-1 dimension";
  let description = [{
    ```mlir
    %e = tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "view a tensor with another shape of the same size";
  let description = [{
    `allow_reorder` lets the compiler permute elements if that is cheaper;
    `efficient_layout` marks a result layout chosen on purpose.

    ```mlir
    %r = tt.reshape %x : tensor<32x16xf32> -> tensor<512xf32>
    %s = tt.reshape %x allow_reorder : tensor<32x16xf32> -> tensor<512xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure, SameOperandsAndResultElementType,
    TT_SameOperandsAndResultEncoding]> {
  let summary = "stretch size-1 dimensions";
  let description = [{
    Same rank in and out; only dimensions of size 1 may grow.

    ```mlir
    %b = tt.broadcast %x : tensor<1x64xf32> -> tensor<32x64xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// Not Pure: the element order of the result is unspecified.
def TT_CatOp : TT_Op<"cat", [NoMemoryEffect, SameTypeOperands,
    SameOperandsAndResultElementType]> {
  let summary = "concatenate two tensors (element order unspecified)";
  let description = [{
    ```mlir
    %c = tt.cat %a, %b : tensor<64xf16> -> tensor<128xf16>
    ```
  }];
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_JoinOp : TT_Op<"join", [NoMemoryEffect, SameTypeOperands,
    SameOperandsAndResultElementType]> {
  let summary = "stack two tensors along a new minor dimension of size 2";
  let description = [{
    ```mlir
    %j = tt.join %a, %b : tensor<128xf32> -> tensor<128x2xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_SplitOp : TT_Op<"split", [NoMemoryEffect, SameOperandsAndResultElementType,
    TypesMatchWith<"both results have the same type", "outLHS", "outRHS", "$_self">]> {
  let summary = "split a tensor along its last dimension, which has size 2";
  let description = [{
    The inverse of `tt.join`.

    ```mlir
    %lo, %hi = tt.split %x : tensor<128x2xf32> -> tensor<128xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

def TT_TransOp : TT_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "permute the dimensions of a tensor";
  let description = [{
    Result dimension `i` is source dimension `order[i]` (this op implements
    both `tl.trans` and `tl.permute`).

    ```mlir
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// SPMD
//===----------------------------------------------------------------------===//

def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "index of this program along a grid axis";
  let description = [{
    ```mlir
    %pid = tt.get_program_id x : i32
    ```
  }];
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "number of programs along a grid axis";
  let description = [{
    ```mlir
    %n = tt.get_num_programs y : i32
    ```
  }];
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "1-D i32 tensor start, start+1, ..., end-1";
  let description = [{
    ```mlir
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    ```
  }];
  // Read the bounds through get{Start,End}Attr().getInt(): the plain getters
  // return them as unsigned.
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix multiplication
//===----------------------------------------------------------------------===//

def TT_DotOp : TT_Op<"dot", [Pure,
    TypesMatchWith<"result type matches accumulator type", "d", "c", "$_self">]> {
  let summary = "matrix multiply-accumulate: d = a * b + c";
  let description = [{
    2-D (`MxK * KxN`) or batched 3-D operands. `inputPrecision` selects how
    f32 inputs are multiplied (`tf32`, `tf32x3`, `ieee`, `bf16x3`, `bf16x6`;
    default `ieee`); `maxNumImpreciseAcc` bounds how many products fp8 dots
    may accumulate at reduced precision (0: no limit requested).

    ```mlir
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    ```
  }];
  let arguments = (ins
    TT_FpIntTensor:$a, TT_FpIntTensor:$b, TT_FpIntTensor:$c,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::mlir::triton::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TT_DotScaledOp : TT_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
    TypesMatchWith<"result type matches accumulator type", "d", "c", "$_self">]> {
  let summary = "microscaled matrix multiply-accumulate";
  let description = [{
    `d = (a scaled by a_scale) * (b scaled by b_scale) + c`, with one scale
    per 16 or 32 elements along K. fp4 (`e2m1`) operands come packed two per
    i8; `lhs_k_pack`/`rhs_k_pack` say whether the packing is along K.

    ```mlir
    %d = tt.dot_scaled %a scale %as, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x128xf32>
    ```
  }];
  let arguments = (ins
    RankedTensorOf<[TT_Float, I8]>:$a,
    RankedTensorOf<[TT_Float, I8]>:$b,
    TT_FloatTensor:$c,
    Optional<RankedTensorOf<[TT_Float, I8]>>:$a_scale,
    Optional<RankedTensorOf<[TT_Float, I8]>>:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_elem_type,
    TT_ScaleDotElemTypeAttr:$b_elem_type,
    BoolAttr:$fastMath,
    DefaultValuedAttr<BoolAttr, "true">:$lhs_k_pack,
    DefaultValuedAttr<BoolAttr, "true">:$rhs_k_pack);
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans and region-based elementwise ops
//===----------------------------------------------------------------------===//

// These print in the generic form in Triton's output (they have no custom
// syntax), so none is declared here either.

def TT_ReduceOp : TT_Op<"reduce", [RecursiveMemoryEffects, SameOperandsShape,
    TT_SameOperandsEncoding, SingleBlock]> {
  let summary = "reduce tensors along one axis with a combiner region";
  let description = [{
    Reduces N same-shaped tensors together along `axis`. The region takes
    2N scalars (the N accumulated values, then the N new ones) and yields N
    with `tt.reduce.return`. Each result drops `axis` from the shape, or is
    a scalar when the inputs are 1-D.

    ```mlir
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<128xf32>) -> f32
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ReduceReturnOp : TT_Op<"reduce.return", [Pure, HasParent<"ReduceOp">,
    Terminator, ReturnLike]> {
  let summary = "yield the combined values of a tt.reduce step";
  let description = [{
    ```mlir
    tt.reduce.return %v, %i : f32, i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [RecursiveMemoryEffects, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding, SingleBlock]> {
  let summary = "inclusive scan along one axis with a combiner region";
  let description = [{
    Like `tt.reduce` but keeps every prefix: results have the shapes and
    types of the inputs. `reverse` scans from the end of the axis.

    ```mlir
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) : (tensor<128xi32>) -> tensor<128xi32>
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ScanReturnOp : TT_Op<"scan.return", [Pure, HasParent<"ScanOp">,
    Terminator, ReturnLike]> {
  let summary = "yield the combined values of a tt.scan step";
  let description = [{
    ```mlir
    tt.scan.return %t : i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_MapElementwiseOp : TT_Op<"map_elementwise", [RecursiveMemoryEffects,
    SameOperandsAndResultShape, TT_SameOperandsAndResultEncoding]> {
  let summary = "apply a scalar region to every element (or pack of elements)";
  let description = [{
    The region receives `pack` consecutive elements of each operand (operand
    0's pack first) and yields `pack` elements of each result. It may have
    several blocks and use values defined above it.

    ```mlir
    %r = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
    ^bb0(%e: f32):
      %m = arith.mulf %e, %e : f32
      tt.map_elementwise.return %m : f32
    }) : (tensor<128xf32>) -> tensor<128xf32>
    ```
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region MinSizedRegion<1>:$scalarOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return", [Pure,
    HasParent<"MapElementwiseOp">, Terminator, ReturnLike]> {
  let summary = "yield the results of one tt.map_elementwise application";
  let description = [{
    ```mlir
    tt.map_elementwise.return %m : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

//===----------------------------------------------------------------------===//
// External code
//===----------------------------------------------------------------------===//

def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [Elementwise,
    TT_SameOperandsAndResultEncoding,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "call a device-library function elementwise";
  let description = [{
    Calls `symbol` from the bitcode library `libname` at `libpath` on each
    element. `pure = false` makes the call a memory read and write.

    ```mlir
    %y = tt.extern_elementwise %x {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.bc", pure = true, symbol = "__mt_exp_f32"} : (tensor<256xf32>) -> tensor<256xf32>
    ```
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname,
                       StrAttr:$libpath, StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
  let hasVerifier = 1;
}

def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [Elementwise,
    TT_SameOperandsAndResultEncoding,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "inline assembly applied to packs of elements";
  let description = [{
    Runs `asm_string` (LLVM inline-asm constraints in `constraints`) on
    `packed_element` elements of each argument at a time, producing the same
    number of elements of each result. Which elements form a pack is
    unspecified. `pure = false` makes it a memory read and write.

    ```mlir
    %y = tt.elementwise_inline_asm "mov $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<32xi32> -> tensor<32xi32>
    ```
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints,
                       BoolAttr:$pure, I32Attr:$packed_element,
                       Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^ `:` type($args))? `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Histogram and gather
//===----------------------------------------------------------------------===//

def TT_HistogramOp : TT_Op<"histogram", [Pure,
    TypesMatchWith<"mask type matches the shape of src", "src", "mask",
                   "::mlir::triton::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">]> {
  let summary = "count values into unit-width bins starting at 0";
  let description = [{
    The result length is the number of bins; values outside it and
    masked-off lanes are not counted.

    ```mlir
    %h = tt.histogram %x, %m : tensor<1024xi32> -> tensor<64xi32>
    ```
  }];
  let arguments = (ins TT_IntTensor:$src, Optional<TT_BoolTensor>:$mask);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = [{
    $src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "gather elements of a tensor along one axis";
  let description = [{
    `result[i...] = src[i... with i[axis] replaced by indices[i...]]`. The
    result has the shape of `indices`; outside `axis`, `indices` is no larger
    than `src`. `efficient_layout` marks a layout chosen on purpose.

    ```mlir
    %g = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<32x64xf32>, tensor<32x64xi32>) -> tensor<32x64xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, I32Attr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def TT_PrintOp : TT_Op<"print", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "device-side print";
  let description = [{
    Prints `prefix` and then each argument; `isSigned` has one entry per
    argument, `hex` prints integers in hexadecimal.

    ```mlir
    tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<128xi32>
    ```
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TT_Type>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
  let hasVerifier = 1;
}

def TT_AssertOp : TT_Op<"assert", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "device-side assertion";
  let description = [{
    Where `condition` is false, reports `message` and stops the kernel.

    ```mlir
    tt.assert %ok, "negative input" : tensor<128xi1>
    ```
  }];
  let arguments = (ins TT_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

//===----------------------------------------------------------------------===//
// Block pointers and tensor descriptors
//===----------------------------------------------------------------------===//

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure, SameVariadicOperandSize,
    TypesMatchWith<"base points to the block's element type", "result", "base",
                   "::mlir::triton::getBlockPointerBaseType($_self)">]> {
  let summary = "make a block pointer into a strided parent tensor";
  let description = [{
    `shape` and `strides` (i64) describe the parent tensor at `base`,
    `offsets` (i32) the block's start; `order` lists the dimensions from
    fastest- to slowest-varying. The block shape is the result's pointee.

    ```mlir
    %p = tt.make_tensor_ptr %base, [%M, %K], [%sM, %c1], [%o, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape,
                       Variadic<I64>:$strides, Variadic<I32>:$offsets,
                       DenseI32ArrayAttr:$order);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure,
    SameVariadicOperandSize]> {
  let summary = "make a tensor descriptor for a strided global tensor";
  let description = [{
    `shape` (i32) and `strides` (i64) describe the global tensor at `base`;
    the result type fixes the block shape. `padding` is the value read out
    of bounds (default zero).

    ```mlir
    %d = tt.make_tensor_descriptor %base, [%M, %N], [%sM, %c1] : <f16>, <tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
    DefaultValuedAttr<TT_PaddingOptionAttr, "::mlir::triton::PaddingOption::PAD_ZERO">:$padding);
  let results = (outs TT_TensorDesc:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "load one block through a tensor descriptor";
  let description = [{
    One i32 index per descriptor dimension. The result has the block's
    elements; leading size-1 block dimensions may be dropped.

    ```mlir
    %t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$indices,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]`
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "store one block through a tensor descriptor";
  let description = [{
    ```mlir
    tt.descriptor_store %d[%i, %j], %t : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorReduceOp : TT_Op<"descriptor_reduce", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "reduce one block into global memory through a descriptor";
  let description = [{
    Like `tt.descriptor_store`, but combines `src` with the memory contents
    using `kind`.

    ```mlir
    tt.descriptor_reduce add, %d[%i, %j], %t : !tt.tensordesc<tensor<64x64xf32>>, tensor<64x64xf32>
    ```
  }];
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind, TT_TensorDesc:$desc,
                       TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorGatherOp : TT_Op<"descriptor_gather", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "gather whole rows through a one-row tensor descriptor";
  let description = [{
    Reads the rows `x_offsets` (1-D) starting at column `y_offset`; the
    descriptor block is `1xW`, the result `len(x_offsets)xW`.

    ```mlir
    %g = tt.descriptor_gather %d[%rows, %col] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, RankedTensorOf<[I32]>:$x_offsets,
                       I32:$y_offset);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorScatterOp : TT_Op<"descriptor_scatter", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "scatter whole rows through a one-row tensor descriptor";
  let description = [{
    The inverse of `tt.descriptor_gather`.

    ```mlir
    tt.descriptor_scatter %d[%rows, %col], %t : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, RankedTensorOf<[I32]>:$x_offsets,
                       I32:$y_offset, TT_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

def TT_FuncOp : TT_Op<"func", [AffineScope, AutomaticAllocationScope,
    FunctionOpInterface, IsolatedFromAbove, HasParent<"::mlir::ModuleOp">]> {
  let summary = "a Triton function (kernel or device function)";
  let description = [{
    A symbol with one SSACFG region. Kernels are `public`; device functions
    Triton does not inline are `private` and carry `noinline = true`.
    Argument attributes (`tt.divisibility`, `tt.contiguity`, ...) describe
    what the launcher guarantees about each argument.

    ```mlir
    tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
      tt.return
    }
    tt.func private @helper(%x: f32) -> f32 attributes {noinline = true} {
      tt.return %x : f32
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "StringRef":$name, "FunctionType":$type,
      CArg<"ArrayRef<NamedAttribute>", "{}">:$attrs,
      CArg<"ArrayRef<DictionaryAttr>", "{}">:$argAttrs)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    ArrayRef<Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ArrayRef<Type> getResultTypes() { return getFunctionType().getResults(); }
    bool isDeclaration() { return isExternal(); }
  }];
  let hasCustomAssemblyFormat = 1;
}

def TT_CallOp : TT_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a tt.func of the same module";
  let description = [{
    Operand and result types must match the callee's signature.

    ```mlir
    %r = tt.call @helper(%x) : (f32) -> f32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let extraClassDeclaration = [{
    FunctionType getCalleeType() {
      return FunctionType::get(getContext(), getOperandTypes(), getResultTypes());
    }
    operand_range getArgOperands() { return getOperands(); }
    MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    CallInterfaceCallable getCallableForCallee() { return getCalleeAttr(); }
    void setCalleeFromCallable(CallInterfaceCallable callee) {
      (*this)->setAttr(getCalleeAttrName(), ::llvm::cast<SymbolRefAttr>(callee));
    }
  }];
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike,
    Terminator]> {
  let summary = "return from a tt.func";
  let description = [{
    Operands must match the enclosing function's result types.

    ```mlir
    tt.return %x : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$srcs);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ValueRange()); }]>];
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

#endif // TRITON_MUSA_TRITON_OPS_TD
