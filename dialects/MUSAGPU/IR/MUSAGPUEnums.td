#ifndef TRITON_MUSA_MUSAGPU_ENUMS_TD
#define TRITON_MUSA_MUSAGPU_ENUMS_TD

include "dialects/MUSAGPU/IR/MUSAGPUDialect.td"
include "mlir/IR/EnumAttr.td"

// The integer value of every case is the hardware encoding that the TME
// intrinsics take (MUSA-FACTS.md, "TME"), so lowering passes the value as is.

def MUSAGPU_TMESwizzleGranularity : I32EnumAttr<"TMESwizzleGranularity",
    "TME swizzle granularity (NONE/16/32/64/128 B)", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"B16", 1, "b16">,
      I32EnumAttrCase<"B32", 2, "b32">,
      I32EnumAttrCase<"B64", 3, "b64">,
      I32EnumAttrCase<"B128", 4, "b128">
    ]> {
  let cppNamespace = "::mlir::musagpu";
  let genSpecializedAttr = 0;
}

def MUSAGPU_TMESwizzleStride : I32EnumAttr<"TMESwizzleStride",
    "TME swizzle stride (32/64/128/256 B)", [
      I32EnumAttrCase<"B32", 0, "b32">,
      I32EnumAttrCase<"B64", 1, "b64">,
      I32EnumAttrCase<"B128", 2, "b128">,
      I32EnumAttrCase<"B256", 3, "b256">
    ]> {
  let cppNamespace = "::mlir::musagpu";
  let genSpecializedAttr = 0;
}

def MUSAGPU_TMESwizzleLine : I32EnumAttr<"TMESwizzleLine",
    "TME swizzle line (128/256 B)", [
      I32EnumAttrCase<"B128", 0, "b128">,
      I32EnumAttrCase<"B256", 1, "b256">
    ]> {
  let cppNamespace = "::mlir::musagpu";
  let genSpecializedAttr = 0;
}

// MUSA-FACTS lists the sizes 0/64/128/256; that they are encoded 0..3 like
// the other TME enums is inferred.
def MUSAGPU_TMEPrefetch : I32EnumAttr<"TMEPrefetch",
    "TME L2 prefetch size (0/64/128/256 B)", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"B64", 1, "b64">,
      I32EnumAttrCase<"B128", 2, "b128">,
      I32EnumAttrCase<"B256", 3, "b256">
    ]> {
  let cppNamespace = "::mlir::musagpu";
  let genSpecializedAttr = 0;
}

def MUSAGPU_TMEPersistence : I32EnumAttr<"TMEPersistence",
    "TME cache persistence (NONE/ONCE/NORMAL/PERSIST/NO_OVERRIDE/LAST_USE)", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Once", 1, "once">,
      I32EnumAttrCase<"Normal", 2, "normal">,
      I32EnumAttrCase<"Persist", 3, "persist">,
      I32EnumAttrCase<"NoOverride", 4, "no_override">,
      I32EnumAttrCase<"LastUse", 5, "last_use">
    ]> {
  let cppNamespace = "::mlir::musagpu";
  let genSpecializedAttr = 0;
}

class MUSAGPU_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<MUSAGPU_Dialect, info, mnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

def MUSAGPU_TMESwizzleGranularityAttr
    : MUSAGPU_EnumAttr<MUSAGPU_TMESwizzleGranularity, "swizzle_granularity">;
def MUSAGPU_TMESwizzleStrideAttr
    : MUSAGPU_EnumAttr<MUSAGPU_TMESwizzleStride, "swizzle_stride">;
def MUSAGPU_TMESwizzleLineAttr
    : MUSAGPU_EnumAttr<MUSAGPU_TMESwizzleLine, "swizzle_line">;
def MUSAGPU_TMEPrefetchAttr
    : MUSAGPU_EnumAttr<MUSAGPU_TMEPrefetch, "prefetch">;
def MUSAGPU_TMEPersistenceAttr
    : MUSAGPU_EnumAttr<MUSAGPU_TMEPersistence, "persistence">;

#endif // TRITON_MUSA_MUSAGPU_ENUMS_TD
