"""``python -m triton_musa.tools.selftest``: the bring-up kit. One command that turns a first run on a MUSA
machine into a verdict on every hardware fact the compiler infers (README: "First run on a MUSA machine").

1. ABI probes (abi.py, families.py), where an SDK is found: every intrinsic-table entry and lowered matrix row
   through the SDK's llc as our toolchain runs it, the llc flags, and one kernel per corpus family to a mubin.
2. Device probes (device.py), on the MUSA device, else on the CPU emulator: one kernel per inferred fact, whose
   output is predicted from the fact's statement in facts.py; then the families against torch and a do_bench.
3. A report (report.py): ``triton-musa-selftest-<host>-<time>.json`` and ``.txt``, with the versions.

Exit status: 0 when nothing differs (probes that could not run here say why and do not count), 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence

from .report import NOT_CHECKED, ProbeResult, Report, collect_versions


def _active_musa_driver() -> tuple[Optional[object], str]:
    """Our driver made Triton's active one, and whether it is the emulator; (None, why) when it cannot be."""
    from triton.runtime import driver

    from ...backend.driver import MusaDriver
    from ...backend.emulator import emulator_active
    from ...backend.environment import musa_device_status
    if not emulator_active() and not musa_device_status().available:
        return None, f"no MUSA device ({musa_device_status().reason}) and the CPU emulator is off"
    musa = MusaDriver()
    driver.set_active(musa)
    return musa, ""


def run(abi: bool = True, device: bool = True, families: bool = True) -> Report:
    from ... import _musa_mlir
    from . import abi as abi_probes
    from . import device as device_probes
    from .families import bench_matmul, compile_families_to_mubin, run_families
    started = time.monotonic()
    report = Report(versions=collect_versions())
    results: List[ProbeResult] = []
    if abi:
        results += abi_probes.run_abi_probes(
            kernel_probes=(lambda toolchain: compile_families_to_mubin(toolchain)) if families else None)
    if device:
        musa, why = _active_musa_driver()
        if musa is None:
            results.append(ProbeResult("device", "device", "the device probes", NOT_CHECKED, why))
            report.where = "no device"
        else:
            emulated = bool(getattr(musa, "emulated", True))
            runner = device_probes.Runner(emulated)
            if emulated:
                archs = tuple(a["name"] for a in _musa_mlir.architectures())
                report.where = f"the CPU emulator ({', '.join(archs)}), no MUSA device"
            else:
                archs = (musa.get_current_target().arch, )
                report.where = f"a MUSA device ({archs[0]})"
            results += device_probes.run_device_probes(runner=runner, archs=archs)
            if families:
                results += run_families(runner, archs)
                results.append(bench_matmul(runner))
    report.results = results
    report.seconds = time.monotonic() - started
    return report


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m triton_musa.tools.selftest", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path.cwd(), help="directory of the report files (default: here)")
    parser.add_argument("--no-abi", action="store_true", help="skip the ABI probes (the SDK's llc)")
    parser.add_argument("--no-device", action="store_true", help="skip the device probes")
    parser.add_argument("--no-families", action="store_true",
                        help="skip the corpus-family kernels and the do_bench (the probes of the facts only)")
    options = parser.parse_args(argv)
    report = run(abi=not options.no_abi, device=not options.no_device, families=not options.no_families)
    path = report.write(options.out)
    print(report.summary())
    print(f"\nreport: {path} (and {path.with_suffix('.txt').name}); attach it to a bug report")
    return 0 if report.ok else 1


__all__ = ["main", "run"]
