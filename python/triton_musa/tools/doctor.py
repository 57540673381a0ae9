"""``python -m triton_musa.tools.doctor``: what this Python environment gives triton-musa, one line per
check, with the message to act on where something is missing. The README's troubleshooting table
refers to these lines.

    triton      3.6.0 at .../site-packages/triton (distributions providing `triton`: triton)
    backend     musa -> triton_musa.backend (triton-musa 0.1.0)
    driver      active: MusaDriver on the CPU emulator, GPUTarget(backend='musa', arch='mp_31', warp_size=32)
    device      not usable: torch_musa is not installed (...)
    sdk         not found: the MUSA SDK is needed to turn LLVM IR into a mubin, and its llc was not found; ...
    templates   Triton's AOT tool will not find them: .../triton/tools/extra/musa/compile.c is missing
    selftest    python -m triton_musa.tools.selftest (or doctor --selftest) checks every inferred hardware fact ...

``--selftest`` then runs the bring-up kit (triton_musa.tools.selftest).
"""

from __future__ import annotations

import importlib.metadata
import sys
from typing import Callable, List, Optional, Sequence, Tuple

Check = Tuple[str, bool, str]  # (topic, fine, what)


def check_triton() -> Check:
    import triton

    from ..backend.driver import triton_mismatch
    providers = importlib.metadata.packages_distributions().get("triton", [])
    where = f"{triton.__version__} at {triton.__file__.rsplit('/', 1)[0]}"
    text = f"{where} (distributions providing `triton`: {', '.join(providers) or 'none'})"
    mismatch = triton_mismatch()
    if mismatch:
        return "triton", False, mismatch
    if len(set(providers)) > 1:
        return "triton", False, text + ": more than one distribution installs `triton`, one overwrites the other; " \
            "keep only triton==3.6.0"
    return "triton", True, text


def check_backend() -> Check:
    from triton.backends import backends
    points = [ep for ep in importlib.metadata.entry_points(group="triton.backends") if ep.name == "musa"]
    if not points:
        return "backend", False, "no 'musa' entry point in the group triton.backends: triton-musa is not installed " \
            "in this environment (pip install triton-musa, or pip install -e . in a checkout)"
    if "musa" not in backends:
        return "backend", False, f"the entry point {points[0].value} exists but Triton did not load it"
    version = importlib.metadata.version("triton-musa") if points[0].dist is not None else "?"
    return "backend", True, f"musa -> {points[0].value} (triton-musa {version})"


def check_driver() -> Check:
    from triton.runtime import driver
    try:
        active = driver.active
        target = active.get_current_target()
    except Exception as exc:  # noqa: BLE001  (what Triton says is the diagnosis)
        return "driver", False, f"{type(exc).__name__}: {exc}"
    if type(active).__name__ != "MusaDriver":
        return "driver", False, f"active: {type(active).__name__} ({target}), not MUSA: another GPU driver is " \
            "active here; TRITON_MUSA_EMULATOR=1 with triton.runtime.driver.set_active(MusaDriver()) selects ours"
    where = "the CPU emulator" if active.emulated else "a MUSA device"
    return "driver", True, f"active: MusaDriver on {where}, {target}"


def check_device() -> Check:
    from ..backend.driver import musa_device_status
    status = musa_device_status()
    return "device", status.available, status.reason if status.available else f"not usable: {status.reason}"


def check_sdk() -> Check:
    from ..backend.launcher import musa_home
    from ..backend.toolchain import MusaToolchainNotFound, find_toolchain, llc_version
    try:
        toolchain = find_toolchain()
    except MusaToolchainNotFound as exc:
        return "sdk", False, f"not found: {exc}"
    header = musa_home() / "include" / "musa.h"
    text = f"llc {toolchain.llc} ({llc_version(str(toolchain.llc))}), ld.lld {toolchain.lld}"
    if not header.exists():
        return "sdk", False, text + f"; but no {header}: launching kernels needs it (set MUSA_HOME)"
    return "sdk", True, text + f", {header}"


def check_templates() -> Check:
    from .templates import check, triton_template_dir
    problems = check()
    if problems:
        return "templates", False, "Triton's AOT tool (triton.tools.compile --target musa:...) will not find them: " \
            + "; ".join(problems) + "; python -m triton_musa.tools.templates --install puts them there"
    return "templates", True, f"Triton's AOT tool reads them from {triton_template_dir()}"


def check_selftest() -> Check:
    return "selftest", True, "python -m triton_musa.tools.selftest (or doctor --selftest) checks every inferred " \
        "hardware fact on this machine's device and SDK and writes a report to attach to a bug report"


CHECKS: Sequence[Callable[[], Check]] = (check_triton, check_backend, check_driver, check_device, check_sdk,
                                         check_templates, check_selftest)


def run(checks: Sequence[Callable[[], Check]] = CHECKS) -> List[Check]:
    results = []
    for check in checks:
        try:
            results.append(check())
        except Exception as exc:  # noqa: BLE001  (a failing check is itself a finding)
            results.append((check.__name__.replace("check_", ""), False, f"{type(exc).__name__}: {exc}"))
    return results


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    results = run()
    for topic, fine, what in results:
        print(f"{topic:<11} {'' if fine else '[!] '}{what}")
    status = 0 if all(fine for _, fine, _ in results[:3]) else 1
    if "--selftest" in args:
        from .selftest import main as selftest_main
        print()
        status = max(status, selftest_main([a for a in args if a != "--selftest"]))
    return status


if __name__ == "__main__":
    sys.exit(main())
