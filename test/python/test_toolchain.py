"""The SDK step's discovery and error reporting (no SDK exists on CI machines)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from triton_musa.backend.environment import DEFAULT_MUSA_HOME, musa_home
from triton_musa.backend.target import parse_arch
from triton_musa.backend.toolchain import (LLC_ENV, LLD_ENV, MusaToolchainError, MusaToolchainNotFound,
                                           find_toolchain)


def _clear_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (LLC_ENV, LLD_ENV, "MUSA_HOME", "MUSA_PATH"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.skipif(Path(DEFAULT_MUSA_HOME, "bin", "llc").exists(), reason="a MUSA SDK is installed here")
def test_missing_sdk_names_every_place_searched(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _clear_env(monkeypatch)
    monkeypatch.setenv("MUSA_HOME", str(tmp_path / "no-sdk"))
    with pytest.raises(MusaToolchainNotFound) as info:
        find_toolchain()
    message = str(info.value)
    assert f"{LLC_ENV} (unset)" in message
    assert str(tmp_path / "no-sdk" / "bin" / "llc") in message
    assert f"{DEFAULT_MUSA_HOME}/bin/llc" in message
    assert "'llir' does not need it" in message


def test_musa_path_names_the_sdk_root_as_for_the_libdevice(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    """$MUSA_PATH (MUSA_HOME unset) is where the SDK step looks for llc, as environment.musa_home reads it."""
    _clear_env(monkeypatch)
    sdk = tmp_path / "sdk"
    (sdk / "bin").mkdir(parents=True)
    _script(sdk / "bin" / "llc", "exit 0\n")
    _script(sdk / "bin" / "ld.lld", "exit 0\n")
    monkeypatch.setenv("MUSA_PATH", str(sdk))
    assert musa_home() == sdk
    assert find_toolchain().llc == sdk / "bin" / "llc"


def test_explicit_llc_must_exist(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _clear_env(monkeypatch)
    monkeypatch.setenv(LLC_ENV, str(tmp_path / "llc"))
    with pytest.raises(MusaToolchainNotFound, match="is not an executable file"):
        find_toolchain()


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_tool_stderr_reaches_the_exception(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A stand-in llc that rejects its input the way the LLVM-14 SDK llc does.
    _clear_env(monkeypatch)
    llc = _script(tmp_path / "llc", "if [ \"$1\" = --version ]; then echo '  LLVM version 14.0.6'; exit 0; fi\n"
                                    "echo \"error: expected type at 'ptr'\" >&2\nexit 1\n")
    _script(tmp_path / "ld.lld", "exit 0\n")
    monkeypatch.setenv(LLC_ENV, str(llc))
    toolchain = find_toolchain()
    assert toolchain.lld == tmp_path / "ld.lld"
    with pytest.raises(MusaToolchainError, match=r"(?s)-mcpu=mp_31.*expected type at 'ptr'"):
        toolchain.compile_mubin("define void @k() { ret void }\n", parse_arch("mp_31"))


def test_missing_lld_beside_llc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _clear_env(monkeypatch)
    monkeypatch.setenv(LLC_ENV, str(_script(tmp_path / "llc", "exit 0\n")))
    with pytest.raises(MusaToolchainNotFound, match="no ld.lld"):
        find_toolchain()
