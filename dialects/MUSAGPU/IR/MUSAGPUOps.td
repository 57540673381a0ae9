#ifndef TRITON_MUSA_MUSAGPU_OPS_TD
#define TRITON_MUSA_MUSAGPU_OPS_TD

include "dialects/MUSAGPU/IR/MUSAGPUAttrDefs.td"
include "dialects/MUSAGPU/IR/MUSAGPUDialect.td"
include "dialects/MUSAGPU/IR/MUSAGPUEnums.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// A buffer in shared memory with a shape and an element type: !ttg.memdesc
// in TTGIR; a memref in address space 3 keeps the ops testable without ttg.
def MUSAGPU_SharedBuffer : Type<
    CPred<"::mlir::musagpu::isSharedMemoryBuffer($_self)">,
    "shared-memory buffer (!ttg.memdesc or memref in address space 3)",
    "::mlir::ShapedType">;

// A TME descriptor: the address of a 64-byte MUtensorDescriptor, or (in
// TTGIR, before the lowering picks its representation) the `!tt.tensordesc`
// it describes.
def MUSAGPU_TensorDesc : Type<
    CPred<"::llvm::isa<::mlir::triton::TensorDescType>($_self)">,
    "tensor descriptor", "::mlir::triton::TensorDescType">;
def MUSAGPU_TMEDescriptor : AnyTypeOf<[I64, LLVM_AnyPointer, MUSAGPU_TensorDesc],
    "TME descriptor (i64 or !llvm.ptr address, or !tt.tensordesc)">;

def MUSAGPU_MmaTensor : RankedTensorOf<[AnyType]>;

//===----------------------------------------------------------------------===//
// TME
//===----------------------------------------------------------------------===//

def MUSAGPU_TMELoadOp : MUSAGPU_Op<"tme_load"> {
  let summary = "TME tile load from global to shared memory (mp_31)";
  let description = [{
    Copies the box `box` (innermost dimension first, as the hardware takes
    it) at element coordinates `coords` (innermost first) of the tensor that
    the descriptor `desc` describes into the shared buffer `dst`. Completion
    is tracked by async barrier `barrier`: the bytes count towards the
    transaction count set by `musagpu.async_barrier_expect_bytes`. Lowers to
    `llvm.musa.tme.ld.tile.<rank>d`, issued by one thread after a block
    barrier. The swizzle comes from `dst`'s `#musagpu.tme_shared` encoding
    (none otherwise); `prefetch`, `innerPersist`, `outerPersist` and
    `l2Policy` are the remaining intrinsic operands.

    `desc` is a descriptor address (i64 or pointer) or, in TTGIR, the
    `!tt.tensordesc` itself; the lowering then asks the target for its
    descriptor address (TargetInfo::getTMEDescriptorAddress: on the CPU
    emulator a descriptor built from the tensor's base, shape and strides).

    Legality (MUSA-FACTS.md): rank 1..5, one coordinate per dimension, the
    box at least 32 bytes along its innermost dimension. A box wider than
    256 bytes in its innermost dimension is issued as several loads of
    256 bytes each, so it must then be a multiple of 256 bytes
    (`getTMEBoxSplits` gives the pieces). The box holds as many elements
    as `dst`.

    ```mlir
    musagpu.tme_load %desc[%k, %m] to %buf, barrier %bar box [64, 128]
        : i64, !ttg.memdesc<128x64xf16, #tme_shared, #ttg.shared_memory, mutable>
    ```
  }];
  let arguments = (ins
    MUSAGPU_TMEDescriptor:$desc,
    Variadic<I32>:$coords,
    Arg<MUSAGPU_SharedBuffer, "destination", [MemWrite]>:$dst,
    I32:$barrier,
    DenseI32ArrayAttr:$box,
    DefaultValuedAttr<MUSAGPU_TMEPrefetchAttr, "TMEPrefetch::None">:$prefetch,
    DefaultValuedAttr<MUSAGPU_TMEPersistenceAttr, "TMEPersistence::Normal">:$innerPersist,
    DefaultValuedAttr<MUSAGPU_TMEPersistenceAttr, "TMEPersistence::Normal">:$outerPersist,
    DefaultValuedAttr<I32Attr, "0">:$l2Policy
  );
  let assemblyFormat = [{
    $desc `[` $coords `]` `to` $dst `,` `barrier` $barrier `box` $box
    attr-dict `:` type($desc) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def MUSAGPU_TMEStoreOp : MUSAGPU_Op<"tme_store"> {
  let summary = "TME tile store from shared to global memory (mp_31)";
  let description = [{
    Writes the shared buffer `src` to the box `box` (innermost first) at
    coordinates `coords` (innermost first) of the tensor described by
    `desc`. Lowers to `llvm.musa.tme.st.<rank>d`. The store is asynchronous:
    `musagpu.tme_store_commit` closes a group of stores and
    `musagpu.tme_store_wait` waits until their sources have been read, before
    `src` may be overwritten. Same box rules as `musagpu.tme_load`.

    ```mlir
    musagpu.tme_store %buf to %desc[%n, %m] box [64, 64]
        : memref<64x64xf32, 3>, i64
    ```
  }];
  let arguments = (ins
    Arg<MUSAGPU_SharedBuffer, "source", [MemRead]>:$src,
    MUSAGPU_TMEDescriptor:$desc,
    Variadic<I32>:$coords,
    DenseI32ArrayAttr:$box,
    DefaultValuedAttr<MUSAGPU_TMEPersistenceAttr, "TMEPersistence::Normal">:$innerPersist,
    DefaultValuedAttr<MUSAGPU_TMEPersistenceAttr, "TMEPersistence::Normal">:$outerPersist,
    DefaultValuedAttr<I32Attr, "0">:$l2Policy
  );
  let assemblyFormat = [{
    $src `to` $desc `[` $coords `]` `box` $box
    attr-dict `:` type($src) `,` type($desc)
  }];
  let hasVerifier = 1;
}

def MUSAGPU_TMEStoreCommitOp : MUSAGPU_Op<"tme_store_commit"> {
  let summary = "close the group of outstanding TME stores (mp_31)";
  let description = [{
    Lowers to `llvm.musa.tme.store.commit`.

    ```mlir
    musagpu.tme_store_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def MUSAGPU_TMEStoreWaitOp : MUSAGPU_Op<"tme_store_wait"> {
  let summary = "wait until committed TME stores have read their sources (mp_31)";
  let description = [{
    After it, the shared buffers of committed `musagpu.tme_store`s may be
    reused. Lowers to `llvm.musa.tme.store.read.wait`.

    ```mlir
    musagpu.tme_store_wait
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Descriptors without TME
//===----------------------------------------------------------------------===//

def MUSAGPU_TritonPointer : Type<
    CPred<"::llvm::isa<::mlir::triton::PointerType>($_self)">,
    "Triton pointer", "::mlir::triton::PointerType">;

def MUSAGPU_DescriptorBaseOp : MUSAGPU_Op<"descriptor_base", [Pure]> {
  let summary = "the base address of a kernel-argument descriptor the host "
                "passes as an address";
  let description = [{
    A `!tt.tensordesc` kernel argument that TME does not read is passed by
    the host as its tensor's base address, followed by its i32 shape and
    i64 strides (`musagpu.tme_descriptor_args` lists it as 0). This op is
    that address, so that --musa-lower-descriptors-to-pointers can read the
    descriptor's tiles through pointers. The pointee is the block's
    element type. Lowers to the argument itself; an argument the host
    encodes as a MUtensorDescriptor has no base address (an error there).

    ```mlir
    %base = musagpu.descriptor_base %desc : !tt.tensordesc<tensor<64x32xf16>> -> !tt.ptr<f16>
    ```
  }];
  let arguments = (ins MUSAGPU_TensorDesc:$desc);
  let results = (outs MUSAGPU_TritonPointer:$base);
  let assemblyFormat =
      "$desc attr-dict `:` qualified(type($desc)) `->` qualified(type($base))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Async barriers
//===----------------------------------------------------------------------===//

def MUSAGPU_AsyncBarrierRecordOp : MUSAGPU_Op<"async_barrier_record"> {
  let summary = "reserve async barrier ids 1..count for the kernel (mp_31)";
  let description = [{
    Tells the hardware how many async barrier ids the function uses; placed
    once at the function's entry, `count` the highest id used (1..63).
    Lowers to `llvm.musa.async.bar.record`.

    ```mlir
    musagpu.async_barrier_record 2
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<1>, IntMaxValue<63>]>:$count);
  let assemblyFormat = "$count attr-dict";
}

def MUSAGPU_AsyncBarrierInitOp : MUSAGPU_Op<"async_barrier_init"> {
  let summary = "initialize an async barrier (mp_31)";
  let description = [{
    Sets up async barrier `barrier` to complete a phase after `arriveCount`
    arrivals, starting in phase `phase`. MUSA async barriers are small
    integer ids, not shared-memory objects. Lowers to
    `llvm.musa.async.init.arrival` issued by one thread, followed by a
    block barrier. A constant `arriveCount` must be positive and a constant
    `phase` 0 or 1.

    ```mlir
    musagpu.async_barrier_init %bar, arrive_count %one, phase %zero
    ```
  }];
  let arguments = (ins I32:$barrier, I32:$arriveCount, I32:$phase);
  let assemblyFormat = [{
    $barrier `,` `arrive_count` $arriveCount `,` `phase` $phase attr-dict
  }];
  let hasVerifier = 1;
}

def MUSAGPU_AsyncBarrierExpectBytesOp
    : MUSAGPU_Op<"async_barrier_expect_bytes"> {
  let summary = "add an expected transaction byte count to an async barrier (mp_31)";
  let description = [{
    The current phase of `barrier` also waits for `bytes` bytes of TME
    transfers. Lowers to `llvm.musa.async.add.trans` issued by one thread.
    A constant `bytes` must be positive.

    ```mlir
    musagpu.async_barrier_expect_bytes %bar, %bytes
    ```
  }];
  let arguments = (ins I32:$barrier, I32:$bytes);
  let assemblyFormat = "$barrier `,` $bytes attr-dict";
  let hasVerifier = 1;
}

def MUSAGPU_AsyncBarrierArriveOp : MUSAGPU_Op<"async_barrier_arrive"> {
  let summary = "arrive on an async barrier (mp_31)";
  let description = [{
    Counts one arrival of the block on `barrier` (one thread arrives, so an
    `arrive_count` of 1 waits for one such op per phase). Lowers to
    `llvm.musa.async.arrive.none.phaseid` issued by one thread. With
    `per_warp`, the first lane of each warp that runs the op arrives (an
    `arrive_count` of N waits for N warps): a warp-specialized loop's
    consumer warps release a ring slot so, each after its own wait for the
    matrix unit that read it.

    ```mlir
    musagpu.async_barrier_arrive %bar
    musagpu.async_barrier_arrive %bar per_warp
    ```
  }];
  let arguments = (ins I32:$barrier, UnitAttr:$perWarp);
  let assemblyFormat = "$barrier (`per_warp` $perWarp^)? attr-dict";
}

def MUSAGPU_AsyncBarrierWaitOp : MUSAGPU_Op<"async_barrier_wait"> {
  let summary = "wait for an async barrier phase to complete (mp_31)";
  let description = [{
    Blocks every thread until the phase of parity `phase` (0 or 1) of
    `barrier` has completed: all its arrivals counted and all its expected
    bytes transferred. Lowers to `llvm.musa.async.wait`.

    ```mlir
    musagpu.async_barrier_wait %bar, phase %phase
    ```
  }];
  let arguments = (ins I32:$barrier, I32:$phase);
  let assemblyFormat = "$barrier `,` `phase` $phase attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// SQMMA
//===----------------------------------------------------------------------===//

def MUSAGPU_SQMMAOp : MUSAGPU_Op<"sqmma", [AllTypesMatch<["c", "d"]>]> {
  let summary = "squad matrix multiply-accumulate from shared memory (mp_31)";
  let description = [{
    `d = a * b + c` on a tile: `a` is M x K and `b` is K x N (logical
    shapes), both in shared memory; `c` and `d` are M x N tensors with a
    `#musagpu.sqmma` encoding whose `instrShape` is the instruction tile.
    The op is asynchronous: `d` may be read only after `musagpu.sqmma_wait`.
    `transA` says A is stored M-major (K-major is the default), `transB`
    that B is stored K-major (N-major is the default). Lowers to
    `llvm.musa.sqmma.{fmma,bfmma,tfmma,smma,e4m3,e5m2}.m<M>n<N>k<K>.mma`.

    Legality (MUSA-FACTS.md), for the instruction tile [M, N, K]:

    * element types: f16, bf16, f32 (as TF32), i8 (s8), f8E4M3FN (e4m3),
      f8E5M2 (e5m2); A and B alike;
    * M x N: 32x32, 32x64, 32x128, 16x64, 64x16, 64x32, 64x64, 64x128,
      128x32, 128x64, 128x128; TF32 only 16x64, 32x32, 32x64, 64x16, 64x32,
      64x64, 128x64, 128x128;
    * K: f16/bf16 16/32/64; tf32 8/16/32; s8/e4m3/e5m2 32/64/128.
      f16/bf16 K=128 is not one instruction (the MUSA 5.2 toolchain crashes
      on it): use K=64, the lowering issues two;
    * accumulator f32, i32 for s8; 4 warps per squad, `warpsPerCTA` along M
      a multiple of 4 (checked by the encoding);
    * (inferred) the fastest-varying dimension of each operand, per
      instruction, is at most 256 bytes;
    * the tile is a whole number of instruction tiles.

    ```mlir
    #acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1,
                           warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
    %d = musagpu.sqmma %a, %b, %c
        : !ttg.memdesc<64x32xf16, #smem_a, #ttg.shared_memory>,
          !ttg.memdesc<32x64xf16, #smem_b, #ttg.shared_memory>
        -> tensor<64x64xf32, #acc>
    ```
  }];
  let arguments = (ins
    Arg<MUSAGPU_SharedBuffer, "A", [MemRead]>:$a,
    Arg<MUSAGPU_SharedBuffer, "B", [MemRead]>:$b,
    MUSAGPU_MmaTensor:$c,
    DefaultValuedAttr<BoolAttr, "false">:$transA,
    DefaultValuedAttr<BoolAttr, "false">:$transB
  );
  let results = (outs MUSAGPU_MmaTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def MUSAGPU_SQMMAWaitOp : MUSAGPU_Op<"sqmma_wait",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "wait for outstanding SQMMA operations (mp_31)";
  let description = [{
    Waits until all issued `musagpu.sqmma` have completed and returns its
    operands unchanged, so that uses of SQMMA results are ordered after the
    wait. Lowers to `llvm.musa.sqmma.wait`.

    ```mlir
    %r = musagpu.sqmma_wait %d : tensor<64x64xf32, #acc>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = "($inputs^ `:` type($inputs))? attr-dict";
}

//===----------------------------------------------------------------------===//
// WMMA
//===----------------------------------------------------------------------===//

def MUSAGPU_WMMAOp : MUSAGPU_Op<"wmma", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "warp matrix multiply-accumulate on registers (mp_22, mp_31)";
  let description = [{
    `d = a * b + c` on a tile held in registers: `a` (M x K) and `b`
    (K x N) have `#musagpu.wmma_operand` encodings (opIdx 0 and 1) whose
    parent is the `#musagpu.wmma` encoding of `c` and `d` (M x N). Lowers
    to one `llvm.musa.{ffmma,bfmma,tfmma,imma,e4m3,e5m2}.m<M>n<N>k<K>.mma`
    per instruction tile.

    Legal instruction tiles [M, N, K] (MUSA-FACTS.md; per type inferred
    from public MUSA code):

    * QY2 (`versionMajor = 2`, 128-thread warps): 32x32x16 f16/bf16,
      32x32x8 tf32, 32x32x32 s8;
    * mp_31 (`versionMajor = 3`, 32-thread warps): f16/bf16 16x8x8,
      16x8x16, 8x16x16, 16x16x16, 16x16x32; tf32 16x8x4, 16x8x8, 16x16x16;
      s8/e4m3/e5m2 8x16x16, 16x8x16, 16x16x16, 16x16x32, 16x16x64;

    accumulator f32, i32 for s8; bf16 needs capability >= 2.2, fp8 >= 3.1.

    ```mlir
    #acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2,
                          warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
    #a = #musagpu.wmma_operand<{opIdx = 0, parent = #acc}>
    #b = #musagpu.wmma_operand<{opIdx = 1, parent = #acc}>
    %d = musagpu.wmma %a, %b, %c : tensor<64x16xf16, #a>,
        tensor<16x64xf16, #b> -> tensor<64x64xf32, #acc>
    ```
  }];
  let arguments = (ins MUSAGPU_MmaTensor:$a, MUSAGPU_MmaTensor:$b,
                       MUSAGPU_MmaTensor:$c);
  let results = (outs MUSAGPU_MmaTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Async global -> shared copies
//===----------------------------------------------------------------------===//

def MUSAGPU_AsyncCopyGlobalToSharedOp
    : MUSAGPU_Op<"async_copy_global_to_shared"> {
  let summary = "asynchronous copy of one element from global to shared memory";
  let description = [{
    Starts copying one value of type `elementType` (a scalar or a small
    vector) from `src` to `dst`; if `pred` is given and false, nothing is
    copied (and `dst` is not written). Completion is awaited with
    `musagpu.async_copy_wait`. Lowers to `llvm.musa.memcpy.g2s`, which moves
    8 to 64-bit elements: `elementType` must be 8, 16, 32 or 64 bits.

    ```mlir
    musagpu.async_copy_global_to_shared %src, %dst : vector<4xf16>
    musagpu.async_copy_global_to_shared %src, %dst, %pred : i32
    ```
  }];
  let arguments = (ins
    Arg<LLVM_PointerInAddressSpace<1>, "source", [MemRead]>:$src,
    Arg<LLVM_PointerInAddressSpace<3>, "destination", [MemWrite]>:$dst,
    Optional<I1>:$pred,
    TypeAttr:$elementType
  );
  let assemblyFormat = [{
    $src `,` $dst (`,` $pred^)? `:` $elementType attr-dict
  }];
  let hasVerifier = 1;
}

def MUSAGPU_AsyncCopyWaitOp : MUSAGPU_Op<"async_copy_wait"> {
  let summary = "wait for all of the thread's outstanding async global->shared copies";
  let description = [{
    Waits until every asynchronous copy the calling thread has started
    (`ttg.async_copy_global_to_local`, `musagpu.async_copy_global_to_shared`)
    has landed; where `pred` is given, only in the threads where it holds.
    Unlike `ttg.async_wait`, no block barrier follows: other threads see the
    data after a barrier the IR has of its own. Lowers to
    `llvm.musa.memcpy.g2s.wait` (under a branch on `pred`; one predicated
    `cp.async.wait_all` on the GPU proxy).

    ```mlir
    musagpu.async_copy_wait
    musagpu.async_copy_wait if %pred
    ```
  }];
  let arguments = (ins Optional<I1>:$pred);
  // `if` keeps an unpredicated wait apart from a next op's result.
  let assemblyFormat = "(`if` $pred^)? attr-dict";
}

#endif // TRITON_MUSA_MUSAGPU_OPS_TD
