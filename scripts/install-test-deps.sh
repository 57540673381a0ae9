#!/usr/bin/env bash
# What the test command needs beyond the package: Python test tools, and
# Debian/Ubuntu's LLVM 14 (`llvm-as-14`, `lli-14`, and from llvm-14-dev the
# table of LLVM 14's intrinsics), the suite's stand-in for the MUSA SDK's
# LLVM-14 llc: every LLVM IR module we emit must parse with it and call only
# intrinsics LLVM 14 has.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install -q -r requirements-test.txt

if ! command -v llvm-as-14 >/dev/null || [ ! -e /usr/lib/llvm-14/include/llvm/IR/IntrinsicImpl.inc ]; then
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q --no-install-recommends llvm-14 llvm-14-dev >/dev/null \
    || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q --no-install-recommends llvm-14 llvm-14-dev >/dev/null; }
fi
