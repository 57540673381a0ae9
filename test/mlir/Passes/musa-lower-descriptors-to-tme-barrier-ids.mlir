// --musa-lower-descriptors-to-tme after the pipeliner's TME rings took async
// barrier ids (their musagpu.async_barrier_record leads the function): the
// loads left take ids after the rings', up to 63; past that a load keeps
// the path without TME, and on the GPU every use of its argument with it.
// RUN: musa-opt %s -musa-lower-descriptors-to-tme 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // The rings took ids up to 62: of %a's two loads one gets id 63, the
  // other none, so on the GPU both keep the path without TME (one form per
  // argument) and the argument is not host-encoded.
  // CHECK: module attributes {{.*}}musagpu.tme_descriptor_args = array<i32: 0>
  // CHECK-LABEL: tt.func public @out_of_ids(
  // CHECK-NOT: musagpu.tme_load
  // REMARK: remark: descriptor load stays without TME: another use of its descriptor argument stays without TME (the function already uses all its async barriers) and the host passes one form per argument
  // REMARK: remark: descriptor load stays without TME: the function already uses all its async barriers
  tt.func public @out_of_ids(%a: !tt.tensordesc<tensor<16x32xf16>>, %am: i32, %an: i32, %asm: i64, %asn: i64) -> (tensor<16x32xf16, #blocked>, tensor<16x32xf16, #blocked>) {
    musagpu.async_barrier_record 62
    %c0 = arith.constant 0 : i32
    %x = tt.descriptor_load %a[%c0, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
    %y = tt.descriptor_load %a[%c0, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
    tt.return %x, %y : tensor<16x32xf16, #blocked>, tensor<16x32xf16, #blocked>
  }
}
