// Vector add as Triton 3.6 emits it for musa:mp_22 (corpus_ir/add.mp_22.ttgir,
// locations stripped). Input of e2e-add.mlir.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @add_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
    %c1024_i32 = arith.constant 1024 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32, #blocked>
    %pid = tt.get_program_id x : i32
    %offs = arith.muli %pid, %c1024_i32 : i32
    %offs_1 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %offs_2 = tt.splat %offs : i32 -> tensor<1024xi32, #blocked>
    %offs_3 = arith.addi %offs_2, %offs_1 : tensor<1024xi32, #blocked>
    %mask = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask_4 = arith.cmpi slt, %offs_3, %mask : tensor<1024xi32, #blocked>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %x_5 = tt.addptr %x, %offs_3 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %x_6 = tt.load %x_5, %mask_4, %cst : tensor<1024x!tt.ptr<f32>, #blocked>
    %y = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %y_7 = tt.addptr %y, %offs_3 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %y_8 = tt.load %y_7, %mask_4, %cst_0 : tensor<1024x!tt.ptr<f32>, #blocked>
    %0 = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %1 = tt.addptr %0, %offs_3 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %2 = arith.addf %x_6, %y_8 : tensor<1024xf32, #blocked>
    tt.store %1, %2, %mask_4 : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
