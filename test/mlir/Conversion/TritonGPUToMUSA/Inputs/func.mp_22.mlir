// mp_22 twin of ../func.mlir (128-thread warps); checked there.

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func private @helper(%x: f32) -> f32 attributes {noinline = true} {
    tt.return %x : f32
  }
  tt.func public @caller(%x: f32) {
    %y = tt.call @helper(%x) : (f32) -> f32
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func private @pair(%a: i32, %b: f32) -> (i32, f32) attributes {noinline = true} {
    tt.return %a, %b : i32, f32
  }
  tt.func public @use_pair(%a: i32, %b: f32) {
    %x, %y = tt.call @pair(%a, %b) : (i32, f32) -> (i32, f32)
    tt.return
  }
}
