// The `target=` option (target/TargetPassOptions.td) is typed: a name other
// than musa, emulator or proxy fails while the pipeline is parsed, before
// any pass runs, with the legal names; a printed pipeline keeps the names.
// RUN: not musa-opt %s -musa-lower-descriptors-to-tme=target=cpu 2>&1 | FileCheck %s --check-prefix=BAD-TME
// RUN: not musa-opt %s "--pass-pipeline=builtin.module(convert-tritongpu-to-musa{target=gpu})" 2>&1 | FileCheck %s --check-prefix=BAD-CONV
// RUN: musa-opt %s --dump-pass-pipeline "--pass-pipeline=builtin.module(musa-lower-descriptors-to-tme{target=emulator},convert-tritongpu-to-musa{target=proxy})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: musa-opt %s --dump-pass-pipeline -musa-lower-descriptors-to-tme -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT

// BAD-TME: for the --target option: unknown target 'cpu'; expected 'musa', 'emulator' or 'proxy'
// BAD-CONV: for the --target option: unknown target 'gpu'; expected 'musa', 'emulator' or 'proxy'
// PRINT: musa-lower-descriptors-to-tme{arch= target=emulator}
// PRINT-NEXT: convert-tritongpu-to-musa{arch= target=proxy}
// DEFAULT: musa-lower-descriptors-to-tme{arch= target=musa}

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
}
