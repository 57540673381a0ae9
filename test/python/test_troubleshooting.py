"""The README's troubleshooting rows, as the code prints them: ``python -m triton_musa.tools.doctor``,
the warning when no driver of ours is active, the shadowing-triton warning, and a kernel compiled
without the SDK reaching the device loader."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

import aot_env
from triton_musa.backend import driver as musa_driver
from triton_musa.backend.device import _device_utils
from triton_musa.backend.toolchain import MusaToolchainNotFound
from triton_musa.tools import doctor

REPO = Path(__file__).resolve().parents[2]


def run_python(args: list, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=300)


def test_doctor_here(tmp_path: Path) -> None:
    """This machine: the emulator is the driver, no torch_musa, no SDK; the templates as a wheel installs them."""
    site = aot_env.installed_site(tmp_path)
    env = dict(os.environ, MUSA_HOME=str(tmp_path / "no-sdk"), TRITON_MUSA_EMULATOR="1", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([str(site), str(aot_env.PACKAGE_ROOT)]))
    proc = run_python(["-m", "triton_musa.tools.doctor"], env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = {line.split()[0]: line for line in proc.stdout.splitlines()}
    assert lines["triton"].startswith("triton      3.6.0 at ")
    assert "musa -> triton_musa.backend (triton-musa " in lines["backend"]
    assert "active: MusaDriver on the CPU emulator, GPUTarget(backend='musa', arch='mp_31', warp_size=32)" \
        in lines["driver"]
    assert "[!] not usable: torch_musa is not installed" in lines["device"]
    assert "[!] not found: the MUSA SDK is needed to turn LLVM IR into a mubin, and its llc was not found" \
        in lines["sdk"]
    assert f"Triton's AOT tool reads them from {site}/triton/tools/extra/musa" in lines["templates"]


def test_doctor_without_templates_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("triton_musa.tools.templates.triton_template_dir", lambda: tmp_path / "extra" / "musa")
    topic, fine, what = doctor.check_templates()
    assert not fine and "compile.c is missing" in what
    assert what.endswith("python -m triton_musa.tools.templates --install puts them there")


def test_doctor_on_a_machine_with_the_sdk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home = aot_env.fake_sdk(tmp_path)
    monkeypatch.setenv("MUSA_HOME", str(home))
    topic, fine, what = doctor.check_sdk()
    assert not fine and "(LLVM version 14.0.6)" in what and f"but no {home}/include/musa.h" in what
    (home / "include").mkdir()
    (home / "include" / "musa.h").write_text("")
    assert doctor.check_sdk()[1]


def test_no_active_driver_is_explained(tmp_path: Path) -> None:
    env = dict(os.environ, TRITON_MUSA_EMULATOR="0", TRITON_CACHE_DIR=str(tmp_path))
    proc = run_python(["-c", "import triton; triton.runtime.driver.active.get_current_target()"], env)
    assert proc.returncode != 0
    assert "UserWarning: triton-musa: the MUSA driver is not active: TRITON_MUSA_EMULATOR=0 turns the CPU emulator " \
        "off and no MUSA device is usable (torch_musa is not installed" in proc.stderr
    assert "RuntimeError: 0 active drivers ([]). There should only be one." in proc.stderr


def test_shadowing_triton_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert musa_driver.triton_mismatch() is None
    monkeypatch.setitem(sys.modules, "triton", types.SimpleNamespace(__version__="3.5.0", __file__="/elsewhere/triton/"
                                                                    "__init__.py"))
    assert musa_driver.triton_mismatch() == (
        "triton-musa supports triton==3.6.0, but `import triton` found 3.5.0 at /elsewhere/triton/__init__.py: "
        "another triton package (or a directory named triton on sys.path) shadows it; "
        "reinstall with pip install triton==3.6.0")


def test_kernel_compiled_without_sdk_is_refused_by_the_device_loader(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    utils = _device_utils()
    monkeypatch.setenv("MUSA_HOME", str(tmp_path / "no-sdk"))
    with pytest.raises(MusaToolchainNotFound, match="its llc was not found"):
        utils.load_binary("add_kernel", "; ModuleID = 'LLVMDialectModule'", 0, 0)
    monkeypatch.setenv("MUSA_HOME", str(aot_env.fake_sdk(tmp_path)))
    with pytest.raises(RuntimeError, match="compiled without the MUSA SDK .*TRITON_ALWAYS_COMPILE=1"):
        utils.load_binary("add_kernel", "; ModuleID = 'LLVMDialectModule'", 0, 0)
