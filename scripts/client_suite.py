#!/usr/bin/env python3
"""Runs a real client's own test suite, unchanged, on the MUSA CPU emulator.

The client's pinned source distribution is fetched through pip (`pip download --no-deps --no-binary :all:`)
and unpacked outside this tree (under --cache, default ~/.cache/triton-musa/clients); what its tests import
is pip-installed into the environment this script runs in (not a dependency of triton-musa). Each test file
then runs in its own pytest process, with the emulator forced (TRITON_MUSA_EMULATOR=1) for the arch asked
for (TRITON_MUSA_ARCH), a per-test time limit (a test running past it is recorded as timed out, its pytest
process killed and the file resumed after it), a JUnit XML summary and a table per test file:

    scripts/client_suite.py liger --arch mp_31                 # Liger-Kernel 0.8.5's test/transformers
    scripts/client_suite.py liger --arch mp_22 --file test_rms_norm.py -k "not bf16"
    scripts/client_suite.py liger                              # mp_31, then mp_22

A failure stops counting only through the client's expected-outcome list below (EXPECTED), where every
entry gives its reason and the evidence; an entry that matched nothing in a full run is reported as stale.
The exit status is 0 when every test that ran passed or is expected, 1 otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

SCRIPTS = Path(__file__).resolve().parent
ARCHS = ("mp_31", "mp_22")
OUTCOMES = ("passed", "failed", "skipped", "timeout", "expected")


@dataclasses.dataclass(frozen=True)
class Expected:
    """A test whose failure is not ours to fix: `pattern` (a regular expression searched in the node id),
    the archs it applies to, the outcome it has there (failed / error / timeout / collection), a regular
    expression its failure message must match (so that another failure of the same test still counts), why,
    and the evidence for the why."""
    pattern: str
    outcome: str
    reason: str
    evidence: str
    message: str = ""
    archs: Tuple[str, ...] = ARCHS


@dataclasses.dataclass(frozen=True)
class Client:
    name: str
    requirement: str  # what pip downloads, pinned
    tests: str  # the test folder inside the unpacked source distribution
    test_deps: Tuple[Tuple[str, str], ...]  # (module its tests import, the requirement that installs it)
    expected: Tuple[Expected, ...]

    @property
    def sdist_dir(self) -> str:
        name, version = self.requirement.split("==")
        return f"{name.replace('-', '_')}-{version}"


LIGER = Client(
    name="liger",
    requirement="liger-kernel==0.8.5",
    tests="test/transformers",
    # Liger's `dev` extra names these for its tests (transformers>=5.0.0); tokenizers and packaging come
    # with transformers but are imported by test/utils.py directly. transformers 5.23 removed the model
    # output classes (Qwen2VLCausalLMOutputWithPast, Qwen2_5_VL..., Glm4vMoe...) that Liger 0.8.5's
    # transformers/model/*.py import, so 14 tests of test_monkey_patch.py fail to import with it.
    test_deps=(("transformers", "transformers>=5.0.0,<5.23"), ("tokenizers", "tokenizers"),
               ("packaging", "packaging")),
    expected=(
        Expected(
            pattern=r"^test/transformers/test_tvd\.py$", outcome="collection",
            reason="a torch CPU limitation: the module's skipif evaluates "
                   "getattr(torch, infer_device()).get_device_properties(0) at import time, and torch.cpu has no "
                   "get_device_properties, so the file cannot be collected where Liger picks the CPU device",
            evidence="test_tvd.py:50; `python -c 'import torch; torch.cpu.get_device_properties'` raises "
                     "AttributeError: module 'torch.cpu' has no attribute 'get_device_properties'"),
        Expected(
            pattern=r"^test/transformers/test_layer_norm\.py::test_liger_layer_norm\[dtype1-", outcome="failed",
            message=r"^assert False",
            reason="a torch CPU limitation: the bf16 reference is torch's CPU LayerNorm backward, which sums the "
                   "weight and bias gradients over the rows in bf16; Liger sums in fp32 and rounds once, and lands "
                   "closer to the exact gradient than the reference does, but outside the test's 2e-2 tolerance "
                   "of the reference",
            evidence="for x = randn(2, 8, 64, bf16), dy = randn_like(x): torch's bias grad differs from the exact "
                     "sum of dy over rows by 0.072, bf16(exact sum) by at most 0.028; against an fp64 LayerNorm the "
                     "max error of Liger's weight/bias grads is 0.027/0.028, of torch's bf16 ones 0.052/0.072 "
                     "(2-8-64 case, mp_31 and mp_22 alike)"),
        Expected(
            pattern=r"^test/transformers/test_cross_entropy\.py::test_correctness_with_z_loss_with_other_params_once"
                    r"\[0\.2--42-sum-.*-dtype1-1e-08-1e-06-", outcome="failed", archs=("mp_31",),
            message=r"Number of mismatched elements",
            reason="a torch CPU limitation: with reduction='sum' the fp32 gradients (about 1e-3) are compared at "
                   "atol 1e-8, rtol 1e-6, below what fp32 rounding of the reference reaches: torch's CPU "
                   "cross-entropy gradient is further from the exact one than Liger's, and the two differ by "
                   "more than the tolerance",
            evidence="the test's inputs (3-423-32000, label smoothing 0.2, lse_square_scale 1e-4, seed 0): max |grad "
                     "- fp64 grad| is 4.2e-8 for Liger on the emulator and 7.9e-8 for torch's CPU fp32 reference; "
                     "the 'mean' cases of the same test (the gradients divided by N) pass"),
        Expected(
            pattern=r"^test/transformers/test_cross_entropy\.py::test_correctness_not_last_layer_with_other_params"
                    r"\[1\.0-dtype1-1e-08-1e-05-sum-", outcome="failed", message=r"^assert False", archs=("mp_31",),
            reason="a torch CPU limitation: with reduction='sum', softcap 30 and label smoothing, torch's CPU fp32 "
                   "reference gradient is outside the test's tolerance (atol 1e-8, rtol 1e-5) of the exact "
                   "gradient, Liger's is inside it",
            evidence="the test's inputs (3-423-32000, ignore_index -100, lse_square_scale 1e-4, label smoothing 0.1, "
                     "softcap 30, seed 0): max |grad - fp64 grad| is 3.7e-7 for Liger on the emulator (allclose to "
                     "fp64 at the test's tolerance) and 7.2e-7 for torch (not allclose); the 'mean' cases pass"),
        Expected(
            pattern=r"^test/transformers/test_cross_entropy\.py::test_correctness_with_forward_only"
                    r"\[dtype1-1\.0-0\.01-0\.01-mean-2-4096-32000-", outcome="failed", archs=("mp_31",),
            message=r"allclose.*\(tensor\(inf, dtype=torch\.float16\), tensor\(10\.88",
            reason="a torch CPU limitation: the reference, torch's CPU fp16 cross_entropy with reduction='mean', "
                   "sums the 8192 row losses (about 10.9 each, 89000 in all) in fp16 before it divides, and returns "
                   "inf; Liger divides each row's loss first and returns 10.88",
            evidence="torch.manual_seed(0); x = torch.randn(8192, 32000, dtype=torch.float16); t = "
                     "torch.randint(0, 32000, (8192,)); torch.nn.functional.cross_entropy(x, t) is inf on the CPU, "
                     "the same in fp32 is 10.88; the 3-423 case (1269 rows, no overflow) passes"),
        Expected(
            pattern=r"^test/transformers/test_kl_div\.py::test_torch_compile_matches_eager\[", outcome="failed",
            message=r"InternalTorchDynamoError: AttributeError: 'constexpr' object has no attribute 'value'",
            reason="a torch CPU limitation: torch.utils._triton.has_triton() is False on the CPU build (it asks for a "
                   "CUDA or XPU device), so torch.compile does not capture Liger's kernel launch as a user-defined "
                   "Triton kernel; dynamo traces into Triton's own JITFunction.run instead and fails there on a "
                   "tl.constexpr, after the kernel compiled",
            evidence="`python -c 'from torch.utils._triton import has_triton; print(has_triton())'` prints False "
                     "(torch 2.13.0 CPU); the failure is in torch/_dynamo/variables/user_defined.py:1732 "
                     "(as_python_constant: self.value.value) from triton/runtime/jit.py:727 (the used-globals check "
                     "after the compile); with TRITON_INTERPRET=1 the same test fails too (InterpreterError)"),
        Expected(
            pattern=r"^test/transformers/test_dyt\.py::", outcome="failed",
            message=r"UnboundLocalError: cannot access local variable 'NUM_SMS'",
            reason="the client has no CPU path here: liger_dyt_bwd sets NUM_SMS only for infer_device() in "
                   "cuda/xpu/npu, and Liger picks the CPU device where no GPU is present, so every backward "
                   "raises before a kernel is launched",
            evidence="src/liger_kernel/ops/dyt.py:130-137 (0.8.5); the failure is "
                     "UnboundLocalError: cannot access local variable 'NUM_SMS' at dyt.py:137"),
        Expected(
            pattern=r"^test/transformers/test_mlp\.py::", outcome="failed", message=r"^AssertionError$",
            reason="the client has no CPU path here: LigerMLPFunction.forward asserts input.is_cuda and "
                   "*_weight.is_cuda before launching anything, and Liger's tensors are CPU tensors where no "
                   "GPU is present",
            evidence="src/liger_kernel/ops/mlp.py:652 (0.8.5): `assert input.is_cuda and gate_weight.is_cuda and "
                     "...`; all 37 failures of test_mlp.py are this bare AssertionError (mp_31 and mp_22); its 5 "
                     "tests that build no LigerMLPFunction pass"),
        Expected(
            pattern=r"^test/transformers/", outcome="failed", archs=("mp_22",),
            message=r"OutOfResources: out of resource: threads, Required: (2048|4096), Hardware limit: 1024",
            reason="a hardware limit: QY2's warps have 128 lanes and a block at most 1024 threads, so the "
                   "num_warps=16 (or 32) that Liger's calculate_settings picks for rows of 8192 or more columns, "
                   "and the num_warps=32 its fused linear cross-entropy always asks for, need 2048 (4096) "
                   "threads; the launch ends in Triton's OutOfResources naming the limit",
            evidence="src/liger_kernel/ops/utils.py:57-74 (0.8.5): BLOCK_SIZE >= 8192 -> num_warps 16, >= 32768 -> "
                     "32; the message is 'out of resource: threads, Required: 2048, Hardware limit: 1024' "
                     "(e.g. test_swiglu.py::test_triton_silumul_correctness[fp32-shape5], n_cols 11008); "
                     "src/liger_kernel/ops/fused_linear_cross_entropy.py:248,434,449,462: num_warps=32 whatever "
                     "the sizes, so all 141 tests of test_fused_linear_cross_entropy.py end in 'Required: 4096'"),
        Expected(
            pattern=r"^test/transformers/test_group_norm\.py::test_liger_group_norm\[dtype0-0\.0001-0\.0001-16-48-12-8192\]",
            outcome="failed", message=r"Bias grads different|Weight grads different",
            reason="a torch CPU limitation: the fp32 reference is torch's CPU GroupNorm backward, whose bias and "
                   "weight grads (sums over 16 x 8192 = 131072 values per channel) are 4-5x further from the exact "
                   "sums than Liger's; each is within the test's 1e-4 tolerance of an fp64 GroupNorm, their "
                   "difference is not (Liger's atomics make its own rounding vary from run to run)",
            evidence="same inputs as the test: max |grad - fp64| of the bias grad 1.4e-4..1.5e-4 (Liger, two runs) vs "
                     "6.8e-4 (torch), of the weight grad 1.5e-4..2.1e-4 vs 3.8e-4; allclose(each, fp64, 1e-4, 1e-4) "
                     "holds for Liger and for torch; mp_31 and mp_22 alike"),
    ),
)

CLIENTS: Dict[str, Client] = {c.name: c for c in (LIGER,)}


# ---------------------------------------------------------------------------------------------- fetching

def default_cache() -> Path:
    base = os.environ.get("TRITON_MUSA_CLIENT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "triton-musa", "clients")
    return Path(base)


def fetch(client: Client, cache: Path) -> Path:
    """The unpacked source distribution of `client` under `cache`, downloaded through pip when absent."""
    root = cache / client.sdist_dir
    if (root / client.tests).is_dir():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                    "--dest", str(cache), client.requirement], check=True)
    archive = cache / f"{client.sdist_dir}.tar.gz"
    if not archive.exists():
        raise FileNotFoundError(f"pip download {client.requirement} left no {archive.name} in {cache}")
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    if not (root / client.tests).is_dir():
        raise FileNotFoundError(f"{archive} holds no {client.tests}/")
    return root


def _satisfied(module: str, requirement: str) -> bool:
    """Whether `module` imports here from a distribution whose version `requirement` admits."""
    if importlib.util.find_spec(module) is None:
        return False
    try:
        from importlib.metadata import PackageNotFoundError, version

        from packaging.requirements import Requirement
    except ImportError:  # no packaging yet: the module's presence is all that can be told
        return True
    req = Requirement(requirement)
    try:
        return req.specifier.contains(version(req.name), prereleases=True)
    except PackageNotFoundError:
        return False


def install_test_deps(client: Client) -> None:
    """pip-installs the requirements its tests need that this environment lacks (or has another version of)."""
    missing = [req for module, req in client.test_deps if not _satisfied(module, req)]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "install", *missing], check=True)


# ---------------------------------------------------------------------------------------------- running

@dataclasses.dataclass
class Result:
    nodeid: str
    outcome: str  # passed, failed, error, skipped, timeout, collection
    message: str = ""
    duration: float = 0.0
    expected: Optional[Expected] = None

    @property
    def file(self) -> str:
        return self.nodeid.split("::", 1)[0]

    @property
    def column(self) -> str:
        if self.expected is not None:
            return "expected"
        return {"error": "failed", "collection": "failed"}.get(self.outcome, self.outcome)


def suite_env(arch: str) -> Dict[str, str]:
    env = dict(os.environ)
    env["TRITON_MUSA_EMULATOR"] = "1"  # as test/python/conftest.py forces it: the emulator runs every kernel
    env["TRITON_MUSA_ARCH"] = arch
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SCRIPTS), env.get("PYTHONPATH", "")) if p)
    return env


def pytest_base(keyword: str) -> List[str]:
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "client_suite_progress",
           "-o", "log_cli=false", "-q", "--tb=line"]
    return cmd + (["-k", keyword] if keyword else [])


def collect(root: Path, paths: Sequence[str], keyword: str, env: Dict[str, str]) -> Tuple[List[str], List[Result]]:
    """Test ids under `paths`, and one `collection` result per file pytest could not import."""
    proc = subprocess.run(pytest_base(keyword) + ["--collect-only", "--continue-on-collection-errors", *paths],
                          cwd=root, env=env, capture_output=True, text=True)
    ids = [ln.strip() for ln in proc.stdout.splitlines() if "::" in ln and not ln.startswith((" ", "ERROR"))]
    broken = []
    for match in re.finditer(r"^ERROR (\S+\.py)(?: - (.*))?$", proc.stdout, re.M):
        broken.append(Result(match.group(1), "collection", match.group(2) or "collection error"))
    if not ids and not broken:
        raise RuntimeError(f"pytest collected nothing under {paths} in {root}:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return ids, broken


def _watch(proc: "subprocess.Popen[bytes]", progress: Path, results: Dict[str, Result], limit: float,
           echo: bool) -> Tuple[Optional[Tuple[str, float]], bool]:
    """Follows one pytest process's progress lines into `results` until it ends, or kills it when its
    current test has run past `limit` seconds. Returns the test running at the end (if any), and whether
    it timed out."""
    current: Optional[Tuple[str, float]] = None
    offset = 0
    while True:
        done = proc.poll() is not None
        with progress.open(encoding="utf-8") as f:
            f.seek(offset)
            chunk = f.read()
        complete = chunk[:chunk.rfind("\n") + 1]
        offset += len(complete.encode("utf-8"))
        for line in complete.splitlines():
            record = json.loads(line)
            if "start" in record:
                current = (record["start"], float(record["t"]))
            else:
                res = Result(record["end"], str(record["outcome"]), str(record["message"]),
                             float(record["duration"]))
                results[res.nodeid] = res
                current = None
                if echo:
                    print(f"  {res.outcome:8s} {res.duration:7.1f}s  {res.nodeid}", flush=True)
        if done:
            return current, False
        if current is not None and time.time() - current[1] > limit:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            results[current[0]] = Result(current[0], "timeout", f"timed out after {limit:.0f} s", limit)
            if echo:
                print(f"  timeout  {limit:7.1f}s  {current[0]}", flush=True)
            return current, True
        time.sleep(0.5)


def run_file(root: Path, ids: List[str], env: Dict[str, str], limit: float, progress: Path,
             echo: bool) -> List[Result]:
    """Runs `ids` (one file's tests) in pytest processes, killing a process whose current test runs past
    `limit` seconds and resuming after it."""
    results: Dict[str, Result] = {}
    remaining = list(ids)
    while remaining:
        progress.write_text("")
        cmd = pytest_base("") + remaining
        proc = subprocess.Popen(cmd, cwd=root, env={**env, "CLIENT_SUITE_PROGRESS": str(progress)},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        current: Optional[Tuple[str, float]] = None
        timed_out = False
        try:
            current, timed_out = _watch(proc, progress, results, limit, echo)
        finally:
            if proc.poll() is None:  # interrupted: the pytest process group goes with us
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        before = len(remaining)
        remaining = [i for i in remaining if i not in results]
        if remaining and not timed_out:
            # pytest ended without reporting these (a crash of the process, or ids it could not resolve)
            crashed = current[0] if current is not None else remaining[0]
            results[crashed] = Result(crashed, "error", f"the pytest process ended (status {proc.returncode}) "
                                      "while this test ran")
            remaining = [i for i in remaining if i != crashed]
        assert len(remaining) < before
    return [results[i] for i in ids]


def match_expected(results: Iterable[Result], expected: Sequence[Expected], arch: str) -> List[Expected]:
    """Marks the failures the expected-outcome list names; returns the entries that matched nothing."""
    used = set()
    entries = [e for e in expected if arch in e.archs]
    for res in results:
        if res.outcome in ("passed", "skipped"):
            continue
        for e in entries:
            if e.outcome == res.outcome and re.search(e.pattern, res.nodeid) and re.search(e.message, res.message):
                res.expected = e
                used.add(e)
                break
    return [e for e in entries if e not in used]


# ---------------------------------------------------------------------------------------------- reporting

def write_junit(results: Sequence[Result], arch: str, path: Path) -> None:
    suites = ET.Element("testsuites", name=f"client-suite-{arch}")
    by_file: Dict[str, List[Result]] = defaultdict(list)
    for res in results:
        by_file[res.file].append(res)
    for file, group in sorted(by_file.items()):
        counts = Counter(r.column for r in group)
        suite = ET.SubElement(suites, "testsuite", name=f"{arch}:{file}", tests=str(len(group)),
                              failures=str(counts["failed"] + counts["timeout"]), skipped=str(counts["skipped"]),
                              time=f"{sum(r.duration for r in group):.2f}")
        for res in group:
            name = res.nodeid.split("::", 1)[1] if "::" in res.nodeid else "(collection)"
            case = ET.SubElement(suite, "testcase", classname=file, name=name, time=f"{res.duration:.2f}")
            if res.expected is not None:
                ET.SubElement(case, "skipped", message=f"expected {res.outcome}: {res.expected.reason}").text = \
                    res.message
            elif res.outcome == "skipped":
                ET.SubElement(case, "skipped", message=res.message)
            elif res.outcome != "passed":
                tag = "failure" if res.outcome in ("failed", "timeout") else "error"
                ET.SubElement(case, tag, message=f"{res.outcome}: {res.message[:300]}").text = res.message
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def table(results: Sequence[Result], arch: str) -> str:
    by_file: Dict[str, Counter] = defaultdict(Counter)
    for res in results:
        by_file[res.file][res.column] += 1
    width = max([len(f) for f in by_file] + [len("file")])
    head = f"| {'file':{width}} | " + " | ".join(f"{c:>8}" for c in OUTCOMES) + " |"
    lines = [f"{arch}:", head, "|" + "-" * (width + 2) + "|" + "|".join("-" * 10 for _ in OUTCOMES) + "|"]
    total: Counter = Counter()
    for file in sorted(by_file):
        total.update(by_file[file])
        lines.append(f"| {file:{width}} | " + " | ".join(f"{by_file[file][c]:8d}" for c in OUTCOMES) + " |")
    lines.append(f"| {'total':{width}} | " + " | ".join(f"{total[c]:8d}" for c in OUTCOMES) + " |")
    ran = total["passed"] + total["failed"] + total["timeout"]
    if ran:
        lines.append(f"{arch}: {total['passed']} of {ran} tests that ran and are not expected to fail passed "
                     f"({100 * total['passed'] / ran:.1f}%); {total['expected']} expected outcomes; "
                     f"{total['skipped']} skipped by the client itself; {total['timeout']} timed out")
    return "\n".join(lines)


def failures(results: Sequence[Result]) -> str:
    lines = []
    for res in results:
        if res.column in ("failed", "timeout"):
            lines.append(f"  {res.outcome:8s} {res.nodeid}\n           {res.message.splitlines()[0][:300] if res.message else ''}")
    return "\n".join(lines)


def read_junit(path: Path) -> List[Result]:
    """The results a finished run wrote (write_junit), to be matched and tabled again (--from-junit)."""
    results = []
    for case in ET.parse(path).getroot().iter("testcase"):
        file, name = case.get("classname", ""), case.get("name", "")
        nodeid = file if name == "(collection)" else f"{file}::{name}"
        res = Result(nodeid, "passed", "", float(case.get("time", "0")))
        for tag in ("failure", "error", "skipped"):
            node = case.find(tag)
            if node is None:
                continue
            head = node.get("message", "")
            if tag == "skipped" and head.startswith("expected "):  # an expected outcome: match it again
                res.outcome, res.message = head[len("expected "):].split(":", 1)[0], node.text or ""
            elif tag == "skipped":
                res.outcome, res.message = "skipped", head
            else:
                res.outcome, res.message = head.split(":", 1)[0], node.text or ""
        if name == "(collection)":
            res.outcome = "collection"
        results.append(res)
    return results


def run_arch(client: Client, root: Path, arch: str, files: Sequence[str], keyword: str, limit: float,
             out: Path, echo: bool) -> Tuple[List[Result], List[Expected]]:
    env = suite_env(arch)
    paths = [f"{client.tests}/{f}" for f in files] if files else [client.tests]
    ids, broken = collect(root, paths, keyword, env)
    by_file: Dict[str, List[str]] = defaultdict(list)
    for i in ids:
        by_file[i.split("::", 1)[0]].append(i)
    results: List[Result] = list(broken)
    out.mkdir(parents=True, exist_ok=True)
    order = [f"{client.tests}/{f}" for f in files] if files else sorted(by_file)
    for file in [f for f in order if f in by_file]:
        start = time.time()
        print(f"{arch}: {file} ({len(by_file[file])} tests)", flush=True)
        file_results = run_file(root, by_file[file], env, limit, out / f"progress-{arch}.jsonl", echo)
        results += file_results
        counts = Counter(r.outcome for r in file_results)
        print(f"{arch}: {file}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
              + f" ({time.time() - start:.0f} s)", flush=True)
        # After every file, so that a run stopped early leaves what it did (--from-junit tables it).
        match_expected(results, client.expected, arch)
        write_junit(results, arch, out / f"junit-{client.name}-{arch}.xml")
    stale = match_expected(results, client.expected, arch)
    write_junit(results, arch, out / f"junit-{client.name}-{arch}.xml")
    return results, stale


def report_for(results: Sequence[Result], stale: Sequence[Expected], arch: str, partial: bool) -> str:
    """The table, the failures, the expected outcomes with their reasons, and (for a full run) the
    expected-outcome entries that matched nothing."""
    report = table(results, arch)
    listed = failures(results)
    if listed:
        report += "\nfailures:\n" + listed
    by_entry: Dict[Expected, List[Result]] = defaultdict(list)
    for res in results:
        if res.expected is not None:
            by_entry[res.expected].append(res)
    if by_entry:
        report += "\nexpected outcomes:" + "".join(
            f"\n  {len(group)} x {entry.outcome} ({entry.pattern}), e.g. {group[0].nodeid}"
            f"\n      reason: {entry.reason}\n      evidence: {entry.evidence}" for entry, group in by_entry.items())
    if stale and not partial:
        report += "\nstale expected-outcome entries (matched nothing):\n" + "\n".join(
            f"  {e.outcome} {e.pattern}" for e in stale)
    return report


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("client", choices=sorted(CLIENTS))
    parser.add_argument("--arch", action="append", choices=ARCHS, help="emulated arch (default: mp_31, then mp_22)")
    parser.add_argument("--file", action="append", default=[], help="a test file in the client's test folder, "
                        "run in the order given (default: all, in name order)")
    parser.add_argument("-k", dest="keyword", default="", help="pytest -k expression")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds one test may run (default 120)")
    parser.add_argument("--cache", type=Path, default=None, help="where the source distribution is unpacked")
    parser.add_argument("--out", type=Path, default=Path("client-suite"), help="folder for the JUnit XML files")
    parser.add_argument("--no-install", action="store_true", help="do not pip-install the tests' imports")
    parser.add_argument("-v", dest="echo", action="store_true", help="print each test's outcome as it ends")
    parser.add_argument("--from-junit", type=Path, default=None, help="table a finished run's JUnit XML again, "
                        "against the current expected-outcome list (one --arch), instead of running tests")
    args = parser.parse_args(argv)
    # A SIGTERM ends the run as Ctrl-C does, through run_file's cleanup of its pytest process group.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))

    client = CLIENTS[args.client]
    if args.from_junit is not None:
        if not args.arch or len(args.arch) != 1:
            parser.error("--from-junit needs the one --arch the run was for")
        results = read_junit(args.from_junit)
        stale = match_expected(results, client.expected, args.arch[0])
        print(report_for(results, stale, args.arch[0], partial=True))
        return 0 if not failures(results) else 1
    root = fetch(client, args.cache or default_cache())
    if not args.no_install:
        install_test_deps(client)
    ok = True
    reports = []
    for arch in args.arch or ARCHS:
        results, stale = run_arch(client, root, arch, args.file, args.keyword, args.limit, args.out, args.echo)
        report = report_for(results, stale, arch, partial=bool(args.file or args.keyword))
        if failures(results):
            ok = False
        report += f"\nJUnit: {args.out / f'junit-{client.name}-{arch}.xml'}"
        reports.append(report)
        print(report, flush=True)
    if len(reports) > 1:
        print("\n\n".join(reports))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
