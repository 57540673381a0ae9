"""A pytest plugin for scripts/client_suite.py: appends one JSON line per test event to the file named by
CLIENT_SUITE_PROGRESS, flushed at once, so that the driver knows which test is running (for its time limit)
and what finished, even when it has to kill the pytest process.

Lines: {"start": nodeid, "t": time} when a test begins, {"end": nodeid, "outcome": ..., "message": ...,
"duration": ...} when its teardown is reported. Outcomes: passed, failed, skipped (Liger's own skip or an
xfail), error (setup or teardown failed). Loaded with `-p client_suite_progress` (scripts/ on sys.path)."""

from __future__ import annotations

import json
import os
import time
from typing import Dict, IO, Optional

import pytest

_log: Optional[IO[str]] = None
_state: Dict[str, Dict[str, object]] = {}


def _write(record: Dict[str, object]) -> None:
    if _log is not None:
        _log.write(json.dumps(record) + "\n")
        _log.flush()
        os.fsync(_log.fileno())


def pytest_configure(config: pytest.Config) -> None:
    global _log
    path = os.environ.get("CLIENT_SUITE_PROGRESS")
    if path:
        _log = open(path, "a", encoding="utf-8")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _log is not None:
        _log.close()


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    _state[nodeid] = {"outcome": "passed", "message": "", "duration": 0.0}
    _write({"start": nodeid, "t": time.time()})


def _message(report: pytest.TestReport) -> str:
    if isinstance(report.longrepr, tuple):  # a skip: (file, line, reason)
        return str(report.longrepr[2])
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return str(crash.message)
    return str(report.longrepr or "")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    state = _state.setdefault(report.nodeid, {"outcome": "passed", "message": "", "duration": 0.0})
    state["duration"] = float(state["duration"]) + report.duration
    if report.failed and state["outcome"] not in ("failed", "error"):
        state["outcome"] = "failed" if report.when == "call" else "error"
        state["message"] = _message(report)[:4000]
    elif report.skipped and state["outcome"] == "passed":
        state["outcome"] = "skipped"
        state["message"] = ("xfail: " + str(report.wasxfail)) if hasattr(report, "wasxfail") else _message(report)
    if report.when == "teardown":
        _write({"end": report.nodeid, **state})
