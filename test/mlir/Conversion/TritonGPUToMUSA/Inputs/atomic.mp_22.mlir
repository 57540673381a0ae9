// atomic.mlir for mp_22 (128-thread warps; the first case on one warp so
// that every thread still holds distinct elements).
// tt.atomic_rmw and tt.atomic_cas: one llvm.atomicrmw / llvm.cmpxchg per
// element, under its mask, issued once per element (owner thread, thread 0 for
// scalars); sem -> ordering (relaxed = monotonic), scope -> syncscope
// (cta = "workgroup", gpu = "agent", sys = none). Where other threads need the
// old value, it goes through the op's scratch shared memory.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @fadd_masked(%p: tensor<256x!tt.ptr<f32>, #blocked>, %v: tensor<256xf32, #blocked>, %m: tensor<256xi1, #blocked>, %out: tensor<256x!tt.ptr<f32>, #blocked>) {
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xf32, #blocked>, tensor<256xi1, #blocked>) -> tensor<256xf32, #blocked>
    tt.store %out, %old : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @kinds(%pi: tensor<128x!tt.ptr<i32>, #blocked>, %i: tensor<128xi32, #blocked>, %pl: tensor<128x!tt.ptr<i64>, #blocked>, %l: tensor<128xi64, #blocked>, %ph: tensor<128x!tt.ptr<f16>, #blocked>, %h: tensor<128xf16, #blocked>, %pb: tensor<128x!tt.ptr<bf16>, #blocked>, %bf: tensor<128xbf16, #blocked>, %pd: tensor<128x!tt.ptr<f64>, #blocked>, %d: tensor<128xf64, #blocked>, %pf: tensor<128x!tt.ptr<f32>, #blocked>, %f: tensor<128xf32, #blocked>) {
    %true = arith.constant dense<true> : tensor<128xi1, #blocked>
    %0 = tt.atomic_rmw max, relaxed, gpu, %pi, %i, %true : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xi32, #blocked>
    %1 = tt.atomic_rmw min, acquire, cta, %pi, %i, %true : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xi32, #blocked>
    %2 = tt.atomic_rmw umax, release, gpu, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %3 = tt.atomic_rmw umin, acq_rel, gpu, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %4 = tt.atomic_rmw and, acq_rel, sys, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %5 = tt.atomic_rmw or, acq_rel, gpu, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %6 = tt.atomic_rmw xor, acq_rel, gpu, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %7 = tt.atomic_rmw add, acq_rel, gpu, %pl, %l : (tensor<128x!tt.ptr<i64>, #blocked>, tensor<128xi64, #blocked>) -> tensor<128xi64, #blocked>
    %8 = tt.atomic_rmw fadd, acq_rel, gpu, %ph, %h : (tensor<128x!tt.ptr<f16>, #blocked>, tensor<128xf16, #blocked>) -> tensor<128xf16, #blocked>
    %9 = tt.atomic_rmw fadd, acq_rel, gpu, %pb, %bf : (tensor<128x!tt.ptr<bf16>, #blocked>, tensor<128xbf16, #blocked>) -> tensor<128xbf16, #blocked>
    %10 = tt.atomic_rmw fadd, acq_rel, gpu, %pd, %d : (tensor<128x!tt.ptr<f64>, #blocked>, tensor<128xf64, #blocked>) -> tensor<128xf64, #blocked>
    %11 = tt.atomic_rmw exch, release, gpu, %pf, %f : (tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32, ttg.shared = 16 : i32} {
  tt.func public @scalar_cas(%lock: !tt.ptr<i32>) -> i1 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %old = tt.atomic_cas acquire, gpu, %lock, %c0, %c1 {allocation.offset = 8 : i32} : (!tt.ptr<i32>, i32, i32) -> i32
    %free = arith.cmpi eq, %old, %c0 : i32
    tt.return %free : i1
  }

  tt.func public @scalar_rmw_unused(%lock: !tt.ptr<i32>, %m: i1) {
    %c0 = arith.constant 0 : i32
    %old = tt.atomic_rmw exch, release, gpu, %lock, %c0, %m : (!tt.ptr<i32>, i32, i1) -> i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32, ttg.shared = 256 : i32} {
  tt.func public @cas_duplicated(%p: tensor<64x!tt.ptr<f32>, #blocked>, %c: tensor<64xf32, #blocked>, %v: tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked> {
    %old = tt.atomic_cas acq_rel, gpu, %p, %c, %v {allocation.offset = 0 : i32} : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
    tt.return %old : tensor<64xf32, #blocked>
  }
}
