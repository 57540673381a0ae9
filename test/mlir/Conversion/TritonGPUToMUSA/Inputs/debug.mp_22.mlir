// tt.print: one vprintf per value a thread holds, with Triton's device_print
// line "pid (x, y, z) idx (i...)<prefix>[(operand k) ]<value>\n" as a module
// global (indices padded to the width of the largest one); tt.assert:
// __assertfail(message, file, line, function, 1) where any element of the
// condition the thread holds is false, then a block barrier.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {

  tt.func public @debug(%pid: i32, %x: tensor<256xi32, #blocked>, %f: tensor<256xf32, #blocked>, %u: tensor<256xi64, #blocked>, %ok: tensor<256xi1, #blocked>) {
    tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %pid : i32
    tt.print " x=: " {hex = true, isSigned = array<i32: 1>} : %x : tensor<256xi32, #blocked>
    tt.print " two: " {hex = false, isSigned = array<i32: 1, 0>} : %f, %u : tensor<256xf32, #blocked>, tensor<256xi64, #blocked>
    tt.assert %ok, "negative input" : tensor<256xi1, #blocked> loc("kernel.py":7:3)
    tt.return
  }
}
