"""The MUSA SDK step: LLVM IR text -> object (SDK ``llc``) -> ``mubin`` (``ld.lld``).

Only this step needs the SDK. Without one, compilation up to ``llir`` still
works and asking for the binary raises ``MusaToolchainNotFound`` naming every
place that was searched.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from .environment import (DEFAULT_MUSA_HOME, LLC_ENV, LLD_ENV, MUSA_HOME_VARS, musa_home, musa_home_from_environment,
                          tool_override)
from .target import MusaArch

_TOOL_TIMEOUT_S = 600


def libdevice_path(arch: MusaArch) -> str:
    """Where the SDK keeps the math library for ``arch``.

    Only computed, never checked: a missing SDK is reported by the stage that links
    the library, so IR generation works on machines without one."""
    name = "libdevice.31.bc" if arch.major >= 3 else "libdevice.bc"
    return str(musa_home() / "mtgpu" / "bitcode" / name)


class MusaToolchainNotFound(RuntimeError):
    """No MUSA SDK ``llc``/``ld.lld`` could be found."""


class MusaToolchainError(RuntimeError):
    """An SDK tool ran and failed; the message carries its command and stderr."""


@dataclass(frozen=True)
class MusaToolchain:
    llc: Path
    lld: Path

    @property
    def version(self) -> str:
        """The SDK llc's ``--version`` line naming its LLVM release, e.g. "LLVM version 14.0.6"."""
        return llc_version(str(self.llc))

    @property
    def llvm_major(self) -> int:
        return llvm_major_of(self.version)

    def compile_mubin(self, llir: str, arch: MusaArch, kernel_name: str = "kernel", *,
                      shared_memory_from_zero: bool = False) -> bytes:
        """Runs ``llc`` then ``ld.lld`` on ``llir`` and returns the mubin (an ELF shared object);
        ``shared_memory_from_zero`` is lowering.LoweredKernel's (the kernel uses SQMMA descriptors)."""
        with tempfile.TemporaryDirectory(prefix="triton-musa-") as tmp:
            work = Path(tmp)
            ll_path, obj_path, mubin_path = (work / f"{kernel_name}{ext}" for ext in (".ll", ".o", ".mubin"))
            ll_path.write_text(llir)
            # LLVM 14 and older llc read opaque pointers only when asked (MUSA 5.2's llc is LLVM 14).
            opaque = ["--opaque-pointers"] if self.llvm_major < 15 else []
            # SQMMA descriptors swizzle absolute shared addresses: shared memory must start at address 0, as
            # the open MUSA backend asks llc when it uses SQMMA (MUSA-FACTS.md).
            sqmma = ["-mtgpu-alloc-shared-memory-from-zero=1"] if shared_memory_from_zero else []
            _run([str(self.llc), str(ll_path), "-march=mtgpu", f"-mcpu={arch.name}", "-O2", "-filetype=obj",
                  *opaque, *sqmma, "-o", str(obj_path)])
            _run([str(self.lld), "-flavor", "gnu", "-shared", str(obj_path), "-o", str(mubin_path)])
            return mubin_path.read_bytes()


# The LLVM major of the SDK llc when none is found (MUSA 5.x ships LLVM 14): IR is then written for it.
DEFAULT_LLVM_MAJOR = 14
_VERSION = re.compile(r"LLVM version (\d+)[.\d\w-]*")


def llvm_major_of(version: str) -> int:
    match = _VERSION.search(version)
    return int(match.group(1)) if match else DEFAULT_LLVM_MAJOR


@functools.lru_cache(maxsize=None)
def _llc_version(path: str, mtime_ns: int, size: int) -> str:
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise MusaToolchainError(f"could not run `{path} --version`: {exc}") from exc
    match = _VERSION.search(proc.stdout + proc.stderr)
    if match is None:
        raise MusaToolchainError(f"`{path} --version` names no LLVM version:\n{proc.stdout.strip()}")
    return match.group(0)


def llc_version(path: str) -> str:
    """``llc --version``'s LLVM version, remembered per file (path, mtime, size): a replaced SDK is asked again."""
    st = os.stat(path)
    return _llc_version(path, st.st_mtime_ns, st.st_size)


def toolchain_key() -> str:
    """What the binary depends on in the SDK: its llc's path and version, or "no-sdk"."""
    try:
        toolchain = find_toolchain()
    except MusaToolchainNotFound:
        return "no-sdk"
    return f"{toolchain.llc}:{toolchain.version}"


def target_llvm_major() -> int:
    """The LLVM major the emitted IR must suit: the SDK llc's, else DEFAULT_LLVM_MAJOR."""
    try:
        return find_toolchain().llvm_major
    except MusaToolchainNotFound:
        return DEFAULT_LLVM_MAJOR


def _run(cmd: Sequence[str]) -> None:
    try:
        proc = subprocess.run(list(cmd), capture_output=True, text=True, timeout=_TOOL_TIMEOUT_S)
    except OSError as exc:
        raise MusaToolchainError(f"could not run `{cmd[0]}`: {exc}") from exc
    except subprocess.TimeoutExpired as exc:
        raise MusaToolchainError(f"`{' '.join(cmd)}` did not finish within {_TOOL_TIMEOUT_S} s") from exc
    if proc.returncode != 0:
        raise MusaToolchainError(f"`{' '.join(cmd)}` failed with exit code {proc.returncode}:\n"
                                 f"{proc.stderr.strip() or proc.stdout.strip()}")


def _candidate_dirs() -> List[tuple[str, Optional[Path]]]:
    """(how it was found, bin dir) in search order; a None dir means 'variables unset'. The SDK root
    is read as environment.musa_home reads it."""
    named = musa_home_from_environment()
    return [
        (f"${named[0]}/bin", named[1] / "bin") if named else ("$" + "/$".join(MUSA_HOME_VARS) + "/bin", None),
        (f"{DEFAULT_MUSA_HOME}/bin", Path(DEFAULT_MUSA_HOME) / "bin"),
    ]


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def find_toolchain() -> MusaToolchain:
    """Locates ``llc`` ($TRITON_MUSA_LLC_PATH, $MUSA_HOME/bin or $MUSA_PATH/bin, /usr/local/musa/bin) and ``ld.lld``
    ($TRITON_MUSA_LLD_PATH, else beside that ``llc``)."""
    searched: List[str] = []
    llc: Optional[Path] = None
    explicit = tool_override(LLC_ENV)
    if explicit:
        if not _is_executable(Path(explicit)):
            raise MusaToolchainNotFound(f"{LLC_ENV}={explicit} is not an executable file")
        llc = Path(explicit)
    else:
        searched.append(f"{LLC_ENV} (unset)")
        for label, directory in _candidate_dirs():
            if directory is None:
                searched.append(f"{label} (unset)")
                continue
            if _is_executable(directory / "llc"):
                llc = directory / "llc"
                break
            searched.append(f"{directory}/llc (absent)")
    if llc is None:
        raise MusaToolchainNotFound(
            "the MUSA SDK is needed to turn LLVM IR into a mubin, and its llc was not found; searched: "
            + "; ".join(searched)
            + f". Install the MUSA SDK, or set MUSA_HOME (or MUSA_PATH) or {LLC_ENV}. Compiling to 'llir' does not "
            "need it.")

    lld_env = tool_override(LLD_ENV)
    lld = Path(lld_env) if lld_env else llc.parent / "ld.lld"
    if not _is_executable(lld):
        raise MusaToolchainNotFound(f"found the MUSA llc at {llc} but no ld.lld at {lld}; "
                                    f"set {LLD_ENV} to the SDK's ld.lld")
    return MusaToolchain(llc=llc, lld=lld)
