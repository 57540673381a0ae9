"""The emulator's worker threads outlive their launch (WorkerPool in emulator/Runtime.cpp): a launch's
blocks still run at the same time on as many threads as it asks for, from one Python thread or
several at once, and in a forked child (which has none of the parent's threads). The kernel here
ends only where its two programs run at once: program 0 waits for a flag program 1 raises. A launch
that does not get two threads hangs, so each case runs in a child process with a time limit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from triton_musa.backend.emulator import emulator_active
from triton_musa.backend.environment import THREADS_ENV

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

_SCRIPT = textwrap.dedent("""
    import os, sys, threading
    os.environ["TRITON_MUSA_EMULATOR"] = "1"
    import torch, triton, triton.language as tl

    @triton.jit
    def handshake(flag_ptr):
        if tl.program_id(0) == 0:
            while tl.atomic_add(flag_ptr, 0) == 0:
                pass
        else:
            tl.atomic_xchg(flag_ptr, 1)

    def run():
        flag = torch.zeros(1, dtype=torch.int32)
        handshake[(2, )](flag, num_warps=1)
        assert flag.item() == 1

    run()
    case = sys.argv[1]
    if case == "threads":
        threads = [threading.Thread(target=run) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    elif case == "fork":
        pid = os.fork()
        if pid == 0:
            run()
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        run()  # the parent's pool still serves
    print("ok")
""")


@pytest.mark.parametrize("case", ["repeat", "threads", "fork"])
def test_blocks_of_a_launch_run_at_once(case: str, tmp_path: Path) -> None:
    script = tmp_path / "handshake.py"  # Triton reads a kernel's source from its file
    script.write_text(_SCRIPT)
    env = dict(os.environ, **{THREADS_ENV: "2"})
    try:
        done = subprocess.run([sys.executable, str(script), case], env=env, capture_output=True, text=True,
                              timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case}: the two programs of a launch did not run at once (the launch hung)")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
