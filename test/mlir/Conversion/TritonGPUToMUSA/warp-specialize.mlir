// ttg.warp_specialize -> branches on the warp index (mp_31): warps below
// "ttg.num-warps" run the default region and branch to the join with its
// yielded values; partition 0's warps (4 .. 4) enter it, its arguments
// replaced by the captures (computed by every warp before the op), issue what one thread issues from the partition's
// first thread (128, not thread 0, which is a consumer), and return from
// the kernel. The kernel's maxntid counts every warp. per_warp arrivals are
// the first lane of each warp.
// The last two cases are errors.
// RUN: not musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 2>/dev/null | FileCheck %s
// RUN: not musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: llvm.func @specialized(
// CHECK-SAME: %[[N:[^:]*]]: i32
// CHECK-SAME: musa.maxntidx = 160 : i32
// CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
// CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]], %{{.*}} : i32
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[DEFAULT:.*]] = llvm.icmp "ult" %[[WARP]], %[[FOUR]] : i32
// CHECK: llvm.cond_br %[[DEFAULT]], ^[[CONSUMER:.*]], ^[[DISPATCH:.*]]
// CHECK: ^[[DISPATCH]]:
// CHECK-NEXT: llvm.br ^[[PRODUCER:.*]]{{$}}
// CHECK: ^[[CONSUMER]]:
// The consumers' per-warp arrival: lane = tid % 32 == 0.
// CHECK: %[[CTID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
// CHECK: %[[LANE:.*]] = llvm.urem %[[CTID]], %{{.*}} : i32
// CHECK: llvm.icmp "eq" %[[LANE]], %{{.*}} : i32
// CHECK: llvm.call @llvm.musa.async.arrive.none.phaseid
// CHECK: llvm.br ^[[JOIN:.*]](%[[SUM:.*]] : i32)
// CHECK: ^[[PRODUCER]]:
// CHECK: %[[PTID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
// CHECK: %[[FIRST:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK: llvm.icmp "eq" %[[PTID]], %[[FIRST]] : i32
// CHECK: llvm.call @llvm.musa.async.arrive.none.phaseid(%[[N]])
// CHECK: llvm.return
// CHECK: ^[[JOIN]](%[[RESULT:.*]]: i32):
// CHECK: llvm.store %[[RESULT]]
// CHECK-NOT: llvm.musa.barrier0
// CHECK: llvm.return

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 5 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @specialized(%n: i32, %out: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    %r = ttg.warp_specialize(%n)
    default {
      %sum = arith.addi %n, %c1 : i32
      musagpu.async_barrier_arrive %c1 per_warp
      ttg.warp_yield %sum : i32
    }
    partition0(%m: i32) num_warps(1) {
      musagpu.async_barrier_arrive %m
      ttg.warp_return
    } : (i32) -> i32
    tt.store %out, %r : !tt.ptr<i32>
    tt.return
  }
}

// -----

// A block barrier in a partition would wait for warps that never arrive.
// ERR: error: 'ttg.local_barrier' waits for the whole block, which a warp-specialized region cannot do: the other warps never arrive
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 5 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @barrier_in_partition(%n: i32) {
    ttg.warp_specialize(%n)
    default {
      ttg.warp_yield
    }
    partition0(%m: i32) num_warps(1) {
      ttg.local_barrier
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// The partitions' warps must be launched.
// ERR: error: the partitions need 5 warps in all, but the module's "ttg.total-num-warps" is 4
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_total(%n: i32) {
    ttg.warp_specialize(%n)
    default {
      ttg.warp_yield
    }
    partition0(%m: i32) num_warps(1) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}
