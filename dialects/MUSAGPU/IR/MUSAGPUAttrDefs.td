#ifndef TRITON_MUSA_MUSAGPU_ATTRDEFS_TD
#define TRITON_MUSA_MUSAGPU_ATTRDEFS_TD

include "dialects/MUSAGPU/IR/MUSAGPUDialect.td"
include "dialects/MUSAGPU/IR/MUSAGPUEnums.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/TensorEncoding.td"
include "dialects/TritonGPU/IR/TritonGPUAttrInterfaces.td"

// `[a, b, ...]`, as Triton prints its layout arrays.
class MUSAGPU_UnsignedArrayParameter<string desc>
    : ArrayRefParameter<"unsigned", desc> {
  let parser = [{ ::mlir::musagpu::parseUnsignedArray($_parser) }];
  let printer = [{ ::mlir::musagpu::printUnsignedArray($_printer, $_self) }];
}

// The parent accumulator layout, printed in full (`#musagpu.wmma<...>`) so
// that the printer can alias it.
def MUSAGPU_WMMAParentParameter
    : AttrParameter<"::mlir::musagpu::WMMAEncodingAttr", "accumulator layout"> {
  let parser = [{ parseWMMAParent($_parser) }];
  let printer = [{ $_printer.printAttribute($_self) }];
}

// A matrix fragment of the catalogue (`sqmma_squad`, `wgmma_warpgroup`);
// optional, `sqmma_squad` when left out.
def MUSAGPU_MatrixFragmentParameter
    : AttrParameter<"::mlir::musagpu::MatrixFragment", "matrix fragment"> {
  let parser = [{ ::mlir::musagpu::parseMatrixFragment($_parser) }];
  let printer = [{ $_printer << ::mlir::musagpu::stringifyMatrixFragment($_self) }];
  let defaultValue = "::mlir::musagpu::MatrixFragment::SQMMASquad";
}

// The fragment of a WMMA accumulator: `none` (the default, left out when
// printed) is the device's fragment of instrShape (qy2_wmma, ph1_wmma);
// `mma_sync_warp` names the GPU proxy's.
def MUSAGPU_WMMAFragmentParameter
    : AttrParameter<"::mlir::musagpu::MatrixFragment", "matrix fragment"> {
  let parser = [{ ::mlir::musagpu::parseMatrixFragment($_parser) }];
  let printer = [{ $_printer << ::mlir::musagpu::stringifyMatrixFragment($_self) }];
  let defaultValue = "::mlir::musagpu::MatrixFragment::None";
}

class MUSAGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<MUSAGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  // Triton's layout syntax: `#musagpu.x<{key = value, ...}>`.
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

// Parameters shared by the SQMMA and WMMA accumulator layouts.
class MUSAGPU_MmaAccumulatorAttr<string name, string attrMnemonic,
                                 dag extraParameters = (ins)>
    : MUSAGPU_Attr<name, attrMnemonic,
                   [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
                    DeclareAttrInterfaceMethods<TTG_LayoutEncodingTrait>,
                    DeclareAttrInterfaceMethods<TTG_DistributedEncodingTrait,
                                                ["verifyForModule"]>]> {
  let parameters = !con((ins
    "unsigned":$versionMajor,
    "unsigned":$versionMinor,
    MUSAGPU_UnsignedArrayParameter<"warps per CTA, per tensor dim">:$warpsPerCTA,
    MUSAGPU_UnsignedArrayParameter<"[M, N, K] of one instruction">:$instrShape
  ), extraParameters);
  code extraMMADecl = [{
    unsigned getInstrM() const { return getInstrShape()[0]; }
    unsigned getInstrN() const { return getInstrShape()[1]; }
    unsigned getInstrK() const { return getInstrShape()[2]; }
  }];
}

def MUSAGPU_SQMMAEncodingAttr
    : MUSAGPU_MmaAccumulatorAttr<"SQMMAEncoding", "sqmma",
          (ins MUSAGPU_MatrixFragmentParameter:$fragment)> {
  let summary = "accumulator layout of SQMMA (squad MMA, mp_31)";
  let description = [{
    Distributes an accumulator tensor over the warps of a CTA the way the
    SQMMA instructions `llvm.musa.sqmma.<type>.m<M>n<N>k<K>.mma` hold it:
    4 warps (a "squad", 128 threads at warp size 32) cooperate on one
    `instrShape[0] x instrShape[1]` accumulator tile, so `warpsPerCTA` along
    M (dim rank-2) must be a multiple of 4. Operands A and B are not in
    registers: they are read from shared memory (see `#musagpu.tme_shared`).

    `versionMajor.versionMinor` is the MUSA capability (3.1 = mp_31/PH1).
    `instrShape = [M, N, K]` is one instruction. The encoding checks that
    M x N is one of the legal SQMMA shapes (MUSA-FACTS.md):
    32x32, 32x64, 32x128, 16x64, 64x16, 64x32, 64x64, 64x128, 128x32,
    128x64, 128x128, and K one of 8/16/32/64/128; which of these are legal
    for a given element type (the TF32 subset, K per type) is checked by
    `musagpu.sqmma`.

    ```mlir
    #acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1,
                           warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    ```

    `fragment` names which threads hold which accumulator in which register
    (the catalogue's fragment, catalogue/MatrixInstrs.h): PH1's
    squad fragment (`sqmma_squad`, the default, left out when printed), or
    `wgmma_warpgroup` for the GPU proxy's rows, which run SQMMA as NVIDIA
    wgmma and hold the accumulator as wgmma does (M a multiple of 64).
  }];
  let extraClassDeclaration = extraMMADecl;
}

def MUSAGPU_WMMAEncodingAttr
    : MUSAGPU_MmaAccumulatorAttr<"WMMAEncoding", "wmma",
          (ins MUSAGPU_WMMAFragmentParameter:$fragment)> {
  let summary = "accumulator layout of WMMA (warp MMA, mp_22 and mp_31)";
  let description = [{
    Distributes an accumulator tensor over warps the way one warp holds the
    result of `llvm.musa.{ffmma,bfmma,tfmma,imma,e4m3,e5m2}.m<M>n<N>k<K>.mma`.
    On QY2 (mp_22, `versionMajor = 2`) a warp is 128 threads and the atoms
    are 32x32x16 (f16/bf16), 32x32x8 (tf32) and 32x32x32 (s8), 8 accumulators
    per thread. On mp_31 (`versionMajor = 3`, warp size 32) the atoms are the
    m16n8/m8n16/m16n16 shapes. `musagpu.wmma` checks the atom against the
    element type.

    ```mlir
    #acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2,
                          warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
    ```

    `fragment` names which lane holds which element in which register. Left
    out (`none`), it is the device's fragment of `instrShape` in the
    catalogue (catalogue/MatrixInstrs.h); `mma_sync_warp` is the
    GPU proxy's, whose WMMA rows (mp_31's m16n16k16 and m16n16k32) run as
    NVIDIA `mma.sync.m16n8k16` and hold their values as it does.
  }];
  let extraClassDeclaration = extraMMADecl # [{
    /// Threads per warp for this version: 128 on mp_2x, 32 on mp_31.
    unsigned getThreadsPerWarp() const {
      return getVersionMajor() == 2 ? 128 : 32;
    }
    /// The fragment the layout follows: `fragment`, or where that is left
    /// out the device's fragment of instrShape (None if it has none).
    ::mlir::musagpu::MatrixFragment getResolvedFragment() const;
  }];
}

def MUSAGPU_WMMAOperandEncodingAttr
    : MUSAGPU_Attr<"WMMAOperandEncoding", "wmma_operand",
                   [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
                    DeclareAttrInterfaceMethods<TTG_LayoutEncodingTrait>,
                    DeclareAttrInterfaceMethods<TTG_DistributedEncodingTrait,
                                                ["verifyForModule"]>]> {
  let summary = "register layout of a WMMA A (opIdx 0) or B (opIdx 1) operand";
  let description = [{
    The layout of the A (`opIdx = 0`, M x K) or B (`opIdx = 1`, K x N)
    operand of `musagpu.wmma` when it is held in registers, relative to the
    accumulator layout `parent`.

    ```mlir
    #acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2,
                          warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
    #a = #musagpu.wmma_operand<{opIdx = 0, parent = #acc}>
    ```
  }];
  let parameters = (ins
    "unsigned":$opIdx,
    MUSAGPU_WMMAParentParameter:$parent
  );
}

def MUSAGPU_TMESharedEncodingAttr
    : MUSAGPU_Attr<"TMESharedEncoding", "tme_shared",
                   [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
                    DeclareAttrInterfaceMethods<TTG_LayoutEncodingTrait>,
                    TTG_SharedEncodingTrait]> {
  let summary = "shared-memory layout written by TME and read by SQMMA";
  let description = [{
    The swizzled shared-memory layout produced by a TME tile load
    (`llvm.musa.tme.ld.tile.<r>d`) and consumed by SQMMA descriptors
    (`llvm.musa.sqmma.desc.*`). The three swizzle parameters are the ones
    both instructions take:

    * `swizzleGranularity`: `none`, `b16`, `b32`, `b64`, `b128`
      (NONE/16/32/64/128 B, encoded 0..4);
    * `swizzleStride`: `b32`, `b64`, `b128`, `b256` (32..256 B, encoded 0..3);
    * `swizzleLine`: `b128`, `b256` (128/256 B, encoded 0/1).

    A fastest dimension wider than 256 bytes (or than a 128-byte swizzle
    line) is stored as column pieces of that width, one after another.
    `order` lists the dimensions from fastest to slowest varying, as
    Triton's shared encodings do; `elementBitWidth` is the element size
    the swizzle was chosen for. A granularity never exceeds the stride.
    It is a ttg shared encoding: the encoding of `!ttg.memdesc`.

    ```mlir
    #smem = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256,
                                 swizzleLine = b256, elementBitWidth = 16,
                                 order = [1, 0]}>
    !a = !ttg.memdesc<64x32xf16, #smem, #ttg.shared_memory, mutable>
    ```
  }];
  let parameters = (ins
    EnumParameter<MUSAGPU_TMESwizzleGranularity>:$swizzleGranularity,
    EnumParameter<MUSAGPU_TMESwizzleStride>:$swizzleStride,
    EnumParameter<MUSAGPU_TMESwizzleLine>:$swizzleLine,
    "unsigned":$elementBitWidth,
    MUSAGPU_UnsignedArrayParameter<"dims from fastest to slowest">:$order
  );
  let extraClassDeclaration = [{
    unsigned getSwizzleGranularityBytes() const;
    unsigned getSwizzleStrideBytes() const;
    unsigned getSwizzleLineBytes() const;

    /// The layout SQMMA expects for operand `opIdx` (0 = A [M, K],
    /// 1 = B [K, N]) stored in `order` (inferred from public MUSA code):
    /// 256 B line and stride; 16 B granularity when K is the fastest dim
    /// or elements are 8-bit, else 32 B (16-bit) or 64 B (32-bit).
    static TMESharedEncodingAttr getForSQMMAOperand(
        ::mlir::MLIRContext *ctx, unsigned opIdx,
        ::llvm::ArrayRef<unsigned> order, unsigned elementBitWidth);
    /// The layout wgmma reads an operand in (the GPU proxy's SQMMA rows):
    /// Hopper's 32/64/128-byte swizzles, i.e. 16 B granularity on 128 B
    /// lines with the widest stride the operand's contiguous dimension
    /// (`innerBytes`) fills, at most 128 B.
    static TMESharedEncodingAttr getForWGMMAOperand(
        ::mlir::MLIRContext *ctx, ::llvm::ArrayRef<unsigned> order,
        unsigned elementBitWidth, int64_t innerBytes);
    /// The operand layout of the instructions of `fragment`
    /// (SQMMASquad or WGMMAWarpgroup).
    static TMESharedEncodingAttr getForMatrixOperand(
        ::mlir::MLIRContext *ctx, ::mlir::musagpu::MatrixFragment fragment,
        unsigned opIdx, ::llvm::ArrayRef<unsigned> order,
        unsigned elementBitWidth, int64_t innerBytes);
    /// Width of the column pieces the buffer is cut into along its fastest
    /// dimension: 256 B (a TME box row), or one swizzle line when that is
    /// narrower (a 128 B line is a row of Hopper's swizzle atom).
    int64_t getPieceBytes() const;
    /// Bytes after which the swizzle pattern repeats (line * stride /
    /// granularity; 16 unswizzled): a buffer, and each slot of a ring of
    /// them, must start on a multiple of it.
    int64_t getSwizzlePeriodBytes() const;
  }];
}

#endif // TRITON_MUSA_MUSAGPU_ATTRDEFS_TD
