"""Shared fixtures: a private Triton cache, the corpus compiled once per target, the CPU emulator as
the driver of every kernel test, and the rule that a run fails on any skip not documented below."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Dict, Iterator, Tuple, Union

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the corpus package lives beside the tests

# Kernel tests run on the CPU emulator wherever the suite runs: it is forced before anything imports
# the backend (TRITON_MUSA_EMULATOR=0, set by hand on a MUSA machine, still tests the device), and it
# becomes Triton's active driver even where another GPU driver (CUDA, ROCm) is active too.
os.environ.setdefault("TRITON_MUSA_EMULATOR", "1")

# The only skips a run may show, each with its reason; any other skip fails the run.
DOCUMENTED_SKIPS = (
    # The no-SDK error messages cannot be produced where a MUSA SDK is installed.
    "a MUSA SDK is installed",
    # Tests marked musa_device (test_device.py) run a kernel on a real MUSA GPU: they need torch_musa and a
    # device of the marked capability, which CI and development machines without MUSA hardware lack; there the
    # reason names what is missing (musa_device_marker.missing_device). Everything else they use is also covered
    # on the emulator and against a stand-in driver.
    "needs a MUSA device",
    # Triton's tutorials are test data beside the checkout (../shared/triton-3.6-tutorials), never in the
    # repository and not on PyPI; a clone without them cannot run the tutorials' CI slice
    # (test_tutorials_suite.py, which names the folder it looked in). The suite's own machinery is tested
    # without them.
    "Triton's tutorials are not beside the checkout",
    # FlagGems' MUSA kernels (test_client_flaggems.py) come from the flag-gems wheel on PyPI, downloaded into the
    # client cache on first use, never copied here; where pip cannot fetch it the test says so and skips.
    "FlagGems' wheel could not be fetched",
)
_undocumented_skips: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "musa_device(min_capability=(major, minor)): needs a MUSA GPU of at least "
                            "that capability (skipped with the missing part named where there is none)")


def pytest_runtest_setup(item: pytest.Item) -> None:
    from musa_device_marker import skip_without_device
    skip_without_device(item)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # An expected failure (xfail) is reported as skipped too; it is not a skip.
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if not any(allowed in reason for allowed in DOCUMENTED_SKIPS):
            _undocumented_skips.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _undocumented_skips:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"{len(_undocumented_skips)} skip(s) outside conftest.DOCUMENTED_SKIPS "
                                "fail the run:", red=True)
            for line in _undocumented_skips:
                reporter.write_line(f"  {line}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session", autouse=True)
def musa_driver_active() -> None:
    """Our driver is Triton's active one (set explicitly: another GPU driver may be active too)."""
    from triton.runtime import driver

    from triton_musa.backend.driver import MusaDriver
    from triton_musa.backend.emulator import emulator_active
    if emulator_active():
        driver.set_active(MusaDriver())


@pytest.fixture(params=("mp_31", "mp_22"))
def arch(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each emulated arch in turn, as TRITON_MUSA_ARCH for the test (a test file may parametrize or
    define its own `arch`)."""
    from triton_musa.backend.environment import ARCH_ENV
    monkeypatch.setenv(ARCH_ENV, request.param)
    yield request.param


@pytest.fixture(scope="session", autouse=True)
def triton_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Compile into a fresh cache so results reflect the current backend, not ~/.triton."""
    path = tmp_path_factory.mktemp("triton-cache")
    old = os.environ.get("TRITON_CACHE_DIR")
    os.environ["TRITON_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("TRITON_CACHE_DIR", None)
    else:
        os.environ["TRITON_CACHE_DIR"] = old


CompileResult = Union[Dict[str, str], BaseException]


class CorpusCompiler:
    """Compiles each (entry, arch) at most once per session and remembers failures too."""

    def __init__(self) -> None:
        self._results: Dict[Tuple[str, str], CompileResult] = {}

    def get(self, name: str, arch: str) -> Dict[str, str]:
        key = (name, arch)
        if key not in self._results:
            from corpus import BY_NAME, TARGETS
            from triton_musa.backend.compiler import compile_to_ttgir
            entry = BY_NAME[name]
            try:
                # Only Triton's stages: most corpus kernels are not lowered (llir) yet.
                self._results[key] = compile_to_ttgir(entry.source(), TARGETS[arch], dict(entry.options))
            except Exception as exc:  # remembered so each stage's test reports the same error
                self._results[key] = exc
        result = self._results[key]
        if isinstance(result, BaseException):
            pytest.fail(f"Triton failed to compile corpus kernel {name!r} for {arch}: "
                        f"{type(result).__name__}: {result}", pytrace=False)
        return result


@pytest.fixture(scope="session")
def corpus_ir(triton_cache_dir: Path) -> CorpusCompiler:
    return CorpusCompiler()


@pytest.fixture(scope="session")
def musa_driver_stub(tmp_path_factory: pytest.TempPathFactory):
    """The stand-in libmusa (musa_driver_stub.c), loaded once per session with global symbols, so the launchers
    and device utilities built without -lmusa resolve the driver API to it (one copy: with two, the second's
    variables would not be the ones the extensions use)."""
    import ctypes
    import subprocess
    from triton_musa.backend.launcher import INCLUDE_DIR
    out = tmp_path_factory.mktemp("stub") / "libmusa_stub.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-DTRITON_MUSA_DECLARATIONS_ONLY", f"-I{INCLUDE_DIR}",
                    str(Path(__file__).resolve().parent / "musa_driver_stub.c"), "-o", str(out)], check=True)
    return ctypes.CDLL(str(out), mode=ctypes.RTLD_GLOBAL)
