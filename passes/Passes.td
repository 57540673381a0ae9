//===- Passes.td - TTGIR-level MUSA passes -----------------*- tablegen -*-===//

#ifndef TRITON_MUSA_PASSES_PASSES_TD
#define TRITON_MUSA_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"
include "target/TargetPassOptions.td"

def MUSARelayoutGatherOffsets
    : Pass<"musa-relayout-gather-offsets", "mlir::ModuleOp"> {
  let summary = "Put the row offsets of descriptor gathers/scatters in the tile's row layout";
  let description = [{
    Without TME, `tt.descriptor_gather`/`tt.descriptor_scatter` lower to
    bounds-checked global accesses in which each thread addresses the rows it
    holds, so each thread needs the offsets of exactly those rows: `x_offsets`
    must have layout `#ttg.slice<{dim = 1, parent = L}>`, `L` being the
    layout of the gathered (scattered) tile. This pass inserts the
    `ttg.convert_layout` where Triton's layout passes left `x_offsets` in
    another layout; run it before --musa-allocate-shared-memory, which gives
    the conversion its scratch.

    Before:
    ```mlir
    %t = tt.descriptor_gather %d[%rows, %c0] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>, i32) -> tensor<32x128xbf16, #blocked2>
    ```
    After:
    ```mlir
    %r = ttg.convert_layout %rows : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %t = tt.descriptor_gather %d[%r, %c0] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>, i32) -> tensor<32x128xbf16, #blocked2>
    ```
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def MUSAScheduleAsyncCopies
    : Pass<"musa-schedule-async-copies", "mlir::ModuleOp"> {
  let summary = "Start a pipelined loop's async copies before its dots";
  let description = [{
    On MUSA every `ttg.async_wait` waits for all of the thread's copies (see
    --convert-tritongpu-to-musa), so in the loop Triton's pipeliner emits
    (wait, read the current buffers, compute, start the copies for a later
    iteration) the copies would be waited for at the top of the next
    iteration without overlapping any work. This pass moves each `tt.dot`
    of an `scf.for` body that precedes the body's last
    `ttg.async_copy_global_to_local`, together with every op of the body
    that depends on it, to just before the body's terminator, keeping their
    order, so the copies run while the dots compute. A loop is left alone
    when one of those ops has memory effects (moving it past the copies
    could reorder memory accesses); data dependencies stay satisfied because
    everything the moved ops use precedes the terminator. Run it before
    --musa-insert-barriers, which then puts a barrier between the reads of
    the ring and the copies that refill it.

    Before:
    ```mlir
    scf.for ... {
      %w = ttg.async_wait %t {num = 2 : i32}
      %a = ttg.local_load %bufA : ... -> tensor<128x64xf16, #dot0>
      %b = ttg.local_load %bufB : ... -> tensor<64x128xf16, #dot1>
      %d = tt.dot %a, %b, %acc : ...
      %c = ttg.async_copy_global_to_local %ptrs, %next : ...
      %g = ttg.async_commit_group tokens %c
      scf.yield %d, %g : ...
    }
    ```
    After:
    ```mlir
    scf.for ... {
      %w = ttg.async_wait %t {num = 2 : i32}
      %a = ttg.local_load %bufA : ... -> tensor<128x64xf16, #dot0>
      %b = ttg.local_load %bufB : ... -> tensor<64x128xf16, #dot1>
      %c = ttg.async_copy_global_to_local %ptrs, %next : ...
      %g = ttg.async_commit_group tokens %c
      %d = tt.dot %a, %b, %acc : ...
      scf.yield %d, %g : ...
    }
    ```
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def MUSAAllocateSharedMemory
    : Pass<"musa-allocate-shared-memory", "mlir::ModuleOp"> {
  let summary = "Give every shared-memory buffer and op scratch a byte offset";
  let description = [{
    Places every `ttg.local_alloc` buffer and the scratch buffer of every op
    whose lowering needs one (`getScratchSizeInBytes`, Scratch.h) in the
    block's shared memory, and writes:
     - `allocation.offset` (i32, bytes) on each such op;
     - `ttg.shared` (i32, total bytes) on the module.

    Liveness is computed on the pre-order numbering of each function's ops.
    A `ttg.local_alloc` buffer lives from the alloc to its last use, followed
    through memdesc views (`ttg.memdesc_*`), `scf` yields, loop-carried
    values and `ttg.local_dealloc`; a use inside an `scf.for`/`scf.while`
    that does not contain the alloc keeps the buffer live over the whole
    loop. A buffer that `ttg.async_copy_global_to_local` writes stays live
    until the first `ttg.async_wait` after its last such copy (every wait
    completes all copies on MUSA), or to the function's end if no wait
    follows: the copy keeps writing it until then. A scratch buffer lives
    only at its op. Buffers whose live ranges
    overlap get disjoint byte ranges (first fit, largest buffers first);
    offsets are aligned to 16 bytes, or to the alloc's `alignment` if larger.

    Calls: each function is allocated on its own from 0, then shifted by a
    base: kernels have base 0, a callee's base is the largest
    `base + size` over its callers. A callee's buffers thus never overlap
    any caller's buffers, live or not (simple and safe, not tight).
    Recursive calls are rejected.

    A kernel needing more than the architecture's shared memory per block
    is an error naming the kernel, the bytes needed and the limit.

    Before:
    ```mlir
    %a = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #dot0>
    %c = ttg.convert_layout %y : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    ```
    After (`arch=mp_31`): the alloc is dead once `%l` is loaded, so the
    conversion's scratch reuses its bytes.
    ```mlir
    module attributes {..., ttg.shared = 4096 : i32} {
      %a = ttg.local_alloc %x {allocation.offset = 0 : i32} : ...
      %l = ttg.local_load %a : ...
      %c = ttg.convert_layout %y {allocation.offset = 0 : i32} : ...
    ```
  }];
  let options = [MUSAArchOption];
}

def MUSAInsertBarriers : Pass<"musa-insert-barriers", "mlir::ModuleOp"> {
  let summary = "Insert ttg.local_barrier between conflicting shared-memory accesses";
  let description = [{
    Runs after --musa-allocate-shared-memory. Each op's shared-memory
    accesses are byte ranges derived from `allocation.offset` and sizes:
     - `ttg.local_alloc` with an initial value and `ttg.local_store` write
       their buffer, `ttg.local_load` reads it (a view is resolved to the
       buffer(s) it comes from; an unknown origin means all of shared
       memory);
     - `ttg.async_copy_global_to_local` writes its buffer (from its issue:
       another thread may still be reading the bytes, so a pending read of
       them puts a barrier before the copy);
     - `ttg.async_wait` is a barrier: its lowering waits for the thread's
       copies and then synchronizes the block, so it clears the pending set
       and completes every copy started before it;
     - an op with scratch (e.g. `ttg.convert_layout` through shared memory,
       cross-warp `tt.reduce`) writes then reads its scratch range; barriers
       inside one op are its lowering's job.

    A forward dataflow keeps the accesses made since the last barrier; an
    op that writes bytes pending a read or write, or reads bytes pending a
    write (RAW, WAR, WAW), gets a `ttg.local_barrier` in front of it, which
    clears the pending set. `scf.if` joins its branches; `scf.for` and
    `scf.while` iterate to a fixpoint over the back edge, so a hazard
    between the end of one iteration and the start of the next gets a
    barrier. Straight-line accesses to disjoint bytes, or reads after reads,
    get none. `gpu.barrier` and existing `ttg.local_barrier`s count.

    Non-kernel functions assume anything may be pending at their entry (a
    caller may have touched their buffers in an earlier call); their buffers
    never overlap a caller's (see --musa-allocate-shared-memory), so a
    `tt.call` is not an access in the caller.

    Before:
    ```mlir
    %a = ttg.local_alloc %x {allocation.offset = 0 : i32} : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #dot0>
    ```
    After:
    ```mlir
    %a = ttg.local_alloc %x {allocation.offset = 0 : i32} : ...
    ttg.local_barrier
    %l = ttg.local_load %a : ...
    ```
  }];
  let options = [MUSAArchOption];
}

#endif // TRITON_MUSA_PASSES_PASSES_TD
