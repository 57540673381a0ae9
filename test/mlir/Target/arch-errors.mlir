// Every MUSA pass needs a known architecture: from ttg.target or arch=. The
// names come from the one table (target/MUSAArch.cpp).
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa -verify-diagnostics
// RUN: musa-opt %s -split-input-file -musa-allocate-shared-memory -verify-diagnostics
// RUN: musa-opt %s -split-input-file -musa-insert-barriers -verify-diagnostics
// RUN: not musa-opt %s -split-input-file -musa-insert-barriers 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_21 2>&1 | FileCheck %s --check-prefix=OPTION

// Each error names the pass that needs the architecture.
// FLAG: error: --musa-insert-barriers: the module has no "ttg.target" attribute and no arch= option was given; supported: mp_22, mp_31
// OPTION: error: --convert-tritongpu-to-musa: unknown MUSA architecture 'mp_21'; supported: mp_22, mp_31

// expected-error @below {{the module has no "ttg.target" attribute and no arch= option was given; supported: mp_22, mp_31}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_target() {
    tt.return
  }
}

// -----

// QY1 (mp_21) is not in the table: its shared memory per block is not public.
// expected-error @below {{unknown MUSA architecture 'mp_21'; supported: mp_22, mp_31}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_21", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @qy1() {
    tt.return
  }
}

// -----

// expected-error @below {{"ttg.target" = "cuda:90" is not a MUSA target ("musa:<arch>")}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cuda() {
    tt.return
  }
}
