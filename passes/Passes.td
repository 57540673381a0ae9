//===- Passes.td - TTGIR-level MUSA passes -----------------*- tablegen -*-===//

#ifndef TRITON_MUSA_PASSES_PASSES_TD
#define TRITON_MUSA_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"
include "target/TargetPassOptions.td"

def MUSACarryDescriptorFields
    : Pass<"musa-carry-descriptor-fields", "mlir::ModuleOp"> {
  let summary = "Carry a loop's in-kernel descriptors as their maker's "
                "operands";
  let description = [{
    Below TTGIR a `!tt.tensordesc` made in the kernel is its base pointer,
    and its shape and strides are read from its `tt.make_tensor_descriptor`;
    a loop's iteration value has no maker. Where a loop carries descriptors
    whose initial value and yielded value are both made by
    `tt.make_tensor_descriptor` (of one type and padding), the loop carries
    the maker's operands (base, shape, strides) instead, and the descriptor
    is made again at the start of the body and after the loop. Other
    iteration values are left alone (the conversion then names what it
    cannot lower). Runs first among the MUSA TTGIR passes, so that the TME
    and pipeline passes see the makers.

    Before:
    ```mlir
    %r = scf.for %i = %lb to %ub step %s iter_args(%d = %d0) -> (!tt.tensordesc<tensor<16x32xf32>>) {
      %t = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
      %n = tt.make_tensor_descriptor %p, [%M, %N], [%sN, %c1] : <f32>, <tensor<16x32xf32>>
      scf.yield %n : !tt.tensordesc<tensor<16x32xf32>>
    }
    ```
    After:
    ```mlir
    %r:5 = scf.for %i = %lb to %ub step %s iter_args(%b = %p0, %m = %M0, %n = %N0, %sm = %S0, %sn = %c1_0) -> (...) {
      %d = tt.make_tensor_descriptor %b, [%m, %n], [%sm, %sn] : <f32>, <tensor<16x32xf32>>
      %t = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
      scf.yield %p, %M, %N, %sN, %c1 : ...
    }
    ```
  }];
  let dependentDialects = ["mlir::triton::TritonDialect",
                           "mlir::scf::SCFDialect"];
}

def MUSALowerDescriptorsToPointers
    : Pass<"musa-lower-descriptors-to-pointers", "mlir::ModuleOp"> {
  let summary = "Access the tiles of in-kernel descriptors that TME does "
                "not take through pointers";
  let description = [{
    A `tt.descriptor_load` (`tt.descriptor_store`) becomes a masked
    `tt.load` (`tt.store`) of a pointer tensor, unless TME takes it (by the
    rules of --musa-lower-descriptors-to-tme, passes/TMETransfers.h: on the
    GPU TME reads host-encoded kernel arguments only, each argument with all
    of its uses or none; archs without TME take none). The descriptor's
    fields are its `tt.make_tensor_descriptor`'s operands, or for a kernel
    argument the address the host then passes (`musagpu.descriptor_base`,
    made once at the function's entry) and the i32 shape and i64 strides
    arguments after it; other descriptors are left to the conversion. Without this, such an access reaches the conversion's
    bounds-checked global accesses, element by element, which no pass
    pipelines; as a `tt.load`, --musa-pipeline-loops rings it with async
    copies like any pointer load, and stores are vectorized in the tile's
    layout.

    The pointers are the base advanced by the scalar start of the tile (the
    sum of index times stride) plus the tile's own offsets (independent of
    the indices, so loop-invariant); a dimension of stride 1 takes no
    multiply. An element is in bounds where, in every dimension,
    `index + i` is below the size compared unsigned (which also rejects
    negative coordinates, as the descriptor does); a load reads zero
    elsewhere (NaN for a float descriptor padded with NaN), a store leaves
    memory alone. Leading size-1 block dimensions dropped from the tile add
    their offset to the start and their bounds to the mask. Gathers,
    scatters and reduces are left alone. Runs after
    --musa-carry-descriptor-fields (a loop-carried descriptor then has its
    maker in the body) and before the matrix-unit selection, which then
    sees the loads of a pointer kernel.

    Before (`target=musa`, mp_31):
    ```mlir
    %d = tt.make_tensor_descriptor %a, [%M, %K], [%sM, %c1_i64] : <f16>, <tensor<64x32xf16>>
    %t = tt.descriptor_load %d[%m, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
    ```
    After:
    ```mlir
    %s = arith.addi (arith.muli (arith.extsi %m), %sM), (arith.muli (arith.extsi %k), %c1_i64) : i64
    %p = tt.addptr %a, %s : !tt.ptr<f16>, i64
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    ... (offsets: extsi(rows) * splat(%sM) + extsi(cols), expanded and broadcast;
         mask: (splat(%m) + rows) <u splat(%M) and (splat(%k) + cols) <u splat(%K))
    %t = tt.load %ptrs, %mask, %zero : tensor<64x32x!tt.ptr<f16>, #blocked>
    ```
  }];
  let dependentDialects = ["mlir::musagpu::MUSAGPUDialect",
                           "mlir::triton::TritonDialect",
                           "mlir::arith::ArithDialect"];
  let options = [
    MUSAArchOption,
    MUSATargetOption<
           "What the kernel runs on ('musa', 'emulator' or 'proxy'): which "
           "descriptor transfers TME takes, as --musa-lower-descriptors-to-tme "
           "decides">
  ];
}

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

def MUSAPipelineLoops : Pass<"musa-pipeline-loops", "mlir::ModuleOp"> {
  let summary = "Software-pipeline the loads that feed dots: plan each "
                "scf.for, then expand it";
  let description = [{
    The one software pipeliner of the MUSA stages. It runs after
    --musa-accelerate-matmul (and --musa-sink-accumulator-conversions), on
    loops no pipeliner has touched: Triton's stage stops before pipelining,
    so the matrix unit is known when the plan is made.

    `num_stages` has one meaning (the loop's `tt.num_stages`, from
    `tl.range(..., num_stages=n)`, else the `num-stages` option, which the
    backend sets from the kernel's `num_stages`): a load is issued
    `num_stages - 1` iterations ahead of the iteration that reads it, into a
    ring of `num_stages` shared-memory slots. `num_stages` <= 1 pipelines
    nothing.

    The plan, per `scf.for` (passes/pipeline/LoopPlan.cpp):
     - the loads: each `tt.load` directly in the body whose tile reaches an
       operand of a dot (`tt.dot`, `musagpu.wmma`, `musagpu.sqmma`) becomes
       a `ttg.async_copy_global_to_local` into its ring (MUSA's g2s copies);
       each such `tt.descriptor_load` that TME takes (on an arch with TME,
       by the rules of --musa-lower-descriptors-to-tme, passes/
       TMETransfers.h, with a descriptor made outside the loop) becomes TME
       tiles into its ring, one async barrier per slot; in a loop without
       such loads, every tile load, where the loop's own `tt.num_stages`
       asks for stages;
     - the producer: those loads with the pure ops that compute their
       pointers, masks, `other` and indices (through loop-carried values,
       and through ops with regions, such as the scf.if of a flattened
       persistent loop, whose nested ops are all pure), issued
       `num_stages - 1` iterations early; every other op is the consumer;
     - how a tile is read: in place where it was only stored into a matrix
       unit's operand buffers (the SQMMA operands of
       --musa-accelerate-matmul: the ring takes their `#musagpu.tme_shared`
       layout and the `musagpu.sqmma` reads the slot), else with
       `ttg.local_load` from an unswizzled ring, straight into the layout
       the tile was converted to;
     - the ring depth: `num_stages` slots, one fewer at a time (down to 2)
       while the loop's rings exceed the arch's shared memory less the
       buffers live across the loop;
     - the wait cadence: a MUSA wait completes every copy the thread
       started, so the loop waits (`musagpu.async_copy_wait`) at the top of
       every `num_stages - 1`-th iteration, before issuing that iteration's
       copies, which lands the next `num_stages - 1` iterations' tiles; a
       block barrier follows in every iteration. A TME tile is waited for
       on its slot's barrier (`musagpu.async_barrier_wait`), in phase
       (i / slots) % 2 of iteration i, just before it is read; the issue
       (expect the bytes, `musagpu.tme_load`, arrive) sits in one `scf.if`,
       the predicate that its iteration exists. The barriers are set up
       (`musagpu.async_barrier_init`, phase 0) before each run of the loop,
       after a block barrier where the loop is itself in a loop; their ids
       follow the function's `musagpu.async_barrier_record`;
     - the order: the wait, the copies for iteration i + num_stages - 1,
       then the compute of iteration i, which the copies overlap (with
       `batch-beside-matrix-unit`'s batches, the copies after the compute:
       see below);
     - the matrix unit in flight (`overlap-matrix-unit`): where an SQMMA
       reads a ring in place and the loop carries its accumulator
       (`acc -> musagpu.sqmma -> musagpu.sqmma_wait -> yield`), the wait
       moves to just before the next iteration's SQMMA (MUSA's SQMMA wait
       completes every SQMMA, so it cannot wait for all but the newest), so
       each SQMMA overlaps the next iteration's wait and copies; the rings
       then take one more slot, so those copies never refill the slot it
       reads; taken only where that slot fits. In a flattened persistent
       loop, whose accumulator is reset by `arith.select %last, %zero, %w`
       and read by the tile's epilogue in `scf.if %last`, the epilogue's
       scf.if waits for the sqmma itself and yields the zero tile, its other
       branch the result unwaited. By default only where the
       slot costs no block per SM (the arch's shared memory over what the
       loop holds: a 128x256 tile on 8 warps holds one block with three
       slots and with four; a flattened persistent loop runs one block per
       SM whatever it holds: on the proxy this took tutorial 09's TMA
       kernel at 2 stages from 1.24x to 1.60x of Triton); where it would
       cost a block, an SQMMA with short K steps (at most 64 bytes of K
       per row) stays in flight within the num_stages slots, its copies
       issued num_stages - 2 iterations ahead (num_stages >= 3; tutorial
       03's 128x128x32 at 4 stages 0.85x -> 0.90x; K steps of 64 lost up
       to 10%, so they keep the lookahead); `overlap-matrix-unit` takes
       the extra slot wherever it fits. Everywhere, on the GPU proxy (H100, one run, alternating
       rounds) it took matmul_fp16 4096^3 from 0.93x to 0.71x of Triton,
       fp8 from 0.94x to 0.75x, addmm from 0.89x to 0.70x: the extra slot
       (98304 -> 131072 B for 128x128x64) halves the blocks an SM holds,
       which costs more than the overlap gains.
     - a second block per SM before depth (`shallower-for-block`, on by
       default): MUSA's SQMMA wait completes every SQMMA of the squad, so
       the matrix unit drains at each wait unless another block's SQMMAs
       fill it. Where SQMMAs read in a loop (not a flattened persistent
       one, whose grid has one block per SM) with at most 64 KiB of
       accumulators a block (more leave registers for one block anyway),
       and num_stages slots leave one block per SM, the rings take the most
       slots (at least 2) that leave two, where every plan of the function
       then holds at most half of the shared memory; the remark says "N
       slots instead of num_stages = M for a second block per SM". On the
       proxy (H100, one run): tutorial 06's D 128 64x64 attention at 3 and
       4 stages 0.60x -> 0.91x and 0.72x -> 1.04x of Triton, 03's fp8
       128x128x128 and 256x64x128 0.81x -> 1.00x and 0.87x -> 1.10x; the
       8-warp 128x256 tiles, left out by the accumulator bound, lost
       (0.89x -> 0.79x).
     - the batches: where the copy rings have 4 slots or more beside the
       slot of an SQMMA in flight, the copies go in batches of
       b = slots / 2 iterations: every b-th iteration waits for every copy
       in flight, puts one barrier and issues the copies of b iterations,
       b iterations ahead (the other iterations neither wait nor
       synchronize), so that no wait waits for a copy issued one iteration
       before (MUSA's wait completes all of a thread's copies). With
       `batch-beside-matrix-unit`, also where the batch needs the slot of
       the SQMMA in flight (2b slots in all): the batch iteration waits for
       the copies and puts a barrier before its SQMMA, then, after the
       SQMMA is issued, a second barrier (every thread has waited for the
       previous SQMMA by then) and the batch, into the slots of the
       SQMMAs already waited for.
     - the unit's waits (`unit-waits-per-round`, off by default): where the
       SQMMAs stay in flight (and no batch is issued after them), they are
       waited for at the head of every w-th iteration only, before its
       copies, and chain through the accumulator unwaited in between, as a
       dot's K steps do: MUSA's SQMMA wait completes every SQMMA of the
       squad and so drains the matrix unit, once a round instead of once
       an iteration. w is the batch, or, for one iteration's copies at a
       time, the slots past the lookahead (2), so no copy refills a slot
       an SQMMA since the last wait reads. The remark adds "and waited for
       every w iterations". Off: on the proxy (H100, one call, tutorials 03
       and 09) it gained nothing and lost up to 12% (09's TMA persistent
       128x128x64 1.18x -> 1.03x of Triton at 3 stages, 0.97x -> 0.85x at
       4), and taking the wait out altogether (`wgmma.wait_group 1` in the
       PTX) changed none of 03's and 09's pointer rows by more than 1%:
       their shortfall is not the SQMMA wait.
     - the copies after the unit (`copies-after-unit`, off by default):
       where the SQMMAs stay in flight, an iteration's copies (or TME
       tiles) are issued after its sqmma and a block barrier, which follows
       every thread's wait for the previous sqmma, so they may refill that
       sqmma's slot: the unit stays in flight with no slot of its own, the
       copies go slots - 1 iterations ahead, one iteration's at a time (no
       batches), and the unit runs while they issue (Triton's order on
       Hopper). One barrier more an iteration. The remark adds "after the
       matrix unit's next instruction". Off: on the proxy (H100, one call)
       it lost on every pointer loop tried (03's 128x256x64 0.90x -> 0.80x,
       64x128x64 1.00x -> 0.93x, 09's persistent 128x128x64 at 3 and 4
       stages 0.83x -> 0.75x and 0.84x -> 0.74x) and gained on 09's TMA
       kernel (1.10x -> 1.14x, one run). What those pointer loops lose is
       the copy wait: with it taken out of the PTX (results wrong), 09's
       persistent kernel at 3 stages runs at 1.04x.

    The expansion is MLIR's scf pipelining (scf::pipelineForLoop) with the
    producer in stage 0 and the consumer in stage `lookahead` (the producer
    scheduled first, or after the consumer for batches beside an SQMMA): a
    prologue issues the first copies; in the last iterations the copies of
    iterations past the end are masked off and their TME issues skipped.
    After the loop, a `ttg.async_wait` (where there are copies) and the
    rings' deallocation.

    Every loop with a load feeding a dot gets a remark: `loop pipelined: ...`
    with the plan, or `loop not pipelined: <why>`: num_stages is 1, it holds
    a nested loop, the loads are inside nested regions, a load is volatile,
    an address depends on a load or on an op with side effects, a loop
    result carries an address computed ahead, two ring slots do not fit
    the shared memory, its only dot-feeding loads are descriptor loads
    that stay without TME (saying why), a TME slot is not a whole number of
    its swizzle period, or its TME rings need more async barriers than the
    function has left.

    A loop that asks for warp specialization (`tt.warp_specialize`, from
    `tl.range(..., warp_specialize=True)`) is planned as any other; where
    the target has TME (mp_31, and the GPU proxy, which runs it as TMA,
    mbarriers and wgmma), every ringed load is a TME tile read in place by
    the one SQMMA the loop carries, the loop lies directly in a kernel's
    body, nothing before it accesses memory
    with a tensor (a producer warp runs that code too), the tiles'
    coordinates come from the induction variable and values defined before
    the loop, and the rest of its body has no memory effects, it becomes a
    `ttg.warp_specialize` (WarpSpecialize.cpp): a one-warp partition
    issues the TME tiles into rings of `slots` slots, each slot with a
    "full" barrier (the tiles' bytes and the producer's arrival) and an
    "empty" one (one arrival per consumer warp; the producer waits for the
    parity before the round's, so its first round passes at once); the
    loop in the default region waits on full, keeps its SQMMA in flight
    into the next iteration, and releases the previous iteration's slot
    after waiting for its SQMMA. The module's "ttg.total-num-warps" counts
    the producer warp. Remark: `loop warp-specialized: ...`; otherwise the
    loop is pipelined on every warp and its remark ends in
    "warp_specialize is not done: <why>". With `warp-specialize-all`, every
    loop the form takes is specialized, asked for or not (the others keep
    their remarks).

    Before (`num-stages=3`):
    ```mlir
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %p = %a) -> (...) : i32 {
      %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : ... -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
      %d = tt.dot %xo, %y, %acc : ...
      %q = tt.addptr %p, %c32 : ...
      scf.yield %d, %q : ...
    }
    ```
    After (in outline):
    ```mlir
    %ring = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable>
    // prologue: the copies of iterations 0 and 1 into slots 0 and 1
    scf.for %k = ... iter_args(..., %p2 = ...) {
      musagpu.async_copy_wait if %every2nd
      ttg.local_barrier
      %slot = ttg.memdesc_index %ring[%kPlus2Mod3] : ...
      %c = ttg.async_copy_global_to_local %p2, %slot mask %inRange : ...
      %g = ttg.async_commit_group tokens %c
      %read = ttg.memdesc_index %ring[%kMod3] : ...
      %xo = ttg.local_load %read : ... -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
      %d = tt.dot %xo, %y, %acc : ...
      ...
    }
    ttg.async_wait {num = 0 : i32}
    ttg.local_dealloc %ring : ...
    ```
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::musagpu::MUSAGPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
  let options = [
    MUSAArchOption,
    MUSATargetOption<
           "What the kernel runs on ('musa', 'emulator' or 'proxy'): which "
           "descriptor loads may be TME rings and their buffers' layout, as "
           "--musa-lower-descriptors-to-tme decides them">,
    Option<"numStages", "num-stages", "int32_t", "1",
           "The kernel's num_stages: loads are issued num_stages - 1 "
           "iterations ahead into rings of num_stages slots (a loop's "
           "`tt.num_stages` overrides it; <= 1 pipelines nothing)">,
    Option<"overlapMatrixUnit", "overlap-matrix-unit", "bool", "false",
           "Keep a loop's SQMMAs in flight into the next iteration wherever "
           "the rings have room for one more slot (off: only where the slot "
           "costs no block per SM; see the description)">,
    Option<"batchBesideMatrixUnit", "batch-beside-matrix-unit", "bool",
           "false",
           "Issue copies in batches also where the SQMMA in flight must give "
           "its slot to the batch: the batch is issued after the next SQMMA "
           "and a barrier, once every thread has waited for the one whose "
           "slot it refills (see the description)">,
    Option<"shallowerForBlock", "shallower-for-block", "bool", "true",
           "Where an SQMMA reads in a loop and num_stages slots leave one "
           "block per SM, take the deepest ring (>= 2 slots) that leaves two "
           "(see the description; off: num_stages slots wherever they fit)">,
    Option<"unitWaitsPerRound", "unit-waits-per-round", "bool", "false",
           "Wait for the SQMMAs in flight once a round of iterations (a "
           "batch, or the slots past the lookahead), not before every SQMMA "
           "(see the description)">,
    Option<"copiesAfterUnit", "copies-after-unit", "bool", "false",
           "Where the SQMMAs stay in flight, issue an iteration's copies "
           "after its SQMMA and a barrier, into the slot of the SQMMA waited "
           "for just before, one iteration's at a time (see the "
           "description)">,
    Option<"warpSpecializeAll", "warp-specialize-all", "bool", "false",
           "Warp-specialize every loop the warp-specialized form takes, not "
           "only those that ask for it (`tl.range(..., "
           "warp_specialize=True)`); for measuring where it pays">
  ];
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
       them puts a barrier before the copy); while in flight, its write
       puts no barrier before a later access (a barrier does not order it;
       only a copy wait does), so the matrix unit reading one slot of a
       ring gets none for the copies into another;
     - `musagpu.async_copy_wait` completes the thread's copies: their
       writes become plain writes, and a later access of their bytes gets
       a barrier after the wait (where the pipeline has not put one);
     - `ttg.async_wait` is a barrier: its lowering waits for the thread's
       copies and then synchronizes the block, so it clears the pending set
       and completes every copy started before it;
     - an op with scratch (e.g. `ttg.convert_layout` through shared memory,
       cross-warp `tt.reduce`) writes then reads its scratch range; barriers
       inside one op are its lowering's job;
     - `musagpu.sqmma` reads its two operand buffers;
     - `musagpu.tme_load` is issued by one thread, so a pending access of
       its buffer puts a barrier before it; its writes are the engine's and
       do not stay pending (a block barrier does not order them; every
       reader waits on the load's async barrier), so neither a second load
       nor the SQMMA that reads the waited tile gets a barrier;
     - `musagpu.tme_store`, `musagpu.tme_store_wait` and
       `musagpu.async_barrier_init` are barriers: their lowerings
       synchronize the block.

    A forward dataflow keeps the accesses made since the last barrier; an
    op that writes bytes pending a read or write, or reads bytes pending a
    write (RAW, WAR, WAW), gets a `ttg.local_barrier` in front of it, which
    clears the pending set. `scf.if` joins its branches; `scf.for` and
    `scf.while` iterate to a fixpoint over the back edge, so a hazard
    between the end of one iteration and the start of the next gets a
    barrier. Straight-line accesses to disjoint bytes, or reads after reads,
    get none. `gpu.barrier` and existing `ttg.local_barrier`s count.

    The regions of a `ttg.warp_specialize` run on different warps, which
    order their accesses of the rings with async barriers: each region is
    analysed from the state before the op, and a hazard inside one is an
    error (a block barrier there would wait for warps that never arrive).
    After the op, the default region's accesses are pending.

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

def MUSAAccelerateMatmul
    : Pass<"musa-accelerate-matmul", "mlir::ModuleOp"> {
  let summary = "Choose, per tt.dot, the matrix unit (SQMMA, WMMA) or FMA";
  let description = [{
    Runs first in the MUSA stages, on the TTGIR Triton's generic passes
    leave (every `tt.dot` with a `#ttg.blocked` accumulator and
    `#ttg.dot_op<{parent = #blocked}>` operands, the FMA form). The
    architecture's matrix unit comes from the arch table (`matrixUnit` in
    target/MUSAArch.h) for the module's `ttg.target` (`arch=` overrides).

    Design (issue 9):
     - The FMA form is the fallback and needs nothing: a dot that no matrix
       path takes is left as it is, with a `musa.dot_path_reason` string
       attribute saying why (read by --musa-dot-path-report).
     - WMMA (register operands; mp_22 QY2 m32n32k16 f16/bf16 over 128-thread
       warps): the dot becomes `musagpu.wmma` on operands converted to
       `#musagpu.wmma_operand<{opIdx, parent = #wmma}>` and an accumulator
       converted to `#musagpu.wmma<{versionMajor, versionMinor, warpsPerCTA,
       instrShape}>`; the result is converted back to the dot's layout.
       Every one of those layouts converts to a linear layout
       (layouts/LayoutConversion.cpp), which is the contract between this
       pass, `ttg.convert_layout`'s lowering and the WMMA lowering, whose
       fragment order (the instruction's registers) is the atom's register
       bits. warpsPerCTA splits num_warps over M first (as many warps as M
       has 32-row atoms), the rest over N; with fewer atoms than warps the
       warps past the atom columns replicate (their layout bases wrap onto
       the same atoms). A shape that is not a whole number of atoms stays
       on FMA.
     - SQMMA (mp_31: f16, bf16, tf32 with input_precision = tf32, s8 ->
       i32, fp8 e4m3/e5m2; num_warps a multiple of 4): the dot becomes
       `musagpu.sqmma` reading A and B from `#musagpu.tme_shared` buffers
       (the SQMMA swizzle: 16-byte granules for K-major and 8-bit operands,
       32/64-byte for 16/32-bit MN-major; 256-byte stride and line;
       buffers aligned to 256 * 256 / granule bytes), an accumulator
       converted to `#musagpu.sqmma<{..., warpsPerCTA, instrShape}>`, then
       `musagpu.sqmma_wait` and the conversion back. The instruction and
       warps: whole squad tiles (warps along M a multiple of 4), at most
       256 bytes per instruction along an operand's contiguous dimension;
       fewest instructions per squad, then the largest, then more squads
       along M when instM >= 32; f16/bf16 K <= 64 (a K = 128 tile is two
       steps). A dot no instruction fits (num_warps 1 or 2, shapes off
       the tables) goes to PH1's 32-lane WMMA in f16/bf16 (m16n16k16 atoms,
       the register operands and layouts as for QY2), else stays on FMA
       with both reasons (`enable-sqmma=false` sends every f16/bf16 dot
       on mp_31 to that WMMA, the other dtypes to FMA). QY2's
       tf32 and s8 stay on FMA (no public source confirms their 32x32x8 and
       32x32x32 atoms).
     - Accumulators: f32 (s32 for s8 operands) on both units; an f16 or
       bf16 accumulator runs widened to f32 (`arith.extf` in the unit's
       layout before, `arith.truncf` after: one rounding per dot, as on
       FMA), and a K loop carries it narrow in the unit's layout.
     - Batched (rank-3) dots take the same paths, each batch a sequence of
       2-D instructions: warps (on mp_31 whole squads) go to the batch
       first, as many as it has, the rest split M x N as above; further
       batches are further registers. SQMMA operands are stored into 3-D
       buffers with the batch outermost (order [.., .., 0]) and addressed
       per batch (a pipelined ring's 3-D slots too).
     - Ordering with the pipeline: this pass runs on loops no pipeliner has
       touched (Triton's stage stops before pipelining). WMMA rewrites only
       the dot and its operands' register layouts. SQMMA stores each
       operand into a fresh SQMMA buffer (an immutable `ttg.local_alloc`),
       from the tensor an immutable `local_alloc` holds when Triton
       promoted it through one, once for all the dots that read it, right
       after the op that defines it; --musa-pipeline-loops then makes a
       loaded operand's buffer a ring slot the sqmma reads in place.

    Options mirror the environment switches: `enable-mma=false`
    (`ENABLE_MUSA_MMA=0`) forces FMA everywhere, `enable-sqmma=false`
    (`MUSA_ENABLE_SQMMA=0`) keeps SQMMA off (PH1's WMMA, else FMA).
    `target=proxy` selects from the GPU proxy's rows of the catalogue: the
    same heuristic over the SQMMA shapes wgmma can run, whose encodings carry
    wgmma's accumulator fragment (`fragment = wgmma_warpgroup`) and Hopper's
    operand swizzles; the TTGIR is mp_31's up to those encodings (and FMA
    for dots no proxy row tiles: the proxy has no WMMA). Its tf32 and 8-bit
    rows read both operands K-major (wgmma has no transpose for them): an
    operand the pass stages itself is stored K-major, and one read from a
    buffer stored the other way leaves the dot on FMA, saying so.

    Before (`musa:mp_22`, 4 warps):
    ```mlir
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    ```
    After:
    ```mlir
    #wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
    %a1 = ttg.convert_layout %a : ... -> tensor<64x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>
    %b1 = ttg.convert_layout %b : ... -> tensor<32x64xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>>
    %c1 = ttg.convert_layout %c : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #wmma>
    %d1 = musagpu.wmma %a1, %b1, %c1 : ... -> tensor<64x64xf32, #wmma>
    %d = ttg.convert_layout %d1 : tensor<64x64xf32, #wmma> -> tensor<64x64xf32, #blocked>
    ```
    On `musa:mp_31` the same dot becomes:
    ```mlir
    #sa = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
    #sb = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
    #sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
    %a1 = ttg.local_alloc %a {alignment = 4096 : i32} : (...) -> !ttg.memdesc<64x32xf16, #sa, #smem>
    %b1 = ttg.local_alloc %b {alignment = 2048 : i32} : (...) -> !ttg.memdesc<32x64xf16, #sb, #smem>
    %c1 = ttg.convert_layout %c : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #sqmma>
    %d1 = musagpu.sqmma %a1, %b1, %c1 : ... -> tensor<64x64xf32, #sqmma>
    %d2 = musagpu.sqmma_wait %d1 : tensor<64x64xf32, #sqmma>
    %d = ttg.convert_layout %d2 : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
    ```
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::musagpu::MUSAGPUDialect"];
  let options = [
    MUSAArchOption,
    Option<"enableMMA", "enable-mma", "bool", "true",
           "Use the matrix units at all (false: every dot on FMA; the "
           "ENABLE_MUSA_MMA=0 switch)">,
    Option<"enableSQMMA", "enable-sqmma", "bool", "true",
           "Use SQMMA where the arch has it (false: the MUSA_ENABLE_SQMMA=0 "
           "switch; PH1's WMMA takes f16/bf16 dots instead)">,
    MUSATargetOption<
           "Whose rows of the matrix-instruction catalogue to select from: "
           "'musa' and 'emulator' (the device's; the emulator runs them) or "
           "'proxy' (the GPU proxy's: SQMMA as wgmma)">
  ];
}

def MUSASinkAccumulatorConversions
    : Pass<"musa-sink-accumulator-conversions", "mlir::ModuleOp"> {
  let summary = "Keep a matrix unit's result in its layout through the "
                "epilogue: elementwise ops and shared-memory stores";
  let description = [{
    Runs after --musa-accelerate-matmul, whose results leave
    `#musagpu.wmma` / `#musagpu.sqmma` through a `ttg.convert_layout`
    (shared-memory scratch) back to the dot's layout, where Triton's
    epilogue (chosen before any matrix unit existed) may convert again.
    Three rewrites, on conversions out of those two layouts only:
     - an elementwise op (`arith.truncf`, a scale by a splat, ...) whose
       tensor operands come out of one accumulator layout, each used once,
       runs in that layout, the conversion moving after it; its other
       operands are rebuilt there when they are splats, broadcast row or
       column vectors or elementwise trees of those (a causal mask), or
       converted in when they extend a narrower tile (an f16 bias
       extended to f32): a tile as wide as the accumulator stops it; an
       accumulator used by several elementwise ops (an epilogue's gelu)
       takes their whole cluster into its layout when the values leaving
       the cluster are no wider than it (the f16 result);
     - `convert_layout(convert_layout(x))` becomes one conversion;
     - `ttg.local_store`, `ttg.local_alloc` and `tt.descriptor_store` store
       the accumulator from its own layout (they write through its linear
       layout): the conversion goes.
    Conversions out of other layouts stay: Triton chose those layouts for
    its stores.

    Before (`musa:mp_31`):
    ```mlir
    %d = ttg.convert_layout %acc : tensor<128x128xf32, #sqmma> -> tensor<128x128xf32, #blocked>
    %h = arith.truncf %d : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
    %s = ttg.convert_layout %h : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %desc[%m, %n], %s : !tt.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #blocked1>
    ```
    After:
    ```mlir
    %h = arith.truncf %acc : tensor<128x128xf32, #sqmma> to tensor<128x128xf16, #sqmma>
    tt.descriptor_store %desc[%m, %n], %h : !tt.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #sqmma>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::triton::gpu::TritonGPUDialect"];
}

def MUSADotPathReport : Pass<"musa-dot-path-report", "mlir::ModuleOp"> {
  let summary = "Remark, per dot, which matrix path it takes and why not another";
  let description = [{
    Run after --musa-accelerate-matmul: emits one MLIR remark per dot,
    naming its path and, for a dot left on FMA, the reason recorded by the
    selection (dtype, shape, warps, a switch, or a path not built yet).
    Changes nothing.

    ```mlir
    %d = musagpu.wmma %a, %b, %c : ...
    // remark: dot 64x64x32 f16 -> f32: wmma f16 x f16 -> f32 m32n32k16 on mp_2x, warpsPerCTA [2, 2]
    %e = tt.dot %x, %y, %z {musa.dot_path_reason = "..."} : ...
    // remark: dot 64x64x32 f32 -> f32: fma (f32 operands with input_precision = ieee ...)
    ```
  }];
}

def MUSALowerDescriptorsToTME
    : Pass<"musa-lower-descriptors-to-tme", "mlir::ModuleOp"> {
  let summary = "Move descriptor tiles with the tensor memory engine (TME) and async barriers";
  let description = [{
    On an architecture with TME (`hasTME` in the table, mp_31), rewrites
    `tt.descriptor_load` and `tt.descriptor_store` into TME tile transfers
    through a shared-memory buffer (`#musagpu.tme_shared`: the box stored
    densely, innermost dimension fastest, cut into 256-byte-wide pieces
    when wider, swizzled with granularity 16/32/64 B and stride = line =
    256 B where the buffer holds a whole swizzle period).

    A load gets its own async barrier id (1..63, from 2 where the function
    has async copies): `musagpu.async_barrier_record` and one
    `musagpu.async_barrier_init` (arrive count 1, phase 0) per id at the
    function's entry; at the load, expect the box's bytes, `musagpu.tme_load`,
    arrive, wait for the current phase, `ttg.local_load`. Inside `scf.for`
    loops the phase is loop-carried (an extra i32 iter_arg per enclosing
    loop) and flips after each wait; inside `scf.if` it is one more result
    (the other branch passes it on). The buffer is allocated before the
    outermost loop around the op (or the op) and freed after it.

    Loads in loops that --musa-pipeline-loops pipelines (it runs first)
    are already TME rings; this pass takes every other descriptor load and
    every store, and reserves its barrier ids after the rings' (one
    `musagpu.async_barrier_record` per function). The decisions of which
    transfers go through TME are shared with the pipeliner
    (passes/TMETransfers.h).

    Matrix-unit operands: where the loaded tile's only use is its copy into
    an SQMMA operand buffer (an immutable `ttg.local_alloc` of the tile with
    a `#musagpu.tme_shared` layout, in the same block, read only by
    `musagpu.sqmma` ops that are waited for in that block), the TME buffer
    takes that layout and the SQMMA reads it: no `ttg.local_load` and no
    copy. A later load into the buffer is issued after a block barrier,
    when no SQMMA reads it.

    A store: (in a loop, `musagpu.tme_store_wait` so that the previous
    store has read the buffer) `ttg.local_store`, `musagpu.tme_store`,
    `musagpu.tme_store_commit`; after the outermost enclosing loop (or the
    store), `musagpu.tme_store_wait` before the buffer is freed.

    Descriptors. On the emulator the lowering builds a descriptor for kernel
    arguments and `tt.make_tensor_descriptor` alike. On the GPU
    (`target=musa`) only kernel arguments qualify: the host encodes a
    64-byte MUtensorDescriptor and passes it by value. An argument goes
    through TME with all of its uses or with none (one form per argument);
    those that do are marked `musagpu.tme_descriptor`; the module attribute
    `musagpu.tme_descriptor_args` holds, per descriptor argument of the
    kernel in order, 1 where the host encodes it and 0 where it passes the
    tensor's base address (what the launcher reads).

    Left on the path without TME (the lowering's bounds-checked global
    accesses), each with a remark saying why: gathers, scatters and
    reduces; tiles that drop descriptor dimensions; boxes that are not
    legal TME boxes (fewer than 32 bytes innermost, or wider than 256 bytes
    and not a multiple of 256 bytes); loads inside anything but `scf.for` and `scf.if`;
    descriptors neither made by `tt.make_tensor_descriptor` nor kernel
    arguments; on the GPU, descriptors made in the kernel and the other
    uses of an argument one of whose uses stays without TME. Architectures
    without TME are left alone. In the compiler's pipeline
    --musa-lower-descriptors-to-pointers has already made the loads and
    stores among these pointer accesses; gathers, scatters and reduces
    remain.

    Before (`target=emulator`, mp_31):
    ```mlir
    scf.for %k = %c0 to %n step %c32 : i32 {
      %t = tt.descriptor_load %d[%m, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
      ...
    }
    ```
    After:
    ```mlir
    musagpu.async_barrier_record 1
    musagpu.async_barrier_init %c1_i32, arrive_count %c1_i32, phase %c0_i32
    %buf = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<64x32xf16, #musagpu.tme_shared<...>, #smem, mutable>
    %r = scf.for %k = %c0 to %n step %c32 iter_args(%phase = %c0_i32) -> (i32) : i32 {
      musagpu.async_barrier_expect_bytes %c1_i32, %c4096_i32
      musagpu.tme_load %d[%k, %m] to %buf, barrier %c1_i32 box [32, 64] : ...
      musagpu.async_barrier_arrive %c1_i32
      musagpu.async_barrier_wait %c1_i32, phase %phase
      %t = ttg.local_load %buf : ... -> tensor<64x32xf16, #blocked>
      %next = arith.xori %phase, %c1_i32 : i32
      scf.yield %next : i32
    }
    ttg.local_dealloc %buf : ...
    ```
  }];
  let dependentDialects = ["mlir::musagpu::MUSAGPUDialect",
                           "mlir::triton::gpu::TritonGPUDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
  let options = [
    MUSAArchOption,
    MUSATargetOption<
           "What the kernel runs on: 'musa' (the GPU: TME on host-encoded "
           "kernel-argument descriptors), 'emulator' (the CPU emulator, "
           "which builds TME descriptors from base, shape and strides) or "
           "'proxy' (the NVVM proxy: no TME, descriptors stay as they are)">
  ];
}

def MUSADecomposeScaledDot
    : Pass<"musa-decompose-scaled-dot", "mlir::ModuleOp"> {
  let summary = "Rewrite tt.dot_scaled as operand upcasts, scaling and a tt.dot";
  let description = [{
    MUSA has no scaled (microscaling) matrix instruction. Each operand of a
    `tt.dot_scaled` is upcast to bf16, or to fp16 when either operand is
    fp16 (Triton's rule): e2m1 through `ttg.fp4_to_fp` (two values per i8
    along the packed dimension, low nibble first), e4m3/e5m2 and bf16/fp16
    through `tt.fp_to_fp` (rtne when narrowing). An operand with a scale is
    then multiplied by 2^(s - 127) (s the e8m0 byte; s = 0 is 2^-127),
    broadcast over its group of K elements (K / number of groups: 32 for the
    mx formats); unless `fastMath`, a scale of 0xFF makes its group NaN. The
    rhs scale is indexed [N, group], as tt.dot_scaled takes it. The operands
    go to the dot operand layouts of the result's `#ttg.blocked` through
    shared memory (an unswizzled `ttg.local_alloc` read by `ttg.local_load`,
    the form Triton gives every other dot's operands) and are multiplied by
    a `tt.dot` (input precision ieee), which `--musa-accelerate-matmul`,
    running after this pass, may put on a matrix unit.

    The broadcast's expand_dims, broadcast, reshape (and trans for the rhs)
    carry `#ttg.linear` layouts derived from the operand's, so only the
    scale's `ttg.convert_layout` moves data; `ttg.fp4_to_fp`'s result layout
    is the source's with the packed dimension doubled in registers.

    Reported as errors: fp6 operands (e2m3, e3m2), float scales, and a
    result that is not `#ttg.blocked`.

    Before:
    ```mlir
    %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false}
        : tensor<32x32xi8, #blocked>, tensor<32x2xi8, #blocked1> * tensor<64x32xbf16, #blocked>
        -> tensor<32x32xf32, #blocked>
    ```
    After:
    ```mlir
    %a16 = ttg.fp4_to_fp %a {axis = 1 : i32} : tensor<32x32xi8, #blocked> -> tensor<32x64xbf16, #linear>
    %s = ... 2^(%sa - 127) in bf16, NaN where %sa = 0xFF ...
    %s1 = ttg.convert_layout %s : tensor<32x2xbf16, #blocked1> -> tensor<32x2xbf16, #ttg.slice<{dim = 2, parent = #linear1}>>
    %s2 = tt.expand_dims %s1 {axis = 2 : i32} : ... -> tensor<32x2x1xbf16, #linear1>
    %s3 = tt.broadcast %s2 : ... -> tensor<32x2x32xbf16, #linear1>
    %s4 = tt.reshape %s3 : ... -> tensor<32x64xbf16, #linear>
    %as = arith.mulf %a16, %s4 : tensor<32x64xbf16, #linear>
    %abuf = ttg.local_alloc %as : (tensor<32x64xbf16, #linear>) -> !ttg.memdesc<32x64xbf16, #shared, #smem>
    %x = ttg.local_load %abuf : ... -> tensor<32x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bbuf = ttg.local_alloc %b : (tensor<64x32xbf16, #blocked>) -> !ttg.memdesc<64x32xbf16, #shared, #smem>
    %y = ttg.local_load %bbuf : ... -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %x, %y, %c : ... -> tensor<32x32xf32, #blocked>
    ```
  }];
  let dependentDialects = ["mlir::triton::TritonDialect",
                           "mlir::triton::gpu::TritonGPUDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // TRITON_MUSA_PASSES_PASSES_TD
