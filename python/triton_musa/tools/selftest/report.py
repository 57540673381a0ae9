"""The selftest's findings: one ``ProbeResult`` per probe, the versions of everything involved, and the
report files (JSON and a readable summary) a user attaches to a bug report."""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import platform
import socket
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

CONFIRMED = "confirmed"
DIFFERS = "differs"
NOT_CHECKED = "not checked"
ERROR = "error"
STATUSES = (CONFIRMED, DIFFERS, NOT_CHECKED, ERROR)


@dataclass(frozen=True)
class ProbeResult:
    """``status`` is CONFIRMED, DIFFERS (the hardware or SDK did something else than the fact says: ``detail``
    says what, ``change`` which table row or line to change), NOT_CHECKED (``detail`` says why) or ERROR (the
    probe itself could not run: ``detail`` has the exception)."""
    section: str  # "abi" or "device"
    name: str
    fact: str
    status: str
    detail: str = ""
    change: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown probe status {self.status!r}; expected one of {STATUSES}")


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def collect_versions() -> Dict[str, str]:
    """triton-musa, triton, torch, torch_musa, the SDK's llc, the MUSA driver and the device (capability)."""
    versions = {"triton-musa": _version("triton-musa"), "triton": _version("triton"), "torch": _version("torch"),
                "python": platform.python_version(), "platform": platform.platform()}
    try:
        import torch_musa  # noqa: F401
        versions["torch_musa"] = getattr(torch_musa, "__version__", "installed (no __version__)")
    except Exception as exc:  # noqa: BLE001  (absent or broken: either way what the report says)
        versions["torch_musa"] = f"not importable ({type(exc).__name__}: {exc})"
    from ...backend.toolchain import MusaToolchainNotFound, find_toolchain
    try:
        toolchain = find_toolchain()
        versions["sdk_llc"] = f"{toolchain.llc} ({toolchain.version})"
    except MusaToolchainNotFound as exc:
        versions["sdk_llc"] = f"not found: {exc}"
    except Exception as exc:  # noqa: BLE001
        versions["sdk_llc"] = f"{type(exc).__name__}: {exc}"
    from ...backend.environment import musa_device_status
    status = musa_device_status()
    versions["device"] = status.reason if status.available else f"none: {status.reason}"
    if status.available:
        try:
            import torch
            versions["musa_runtime"] = str(getattr(torch.version, "musa", "unknown"))
            versions["device_name"] = torch.musa.get_device_name(0)
            major, minor = torch.musa.get_device_capability(0)
            versions["device_capability"] = f"{major}.{minor}"
        except Exception as exc:  # noqa: BLE001
            versions["device_capability"] = f"{type(exc).__name__}: {exc}"
    return versions


@dataclass
class Report:
    results: List[ProbeResult] = field(default_factory=list)
    versions: Dict[str, str] = field(default_factory=dict)
    where: str = ""  # "MUSA device", "CPU emulator (mp_31, mp_22)"
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.results)

    @property
    def ok(self) -> bool:
        """Nothing differs and every probe ran (not-checked probes say why; they are no failure)."""
        return not self.count(DIFFERS) and not self.count(ERROR)

    def to_json(self) -> str:
        return json.dumps({"kind": "triton-musa selftest", "where": self.where, "seconds": round(self.seconds, 1),
                           "versions": self.versions, "counts": {s: self.count(s) for s in STATUSES},
                           "results": [asdict(r) for r in self.results]}, indent=2)

    def summary(self) -> str:
        lines = [f"triton-musa selftest on {self.where} ({self.seconds:.1f} s)"]
        lines += [f"  {key:<18} {value}" for key, value in self.versions.items()]
        for section, title in (("abi", "ABI probes (the SDK's llc, no GPU needed)"),
                               ("device", "device probes (one kernel per inferred fact)")):
            rows = [r for r in self.results if r.section == section]
            lines.append("")
            lines.append(f"{title}:")
            if not rows:
                lines.append("  (none)")
            for r in _folded(rows):
                lines.append(f"  {r.status:<12} {r.name}: {r.fact}")
                if r.detail and r.status != CONFIRMED:
                    lines += [f"               {line}" for line in r.detail.splitlines()]
                if r.change:
                    lines.append(f"               change: {r.change}")
        lines.append("")
        lines.append("counts: " + ", ".join(f"{self.count(s)} {s}" for s in STATUSES))
        return "\n".join(lines)

    def write(self, directory: Path, stamp: Optional[str] = None) -> Path:
        """Writes ``triton-musa-selftest-<host>-<time>.json`` and the summary beside it (``.txt``); returns
        the JSON's path."""
        stamp = stamp or datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        host = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in socket.gethostname()) or "host"
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"triton-musa-selftest-{host}-{stamp}.json"
        path.write_text(self.to_json() + "\n")
        path.with_suffix(".txt").write_text(self.summary() + "\n")
        return path


def _folded(rows: List[ProbeResult]) -> List[ProbeResult]:
    """The summary's rows: every row that is not confirmed, and the confirmed ones of one fact folded into
    one line per fact where there are many (the ABI probes' hundreds of instructions); the JSON keeps all."""
    out: List[ProbeResult] = []
    confirmed: Dict[str, List[ProbeResult]] = {}
    for r in rows:
        if r.status == CONFIRMED:
            confirmed.setdefault(r.fact, []).append(r)
    emitted = set()
    for r in rows:
        if r.status != CONFIRMED:
            out.append(r)
        elif r.fact not in emitted:
            emitted.add(r.fact)
            group = confirmed[r.fact]
            if len(group) <= 6:
                out.extend(group)
            else:
                out.append(ProbeResult(r.section, f"{len(group)} probes ({group[0].name}, ...)", r.fact, CONFIRMED))
    return out
